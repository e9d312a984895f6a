package tui

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
)

// serviceIDOf finds a demo service's ID through the client.
func serviceIDOf(t *testing.T, c *api.Client, name string) string {
	t.Helper()
	svcs, err := c.ListServices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range svcs {
		if s.Name == name {
			return s.ID
		}
	}
	t.Fatalf("no service %s", name)
	return ""
}

// nonGET counts the changes the sandbox received.
func nonGET(srv *sandbox.Server) int {
	n := 0
	for k, v := range srv.Stats().Requests {
		if !strings.HasPrefix(k, "GET ") {
			n += v
		}
	}
	return n
}

func TestServiceStopStartFlow(t *testing.T) {
	h, srv, clk := demoHarness(t, 140, 40, nil)
	// :stop NAME confirms naming the service and what stops
	h.runCompleted("stop replica-w", "stop replica-west")
	h.sees(t, "Stop service?", "no stop confirmation")
	h.sees(t, "replica-west", "the confirmation does not name the service")
	h.sees(t, "replication to it stops", "the confirmation does not say what stops")
	h.Key("y")
	if n := srv.Stats().Count("POST", "/provisioning/v1/services/{id}/stop"); n != 1 {
		t.Fatalf("%d stops sent, want 1", n)
	}
	if got := lastToast(h); !strings.Contains(got, "stopping replica-west") {
		t.Fatalf("toast %q", got)
	}
	h.sees(t, "pending_stop", "the list does not show pending_stop")
	// while pending: x is refused on the screen, nothing sent
	before := nonGET(srv)
	h.Key("x")
	if len(h.m.dialogs) != 0 || nonGET(srv) != before {
		t.Fatal("x on a pending service asked or sent")
	}
	if got := lastToast(h); !strings.Contains(got, "is pending_stop") {
		t.Fatalf("pending toast %q", got)
	}
	clk.Advance(sandbox.StopDuration + time.Second)
	h.Key("r")
	h.sees(t, "stopped", "not stopped after the stop's time")
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
	id := serviceIDOf(t, h.m.common.Client, sandbox.DemoOrders)
	if err := h.m.common.Client.StopService(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	h.runCompleted("stop orders-p", "stop orders-prod") // the screen still thinks it ready
	h.Key("y")
	got := lastToast(h)
	for _, want := range []string{"stop orders-prod failed", "409", "pending state", "trace"} {
		if !strings.Contains(got, want) {
			t.Errorf("refusal toast %q lacks %q", got, want)
		}
	}
}

func TestServiceDeleteFlow(t *testing.T) {
	h, srv, clk := demoHarness(t, 140, 40, nil)
	h.runCompleted("delete legacy-b", "delete legacy-batch")
	h.sees(t, "Delete service?", "no delete confirmation")
	h.TypeText("legacy")
	h.Key("enter")
	if n := srv.Stats().Count("DELETE", "/provisioning/v1/services/{id}"); n != 0 || !strings.Contains(h.Screen(), "does not match") {
		t.Fatalf("a wrong name deleted (%d sent)\n%s", n, h.Screen())
	}
	h.TypeText("-batch")
	h.Key("enter")
	if n := srv.Stats().Count("DELETE", "/provisioning/v1/services/{id}"); n != 1 {
		t.Fatalf("%d deletes sent, want 1", n)
	}
	h.sees(t, "pending_delete", "the list does not show pending_delete")
	clk.Advance(sandbox.DeleteDuration + time.Second)
	h.Key("r")
	if strings.Contains(h.Screen(), "legacy-batch") {
		t.Fatalf("the deleted service is still listed:\n%s", h.Screen())
	}
}

// A service a restore runs into is pending: delete is not offered.
func TestServiceDeleteRefusedWhileRestoring(t *testing.T) {
	h, srv, _ := demoHarness(t, 140, 40, nil)
	h.runCompleted("delete staging", "delete staging-eu")
	if len(h.m.dialogs) != 0 || nonGET(srv) != 0 {
		t.Fatalf("delete of a pending service asked or sent (toast %q)\n%s", lastToast(h), h.Screen())
	}
	if got := lastToast(h); !strings.Contains(got, "staging-eu is pending_modifying") {
		t.Fatalf("toast %q", got)
	}
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
	h.Key("enter")
	if n := srv.Stats().Count("POST", "/provisioning/v1/services/{id}/size"); n != 1 {
		t.Fatalf("%d size changes sent, want 1", n)
	}
	if got := lastToast(h); !strings.Contains(got, "scaling orders-prod: size") {
		t.Fatalf("toast %q", got)
	}
	h.sees(t, "pending_scale", "the list does not show pending_scale")
	clk.Advance(sandbox.ScaleDuration + time.Second)
	h.Key("r")

	// storage: only upward; a smaller size is blocked and says why
	h.runCompleted("scale orders-p", "scale orders-prod")
	h.Key("j")
	h.Key("j")
	h.Key("enter")
	h.sees(t, "storage only grows", "smaller storage not blocked")
	h.Key("k") // from the first larger size up to a smaller one
	before := nonGET(srv)
	h.Key("enter")
	if got := lastToast(h); !strings.Contains(got, "cannot choose that") {
		t.Fatalf("blocked choice toast %q", got)
	}
	h.Key("esc")
	h.Key("esc")
	h.Key("esc")
	if nonGET(srv) != before {
		t.Fatal("backing out of the scale view sent something")
	}

	// nodes: the cursor starts on the first count above the current one
	h.runCompleted("scale orders-p", "scale orders-prod")
	h.Key("enter")
	h.sees(t, "2  (current)", "the current node count is not marked")
	h.Key("enter")
	h.sees(t, "nodes  2 "+h.m.common.Theme.Glyphs.Arrow+" 3", "the review does not show the nodes before → after")
	h.Key("enter")
	if n := srv.Stats().Count("POST", "/provisioning/v1/services/{id}/nodes"); n != 1 {
		t.Fatalf("%d node changes sent, want 1", n)
	}
	clk.Advance(sandbox.ScaleDuration + time.Second)
	h.Key("r")
	if v := rstService(t, h.m.common.Client, sandbox.DemoOrders); v.Nodes != 3 || v.Status != "ready" {
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
	if got := lastToast(h); got != "profile prod-eu is read-only: stop orders-prod not allowed" {
		t.Fatalf("stop toast %q", got)
	}
	h.Key("D")
	if got := lastToast(h); got != "profile prod-eu is read-only: delete orders-prod not allowed" {
		t.Fatalf("delete toast %q", got)
	}
	h.Key("z")
	if got := lastToast(h); !strings.Contains(got, "read-only: scale orders-prod not allowed") {
		t.Fatalf("scale toast %q", got)
	}
	h.Key("a")
	h.Key("t")
	if got := lastToast(h); !strings.Contains(got, "read-only: turn SSL off for orders-prod not allowed") {
		t.Fatalf("ssl toast %q", got)
	}
	if n := nonGET(srv); n != 0 {
		t.Fatalf("a read-only profile sent %d changes", n)
	}
}

func TestAllowListSSLAndCheck(t *testing.T) {
	h, srv, _ := demoHarness(t, 140, 40, nil)
	h.runCompleted("services orders-prod", "services orders-prod")
	h.Key("a")
	h.sees(t, "SSL on", "the allow list does not show SSL")
	h.Key("i")
	h.TypeText("not-an-ip")
	h.Key("enter")
	h.sees(t, "ip_address: enter one address", "a bad address is not refused next to the input")
	h.sees(t, "not-an-ip", "the typed text was lost")
	for range len("not-an-ip") {
		h.Key("backspace")
	}
	h.TypeText("203.0.113.10")
	h.Key("enter")
	h.sees(t, "203.0.113.10 is allowed to connect to orders-prod", "no check answer")
	h.Key("i")
	h.TypeText("192.0.2.99")
	h.Key("enter")
	h.sees(t, "192.0.2.99 is NOT allowed", "no refusal answer")

	h.Key("t")
	h.sees(t, "Turn SSL off?", "no SSL confirmation")
	h.Key("y")
	if n := srv.Stats().Count("PATCH", "/provisioning/v1/services/{id}/security/ssl"); n != 1 {
		t.Fatalf("%d SSL changes sent", n)
	}
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
	h.Key("enter")
	if n := srv.Stats().Count("PUT", "/provisioning/v1/services/{id}/security/allowlist"); n != 1 {
		t.Fatalf("%d allow-list replacements sent, want 1", n)
	}
	h.sees(t, "198.51.100.77/32", "the new entry is not listed")
	if !regexp.MustCompile(`198\.51\.100\.77/32 +office VPN \(Berlin\)`).MatchString(h.Screen()) {
		t.Fatalf("the comment is not shown beside the entry:\n%s", h.Screen())
	}
	for _, l := range strings.Split(before, "\n") {
		if m := regexp.MustCompile(`^\s*(\d+\.\d+\.\d+\.\d+/\d+)\s+(\S.*?)\s{2,}`).FindStringSubmatch(l); m != nil {
			if !strings.Contains(h.Screen(), m[1]) {
				t.Fatalf("%s was lost", m[1])
			}
		}
	}
}
