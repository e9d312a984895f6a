package replsetup

import (
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
