package kit

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

// TypeAhead keeps keys typed right after enter or tab for the field they
// were typed for. A huh form moves to the next field through a command
// (its answer comes back as a message), so keys that arrive in the same
// burst as the enter (a paste, a fast typist over a slow SSH link) reach
// the field being left: the start of a secret would land, in clear, at
// the end of the name above it. While a move is under way the keys wait,
// and go to the form once the focus has moved (or after moveWait, when
// the key did not move it after all).
//
// The zero value is ready; a form's host keeps one next to the form and
// passes every message through Update.
type TypeAhead struct {
	moving bool
	from   huh.Field
	seq    int
	queued []tea.KeyPressMsg
}

// moveWait is how long typed keys wait for a move that does not come.
const moveWait = 250 * time.Millisecond

// typeAheadDone ends a wait that no move ended.
type typeAheadDone struct {
	t   *TypeAhead
	seq int
}

// moveKeys are the keys that move a huh field (its Next and Prev).
var moveKeys = key.NewBinding(key.WithKeys("enter", "tab", "shift+tab"))

// Update passes msg to form, holding keys while the focus moves; it
// returns the form (huh may return a new one) and what to run.
func (t *TypeAhead) Update(form *huh.Form, msg tea.Msg) (*huh.Form, tea.Cmd) {
	kp, isKey := msg.(tea.KeyPressMsg)
	if done, ok := msg.(typeAheadDone); ok {
		if done.t != t || done.seq != t.seq || !t.moving {
			return form, nil
		}
		return t.release(form, nil)
	}
	if isKey && t.moving {
		t.queued = append(t.queued, kp)
		return form, nil
	}
	from := form.GetFocusedField()
	m, cmd := form.Update(msg)
	if f, ok := m.(*huh.Form); ok {
		form = f
	}
	if isKey {
		if cmd != nil && key.Matches(kp, moveKeys) && form.State == huh.StateNormal && form.GetFocusedField() == from && from != nil && from.Error() == nil {
			t.moving, t.from = true, from
			t.seq++
			done := typeAheadDone{t: t, seq: t.seq}
			return form, tea.Batch(cmd, tea.Tick(moveWait, func(time.Time) tea.Msg { return done }))
		}
		return form, cmd
	}
	if t.moving && (form.GetFocusedField() != t.from || form.State != huh.StateNormal) {
		return t.release(form, cmd)
	}
	return form, cmd
}

// release gives the keys held to the form, where its focus is now.
func (t *TypeAhead) release(form *huh.Form, cmd tea.Cmd) (*huh.Form, tea.Cmd) {
	t.moving = false
	q := t.queued
	t.queued = nil
	cmds := []tea.Cmd{cmd}
	for i, k := range q {
		if t.moving { // a key held was itself a move: the rest wait for it
			t.queued = append(t.queued, q[i:]...)
			break
		}
		var c tea.Cmd
		form, c = t.Update(form, k)
		cmds = append(cmds, c)
	}
	return form, tea.Batch(cmds...)
}
