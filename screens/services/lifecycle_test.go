package services

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// TestOpenUnknownServiceWarns: ":stop rep", a name typed in part, acts on
// nothing and says so as a warning, which goes in its time (an error
// stayed on the message line until dismissed); when the text is part of
// one name it says the command to type, of several it names them.
func TestOpenUnknownServiceWarns(t *testing.T) {
	s := newScreen(120, 30)
	named := func(i int, name string) api.Service {
		v := svc(i, "ready")
		v.Name = name
		return v
	}
	feed(s, []api.Service{named(1, "orders-prod"), named(2, "replica-west"), named(3, "reporting-new"), named(4, "staging-eu"), named(5, "broken-import")})
	for arg, want := range map[string]string{
		"stop rep":     `no service is named "rep": type one whole (replica-west, reporting-new)`,
		"scale repl":   `no service is named "repl": type the whole name, :scale replica-west`,
		"start r":      `no service is named "r": type one whole (broken-import, orders-prod, replica-west, …)`,
		"delete nosql": `no service has the name or ID "nosql"`,
		"ORDERS":       `no service is named "ORDERS": type the whole name, :services orders-prod`,
		"stop":         `:stop needs a service name or ID`,
	} {
		cmd := s.Open(arg)
		if cmd == nil {
			t.Fatalf("%s: nothing said", arg)
		}
		var msg tea.Msg = cmd()
		tm, ok := msg.(kit.ToastMsg)
		if !ok || tm.Level != kit.ToastWarn || tm.Text != want {
			t.Errorf("%s: %#v\nwant a warning %q", arg, msg, want)
		}
		if s.mode != modeList || s.pane() != nil {
			t.Errorf("%s: a part of a name opened something (mode %v)", arg, s.mode)
		}
	}
}

// TestScaleSizesFillTheAreaAsATable: at 60x16 (a 12-line area) the seven
// sizes show whole, none hidden while rows are free; the sizes' specs
// start in one column whatever the name's length; a list longer than the
// area says what is below.
func TestScaleSizesFillTheAreaAsATable(t *testing.T) {
	s := newScreen(60, 12)
	v := svc(1, "ready")
	v.Topology, v.Size = "es-replica", "sky-4x16"
	sv := newScaleView(s.common, s.keys, v)
	sv.SetSize(60, 12)
	sv.step, sv.kind = scalePickValue, scaleSize
	var choices []scaleChoice
	for _, z := range []api.Size{{Name: "sky-2x8", CPU: "2", RAM: "8"}, {Name: "sky-4x16", CPU: "4", RAM: "16"},
		{Name: "sky-4x32", CPU: "4", RAM: "32"}, {Name: "sky-8x32", CPU: "8", RAM: "32"}, {Name: "sky-8x64", CPU: "8", RAM: "64"},
		{Name: "sky-16x64", CPU: "16", RAM: "64"}, {Name: "sky-32x128", CPU: "32", RAM: "128"}} {
		choices = append(choices, scaleChoice{label: z.Name, value: z.Name, spec: z.Spec()})
	}
	sv.onChoices(scaleChoicesMsg{serviceID: v.ID, kind: scaleSize, choices: choices})
	out := ansi.Strip(sv.View())
	if !strings.Contains(out, "sky-32x128") {
		t.Fatalf("the last size is hidden with room to spare:\n%s", out)
	}
	col := -1
	for _, l := range strings.Split(out, "\n") {
		if i := strings.Index(l, "vCPU"); i >= 0 {
			at := strings.LastIndex(l[:i-1], " ") // the spec's start
			if col >= 0 && at+strings.Index(l[at:], strings.TrimSpace(l[at:i])) != col {
				t.Fatalf("the specs do not start in one column:\n%s", out)
			}
			col = at + strings.Index(l[at:], strings.TrimSpace(l[at:i]))
		}
	}
	sv.SetSize(60, 6)
	sv.cursor = 0
	out = ansi.Strip(sv.View())
	if n := len(strings.Split(out, "\n")); n > 6 || !strings.Contains(out, "more choices") {
		t.Fatalf("a list cut to 6 lines (%d) does not say what is below:\n%s", n, out)
	}
}

// TestScaleNodesKeepToTheTopology: the node counts es-replica cannot have
// are offered blocked, in the API's rule's words, and the cursor starts
// on one that can be chosen (one more than now, else the nearest).
func TestScaleNodesKeepToTheTopology(t *testing.T) {
	s := newScreen(60, 12)
	v := svc(1, "ready")
	v.Topology, v.Nodes = "es-replica", 5
	sv := newScaleView(s.common, s.keys, v)
	sv.SetSize(60, 12)
	sv.step, sv.kind = scalePickValue, scaleNodes
	sv.load()
	for _, c := range sv.choices {
		want := ""
		switch {
		case c.n < 2 || c.n > 5:
			want = "es-replica has 2 to 5 nodes"
		case c.n == 5:
			want = "current"
		}
		if c.blocked != want {
			t.Errorf("%d nodes: blocked %q, want %q", c.n, c.blocked, want)
		}
	}
	if c := sv.choices[sv.cursor]; c.n != 4 {
		t.Errorf("the cursor starts on %d nodes, want 4", c.n)
	}
}
