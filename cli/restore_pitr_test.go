package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/sandbox"
)

// TestChangeRestorePointInTime: --from SOURCE --at TIME. A moment that is
// not one, a moment outside the source's window (named), a service that
// cannot provide backups, and --from without --at are refused before the
// restore is sent; a moment inside is restored to the end with --wait,
// sending point_in_time as the description says.
func TestChangeRestorePointInTime(t *testing.T) {
	h, sb := newChangeHarness(t)
	posts := func() int { return sb.Stats().Count("POST", "/skybackup/v1/restores") }
	create := func(more ...string) []string {
		return h.live(append([]string{"restores", "create", "--service", sandbox.DemoReplica, "--yes", "--confirm", sandbox.DemoReplica}, more...)...)
	}
	h.fails(exitUsage, "skytui: --from and --at go together", create("--from", sandbox.DemoOrders)...)
	h.fails(exitUsage, `skytui: --at: "last tuesday" is not a moment: type "2026-11-23 10:15"`, create("--from", sandbox.DemoOrders, "--at", "last tuesday")...)
	h.fails(exitUsage, "skytui: give exactly one source", create("--from", sandbox.DemoOrders, "--at", "2026-03-14 10:00", "--backup-id", "x")...)
	long := sb.Clock().Now().Add(-30 * 24 * time.Hour).UTC()
	stderr := h.fails(exitUsage, "skytui: --at: "+long.Format("2006-01-02 15:04")+":00 UTC is outside the window of orders-prod: ", create("--from", sandbox.DemoOrders, "--at", long.Format("2006-01-02 15:04"))...)
	if !strings.Contains(stderr, "Nothing was sent") {
		t.Errorf("outside the window: %s", stderr)
	}
	h.fails(exitUsage, "skytui: --from reporting-new: it cannot provide backups for a point-in-time restore", create("--from", sandbox.DemoReporting, "--at", long.Format(time.RFC3339))...)
	if posts() != 0 {
		t.Fatalf("%d restores sent by refused commands", posts())
	}

	at := sb.Clock().Now().Add(-2 * time.Hour).In(time.FixedZone("CET", 3600))
	stdout, stderr, code := h.script(create("--from", sandbox.DemoOrders, "--at", at.Format(time.RFC3339), "--wait", "--poll-interval", "20ms", "-o", "json")...)
	if code != 0 || !strings.Contains(stderr, "into replica-west succeeded") {
		t.Fatalf("--wait: exit %d\n%s\n%s", code, stderr, stdout)
	}
	if !strings.Contains(stdout, `"Succeeded"`) || posts() != 1 {
		t.Fatalf("after --wait (%d POSTs): %s", posts(), stdout)
	}
}
