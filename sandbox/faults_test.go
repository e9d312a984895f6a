package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
)

func TestParseFaults(t *testing.T) {
	f, err := ParseFaults("latency=200ms,error=0.1,429=0.05,retry-after=2s,malformed=0.05,drop=0.05,timeout=0.02,unreadable=0.03,drop-after=0.04,seed=9")
	if err != nil {
		t.Fatal(err)
	}
	want := Faults{Latency: 200 * time.Millisecond, ErrorRate: 0.1, RateLimitRate: 0.05, RetryAfter: 2 * time.Second, MalformedRate: 0.05, DropRate: 0.05, TimeoutRate: 0.02,
		UnreadableRate: 0.03, DropAfterRate: 0.04, Seed: 9}
	if f != want {
		t.Fatalf("got %+v", f)
	}
	if g, err := ParseFaults(f.String()); err != nil || g != f {
		t.Fatalf("round trip %q: %+v %v", f.String(), g, err)
	}
	if f, err := ParseFaults(""); err != nil || f != (Faults{}) {
		t.Fatalf("empty: %+v %v", f, err)
	}
	if f, err := ParseFaults("error=5%"); err != nil || f.ErrorRate != 0.05 {
		t.Fatalf("percent: %+v %v", f, err)
	}
	for spec, mention := range map[string]string{
		"laggy=1":                       `"laggy"`,
		"error=1.5":                     "error=1.5",
		"drop=-0.1":                     "drop=-0.1",
		"latency=fast":                  "latency=fast",
		"retry-after=2":                 "retry-after=2",
		"timeout":                       `"timeout"`,
		"seed=x":                        "seed=x",
		"error=0.6,malformed=0.6":       "more than 1",
		"unreadable=0.6,drop-after=0.6": "more than 1",
		"unreadable=2":                  "unreadable=2",
	} {
		_, err := ParseFaults(spec)
		if err == nil || !strings.Contains(err.Error(), mention) {
			t.Errorf("ParseFaults(%q) = %v, want an error mentioning %s", spec, err, mention)
		}
	}
}

func TestFaultError5xx(t *testing.T) {
	h := newHarness(t, Options{Faults: Faults{ErrorRate: 1, Seed: 3}})
	seen := map[int]bool{}
	for range 20 {
		r := h.do("GET", "/provisioning/v1/services", nil)
		seen[r.status] = true
		if r.status == 500 || r.status == 503 {
			r.errBody(t, r.status)
		}
	}
	if len(seen) != 2 || !seen[500] || !seen[503] {
		t.Fatalf("statuses %v, want 500 and 503", seen)
	}
	if n := h.s.Stats().Faults["error"]; n != 20 {
		t.Fatalf("counted %d error faults", n)
	}
}

func TestFault429WithRetryAfter(t *testing.T) {
	h := newHarness(t, Options{})
	h.s.SetFaults(Faults{RateLimitRate: 1, RetryAfter: 2 * time.Second})
	r := h.do("GET", "/skybackup/v1/restores", nil)
	r.errBody(t, http.StatusTooManyRequests)
	if r.header.Get("Retry-After") != "2" {
		t.Fatalf("Retry-After %q", r.header.Get("Retry-After"))
	}
}

func TestFaultMalformedBody(t *testing.T) {
	h := newHarness(t, Options{DemoData: true})
	h.s.SetFaults(Faults{MalformedRate: 1})
	for _, path := range []string{"/provisioning/v1/services", "/backup/v1/restores", "/provisioning/v1/providers"} {
		r := h.do("GET", path, nil).want(t, 200)
		var v any
		if len(r.body) == 0 || json.Unmarshal(r.body, &v) == nil {
			t.Fatalf("%s: body is valid JSON: %s", path, r.body)
		}
	}
	if _, err := h.client("").ListServices(bg); err == nil || !strings.Contains(err.Error(), "malformed") {
		t.Fatalf("client: %v", err)
	}
}

