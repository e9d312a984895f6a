package restores

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// movingClock gives s a clock the test moves (the screen's own is stopped
// at T0); it returns the function that moves it.
func movingClock(s *Screen) func(time.Duration) {
	at := now
	s.common.Now = func() time.Time { return at }
	return func(d time.Duration) { at = at.Add(d) }
}

// deleteDialog selects restore id, presses d and opens the confirmation
// the action asks for, as the root does, in the dialog area of a w x h
// terminal.
func deleteDialog(t *testing.T, s *Screen, id string, w, h int) *kit.ConfirmDialog {
	t.Helper()
	s.Table.Select(id)
	req, ok := press(s, "d")().(kit.ActionRequestMsg)
	if !ok {
		t.Fatalf("d on restore %s asks nothing", id)
	}
	d := kit.NewConfirm(s.common, 1, req.Action.Confirm)
	d.SetSize(w-4, h-5)
	return d
}

// typeInto types text into the dialog.
func typeInto(d *kit.ConfirmDialog, text string) {
	for _, k := range tuitest.Typed(text) {
		d.Update(k)
	}
}

// sends reports that cmd answers the dialog with a yes: the action
// layer would send the DELETE.
func sends(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	m, ok := cmd().(kit.ConfirmedMsg)
	return ok && m.Yes
}

// withStatus is the listing with restore id's status changed, or
// without it when status is "".
func withStatus(id api.FlexInt, status string) []api.Restore {
	var out []api.Restore
	for _, r := range listing() {
		if r.ID == id {
			if status == "" {
				continue
			}
			r.Status, r.Message = status, "Restore has succeeded!"
		}
		out = append(out, r)
	}
	return out
}

// TestDeleteDialogFollowsTheListing: the delete's confirmation says the
// restore's status and age as the list shows them, when it opens and
// while it is open; once the listing shows the restore finished (or no
// longer lists it) the dialog says so, keeps what was typed, and enter
// with the name typed sends nothing.
func TestDeleteDialogFollowsTheListing(t *testing.T) {
	s := newScreen(60, 16)
	tick := movingClock(s)
	feed(s, listing())
	tick(15 * time.Second) // the list's ages move on the clock's next tick
	if !strings.Contains(row(t, s, "2"), "Running 1m12s") {
		t.Fatalf("row 2: %q", row(t, s, "2"))
	}
	d := deleteDialog(t, s, "2", 60, 16)
	if v := tuitest.View(d); !strings.Contains(strings.Join(strings.Fields(v), " "), "Running 1m12s") {
		t.Fatalf("the dialog does not say the list's status and age (Running 1m12s):\n%s", v)
	}
	s.Update(kit.ClockMsg{Now: s.common.Time()})
	if v := tuitest.View(d); !strings.Contains(row(t, s, "2"), "Running 1m27s") || !strings.Contains(strings.Join(strings.Fields(v), " "), "Running 1m27s") {
		t.Fatalf("the dialog's age does not move with the list's (%q):\n%s", row(t, s, "2"), v)
	}

	typeInto(d, "replica")
	feed(s, withStatus(2, "Succeeded"))
	v := tuitest.View(d)
	flat := strings.Join(strings.Fields(v), " ")
	if strings.Contains(v, "Running") || !strings.Contains(flat, "has finished (Succeeded)") ||
		!strings.Contains(flat, "Nothing will be sent") || !strings.Contains(v, "> replica") {
		t.Fatalf("the dialog does not say the restore finished, or lost what was typed:\n%s", v)
	}
	if short := kit.HintLine(d.KeyMap().ShortHelp()...); strings.Contains(short, "enter") {
		t.Errorf("the footer offers enter on a finished restore: %q", short)
	}
	typeInto(d, "-west")
	if _, cmd := d.Update(tuitest.KeyMsg("enter")); sends(cmd) {
		t.Fatal("enter sent the delete of a finished restore")
	}
	if d.Answered() {
		t.Fatal("enter closed the dialog: what it says was not read")
	}
	if _, cmd := d.Update(tuitest.KeyMsg("esc")); cmd == nil || sends(cmd) || !d.Answered() {
		t.Fatal("esc does not close the dialog, sending nothing")
	}

	// a restore no longer listed (deleted elsewhere): the same
	d = deleteDialog(t, s, "3", 60, 16)
	typeInto(d, "analytics-gcp")
	feed(s, withStatus(3, ""))
	if v := strings.Join(strings.Fields(tuitest.View(d)), " "); !strings.Contains(v, "no longer listed") || !strings.Contains(v, "Nothing will be sent") {
		t.Fatalf("the dialog does not say the restore is gone:\n%s", tuitest.View(d))
	}
	if _, cmd := d.Update(tuitest.KeyMsg("enter")); sends(cmd) {
		t.Fatal("enter sent the delete of a restore no longer listed")
	}
}
