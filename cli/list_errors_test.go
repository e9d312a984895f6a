package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
)

// front puts a server in front of the harness's sandbox: serve answers
// every request, handing to next (the sandbox) what it does not answer
// itself.
func (h *harness) front(serve func(w http.ResponseWriter, r *http.Request, next http.Handler)) {
	h.t.Helper()
	target, err := url.Parse(h.url)
	if err != nil {
		h.t.Fatal(err)
	}
	next := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { serve(w, r, next) }))
	h.t.Cleanup(srv.Close)
	h.url = srv.URL
}

// answerError answers an API error with a trace ID.
func answerError(w http.ResponseWriter, status int, trace, message string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("X-Trace-Id", trace)
	w.WriteHeader(status)
	io.WriteString(w, `{"errors":[{"message":"`+message+`"}]}`)
}

// TestRestoresListRetriesEachService: `restores list` across services
// gives each service's listing its retries: one service's failure does
// not cut off another's retry, and the error is the failure's, naming the
// service, with its status, message and trace ID.
func TestRestoresListRetriesEachService(t *testing.T) {
	h, _ := newChangeHarness(t)
	svcs := decodeJSON[[]map[string]any](t, h.ok(h.live("services", "list", "-o", "json")...))
	if len(svcs) < 2 {
		t.Fatalf("%d services", len(svcs))
	}
	first, second := svcs[0]["id"].(string), svcs[1]["id"].(string)
	firstName, secondName := svcs[0]["name"].(string), svcs[1]["name"].(string)
	var asked sync.Map // service ID → *atomic.Int32
	count := func(id string) *atomic.Int32 {
		n, _ := asked.LoadOrStore(id, new(atomic.Int32))
		return n.(*atomic.Int32)
	}
	var firstFails atomic.Bool // the first service's listing fails every time
	failed := make(chan struct{})
	var once sync.Once
	h.front(func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		id := r.URL.Query().Get("service_id")
		if r.Method != http.MethodGet || r.URL.Path != "/skybackup/v1/restores" {
			next.ServeHTTP(w, r)
			return
		}
		n := count(id).Add(1)
		switch {
		case id == first && (n == 1 || firstFails.Load()):
			answerError(w, http.StatusInternalServerError, "a0a0", "internal server error")
			once.Do(func() { close(failed) })
		case id == second && !firstFails.Load():
			// refused while the first service waits for its retry
			select {
			case <-failed:
			case <-time.After(5 * time.Second):
			}
			answerError(w, http.StatusForbidden, "b0b0", "no access to this service")
		default:
			next.ServeHTTP(w, r)
		}
	})

	h.fails(exitFailed, "skytui: listing the restores of "+secondName+" ("+second+"): 403 Forbidden: no access to this service (GET /skybackup/v1/restores, trace b0b0)\n",
		h.live("restores", "list")...)
	if n := count(first).Load(); n != 2 {
		t.Errorf("the first service was asked %d times, want 2 (its retry)", n)
	}

	firstFails.Store(true)
	before := count(first).Load()
	h.fails(exitFailed, "skytui: listing the restores of "+firstName+" ("+first+"): 500 Internal Server Error: internal server error (GET /skybackup/v1/restores, trace a0a0)\n",
		h.live("restores", "list")...)
	if n := count(first).Load() - before; n != 1+api.DefaultMaxRetries {
		t.Errorf("the failing service was asked %d times, want %d", n, 1+api.DefaultMaxRetries)
	}
}