// TestFaultMalformedChangeIsCarriedOut: a change drawing malformed is
// carried out and answered with its own 2xx status and half its JSON (a
// 200 never claims a change that was not made); one the store refuses is
// answered with its error.
func TestFaultMalformedChangeIsCarriedOut(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("faulted-db", "aws")
	h.s.SetFaults(Faults{MalformedRate: 1})
	r := h.do("POST", "/provisioning/v1/services/"+id+"/security/allowlist", map[string]string{"ip_address": "192.0.2.1/32"})
	var v any
	if r.status != http.StatusOK || json.Unmarshal(r.body, &v) == nil {
		t.Fatalf("a malformed change answered %d %s", r.status, r.body)
	}
	if r = h.do("POST", "/provisioning/v1/services", serviceReq("made-anyway", "gcp")); r.status != http.StatusAccepted {
		t.Fatalf("a malformed launch answered %d, want its own 202", r.status)
	}
	r = h.do("POST", "/provisioning/v1/services/"+id+"/security/allowlist", map[string]string{"ip_address": "not an address"})
	if r.status != http.StatusBadRequest {
		t.Fatalf("a refused change drawing malformed answered %d %s", r.status, r.body)
	}
	h.s.SetFaults(Faults{})
	if svc := h.service(id); len(svc.AllowList()) != 1 || svc.AllowList()[0].IP != "192.0.2.1/32" {
		l := svc.AllowList()
		t.Fatalf("the malformed change was not carried out: %v", l)
	}
	if ids := h.s.ServiceIDs(); len(ids) != 2 {
		t.Fatalf("the malformed launch was not carried out: %v", ids)
	}
}

func TestFaultDropConnection(t *testing.T) {
	h := newHarness(t, Options{})
	h.s.SetFaults(Faults{DropRate: 1})
	r, err := h.try("GET", "/provisioning/v1/services", nil, testKey)
	if err == nil {
		t.Fatalf("answer %d from a dropped connection", r.status)
	}
	if api.StatusOf(err) != 0 {
		t.Fatal(err)
	}
}

func TestFaultTimeoutHangsUntilClientGivesUp(t *testing.T) {
	h := newHarness(t, Options{})
	h.s.SetFaults(Faults{TimeoutRate: 1})
	h.hc.Timeout = 150 * time.Millisecond
	start := time.Now()
	_, err := h.try("GET", "/provisioning/v1/services", nil, testKey)
	var ne net.Error
	if err == nil || !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("err %v, want a client timeout", err)
	}
	if el := time.Since(start); el < 150*time.Millisecond {
		t.Fatalf("answered after %v", el)
	}
}

func TestFaultLatency(t *testing.T) {
	h := newHarness(t, Options{})
	h.s.SetFaults(Faults{Latency: 80 * time.Millisecond})
	start := time.Now()
	h.do("GET", "/provisioning/v1/providers", nil).want(t, 200)
	if el := time.Since(start); el < 80*time.Millisecond {
		t.Fatalf("answered after %v", el)
	}
}

