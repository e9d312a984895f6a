package cli

import (
	"net/http"
	"regexp"
	"sync/atomic"
	"testing"

	"github.com/skytui/skytui/sandbox"
)

// TestEndlessListingSaysSoWithTheTrace: a listing that goes on past what
// the client reads fails saying so in plain words, with the trace ID of
// the last page's answer.
func TestEndlessListingSaysSoWithTheTrace(t *testing.T) {
	h, _ := serveHarness(t, sandbox.Options{DemoData: true, Seed: 7, Faults: sandbox.Faults{EndlessRate: 1}}, goodKey)
	var last atomic.Value
	h.front(func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		next.ServeHTTP(w, r)
		last.Store(w.Header().Get("X-Trace-Id"))
	})
	stderr := h.fails(exitFailed, "skytui: the listing goes on past 20000 items, the most the client reads (GET /provisioning/v1/services, trace ",
		h.live("services", "list")...)
	trace, _ := last.Load().(string)
	if !regexp.MustCompile(`^[0-9a-f]{32}$`).MatchString(trace) || stderr != "skytui: the listing goes on past 20000 items, the most the client reads (GET /provisioning/v1/services, trace "+trace+")\n" {
		t.Errorf("stderr %q; the last page's trace %q", stderr, trace)
	}
}
