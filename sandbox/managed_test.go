package sandbox

import (
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
)

// Managed replication: the replica reports its primary, the primary lists
// it, its sky.replication_status() answers for it over SQL, and the
// refusals (pending, not ready, itself, twice, not a replica) say why.
func TestManagedReplication(t *testing.T) {
	h := newHarness(t, Options{SQL: SQLDemo, Seed: 11})
	P := "/provisioning/v1/services/"
	priID := h.readyService("orders-main", "aws")
	secID := h.readyService("orders-copy", "aws")
	pendingID := h.createService("orders-late", "aws")

	// refusals, nothing changed
	msg := func(b api.ErrorBody) string { return b.Errors[0].Message }
	if m := msg(h.do("POST", P+secID+"/replication", api.ManagedReplication{PrimaryHost: priID, ReplicationType: "sideways"}).errBody(t, 400)); !strings.Contains(m, "replication_type") {
		t.Errorf("bad type: %s", m)
	}
	if m := msg(h.do("POST", P+secID+"/replication", api.ManagedReplication{PrimaryHost: secID, ReplicationType: api.ReplicationUni}).errBody(t, 400)); !strings.Contains(m, "itself") {
		t.Errorf("itself: %s", m)
	}
	if m := msg(h.do("POST", P+pendingID+"/replication", api.ManagedReplication{PrimaryHost: priID, ReplicationType: api.ReplicationUni}).errBody(t, 409)); !strings.Contains(m, "pending state") {
		t.Errorf("pending replica: %s", m)
	}
	if m := msg(h.do("POST", P+secID+"/replication", api.ManagedReplication{PrimaryHost: pendingID, ReplicationType: api.ReplicationUni}).errBody(t, 409)); !strings.Contains(m, "pending state") {
		t.Errorf("pending primary: %s", m)
	}
	h.do("POST", P+secID+"/replication", api.ManagedReplication{PrimaryHost: "dbtaf09999999", ReplicationType: api.ReplicationUni}).errBody(t, 404)
	if s := h.service(secID); s.PrimaryHost != "" || s.ReplicationEnabled {
		t.Fatalf("a refused request changed the replica: %+v", s)
	}

	var got api.ManagedReplication
	h.do("POST", P+secID+"/replication", api.ManagedReplication{PrimaryHost: priID, ReplicationType: api.ReplicationUni}).want(t, 202).decode(t, &got)
	if got.PrimaryHost != priID || got.ReplicationType != api.ReplicationUni {
		t.Fatalf("answer %+v", got)
	}
	if s := h.service(secID); s.PrimaryHost != priID || !s.ReplicationEnabled {
		t.Fatalf("the replica does not report its primary: %+v", s)
	}
	if s := h.service(priID); s.PrimaryHost != "" || !s.ReplicationEnabled {
		t.Fatalf("the primary: %+v", s)
	}
	var reps []api.Service
	h.do("GET", P+priID+"/replicas", nil).want(t, 200).decode(t, &reps)
	if len(reps) != 1 || reps[0].ID != secID {
		t.Fatalf("replicas of the primary: %+v", reps)
	}
	h.do("GET", P+secID+"/replicas", nil).want(t, 200).decode(t, &reps)
	if len(reps) != 0 {
		t.Fatalf("a uni-directional replica has no replicas: %+v", reps)
	}
	if m := msg(h.do("POST", P+secID+"/replication", api.ManagedReplication{PrimaryHost: priID, ReplicationType: api.ReplicationBi}).errBody(t, 409)); !strings.Contains(m, "already replicates from "+priID) {
		t.Errorf("twice: %s", m)
	}

	// the replica's SQL endpoint answers for it: streaming from the
	// primary, no allow list entry or grant needed on the user's side
	pri, sec := h.service(priID), h.service(secID)
	db := h.sqlClient(sec, h.credentials(secID))
	h.clk.Advance(30 * time.Second)
	st := mustStatus(t, db)
	if !st.Configured || st.IORunning != "Yes" || st.SQLRunning != "Yes" || st.MasterHost != pri.FQDN || st.SecondsBehindMaster == nil {
		t.Fatalf("managed replica status: %+v", st)
	}
	if _, err := db.ReplicationGrants(bg); sqlCode(err) != 1200 {
		t.Errorf("replication_grants on a managed replica: %v, want 1200 (no grant to run)", err)
	}

	// ending it: the primary's path is refused with the replica to use
	if m := msg(h.do("DELETE", P+priID+"/replication", nil).errBody(t, 400)); !strings.Contains(m, secID) {
		t.Errorf("end on the primary: %s", m)
	}
	h.do("DELETE", P+secID+"/replication", nil).want(t, 200)
	if s := h.service(secID); s.PrimaryHost != "" || s.ReplicationEnabled {
		t.Fatalf("ended, still a replica: %+v", s)
	}
	if st := mustStatus(t, db); st.Configured {
		t.Fatalf("ended, SQL still reports replication: %+v", st)
	}
	h.do("DELETE", P+secID+"/replication", nil).errBody(t, 400)

	// bi-directional: each lists the other, both stream
	h.do("POST", P+secID+"/replication", api.ManagedReplication{PrimaryHost: priID, ReplicationType: api.ReplicationBi}).want(t, 202)
	h.do("GET", P+secID+"/replicas", nil).want(t, 200).decode(t, &reps)
	if len(reps) != 1 || reps[0].ID != priID {
		t.Fatalf("bi-directional: the replica's replicas %+v, want the primary", reps)
	}
	h.clk.Advance(10 * time.Second)
	if st := mustStatus(t, h.sqlClient(pri, h.credentials(priID))); st.IORunning != "Yes" || st.MasterHost != sec.FQDN {
		t.Fatalf("bi-directional: the primary's status %+v", st)
	}

	// a pending replica cannot end it
	h.do("POST", P+secID+"/stop", nil).want(t, 200)
	if m := msg(h.do("DELETE", P+secID+"/replication", nil).errBody(t, 409)); !strings.Contains(m, "pending state") {
		t.Errorf("end while pending: %s", m)
	}
}

