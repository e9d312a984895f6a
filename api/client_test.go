package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

type recorder struct {
	mu     sync.Mutex
	sleeps []time.Duration
}

func (r *recorder) sleep(_ context.Context, d time.Duration) error {
	r.mu.Lock()
	r.sleeps = append(r.sleeps, d)
	r.mu.Unlock()
	return nil
}

func newTestClient(t *testing.T, h http.Handler, mod ...func(*Config)) (*Client, *recorder) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	rec := &recorder{}
	cfg := Config{BaseURL: srv.URL, APIKey: "secret-key-123", Sleep: rec.sleep}
	for _, m := range mod {
		m(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c, rec
}

func writeErr(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(NewErrorBody(status, "/x", msg, "", "", "trace-"+strconv.Itoa(status), time.Unix(0, 0)))
}

func TestHeadersAndPrefixes(t *testing.T) {
	var got http.Header
	var paths []string
	var mu sync.Mutex
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = r.Header.Clone()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		if strings.Contains(r.URL.Path, "/restores") {
			io.WriteString(w, `[]`)
			return
		}
		io.WriteString(w, `{"backups":[]}`)
	})
	c, _ := newTestClient(t, h, func(c *Config) {
		c.Org = "org-42"
		c.BackupPrefix = LiveBackupPrefix
		c.UserAgent = "skytui/1.2.3"
	})
	if _, err := c.ListRestores(context.Background(), "dbtgf1"); err != nil {
		t.Fatal(err)
	}
	if got.Get("X-API-Key") != "secret-key-123" || got.Get("X-MDB-Org") != "org-42" || got.Get("User-Agent") != "skytui/1.2.3" || got.Get("Accept") != "application/json" {
		t.Errorf("headers: %v", got)
	}
	if paths[0] != "/skybackup/v1/restores" {
		t.Errorf("path %s", paths[0])
	}
	c2, _ := newTestClient(t, h)
	_, _ = c2.ListBackups(context.Background(), "dbtgf1")
	if paths[len(paths)-1] != "/backup/v1/backups" {
		t.Errorf("default backup prefix: %s", paths[len(paths)-1])
	}
}

func TestGetRetriedHonouringRetryAfter(t *testing.T) {
	var n atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch n.Add(1) {
		case 1:
			w.Header().Set("Retry-After", "3")
			writeErr(w, 429, "slow down")
		case 2:
			writeErr(w, 503, "unavailable")
		default:
			io.WriteString(w, `{"id":"dbtgf1","status":"ready"}`)
		}
	})
	c, rec := newTestClient(t, h)
	s, err := c.GetService(context.Background(), "dbtgf1")
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != "dbtgf1" || n.Load() != 3 {
		t.Fatalf("got %+v after %d requests", s, n.Load())
	}
	if len(rec.sleeps) != 2 || rec.sleeps[0] != 3*time.Second {
		t.Errorf("Retry-After not honoured: sleeps %v", rec.sleeps)
	}
	if rec.sleeps[1] <= 0 || rec.sleeps[1] > time.Second {
		t.Errorf("backoff after 503 should be short and jittered: %v", rec.sleeps[1])
	}
}

func TestRetryGivesUpWithLastError(t *testing.T) {
	var n atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		writeErr(w, 500, "boom")
	})
	c, rec := newTestClient(t, h)
	_, err := c.ListServices(context.Background())
	if StatusOf(err) != 500 || !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), "trace-500") {
		t.Fatalf("err %v", err)
	}
	if n.Load() != 1+DefaultMaxRetries {
		t.Errorf("requests %d", n.Load())
	}
	// exponential: each wait at least half of the doubled base
	for i := 1; i < len(rec.sleeps); i++ {
		if rec.sleeps[i] < rec.sleeps[i-1]/2 {
			t.Errorf("backoff not growing: %v", rec.sleeps)
		}
	}
}

