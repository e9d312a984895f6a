package replication_test

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

// While the wizard's restore runs, bksp is refused with the reason (it
// went back to step 2, where another backup dropped the running restore
// and asked to erase the secondary again) and leaves the footer; the
// restore stays followed, also once esc has left the wizard: it ends in
// the message line and c finds it passed.
func TestBackWhileRestoreRunsIsRefused(t *testing.T) {
	d := newDemo(t)
	h := d.app(80, 24, nil)
	h.toRestoring()
	if f := h.footer(); strings.Contains(f, "bksp") {
		t.Errorf("the running restore's footer offers bksp: %q", f)
	}
	h.Key("backspace")
	h.Sees("Step 3 of 6")
	h.Sees("WAIT  3 Restore")
	if !regexp.MustCompile(`restore \d+ into replica-west is running: going back is refused until it ends`).MatchString(strings.Join(strings.Fields(h.Screen()), " ")) {
		t.Fatalf("bksp while the restore runs does not say why nothing happened:\n%s", h.Screen())
	}
	h.Keys("j", "enter")
	if strings.Contains(h.Screen(), "This erases ALL data in replica-west.") {
		t.Fatalf("enter while the restore runs asks for another restore:\n%s", h.Screen())
	}
	// left while it runs: still followed on the status list
	h.Key("esc")
	h.Sees("Unfinished setup")
	h.restoreEnds(d)
	h.Key("c")
	h.Sees("PASS  3 Restore")
	h.Sees("Step 4 of 6")
}

// The restore's confirmation reads the secondary again as it opens: it
// shows the status of now, not that of the last poll (it said "status:
// ready" of a secondary being restored).
func TestRestoreConfirmReadsTheTargetAgain(t *testing.T) {
	d := newDemo(t)
	h := d.app(80, 24, nil)
	h.toBackups()
	h.Key("enter") // the newest usable backup
	h.Sees("Step 3 of 6")
	if err := d.c.StopService(bg, d.byName("replica-west").ID); err != nil {
		t.Fatal(err)
	}
	h.Key("enter")
	h.Sees("This erases ALL data in replica-west.")
	scr := h.Screen()
	if strings.Contains(scr, "status: ready") || !strings.Contains(scr, "status: pending_stop") {
		t.Fatalf("the confirmation shows the secondary's status of the last poll:\n%s", scr)
	}
}

// restoreEnds moves the clock past the restore into replica-west and
// waits until its end is said.
func (h *harness) restoreEnds(d *demo) {
	h.T.Helper()
	d.clk.Advance(time.Hour)
	h.FirePolls()
	h.Until("the restore's end said", func() bool {
		return strings.Contains(h.lastToast(), "replica-west's default username and password are now")
	})
}

// newWhileRestoreRuns presses n on the status list while the unfinished
// setup's restore runs: nothing is asked, the message line says why (it
// asked to forget the setup, "nothing changes on the services", and the
// restore still erasing the secondary was then followed nowhere).
func (h *harness) newWhileRestoreRuns(why string) {
	h.T.Helper()
	h.Key("n")
	if strings.Contains(h.Screen(), "Start a new setup?") {
		h.T.Fatalf("n while the setup's restore runs asks to forget it:\n%s", h.Screen())
	}
	if !regexp.MustCompile(why).MatchString(h.lastToast()) {
		h.T.Fatalf("n while the setup's restore runs: message %q, want %q\n%s", h.lastToast(), why, h.Screen())
	}
	h.Sees("Unfinished setup")
}

// leftWhileRestoring is a setup left with esc while its restore into
// replica-west runs, on the status list of a 120x40 app.
func leftWhileRestoring(t *testing.T) (*demo, *harness) {
	t.Helper()
	d := newDemo(t)
	h := d.app(120, 40, nil)
	h.toRestoring()
	h.Key("esc")
	h.Sees("Unfinished setup")
	return d, h
}

// While the unfinished setup's restore runs, n on the status list is
// refused with the reason, as bksp is in the wizard, and leaves the
// footer; the restore stays followed to its end, after which n asks as
// before.
func TestNewWhileRestoreRunsIsRefused(t *testing.T) {
	d, h := leftWhileRestoring(t)
	if !regexp.MustCompile(`restore \d+ into replica-west is running`).MatchString(h.flat()) {
		t.Errorf("the unfinished setup's line does not say its restore runs:\n%s", h.Screen())
	}
	if f := h.footer(); strings.Contains(f, "n new setup") {
		t.Errorf("the footer offers n while the setup's restore runs: %q", f)
	}
	h.newWhileRestoreRuns(`restore \d+ into replica-west is running: a new setup is refused until it ends`)
	h.restoreEnds(d)
	h.Key("n")
	h.Sees("Start a new setup?")
}

// A setup left while its restore ran, read from the file by a later run:
// its restore's end is not known, so n is refused until c reads it.
func TestNewAfterRestartWithRestoreUnreadIsRefused(t *testing.T) {
	d, _ := leftWhileRestoring(t)
	h2 := d.app(120, 40, nil)
	h2.Key("4")
	h2.Sees("Unfinished setup")
	h2.newWhileRestoreRuns(`restore \d+ into replica-west was started, its end not read: a new setup is refused until c reads it`)
	d.clk.Advance(time.Hour)
	h2.Key("c")
	h2.Until("the restore read", func() bool { return strings.Contains(h2.Screen(), "PASS  3 Restore") })
	h2.Key("esc")
	h2.Key("n")
	h2.Sees("Start a new setup?")
}
