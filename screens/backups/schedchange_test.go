package backups_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui"
)

const scheduleRoute = "/backup/v1/backups/schedules/{id}"

// openDaily opens orders-prod's schedules with the daily full schedule
// (the first cron schedule) selected.
func openDaily(t *testing.T, h *harness) {
	t.Helper()
	h.command("backups orders-prod")
	h.Key("t")
	waitFor(t, h, "Schedules of orders-prod")
	waitFor(t, h, "daily at 03:00 UTC")
}

func clearInput(h *harness) {
	for range 20 {
		h.Key("backspace")
	}
}

// TestScheduleEdit: e opens the expression; an invalid one says why next
// to the field and enter sends nothing, what was typed stays; a valid one
// shows its next runs and is sent once; the list shows it.
func TestScheduleEdit(t *testing.T) {
	h, srv, _ := app(t, 100, 30, true, nil)
	patches := func() int { return srv.Stats().Count("PATCH", scheduleRoute) }
	openDaily(t, h)
	h.Key("e")
	waitFor(t, h, "Edit schedule 1 of orders-prod")
	waitFor(t, h, "> 0 3 * * *")
	waitFor(t, h, "unchanged: type the new cron expression")

	clearInput(h)
	h.TypeText("0 25 * * *")
	waitFor(t, h, "! schedule: must be a 5-field cron expression: invalid cron expression")
	h.Key("enter")
	waitFor(t, h, "> 0 25 * * *") // still editing, nothing typed lost
	clearInput(h)
	h.TypeText("0 3 * *")
	waitFor(t, h, "! schedule: must be a 5-field cron expression: a cron expression has 5 fields")
	h.Key("enter")
	waitFor(t, h, "> 0 3 * *")
	if n := patches(); n != 0 {
		t.Fatalf("%d PATCHes sent for invalid expressions", n)
	}

	h.TypeText(" 1-5")
	waitFor(t, h, "ok: Monday to Friday at 03:00 UTC")
	waitFor(t, h, "Next runs:")
	h.Key("enter")
	waitFor(t, h, `change schedule 1 of orders-prod to "0 3 * * 1-5": done`)
	waitFor(t, h, "Monday to Friday at 03:00")
	if n := patches(); n != 1 {
		t.Fatalf("%d PATCHes, want 1", n)
	}
	if strings.Contains(h.Screen(), "Edit schedule") {
		t.Fatalf("the edit stayed open:\n%s", h.Screen())
	}
	// esc cancels, nothing sent
	h.Key("e")
	waitFor(t, h, "> 0 3 * * 1-5")
	h.Key("esc")
	waitFor(t, h, "schedule not changed")
	if n := patches(); n != 1 {
		t.Fatalf("%d PATCHes after a cancelled edit, want 1", n)
	}
}

// TestScheduleSuspendResume: s asks yes/no naming the schedule; "no"
// sends nothing; suspended, the sandbox takes no backups by it on the
// manual clock, and the view says so; resumed, it runs again.
func TestScheduleSuspendResume(t *testing.T) {
	h, srv, clk := app(t, 100, 30, true, nil)
	patches := func() int { return srv.Stats().Count("PATCH", scheduleRoute) }
	openDaily(t, h)
	h.Key("s")
	waitFor(t, h, "Suspend schedule 1 of orders-prod?")
	h.Key("n")
	if n := patches(); n != 0 {
		t.Fatalf("%d PATCHes after no", n)
	}
	h.Keys("s", "y")
	waitFor(t, h, "suspend schedule 1 of orders-prod: done")
	waitFor(t, h, "suspended")
	waitFor(t, h, "none while suspended") // the pinned pane's next runs

	// the daily schedule's backups: full ones at 03:00 (the platform's
	// nightly full is at 02:00)
	c := h.m.Common().Client
	var ordersID string
	svcs, err := c.ListServices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range svcs {
		if v.Name == sandbox.DemoOrders {
			ordersID = v.ID
		}
	}
	fulls := func() int {
		t.Helper()
		list, err := c.ListBackups(context.Background(), ordersID)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, b := range list {
			if st := b.StartTime.UTC(); b.Type == "full" && st.Hour() == 3 && st.Minute() == 0 {
				n++
			}
		}
		return n
	}
	before := fulls()
	clk.Advance(48 * time.Hour)
	if n := fulls(); n != before {
		t.Fatalf("%d backups by the suspended schedule in 2 days", n-before)
	}
	h.Keys("s")
	waitFor(t, h, "Resume schedule 1 of orders-prod?")
	h.Key("y")
	waitFor(t, h, "resume schedule 1 of orders-prod: done")
	clk.Advance(25 * time.Hour)
	if n := fulls(); n != before+1 {
		t.Fatalf("%d backups by the resumed schedule in a day, want 1", n-before)
	}
	if n := patches(); n != 2 {
		t.Fatalf("%d PATCHes, want 2", n)
	}
}