// A POST faulted before it is handled has created nothing, whatever the
// fault (malformed is carried out: TestFaultMalformedChangeIsCarriedOut).
func TestFaultedPOSTsCreateNothing(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("faulted-db", "aws")
	h.hc.Timeout = 150 * time.Millisecond
	for _, f := range []Faults{{ErrorRate: 1}, {RateLimitRate: 1}, {DropRate: 1}, {TimeoutRate: 1}} {
		h.s.SetFaults(f)
		h.try("POST", "/provisioning/v1/services", serviceReq("never-made", "gcp"), testKey)
		h.try("POST", "/backup/v1/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "once", ServiceID: id}, testKey)
		h.try("POST", "/provisioning/v1/services/"+id+"/security/allowlist", map[string]string{"ip_address": "192.0.2.1/32"}, testKey)
	}
	h.s.SetFaults(Faults{})
	h.hc.Timeout = 10 * time.Second
	if ids := h.s.ServiceIDs(); len(ids) != 1 {
		t.Fatalf("services %v", ids)
	}
	if b := h.backups(id); len(b) != 0 {
		t.Fatalf("backups %v", b)
	}
	if svc := h.service(id); len(svc.AllowList()) != 0 {
		l := svc.AllowList()
		t.Fatalf("allow list %v", l)
	}
	st := h.s.Stats()
	for _, k := range []string{"error", "429", "drop", "timeout"} {
		if st.Faults[k] != 3 {
			t.Fatalf("fault %s counted %d times: %v", k, st.Faults[k], st.Faults)
		}
	}
}

// Faults are drawn from the seed: the same seed gives the same sequence.
func TestFaultDrawsFollowTheSeed(t *testing.T) {
	draw := func(seed int64) []faultKind {
		fi := newFaultInjector(Faults{ErrorRate: 0.3, DropRate: 0.2, MalformedRate: 0.2}, seed)
		var out []faultKind
		for range 50 {
			k, _, _, _ := fi.decide(false)
			out = append(out, k)
		}
		return out
	}
	a, b, c := draw(1), draw(1), draw(2)
	if !equalKinds(a, b) || equalKinds(a, c) {
		t.Fatal("fault draws do not follow the seed")
	}
	kinds := map[faultKind]bool{}
	for _, k := range a {
		kinds[k] = true
	}
	if len(kinds) != 4 {
		t.Fatalf("kinds drawn %v", kinds)
	}
}

func equalKinds(a, b []faultKind) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return len(a) == len(b)
}

func TestRateLimitPerKeyWithRetryAfter(t *testing.T) {
	h := newHarness(t, Options{APIKey: anyKey, RateLimit: 5})
	var mu sync.Mutex
	now := time.Unix(1_000_000, 0)
	h.s.limit.mu.Lock()
	h.s.limit.now = func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	h.s.limit.mu.Unlock()
	get := func(key string) *resp {
		r, err := h.try("GET", "/provisioning/v1/providers", nil, key)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	for range 10 { // burst of twice the rate
		get("key-a").want(t, 200)
	}
	r := get("key-a")
	b := r.errBody(t, http.StatusTooManyRequests)
	if r.header.Get("Retry-After") != "1" || !strings.Contains(b.Errors[0].Message, "rate limit") {
		t.Fatalf("Retry-After %q, %q", r.header.Get("Retry-After"), b.Errors[0].Message)
	}
	get("key-b").want(t, 200) // per key
	mu.Lock()
	now = now.Add(time.Second) // five tokens back
	mu.Unlock()
	for range 5 {
		get("key-a").want(t, 200)
	}
	get("key-a").want(t, 429)
	if h.s.Stats().Faults["ratelimit"] != 2 {
		t.Fatalf("faults %v", h.s.Stats().Faults)
	}
}

// The faults of a GET's answer: empty, null, endless, huge.

func TestParseFaultsGETFaults(t *testing.T) {
	f, err := ParseFaults("empty=0.02,null=0.03,endless=1%,huge=0.04,seed=5")
	if err != nil {
		t.Fatal(err)
	}
	want := Faults{EmptyRate: 0.02, NullRate: 0.03, EndlessRate: 0.01, HugeRate: 0.04, Seed: 5}
	if f != want {
		t.Fatalf("got %+v", f)
	}
	if g, err := ParseFaults(f.String()); err != nil || g != f {
		t.Fatalf("round trip %q: %+v %v", f.String(), g, err)
	}
	for spec, mention := range map[string]string{
		"empty=2":               "empty=2",
		"null=-1":               "null=-1",
		"endless":               `"endless"`,
		"huge=0.6,error=0.6":    "more than 1",
		"endless=0.5,null=0.51": "more than 1",
	} {
		if _, err := ParseFaults(spec); err == nil || !strings.Contains(err.Error(), mention) {
			t.Errorf("ParseFaults(%q) = %v, want an error mentioning %s", spec, err, mention)
		}
	}
	// an unknown key lists the new ones
	if _, err := ParseFaults("bogus=1"); err == nil || !strings.Contains(err.Error(), "empty, null, endless, huge") {
		t.Errorf("unknown key: %v", err)
	}
}

func TestFaultEmptyAndNullBodies(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    Faults
		body string
	}{{"empty", Faults{EmptyRate: 1}, ""}, {"null", Faults{NullRate: 1}, "null"}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{DemoData: true})
			id := h.s.ServiceIDs()[0]
			h.s.SetFaults(tc.f)
			for _, path := range []string{"/provisioning/v1/services", "/provisioning/v1/providers", "/skybackup/v1/backups",
				"/skybackup/v1/restores?service_id=" + id, "/backup/v1/restores", "/backup/v1/backups/schedules",
				"/provisioning/v1/services/" + id + "/security/allowlist"} {
				r := h.do("GET", path, nil).want(t, 200)
				if string(r.body) != tc.body {
					t.Errorf("%s: body %q, want %q", path, r.body, tc.body)
				}
				if ct := r.header.Get("Content-Type"); ct != "application/json" {
					t.Errorf("%s: Content-Type %q", path, ct)
				}
			}
			// one record is not a listing: answered as usual
			if r := h.do("GET", "/provisioning/v1/services/"+id, nil).want(t, 200); !bytes.Contains(r.body, []byte(id)) {
				t.Errorf("GET one service: %s", r.body)
			}
			// a change is never answered so
			r := h.do("POST", "/provisioning/v1/services", serviceReq("still-made", "aws")).want(t, 202)
			if !bytes.Contains(r.body, []byte("still-made")) {
				t.Errorf("POST answered %s", r.body)
			}
			if n := h.s.Stats().Faults[tc.name]; n != 7 {
				t.Errorf("counted %d %s faults: %v", n, tc.name, h.s.Stats().Faults)
			}
			// the client takes neither for an empty list
			c := h.client(api.LiveBackupPrefix)
			if s, err := c.ListServices(bg); err == nil {
				t.Errorf("ListServices: %d services, no error", len(s))
			}
			if b, err := c.ListAllBackups(bg, nil); err == nil {
				t.Errorf("ListAllBackups: %d backups, no error", len(b))
			}
			if r, err := c.ListRestores(bg, id); err == nil {
				t.Errorf("ListRestores: %d restores, no error", len(r))
			}
		})
	}
}

