package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/sandbox"
)

// command runs line on the ":" command line.
func (h *harness) command(line string) {
	h.T.Helper()
	h.Key(":")
	h.TypeText(line)
	h.Key("enter")
}

// TestUnknownServiceStaysPut: ":backups NAME" and ":restores NAME" from
// another screen, with a name that is no service, warn and change nothing:
// the screen stays (it opened Backups or Restores of every service); a
// known name still opens the screen narrowed to it.
func TestUnknownServiceStaysPut(t *testing.T) {
	for _, c := range []struct{ cmd, screen, title string }{
		{"backups", "backups", "Backups of orders-prod"},
		{"restores", "restores", "service: orders-prod"},
	} {
		t.Run(c.cmd, func(t *testing.T) {
			h, _, _ := demoHarness(t, 120, 30, nil)
			h.Sees("orders-prod")
			h.command(c.cmd + " nosuch")
			if id := h.m.Active().ID(); id != "services" {
				t.Errorf(":%s nosuch left Services for %s:\n%s", c.cmd, id, h.Screen())
			}
			h.toastSays(t, `no service named "nosuch"`)
			h.command(c.cmd + " orders-prod")
			if id := h.m.Active().ID(); id != c.screen || !strings.Contains(h.Screen(), c.title) {
				t.Errorf(":%s orders-prod did not open %s narrowed:\n%s", c.cmd, c.screen, h.Screen())
			}
		})
	}
}

// TestRestoresOfDeletedService: ":restores ID" of a deleted service from
// another screen still opens Restores on the restores listed into it.
func TestRestoresOfDeletedService(t *testing.T) {
	h, _, clk := demoHarness(t, 120, 30, nil)
	h.Sees("replica-west")
	id := serviceID(t, h, sandbox.DemoReplica)
	h.Key("3")
	h.Sees(sandbox.DemoReplica)
	h.Key("1")
	if err := h.m.common.Client.DeleteService(context.Background(), id); err != nil {
		t.Fatal(err)
	}
	clk.Advance(sandbox.DeleteDuration + time.Minute)
	h.Key("r")
	if strings.Contains(h.Screen(), sandbox.DemoReplica) {
		t.Fatalf("%s is still listed:\n%s", sandbox.DemoReplica, h.Screen())
	}
	h.command("restores " + id)
	if got := h.m.Active().ID(); got != "restores" || !strings.Contains(h.Screen(), sandbox.DemoReplica) {
		t.Fatalf(":restores %s (deleted) did not open its restores:\n%s", id, h.Screen())
	}
}

// serviceID is the ID of the service named name in the root's listing.
func serviceID(t *testing.T, h *harness, name string) string {
	t.Helper()
	for _, s := range h.m.known {
		if s.Name == name {
			return s.ID
		}
	}
	t.Fatalf("no service %q in %v", name, h.m.known)
	return ""
}
