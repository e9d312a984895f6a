package services

import (
	"testing"

	tea "charm.land/bubbletea/v2"

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