// TestScheduleDelete: d asks yes/no naming the schedule and what it
// does; yes deletes it once and it leaves the list.
func TestScheduleDelete(t *testing.T) {
	h, srv, _ := app(t, 100, 30, true, nil)
	deletes := func() int { return srv.Stats().Count("DELETE", scheduleRoute) }
	openDaily(t, h)
	h.Key("d")
	waitFor(t, h, "Delete schedule 1 of orders-prod?")
	waitFor(t, h, "takes no more backups")
	h.Key("esc")
	if n := deletes(); n != 0 {
		t.Fatalf("%d DELETEs after esc", n)
	}
	h.Keys("d", "y")
	waitFor(t, h, "delete schedule 1 of orders-prod: done")
	if strings.Contains(h.Screen(), "daily at 03:00 UTC") {
		t.Fatalf("the deleted schedule is still listed:\n%s", h.Screen())
	}
	if n := deletes(); n != 1 {
		t.Fatalf("%d DELETEs, want 1", n)
	}
}

// TestScheduleChangesReadOnly: on a read-only profile e, s and d are
// refused before anything is asked or sent.
func TestScheduleChangesReadOnly(t *testing.T) {
	h, srv, _ := app(t, 100, 30, true, func(o *tui.Options) { o.ReadOnly = true })
	openDaily(t, h)
	before := srv.Stats().Count("PATCH", scheduleRoute) + srv.Stats().Count("DELETE", scheduleRoute)
	h.Key("e")
	waitFor(t, h, "profile demo is read-only: editing a schedule is not allowed")
	if strings.Contains(h.Screen(), "Edit schedule") {
		t.Fatalf("the edit opened on a read-only profile:\n%s", h.Screen())
	}
	for _, k := range []string{"s", "d"} {
		h.Key(k)
		waitFor(t, h, "read-only")
		if s := h.Screen(); strings.Contains(s, "Suspend schedule") || strings.Contains(s, "Delete schedule") {
			t.Fatalf("%s asked on a read-only profile:\n%s", k, s)
		}
	}
	if n := srv.Stats().Count("PATCH", scheduleRoute) + srv.Stats().Count("DELETE", scheduleRoute); n != before {
		t.Fatalf("%d changes sent on a read-only profile", n-before)
	}
}

