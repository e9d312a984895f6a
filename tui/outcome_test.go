package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/tuitest"
)

// A change whose answer is lost after the sandbox carried it out: the TUI
// says "outcome unknown" (never "refused", never "try again"), reads the
// target again, shows what appeared, and sends exactly one request unless
// the user explicitly chooses "Send again".

func armDrop(t *testing.T, srv *sandbox.Server, path string) {
	t.Helper()
	if err := srv.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerDropped, Method: "POST", Path: path}); err != nil {
		t.Fatal(err)
	}
}

func wantScreen(t *testing.T, h *harness, want ...string) {
	t.Helper()
	out := h.Screen()
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Fatalf("the screen does not show %q:\n%s", w, out)
		}
	}
}

func refuseScreen(t *testing.T, h *harness, not ...string) {
	t.Helper()
	out := h.Screen()
	for _, w := range not {
		if strings.Contains(out, w) {
			t.Fatalf("the screen shows %q:\n%s", w, out)
		}
	}
}

func submitRestore(h *harness) {
	rstToManagedBackup(h, "dev-serverless", "analytics-gcp")
	h.Key("enter")
	h.TypeText("dev-serverless")
	h.Key("enter")
}

func TestOutcomeUnknownRestore(t *testing.T) {
	both(t, "leave it", "send again", func(t *testing.T, resend bool) {
		h, srv, _ := demoHarness(t, 120, 40, nil)
		armDrop(t, srv, "/backup/v1/restores")
		submitRestore(h)
		wantScreen(t, h, "Outcome unknown: restore into dev-serverless",
			"Appeared in the restores of dev-serverless since it was sent",
			"restore 3 into dev-serverless: Running",
			"sending it again would do it twice", "[ Leave it ]")
		refuseScreen(t, h, "refused", "failed", "Type dev-serverless to confirm")
		if f := footer(h.Screen()); !strings.Contains(f, "enter choose") || !strings.Contains(f, "esc leave it") {
			t.Errorf("the footer is not the dialog's keys: %q", f)
		}
		if n := rstPosts(srv); n != 1 {
			t.Fatalf("%d restore POSTs, want 1", n)
		}
		if !resend {
			h.Key("enter") // the cursor starts on "Leave it"
			if n := rstPosts(srv); n != 1 {
				t.Fatalf("%d restore POSTs after leaving it, want 1", n)
			}
			refuseScreen(t, h, "Outcome unknown")
			wantScreen(t, h, "not sent again")
			// the warning has had its say: it does not come back in turn
			for _, tt := range h.m.toasts {
				if strings.Contains(tt.text, "outcome unknown") {
					t.Fatalf("the answered warning still waits its turn: %q", tt.text)
				}
			}
			// the restore is in the list, re-read after the lost answer
			wantScreen(t, h, "dev-serverless")
			return
		}
		h.Key("right")
		h.Key("enter")
		if n := rstPosts(srv); n != 2 {
			t.Fatalf("%d restore POSTs after choosing to send again, want 2", n)
		}
	})
}

func TestOutcomeUnknownBackupJob(t *testing.T) {
	h, srv, _ := demoHarness(t, 120, 40, nil)
	armDrop(t, srv, "/backup/v1/backups/schedules")
	h.Key(":")
	h.TypeText("backups dev-serverless")
	h.Key("enter")
	h.Key("n")
	h.Key("enter") // full
	h.Key("enter") // once
	h.Key("enter") // managed storage
	wantScreen(t, h, `"schedule": "once"`)
	h.Key("enter")
	wantScreen(t, h, "Outcome unknown: full backup", "in the backup jobs and backups of dev-serverless since it was sent:", "backup job",
		"It was most likely carried out")
	refuseScreen(t, h, "failed:")
	if n := srv.Stats().Count("POST", "/backup/v1/backups/schedules"); n != 1 {
		t.Fatalf("%d schedule POSTs, want 1", n)
	}
	h.Key("esc")
	if n := srv.Stats().Count("POST", "/backup/v1/backups/schedules"); n != 1 {
		t.Fatalf("%d schedule POSTs after esc, want 1", n)
	}
	refuseScreen(t, h, "Outcome unknown", "Step 3 of 3")
}

func TestOutcomeUnknownServiceCreate(t *testing.T) {
	h, srv, _ := demoHarness(t, 120, 40, nil)
	armDrop(t, srv, "/provisioning/v1/services")
	h.Keys("n", "enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter")
	h.TypeText("orders-db2")
	h.Keys("enter", "enter", "enter")
	h.TypeText("203.0.113.7")
	h.Key("enter")
	h.Key("enter") // submit from the review
	wantScreen(t, h, "Outcome unknown: create service orders-db2", "service orders-db2 (")
	if n := srv.Stats().Count("POST", "/provisioning/v1/services"); n != 1 {
		t.Fatalf("%d service POSTs, want 1", n)
	}
	h.Key("enter")
	refuseScreen(t, h, "Outcome unknown")
	if n := srv.Stats().Count("POST", "/provisioning/v1/services"); n != 1 {
		t.Fatalf("%d service POSTs after leaving it, want 1", n)
	}
	// the draft comes back saying the launch was carried out: the list
	// read again shows the service (one warning mark, the toast's)
	h.Key("n")
	h.toastSays(t, "the last launch of orders-db2 was sent and never answered, and it was launched: orders-db2 (")
	refuseScreen(t, h, "! !")
}

