package api

// Answers the live description allows that the client once misread: each
// test names what a user saw before.

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

var bg = context.Background()

// joined is what of each of xs, in order, joined by spaces.
func joined[T any](xs []T, what func(T) string) string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = what(x)
	}
	return strings.Join(out, " ")
}

// An endpoint that lists its addresses only in the deprecated allowList
// (plain strings) still has them: listing shows them, and setting a comment
// puts every one of them back with the new entry (before, the list read as
// empty and the PUT replaced it with the new entry alone).
func TestDeprecatedAllowListKept(t *testing.T) {
	var mu sync.Mutex
	var put []AllowListEntry
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.Method == http.MethodPut {
			_ = json.NewDecoder(r.Body).Decode(&put)
		}
		io.WriteString(w, `[{"name":"primary","allowList":["198.51.100.10/32","203.0.113.0/24"],"allow_list":[{"ip":"203.0.113.0/24","comment":"office"}]}]`)
	})
	c, _ := newTestClient(t, h)
	groups, err := c.GetAllowList(bg, "dbtgf00000001")
	if err != nil {
		t.Fatal(err)
	}
	if got := groups[0].AllowList; len(got) != 2 || got[0].Comment != "office" || got[1].IP != "198.51.100.10/32" {
		t.Fatalf("allow list read as %+v, want the commented entry and the deprecated-only address", got)
	}
	if _, err := c.SetAllowListComment(bg, "dbtgf00000001", "192.0.2.5", "vpn"); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if ips := joined(put, func(e AllowListEntry) string { return e.IP }); ips != "203.0.113.0/24 198.51.100.10/32 192.0.2.5/32" {
		t.Fatalf("PUT replaced the list with %v: the addresses listed only in allowList are lost", ips)
	}
}

// A redirect is not followed: the key never goes to the other address,
// and a POST answered with a redirect is an error naming where it pointed,
// never an accepted restore.
func TestRedirectNotFollowed(t *testing.T) {
	var keyElsewhere atomic.Value
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		keyElsewhere.Store(r.Header.Get("X-API-Key"))
		io.WriteString(w, `[]`)
	}))
	defer other.Close()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/login", http.StatusFound)
	})
	c, _ := newTestClient(t, h)
	_, err := c.ListServices(bg)
	if StatusOf(err) != http.StatusFound || !strings.Contains(err.Error(), "redirected to "+other.URL+"/login") {
		t.Fatalf("a redirected listing: %v, want the 302 naming where it pointed", err)
	}
	r, err := c.CreateRestore(bg, RestoreRequest{ServiceID: "dbtgf00000001", Key: "k:dbtgf00000001:pod-0"})
	if err == nil || StatusOf(err) != http.StatusFound || IsOutcomeUnknown(err) {
		t.Fatalf("a redirected POST restore: %+v, %v; want the 302 as a refusal", r, err)
	}
	if k := keyElsewhere.Load(); k != nil {
		t.Fatalf("the other address received a request with key %q", k)
	}
}

// A 5xx whose Retry-After is longer than MaxRetryAfter (maintenance) is
// returned at once with its Retry-After, not slept through.
func TestLongRetryAfterOn503ReturnedToCaller(t *testing.T) {
	var n atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Header().Set("Retry-After", "3600")
		writeErr(w, http.StatusServiceUnavailable, "scheduled maintenance")
	})
	c, rec := newTestClient(t, h)
	_, err := c.ListServices(bg)
	if StatusOf(err) != http.StatusServiceUnavailable || n.Load() != 1 || len(rec.sleeps) != 0 {
		t.Fatalf("err %v, %d requests, slept %v", err, n.Load(), rec.sleeps)
	}
	if !strings.Contains(err.Error(), "scheduled maintenance") {
		t.Errorf("the message is lost: %v", err)
	}
}

// The option listings follow the next-page token: a size on the second
// page is offered.
func TestOptionListingsFollowPages(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("page_token") == "p2" {
			io.WriteString(w, `[{"name":"sky-8x32"}]`)
			return
		}
		w.Header().Set("X-SkySQL-Page-Token-Next", "p2")
		io.WriteString(w, `[{"name":"sky-2x8"},{"name":"sky-4x16"}]`)
	})
	c, _ := newTestClient(t, h)
	sizes, err := c.ListSizes(bg, "aws", "es-single", "amd64")
	if err != nil {
		t.Fatal(err)
	}
	if names := joined(sizes, func(s Size) string { return s.Name }); names != "sky-2x8 sky-4x16 sky-8x32" {
		t.Fatalf("sizes %v, want both pages", names)
	}
}