func TestNotRetriedOnClientErrors(t *testing.T) {
	for _, status := range []int{400, 401, 403, 404, 409} {
		var n atomic.Int32
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			writeErr(w, status, "no")
		})
		c, _ := newTestClient(t, h)
		_, err := c.GetService(context.Background(), "dbtgf1")
		if StatusOf(err) != status || n.Load() != 1 {
			t.Errorf("%d: %v after %d requests", status, err, n.Load())
		}
	}
}

func TestPostNeverRetried(t *testing.T) {
	for _, status := range []int{500, 502, 503, 504, 429} {
		var n atomic.Int32
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			w.Header().Set("Retry-After", "1")
			writeErr(w, status, "try later")
		})
		c, rec := newTestClient(t, h)
		_, err := c.CreateRestore(context.Background(), ManagedRestore("dbtgf1", "k:dbtgf2:p"))
		if StatusOf(err) != status {
			t.Errorf("%d: err %v", status, err)
		}
		if n.Load() != 1 || len(rec.sleeps) != 0 {
			t.Errorf("POST after %d retried: %d requests", status, n.Load())
		}
	}
	// a dropped connection is not retried either
	var n atomic.Int32
	drop := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		conn, _, _ := w.(http.Hijacker).Hijack()
		conn.Close()
	})
	c, _ := newTestClient(t, drop)
	_, err := c.CreateSchedule(context.Background(), ScheduleRequest{BackupType: "full", Schedule: "once", ServiceID: "dbtgf1"})
	if err == nil || StatusOf(err) != 0 || n.Load() != 1 {
		t.Errorf("dropped POST: %v after %d", err, n.Load())
	}
}

// A GET is retried after a dropped connection; a DELETE too, but only
// once the restore, read again, is still there.
func TestTransportErrorsRetriedForGetAndDelete(t *testing.T) {
	var n atomic.Int32
	var mu sync.Mutex
	var methods []string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		methods = append(methods, r.Method)
		mu.Unlock()
		if n.Add(1) == 1 {
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
			return
		}
		io.WriteString(w, `{"id":7,"status":"Running"}`)
	})
	c, _ := newTestClient(t, h)
	if err := c.DeleteRestore(context.Background(), 7); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(methods, " "); got != "DELETE GET DELETE" {
		t.Errorf("DELETE after a dropped connection: %s, want DELETE GET DELETE", got)
	}
	n.Store(0)
	if _, err := c.GetRestore(context.Background(), 7); err != nil || n.Load() != 2 {
		t.Errorf("GET after a dropped connection: %v after %d requests", err, n.Load())
	}
}

// A DELETE whose answer is lost, and whose target cannot be read again,
// is not sent again: its outcome stays unknown.
func TestDeleteNotSentAgainUnread(t *testing.T) {
	var deletes atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodDelete {
			deletes.Add(1)
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
			return
		}
		writeErr(w, http.StatusServiceUnavailable, "down")
	})
	c, _ := newTestClient(t, h)
	err := c.EndManagedReplication(context.Background(), "dbtgf00000001")
	if !IsOutcomeUnknown(err) || deletes.Load() != 1 {
		t.Errorf("%v after %d DELETEs, want outcome unknown after one", err, deletes.Load())
	}
}

func TestLongRetryAfterReturnedToCaller(t *testing.T) {
	var n atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Retry-After", "120")
		writeErr(w, 429, "rate limited")
	})
	c, rec := newTestClient(t, h)
	_, err := c.ListRestores(context.Background(), "dbtgf1")
	if !IsRateLimited(err) || n.Load() != 1 || len(rec.sleeps) != 0 {
		t.Fatalf("err %v, %d requests, sleeps %v", err, n.Load(), rec.sleeps)
	}
	var e *Error
	errors.As(err, &e)
	if e.RetryAfter != 2*time.Minute {
		t.Errorf("RetryAfter %v", e.RetryAfter)
	}
	// the error says how long the server asks to wait
	if !strings.Contains(err.Error(), "(retry after 2m0s, GET ") {
		t.Errorf("the error does not say the wait: %v", err)
	}
}