// A new managed link never replaces one a service has already (refused
// with 409 naming it), and ending a uni-directional link leaves its
// primary's own replication alone.
func TestManagedReplicationKeepsOtherLinks(t *testing.T) {
	h := newHarness(t, Options{SQL: SQLDemo, Seed: 11})
	P := "/provisioning/v1/services/"
	msg := func(b api.ErrorBody) string { return b.Errors[0].Message }
	priID := h.readyService("orders-main", "aws")
	peerID := h.readyService("orders-peer", "aws")
	repID := h.readyService("orders-copy", "aws")
	skyID := h.readyService("orders-sky", "aws")
	pri, peer := h.service(priID), h.service(peerID)
	priDB := h.sqlClient(pri, h.credentials(priID))
	streamsFromPeer := func(when string) {
		t.Helper()
		h.clk.Advance(10 * time.Second)
		if st := mustStatus(t, priDB); !st.Configured || st.IORunning != "Yes" || st.MasterHost != peer.FQDN {
			t.Fatalf("%s: the primary's replication from %s: %+v", when, peerID, st)
		}
	}

	// orders-main and orders-peer replicate both ways
	h.do("POST", P+peerID+"/replication", api.ManagedReplication{PrimaryHost: priID, ReplicationType: api.ReplicationBi}).want(t, 202)
	streamsFromPeer("bi-directional")

	// a second bi-directional link would make orders-main follow another
	m := msg(h.do("POST", P+repID+"/replication", api.ManagedReplication{PrimaryHost: priID, ReplicationType: api.ReplicationBi}).errBody(t, 409))
	if !strings.Contains(m, priID) || !strings.Contains(m, peerID) {
		t.Errorf("a bi-directional link over an existing one: %q, want it refused naming %s and %s", m, priID, peerID)
	}
	if s := h.service(repID); s.PrimaryHost != "" || s.ReplicationEnabled {
		t.Fatalf("a refused request changed the replica: %+v", s)
	}
	streamsFromPeer("after the refusal")

	// a uni-directional replica of orders-main, then its end
	h.do("POST", P+repID+"/replication", api.ManagedReplication{PrimaryHost: priID, ReplicationType: api.ReplicationUni}).want(t, 202)
	h.do("DELETE", P+repID+"/replication", nil).want(t, 200)
	streamsFromPeer("a uni-directional replica ended")

	// a service that replicates already by the sky procedures
	sky := h.service(skyID)
	skyDB := h.sqlClient(sky, h.credentials(skyID))
	if _, err := skyDB.ChangeExternalPrimaryGTID(bg, "db.example.com", 3306, "0-1-100", true); err != nil {
		t.Fatal(err)
	}
	m = msg(h.do("POST", P+skyID+"/replication", api.ManagedReplication{PrimaryHost: priID, ReplicationType: api.ReplicationUni}).errBody(t, 409))
	if !strings.Contains(m, "db.example.com") {
		t.Errorf("a managed link over the sky procedures' replication: %q, want it refused naming db.example.com", m)
	}
	if st := mustStatus(t, skyDB); st.MasterHost != "db.example.com" {
		t.Fatalf("a refused request changed the replication: %+v", st)
	}
}
