package services

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// reviewDraft is a complete draft with allow-list entries allow.
func reviewDraft(allow string) *draft {
	return &draft{Name: "orders-db2", Nodes: "1", Provider: "aws", Region: "us-east-1", ServiceType: "transactional",
		Topology: "es-single", Architecture: "amd64", Size: "sky-2x8", Storage: 100, SSL: true, Version: "11.4.2-1",
		AllowList: allow}
}

// footerKeys is the help the footer would show for the screen's mode.
func footerKeys(s *Screen) string {
	var out []string
	for _, b := range s.KeyMap().ShortHelp() {
		out = append(out, b.Help().Key+" "+b.Help().Desc)
	}
	return strings.Join(out, "  ")
}

// TestReviewScrollsToItsLastLine: on a terminal too short for the
// request (60x16, and 80x24 with a wide network's warning under it), the
// review says what is below and which key shows it, the footer lists the
// scroll, and the scroll keys reach the request's last lines (the name,
// SSL, the allow list) and back; every frame fits its area.
func TestReviewScrollsToItsLastLine(t *testing.T) {
	for _, tc := range []struct {
		w, h  int // the screen's area: a 60x16 and an 80x24 terminal's
		allow string
		last  string
	}{
		{60, 12, "203.0.113.7, 198.51.100.0/24", `{"ip": "198.51.100.0/24"}`},
		{80, 20, "203.0.113.7, 10.0.0.0/8", `{"ip": "10.0.0.0/8"}`},
	} {
		what := fmt.Sprintf("%dx%d", tc.w, tc.h)
		s := newScreen(tc.w, tc.h)
		s.draft = reviewDraft(tc.allow)
		s.mode = modeReview
		v := tuitest.View(s)
		tuitest.CheckFits(t, what, s.View(), tc.w, tc.h)
		if !regexp.MustCompile(`J: \d+ more lines?`).MatchString(v) || strings.Contains(v, tc.last) {
			t.Fatalf("%s: the review is cut without saying what is below (or shows it all):\n%s", what, v)
		}
		if !strings.Contains(v, "Review: this is the request that will be sent") {
			t.Fatalf("%s: the title left the screen:\n%s", what, v)
		}
		if f := footerKeys(s); !strings.Contains(f, "J/K scroll text") {
			t.Errorf("%s: the footer does not offer the scroll: %s", what, f)
		}
		for i := 0; i < 5 && strings.Contains(tuitest.View(s), "more line"); i++ {
			press(s, "J")
			tuitest.CheckFits(t, what, s.View(), tc.w, tc.h)
		}
		v = tuitest.View(s)
		for _, want := range []string{`"name": "orders-db2"`, `"ssl_enabled": true`, tc.last, "  ]", "lines above"} {
			if !strings.Contains(v, want) {
				t.Errorf("%s: after J the review does not show %q:\n%s", what, want, v)
			}
		}
		if strings.Contains(v, "more line") {
			t.Errorf("%s: at the end the review still says there is more below:\n%s", what, v)
		}
		for range 5 {
			press(s, "pgup")
		}
		if v := tuitest.View(s); !strings.Contains(v, `"service_type": "transactional"`) || strings.Contains(v, "above") {
			t.Errorf("%s: pgup did not come back to the top:\n%s", what, v)
		}
	}
}

// TestReviewShowsItsEndBeforeLaunching: enter while the request's last
// lines are below the window shows them first (nothing is sent), the
// next enter launches; e still edits.
func TestReviewShowsItsEndBeforeLaunching(t *testing.T) {
	s := newScreen(60, 12)
	s.draft = reviewDraft("203.0.113.7, 198.51.100.0/24")
	s.mode = modeReview
	cmd := press(s, "enter")
	if cmd == nil {
		t.Fatal("enter did nothing")
	}
	if _, ok := cmd().(kit.ActionRequestMsg); ok {
		t.Fatalf("enter launched with the end of the request unseen:\n%s", tuitest.View(s))
	}
	if v := tuitest.View(s); !strings.Contains(v, `{"ip": "198.51.100.0/24"}`) || s.mode != modeReview {
		t.Fatalf("enter did not show the end of the request:\n%s", v)
	}
	req, ok := press(s, "enter")().(kit.ActionRequestMsg)
	if !ok || req.Action.Name != "create service orders-db2" {
		t.Fatalf("the second enter did not launch: %#v", req)
	}
	// e opens the form again, whatever the scroll
	s.mode = modeReview
	press(s, "J")
	press(s, "e")
	if s.mode != modeCreate || s.form == nil {
		t.Fatal("e did not open the form")
	}
}

