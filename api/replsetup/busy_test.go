package replsetup

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/internal/testenv"
	"github.com/skytui/skytui/sandbox"
)

// TestRefuseBusyWithoutSQL: when the secondary's threads cannot be read
// (no SQL answers here), a pair saved on this machine refuses it, with
// the pair's primary and the caller's fix; without one the pair passes
// and the note says what could not be read, and whether the saved pairs
// could.
func TestRefuseBusyWithoutSQL(t *testing.T) {
	clk := sandbox.NewManualClock(testenv.T0)
	srv := sandbox.New(sandbox.Options{APIKey: testKey, Clock: clk, DemoData: true, Seed: 7}) // SQLNone
	e := &env{t: t, srv: srv, clk: clk, c: testenv.Serve(t, srv, testKey)}
	eng := &Engine{Client: e.c, Now: clk.Now, SQLTimeout: time.Second}
	pri, sec := e.byName("orders-prod"), e.byName("replica-west")
	check := func(saved []Pair, err error) (Outcome, string, *Busy) {
		var got *Busy
		o, note := eng.RefuseBusy(bg, eng.CheckPair(bg, pri.ID, sec.ID), func() ([]Pair, error) { return saved, err }, func(b Busy) string {
			got = &b
			return "the fix"
		})
		return o, note, got
	}

	o, note, b := check([]Pair{{PrimaryID: pri.ID, PrimaryName: pri.Name, SecondaryID: sec.ID, SecondaryName: sec.Name}}, nil)
	if o.Verdict != Fail || b == nil || b.Saved == nil || o.Fix != "the fix" || note != "" ||
		o.Problem != "replica-west already replicates from orders-prod (set up with skytui, on the replication list): end that replication first" {
		t.Fatalf("a saved pair did not refuse: %+v, note %q", o, note)
	}

	o, note, b = check(nil, nil)
	if o.Verdict != Pass || b != nil || !strings.HasPrefix(note, "whether replica-west replicates now could not be read: ") {
		t.Fatalf("no saved pair: %+v, note %q", o, note)
	}

	o, note, _ = check(nil, errors.New("state file unreadable"))
	if o.Verdict != Pass || !strings.Contains(note, "nor the saved pairs (state file unreadable)") {
		t.Fatalf("saved pairs unreadable: %+v, note %q", o, note)
	}

	// a pair that failed its own check is left as it is: nothing is read
	o, note = eng.RefuseBusy(bg, Outcome{Step: StepPair, Verdict: Fail, Problem: "other provider"}, func() ([]Pair, error) {
		t.Fatal("the saved pairs were read for a failed check")
		return nil, nil
	}, func(Busy) string { return "" })
	if o.Problem != "other provider" || note != "" {
		t.Fatalf("a failed check changed: %+v, note %q", o, note)
	}
}