func TestPerRequestTimeout(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	})
	c, _ := newTestClient(t, h, func(c *Config) { c.Timeout = 50 * time.Millisecond; c.MaxRetries = -1 })
	_, err := c.GetService(context.Background(), "dbtgf1")
	if err == nil || !strings.Contains(err.Error(), "timed out") {
		t.Fatalf("err %v", err)
	}
}

func TestContextCancelStopsRetries(t *testing.T) {
	var n atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		writeErr(w, 503, "x")
	})
	ctx, cancel := context.WithCancel(context.Background())
	c, _ := newTestClient(t, h, func(c *Config) {
		c.Sleep = func(context.Context, time.Duration) error { cancel(); return context.Canceled }
	})
	_, err := c.ListRestores(ctx, "")
	if StatusOf(err) != 503 || n.Load() != 1 {
		t.Errorf("err %v, %d requests", err, n.Load())
	}
}

func TestServicesPagination(t *testing.T) {
	const total = 250
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		size, _ := strconv.Atoi(r.URL.Query().Get("page_size"))
		start, _ := strconv.Atoi(r.URL.Query().Get("page_token"))
		end := min(start+size, total)
		var out []Service
		for i := start; i < end; i++ {
			out = append(out, Service{ID: fmt.Sprintf("dbt%d", i), Status: "ready"})
		}
		if end < total {
			w.Header().Set("X-SkySQL-Page-Token-Next", strconv.Itoa(end))
		}
		_ = json.NewEncoder(w).Encode(out)
	})
	c, _ := newTestClient(t, h)
	all, err := c.ListServices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != total || all[0].ID != "dbt0" || all[total-1].ID != "dbt249" {
		t.Fatalf("got %d services", len(all))
	}
}

func TestBackupsPagination(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		var bs []map[string]any
		n := 100
		if page == 3 {
			n = 7
		}
		for i := 0; i < n; i++ {
			bs = append(bs, map[string]any{"id": fmt.Sprintf("h%d-%d:dbtgf1:pod", page, i), "type": "full", "status": "Succeeded"})
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"backups": bs, "backups_count": 207, "pages_count": 3})
	})
	c, _ := newTestClient(t, h)
	bs, err := c.ListBackups(context.Background(), "dbtgf1")
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != 207 || bs[206].Key != "h3-6:dbtgf1:pod" {
		t.Fatalf("got %d", len(bs))
	}
}

func TestMalformedBodyIsAnError(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"id": "dbt`) })
	c, _ := newTestClient(t, h)
	_, err := c.GetService(context.Background(), "dbtgf1")
	if err == nil || !strings.Contains(err.Error(), "malformed response") {
		t.Fatalf("err %v", err)
	}
}

func TestValidationBeforeSending(t *testing.T) {
	var n atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { n.Add(1) })
	c, _ := newTestClient(t, h)
	_, err := c.CreateService(context.Background(), CreateServiceRequest{Name: "ab"})
	var v ValidationErrors
	if !errors.As(err, &v) || n.Load() != 0 {
		t.Fatalf("err %v, %d requests", err, n.Load())
	}
	_, err = c.CreateRestore(context.Background(), BucketRestore("dbtgf1", "x.gz", ExternalSource{Bucket: "gs://bkt", Method: "mysqldump", Credentials: "x"}))
	if err == nil || !strings.Contains(err.Error(), "trailing slash") || n.Load() != 0 {
		t.Fatalf("err %v", err)
	}
	if _, err := c.AddAllowListEntry(context.Background(), "dbtgf1", "1.2.3.4/40"); err == nil || n.Load() != 0 {
		t.Fatalf("bad CIDR sent: %v", err)
	}
}

