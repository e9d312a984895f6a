package sandbox

import (
	"encoding/json"
	"errors"
	"net"
	"net/http"
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

// A faulted POST has created nothing, whatever the fault.
func TestFaultedPOSTsCreateNothing(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("faulted-db", "aws")
	h.hc.Timeout = 150 * time.Millisecond
	for _, f := range []Faults{{ErrorRate: 1}, {RateLimitRate: 1}, {MalformedRate: 1}, {DropRate: 1}, {TimeoutRate: 1}} {
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
	for _, k := range []string{"error", "429", "malformed", "drop", "timeout"} {
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
