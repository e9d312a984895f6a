package services

import (
	"strings"
	"testing"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// TestDeleteDialogFollowsTheListing: the delete's typed-name confirmation
// follows the listing while it is open: a service that goes pending, or is
// no longer listed (deleted elsewhere), is said, what was typed is kept,
// and enter with the whole name sends nothing.
func TestDeleteDialogFollowsTheListing(t *testing.T) {
	for _, now := range [][]api.Service{{svc(2, "ready")}, {svc(1, "pending_delete"), svc(2, "ready")}} {
		s := newScreen(80, 24)
		feed(s, []api.Service{svc(1, "ready"), svc(2, "ready")})
		s.Table.Select(svc(1, "").ID)
		req, ok := press(s, "D")().(kit.ActionRequestMsg)
		if !ok {
			t.Fatal("D asks nothing")
		}
		d := kit.NewConfirm(s.common, 1, req.Action.Confirm)
		d.SetSize(76, 19)
		if v := tuitest.View(d); !strings.Contains(flat(v), "and all its data? This cannot be undone") {
			t.Fatalf("the dialog does not say what a delete does:\n%s", v)
		}
		for _, k := range tuitest.Typed("svc-") {
			d.Update(k)
		}
		feed(s, now)
		v := tuitest.View(d)
		said := flat(v)
		if !strings.Contains(said, "Nothing will be sent") || !strings.Contains(v, "> svc-") ||
			(len(now) == 1 && !strings.Contains(said, "no longer listed")) || (len(now) == 2 && !strings.Contains(said, "is pending_delete")) {
			t.Fatalf("the dialog does not follow the listing, or lost what was typed:\n%s", v)
		}
		for _, k := range tuitest.Typed("00001") {
			d.Update(k)
		}
		if _, cmd := d.Update(tuitest.KeyMsg("enter")); cmd != nil {
			if m, ok := cmd().(kit.ConfirmedMsg); ok && m.Yes {
				t.Fatalf("enter sent the delete of a service: %s", said)
			}
		}
	}
}

// flat is a dialog's text on one line, without its frame.
func flat(v string) string {
	return strings.Join(strings.Fields(strings.NewReplacer("|", " ", "+", " ", "-", " ").Replace(v)), " ")
}