// The status call: GET with a body on the interface document's prefix, as
// it says; never sent on the live prefix (the description has no such
// call); a 4xx answer is asked once per client and then remembered.
func TestBackupStatusOnlyWhereItExists(t *testing.T) {
	var gets atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]string
		_ = json.NewDecoder(r.Body).Decode(&body)
		if r.Method != http.MethodGet || body["service_id"] != "dbtgf1" {
			t.Errorf("status call: %s with body %v", r.Method, body)
		}
		gets.Add(1)
		io.WriteString(w, `[{"backup_id":"k1","status":"In Progress"}]`)
	})
	c, _ := newTestClient(t, h)
	st, err := c.BackupStatus(context.Background(), "dbtgf1")
	if err != nil || len(st) != 1 || st[0].ID != "k1" || BackupState(st[0].Status) != BackupInProgress {
		t.Fatalf("%+v %v", st, err)
	}

	live, _ := newTestClient(t, h, func(c *Config) { c.BackupPrefix = LiveBackupPrefix })
	before := gets.Load()
	if _, err := live.BackupStatus(context.Background(), "dbtgf1"); !errors.Is(err, ErrStatusUnsupported) {
		t.Fatalf("live prefix: want ErrStatusUnsupported, got %v", err)
	}
	if gets.Load() != before {
		t.Fatal("the status call was sent on the live prefix")
	}

	for _, code := range []int{400, 404, 405} {
		var n atomic.Int32
		refusing := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			n.Add(1)
			writeErr(w, code, "request included a non-empty body")
		})
		c2, _ := newTestClient(t, refusing)
		for range 3 {
			if _, err := c2.BackupStatus(context.Background(), "dbtgf1"); !errors.Is(err, ErrStatusUnsupported) {
				t.Fatalf("%d: want ErrStatusUnsupported, got %v", code, err)
			}
		}
		if n.Load() != 1 {
			t.Fatalf("%d: asked %d times, want once", code, n.Load())
		}
	}
}

