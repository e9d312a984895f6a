package replication

import (
	"context"
	"testing"
	"time"

	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/tuitest"
)

// The polls of a pair whose services were deleted answer without an
// error (an error is a failed refresh: the header said "stale …, retry …
// - HTTP 404" and retried it at every poll): the primary's replicas say
// it is gone, the replica's status reads it deleted. A primary that is
// there still answers its replicas.
func TestPollsOfDeletedServices(t *testing.T) {
	ctx := context.Background()
	_, clk, c := tuitest.SandboxWith(t, sandbox.Options{DemoData: true, Seed: 7})
	pri, rep := tuitest.Service(t, c, "orders-prod"), tuitest.Service(t, c, "replica-west")
	if _, err := c.StartManagedReplication(ctx, rep.ID, pri.ID, "uni-directional"); err != nil {
		t.Fatal(err)
	}
	reps, err := replicasResource(c, pri.ID).Fetch(ctx)
	if l, _ := reps.(replicaList); err != nil || l.gone || len(l.list) != 1 {
		t.Fatalf("replicas of a primary that is there: %+v, %v", reps, err)
	}
	pair := replsetup.ManagedPair(&pri, &rep, "uni-directional", clk.Now())
	for _, id := range []string{pri.ID, rep.ID} {
		if err := c.DeleteService(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	clk.Advance(time.Hour)

	reps, err = replicasResource(c, pri.ID).Fetch(ctx)
	if l, _ := reps.(replicaList); err != nil || !l.gone {
		t.Errorf("replicas of a deleted primary: %+v, %v", reps, err)
	}
	eng := &replsetup.Engine{Client: c, Now: clk.Now}
	st, err := statusResource(eng, replsetup.NewCredCache(), pair).Fetch(ctx)
	if ps, _ := st.(replsetup.PairStatus); err != nil || ps.Secondary.ID != rep.ID || !replsetup.IsGone(&ps.Secondary) || ps.Secondary.Name != "replica-west" {
		t.Errorf("status of a deleted replica: %+v, %v", st, err)
	}
}