// A paged listing that does not say how many pages it has is read on while
// its pages come back full; a server that does not page (every page the
// same) is read once.
func TestListingWithoutPageCount(t *testing.T) {
	page := func(from, n int) string {
		var b []string
		for i := from; i < from+n; i++ {
			b = append(b, `{"id":"k`+strconv.Itoa(i)+`:dbtgf00000001:pod-0","service_id":"dbtgf00000001","status":"Succeeded"}`)
		}
		return `{"backups":[` + strings.Join(b, ",") + `],"backups_count":150}`
	}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Query().Get("page") {
		case "1":
			io.WriteString(w, page(0, 100))
		case "2":
			io.WriteString(w, page(100, 50))
		default:
			io.WriteString(w, page(0, 0))
		}
	})
	c, _ := newTestClient(t, h)
	bs, err := c.ListBackups(bg, "dbtgf00000001")
	if err != nil || len(bs) != 150 {
		t.Fatalf("%d backups, %v; want all 150", len(bs), err)
	}
	var n atomic.Int32
	same := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		io.WriteString(w, page(0, 120))
	})
	c, _ = newTestClient(t, same)
	bs, err = c.ListBackups(bg, "dbtgf00000001")
	if err != nil || len(bs) != 120 || n.Load() != 2 {
		t.Fatalf("a server that does not page: %d backups in %d requests, %v; want 120 once", len(bs), n.Load(), err)
	}
}

// An error body with a top-level message, or only an exception, keeps it.
func TestErrorMessageFallbacks(t *testing.T) {
	for body, want := range map[string]string{
		`{"code":400,"message":"nodes: es-single supports 1 node","trace_id":"5f2c"}`: "400 Bad Request: nodes: es-single supports 1 node (GET /x, trace 5f2c)",
		`{"code":400,"errors":[],"exception":"storage size must be larger"}`:          "400 Bad Request: storage size must be larger (GET /x)",
		`{"code":400,"errors":[],"exception":"Bad Request"}`:                          "400 Bad Request (GET /x)",
	} {
		if got := ErrorFromResponse("GET", "/x", 400, nil, []byte(body)).Error(); got != want {
			t.Errorf("%s\n got %q\nwant %q", body, got, want)
		}
	}
}

// An accepted create answered without a record (no body, {} or null) is
// the request's stand-in, never a blank record or job 0.
func TestAcceptedCreateWithoutRecord(t *testing.T) {
	for _, body := range []string{"", "{}", "null", " [] "} {
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusAccepted)
			io.WriteString(w, body)
		})
		c, _ := newTestClient(t, h)
		s, err := c.CreateService(bg, CreateServiceRequest{Name: "orders-stage", Provider: "aws", Region: "us-east-1", ServiceType: "transactional",
			Topology: "es-single", Architecture: "amd64", Size: "sky-2x8", Nodes: 1, Storage: 100})
		if err != nil || s.Name != "orders-stage" || s.Status != "pending_create" {
			t.Errorf("create service answered %q: %+v, %v", body, s, err)
		}
		r, err := c.CreateRestore(bg, RestoreRequest{ServiceID: "dbtgf00000001", Key: "k:dbtgf00000001:pod-0"})
		if err != nil || r.ID != 0 || r.ServiceID != "dbtgf00000001" || r.Status != "Running" {
			t.Errorf("restore answered %q: %+v, %v", body, r, err)
		}
	}
}

// An accepted change whose answer is over MaxBody is accepted, with the
// answer said to be unreadable.
func TestHugeAnswerToAcceptedChange(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", strconv.Itoa(MaxBody+10))
		w.WriteHeader(http.StatusAccepted)
	})
	c, _ := newTestClient(t, h)
	sc, err := c.CreateSchedule(bg, ScheduleRequest{ServiceID: "dbtgf00000001", BackupType: "full", Schedule: "once"})
	if err != nil || !strings.Contains(sc.Unreadable, "larger than 32 MiB") {
		t.Fatalf("schedule: %+v, %v; want accepted, the answer unreadable", sc, err)
	}
}

// Ending managed replication after a 5xx: a replica whose record has no
// primary but still says replication_enabled is not taken as ended.
func TestEndReplicationNeedsRecordToSayItEnded(t *testing.T) {
	for rec, ended := range map[string]bool{
		`{"id":"dbtgf00000002","status":"ready","replication_enabled":true}`:  false,
		`{"id":"dbtgf00000002","status":"ready","replication_enabled":false}`: true,
	} {
		h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method == http.MethodDelete {
				writeErr(w, http.StatusServiceUnavailable, "try later")
				return
			}
			io.WriteString(w, rec)
		})
		c, _ := newTestClient(t, h)
		err := c.EndManagedReplication(bg, "dbtgf00000002")
		if (err == nil) != ended {
			t.Errorf("re-read %s: err %v, want ended=%v", rec, err, ended)
		}
	}
}

// A listing answered with something else names the keys it looked for
// plainly: "services" or "data", without escaped quotes.
func TestMalformedListingNamesKeys(t *testing.T) {
	_, _, err := decodeList[Service]([]byte("<html>"), "services", "data")
	if err == nil || err.Error() != `expected an array or an object with "services" or "data"` {
		t.Fatalf("%v", err)
	}
}