func TestDebugLogRedactsKey(t *testing.T) {
	var buf bytes.Buffer
	var mu sync.Mutex
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { writeErr(w, 503, "x") })
	c, _ := newTestClient(t, h, func(c *Config) {
		c.Logger = slog.New(slog.NewTextHandler(&lockedWriter{w: &buf, mu: &mu}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	_, _ = c.ListServices(context.Background())
	mu.Lock()
	defer mu.Unlock()
	if !strings.Contains(buf.String(), "X-Api-Key=[REDACTED]") {
		t.Errorf("log should show the header redacted:\n%s", buf.String())
	}
	if strings.Contains(buf.String(), "secret-key-123") {
		t.Fatal("API key leaked into the debug log")
	}
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func TestErrorClasses(t *testing.T) {
	cases := []struct {
		status int
		msg    string
		check  func(error) bool
	}{
		{401, "bad key", IsUnauthorized},
		{404, "no such service", IsNotFound},
		{409, "busy", IsConflict},
		{400, "Service is in a Pending State", IsConflict},
		{429, "slow", IsRateLimited},
	}
	for _, tc := range cases {
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { writeErr(w, tc.status, tc.msg) })
		c, _ := newTestClient(t, h, func(c *Config) { c.MaxRetries = -1 })
		_, err := c.GetService(context.Background(), "dbtgf1")
		if !tc.check(err) {
			t.Errorf("%d %q not classified: %v", tc.status, tc.msg, err)
		}
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("error must be one line: %q", err)
		}
	}
	plain := &Error{Status: 400, Message: "bucket must end with /"}
	if IsConflict(plain) || IsUnauthorized(plain) || IsNotFound(plain) || IsRateLimited(plain) {
		t.Error("a plain 400 is none of the classes")
	}
}

// The bounds of what the client reads from a server that will not stop:
// each test below runs against its own httptest server (not the sandbox)
// and fails when the bound it names is taken out of client.go.

// boundsClient is a client of h that never retries.
func boundsClient(t *testing.T, h http.Handler, backupPrefix string) *Client {
	t.Helper()
	c, _ := newTestClient(t, h, func(c *Config) { c.BackupPrefix, c.MaxRetries, c.Timeout = backupPrefix, -1, 20*time.Second })
	return c
}

// peakHeap runs fn and returns the largest HeapAlloc seen while it ran
// (sampled every 5 ms) and how long it took.
func peakHeap(fn func()) (peak uint64, took time.Duration) {
	runtime.GC()
	done := make(chan struct{})
	var wg sync.WaitGroup
	var max atomic.Uint64
	wg.Add(1)
	go func() {
		defer wg.Done()
		var ms runtime.MemStats
		for {
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > max.Load() {
				max.Store(ms.HeapAlloc)
			}
			select {
			case <-done:
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	start := time.Now()
	fn()
	took = time.Since(start)
	close(done)
	wg.Wait()
	return max.Load(), took
}

// endlessServices answers GET /services with perPage services (names of
// nameLen bytes) and a new X-SkySQL-Page-Token-Next on every page, for
// up to stopAfter pages (a safety stop far past the client's bounds, so
// that a client without them ends with a complete-looking listing instead
// of exhausting the machine). served counts the pages.
// wantStoppedAtBound runs a listing of endless pages: it must fail with an
// error containing want after at most maxPages pages served, its heap
// peaking under 200 MiB (memory is the bound under test; the time is
// logged, not judged).
func wantStoppedAtBound(t *testing.T, list func() error, served *atomic.Int64, want string, maxPages int64) {
	t.Helper()
	var err error
	peak, took := peakHeap(func() { err = list() })
	t.Logf("%d pages, %v, peak heap %d MiB: %v", served.Load(), took, peak>>20, err)
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("after %d pages: %v, want the error naming %q", served.Load(), err, want)
	}
	if n := served.Load(); n > maxPages {
		t.Fatalf("read %d pages, want at most %d", n, maxPages)
	}
	if peak > 200<<20 {
		t.Fatalf("took %v, peak heap %d MiB", took, peak>>20)
	}
}

func endlessServices(perPage, nameLen, stopAfter int, served *atomic.Int64) http.Handler {
	name := strings.Repeat("n", nameLen)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/services") {
			http.NotFound(w, r)
			return
		}
		page := served.Add(1)
		if page < int64(stopAfter) {
			w.Header().Set("X-SkySQL-Page-Token-Next", "tok-"+strconv.FormatInt(page, 10))
		}
		w.Header().Set("Content-Type", "application/json")
		var b strings.Builder
		b.WriteByte('[')
		for i := range perPage {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"id":"db%08d%04d","name":"%s","status":"ready"}`, page, i, name)
		}
		b.WriteByte(']')
		io.WriteString(w, b.String())
	})
}

// endlessEnvelope answers every GET with an envelope of 1,000 records
// under key and pages_count 1,000,000,000, for up to stopAfter pages
// (then an empty page). served counts the pages.
func endlessEnvelope(key string, stopAfter int, served *atomic.Int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page := served.Add(1)
		w.Header().Set("Content-Type", "application/json")
		var b strings.Builder
		fmt.Fprintf(&b, `{%q:[`, key)
		for i := range 1000 {
			if page > int64(stopAfter) {
				break
			}
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"id":%d,"service_id":"dbbounds0001","type":"full","status":"Succeeded"}`, page*1000+int64(i))
		}
		fmt.Fprintf(&b, `],"%s_count":1000000000000,"pages_count":1000000000}`, key)
		io.WriteString(w, b.String())
	})
}

// (a) Pages of 1,000 small services with a new next token each: the
// listing stops at MaxListItems (20,000 items: page 21) with an error that
// names it. Depends on MaxListItems: without it the client reads all 120
// pages the server hands out (120,000 services) and returns them.
func TestEndlessServicePagesStopAtTheItemBound(t *testing.T) {
	var served atomic.Int64
	c := boundsClient(t, endlessServices(1000, 8, 120, &served), "")
	wantStoppedAtBound(t, func() error { _, err := c.ListServices(context.Background()); return err },
		&served, fmt.Sprintf("past %d items, the most the client reads", MaxListItems), MaxListItems/1000+1)
}

// (a) Pages of 100 services with 64 KiB names (6.4 MiB a page): the
// listing stops at MaxListBytes (32 MiB: about page 6) with an error that
// names it, long before MaxListItems. Depends on MaxListBytes: without it
// the client reads all 40 pages (256 MiB) and returns them.
func TestEndlessFatServicePagesStopAtTheByteBound(t *testing.T) {
	var served atomic.Int64
	c := boundsClient(t, endlessServices(100, 64<<10, 40, &served), "")
	wantStoppedAtBound(t, func() error { _, err := c.ListServices(context.Background()); return err },
		&served, fmt.Sprintf("past %d MiB, the most the client reads", MaxListBytes>>20), MaxListBytes/(100*64<<10)+2)
}

// (b) Envelope listings claiming 1,000,000,000 pages of 1,000 records:
// ListBackups and ListRestores stop at MaxListItems (page 21). Depends on
// MaxListItems: without it pagedList reads all 120 pages and returns
// 120,000 records.
func TestEndlessEnvelopePagesStopAtTheItemBound(t *testing.T) {
	for _, tc := range []struct {
		name, key string
		list      func(c *Client) error
	}{
		{"ListBackups", "backups", func(c *Client) error { _, err := c.ListBackups(context.Background(), "dbbounds0001"); return err }},
		{"ListRestores", "restores", func(c *Client) error { _, err := c.ListRestores(context.Background(), "dbbounds0001"); return err }},
		{"ListAllBackups live", "backups", func(c *Client) error { _, err := c.ListAllBackups(context.Background(), nil); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var served atomic.Int64
			prefix := ""
			if strings.HasSuffix(tc.name, "live") {
				prefix = LiveBackupPrefix
			}
			c := boundsClient(t, endlessEnvelope(tc.key, 120, &served), prefix)
			wantStoppedAtBound(t, func() error { return tc.list(c) },
				&served, fmt.Sprintf("past %d items, the most the client reads", MaxListItems), MaxListItems/1000+1)
		})
	}
}

// (c) A 33 MiB answer (valid JSON) is refused with an error naming the
// 32 MiB MaxBody, not a decoding error of the first 32 MiB ("unexpected
// end of JSON input"); a 512 MiB one likewise, having read no more than
// MaxBody+1 bytes of it. Depends on MaxBody, the check of len(data) >
// MaxBody in once (without it the body is cut at 32 MiB and fails to
// decode) and the io.LimitReader there (without it the client reads the
// whole 512 MiB: the peak heap check fails).
func TestAnswerOver32MiBIsRefusedByName(t *testing.T) {
	block := []byte(strings.Repeat("x", 64<<10))
	for _, size := range []int{33 << 20, 512 << 20} {
		var sent atomic.Int64
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			prefix, suffix := `{"id":"dbhuge0001","name":"`, `"}`
			if strings.HasSuffix(r.URL.Path, "/services") {
				prefix, suffix = "["+prefix, suffix+"]"
			}
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", strconv.Itoa(size))
			io.WriteString(w, prefix)
			for pad := size - len(prefix) - len(suffix); pad > 0; pad -= len(block) {
				n, err := w.Write(block[:min(pad, len(block))])
				sent.Add(int64(n))
				if err != nil {
					return
				}
			}
			io.WriteString(w, suffix)
		})
		c := boundsClient(t, h, "")
		var err error
		peak, took := peakHeap(func() { _, err = c.ListServices(context.Background()) })
		t.Logf("%d MiB answer: %v, peak heap %d MiB, the server wrote %d MiB: %v", size>>20, took, peak>>20, sent.Load()>>20, err)
		if err == nil || !strings.Contains(err.Error(), "the answer is larger than 32 MiB, the most the client reads") ||
			strings.Contains(err.Error(), "unexpected end of JSON input") {
			t.Fatalf("ListServices, %d MiB answer: %v, want the error naming 32 MiB", size>>20, err)
		}
		if StatusOf(err) != http.StatusOK {
			t.Errorf("status of the error %d, want 200 (the server answered)", StatusOf(err))
		}
		if peak > 200<<20 { // memory is the bound under test; the time is logged, not judged
			t.Fatalf("%d MiB answer: took %v, peak heap %d MiB", size>>20, took, peak>>20)
		}
		_, err = c.GetService(context.Background(), "dbhuge0001")
		if err == nil || !strings.Contains(err.Error(), "larger than 32 MiB") {
			t.Fatalf("GetService, %d MiB answer: %v, want the error naming 32 MiB", size>>20, err)
		}
	}
}

