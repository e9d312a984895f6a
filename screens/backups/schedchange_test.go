package backups_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui"
	"github.com/skytui/skytui/tui/tuitest"
)

const scheduleRoute = "/backup/v1/backups/schedules/{id}"

// openDaily is the demo application on orders-prod's schedules with the
// daily full schedule (the first cron schedule) selected; sent counts the
// requests of a method to a schedule.
func openDaily(t *testing.T, tweak func(*tui.Options)) (h *harness, clk *sandbox.ManualClock, sent func(method string) int) {
	t.Helper()
	return openDailyAt(t, 100, 30, tweak)
}

// openDailyAt is openDaily in a terminal of w by ht.
func openDailyAt(t *testing.T, w, ht int, tweak func(*tui.Options)) (h *harness, clk *sandbox.ManualClock, sent func(method string) int) {
	t.Helper()
	h, srv, clk := app(t, w, ht, true, tweak)
	h.command("backups orders-prod")
	h.Key("t")
	h.Sees("Schedules of orders-prod")
	h.Sees("daily at 03:00 UTC")
	return h, clk, func(method string) int { return srv.Stats().Count(method, scheduleRoute) }
}

// declined presses k, which must ask what wants say, and answers no (n or
// esc): nothing is sent.
func (h *harness) declined(k, no string, wants ...string) {
	h.T.Helper()
	before := tuitest.Changes(h.srv)
	h.Key(k)
	for _, w := range wants {
		h.Sees(w)
	}
	h.Key(no)
	if n := tuitest.Changes(h.srv) - before; n != 0 {
		h.T.Fatalf("%d changes sent after %s", n, no)
	}
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
	h, _, sent := openDaily(t, nil)
	patches := func() int { return sent("PATCH") }
	h.Key("e")
	h.Sees("Edit schedule 1 of orders-prod")
	h.Sees("> 0 3 * * *")
	h.Sees("unchanged: type the new cron expression")

	for _, c := range []struct{ typed, why string }{
		{"0 25 * * *", "invalid cron expression"},
		{"0 3 * *", "a cron expression has 5 fields"},
	} {
		clearInput(h)
		h.TypeText(c.typed)
		h.Sees("! schedule: must be a 5-field cron expression: " + c.why)
		h.Key("enter")
		h.Sees("> " + c.typed) // still editing, nothing typed lost
	}
	if n := patches(); n != 0 {
		t.Fatalf("%d PATCHes sent for invalid expressions", n)
	}

	h.TypeText(" 1-5")
	h.Sees("ok: Monday to Friday at 03:00 UTC")
	h.Sees("Next runs:")
	h.Key("enter")
	h.Sees(`change schedule 1 of orders-prod to "0 3 * * 1-5": done`)
	h.Sees("Monday to Friday at 03:00")
	if n := patches(); n != 1 {
		t.Fatalf("%d PATCHes, want 1", n)
	}
	if strings.Contains(h.Screen(), "Edit schedule") {
		t.Fatalf("the edit stayed open:\n%s", h.Screen())
	}
	// esc cancels, nothing sent
	h.Key("e")
	h.Sees("> 0 3 * * 1-5")
	h.Key("esc")
	h.Sees("schedule not changed")
	if n := patches(); n != 1 {
		t.Fatalf("%d PATCHes after a cancelled edit, want 1", n)
	}
}

