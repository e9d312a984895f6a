package kit

import (
	"errors"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

// TestTypeAheadKeepsKeysForTheNextField: "enter" and the next keys in one
// burst (before the form's move comes back): the keys go to the field
// the focus moves to, not to the end of the one left. A key that does not
// move the focus (enter on a field whose value is refused) holds nothing.
func TestTypeAheadKeepsKeysForTheNextField(t *testing.T) {
	var name, secret string
	form := NewForm(common(), huh.NewGroup(
		huh.NewInput().Title("Name").Value(&name).Validate(func(s string) error {
			if s == "" {
				return errors.New("a name is needed")
			}
			return nil
		}),
		huh.NewInput().Title("Secret").EchoMode(huh.EchoModePassword).Value(&secret),
	))
	var ta TypeAhead
	var pending []tea.Cmd
	send := func(msg tea.Msg) {
		var cmd tea.Cmd
		form, cmd = ta.Update(form, msg)
		pending = append(pending, cmd)
	}
	// run answers the commands sent so far, as the program would, later
	run := func() {
		for n := 0; len(pending) > 0 && n < 50; n++ { // a blinking cursor asks for ever
			cmd := pending[0]
			pending = pending[1:]
			if cmd == nil {
				continue
			}
			ch := make(chan tea.Msg, 1)
			go func() { ch <- cmd() }()
			var msg tea.Msg
			select {
			case msg = <-ch:
			case <-time.After(400 * time.Millisecond):
				continue // a blink or the like
			}
			switch m := msg.(type) {
			case tea.BatchMsg:
				pending = append(pending, m...)
			case nil:
			default:
				send(m)
			}
		}
	}
	pending = append(pending, form.Init())
	run()
	keys := func(ks ...string) {
		for _, k := range ks {
			kp, ok := KeyPress(k)
			if !ok {
				t.Fatalf("no key %q", k)
			}
			send(kp)
		}
	}
	keys("enter") // refused: the name is empty; nothing is held
	keys("n", "a", "m", "e", "enter", "s", "3", "c")
	if ta.moving && len(ta.queued) != 3 {
		t.Fatalf("%d keys held during the move, want 3", len(ta.queued))
	}
	run()
	if got := form.GetFocusedField().GetValue(); got != "s3c" {
		t.Errorf("the secret field holds %q, want the keys typed after enter", got)
	}
	if name != "name" {
		t.Errorf("the name is %q: keys typed after enter went to it", name)
	}
}