// (d) A 200 answer with an empty or null body is an error for every
// listing, while [] and an envelope without records ({}) are empty lists.
// Depends on decodeList's empty and null rules (flex.go): without the
// empty rule the listing panics or says "expected an array", without the
// null rule null reads as an empty list.
func TestEmptyOrNullListAnswers(t *testing.T) {
	calls := []struct {
		name   string
		prefix string
		list   func(c *Client) (int, error)
	}{
		{"ListServices", "", func(c *Client) (int, error) { v, err := c.ListServices(context.Background()); return len(v), err }},
		{"ListAllBackups live", LiveBackupPrefix, func(c *Client) (int, error) {
			v, err := c.ListAllBackups(context.Background(), nil)
			return len(v), err
		}},
		{"ListAllBackups per service", "", func(c *Client) (int, error) {
			v, err := c.ListAllBackups(context.Background(), []string{"dbbounds0001"})
			return len(v), err
		}},
		{"ListRestores", "", func(c *Client) (int, error) { v, err := c.ListRestores(context.Background(), ""); return len(v), err }},
		{"ListRestores live", LiveBackupPrefix, func(c *Client) (int, error) {
			v, err := c.ListRestores(context.Background(), "dbbounds0001")
			return len(v), err
		}},
	}
	for _, body := range []string{"", "null", " null\n", "\n"} {
		for _, call := range calls {
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, body)
			})
			n, err := call.list(boundsClient(t, h, call.prefix))
			if err == nil {
				t.Errorf("%s with the body %q: %d records and no error", call.name, body, n)
			} else if !strings.Contains(err.Error(), "where a list was expected") {
				t.Errorf("%s with the body %q: %v", call.name, body, err)
			}
		}
	}
	for _, body := range []string{"[]", "{}", `{"services":[],"backups":[],"restores":[],"pages_count":0}`} {
		for _, call := range calls {
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, body)
			})
			if n, err := call.list(boundsClient(t, h, call.prefix)); err != nil || n != 0 {
				t.Errorf("%s with the body %s: %d records, %v; want an empty list", call.name, body, n, err)
			}
		}
	}
}

