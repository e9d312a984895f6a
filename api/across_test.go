package api

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeAccount answers the services listing and the live restores listing
// for n services; running names the services with a restore running. It
// counts requests and the most restores listings in flight at once.
type fakeAccount struct {
	n        int
	running  map[string]bool
	gone     map[string]bool
	failing  map[string]bool // services whose restores listing fails (500)
	delay    time.Duration
	mu       sync.Mutex
	asked    map[string]int
	services int
	inFlight atomic.Int32
	maxIn    atomic.Int32
}

func (f *fakeAccount) id(i int) string { return fmt.Sprintf("dbt%04d", i) }

func (f *fakeAccount) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case strings.HasSuffix(r.URL.Path, "/provisioning/v1/services"):
		f.mu.Lock()
		f.services++
		n := f.n
		f.mu.Unlock()
		var b strings.Builder
		b.WriteString("[")
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `{"id":%q,"name":"svc-%d","status":"ready"}`, f.id(i), i)
		}
		b.WriteString("]")
		io.WriteString(w, b.String())
	case strings.HasSuffix(r.URL.Path, "/restores"):
		n := f.inFlight.Add(1)
		defer f.inFlight.Add(-1)
		for {
			m := f.maxIn.Load()
			if n <= m || f.maxIn.CompareAndSwap(m, n) {
				break
			}
		}
		time.Sleep(f.delay)
		id := r.URL.Query().Get("service_id")
		f.mu.Lock()
		if f.asked == nil {
			f.asked = map[string]int{}
		}
		f.asked[id]++
		f.mu.Unlock()
		f.mu.Lock()
		failing, running := f.failing[id], f.running[id]
		f.mu.Unlock()
		if f.gone[id] {
			writeErr(w, http.StatusNotFound, "no such service")
			return
		}
		if failing {
			writeErr(w, http.StatusInternalServerError, "boom")
			return
		}
		status := "Succeeded"
		if running {
			status = "Running"
		}
		fmt.Fprintf(w, `{"restores":[{"id":%d,"service_id":%q,"status":%q}],"restores_count":1,"pages_count":1}`, len(id), id, status)
	default:
		http.NotFound(w, r)
	}
}

func (f *fakeAccount) restoreCalls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	n := 0
	for _, v := range f.asked {
		n += v
	}
	return n
}

func TestRestoreSweepAsksSettledServicesSlowly(t *testing.T) {
	acc := &fakeAccount{n: 12, running: map[string]bool{"dbt0003": true}, gone: map[string]bool{"dbt0007": true}, delay: 5 * time.Millisecond}
	c, _ := newTestClient(t, acc, func(c *Config) { c.BackupPrefix = LiveBackupPrefix })
	now := time.Unix(1_800_000_000, 0)
	sw := &RestoreSweep{Now: func() time.Time { return now }}
	ctx := context.Background()

	all, err := sw.All(ctx, c, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 11 { // 12 services, one gone
		t.Fatalf("want the restores of 11 services, got %d", len(all))
	}
	if acc.restoreCalls() != 12 {
		t.Fatalf("the first sweep asked %d services, want 12", acc.restoreCalls())
	}
	if m := acc.maxIn.Load(); m > MaxPerServiceInFlight || m < 2 {
		t.Fatalf("%d restores listings in flight at once; want 2..%d", m, MaxPerServiceInFlight)
	}

	// a tick soon after: only the service with a running restore
	now = now.Add(2 * time.Second)
	before := acc.restoreCalls()
	if all, err = sw.All(ctx, c, false); err != nil || len(all) != 11 {
		t.Fatalf("tick: %d restores, %v", len(all), err)
	}
	if got := acc.restoreCalls() - before; got != 1 || acc.asked["dbt0003"] != 2 {
		t.Fatalf("a tick asked %d services, want only the running one", got)
	}

	// a fresh sweep (refresh, after a change) asks everything
	before = acc.restoreCalls()
	if _, err = sw.All(ctx, c, true); err != nil {
		t.Fatal(err)
	}
	if got := acc.restoreCalls() - before; got != 12 {
		t.Fatalf("a fresh sweep asked %d services, want 12", got)
	}

	// once the settled interval has passed, settled services are asked again
	now = now.Add(DefaultSettledInterval)
	before = acc.restoreCalls()
	if _, err = sw.All(ctx, c, false); err != nil {
		t.Fatal(err)
	}
	if got := acc.restoreCalls() - before; got != 12 {
		t.Fatalf("after the settled interval %d services were asked, want 12", got)
	}
}

func TestRestoreSweepOneCallOnTheInterfaceDocument(t *testing.T) {
	var calls atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		if r.URL.Path != "/backup/v1/restores" || r.URL.Query().Has("service_id") {
			t.Errorf("unexpected %s %s", r.Method, r.URL)
		}
		io.WriteString(w, `[{"id":1,"service_id":"dbt1","status":"Running"},{"id":2,"service_id":"dbt2","status":"Succeeded"}]`)
	})
	c, _ := newTestClient(t, h)
	all, err := (&RestoreSweep{}).All(context.Background(), c, false)
	if err != nil || len(all) != 2 || calls.Load() != 1 {
		t.Fatalf("%d restores, %d calls, %v", len(all), calls.Load(), err)
	}
}