// TestScheduleSuspendResume: s asks yes/no naming the schedule; "no"
// sends nothing; suspended, the sandbox takes no backups by it on the
// manual clock, and the view says so; resumed, it runs again.
func TestScheduleSuspendResume(t *testing.T) {
	h, clk, sent := openDaily(t, nil)
	h.declined("s", "n", "Suspend schedule 1 of orders-prod?")
	h.Keys("s", "y")
	h.Sees("suspend schedule 1 of orders-prod: done")
	h.Sees("suspended")
	h.Sees("none while suspended") // the pinned pane's next runs

	// the daily schedule's backups: full ones at 03:00 (the platform's
	// nightly full is at 02:00)
	c := h.m.Common().Client
	ordersID := tuitest.Service(t, c, sandbox.DemoOrders).ID
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
	h.Sees("Resume schedule 1 of orders-prod?")
	h.Key("y")
	h.Sees("resume schedule 1 of orders-prod: done")
	clk.Advance(25 * time.Hour)
	if n := fulls(); n != before+1 {
		t.Fatalf("%d backups by the resumed schedule in a day, want 1", n-before)
	}
	if n := sent("PATCH"); n != 2 {
		t.Fatalf("%d PATCHes, want 2", n)
	}
}

// TestScheduleDelete: d asks yes/no naming the schedule and what it
// does; yes deletes it once and it leaves the list.
func TestScheduleDelete(t *testing.T) {
	h, _, sent := openDaily(t, nil)
	h.declined("d", "esc", "Delete schedule 1 of orders-prod?", "takes no more backups")
	h.Keys("d", "y")
	h.Sees("delete schedule 1 of orders-prod: done")
	if strings.Contains(h.Screen(), "daily at 03:00 UTC") {
		t.Fatalf("the deleted schedule is still listed:\n%s", h.Screen())
	}
	if n := sent("DELETE"); n != 1 {
		t.Fatalf("%d DELETEs, want 1", n)
	}
}

// TestScheduleChangesReadOnly: on a read-only profile e, s and d are
// refused before anything is asked or sent.
func TestScheduleChangesReadOnly(t *testing.T) {
	h, _, _ := openDaily(t, func(o *tui.Options) { o.ReadOnly = true })
	before := tuitest.Changes(h.srv)
	h.Key("e")
	h.Sees("not allowed on read-only profile demo: editing a schedule")
	if strings.Contains(h.Screen(), "Edit schedule") {
		t.Fatalf("the edit opened on a read-only profile:\n%s", h.Screen())
	}
	for _, k := range []string{"s", "d"} {
		h.Key(k)
		h.Sees("read-only")
		if s := h.Screen(); strings.Contains(s, "Suspend schedule") || strings.Contains(s, "Delete schedule") {
			t.Fatalf("%s asked on a read-only profile:\n%s", k, s)
		}
	}
	if n := tuitest.Changes(h.srv); n != before {
		t.Fatalf("%d changes sent on a read-only profile", n-before)
	}
}

// TestRestoreThisBackup: R on a completed backup opens the restore wizard
// with the source filled in (managed storage, that backup): it asks the
// target, then the name typed; a backup in progress is refused with the
// reason; read-only is refused.
func TestRestoreThisBackup(t *testing.T) {
	h, _ := restoreToConfirm(t)
	for i := 0; i < 6 && strings.Contains(h.Screen(), "New restore"); i++ {
		h.Key("esc") // back, step by step, then closed
	}
	h.Sees("restore not started")

	// read-only: refused before the wizard opens
	h.m.Common().ReadOnly = true
	h.Key("R")
	h.Sees("not allowed on read-only profile demo: starting a restore")
	if strings.Contains(h.Screen(), "New restore") {
		t.Fatalf("the wizard opened on a read-only profile:\n%s", h.Screen())
	}
}

// TestRestoreThisBackupKept: a wizard left with ctrl+x is kept: R on the
// same backup brings it back where it was (the name asked again, never
// armed from before), R on another backup starts afresh.
func TestRestoreThisBackupKept(t *testing.T) {
	h, key := restoreToConfirm(t)
	h.TypeText("replica-west")
	h.Key("ctrl+x")
	h.Sees("restore not started; R on backup " + key + " brings it back")
	h.Key("R")
	h.Sees("New restore 4/4: confirm")
	h.Sees("backup " + key + " of orders-prod")
	if strings.Contains(h.Screen(), "> replica-west") {
		t.Fatalf("the name came back typed, the restore armed:\n%s", h.Screen())
	}
	h.Key("ctrl+x")
	h.Key("up")
	if selectedKey(t, h) == key {
		t.Fatal("the cursor did not move to another backup")
	}
	h.Key("R")
	h.Sees("New restore 2/4: which service to restore into?")
}

