package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/sandbox"
)

// TestCrossProviderRefusalsSayNothingWasSent: a restore across cloud
// providers, from a managed backup or to a point in time, is refused as
// every other refusal is: saying nothing was sent.
func TestCrossProviderRefusalsSayNothingWasSent(t *testing.T) {
	h, sb := newChangeHarness(t)
	create := func(more ...string) []string {
		return h.live(append([]string{"restores", "create", "--service", sandbox.DemoAnalytics, "--yes", "--confirm", sandbox.DemoAnalytics}, more...)...)
	}
	at := sb.Clock().Now().Add(-2 * time.Hour).UTC().Format(time.RFC3339)
	for _, args := range [][]string{
		create("--backup", newestBackupKey(t, h, sandbox.DemoOrders)),
		create("--from", sandbox.DemoOrders, "--at", at),
	} {
		stderr := h.fails(exitUsage, "skytui: --", args...)
		if !strings.Contains(stderr, "only within the same cloud provider") || !strings.HasSuffix(stderr, " (nothing was sent)\n") {
			t.Errorf("%v: %s", args, stderr)
		}
	}
	if n := sb.Stats().Count("POST", "/skybackup/v1/restores"); n != 0 {
		t.Fatalf("%d restores sent by refused commands", n)
	}
}