func TestFaultEndlessServicePages(t *testing.T) {
	h := newHarness(t, Options{DemoData: true})
	h.s.SetFaults(Faults{EndlessRate: 1})
	tokens := map[string]bool{}
	path := "/provisioning/v1/services?page_size=100"
	for page := 1; page <= 5; page++ {
		r := h.do("GET", path, nil).want(t, 200)
		var svcs []api.Service
		if err := json.Unmarshal(r.body, &svcs); err != nil {
			t.Fatalf("page %d: %v", page, err)
		}
		if len(svcs) != 1000 {
			t.Fatalf("page %d: %d services", page, len(svcs))
		}
		if want := "dbendless" + leftPad(strconv.Itoa((page-1)*1000+1), 7); svcs[0].ID != want {
			t.Fatalf("page %d starts with %q, want %q", page, svcs[0].ID, want)
		}
		tok := r.header.Get("X-SkySQL-Page-Token-Next")
		if tok == "" || tokens[tok] {
			t.Fatalf("page %d: next token %q (seen: %v)", page, tok, tokens[tok])
		}
		tokens[tok] = true
		path = "/provisioning/v1/services?page_size=100&page_token=" + tok
	}
	// the chain stays endless after the fault is off; a new listing does not
	h.s.SetFaults(Faults{})
	if r := h.do("GET", path, nil).want(t, 200); r.header.Get("X-SkySQL-Page-Token-Next") == "" {
		t.Fatal("the endless listing stopped when the faults did")
	}
	if r := h.do("GET", "/provisioning/v1/services", nil).want(t, 200); bytes.Contains(r.body, []byte("dbendless")) || r.header.Get("X-SkySQL-Page-Token-Next") != "" {
		t.Fatalf("a new listing is endless: %.200s", r.body)
	}

	h.s.SetFaults(Faults{EndlessRate: 1})
	_, err := h.client("").ListServices(bg)
	if err == nil || !strings.Contains(err.Error(), "the most the client reads") {
		t.Fatalf("ListServices: %v", err)
	}
	if n := h.s.Stats().Faults["endless"]; n < 5+api.MaxListItems/1000 {
		t.Fatalf("%d endless pages answered", n)
	}
}

