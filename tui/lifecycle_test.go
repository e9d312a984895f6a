package tui

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/tuitest"
)

// servicePath is the API's path of one service.
const servicePath = "/provisioning/v1/services/{id}"

// sends presses k, which must send method path once; then the message
// line says toast and the list shows the service in state pending (each
// unless "").
func (h *harness) sends(t *testing.T, srv *sandbox.Server, k, method, path, toast, pending string) {
	t.Helper()
	h.Key(k)
	if n := srv.Stats().Count(method, path); n != 1 {
		t.Fatalf("%d %s %s sent, want 1", n, method, path)
	}
	if toast != "" {
		h.toastSays(t, toast)
	}
	if pending != "" {
		h.sees(t, pending, "the list does not show "+pending)
	}
}

func TestServiceStopStartFlow(t *testing.T) {
	h, srv, clk := demoHarness(t, 140, 40, nil)
	// :stop NAME confirms naming the service and what stops
	h.runCompleted("stop replica-w", "stop replica-west")
	h.sees(t, "Stop service?", "no stop confirmation")
	h.sees(t, "replica-west", "the confirmation does not name the service")
	h.sees(t, "replication to it stops", "the confirmation does not say what stops")
	h.sends(t, srv, "y", "POST", servicePath+"/stop", "stopping replica-west", "pending_stop")
	// while pending: x is refused on the screen, nothing sent
	before := tuitest.Changes(srv)
	h.Key("x")
	if len(h.m.dialogs) != 0 || tuitest.Changes(srv) != before {
		t.Fatal("x on a pending service asked or sent")
	}
	h.toastSays(t, "is pending_stop")
	clk.Advance(sandbox.StopDuration + time.Second)
	h.Key("r")
	h.sees(t, "stopped", "not stopped after the stop's time")
	// the stop's end is said, as a start's "is ready" is
	rstFireWatches(h)
	h.toastSays(t, "service replica-west (")
	h.toastSays(t, ") is stopped")
	// x on the stopped service starts it
	h.Key("x")
	h.sees(t, "Start service?", "no start confirmation")
	h.Key("y")
	h.sees(t, "pending_start", "the list does not show pending_start")
	clk.Advance(sandbox.StartDuration + time.Second)
	h.Key("r")
	if strings.Contains(h.Screen(), "pending_start") {
		t.Fatalf("still starting:\n%s", h.Screen())
	}

	// the API's refusal while pending: status, message and trace ID
	id := tuitest.Service(t, h.m.common.Client, sandbox.DemoOrders).ID
	if err := h.m.common.Client.StopService(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	// x acts on the row as the screen shows it, which still shows it ready
	// (:stop reads the listing again first, and would refuse it here)
	h.Key(":")
	h.TypeText("services orders-prod")
	h.Key("enter")
	h.Key("x")
	h.sees(t, "Stop service?", "x on a row the screen shows ready does not ask")
	h.Key("y")
	got := lastToast(h)
	for _, want := range []string{"stop orders-prod failed", "409", "pending state", "trace"} {
		if !strings.Contains(got, want) {
			t.Errorf("refusal toast %q lacks %q", got, want)
		}
	}
	// the refusal says the list was behind: it is read again at once, and
	// shows the state the refusal names
	if row := tuitest.LineWith(h.Screen(), "orders-prod "); !strings.Contains(row, "pending_stop") {
		t.Errorf("after the 409 the list still shows %q", row)
	}
}

// TestServiceStartReadySaidOnce: a start ends with "service NAME (ID) is
// ready" on any screen, as a stop ends with "is stopped"; on the Services
// screen, whose listing sees the service turn ready too, it is said once.
func TestServiceStartReadySaidOnce(t *testing.T) {
	both(t, "elsewhere", "on Services", func(t *testing.T, here bool) {
		h, srv, clk := demoHarness(t, 140, 40, nil)
		h.runCompleted("start legacy-b", "start legacy-batch")
		h.sees(t, "Start service?", "no start confirmation")
		h.sends(t, srv, "y", "POST", servicePath+"/start", "starting legacy-batch", "pending_start")
		if !here {
			h.Key("2")
		}
		clk.Advance(sandbox.StartDuration + time.Second)
		if here {
			h.Key("r") // the listing sees pending_start turn ready
		}
		rstFireWatches(h)
		if here {
			h.Key("r")
		}
		h.toastSays(t, "service legacy-batch (")
		h.toastSays(t, ") is ready")
		var said int
		for _, e := range h.m.msgs.entries {
			if strings.HasPrefix(e.text, "service legacy-batch (") && strings.HasSuffix(e.text, ") is ready") {
				said++
			}
		}
		if said != 1 {
			t.Fatalf("the start's end is said %d times, want once", said)
		}
	})
}

func TestServiceDeleteFlow(t *testing.T) {
	h, srv, clk := demoHarness(t, 140, 40, nil)
	h.runCompleted("delete legacy-b", "delete legacy-batch")
	h.sees(t, "Delete service?", "no delete confirmation")
	h.TypeText("legacy")
	h.Key("enter")
	if n := srv.Stats().Count("DELETE", servicePath); n != 0 || !strings.Contains(h.Screen(), "does not match") {
		t.Fatalf("a wrong name deleted (%d sent)\n%s", n, h.Screen())
	}
	h.TypeText("-batch")
	h.sends(t, srv, "enter", "DELETE", servicePath, "", "pending_delete")
	clk.Advance(sandbox.DeleteDuration + time.Second)
	h.Key("2") // the end is said on any screen
	rstFireWatches(h)
	h.toastSays(t, "service legacy-batch (")
	h.toastSays(t, ") is gone")
	h.Key("1")
	h.Key("r")
	if strings.Contains(h.Screen(), "legacy-batch") {
		t.Fatalf("the deleted service is still listed:\n%s", h.Screen())
	}
}

// A service a restore runs into is pending: delete is not offered.
func TestServiceDeleteRefusedWhileRestoring(t *testing.T) {
	h, srv, _ := demoHarness(t, 140, 40, nil)
	h.runCompleted("delete staging", "delete staging-eu")
	if len(h.m.dialogs) != 0 || tuitest.Changes(srv) != 0 {
		t.Fatalf("delete of a pending service asked or sent (toast %q)\n%s", lastToast(h), h.Screen())
	}
	h.toastSays(t, "staging-eu is pending_modifying")
}

func TestServiceScaleFlow(t *testing.T) {
	h, srv, clk := demoHarness(t, 140, 40, nil)
	h.runCompleted("scale orders-p", "scale orders-prod")
	h.sees(t, "What to change:", "the scale view did not open")
	// size: choices from the sizes listing, the current one blocked
	h.Key("j") // the cursor starts on nodes (es-replica): down to size
	h.Key("enter")
	h.sees(t, "(current)", "the current size is not marked")
	h.Key("enter")
	h.sees(t, "Review", "no review")
	scr := h.Screen()
	if !strings.Contains(scr, "size  sky-4x16 "+h.m.common.Theme.Glyphs.Arrow+" sky-") {
		t.Fatalf("the review does not show before → after:\n%s", scr)
	}
	h.sends(t, srv, "enter", "POST", servicePath+"/size", "scaling orders-prod: size", "pending_scale")
	clk.Advance(sandbox.ScaleDuration + time.Second)
	h.Key("r")

	// storage: only upward; a smaller size is blocked and says why
	h.runCompleted("scale orders-p", "scale orders-prod")
	h.Key("j")
	h.Key("j")
	h.Key("enter")
	h.sees(t, "storage only grows", "smaller storage not blocked")
	h.Key("k") // from the first larger size up to a smaller one
	before := tuitest.Changes(srv)
	h.Key("enter")
	h.toastSays(t, "cannot choose that")
	h.Key("esc")
	h.Key("esc")
	h.Key("esc")
	if tuitest.Changes(srv) != before {
		t.Fatal("backing out of the scale view sent something")
	}

	// nodes: the cursor starts on the first count above the current one
	h.runCompleted("scale orders-p", "scale orders-prod")
	h.Key("enter")
	h.sees(t, "2  (current)", "the current node count is not marked")
	h.Key("enter")
	h.sees(t, "nodes  2 "+h.m.common.Theme.Glyphs.Arrow+" 3", "the review does not show the nodes before → after")
	h.sends(t, srv, "enter", "POST", servicePath+"/nodes", "", "")
	clk.Advance(sandbox.ScaleDuration + time.Second)
	h.Key("r")
	if v := tuitest.Service(t, h.m.common.Client, sandbox.DemoOrders); v.Nodes != 3 || v.Status != "ready" {
		t.Fatalf("orders-prod after the scale: %d nodes, %s", v.Nodes, v.Status)
	}
	if !regexp.MustCompile(`orders-prod +dbt\w+ +ready +\S+ +\S+ +3 `).MatchString(h.Screen()) {
		t.Fatalf("the list does not show orders-prod ready on 3 nodes:\n%s", h.Screen())
	}
}

func TestServiceLifecycleReadOnly(t *testing.T) {
	h, srv, _ := demoHarness(t, 140, 40, func(o *Options) { o.ReadOnly, o.Profile = true, "prod-eu" })
	h.runCompleted("stop orders-p", "stop orders-prod")
	if len(h.m.dialogs) != 0 {
		t.Fatal("stop asked for confirmation on a read-only profile")
	}
	if got := lastToast(h); got != "not allowed on read-only profile prod-eu: stop orders-prod" {
		t.Fatalf("stop toast %q", got)
	}
	h.Key("D")
	if got := lastToast(h); got != "not allowed on read-only profile prod-eu: delete orders-prod" {
		t.Fatalf("delete toast %q", got)
	}
	h.Key("z")
	h.toastSays(t, "not allowed on read-only profile prod-eu: scale orders-prod")
	h.Key("a")
	h.Key("t")
	h.toastSays(t, "not allowed on read-only profile prod-eu: turn SSL off for orders-prod")
	if n := tuitest.Changes(srv); n != 0 {
		t.Fatalf("a read-only profile sent %d changes", n)
	}
}

func TestAllowListSSLAndCheck(t *testing.T) {
	h, srv, _ := demoHarness(t, 140, 40, nil)
	h.runCompleted("services orders-prod", "services orders-prod")
	h.Key("a")
	h.sees(t, "SSL on", "the allow list does not show SSL")
	// i checks an address: what is typed, then enter
	check := func(typed, want, what string) {
		t.Helper()
		h.TypeText(typed)
		h.Key("enter")
		h.sees(t, want, what)
	}
	h.Key("i")
	// the input says it checks, not adds
	if scr := h.Screen(); !strings.Contains(scr, "check> ") || strings.Contains(scr, "add> ") || !strings.Contains(scr, "enter check") {
		t.Fatalf("the check's input reads like the add's:\n%s", scr)
	}
	check("not-an-ip", "ip_address: enter one address", "a bad address is not refused next to the input")
	h.sees(t, "not-an-ip", "the typed text was lost")
	for range len("not-an-ip") {
		h.Key("backspace")
	}
	check("203.0.113.10", "203.0.113.10 is allowed to connect to orders-prod", "no check answer")
	h.Key("i")
	check("192.0.2.99", "192.0.2.99 is NOT allowed", "no refusal answer")

	h.Key("t")
	h.sees(t, "Turn SSL off?", "no SSL confirmation")
	h.sends(t, srv, "y", "PATCH", servicePath+"/security/ssl", "", "")
	h.sees(t, "SSL off", "the allow list still shows SSL on")
}

// TestAllowListAddWithComment: an entry typed with a comment is added
// with it (the list read and put back whole, since POST takes no
// comment) and shows in the COMMENT column; the entries already there
// keep theirs.
func TestAllowListAddWithComment(t *testing.T) {
	h, srv, _ := demoHarness(t, 140, 40, nil)
	h.runCompleted("services orders-prod", "services orders-prod")
	h.Key("a")
	before := h.Screen()
	h.Key("n")
	h.TypeText("198.51.100.77 office VPN (Berlin)")
	h.sees(t, `will add 198.51.100.77/32 with the comment "office VPN (Berlin)"`, "the hint does not say what will be added")
	h.sends(t, srv, "enter", "PUT", servicePath+"/security/allowlist", "", "")
	h.sees(t, "198.51.100.77/32", "the new entry is not listed")
	if !regexp.MustCompile(`198\.51\.100\.77/32 +office VPN \(Berlin\)`).MatchString(h.Screen()) {
		t.Fatalf("the comment is not shown beside the entry:\n%s", h.Screen())
	}
	kept := 0
	for _, l := range strings.Split(before, "\n") {
		if m := regexp.MustCompile(`^[> ]\s*(\d+\.\d+\.\d+\.\d+/\d+)\s+(\S.*?)\s{2,}`).FindStringSubmatch(l); m != nil {
			if !regexp.MustCompile(`(?m)` + regexp.QuoteMeta(m[1]) + ` +` + regexp.QuoteMeta(m[2]) + `(\s|$)`).MatchString(h.Screen()) {
				t.Fatalf("%s lost its comment %q:\n%s", m[1], m[2], h.Screen())
			}
			kept++
		}
	}
	if kept < 2 {
		t.Fatalf("%d commented entries checked, want the demo's:\n%s", kept, before)
	}
}