// An allow list answered with nothing or null is an error: showing "no
// entries" would invite the user to add back what is already there.
func TestAllowListEmptyOrNullIsAnError(t *testing.T) {
	for _, body := range []string{"", "null"} {
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) })
		c := boundsClient(t, h, "")
		if _, err := c.GetAllowList(context.Background(), "dbtgf1"); err == nil {
			t.Errorf("allow list answered %q: no error", body)
		}
	}
}

// A comment is set by replacing the service's whole allow list (PUT names
// no endpoint): with the endpoints listing the same addresses it is sent,
// the list kept; with different lists it is refused and nothing is sent.
func TestAllowListCommentAcrossEndpoints(t *testing.T) {
	for _, tc := range []struct {
		name, replica string
		refused       bool
	}{
		{"same lists", `[{"ip":"203.0.113.7/32"},{"ip":"198.51.100.0/24"}]`, false},
		{"different lists", `[{"ip":"203.0.113.7/32"}]`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var puts []string
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if r.Method == http.MethodPut {
					body, _ := io.ReadAll(r.Body)
					mu.Lock()
					puts = append(puts, string(body))
					mu.Unlock()
				}
				fmt.Fprintf(w, `[{"name":"primary","allow_list":[{"ip":"198.51.100.0/24"},{"ip":"203.0.113.7/32","comment":"office"}]},{"name":"replica","allow_list":%s}]`, tc.replica)
			})
			c, _ := newTestClient(t, h)
			_, err := c.SetAllowListComment(context.Background(), "dbtx1", "192.0.2.1", "VPN")
			mu.Lock()
			defer mu.Unlock()
			if tc.refused {
				if !errors.Is(err, ErrAllowListsDiffer) || !strings.Contains(err.Error(), "replica lists 1)") || len(puts) != 0 {
					t.Fatalf("err %v, %d PUTs", err, len(puts))
				}
				return
			}
			if err != nil || len(puts) != 1 {
				t.Fatalf("err %v, PUTs %q", err, puts)
			}
			for _, want := range []string{`"ip":"198.51.100.0/24"`, `"comment":"office"`, `"ip":"192.0.2.1/32","comment":"VPN"`} {
				if !strings.Contains(puts[0], want) {
					t.Fatalf("PUT %s lacks %s", puts[0], want)
				}
			}
		})
	}
}