// TestReviewThatFitsIsNotCut: a review that fits has no scroll line, no
// scroll key in the footer, and enter launches at once.
func TestReviewThatFitsIsNotCut(t *testing.T) {
	s := newScreen(80, 20)
	s.draft = reviewDraft("203.0.113.7")
	s.mode = modeReview
	v := tuitest.View(s)
	if strings.Contains(v, "more line") || strings.Contains(footerKeys(s), "scroll") {
		t.Fatalf("a review that fits is cut:\n%s\nfooter: %s", v, footerKeys(s))
	}
	if _, ok := press(s, "enter")().(kit.ActionRequestMsg); !ok {
		t.Fatal("enter did not launch")
	}
}

// screenApp runs the Services screen alone as a program (its commands'
// answers come back to it), for tuitest.Harness.
type screenApp struct{ s *Screen }

func (a screenApp) Init() tea.Cmd { return nil }

func (a screenApp) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.WindowSizeMsg); ok {
		return a, nil // the size is the test's (SetSize)
	}
	_, cmd := a.s.Update(msg)
	return a, cmd
}

func (a screenApp) View() tea.View { return tea.NewView(a.s.View()) }

// createHarness opens the create form against the demo sandbox, in the
// area of a w-column terminal, and goes to its last step's allow list.
func createHarness(t *testing.T, w, h int) (*tuitest.Harness, *Screen) {
	t.Helper()
	hs, s := demoScreen(t, w, h, nil)
	hs.Key("n")
	hs.Until("the providers", func() bool { return strings.Contains(hs.Screen(), "(us-east-1)") })
	for _, next := range []string{"> Enterprise Server", "> Sky-2x8", "> 100 GB", "5/5: name and access"} {
		hs.Keys("enter", "enter")
		hs.Until(next, func() bool { return strings.Contains(hs.Screen(), next) })
	}
	hs.TypeText("orders-db2")
	hs.Keys("enter", "enter", "enter") // nodes, SSL, the allow list
	hs.Until("the allow list", func() bool { return s.mode == modeCreate && s.form.focused() == "allow list" })
	return hs, s
}

// allowHintLines are the lines of the allow list's hint in a view of the
// form: under its title, above its input.
func allowHintLines(v string) []string {
	lines := strings.Split(v, "\n")
	for i, l := range lines {
		if !strings.HasSuffix(strings.TrimSpace(l), "Allow list") {
			continue
		}
		var out []string
		for _, h := range lines[i+1:] {
			r := []rune(h)
			text := strings.TrimSpace(string(r[min(2, len(r)):])) // after the field's bar
			if text == "" || strings.HasPrefix(text, ">") {
				break
			}
			out = append(out, text)
		}
		return out
	}
	return nil
}

var addressRe = regexp.MustCompile(`[0-9a-f]*[.:][0-9a-f.:]+(/[0-9]+)?`)

// TestCreateHintKeepsAddressesWhole: at 80 columns the allow list's hint
// wraps between words, never inside an address (huh's own wrap broke
// "198.51.100.0/24" at its dots), whether it is the example, the entries
// typed or a wide network's warning.
func TestCreateHintKeepsAddressesWhole(t *testing.T) {
	hs, _ := createHarness(t, 80, 20)
	for _, typed := range []string{
		"",
		"203.0.113.7, 198.51.100.0/24, 192.0.2.0/24, 203.0.113.128/25, 198.51.100.77",
		"203.0.113.7, 198.51.100.0/24, 10.0.0.0/8",
	} {
		if typed != "" {
			hs.Paste(typed)
		}
		want := allowHint(typed)
		// the hint is evaluated in a command: wait for it, however wrapped
		flat := func(s string) string { return strings.ReplaceAll(s, " ", "") }
		hs.Until("the hint", func() bool { return flat(strings.Join(allowHintLines(hs.Screen()), "")) == flat(want) })
		hint := allowHintLines(hs.Screen())
		if len(hint) < 2 {
			t.Fatalf("%q: the hint is not wrapped at 80 columns, the test tests nothing: %q", typed, hint)
		}
		for _, a := range addressRe.FindAllString(want, -1) {
			if !strings.Contains(strings.Join(hint, "\n"), a) {
				t.Errorf("%q: the hint cuts %s in two:\n%s", typed, a, strings.Join(hint, "\n"))
			}
		}
		tuitest.CheckFits(t, "80 columns", hs.Render(), 80, 20)
		hs.Key("ctrl+u") // the field emptied
	}
}

