package api

import (
	"context"
	"fmt"
	"io"
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

// The bounds of what the client reads from a server that will not stop:
// every test here runs against its own httptest server (not the sandbox)
// and fails when the bound it names is taken out of client.go.

// boundsClient is a client of h that never retries.
func boundsClient(t *testing.T, h http.Handler, backupPrefix string) *Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := New(Config{BaseURL: srv.URL, APIKey: "bounds-key", BackupPrefix: backupPrefix, MaxRetries: -1, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
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
