package replication_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/tui"
	"github.com/skytui/skytui/tui/tuitest"
)

const (
	managedPOST   = "/provisioning/v1/services/{id}/replication"
	managedDELETE = "/provisioning/v1/services/{id}/replication"
)

// pick filters the managed flow's list on name and presses enter on it.
func (h *harness) pick(name string) {
	h.T.Helper()
	h.Key("/")
	h.TypeText(name)
	h.Keys("enter", "enter")
}

// Managed replication in the demo, by keys: offered in the wizard's first
// step beside the sky procedures, a pending service refused with the
// reason, the review of what is sent, one request after yes, the pair in
// the status list with the primary's replicas and Yes / Yes read over
// SQL, and its end asked yes/no naming both (no: nothing sent).
func TestFlowManagedReplication(t *testing.T) {
	d := newDemo(t)
	h := d.app(120, 40, nil)
	h.Keys("4", "n")
	h.waitFor("Choose the PRIMARY")
	h.waitFor("Or m: managed replication")
	h.Key("m")
	h.waitFor("Managed replication")
	h.waitFor("Needs two ready services")

	// reporting-new is pending_create in the demo until the clock moves
	h.pick("reporting-new")
	h.waitFor("refused: reporting-new is pending_create: a service in a pending state cannot be the primary")
	h.Key("esc") // the filter
	h.pick("orders-prod")
	h.waitFor("Choose the REPLICA")
	h.pick("reporting-new")
	h.waitFor("refused: the replica reporting-new is pending_create: a service in a pending state cannot take part")
	h.Key("esc")
	h.pick("replica-west")
	pri, rep := d.byName("orders-prod"), d.byName("replica-west")
	h.waitFor(`Sends  POST /provisioning/v1/services/` + rep.ID + `/replication`)
	h.waitFor(`{"primary_host":"` + pri.ID + `","replication_type":"uni-directional"}`)
	h.Key("t")
	h.waitFor(`"replication_type":"bi-directional"`)
	h.Key("t")
	h.waitFor(`"replication_type":"uni-directional"`)
	if n := d.srv.Stats().Count("POST", managedPOST); n != 0 {
		t.Fatalf("%d requests before enter", n)
	}
	h.Key("enter")
	h.waitFor("Set up managed replication?")
	h.Key("y")
	h.waitFor("Method        managed replication (uni-directional); E ends it")
	h.waitFor("Replicas      of orders-prod: replica-west (ready)")
	h.waitFor("IO thread     Yes")
	h.waitFor("SQL thread    Yes")
	if n := d.srv.Stats().Count("POST", managedPOST); n != 1 {
		t.Fatalf("%d managed replication requests, want 1", n)
	}
	if s := d.byName("replica-west"); s.PrimaryHost != pri.ID || !s.ReplicationEnabled {
		t.Fatalf("the replica does not report its primary: %+v", s)
	}
	// the pair is saved, without secrets
	text := fileText(t, d.stateFile())
	if !strings.Contains(text, `"method": "managed"`) || !strings.Contains(text, `"mode": "uni-directional"`) {
		t.Fatalf("state file:\n%s", text)
	}

	// g has no grant to show; E asks naming both; no sends nothing
	h.Key("g")
	if !strings.Contains(h.lastToast(), "managed replication: the service runs it, there is no grant") {
		t.Errorf("g on a managed pair: %q", h.lastToast())
	}
	h.Key("E")
	h.waitFor("End managed replication?")
	h.waitFor("replica-west stops replicating from orders-prod")
	h.Key("n")
	if n := d.srv.Stats().Count("DELETE", managedDELETE); n != 0 {
		t.Fatalf("no sent %d DELETEs", n)
	}
	h.Key("E")
	h.waitFor("End managed replication?")
	h.Key("y")
	h.waitFor("replica-west no longer replicates from orders-prod")
	h.waitFor("No replication set up with skytui yet.")
	if n := d.srv.Stats().Count("DELETE", managedDELETE); n != 1 {
		t.Fatalf("%d DELETEs, want 1", n)
	}
	if s := d.byName("replica-west"); s.PrimaryHost != "" {
		t.Fatalf("ended, the replica still reports %s", s.PrimaryHost)
	}
}