// TestCreateTabOnLastFieldGoesOn: tab on the form's last field does what
// enter does there, as the footer's "enter/tab next" says (huh turns tab
// off on a form's last field): an invalid entry holds it, a valid one
// opens the review.
func TestCreateTabOnLastFieldGoesOn(t *testing.T) {
	hs, s := createHarness(t, 80, 20)
	hs.Paste("10.1.2.3/8")
	hs.Key("tab")
	if s.mode != modeCreate || s.form.focused() != "allow list" {
		t.Fatalf("tab left an invalid entry (mode %d):\n%s", s.mode, hs.Screen())
	}
	hs.Key("ctrl+u")
	hs.Paste("203.0.113.7")
	hs.Key("tab")
	hs.Until("the review", func() bool { return s.mode == modeReview })
	if v := hs.Screen(); !strings.Contains(v, `{"ip": "203.0.113.7/32"}`) {
		t.Fatalf("the review does not show the entry:\n%s", v)
	}
}

// TestCreateShiftTabLeavesARefusedField: shift+tab goes back from a field
// whatever it holds, to the previous step, focused, and what was typed is
// there when the user comes back (huh kept the form on a step holding an
// error, with no field focused, and what was typed next was lost).
func TestCreateShiftTabLeavesARefusedField(t *testing.T) {
	hs, s := createHarness(t, 80, 20)
	hs.Keys("shift+tab", "shift+tab", "shift+tab") // the allow list, SSL, nodes: the name
	hs.Until("the name", func() bool { return s.form.focused() == "name" })
	hs.Key("ctrl+u")
	hs.TypeText("ab") // too short: refused
	hs.Key("enter")
	hs.Until("the name refused", func() bool { return strings.Contains(hs.Screen(), "! name") })
	hs.Key("shift+tab")
	hs.Until("step 4", func() bool { return strings.Contains(hs.Screen(), "4/5: software and storage") })
	if f := s.form.focused(); f != "storage" {
		t.Fatalf("shift+tab from a refused name: focus on %q, want storage:\n%s", f, hs.Screen())
	}
	if strings.Contains(hs.Screen(), "! name") {
		t.Fatalf("the name's error shows on the step gone back to:\n%s", hs.Screen())
	}
	hs.Key("enter")
	hs.Until("step 5", func() bool { return s.form.focused() == "name" })
	hs.TypeText("c")
	hs.Until("the name kept", func() bool { return strings.Contains(hs.Screen(), "> abc") })
}

// TestCreateHeadIsWhole: the form's head line is its title and what the
// footer does not say (/ filters a list), whole at 60 columns; enter,
// shift+tab and esc are the footer's (they were repeated here and cut).
func TestCreateHeadIsWhole(t *testing.T) {
	hs, s := createHarness(t, 60, 12)
	head := strings.Split(hs.Screen(), "\n")[0]
	if strings.TrimSpace(head) != "Create a service  / filter a list" {
		t.Fatalf("head line %q", head)
	}
	if f := footerKeys(s); !strings.Contains(f, "enter/tab next") || !strings.Contains(f, "esc cancel") {
		t.Fatalf("the footer lacks the form's keys: %s", f)
	}
}

