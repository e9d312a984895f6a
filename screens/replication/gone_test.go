package replication_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
)

// deleted deletes the service named name and lets the demo's clock run
// until it is gone (a GET of it answers 404).
func (d *demo) deleted(name string) {
	d.t.Helper()
	id := d.byName(name).ID
	if err := d.c.DeleteService(bg, id); err != nil {
		d.t.Fatal(err)
	}
	d.clk.Advance(time.Hour)
	if _, err := d.c.GetService(bg, id); !api.IsNotFound(err) {
		d.t.Fatalf("%s is still there", name)
	}
}

// fresh checks that the header never reports a failed refresh over
// polls: a service that is gone is said in the pane.
func (h *harness) fresh(polls int) {
	h.T.Helper()
	for i := 0; ; i++ {
		if hd := h.header(); strings.Contains(hd, "stale") || strings.Contains(hd, "404") || !strings.Contains(hd, "updated") {
			h.T.Fatalf("a deleted service's 404 is a failed refresh in the header (poll %d): %q\n%s", i, hd, h.Screen())
		}
		if i == polls {
			return
		}
		h.d.clk.Advance(30 * time.Second)
		h.FirePolls()
	}
}

// deletedWhileAway is the app at 80x24 on Replication with a managed
// pair (replica-west from orders-prod) read (seen on the screen), then
// the service name deleted while Services shows (the screen's listing
// still has it when it comes back): back on Replication, gone is seen and
// the header stays fresh over 3 polls. The screen, its words folded.
func (d *demo) deletedWhileAway(seen, name, gone string) (*harness, string) {
	d.t.Helper()
	d.managedPair("uni-directional")
	h := d.app(80, 24, nil)
	h.Key("4")
	h.Sees(seen)
	h.Key("1")
	d.deleted(name)
	h.Key("4")
	h.Sees(gone)
	h.fresh(3)
	return h, strings.Join(strings.Fields(h.Screen()), " ")
}

// noSteps fails when the frame names a step of the sky procedures'
// wizard: a managed pair has none.
func (h *harness) noSteps() {
	h.T.Helper()
	if regexp.MustCompile(`\(step \d\)|step \d`).MatchString(h.Screen()) {
		h.T.Fatalf("a managed pair's fix names a wizard step:\n%s", h.Screen())
	}
}

// A managed pair whose primary was deleted (QA: the header said "stale
// …, retry … - HTTP 404: serv~" for the primary's replicas, retried at
// every poll, and the fix read "check the primary still exists, then
// point the secondary at it again (step 4)", a step of the wizard): the
// pane says the primary is deleted and the fix is the pair's own E,
// which ends it; the header stays fresh; E sends the DELETE.
func TestStatusManagedPrimaryDeleted(t *testing.T) {
	d := newDemo(t)
	h, scr := d.deletedWhileAway("Replicas      of orders-prod: replica-west (ready)", "orders-prod", "the primary orders-prod is deleted")
	for _, want := range []string{
		"Problem the primary orders-prod is deleted: nothing replicates from it",
		"Fix nothing brings it back: E ends managed replication on replica-west",
		"Replicas none: orders-prod is deleted",
	} {
		if !strings.Contains(scr, want) {
			t.Errorf("the pane lacks %q:\n%s", want, h.Screen())
		}
	}
	if strings.Contains(scr, "could not be read") || strings.Contains(scr, "does not resolve") {
		t.Errorf("the deleted primary reads as a failed read or a DNS problem:\n%s", h.Screen())
	}
	h.noSteps()
	if f := h.footer(); !strings.Contains(f, "E end") {
		t.Errorf("the footer lacks E, the fix: %q", f)
	}
	h.answer("E", "y", "DELETE", managedDELETE, 1, "End managed replication?")
	h.Sees("replica-west no longer replicates from orders-prod")
}

// A managed pair whose replica was deleted: the pane says so and the fix
// is d (it read "could not be read: 404 …" with the header stale); E,
// which has nothing to end, leaves the footer and sends nothing.
func TestStatusManagedReplicaDeleted(t *testing.T) {
	d := newDemo(t)
	h, scr := d.deletedWhileAway("IO thread     Yes", "replica-west", "the replica replica-west is deleted")
	if !strings.Contains(scr, "Fix nothing brings it back: d forgets this pair") || strings.Contains(scr, "could not be read") {
		t.Errorf("the pane does not say the replica is gone with d as its fix:\n%s", h.Screen())
	}
	h.noSteps()
	if f := h.footer(); strings.Contains(f, "E end") || !strings.Contains(f, "d forget") {
		t.Errorf("the footer offers E for a deleted replica, or lacks d: %q", f)
	}
	h.Key("E")
	if got := h.lastToast(); !strings.Contains(got, "nothing to end: replica-west is deleted; d forgets this pair") {
		t.Errorf("E on a deleted replica: %q", got)
	}
	if strings.Contains(h.Screen(), "End managed replication?") || d.srv.Stats().Count("DELETE", managedDELETE) != 0 {
		t.Fatalf("E on a deleted replica asked or sent:\n%s", h.Screen())
	}
	h.forgetPair()
}

// A pair set up with the sky procedures whose primary was deleted: its
// fix is the sky pair's keys (s stops the secondary's threads, d forgets
// it, n sets it up anew), never E.
func TestStatusSkyPrimaryDeleted(t *testing.T) {
	d := newDemo(t)
	d.skyPair("orders-prod", "analytics-gcp", "")
	d.deleted("orders-prod")
	h := d.app(80, 24, nil)
	h.Key("4")
	h.Sees("the primary orders-prod is deleted")
	h.fresh(1)
	scr := strings.Join(strings.Fields(h.Screen()), " ")
	if !strings.Contains(scr, "Fix nothing brings it back: s stops replication on analytics-gcp") || strings.Contains(scr, "E ends") {
		t.Errorf("a sky pair's deleted primary lacks its own fix:\n%s", h.Screen())
	}
}