// A DELETE whose answer was lost, read back while the server's reads lag
// (the target still listed), is sent again; the second sending refused
// because the first had carried it out (404, or 400 with the read then
// finding it gone) is the DELETE done, never its failure.
func TestDeleteSentAgainRefusedAsDone(t *testing.T) {
	for _, tc := range []struct {
		name string
		call func(*Client) error
		// second answers the DELETE sent again; read answers the n-th read
		second func(w http.ResponseWriter)
		read   func(w http.ResponseWriter, n int32)
	}{
		{"restore, 404", func(c *Client) error { return c.DeleteRestore(context.Background(), 7) },
			func(w http.ResponseWriter) { writeErr(w, http.StatusNotFound, "restore 7 not found") },
			func(w http.ResponseWriter, n int32) {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, `{"id":7,"service_id":"dbtgf00000001","status":"Running"}`)
			}},
		{"managed replication, 400 then read", func(c *Client) error { return c.EndManagedReplication(context.Background(), "dbtgf00000001") },
			func(w http.ResponseWriter) {
				writeErr(w, http.StatusBadRequest, "service dbtgf00000001 has no managed replication")
			},
			func(w http.ResponseWriter, n int32) {
				w.Header().Set("Content-Type", "application/json")
				if n == 1 { // lagging: still the replica
					fmt.Fprint(w, `{"id":"dbtgf00000001","name":"replica-west","status":"ready","primary_host":"dbtgf00000002","replication_enabled":true}`)
					return
				}
				fmt.Fprint(w, `{"id":"dbtgf00000001","name":"replica-west","status":"ready"}`)
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var deletes, reads atomic.Int32
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Method == http.MethodDelete {
					if deletes.Add(1) == 1 {
						conn, _, _ := w.(http.Hijacker).Hijack()
						conn.Close() // carried out, the answer lost
						return
					}
					tc.second(w)
					return
				}
				tc.read(w, reads.Add(1))
			})
			c, _ := newTestClient(t, h)
			if err := tc.call(c); err != nil || deletes.Load() != 2 {
				t.Fatalf("%v after %d DELETEs, want done after two", err, deletes.Load())
			}
		})
	}
}
