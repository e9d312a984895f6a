package replsetup

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
)

// Each fix names the key that does it where it is shown: a failed
// restore goes back to step 2 with bksp (p pauses the refresh); a step
// that changes a service runs again with enter, a read-only check with c;
// the status list's reads say their own words (r), an API error's too.
func TestFixesNameTheirKeys(t *testing.T) {
	o := restoreOutcome(Progress{RestoreID: 3}, &api.Restore{ID: 3, Status: "Failed", Message: "disk full"}, time.Time{})
	if o.Verdict != Fail || !strings.Contains(o.Fix, "choose another backup (bksp back to step 2)") || strings.Contains(o.Fix, "(p ") {
		t.Errorf("failed restore's fix: %q", o.Fix)
	}
	apiErr := &api.Error{Status: 500, Message: "internal server error"}
	if _, fix := SQLFixRetry(apiErr, "secondary", "replica-west", StepStart, "r reads now"); !strings.HasPrefix(fix, "r reads now; if it persists") {
		t.Errorf("an API error read on the status list: %q", fix)
	}
	if fix := apiFixRetry(apiErr, retryRun); !strings.HasPrefix(fix, "try again (enter)") {
		t.Errorf("a step's run: %q", fix)
	}
	sqlErr := &api.SQLError{Code: 1146, Reason: "x"}
	for _, step := range []Step{StepChange, StepGrant, StepStart} {
		if _, fix := SQLFixRetry(sqlErr, "secondary", "replica-west", step, retryRun); !strings.Contains(fix, "try again (enter)") {
			t.Errorf("%s: %q", step, fix)
		}
	}
	if fix := apiFixRetry(errors.New("x"), retryCheck); fix != "try again (c); if it persists, quote the trace ID to support" {
		t.Errorf("a check: %q", fix)
	}
}