func leftPad(s string, n int) string { return strings.Repeat("0", max(0, n-len(s))) + s }

func TestFaultEndlessEnvelopePages(t *testing.T) {
	h := newHarness(t, Options{DemoData: true})
	id := h.s.ServiceIDs()[0]
	h.s.SetFaults(Faults{EndlessRate: 1})
	for _, tc := range []struct{ path, key string }{
		{"/skybackup/v1/backups", "backups"},
		{"/backup/v1/backups?service_id=" + id, "backups"},
		{"/skybackup/v1/restores?service_id=" + id, "restores"},
		{"/backup/v1/restores", "restores"}, // a bare array otherwise
		{"/skybackup/v1/backups/schedules?service_id=" + id, "schedules"},
	} {
		for page := 1; page <= 3; page++ {
			sep := "?"
			if strings.Contains(tc.path, "?") {
				sep = "&"
			}
			r := h.do("GET", tc.path+sep+"page_size=100&page="+strconv.Itoa(page), nil).want(t, 200)
			var env map[string]json.RawMessage
			if err := json.Unmarshal(r.body, &env); err != nil {
				t.Fatalf("%s page %d: %v", tc.path, page, err)
			}
			var items []map[string]any
			if err := json.Unmarshal(env[tc.key], &items); err != nil || len(items) != 1000 {
				t.Fatalf("%s page %d: %d items, %v", tc.path, page, len(items), err)
			}
			if string(env["pages_count"]) != "1000000000" {
				t.Fatalf("%s page %d: pages_count %s", tc.path, page, env["pages_count"])
			}
		}
	}
	// page 2 stays endless after the faults stop; page 1 starts anew
	h.s.SetFaults(Faults{})
	if r := h.do("GET", "/skybackup/v1/backups?page_size=100&page=4", nil).want(t, 200); !bytes.Contains(r.body, []byte(`"pages_count":1000000000`)) {
		t.Fatalf("page 4 after the faults stopped: %.200s", r.body)
	}
	for _, page := range []string{"1", "2"} {
		if r := h.do("GET", "/skybackup/v1/backups?page_size=100&page="+page, nil).want(t, 200); bytes.Contains(r.body, []byte("endless")) {
			t.Fatalf("page %s of a new listing: %.200s", page, r.body)
		}
	}
	h.s.SetFaults(Faults{EndlessRate: 1})
	c := h.client(api.LiveBackupPrefix)
	if _, err := c.ListAllBackups(bg, nil); err == nil || !strings.Contains(err.Error(), "the most the client reads") {
		t.Fatalf("ListAllBackups: %v", err)
	}
	if _, err := c.ListRestores(bg, id); err == nil || !strings.Contains(err.Error(), "the most the client reads") {
		t.Fatalf("ListRestores: %v", err)
	}
	// a listing that is not paged is answered as usual
	h.do("GET", "/provisioning/v1/providers", nil).want(t, 200)
}

// At a rate below 1 a listing drawn endless goes on: its next pages are
// endless whatever their own draw.
func TestFaultEndlessChainsWhateverTheDraw(t *testing.T) {
	h := newHarness(t, Options{DemoData: true, Faults: Faults{EndlessRate: 0.2, Seed: 1}})
	c := h.client(api.LiveBackupPrefix)
	for i := 0; h.s.Stats().Faults["endless"] == 0; i++ {
		if i == 100 {
			t.Fatal("no listing drawn endless in 100")
		}
		if _, err := c.ListAllBackups(bg, nil); err != nil && !strings.Contains(err.Error(), "the most the client reads") {
			t.Fatal(err)
		}
	}
	if n := h.s.Stats().Faults["endless"]; n < api.MaxListItems/1000 {
		t.Fatalf("the endless listing stopped after %d pages", n)
	}
}