// A read-only profile: the managed setup and its end are refused by the
// action layer before anything is asked or sent.
func TestFlowManagedReadOnly(t *testing.T) {
	d := newDemo(t)
	ro := func(o *tui.Options) { o.ReadOnly, o.Profile = true, "demo" }
	h := d.app(120, 40, ro)
	h.Keys("4", "n", "m")
	h.pick("orders-prod")
	h.pick("replica-west")
	h.waitFor("Sends  POST")
	h.Key("enter")
	if strings.Contains(h.Screen(), "Set up managed replication?") {
		t.Fatal("read-only asked to confirm instead of refusing")
	}
	h.waitFor("refused: profile is read-only")
	if !strings.Contains(h.lastToast(), "read-only") {
		t.Fatalf("toast %q", h.lastToast())
	}

	// a managed pair set up elsewhere: E is refused too
	pri, rep := d.byName("orders-prod"), d.byName("replica-west")
	if _, err := d.c.StartManagedReplication(bg, rep.ID, pri.ID, "bi-directional"); err != nil {
		t.Fatal(err)
	}
	store := replsetup.DefaultStore()
	pair := replsetup.ManagedPair(&pri, &rep, "bi-directional", d.clk.Now())
	if err := store.Save("demo", replsetup.ProfileState{Pairs: []replsetup.Pair{pair}}, store.NextSeq()); err != nil {
		t.Fatal(err)
	}
	h = d.app(120, 40, ro)
	h.Key("4")
	h.waitFor("managed replication (bi-directional)")
	h.waitFor("Replicas      of orders-prod: replica-west (ready)")
	h.Key("E")
	if strings.Contains(h.Screen(), "End managed replication?") {
		t.Fatal("read-only asked to confirm the end instead of refusing")
	}
	if !strings.Contains(h.lastToast(), "read-only") {
		t.Fatalf("toast %q", h.lastToast())
	}
	if n := d.srv.Stats().Count("POST", managedPOST); n != 1 {
		t.Fatalf("%d POSTs, want only the test's", n)
	}
	if n := d.srv.Stats().Count("DELETE", managedDELETE); n != 0 {
		t.Fatalf("read-only sent %d DELETEs", n)
	}
}

// The end refused by the API while the replica is pending: its status,
// message and trace ID are shown, and the pair stays.
func TestFlowManagedEndWhilePending(t *testing.T) {
	d := newDemo(t)
	pri, rep := d.byName("orders-prod"), d.byName("replica-west")
	if _, err := d.c.StartManagedReplication(bg, rep.ID, pri.ID, "uni-directional"); err != nil {
		t.Fatal(err)
	}
	store := replsetup.DefaultStore()
	if err := store.Save("demo", replsetup.ProfileState{Pairs: []replsetup.Pair{replsetup.ManagedPair(&pri, &rep, "uni-directional", d.clk.Now())}}, store.NextSeq()); err != nil {
		t.Fatal(err)
	}
	if err := d.c.StopService(bg, rep.ID); err != nil {
		t.Fatal(err)
	}
	h := d.app(120, 40, nil)
	h.Key("4")
	h.waitFor("managed replication (uni-directional)")
	h.Key("E")
	h.waitFor("End managed replication?")
	h.Key("y")
	h.waitFor("Refused       409 Conflict: service " + rep.ID + " is in a pending state")
	if !regexp.MustCompile(`trace [0-9a-f]{32}`).MatchString(strings.ReplaceAll(h.Screen(), "\n", " ")) {
		t.Fatalf("the refusal lacks the message or the trace ID:\n%s", h.Screen())
	}
	h.waitFor("managed replication (uni-directional)")
}

// TestGoldenManaged snapshots the managed flow at 80x24 and 140x40: the
// replica's choice, the review of the request, and the managed pair in
// the status list with the primary's replicas.
// Regenerate with: go test ./screens/replication/ -run TestGoldenManaged -update
func TestGoldenManaged(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {140, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			d := newDemo(t)
			h := d.app(size[0], size[1], nil)
			snap := func(name string) {
				t.Helper()
				out := h.Screen()
				t.Run(name, func(t *testing.T) {
					tuitest.CheckFrame(t, out, size[0], size[1])
					golden.RequireEqual(t, out)
				})
			}
			h.Keys("4", "n", "m")
			h.pick("orders-prod")
			h.waitFor("Choose the REPLICA")
			snap("01_choose_replica")
			h.pick("replica-west")
			h.waitFor("Sends  POST")
			snap("02_review")
			h.Key("enter")
			h.Key("y")
			h.waitFor("IO thread     Yes")
			h.waitFor("Replicas      of orders-prod")
			snap("03_status")
		})
	}
}
