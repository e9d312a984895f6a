package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/sandbox"
)

// TestReplicationStoreIsTheOneGiven: the Replication screen keeps its pairs
// in Options.ReplicationStore (the demo gives one of its own, removed at
// exit, so pairs from an earlier demo never show in a fresh one).
func TestReplicationStoreIsTheOneGiven(t *testing.T) {
	earlier := &replsetup.Store{Path: filepath.Join(t.TempDir(), replsetup.StateFileName)}
	if err := earlier.Save("demo", replsetup.ProfileState{Pairs: []replsetup.Pair{{
		PrimaryID: "dbtaf85489797", PrimaryName: sandbox.DemoOrders,
		SecondaryID: "dbtaf93155232", SecondaryName: sandbox.DemoReplica}}}, earlier.NextSeq()); err != nil {
		t.Fatal(err)
	}
	fresh := &replsetup.Store{Path: filepath.Join(t.TempDir(), replsetup.StateFileName)}
	for _, c := range []struct {
		store *replsetup.Store
		want  string
	}{
		{earlier, sandbox.DemoReplica},
		{fresh, "No replication set up with skytui yet."},
	} {
		h, _, _ := demoHarness(t, 100, 30, func(o *Options) { o.ReplicationStore = c.store })
		h.Key("4")
		if !strings.Contains(h.Screen(), c.want) {
			t.Errorf("with %s the Replication screen does not show %q:\n%s", c.store.Path, c.want, h.Screen())
		}
	}
}