func TestFaultHugeBodyIsStreamed(t *testing.T) {
	h := newHarness(t, Options{DemoData: true})
	id := h.s.ServiceIDs()[0]
	h.s.SetFaults(Faults{HugeRate: 1})
	for _, tc := range []struct {
		path  string
		first byte
	}{{"/provisioning/v1/services", '['}, {"/provisioning/v1/services/" + id, '{'}} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		req, _ := http.NewRequest("GET", h.base+tc.path, nil)
		req.Header.Set("X-API-Key", testKey)
		res, err := h.hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		head := make([]byte, 40)
		if _, err := io.ReadFull(res.Body, head); err != nil {
			t.Fatal(err)
		}
		rest, err := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		runtime.ReadMemStats(&after)
		if err != nil || res.StatusCode != 200 || res.ContentLength != HugeBodySize || int64(len(head))+rest != HugeBodySize {
			t.Fatalf("%s: %d, Content-Length %d, read %d, %v", tc.path, res.StatusCode, res.ContentLength, int64(len(head))+rest, err)
		}
		if head[0] != tc.first || !bytes.Contains(head, []byte(`"name":"xxx`)) {
			t.Fatalf("%s starts %q", tc.path, head)
		}
		// server and client in this process: neither held the body
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
			t.Fatalf("%s: %d MiB allocated to serve %d MiB", tc.path, alloc>>20, HugeBodySize>>20)
		}
	}
	// valid JSON, just too big
	r := h.do("GET", "/provisioning/v1/providers", nil).want(t, 200)
	var v []map[string]string
	if err := json.Unmarshal(r.body, &v); err != nil || len(v) != 1 || len(v[0]["name"]) < 32<<20 {
		t.Fatalf("the huge answer does not decode: %v", err)
	}
	if _, err := h.client("").ListServices(bg); err == nil || !strings.Contains(err.Error(), "larger than 32 MiB") {
		t.Fatalf("ListServices: %v", err)
	}
	// changes are answered as usual
	h.do("POST", "/provisioning/v1/services", serviceReq("not-huge", "aws")).want(t, 202)
}

func unreadable(t *testing.T, r *resp) {
	t.Helper()
	var v any
	if len(r.body) > 0 && json.Unmarshal(r.body, &v) == nil {
		t.Fatalf("answer %d is readable JSON: %s", r.status, r.body)
	}
}

func liveRestores(t *testing.T, h *harness, serviceID string) []api.Restore {
	t.Helper()
	var p restoresPage
	h.do("GET", "/skybackup/v1/restores?service_id="+serviceID, nil).want(t, 200).decode(t, &p)
	return p.Restores
}

