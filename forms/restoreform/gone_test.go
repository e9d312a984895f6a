package restoreform

import (
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// listingWith is the listing with the service's status changed, or without
// it when status is "".
func (e *rtEnv) listingWith(id, status string) []api.Service {
	var out []api.Service
	for _, s := range e.services() {
		if s.ID == id {
			if status == "" {
				continue
			}
			s.Status = status
		}
		out = append(out, s)
	}
	return out
}

// TestRestoreConfirmFollowsTheListing: the confirmation takes each
// services listing: the target's status shown is the current one; a
// target no longer listed (deleted since it was chosen) is said gone and
// the restore is refused with the reason by the name (nothing sent, what
// was typed kept) until the listing has it again; the backup's age moves
// with the clock, on the confirmation and on the backup step.
func TestRestoreConfirmFollowsTheListing(t *testing.T) {
	e := rtSetup(t, false)
	dev := e.byName["dev-serverless"]
	w := e.wizard(t, Options{})
	rtPress(w, "1")
	w.targets.Select(dev.ID)
	rtPress(w, "enter")
	e.feedBackups(t, w)
	b := w.backups[w.backupTable.SelectedID()]
	rtPress(w, "enter")
	if w.StepName() != "confirm" {
		t.Fatalf("step %s:\n%s", w.StepName(), rtView(w))
	}
	if out := rtView(w); !strings.Contains(out, "status: ready") {
		t.Fatalf("no status:\n%s", out)
	}

	// the status follows the listing
	w.SetServices(e.listingWith(dev.ID, "pending_start"))
	if out := rtView(w); !strings.Contains(out, "status: pending_start") {
		t.Fatalf("the status shown is not the listing's:\n%s", out)
	}

	// gone from the listing: said, and refused with the name typed
	w.SetServices(e.listingWith(dev.ID, ""))
	out := rtView(w)
	for _, want := range []string{"dev-serverless (" + dev.ID + ")", "status: gone",
		"dev-serverless is no longer among the services", "[ Restore: dev-serverless is gone ]"} {
		if !strings.Contains(out, want) {
			t.Fatalf("the confirmation lacks %q:\n%s", want, out)
		}
	}
	rtType(w, "dev-serverless")
	for _, m := range rtPress(w, "enter") {
		switch m.(type) {
		case kit.ActionRequestMsg, DoneMsg:
			t.Fatalf("a restore into a gone target was handed on: %#v", m)
		}
	}
	out = rtView(w)
	if w.StepName() != "confirm" || w.Confirm().Typed() != "dev-serverless" ||
		!strings.Contains(strings.Join(strings.Fields(out), " "), "! not sent: dev-serverless is no longer among the services (deleted?)") {
		t.Fatalf("the refusal is not said by the name, or the name was lost (typed %q):\n%s", w.Confirm().Typed(), out)
	}
	for range 3 {
		rtPress(w, "tab")
		if w.Confirm().OnRestore() {
			t.Fatal("tab reached Restore for a gone target")
		}
	}
	if n := e.srv.Stats().Count("POST", "/backup/v1/restores"); n != 0 {
		t.Fatalf("POST sent %d times", n)
	}

	// the backup's age moves with the clock
	before := kit.Ago(tuitest.T0.Sub(b.StartTime.Time)) + " ago"
	later := tuitest.T0.Add(3 * time.Hour)
	after := kit.Ago(later.Sub(b.StartTime.Time)) + " ago"
	if before == after || !strings.Contains(out, before) {
		t.Fatalf("age %q then %q:\n%s", before, after, out)
	}
	e.common.Now = func() time.Time { return later }
	if out := rtView(w); !strings.Contains(out, after) {
		t.Fatalf("the age did not move (want %q):\n%s", after, out)
	}
	rtPress(w, "esc")
	w.Update(kit.ClockMsg{Now: later})
	if out := rtView(w); w.StepName() != "backup" || !strings.Contains(out, strings.TrimSuffix(after, " ago")) ||
		!strings.Contains(out, "into dev-serverless (gone: no longer listed)") {
		t.Fatalf("the backup step (age %q, target gone):\n%s", after, out)
	}

	// listed again: the restore goes
	w.SetServices(e.services())
	rtPress(w, "enter")
	rtType(w, "dev-serverless")
	if a, done := rtAction(t, rtPress(w, "enter")); !done.Submitted || !a.Mutating {
		t.Fatalf("a listed target's restore was not handed on: %+v", done)
	}
}