// restoreToConfirm presses R on a completed backup of orders-prod and
// chooses replica-west: the backup is R's, not asked again, so the wizard
// goes straight to the name typed. It returns the backup's short key.
func restoreToConfirm(t *testing.T) (*harness, string) {
	h, _, _ := app(t, 120, 36, true, nil)
	h.backupsOf("orders-prod")
	h.Keys("down", "down", "down")
	key := selectedKey(t, h)
	h.Key("R")
	h.Sees("New restore 2/4: which service to restore into?")
	h.Key("/")
	h.TypeText("replica")
	h.Keys("enter", "enter")
	h.Sees("New restore 4/4: confirm")
	h.Sees("backup " + key + " of orders-prod")
	h.Sees("Type replica-west to confirm")
	return h, key
}

// TestRestoreThisBackupFollowed: a restore submitted from here (R) is
// watched to its end like one started on the Restores screen: its outcome
// is told here, with the bell when the user is on another screen.
func TestRestoreThisBackupFollowed(t *testing.T) {
	h, srv, clk := app(t, 120, 36, true, func(o *tui.Options) { o.Bell = true })
	h.backupsOf("orders-prod")
	h.Key("R")
	h.Key("/")
	h.TypeText("replica")
	h.Keys("enter", "enter", "enter")
	h.Sees("Type replica-west to confirm")
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
	h.Sees("restore 3 into replica-west succeeded: its data, default username and password are now orders-prod's")
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
	h, _, _ := openDaily(t, nil)
	h.Key("e")
	h.Sees("> 0 3 * * *")
	h.Keys("backspace")
	h.TypeText("5")
	h.Sees("ok: every Friday at 03:00 UTC")
	if err := h.m.Common().Client.DeleteSchedule(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	h.Key("enter")
	h.Sees("! the API refused it: ")
	h.Sees("backup schedule 1 not found")
	h.Sees("> 0 3 * * 5")
	h.Sees("Edit schedule 1 of orders-prod")
}

// TestScheduleEditNarrow: at 60x16 the edit's field label wraps whole,
// "day-of-week" on its own line, instead of being cut at the edge; the
// wrapped lines keep the indent.
func TestScheduleEditNarrow(t *testing.T) {
	h, _, _ := openDailyAt(t, 60, 16, nil)
	h.Key("e")
	h.Sees("> 0 3 * * *")
	lines := strings.Split(h.Screen(), "\n")
	at := -1
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > 60 {
			t.Fatalf("line %d is %d wide: %q", i, w, l)
		}
		if strings.Contains(l, "Cron expression (UTC):") {
			at = i
		}
	}
	if at < 0 || at+1 >= len(lines) {
		t.Fatalf("no label:\n%s", h.Screen())
	}
	label := strings.Join(strings.Fields(lines[at]+" "+lines[at+1]), " ")
	if !strings.HasPrefix(label, "Cron expression (UTC): minute hour day-of-month month day-of-week") ||
		!strings.HasPrefix(lines[at+1], " day-of-week") {
		t.Fatalf("label not wrapped whole:\n%s", h.Screen())
	}
}

