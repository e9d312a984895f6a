package cli

import (
	"strconv"
	"testing"

	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/tuitest"
)

// TestConfirmRefusedOnce: a change that needs --yes and --confirm, given
// neither, is refused once, naming both (exit 3, nothing sent), as services
// delete and restores create are; not first --yes, then --confirm.
func TestConfirmRefusedOnce(t *testing.T) {
	h, sb := newChangeHarness(t)
	rs := decodeJSON[[]map[string]any](t, h.ok(h.live("restores", "list", "--service", sandbox.DemoReplica, "-o", "json")...))
	if len(rs) == 0 {
		t.Fatal("replica-west has no restore")
	}
	restore := strconv.FormatFloat(rs[0]["id"].(float64), 'f', 0, 64)
	for _, c := range []struct {
		what   string
		target string
		args   []string
	}{
		{"restores delete", sandbox.DemoReplica, []string{"restores", "delete", restore}},
		{"replication setup", sandbox.DemoReplica, []string{"replication", "setup", sandbox.DemoReplica, "--primary", sandbox.DemoOrders}},
		{"services delete", sandbox.DemoStaging, []string{"services", "delete", sandbox.DemoStaging}},
	} {
		h.fails(exitRefused, "skytui: "+c.what+" is destructive: pass --yes --confirm "+c.target+" (the target service's exact name; nothing was sent)\n", h.live(c.args...)...)
	}
	if n := tuitest.Changes(sb); n != 0 {
		t.Fatalf("%d changes sent by refused commands", n)
	}
}
