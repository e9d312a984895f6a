package restoreform

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// The wizard's managed-backup list: a failed listing says why until one
// succeeds, and a list cut to its room says what is cut.

// backupsStep is a wizard at w x h on the backups step, restoring into
// target from its own backups, its listing not yet answered.
func (e *rtEnv) backupsStep(t *testing.T, target string, w, h int) *Wizard {
	t.Helper()
	wz := e.managedInto(t, target)
	wz.SetSize(w, h)
	if wz.StepName() != "backup" {
		t.Fatalf("step %s, want backup", wz.StepName())
	}
	return wz
}

// answerBackups answers the wizard's backup listing with bs or err.
func answerBackups(w *Wizard, bs []api.Backup, err error) {
	w.OnData(kit.DataMsg{Key: w.Resources()[0].Key, Data: bs, Err: err})
}

// TestBackupListingErrorStays: a failed listing of the backups says so
// with the API's status, message and trace ID whole (wrapped, never
// cut), and keeps saying it after a letter typed and esc, the clock's
// tick and another failed reading; it said "no backups of legacy-batch
// yet" then, as if the service had none. A listing that succeeds ends it.
func TestBackupListingErrorStays(t *testing.T) {
	e := rtSetup(t, false)
	failed := &api.Error{Status: 200, Message: "malformed response: null answer where a list was expected",
		Method: "GET", Path: "/skybackup/v1/backups", TraceID: "5e1f0a7c-3b9d-4e21-8f6a-0c2d4b6e8a13"}
	for _, size := range [][2]int{{80, 20}, {60, 14}} {
		w := e.backupsStep(t, "legacy-batch", size[0], size[1])
		answerBackups(w, nil, failed)
		says := func(when string) {
			t.Helper()
			out := rtView(w)
			noCut(t, when, out, size[0])
			if !strings.Contains(words(out), "could not list backups: "+failed.Error()) || strings.Contains(out, "no backups of") {
				t.Fatalf("%dx%d, %s: the error is not whole:\n%s", size[0], size[1], when, out)
			}
			tuitest.CheckFits(t, when, out, size[0], size[1])
		}
		says("the listing failed")
		rtType(w, "x")
		rtPress(w, "esc")
		says("a letter typed, then esc")
		w.Update(kit.ClockMsg{Now: tuitest.T0.Add(time.Minute)})
		says("the clock's tick")
		answerBackups(w, nil, failed)
		says("another failed reading")
		answerBackups(w, []api.Backup{}, nil)
		if out := rtView(w); !strings.Contains(out, "no backups of legacy-batch yet") || strings.Contains(out, "could not list") {
			t.Fatalf("a listing that succeeded:\n%s", out)
		}
	}
}

// manyBackups is n completed full backups of the service id, newest first.
func manyBackups(id string, n int) []api.Backup {
	var bs []api.Backup
	for i := range n {
		bs = append(bs, api.Backup{Key: fmt.Sprintf("%012x:%s:pod-0", 0xabc000+i, id), ServiceID: id, Type: "full",
			Status: "Succeeded", StartTime: api.Time{Time: tuitest.T0.Add(-time.Duration(i+1) * time.Hour)}})
	}
	return bs
}

// TestBackupListUsesItsRoom: a list longer than the step fills it to
// its last line, which says how many backups are below and above (it
// left 4 lines blank under 13 rows and said nothing of the rest).
func TestBackupListUsesItsRoom(t *testing.T) {
	e := rtSetup(t, false)
	for _, size := range [][2]int{{80, 20}, {60, 14}} {
		w := e.backupsStep(t, "orders-prod", size[0], size[1])
		answerBackups(w, manyBackups(e.byName["orders-prod"].ID, 40), nil)
		out := rtView(w)
		lines := strings.Split(out, "\n")
		if len(lines) != size[1] {
			t.Fatalf("%dx%d: %d lines, want the whole room:\n%s", size[0], size[1], len(lines), out)
		}
		last := strings.TrimSpace(lines[len(lines)-1])
		shown := strings.Count(out, "completed")
		if want := fmt.Sprintf("down: %d more backups", 40-shown); !strings.Contains(last, want) {
			t.Fatalf("%dx%d: the last line %q, want %q:\n%s", size[0], size[1], last, want, out)
		}
		rtPress(w, "end")
		lines = strings.Split(rtView(w), "\n")
		if last := lines[len(lines)-1]; !strings.Contains(last, "backups above") || strings.Contains(last, "more backups") {
			t.Fatalf("%dx%d at the end: the last line %q", size[0], size[1], last)
		}
	}
}

// TestBackupListingNoteGoesWithItsListing: enter pressed on the backups
// step before its listing is read says the backups are still being
// listed (or could not be); once a listing is read, the note goes and the
// list has its room back, its last line saying how many are below. The
// note stayed under the listed backups ("! the backups of … are still
// being listed"), and a failed listing's (4 lines at 60x16) left 2 of 7
// backups in sight and no "down: N more" line.
func TestBackupListingNoteGoesWithItsListing(t *testing.T) {
	e := rtSetup(t, false)
	id := e.byName["orders-prod"].ID
	failed := &api.Error{Status: 503, Message: "service unavailable: the backup service is restarting, try again in a minute",
		Method: "GET", Path: "/skybackup/v1/backups", TraceID: "5e1f0a7c-3b9d-4e21-8f6a-0c2d4b6e8a13"}
	for _, first := range []error{nil, failed} {
		w := e.backupsStep(t, "orders-prod", 60, 12) // the wizard's area at 60x16
		note := "are still being listed"
		if first != nil {
			answerBackups(w, nil, first)
			note = "could not be listed"
		}
		rtPress(w, "enter")
		if out := rtView(w); !strings.Contains(words(out), note) {
			t.Fatalf("enter before a listing was read says nothing of it:\n%s", out)
		}
		answerBackups(w, manyBackups(id, 12), nil)
		out := rtView(w)
		tuitest.CheckFits(t, "the listed backups", out, 60, 12)
		if strings.Contains(out, "being listed") || strings.Contains(out, "could not be listed") {
			t.Fatalf("the note stayed after the listing was read:\n%s", out)
		}
		lines := strings.Split(out, "\n")
		shown := strings.Count(out, "completed")
		if want := fmt.Sprintf("down: %d more backups", 12-shown); shown < 6 || !strings.Contains(lines[len(lines)-1], want) {
			t.Fatalf("%d of 12 backups in sight, the last line %q, want %q:\n%s", shown, lines[len(lines)-1], want, out)
		}
	}
}
