package replsetup

import (
	"errors"
	"strings"
	"testing"

	"github.com/skytui/skytui/api"
)

// Managed replication through the engine on the demo sandbox: the pair's
// rules refuse with the reason, the call sets it up, and the replica's
// status over SQL (the path the status view polls) says Yes / Yes.
func TestManagedThroughEngine(t *testing.T) {
	e := newEnv(t, false)
	pri, rep := e.launch("managed-main", "aws"), e.launch("managed-copy", "gcp")

	if o := e.eng.CheckManagedPair(bg, pri.ID, pri.ID); o.Verdict != Fail {
		t.Fatalf("itself: %+v", o)
	}
	pending, err := e.c.CreateService(bg, api.CreateServiceRequest{ServiceType: "transactional", Topology: "es-single", Provider: "aws",
		Region: "us-east-1", Architecture: "amd64", Size: "sky-2x8", Storage: 100, Nodes: 1, Name: "managed-late", SSLEnabled: true})
	if err != nil {
		t.Fatal(err)
	}
	if o := e.eng.CheckManagedPair(bg, pri.ID, pending.ID); o.Verdict != Fail || !strings.Contains(o.Problem, "pending") || !strings.Contains(o.Fix, "wait") {
		t.Fatalf("pending replica: %+v", o)
	}
	// other providers are allowed: no backup crosses
	o := e.eng.CheckManagedPair(bg, pri.ID, rep.ID)
	if o.Verdict != Pass {
		t.Fatalf("pair: %+v", o)
	}
	if o = e.eng.StartManaged(bg, pri.ID, rep.ID, api.ReplicationUni); o.Verdict != Pass || o.Secondary == nil || o.Secondary.PrimaryHost != pri.ID {
		t.Fatalf("start: %+v", o)
	}
	if o := e.eng.CheckManagedPair(bg, pri.ID, rep.ID); o.Verdict != Fail || !strings.Contains(o.Problem, "already replicates from "+pri.ID) {
		t.Fatalf("twice: %+v", o)
	}
	pair := ManagedPair(pri, e.get(rep.ID), api.ReplicationUni, e.clk.Now())
	if !pair.Managed() {
		t.Fatal("not managed")
	}
	ps, err := e.eng.PairStatus(bg, pair, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := Diagnose(ps.Status); !d.OK || ps.Status.MasterHost != pri.FQDN {
		t.Fatalf("status of the managed replica: %+v %+v", d, ps.Status)
	}
	if o := e.eng.StartManaged(bg, pri.ID, rep.ID, api.ReplicationUni); o.Verdict != Fail || !api.IsConflict(o.Err) {
		t.Fatalf("sent twice: %+v", o)
	}
}

// A managed replication's chooser marks in advance what cannot be
// chosen, in a few words naming the side at fault: the primary itself,
// a stopped or pending service, a replica already, a primary that is a
// replica; the whole reason stays the refusal's.
func TestManagedNote(t *testing.T) {
	ready := func(id string) *api.Service { return &api.Service{ID: id, Name: id, Status: "ready"} }
	pri := ready("p")
	stopped, pending := ready("s"), ready("n")
	stopped.Status, pending.Status = "stopped", "pending_create"
	replica := ready("r")
	replica.PrimaryHost = "x"
	for _, c := range []struct {
		primary, v *api.Service
		want       string
	}{
		{nil, pri, ""},
		{nil, stopped, "primary: not ready"},
		{nil, pending, "primary: pending"},
		{pri, pri, "the primary"},
		{pri, stopped, "replica: not ready"},
		{pri, pending, "replica: pending"},
		{pri, ready("q"), ""},
	} {
		if got := ManagedNote(c.primary, c.v); got != c.want {
			t.Errorf("ManagedNote(%v, %s) = %q, want %q", c.primary != nil, c.v.Status, got, c.want)
		}
	}
	if got := ManagedNote(nil, replica); got != "primary: is a replica" {
		t.Errorf("a replica as the primary: %q", got)
	}
	if got := ManagedNote(pri, replica); got != "replica: replicates already" {
		t.Errorf("a replica already: %q", got)
	}
	var pe *PairError
	if err := CheckManagedPrimary(stopped); !errors.As(err, &pe) || err.Error() != "s is stopped: the primary must be ready" {
		t.Errorf("stopped primary: %v", err)
	}
}

// A service a saved pair has replicate already is refused as a replica,
// its primary named; one no pair has is not.
func TestKnownReplica(t *testing.T) {
	pairs := []Pair{{PrimaryID: "dbtaaaa1", PrimaryName: "orders-prod", SecondaryID: "dbtaaaa2", SecondaryName: "replica-west"}}
	var pe *PairError
	err := KnownReplica(pairs, "replica", &api.Service{ID: "dbtaaaa2", Name: "replica-west"})
	if !errors.As(err, &pe) || pe.Note() != "replica: replicates already" || !strings.Contains(err.Error(), "replica-west already replicates from orders-prod") {
		t.Fatalf("got %v", err)
	}
	if err := KnownReplica(pairs, "replica", &api.Service{ID: "dbtaaaa1"}); err != nil {
		t.Fatalf("the primary refused as a replica: %v", err)
	}
}
