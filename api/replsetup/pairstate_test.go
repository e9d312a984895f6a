package replsetup

import (
	"regexp"
	"strings"
	"testing"

	"github.com/skytui/skytui/api"
)

// A managed pair's diagnoses name its own keys, never a step of the sky
// procedures' wizard (QA: "check the primary still exists, then point the
// secondary at it again (step 4)" under a managed pair), nor does a saved
// sky pair's: no step can be run on a pair the list shows.
func TestDiagnosePairManagedNamesNoStep(t *testing.T) {
	step := regexp.MustCompile(`step \d`)
	managed := Pair{PrimaryID: "dbtp", SecondaryID: "dbts", Method: MethodManaged}
	sky := Pair{PrimaryID: "dbtp", SecondaryID: "dbts"}
	for _, st := range []api.ReplicationStatus{
		{},
		{Configured: true, IORunning: "Connecting", SQLRunning: "Yes", LastIOErrno: api.ErAccessDenied},
		{Configured: true, IORunning: "Connecting", SQLRunning: "Yes", LastIOErrno: 2003},
		{Configured: true, IORunning: "Connecting", SQLRunning: "Yes", LastIOErrno: 2005},
		{Configured: true, IORunning: "No", SQLRunning: "Yes", LastIOErrno: 1236},
	} {
		d := DiagnosePair(managed, &st)
		if d.OK || d.Problem == "" || d.Fix == "" || step.MatchString(d.Problem+d.Fix) || d.Step != 0 {
			t.Errorf("managed, IO error %d: %+v", st.LastIOErrno, d)
		}
		if !strings.Contains(d.Fix, "E ends") && !strings.Contains(d.Fix, "d forgets") {
			t.Errorf("managed, IO error %d: the fix names neither E nor d: %q", st.LastIOErrno, d.Fix)
		}
		if !st.Configured {
			continue // its fix: TestDiagnosePairSkyNotConfigured
		}
		// a saved sky pair is no wizard either: its fix names the keys of
		// the list (g, d, n) or the Services screen, no step
		if s := DiagnosePair(sky, &st); s.Problem != Diagnose(&st).Problem || step.MatchString(s.Fix) || s.Step != 0 ||
			!regexp.MustCompile(`\b(g shows|d forgets|Services screen)`).MatchString(s.Fix) {
			t.Errorf("sky, IO error %d: %+v", st.LastIOErrno, s)
		}
	}
}

// A sky pair whose secondary lost its configuration is not taken up
// again at step 4 (nothing offers it, and its data are at no known
// position): d forgets it, n sets it up again, and the restore's cost is
// said.
func TestDiagnosePairSkyNotConfigured(t *testing.T) {
	sky := Pair{PrimaryID: "dbtp", PrimaryName: "orders-prod", SecondaryID: "dbts", SecondaryName: "replica-west"}
	d := DiagnosePair(sky, &api.ReplicationStatus{})
	if d.OK || d.Step != 0 || strings.Contains(d.Fix, "from step 4") ||
		!strings.HasPrefix(d.Fix, "d forgets this pair; n sets replica-west up again from a new backup of orders-prod, whose restore erases replica-west's data") {
		t.Errorf("%+v", d)
	}
	// a secondary no pair is saved for (status of a service named): no
	// pair to forget, no primary to name
	d = DiagnosePair(Pair{SecondaryID: "dbts", SecondaryName: "staging-eu"}, &api.ReplicationStatus{})
	if strings.Contains(d.Fix, "forgets") || strings.Contains(d.Fix, "?") || !strings.Contains(d.Fix, "n sets staging-eu up from a primary") {
		t.Errorf("no pair saved: %+v", d)
	}
}

// A deleted primary's fix is the pair's own key: E for a managed pair,
// s for a sky pair; a deleted secondary's is d for both.
func TestPairServiceStateGone(t *testing.T) {
	managed := Pair{PrimaryName: "orders-prod", SecondaryName: "replica-west", Method: MethodManaged}
	sky := Pair{PrimaryName: "orders-prod", SecondaryName: "analytics-gcp"}
	pri := Gone("dbtp", "orders-prod")
	if p, f := PairServiceState(managed, "primary", pri); !strings.Contains(p, "orders-prod is deleted") || !strings.Contains(f, "E ends managed replication on replica-west") {
		t.Errorf("managed: %q / %q", p, f)
	}
	if _, f := PairServiceState(sky, "primary", pri); !strings.Contains(f, "s stops replication on analytics-gcp") || strings.Contains(f, "E ") {
		t.Errorf("sky: %q", f)
	}
	for _, p := range []Pair{managed, sky} {
		if _, f := PairServiceState(p, p.SecondaryRole(), Gone("dbts", p.SecondaryName)); f != "nothing brings it back: d forgets this pair" {
			t.Errorf("%s's deleted secondary: %q", p.SecondaryName, f)
		}
	}
}