// TestOnceScheduleFooterOffersNoEdit: on a one-time job the footer leaves
// out e and s (refused there: nothing to edit or suspend); on a repeating
// schedule it offers them.
func TestOnceScheduleFooterOffersNoEdit(t *testing.T) {
	h, _, _ := openDaily(t, nil)
	h.Keys("n", "enter", "enter", "enter") // a full backup, once, managed storage
	h.Sees("Review: this is the request that will be sent")
	h.Key("enter") // a one-time job: to the backups, where it shows
	h.Sees("backup job")
	h.Key("t")
	h.Sees("Schedules of orders-prod")
	footer := func() string {
		lines := strings.Split(h.Screen(), "\n")
		return lines[len(lines)-1]
	}
	var once, daily bool
	for range 4 {
		var row string
		for _, l := range strings.Split(h.Screen(), "\n") {
			if strings.HasPrefix(l, ">") {
				row = l
			}
		}
		switch {
		case strings.Contains(row, "once"):
			once = true
			if strings.Contains(footer(), "e edit") || strings.Contains(footer(), "s suspend") {
				t.Fatalf("a one-time job's footer offers e or s: %q", footer())
			}
		case strings.Contains(row, "daily"):
			daily = true
			if !strings.Contains(footer(), "e edit") {
				t.Fatalf("a repeating schedule's footer lacks e: %q", footer())
			}
		}
		h.Key("down")
	}
	if !once || !daily {
		t.Fatalf("saw a one-time job %v, a repeating schedule %v:\n%s", once, daily, h.Screen())
	}
}

// TestScheduleEditEscKeepsTyped: esc leaves the edit keeping what was
// typed, and says so; e on the same schedule brings it back, e on another
// starts from that schedule's expression; once saved, e starts from the
// saved expression.
func TestScheduleEditEscKeepsTyped(t *testing.T) {
	h, _, sent := openDaily(t, nil)
	h.Key("e")
	h.Sees("> 0 3 * * *")
	clearInput(h)
	h.TypeText("0 4 * * 6")
	h.Sees("ok: every Saturday at 04:00 UTC")
	h.Key("esc")
	h.Sees("schedule not changed; e brings back what you typed")
	h.Key("e")
	h.Sees("> 0 4 * * 6")
	h.Sees("ok: every Saturday at 04:00 UTC")
	h.Key("esc")

	// another schedule: its own expression
	h.Key("down")
	h.Key("e")
	h.Sees("Edit schedule 4 of orders-prod")
	h.Sees("> 15 * * * *")
	h.Sees("unchanged: type the new cron expression")
	if strings.Contains(h.Screen(), "> 0 4 * * 6") {
		t.Fatalf("schedule 4's edit shows schedule 1's draft:\n%s", h.Screen())
	}
	h.Key("esc")
	h.Sees("schedule not changed")

	// back to the first: the draft, then saved
	h.Key("up")
	h.Key("e")
	h.Sees("Edit schedule 1 of orders-prod")
	h.Sees("> 0 4 * * 6")
	h.Key("enter")
	h.Sees(`change schedule 1 of orders-prod to "0 4 * * 6": done`)
	if n := sent("PATCH"); n != 1 {
		t.Fatalf("%d PATCHes, want 1", n)
	}
	h.Key("e")
	h.Sees("> 0 4 * * 6")
	h.Sees("unchanged: type the new cron expression")
}

// TestEditSuspendedSchedule: the edit of a suspended schedule promises no
// run times (it said "Next runs: …" though none would happen); the footer
// offers save only while enter would save.
func TestEditSuspendedSchedule(t *testing.T) {
	h, _, _ := openDaily(t, nil)
	h.Keys("s", "y")
	h.Sees("suspend schedule 1 of orders-prod: done")
	h.Key("e")
	h.Sees("Edit schedule 1 of orders-prod")
	lines := strings.Split(h.Screen(), "\n")
	if f := lines[len(lines)-1]; strings.Contains(f, "save") {
		t.Errorf("the footer offers save with the expression unchanged: %q", f)
	}
	clearInput(h)
	h.TypeText("0 4 * * *")
	h.Sees("ok: daily at 04:00 UTC")
	h.Sees("suspended: it runs on this schedule once resumed")
	if strings.Contains(h.Screen(), "Next runs") {
		t.Fatalf("a suspended schedule's edit lists next runs:\n%s", h.Screen())
	}
	lines = strings.Split(h.Screen(), "\n")
	if f := lines[len(lines)-1]; !strings.Contains(f, "save") {
		t.Errorf("the footer lacks save with a valid new expression: %q", f)
	}
}