func TestListRestoresAndSchedulesNeedAServiceOnTheLiveService(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		t.Errorf("nothing should be sent: %s %s", r.Method, r.URL)
	})
	c, _ := newTestClient(t, h, func(c *Config) { c.BackupPrefix = LiveBackupPrefix })
	if _, err := c.ListRestores(context.Background(), ""); err == nil {
		t.Error("restores of no service on the live service")
	}
	if _, err := c.ListSchedules(context.Background(), ""); err == nil {
		t.Error("schedules of no service on the live service")
	}
}

// A service whose listing fails fails only its own part of a sweep: the
// others' answers are used as they come (a running restore's new status, a
// new service's restores), the failed one keeps its last rows and is said
// with its name, and it is asked again on the next sweep.
func TestRestoreSweepPartialKeepsEveryAnswer(t *testing.T) {
	acc := &fakeAccount{n: 4, running: map[string]bool{"dbt0001": true}}
	c, _ := newTestClient(t, acc, func(c *Config) { c.BackupPrefix = LiveBackupPrefix })
	now := time.Unix(1_800_000_000, 0)
	sw := &RestoreSweep{Now: func() time.Time { return now }}
	ctx := context.Background()
	if all, failed, err := sw.Partial(ctx, c, true); err != nil || len(failed) != 0 || len(all) != 4 {
		t.Fatalf("first sweep: %d restores, failed %v, %v", len(all), failed, err)
	}
	first := now

	acc.mu.Lock()
	acc.failing = map[string]bool{"dbt0002": true}
	acc.running = nil // dbt0001's restore has finished
	acc.n = 5         // and a new service came
	acc.mu.Unlock()
	now = now.Add(2 * time.Second)
	all, failed, err := sw.Partial(ctx, c, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 5 {
		t.Fatalf("want the restores of 5 services (the failed one's kept), got %d", len(all))
	}
	for _, r := range all {
		if r.ServiceID == "dbt0001" && r.Running() {
			t.Error("dbt0001's restore still shows running: its fresh answer was thrown away")
		}
	}
	if len(failed) != 1 || failed[0].ServiceID != "dbt0002" || !failed[0].Since.Equal(first) || StatusOf(failed[0]) != 500 {
		t.Fatalf("failed = %+v, want dbt0002 with the 500, its rows from %v", failed, first)
	}
	if got := failed[0].Service(); got != "svc-2 (dbt0002)" {
		t.Errorf("the failed service is named %q", got)
	}
	if _, err := sw.All(ctx, c, false); StatusOf(err) != 500 || !strings.Contains(err.Error(), "svc-2 (dbt0002)") {
		t.Errorf("All (the CLI's) wants the failure with its service, got %v", err)
	}

	// the failed service is asked again at once, and then used
	acc.mu.Lock()
	acc.failing = nil
	asked := acc.asked["dbt0002"]
	acc.mu.Unlock()
	now = now.Add(2 * time.Second)
	if _, failed, err = sw.Partial(ctx, c, false); err != nil || len(failed) != 0 {
		t.Fatalf("after it answers again: failed %v, %v", failed, err)
	}
	if acc.asked["dbt0002"] != asked+1 {
		t.Error("a service whose listing failed was not asked on the next sweep")
	}
}

func TestPerServiceFailsOnTheFirstRealError(t *testing.T) {
	ids := []string{"a", "b", "c", "d", "e", "f"}
	_, err := perService(context.Background(), ids, func(ctx context.Context, id string) ([]int, error) {
		if id == "c" {
			return nil, &Error{Status: 500, Message: "boom"}
		}
		return []int{1}, nil
	})
	if StatusOf(err) != 500 {
		t.Fatalf("want the 500, got %v", err)
	}
}

// BenchmarkRestoreSweep50Services measures the requests per minute the
// Restores screen sends for an account of 50 services on the live service,
// simulating the polling engine's intervals (2 s while anything runs, 30 s
// otherwise) over ten minutes: with every restore settled, and with one
// running. The figures are reported as req/min and recorded in the README.
func BenchmarkRestoreSweep50Services(b *testing.B) {
	for _, tc := range []struct {
		name    string
		running map[string]bool
	}{
		{"settled", nil},
		{"one_running", map[string]bool{"dbt0017": true}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var perMin float64
			for range b.N {
				acc := &fakeAccount{n: 50, running: tc.running}
				c, err := New(Config{BaseURL: "http://127.0.0.1:1", APIKey: "k", BackupPrefix: LiveBackupPrefix,
					HTTPClient: &http.Client{Transport: handlerTransport{acc}}})
				if err != nil {
					b.Fatal(err)
				}
				now := time.Unix(1_800_000_000, 0)
				sw := &RestoreSweep{Now: func() time.Time { return now }}
				const minutes = 10
				end := now.Add(minutes * time.Minute)
				fresh := true
				for now.Before(end) {
					all, err := sw.All(context.Background(), c, fresh)
					if err != nil {
						b.Fatal(err)
					}
					fresh = false
					interval := 30 * time.Second
					for _, r := range all {
						if r.Running() {
							interval = 2 * time.Second
						}
					}
					now = now.Add(interval)
				}
				perMin = float64(acc.restoreCalls()+acc.services) / minutes
			}
			b.ReportMetric(perMin, "req/min")
		})
	}
}

type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	return rec.Result(), nil
}