// TestRestoreThisBackup: R on a completed backup opens the restore wizard
// with the source filled in (managed storage, that backup); a backup in
// progress is refused with the reason; read-only is refused.
func TestRestoreThisBackup(t *testing.T) {
	h, _, _ := app(t, 120, 36, true, nil)
	h.command("backups orders-prod")
	waitFor(t, h, "Backups of orders-prod")
	h.Keys("down", "down", "down")
	key := selectedKey(t, h)
	h.Key("R")
	waitFor(t, h, "New restore 2/4: which service to restore into?")
	h.Key("/")
	h.TypeText("replica")
	h.Keys("enter", "enter")
	waitFor(t, h, "New restore 3/4: which backup?")
	waitFor(t, h, "Backups of orders-prod")
	if got := selectedKey(t, h); got != key {
		t.Fatalf("the wizard has backup %s selected, want %s (R's):\n%s", got, key, h.Screen())
	}
	// the rest is the wizard's: the backup chosen, the name typed
	h.Key("enter")
	waitFor(t, h, "replica-west")
	for i := 0; i < 6 && strings.Contains(h.Screen(), "New restore"); i++ {
		h.Key("esc") // back, step by step, then closed
	}
	waitFor(t, h, "restore not started")

	// read-only: refused before the wizard opens
	h.m.Common().ReadOnly = true
	h.Key("R")
	waitFor(t, h, "profile demo is read-only: starting a restore is not allowed")
	if strings.Contains(h.Screen(), "New restore") {
		t.Fatalf("the wizard opened on a read-only profile:\n%s", h.Screen())
	}
}

// TestRestoreThisBackupFollowed: a restore submitted from here (R) is
// watched to its end like one started on the Restores screen: its outcome
// is told here, with the bell when the user is on another screen.
func TestRestoreThisBackupFollowed(t *testing.T) {
	h, srv, clk := app(t, 120, 36, true, func(o *tui.Options) { o.Bell = true })
	h.command("backups orders-prod")
	waitFor(t, h, "Backups of orders-prod")
	h.Key("R")
	h.Key("/")
	h.TypeText("replica")
	h.Keys("enter", "enter", "enter")
	waitFor(t, h, "Type replica-west to confirm")
	h.TypeText("replica-west")
	h.Key("enter")
	if n := srv.Stats().Count("POST", "/backup/v1/restores"); n != 1 {
		t.Fatalf("%d restores sent, want 1", n)
	}
	if got := h.m.Watching(); len(got) != 1 || got[0] != "restore 3 into replica-west" {
		t.Fatalf("watching %v, want the restore just submitted", got)
	}
	h.Key("1") // elsewhere: the outcome rings the bell
	clk.Advance(3 * time.Hour)
	if h.FireWatches() != 1 {
		t.Fatal("no watch tick armed")
	}
	waitFor(t, h, "restore 3 into replica-west succeeded: its data, default username and password are now orders-prod's")
	if len(h.Raw) != 1 || h.Raw[0] != "\a" {
		t.Fatalf("the outcome rang %q, want one bell", h.Raw)
	}
	if len(h.m.Watching()) != 0 {
		t.Fatalf("still watching %v", h.m.Watching())
	}
}

var shortKey = regexp.MustCompile(`\b[0-9a-f]{12}\b`)

// selectedKey is the short backup key on the selected row ("> ").
func selectedKey(t *testing.T, h *harness) string {
	t.Helper()
	for _, l := range strings.Split(h.Screen(), "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "> ") {
			if k := shortKey.FindString(l); k != "" {
				return k
			}
		}
	}
	t.Fatalf("no selected backup:\n%s", h.Screen())
	return ""
}

// TestScheduleEditRefused: a change the API refuses (the schedule was
// deleted meanwhile) comes back to the edit with what was typed and the
// API's reason.
func TestScheduleEditRefused(t *testing.T) {
	h, _, _ := app(t, 100, 30, true, nil)
	openDaily(t, h)
	h.Key("e")
	waitFor(t, h, "> 0 3 * * *")
	h.Keys("backspace")
	h.TypeText("5")
	waitFor(t, h, "ok: every Friday at 03:00 UTC")
	if err := h.m.Common().Client.DeleteSchedule(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	h.Key("enter")
	waitFor(t, h, "! the API refused it: ")
	waitFor(t, h, "backup schedule 1 not found")
	waitFor(t, h, "> 0 3 * * 5")
	waitFor(t, h, "Edit schedule 1 of orders-prod")
}