// A stop, start or scale whose answer is lost but which the server
// carried out shows as the service's status moving the way the change
// moves it: the dialog says it was most likely carried out (from the list
// read again after the lost answer), the log records it, and enter leaves
// it (nothing sent again).
func TestOutcomeUnknownServiceChange(t *testing.T) {
	for _, tc := range []struct {
		name, method, path, want string
		send                     func(h *harness)
	}{
		{"stop", "POST", servicePath + "/stop", "replica-west (", func(h *harness) {
			h.runCompleted("stop replica-w", "stop replica-west")
			h.Key("y")
		}},
		{"start", "POST", servicePath + "/start", "legacy-batch (", func(h *harness) {
			h.runCompleted("start legacy-b", "start legacy-batch")
			h.Key("y")
		}},
		{"scale", "POST", servicePath + "/size", "orders-prod (", func(h *harness) {
			h.runCompleted("scale orders-p", "scale orders-prod")
			h.Keys("j", "enter", "enter", "enter")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, srv, _ := demoHarness(t, 140, 40, nil)
			if err := srv.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerDropped, Method: tc.method, Path: tc.path}); err != nil {
				t.Fatal(err)
			}
			tc.send(h)
			wantScreen(t, h, "Outcome unknown: "+tc.name, "Seen in the services since it was sent:", tc.want,
				"It was most likely carried out: sending it again would do it twice")
			refuseScreen(t, h, "probably not carried out")
			found := false
			for _, e := range h.m.msgs.entries {
				for _, f := range e.fields {
					found = found || f.label == "outcome" && strings.HasPrefix(f.value, "found: "+tc.name)
				}
			}
			if !found {
				t.Fatal("the log does not record the outcome found")
			}
			h.Key("enter") // the cursor is on "Leave it"
			refuseScreen(t, h, "Outcome unknown")
			if n := srv.Stats().Count(tc.method, tc.path); n != 1 {
				t.Fatalf("%d %s %s sent, want 1", n, tc.method, tc.path)
			}
		})
	}
}

// TestOutcomeUnknownFitsTheTerminal: at 60x16 and 80x24 the outcome
// dialog of a scale shows its title, what was seen in the services and
// the verdict whole, with its buttons; the explanation gives way on the
// short terminal.
func TestOutcomeUnknownFitsTheTerminal(t *testing.T) {
	for _, sz := range [][2]int{{60, 16}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			h, srv, _ := demoHarness(t, sz[0], sz[1], nil)
			armDrop(t, srv, servicePath+"/nodes")
			h.runCompleted("scale orders-p", "scale orders-prod")
			h.Keys("enter", "enter", "enter") // nodes, one more, apply
			scr := h.Screen()
			side := h.m.common.Theme.Glyphs.BoxV
			words := strings.Join(strings.Fields(strings.ReplaceAll(scr, side, " ")), " ")
			arrow := h.m.common.Theme.Glyphs.Arrow
			for _, want := range []string{"Outcome unknown: scale orders-prod nodes 2 " + arrow + " 3",
				"Seen in the services since it was sent:", "orders-prod (" + tuitest.Service(t, h.m.common.Client, sandbox.DemoOrders).ID + "): pending_scale",
				"It was most likely carried out: sending it again would do it twice.", "[ Leave it ] [ Send again ]"} {
				if !strings.Contains(words, want) {
					t.Errorf("%q is not in view whole:\n%s", want, scr)
				}
			}
			if strings.Contains(scr, "Outcome unknown: scale orders-prod nodes 2 "+arrow+h.m.common.Theme.Glyphs.Ellipsis) {
				t.Errorf("the title is cut:\n%s", scr)
			}
		})
	}
}

// TestOutcomeUnknownStartSaysReadyOnce: a start whose answer was lost and
// that the list then shows carried out is followed to its end, and its
// end is said once (by the follow watch), not again by the list.
func TestOutcomeUnknownStartSaysReadyOnce(t *testing.T) {
	h, srv, clk := demoHarness(t, 140, 40, nil)
	armDrop(t, srv, servicePath+"/start")
	h.runCompleted("start legacy-b", "start legacy-batch")
	h.Key("y")
	wantScreen(t, h, "Outcome unknown: start", "It was most likely carried out")
	h.Key("enter") // "Leave it"
	clk.Advance(sandbox.StartDuration + time.Second)
	h.Key("r")
	h.sees(t, "legacy-batch", "no list")
	rstFireWatches(h)
	h.Key("r")
	n := 0
	for _, e := range h.m.msgs.entries {
		if strings.Contains(e.text, "legacy-batch") && strings.HasSuffix(e.text, " is ready") {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the log says legacy-batch is ready %d times, want 1: %+v", n, h.m.msgs.entries)
	}
}