// An armed AnswerUnreadable lets the store carry out the change, then
// answers 200 with an unreadable body; only the armed route, only accepted
// changes, only as many times as armed.
func TestArmedUnreadableAnswerAfterChange(t *testing.T) {
	h := newHarness(t, Options{})
	src := h.readyService("unread-src", "aws")
	dst := h.readyService("unread-dst", "aws")
	key := h.completedFull(src)
	if err := h.s.ArmFault(ArmedFault{Kind: AnswerUnreadable, Method: "POST", Path: "/skybackup/v1/restores"}); err != nil {
		t.Fatal(err)
	}
	// Not spoiled: a GET of the route, another route, a refused change, the
	// same change under the other prefix.
	h.do("GET", "/skybackup/v1/restores?service_id="+dst, nil).want(t, 200)
	h.do("POST", "/provisioning/v1/services/"+dst+"/security/allowlist", map[string]string{"ip_address": "192.0.2.1/32"}).want(t, 200)
	h.do("POST", "/skybackup/v1/restores", api.ManagedRestore(dst, "no:such:key")).errBody(t, http.StatusNotFound)
	if n := h.s.ArmedLeft(); n != 1 {
		t.Fatalf("armed left %d before the accepted change", n)
	}

	r := h.do("POST", "/skybackup/v1/restores", api.ManagedRestore(dst, key)).want(t, 200)
	unreadable(t, r)
	if string(r.body) != DefaultUnreadableBody || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
		t.Fatalf("body %q, Content-Type %q", r.body, r.header.Get("Content-Type"))
	}
	// The change is in the store.
	list := liveRestores(t, h, dst)
	if len(list) != 1 || list[0].Key != key || list[0].Status != "Running" {
		t.Fatalf("restores after the spoiled answer: %+v", list)
	}
	if st := h.service(dst).Status; st != "pending_modifying" {
		t.Fatalf("target %s", st)
	}
	if n := h.s.ArmedLeft(); n != 0 {
		t.Fatalf("armed left %d", n)
	}
	if n := h.s.Stats().Faults["unreadable"]; n != 1 {
		t.Fatalf("unreadable counted %d times", n)
	}
	// Armed once: the next accepted change is answered normally.
	h.clk.Advance(time.Hour)
	var again api.Restore
	h.do("POST", "/skybackup/v1/restores", api.ManagedRestore(dst, key)).want(t, 200).decode(t, &again)
	if again.ID <= list[0].ID || len(liveRestores(t, h, dst)) != 2 {
		t.Fatalf("second restore %+v", again)
	}
}

