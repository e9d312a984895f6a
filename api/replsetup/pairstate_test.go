package replsetup

import (
	"regexp"
	"strings"
	"testing"

	"github.com/skytui/skytui/api"
)

// A managed pair's diagnoses name its own keys, never a step of the sky
// procedures' wizard (QA: "check the primary still exists, then point the
// secondary at it again (step 4)" under a managed pair); a sky pair's
// keep the step that fixes them.
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
		if s := DiagnosePair(sky, &st); s != Diagnose(&st) || !step.MatchString(s.Fix) {
			t.Errorf("sky, IO error %d: %+v", st.LastIOErrno, s)
		}
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
