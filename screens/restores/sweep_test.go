package restores

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// liveAccount answers the live service's services listing (orders,
// replica, gcpSvc) and its restores listings, one per service: restores
// holds each service's, failing the services whose listing fails (500).
type liveAccount struct {
	mu       sync.Mutex
	restores map[string]string // service ID -> its restores' JSON array
	failing  map[string]bool
}

func (a *liveAccount) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if strings.HasSuffix(r.URL.Path, "/services") {
		var parts []string
		for _, v := range []api.Service{orders, replica, gcpSvc} {
			parts = append(parts, fmt.Sprintf(`{"id":%q,"name":%q,"status":"ready"}`, v.ID, v.Name))
		}
		fmt.Fprint(w, "["+strings.Join(parts, ",")+"]")
		return
	}
	id := r.URL.Query().Get("service_id")
	if a.failing[id] {
		w.WriteHeader(http.StatusInternalServerError)
		fmt.Fprint(w, `{"errors":[{"message":"boom"}]}`)
		return
	}
	fmt.Fprintf(w, `{"restores":[%s],"restores_count":1,"pages_count":1}`, a.restores[id])
}

func (a *liveAccount) set(f func()) { a.mu.Lock(); defer a.mu.Unlock(); f() }

// liveScreen is the screen on a live-service client of acc.
func liveScreen(t *testing.T, acc *liveAccount) *Screen {
	t.Helper()
	srv := httptest.NewServer(acc)
	t.Cleanup(srv.Close)
	s := newScreen(200, 20)
	c, err := api.New(api.Config{BaseURL: srv.URL, APIKey: "k", BackupPrefix: api.LiveBackupPrefix})
	if err != nil {
		t.Fatal(err)
	}
	s.common.Client = c
	return s
}

// pollRestores runs the screen's restores resource (fresh, as after r)
// and gives the screen its answer, as the engine does.
func pollRestores(s *Screen) {
	for _, r := range s.Resources() {
		if r.Key == kit.RestoresKey.String() {
			data, err := r.Fetch(kit.WithFresh(context.Background()))
			err, parts := kit.SplitPartial(err)
			s.Update(kit.DataMsg{Key: r.Key, Data: data, Err: err, At: now, Parts: parts})
		}
	}
}

// TestOneFailingServiceLeavesTheOthersFresh: with one service's restores
// listing failing, the others' answers still reach the list (a restore
// that finished, a new one), the failed service keeps its rows, marked
// stale, and the status line names it (by name) as the one not read.
func TestOneFailingServiceLeavesTheOthersFresh(t *testing.T) {
	acc := &liveAccount{restores: map[string]string{
		replica.ID: `{"id":2,"service_id":"` + replica.ID + `","status":"Running"}`,
		gcpSvc.ID:  `{"id":3,"service_id":"` + gcpSvc.ID + `","status":"Succeeded"}`,
	}}
	s := liveScreen(t, acc)
	pollRestores(s)
	if !strings.Contains(row(t, s, "2"), "Running") {
		t.Fatalf("first listing:\n%s", view(s))
	}

	acc.set(func() {
		acc.failing = map[string]bool{gcpSvc.ID: true}
		acc.restores[replica.ID] = `{"id":2,"service_id":"` + replica.ID + `","status":"Succeeded"},` +
			`{"id":4,"service_id":"` + replica.ID + `","status":"Running"}`
	})
	pollRestores(s)
	v := view(s)
	if strings.Contains(v, "could not load") || !strings.Contains(row(t, s, "2"), "Succeeded") || !strings.Contains(row(t, s, "4"), "Running") {
		t.Fatalf("replica-west's fresh answer was not used while analytics-gcp's failed:\n%s", v)
	}
	if r := row(t, s, "3"); !strings.Contains(r, "Succeeded (stale)") {
		t.Errorf("analytics-gcp's kept row is not marked stale: %q", r)
	}
	if !strings.Contains(v, "restores of analytics-gcp not read since") || !strings.Contains(v, "boom") {
		t.Errorf("the status line does not name the service not read:\n%s", v)
	}
	if strings.Contains(row(t, s, "2"), "stale") {
		t.Error("a fresh service's row is marked stale")
	}

	acc.set(func() { acc.failing = nil })
	pollRestores(s)
	if v := view(s); strings.Contains(v, "stale") || strings.Contains(v, "not read") {
		t.Errorf("still said stale once it answers:\n%s", v)
	}
}

// TestEveryServiceFailingNamesTheService: when no service's restores
// could be read, the list's error names the service by name.
func TestEveryServiceFailingNamesTheService(t *testing.T) {
	acc := &liveAccount{failing: map[string]bool{orders.ID: true, replica.ID: true, gcpSvc.ID: true}}
	s := liveScreen(t, acc)
	pollRestores(s)
	if v := view(s); !strings.Contains(v, orders.Name+" ("+orders.ID+")") {
		t.Errorf("the error does not name the service:\n%s", v)
	}
}