// Times, a truncated real answer, a custom body and status, a concrete path.
func TestArmedUnreadableTimesTruncateAndBody(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("unread-sched", "gcp")
	if err := h.s.ArmFault(ArmedFault{Kind: AnswerUnreadable, Path: "/backup/v1/backups/schedules", Times: 2, Truncate: true}); err != nil {
		t.Fatal(err)
	}
	post := func() *resp {
		return h.do("POST", "/backup/v1/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "0 3 * * *", ServiceID: id}).want(t, 200)
	}
	for i := range 2 {
		r := post()
		unreadable(t, r)
		if !strings.HasPrefix(string(r.body), `{"`) || r.header.Get("Content-Type") != "application/json" {
			t.Fatalf("answer %d: %q (%s)", i, r.body, r.header.Get("Content-Type"))
		}
	}
	var sc api.Schedule
	post().decode(t, &sc)
	var p schedulesPage
	h.do("GET", "/backup/v1/backups/schedules?service_id="+id, nil).want(t, 200).decode(t, &p)
	if p.SchedulesCount != 3 {
		t.Fatalf("%d schedules after two spoiled answers and one plain", p.SchedulesCount)
	}

	// A custom body and status, armed on a request path, for DELETE only.
	al := "/provisioning/v1/services/" + id + "/security/allowlist"
	h.do("POST", al, map[string]string{"ip_address": "192.0.2.7/32"}).want(t, 200)
	if err := h.s.ArmFault(ArmedFault{Kind: AnswerUnreadable, Method: "DELETE", Path: al, Status: 202, Body: `{"id": 4`}); err != nil {
		t.Fatal(err)
	}
	h.do("POST", al, map[string]string{"ip_address": "192.0.2.8/32"}).want(t, 200) // POST not armed
	r := h.do("DELETE", al, map[string]string{"ip_address": "192.0.2.7/32"}).want(t, 202)
	unreadable(t, r)
	if string(r.body) != `{"id": 4` {
		t.Fatalf("body %q", r.body)
	}
	svc := h.service(id)
	for _, e := range svc.AllowList() {
		if e.IP == "192.0.2.7/32" {
			t.Fatal("the DELETE behind the spoiled answer was not carried out")
		}
	}
}

// An armed AnswerDropped carries out the change, then closes the
// connection without an answer.
func TestArmedDropAfterChange(t *testing.T) {
	h := newHarness(t, Options{})
	if err := h.s.ArmFault(ArmedFault{Kind: AnswerDropped, Method: "POST", Path: "/provisioning/v1/services"}); err != nil {
		t.Fatal(err)
	}
	h.do("GET", "/provisioning/v1/services", nil).want(t, 200)
	r, err := h.try("POST", "/provisioning/v1/services", serviceReq("dropped-answer", "aws"), testKey)
	if err == nil {
		t.Fatalf("answer %d: %s", r.status, r.body)
	}
	ids := h.s.ServiceIDs()
	if len(ids) != 1 || h.service(ids[0]).Name != "dropped-answer" {
		t.Fatalf("services after the dropped answer: %v", ids)
	}
	if n := h.s.Stats().Faults["drop-after"]; n != 1 {
		t.Fatalf("drop-after counted %d times", n)
	}
	h.do("POST", "/provisioning/v1/services", serviceReq("answered", "aws")).want(t, http.StatusAccepted)
	if n := len(h.s.ServiceIDs()); n != 2 {
		t.Fatalf("%d services", n)
	}
	// DisarmFaults removes what is still armed.
	if err := h.s.ArmFault(ArmedFault{Kind: AnswerDropped, Times: 5}); err != nil {
		t.Fatal(err)
	}
	if h.s.ArmedLeft() != 5 {
		t.Fatalf("armed left %d", h.s.ArmedLeft())
	}
	h.s.DisarmFaults()
	h.do("POST", "/provisioning/v1/services", serviceReq("after-disarm", "aws")).want(t, http.StatusAccepted)
}

func TestArmFaultRefusesWhatCannotMatch(t *testing.T) {
	h := newHarness(t, Options{})
	for _, c := range []struct {
		f       ArmedFault
		mention string
	}{
		{ArmedFault{Kind: "garbled"}, "garbled"},
		{ArmedFault{Kind: AnswerUnreadable, Method: "GET"}, "GET"},
		{ArmedFault{Kind: AnswerUnreadable, Status: 500}, "500"},
		{ArmedFault{Kind: AnswerUnreadable, Times: -1}, "-1"},
		{ArmedFault{Kind: AnswerDropped, Path: "/skybackup/v1/nothing"}, "/skybackup/v1/nothing"},
		{ArmedFault{Kind: AnswerDropped, Method: "PATCH", Path: "/skybackup/v1/restores"}, "PATCH"},
		{ArmedFault{Kind: AnswerDropped, Path: "/skybackup/v1/backups/status"}, "no route"},
	} {
		if err := h.s.ArmFault(c.f); err == nil || !strings.Contains(err.Error(), c.mention) {
			t.Errorf("ArmFault(%+v) = %v, want an error mentioning %s", c.f, err, c.mention)
		}
	}
	if h.s.ArmedLeft() != 0 {
		t.Fatal("a refused arm was kept")
	}
}

// The drawn forms (Faults.UnreadableRate, DropAfterRate; --faults
// unreadable=, drop-after=) spoil accepted changes, never GETs.
func TestDrawnUnreadableAndDropAfter(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("drawn-db", "azure")
	sched := api.ScheduleRequest{BackupType: "full", Schedule: "once", ServiceID: id}
	h.s.SetFaults(Faults{UnreadableRate: 1})
	var svcs []api.Service
	h.do("GET", "/provisioning/v1/services", nil).want(t, 200).decode(t, &svcs)
	unreadable(t, h.do("POST", "/skybackup/v1/backups/schedules", sched).want(t, 200))
	h.do("POST", "/skybackup/v1/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "once", ServiceID: "dbtaf99999999"}).errBody(t, 404)
	h.s.SetFaults(Faults{DropAfterRate: 1})
	h.do("GET", "/provisioning/v1/services", nil).want(t, 200).decode(t, &svcs)
	if r, err := h.try("POST", "/skybackup/v1/backups/schedules", sched, testKey); err == nil {
		t.Fatalf("answer %d: %s", r.status, r.body)
	}
	h.s.SetFaults(Faults{})
	if n := len(h.backups(id)); n != 2 {
		t.Fatalf("%d backups, want the two whose answers were spoiled", n)
	}
	if f := h.s.Stats().Faults; f["unreadable"] != 1 || f["drop-after"] != 1 {
		t.Fatalf("faults %v", f)
	}
}