// TestCreateNodesFollowTheTopology: choosing es-replica makes the nodes
// its least (2), as the API's rule has it; a number out of its range is
// refused at the field in the rule's words, before the review; back on a
// single-node topology the nodes are 1 again.
func TestCreateNodesFollowTheTopology(t *testing.T) {
	hs, s := demoScreen(t, 60, 12, nil)
	hs.Key("n")
	hs.Until("the providers", func() bool { return strings.Contains(hs.Screen(), "(us-east-1)") })
	hs.Keys("enter", "enter")
	hs.Until("the service types", func() bool { return strings.Contains(hs.Screen(), "(transactional)") })
	hs.Key("enter")
	hs.Until("the topologies", func() bool { return s.form.focused() == "topology" && strings.Contains(hs.Screen(), "(es-replica)") })
	hs.Key("down")
	hs.Until("es-replica chosen", func() bool { return s.form.values.topology.Get() == "es-replica" })
	if n := s.form.values.nodes.Get(); n != "2" {
		t.Fatalf("es-replica chosen: nodes %q, want its least, 2", n)
	}
	hs.Key("up")
	hs.Until("es-single chosen", func() bool { return s.form.values.topology.Get() == "es-single" })
	if n := s.form.values.nodes.Get(); n != "1" {
		t.Fatalf("es-single chosen again: nodes %q, want 1", n)
	}
	hs.Key("down")
	hs.Until("es-replica chosen", func() bool { return s.form.values.nodes.Get() == "2" })
	for _, next := range []string{"> Sky-2x8", "> 100 GB", "5/5: name and access"} {
		hs.Keys("enter", "enter")
		hs.Until(next, func() bool { return strings.Contains(hs.Screen(), next) })
	}
	hs.TypeText("orders-db2")
	hs.Key("enter")
	hs.Until("the nodes", func() bool { return s.form.focused() == "nodes" })
	if !strings.Contains(hs.Screen(), "> 2") {
		t.Fatalf("the nodes field does not show 2:\n%s", hs.Screen())
	}
	hs.Keys("backspace")
	hs.TypeText("7")
	hs.Key("enter")
	hs.Until("the refusal", func() bool { return strings.Contains(hs.Screen(), "nodes: es-replica has 2 to 5 nodes") })
	if f := s.form.focused(); f != "nodes" || s.mode != modeCreate {
		t.Fatalf("7 nodes of es-replica moved on to %q (mode %v):\n%s", f, s.mode, hs.Screen())
	}
	// a number that fits is kept through a change of topology
	if got := fitNodes("3", "es-replica"); got != "3" {
		t.Errorf("fitNodes(3, es-replica) = %q, want 3 kept", got)
	}
	if _, err := parseNodesFor("1", "es-replica"); err == nil || err.Error() != "nodes: es-replica has 2 to 5 nodes" {
		t.Errorf("parseNodesFor(1, es-replica) = %v", err)
	}
	if _, err := parseNodesFor("x", "es-replica"); err == nil || err.Error() != "nodes: must be a whole number; es-replica has 2 to 5 nodes" {
		t.Errorf("parseNodesFor(x, es-replica) = %v (not the topology's rule)", err)
	}
	if _, err := parseNodesFor("2", "es-single"); err == nil || err.Error() != "nodes: es-single has exactly 1 node" {
		t.Errorf("parseNodesFor(2, es-single) = %v", err)
	}
}

// TestCreateStepSaysWhatIsCut: in a 60x16 terminal's area the last step
// does not fit: the field typed in is shown with its input, and the last
// line names the fields below and above it and the keys that go there;
// where the step fits (80x24) nothing is said.
func TestCreateStepSaysWhatIsCut(t *testing.T) {
	hs, s := createHarness(t, 60, 12)
	v := hs.Screen()
	tuitest.CheckFits(t, "60x12", s.View(), 60, 12)
	if !strings.Contains(v, "> e.g. 203.0.113.7, 198.51.100.0/24") || !strings.Contains(v, "above: name, nodes (shift+tab)") {
		t.Fatalf("on the allow list: its input or the mark of what is above is missing:\n%s", v)
	}
	hs.Keys("shift+tab", "shift+tab")
	hs.Until("the nodes", func() bool { return s.form.focused() == "nodes" })
	v = hs.Screen()
	tuitest.CheckFits(t, "60x12", s.View(), 60, 12)
	if !strings.Contains(v, "> 1") || !strings.Contains(v, "below: allow list (enter/tab)") || !strings.Contains(v, "above: name") {
		t.Fatalf("on the nodes: their input or the mark of what is cut is missing:\n%s", v)
	}

	hs, s = createHarness(t, 80, 20)
	if v := hs.Screen(); strings.Contains(v, "below:") || strings.Contains(v, "above:") {
		t.Fatalf("80x20: the step fits, yet something is said cut:\n%s", v)
	}
	_ = s
}
