package restores_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui"
	"github.com/skytui/skytui/tui/tuitest"
)

// The whole application (tui.Model) on the demo sandbox, for what the
// root shows of this screen: its footer, the dialog of its delete.

// app is the whole application on the demo sandbox at w x h, on the
// Restores screen (3), with the demo's restores listed; the sandbox and
// its clock.
func app(t *testing.T, w, h int) (*tuitest.Harness, *sandbox.Server, *sandbox.ManualClock) {
	t.Helper()
	srv, clk, c := tuitest.Sandbox(t, true)
	m := tui.New(tui.Options{Client: c, Profile: "demo", Demo: true, Now: clk.Now, SlowInterval: 30 * time.Second,
		After: tuitest.After, Getenv: func(string) string { return "" }})
	hs := tuitest.New(t, m, m.Render, w, h)
	hs.Key("3")
	hs.Sees("staging-eu")
	return hs, srv, clk
}

// footer is the frame's last line.
func footer(h *tuitest.Harness) string {
	lines := strings.Split(h.Screen(), "\n")
	return lines[len(lines)-1]
}

// TestFooterKeepsDeleteOnARunningRestore: at 60x16, with a running
// restore selected, the footer keeps d delete, the key that acts on that
// row, before m across clouds (it showed "enter details  n new  m across
// clouds  ? help  q quit"); on a finished one, where d does nothing, m
// takes its place.
func TestFooterKeepsDeleteOnARunningRestore(t *testing.T) {
	h, _, _ := app(t, 60, 16)
	// the first row: restore 2 into staging-eu, running
	if f := footer(h); !strings.Contains(f, "d delete") {
		t.Errorf("running restore selected: footer %q", f)
	}
	h.Key("j") // restore 1: succeeded
	if f := footer(h); strings.Contains(f, "d delete") || !strings.Contains(f, "m across clouds") {
		t.Errorf("finished restore selected: footer %q", f)
	}
}

// TestDeleteOfARestoreThatFinishedWhileAsked: d on the running restore,
// part of the name typed; the restore finishes and the list shows it:
// the dialog says so, and the name finished and enter send no DELETE (it
// was sent, and refused with 409).
func TestDeleteOfARestoreThatFinishedWhileAsked(t *testing.T) {
	h, srv, clk := app(t, 60, 16)
	h.Key("d") // restore 2 into staging-eu, running
	h.Sees("Delete restore 2?")
	h.TypeText("staging")
	clk.Advance(time.Hour)
	h.FirePolls()
	h.Settle()
	// the list is under the dialog: what it says comes from the listing
	sc := h.Screen()
	if !strings.Contains(sc, "Nothing will be sent: restore 2 has already finished") || strings.Contains(sc, "Running") ||
		!strings.Contains(sc, "> staging ") {
		t.Fatalf("the dialog does not say the restore finished:\n%s", h.Screen())
	}
	h.TypeText("-eu")
	h.Key("enter")
	if n := srv.Stats().Count("DELETE", "/backup/v1/restores/{id}"); n != 0 {
		t.Fatalf("DELETE sent %d times for a finished restore", n)
	}
	h.Key("esc")
	if strings.Contains(h.Screen(), "Delete restore 2?") {
		t.Fatalf("esc does not close the dialog:\n%s", h.Screen())
	}
}

// TestBackupIDShortKey: the backup ID step takes the short key every list
// shows: it becomes the backup's whole key before the confirmation, and
// the restore sends that; a backup still running is refused there; an ID
// no backup listed here has is said next to the field, what was typed
// kept, and a second enter sends it as typed. A short key was sent as
// typed (the API answered 404), a made-up ID went to the erase's
// confirmation.
func TestBackupIDShortKey(t *testing.T) {
	h, srv, _ := app(t, 100, 30)
	c := tuitest.Client(t, srv, api.Config{APIKey: tuitest.TestKey})
	var done, running api.Backup
	for _, name := range []string{sandbox.DemoOrders, sandbox.DemoAnalytics} {
		svcs, err := c.ListServices(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range svcs {
			if s.Name != name {
				continue
			}
			bs, err := c.ListBackups(context.Background(), s.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, b := range bs {
				switch {
				case name == sandbox.DemoOrders && done.Key == "" && !b.IsExternalStorage && api.ManagedRestoreRefusal(b) == "":
					done = b
				case api.BackupState(b.Status) == api.BackupInProgress:
					running = b
				}
			}
		}
	}
	if done.Key == "" || running.Key == "" {
		t.Fatalf("the demo lacks a completed orders-prod backup (%q) or a running one (%q)", done.Key, running.Key)
	}
	h.Keys("n", "3")
	h.TypeText(sandbox.DemoReplica)
	h.Key("enter")
	h.Sees("the backup ID")

	h.TypeText("deadbeef0000")
	h.Key("enter")
	h.Sees("no backup listed here has the key or short key deadbeef0000: enter again sends it as typed")
	h.Sees("> deadbeef0000")
	for range len("deadbeef0000") {
		h.Key("backspace")
	}
	h.TypeText(api.ShortKey(running.Key))
	h.Key("enter")
	h.Sees("is still running; only a completed backup can be restored")
	// its whole key is refused too (it went to the erase's confirmation)
	for range len(api.ShortKey(running.Key)) {
		h.Key("backspace")
	}
	h.TypeText(running.Key)
	h.Key("enter")
	h.Until("the whole key's lookup", func() bool { return !strings.Contains(h.Screen(), "up in the backups listed") })
	if s := h.Screen(); strings.Contains(s, "to confirm") || !strings.Contains(s, "is still running; only a completed backup can be restored") {
		t.Fatalf("a running backup's whole key was not refused:\n%s", s)
	}
	for range len(running.Key) {
		h.Key("backspace")
	}
	h.TypeText(strings.ToUpper(api.ShortKey(done.Key))) // hex, in either case
	h.Key("enter")
	h.Sees("Type replica-west to confirm")
	h.Sees(done.Key)
	if strings.Contains(h.Screen(), "enter again sends it") {
		t.Fatalf("the step's note followed onto the confirmation:\n%s", h.Screen())
	}
	// back on the step, the cursor is at the key's end: what is typed
	// goes after it, not inside it
	h.Key("esc")
	h.TypeText("x")
	h.Sees("> " + done.Key + "x")
	h.Key("backspace")
	h.Key("enter")
	h.Sees("Type replica-west to confirm")
	h.TypeText(sandbox.DemoReplica)
	h.Key("enter")
	h.Until("the restore sent", func() bool { return srv.Stats().Count("POST", "/backup/v1/restores") == 1 })
	rs, err := c.ListRestores(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(rs, func(r api.Restore) bool { return r.ServiceName == sandbox.DemoReplica && r.Key == done.Key }) {
		t.Fatalf("no restore of %s into %s: %+v", done.Key, sandbox.DemoReplica, rs)
	}
}

// TestFooterOffersAllWhenNarrowed: with one service shown, the footer
// offers a (all services) at 80 and 60 columns; it dropped it, keeping
// m and f.
func TestFooterOffersAllWhenNarrowed(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {60, 16}} {
		h, _, _ := app(t, sz[0], sz[1])
		h.Key("f")
		h.TypeText(sandbox.DemoReplica)
		h.Key("enter")
		h.Sees("service: " + sandbox.DemoReplica)
		if f := footer(h); !strings.Contains(f, "a all") {
			t.Errorf("%dx%d narrowed to one service: footer %q", sz[0], sz[1], f)
		}
	}
}
