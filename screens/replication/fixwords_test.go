package replication_test

import (
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/sandbox"
)

// A failed step 4 names the key that runs it again (enter): it said "try
// again (c)", and c is not a key of that step.
func TestChangeFailureNamesEnter(t *testing.T) {
	d := newDemo(t)
	h, _, _ := d.smallAtChange(t)
	h.Sees("Step 4 of 6")
	d.srv.SetFaults(sandbox.Faults{ErrorRate: 1})
	for i := 0; i < 3 && !strings.Contains(h.Screen(), "FAIL  4"); i++ {
		h.Key("enter") // the first shows the CALL below the window
	}
	d.srv.SetFaults(sandbox.Faults{})
	scr := strings.Join(strings.Fields(h.Screen()), " ")
	for i := 0; i < 5 && !strings.Contains(scr, "try again"); i++ {
		h.Key("J")
		scr += " " + strings.Join(strings.Fields(h.Screen()), " ")
	}
	if !strings.Contains(scr, "try again (enter)") || strings.Contains(scr, "(c)") {
		t.Fatalf("step 4's fix does not name enter:\n%s", scr)
	}
	for i := 0; i < 3 && !strings.Contains(h.Screen(), "Step 5 of 6"); i++ {
		h.Key("enter") // the first may show the CALL below the window again
	}
	h.Sees("Step 5 of 6")
}

// A status read that fails names the key that reads again on the status
// list (r), never c (there it continues a setup): it said "Fix try
// again (c); if it persists…".
func TestStatusReadFailureNamesR(t *testing.T) {
	d := newDemo(t)
	d.managedPair("uni-directional")
	h := d.replication(nil, "IO thread     Yes")
	d.srv.SetFaults(sandbox.Faults{ErrorRate: 1})
	d.clk.Advance(time.Minute)
	h.Key("r")
	d.srv.SetFaults(sandbox.Faults{})
	h.Sees("could not be read")
	scr := h.flat()
	if !strings.Contains(scr, "Fix it is read again at every poll (r reads now)") || strings.Contains(scr, "(c)") {
		t.Fatalf("the failed read's fix does not name r:\n%s", h.Screen())
	}
}

// A saved pair whose secondary no longer has replication configured: the
// fix names what works from the status list (it said "run the setup from
// step 4", which nothing offers, and n refused the secondary), and what
// it costs; doing it reaches the new setup's first step.
func TestStatusNotConfiguredFixWorks(t *testing.T) {
	d := newDemo(t)
	d.skyPair("orders-prod", "replica-west", "gtid")
	h := d.replication(nil, "not configured on replica-west")
	scr := h.flat()
	if strings.Contains(scr, "step 4") || !strings.Contains(scr, "d forgets this pair; n sets replica-west up again") ||
		!strings.Contains(scr, "erases") {
		t.Fatalf("the not-configured pair's fix:\n%s", h.Screen())
	}
	// nothing to stop or start: the footer offers d, not s/S, and s or S
	// pressed anyway says so, asking nothing
	if f := h.footer(); !strings.Contains(f, "d forget") || strings.Contains(f, "s stop") || strings.Contains(f, "S start") || strings.Contains(f, "grant") {
		t.Errorf("a not-configured pair's footer: %q", f)
	}
	// g pressed anyway: the grant cannot be read, and its fix names the
	// list's keys, not a wizard step ("run step 4 first")
	h.Key("g")
	h.Until("the grant's read", func() bool { return strings.Contains(h.flat(), "Fix:") })
	if scr := h.flat(); strings.Contains(scr, "step") || !strings.Contains(scr, "d forgets this pair") {
		t.Errorf("the grant of a not-configured pair:\n%s", h.Screen())
	}
	h.Key("esc")
	for _, k := range []string{"s", "S"} {
		h.Key(k)
		if strings.Contains(h.Screen(), "replication?") {
			t.Fatalf("%s on a not-configured pair asks:\n%s", k, h.Screen())
		}
		if got := h.lastToast(); !strings.Contains(got, "replication is not configured on replica-west (d forgets the pair)") {
			t.Errorf("%s on a not-configured pair: %q", k, got)
		}
	}
	h.forgetPair()
	h.Key("n")
	h.Sees("Choose the PRIMARY")
	h.choosePair("orders-prod", "replica-west")
	h.Sees("Step 1 of 6")
}
