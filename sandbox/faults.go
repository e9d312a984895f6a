package sandbox

import (
	"encoding/base64"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/skytui/skytui/api"
)

// Faults describes injected failures. Rates are probabilities per request
// (0..1) and are exclusive: one draw per request picks at most one of drop,
// timeout, error, 429, malformed, unreadable, drop-after, empty, null,
// endless and huge, so their sum must not exceed 1. Latency is added to
// every API request.
//
// Drop, timeout, error, 429 and malformed are decided before a request is
// handled: a request faulted so changes nothing. Unreadable and drop-after
// are the opposite: they apply to changes only (POST, PATCH, PUT, DELETE;
// a GET drawing them is answered normally), the store carries the change
// out, and only then is its 2xx answer spoiled. A change the store refuses
// is answered with its error as usual. For one route and a fixed number of
// requests, arm them with Server.ArmFault instead.
//
// Empty, null, endless and huge apply to GETs only (a change drawing them
// is answered normally) and replace the answer without asking the store:
//
//   - empty: a listing answered 200 with an empty body (Content-Length 0).
//   - null: a listing answered 200 with the body null.
//   - endless: a paged listing that claims more pages forever. GET
//     /services answers 1,000 generated services and a new
//     X-SkySQL-Page-Token-Next on every page; the envelope listings
//     (backups, schedules, restores) answer 1,000 generated records with
//     pages_count 1,000,000,000 (restores under /backup/v1 too, which
//     otherwise answer a bare array). The pages that follow (the endless
//     page token, or page 2, 3, … of the same listing) are endless too,
//     whatever their own draw and even once the faults are changed: a
//     listing drawn endless ends only when the client stops asking. (An
//     envelope listing is remembered for 30 s after its last page, until
//     its page 1 is asked for again.)
//   - huge: any GET answered 200 with a valid JSON body of 32 MiB + 1 KiB
//     (one record whose name is that long), streamed from a shared 64 KiB
//     block: the sandbox never holds it in memory.
//
// The listings are GET /services, its allow lists, the option lists
// (providers, regions, service types, topologies, storage sizes, sizes,
// versions), and under both backup prefixes backups, schedules, backup
// status and restores; a GET of anything else drawing empty, null or
// endless is answered normally (endless: only the four paged listings).
type Faults struct {
	Latency        time.Duration // added before every API request
	ErrorRate      float64       // 500 or 503 with the error body
	RateLimitRate  float64       // 429 with Retry-After
	RetryAfter     time.Duration // Retry-After of injected 429s (default 1s)
	MalformedRate  float64       // 200 with a truncated JSON body; nothing changed
	DropRate       float64       // hijack and close the connection, no answer; nothing changed
	TimeoutRate    float64       // hang until the client gives up (or 30 s, then 504)
	UnreadableRate float64       // change carried out, then its 2xx status with an unreadable body
	DropAfterRate  float64       // change carried out, then the connection closed without an answer
	EmptyRate      float64       // GET of a listing: 200 with an empty body
	NullRate       float64       // GET of a listing: 200 with the body null
	EndlessRate    float64       // GET of a paged listing: 1,000 generated items and a next page, forever
	HugeRate       float64       // any GET: 200 with a valid JSON body just over 32 MiB, streamed
	Seed           int64         // seed of the fault draws (0: Options.Seed)
}

// faultKind is what the draw decided for one request.
type faultKind int

const (
	faultNone faultKind = iota
	faultDrop
	faultTimeout
	faultError
	faultRateLimit
	faultMalformed
	faultUnreadable // after the handler: unreadable 2xx body
	faultDropAfter  // after the handler: connection closed
	faultEmpty      // GET of a listing: 200, empty body
	faultNull       // GET of a listing: 200, null
	faultEndless    // GET of a paged listing: generated items, next page forever
	faultHuge       // GET: 200, a body just over 32 MiB
)

// after reports whether the fault is neither applied nor counted where it
// is drawn: unreadable and drop-after spoil the answer of a handled
// change (spoilAnswer); empty, null, endless and huge replace the answer
// of a GET of the right route (serveGETFault). Each is counted when it
// applies.
func (k faultKind) after() bool {
	switch k {
	case faultUnreadable, faultDropAfter, faultEmpty, faultNull, faultEndless, faultHuge:
		return true
	}
	return false
}

// onGET reports a fault that replaces the answer of a GET.
func (k faultKind) onGET() bool {
	return k == faultEmpty || k == faultNull || k == faultEndless || k == faultHuge
}

func (k faultKind) String() string {
	switch k {
	case faultDrop:
		return "drop"
	case faultTimeout:
		return "timeout"
	case faultError:
		return "error"
	case faultRateLimit:
		return "429"
	case faultMalformed:
		return "malformed"
	case faultUnreadable:
		return "unreadable"
	case faultDropAfter:
		return "drop-after"
	case faultEmpty:
		return "empty"
	case faultNull:
		return "null"
	case faultEndless:
		return "endless"
	case faultHuge:
		return "huge"
	}
	return "none"
}

// faultKeys maps the spec keys (and a few aliases) to a setter.
var faultKeys = map[string]string{
	"latency":     "latency",
	"error":       "error",
	"errors":      "error",
	"5xx":         "error",
	"429":         "429",
	"ratelimit":   "429",
	"rate-limit":  "429",
	"retry-after": "retry-after",
	"retryafter":  "retry-after",
	"malformed":   "malformed",
	"drop":        "drop",
	"timeout":     "timeout",
	"unreadable":  "unreadable",
	"drop-after":  "drop-after",
	"dropafter":   "drop-after",
	"empty":       "empty",
	"null":        "null",
	"endless":     "endless",
	"huge":        "huge",
	"seed":        "seed",
}

// ParseFaults reads a fault specification such as
// "latency=200ms,error=0.1,429=0.05,retry-after=2s,malformed=0.05,drop=0.05,timeout=0.02,unreadable=0.05,drop-after=0.02,empty=0.02,null=0.02,endless=0.01,huge=0.01,seed=7".
// An empty spec means no faults.
func ParseFaults(spec string) (Faults, error) {
	var f Faults
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return f, nil
	}
	known := []string{"latency", "error", "429", "retry-after", "malformed", "drop", "timeout", "unreadable", "drop-after", "empty", "null", "endless", "huge", "seed"}
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		k, v, ok := strings.Cut(part, "=")
		k, v = strings.ToLower(strings.TrimSpace(k)), strings.TrimSpace(v)
		if !ok || v == "" {
			return Faults{}, fmt.Errorf("faults: %q: expected key=value (keys: %s)", part, strings.Join(known, ", "))
		}
		name, ok := faultKeys[k]
		if !ok {
			return Faults{}, fmt.Errorf("faults: unknown key %q (keys: %s)", k, strings.Join(known, ", "))
		}
		switch name {
		case "latency", "retry-after":
			d, err := time.ParseDuration(v)
			if err != nil || d < 0 {
				return Faults{}, fmt.Errorf("faults: %s=%s: not a non-negative duration such as 200ms or 2s", k, v)
			}
			if name == "latency" {
				f.Latency = d
			} else {
				f.RetryAfter = d
			}
		case "seed":
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return Faults{}, fmt.Errorf("faults: seed=%s: not an integer", v)
			}
			f.Seed = n
		default:
			p, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
			if err == nil && strings.HasSuffix(v, "%") {
				p /= 100
			}
			if err != nil || math.IsNaN(p) || p < 0 || p > 1 {
				return Faults{}, fmt.Errorf("faults: %s=%s: must be a rate between 0 and 1 (such as 0.05 or 5%%)", k, v)
			}
			switch name {
			case "error":
				f.ErrorRate = p
			case "429":
				f.RateLimitRate = p
			case "malformed":
				f.MalformedRate = p
			case "drop":
				f.DropRate = p
			case "timeout":
				f.TimeoutRate = p
			case "unreadable":
				f.UnreadableRate = p
			case "drop-after":
				f.DropAfterRate = p
			case "empty":
				f.EmptyRate = p
			case "null":
				f.NullRate = p
			case "endless":
				f.EndlessRate = p
			case "huge":
				f.HugeRate = p
			}
		}
	}
	if err := f.validate(); err != nil {
		return Faults{}, err
	}
	return f, nil
}

func (f Faults) validate() error {
	rates := map[string]float64{"error": f.ErrorRate, "429": f.RateLimitRate, "malformed": f.MalformedRate, "drop": f.DropRate, "timeout": f.TimeoutRate,
		"unreadable": f.UnreadableRate, "drop-after": f.DropAfterRate, "empty": f.EmptyRate, "null": f.NullRate, "endless": f.EndlessRate, "huge": f.HugeRate}
	sum := 0.0
	names := make([]string, 0, len(rates))
	for k, v := range rates {
		if math.IsNaN(v) || v < 0 || v > 1 {
			return fmt.Errorf("faults: %s=%v: must be a rate between 0 and 1", k, v)
		}
		sum += v
		names = append(names, k)
	}
	if sum > 1+1e-9 {
		sort.Strings(names)
		return fmt.Errorf("faults: the rates of %s add up to %.3g, more than 1", strings.Join(names, ", "), sum)
	}
	return nil
}

// String renders the faults in ParseFaults syntax.
func (f Faults) String() string {
	var parts []string
	if f.Latency > 0 {
		parts = append(parts, "latency="+f.Latency.String())
	}
	add := func(k string, v float64) {
		if v > 0 {
			parts = append(parts, k+"="+strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
	add("error", f.ErrorRate)
	add("429", f.RateLimitRate)
	if f.RetryAfter > 0 {
		parts = append(parts, "retry-after="+f.RetryAfter.String())
	}
	add("malformed", f.MalformedRate)
	add("drop", f.DropRate)
	add("timeout", f.TimeoutRate)
	add("unreadable", f.UnreadableRate)
	add("drop-after", f.DropAfterRate)
	add("empty", f.EmptyRate)
	add("null", f.NullRate)
	add("endless", f.EndlessRate)
	add("huge", f.HugeRate)
	if f.Seed != 0 {
		parts = append(parts, "seed="+strconv.FormatInt(f.Seed, 10))
	}
	return strings.Join(parts, ",")
}

// faultInjector draws one decision per API request and keeps the armed
// faults.
type faultInjector struct {
	mu    sync.Mutex
	f     Faults
	rng   *rand.Rand
	armed []*ArmedFault // each with Times > 0 left
	// endless holds the envelope listings answered endless lately (by
	// listing key, see endlessKey), so their next pages stay endless.
	endless map[string]time.Time
}

func newFaultInjector(f Faults, seed int64) *faultInjector {
	fi := &faultInjector{}
	fi.set(f, seed)
	return fi
}

func (fi *faultInjector) set(f Faults, fallbackSeed int64) {
	seed := f.Seed
	if seed == 0 {
		seed = fallbackSeed
	}
	fi.mu.Lock()
	fi.f = f
	fi.rng = rand.New(rand.NewPCG(uint64(seed), 0x5eed_fa17))
	fi.mu.Unlock()
}

// decide returns the fault for one request, the latency to add, and (for
// errors) which 5xx status to answer with. change says the request is a
// change (POST, PATCH, PUT, DELETE): only changes get unreadable and
// drop-after, a GET that draws them gets none; only GETs get empty, null,
// endless and huge (serveGETFault then decides whether the route takes
// them).
func (fi *faultInjector) decide(change bool) (kind faultKind, latency time.Duration, status int, retryAfter time.Duration) {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	f := fi.f
	latency = f.Latency
	retryAfter = f.RetryAfter
	if retryAfter <= 0 {
		retryAfter = time.Second
	}
	if f.DropRate+f.TimeoutRate+f.ErrorRate+f.RateLimitRate+f.MalformedRate+f.UnreadableRate+f.DropAfterRate+
		f.EmptyRate+f.NullRate+f.EndlessRate+f.HugeRate <= 0 {
		return faultNone, latency, 0, retryAfter
	}
	u := fi.rng.Float64()
	for _, c := range []struct {
		k faultKind
		p float64
	}{{faultDrop, f.DropRate}, {faultTimeout, f.TimeoutRate}, {faultError, f.ErrorRate}, {faultRateLimit, f.RateLimitRate}, {faultMalformed, f.MalformedRate},
		{faultUnreadable, f.UnreadableRate}, {faultDropAfter, f.DropAfterRate},
		{faultEmpty, f.EmptyRate}, {faultNull, f.NullRate}, {faultEndless, f.EndlessRate}, {faultHuge, f.HugeRate}} {
		if u < c.p {
			kind = c.k
			break
		}
		u -= c.p
	}
	if (kind == faultUnreadable || kind == faultDropAfter) && !change || kind.onGET() && change {
		kind = faultNone
	}
	if kind == faultError {
		status = 500
		if fi.rng.IntN(2) == 1 {
			status = 503
		}
	}
	return kind, latency, status, retryAfter
}

// ---- armed faults: a change carried out, then its answer spoiled ----

// AfterFault is what an armed fault does to the answer of a change the
// store has carried out.
type AfterFault string

const (
	// AnswerUnreadable answers a 2xx status with a body that is not the
	// JSON answer (ArmedFault.Body, or the real answer cut short).
	AnswerUnreadable AfterFault = "unreadable"
	// AnswerDropped closes the connection without an answer (hijack and
	// close): the client cannot know the outcome.
	AnswerDropped AfterFault = "drop-after"
)

// DefaultUnreadableBody is the body of AnswerUnreadable when
// ArmedFault.Body is empty and Truncate is false.
const DefaultUnreadableBody = "<html>gateway says ok</html>"

// ArmedFault spoils the answers of the next Times changes the store
// accepts on one route: the handler runs (and changes the store) first.
// A request the store refuses (4xx) is answered as usual and does not
// count; neither does a request another fault stopped before the store.
type ArmedFault struct {
	Kind AfterFault
	// Method is POST, PATCH, PUT or DELETE; empty: any of them. GET is
	// never spoiled.
	Method string
	// Path is a route pattern such as "/skybackup/v1/restores" or
	// "/provisioning/v1/services/{id}/security/allowlist", or a request
	// path such as "/provisioning/v1/services/dbtaf12345678/security/allowlist";
	// empty: every route.
	Path string
	// Times is how many accepted changes it spoils (0 means 1).
	Times int
	// Status is the 2xx status of AnswerUnreadable; 0: the status the
	// handler answered (200, or 202 for a service launch).
	Status int
	// Body is the body of AnswerUnreadable; empty: DefaultUnreadableBody.
	Body string
	// Truncate, with an empty Body, sends the first half of the real JSON
	// answer instead (such as {"id": 4), with Content-Type application/json.
	Truncate bool
}

func changeMethod(m string) bool {
	switch m {
	case "POST", "PATCH", "PUT", "DELETE":
		return true
	}
	return false
}

// ArmFault arms f (in addition to faults armed before; the first that
// matches a request is used). It refuses an unknown Kind, a method that is
// not a change, a Status outside 2xx, and a Path that names no route (or
// a route without Method).
//
//	srv.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerUnreadable, Method: "POST", Path: "/skybackup/v1/restores"})
//	srv.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerDropped, Method: "POST", Path: "/provisioning/v1/services", Times: 2})
func (s *Server) ArmFault(f ArmedFault) error {
	switch f.Kind {
	case AnswerUnreadable, AnswerDropped:
	default:
		return fmt.Errorf("sandbox: ArmFault: unknown kind %q (use AnswerUnreadable or AnswerDropped)", f.Kind)
	}
	f.Method = strings.ToUpper(f.Method)
	if f.Method != "" && !changeMethod(f.Method) {
		return fmt.Errorf("sandbox: ArmFault: method %s is not a change (POST, PATCH, PUT or DELETE)", f.Method)
	}
	if f.Status != 0 && (f.Status < 200 || f.Status > 299) {
		return fmt.Errorf("sandbox: ArmFault: status %d is not 2xx", f.Status)
	}
	if f.Times < 0 {
		return fmt.Errorf("sandbox: ArmFault: Times %d is negative", f.Times)
	}
	if f.Times == 0 {
		f.Times = 1
	}
	if f.Path != "" {
		f.Path = strings.TrimRight(f.Path, "/")
		rt := s.routeByPattern(f.Path)
		if rt == nil {
			rt, _, _ = s.match(f.Path)
		}
		if rt == nil {
			return fmt.Errorf("sandbox: ArmFault: %s is no route of the sandbox", f.Path)
		}
		if f.Method != "" && rt.methods[f.Method] == nil {
			return fmt.Errorf("sandbox: ArmFault: %s %s is not routed (allowed: %s)", f.Method, rt.pattern, strings.Join(rt.allow(), ", "))
		}
	}
	s.faults.mu.Lock()
	s.faults.armed = append(s.faults.armed, &f)
	s.faults.mu.Unlock()
	return nil
}

// ArmedLeft is how many answers the armed faults will still spoil.
func (s *Server) ArmedLeft() int {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	n := 0
	for _, a := range s.faults.armed {
		n += a.Times
	}
	return n
}

// DisarmFaults removes every armed fault (SetFaults leaves them alone).
func (s *Server) DisarmFaults() {
	s.faults.mu.Lock()
	s.faults.armed = nil
	s.faults.mu.Unlock()
}

func (s *Server) routeByPattern(pattern string) *route {
	for _, rt := range s.routes {
		if rt.pattern == pattern {
			return rt
		}
	}
	return nil
}

// takeArmed uses up one spoil of the first armed fault matching an
// accepted change of method on the route pattern at path.
func (fi *faultInjector) takeArmed(method, pattern, path string) (ArmedFault, bool) {
	if !changeMethod(method) {
		return ArmedFault{}, false
	}
	fi.mu.Lock()
	defer fi.mu.Unlock()
	for i, a := range fi.armed {
		if a.Method != "" && a.Method != method {
			continue
		}
		if a.Path != "" && a.Path != pattern && a.Path != path {
			continue
		}
		out := *a
		a.Times--
		if a.Times <= 0 {
			fi.armed = append(fi.armed[:i:i], fi.armed[i+1:]...)
		}
		return out, true
	}
	return ArmedFault{}, false
}

// ---- faults that replace the answer of a GET ----

// listShapes are the listings (route patterns without their prefix) that
// empty and null apply to, with the shape of their endless answer: the
// key of the envelope, "services" for the token-paged service listing,
// or "" for a listing that is not paged (endless does not apply).
var listShapes = map[string]string{
	"/services":                            "services",
	"/services/{id}/security/allowlist":    "",
	"/providers":                           "",
	"/regions":                             "",
	"/service-types":                       "",
	"/topologies":                          "",
	"/topologies/{topology}/storage-sizes": "",
	"/sizes":                               "",
	"/versions":                            "",
	"/backups":                             "backups",
	"/backups/schedules":                   "schedules",
	"/backups/status":                      "",
	"/restores":                            "restores",
}

const (
	// endlessPageItems is the number of items of every endless page.
	endlessPageItems = 1000
	// endlessPagesCount is the pages_count an endless envelope claims.
	endlessPagesCount = 1_000_000_000
	// endlessChainTTL is how long an envelope listing answered endless
	// stays so for its next pages.
	endlessChainTTL = 30 * time.Second
	// endlessTokenPrefix starts (base64url-encoded) the page tokens of an
	// endless service listing.
	endlessTokenPrefix = "svc:endless:"
	// HugeBodySize is the size of the answer of the huge fault: just over
	// the 32 MiB a client should read at most.
	HugeBodySize = 32<<20 + 1<<10
)

// hugeBlock is the padding the huge answers are streamed from.
var hugeBlock = []byte(strings.Repeat("x", 64<<10))

// serveGETFault answers a GET with the empty, null, endless or huge fault
// when kind (the request's draw) is one of them and the route takes it, or
// when the request asks for the next page of a listing answered endless.
// It returns the status written, or 0 when the request is still to be
// handled.
func (s *Server) serveGETFault(w http.ResponseWriter, r *http.Request, rt *route, kind faultKind) int {
	if r.Method != http.MethodGet || rt == nil {
		return 0
	}
	shape, isList := listShapes[strings.TrimPrefix(rt.pattern, rt.prefix)]
	q := r.URL.Query()
	page := 0 // the endless page to answer (0: none)
	if shape != "" {
		page = s.faults.endlessNext(shape, r.URL.Path, q)
	}
	switch {
	case page > 0:
		kind = faultEndless
	case kind == faultHuge:
	case !isList || !kind.onGET():
		return 0
	case kind == faultEndless:
		if shape == "" {
			return 0
		}
		page = 1
	}
	s.countFault(kind)
	h := w.Header()
	h.Set("Content-Type", "application/json")
	switch kind {
	case faultEmpty:
		h.Set("Content-Length", "0")
		w.WriteHeader(http.StatusOK)
	case faultNull:
		w.WriteHeader(http.StatusOK)
		w.Write([]byte("null"))
	case faultHuge:
		writeHuge(w, isList)
	case faultEndless:
		if shape == "services" {
			h.Set("X-SkySQL-Page-Token-Next", base64.RawURLEncoding.EncodeToString([]byte(endlessTokenPrefix+strconv.Itoa(page+1))))
		} else {
			s.faults.endlessSeen(r.URL.Path, q)
		}
		w.WriteHeader(http.StatusOK)
		w.Write(endlessPage(shape, page, q.Get("service_id")))
	}
	return http.StatusOK
}

// endlessKey names a listing independent of its page.
func endlessKey(path string, q url.Values) string {
	q2 := url.Values{}
	for k, v := range q {
		if k != "page" {
			q2[k] = v
		}
	}
	return path + "?" + q2.Encode()
}

// endlessNext returns the page of an endless listing the request asks
// for, or 0 when it asks for none.
func (fi *faultInjector) endlessNext(shape, path string, q url.Values) int {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	if shape == "services" {
		raw, err := base64.RawURLEncoding.DecodeString(q.Get("page_token"))
		if err != nil || !strings.HasPrefix(string(raw), endlessTokenPrefix) {
			return 0
		}
		n, err := strconv.Atoi(strings.TrimPrefix(string(raw), endlessTokenPrefix))
		if err != nil || n < 1 {
			return 0
		}
		return n
	}
	if len(fi.endless) == 0 {
		return 0
	}
	key := endlessKey(path, q)
	n, err := strconv.Atoi(q.Get("page"))
	if err != nil || n < 2 {
		delete(fi.endless, key) // a new listing starts
		return 0
	}
	if t, ok := fi.endless[key]; ok && time.Since(t) < endlessChainTTL {
		return n
	}
	return 0
}

// endlessSeen records an envelope listing answered endless, so that its
// next pages are too.
func (fi *faultInjector) endlessSeen(path string, q url.Values) {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	now := time.Now()
	if fi.endless == nil {
		fi.endless = map[string]time.Time{}
	}
	for k, t := range fi.endless {
		if now.Sub(t) >= endlessChainTTL {
			delete(fi.endless, k)
		}
	}
	fi.endless[endlessKey(path, q)] = now
}

// endlessPage is page n of an endless listing: endlessPageItems generated
// items, as a bare array of services or an envelope claiming
// endlessPagesCount pages.
func endlessPage(shape string, n int, serviceID string) []byte {
	if api.ValidateServiceID(serviceID) != nil {
		serviceID = "dbendless0000000"
	}
	b := make([]byte, 0, endlessPageItems*160)
	if shape != "services" {
		b = append(b, `{"`+shape+`":`...)
	}
	b = append(b, '[')
	for i := range endlessPageItems {
		id := int64(n-1)*endlessPageItems + int64(i) + 1
		if i > 0 {
			b = append(b, ',')
		}
		switch shape {
		case "services":
			b = fmt.Appendf(b, `{"id":"dbendless%07d","name":"endless-%d","status":"ready","service_type":"transactional","topology":"es-single","provider":"aws","region":"us-east-1","architecture":"amd64","size":"sky-2x8","nodes":1,"fqdn":"","ssl_enabled":true}`, id, id)
		case "backups":
			b = fmt.Appendf(b, `{"id":"endless-%d","service_id":%q,"type":"full","status":"Succeeded","storage_bytes":0}`, id, serviceID)
		case "schedules":
			b = fmt.Appendf(b, `{"id":%d,"service_id":%q,"type":"full","schedule":"once","status":"Succeeded","suspended":false}`, id, serviceID)
		default: // restores
			b = fmt.Appendf(b, `{"id":%d,"service_id":%q,"status":"Succeeded"}`, id, serviceID)
		}
	}
	b = append(b, ']')
	if shape != "services" {
		b = fmt.Appendf(b, `,"%s_count":%d,"pages_count":%d}`, shape, int64(endlessPagesCount)*endlessPageItems, endlessPagesCount)
	}
	return b
}

// writeHuge streams a valid JSON answer of HugeBodySize bytes: one record
// (in an array when list) whose name is all the padding.
func writeHuge(w http.ResponseWriter, list bool) {
	prefix, suffix := `{"id":"dbhuge000000001","name":"`, `"}`
	if list {
		prefix, suffix = "["+prefix, suffix+"]"
	}
	w.Header().Set("Content-Length", strconv.Itoa(HugeBodySize))
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write([]byte(prefix)); err != nil {
		return
	}
	for pad := HugeBodySize - len(prefix) - len(suffix); pad > 0; {
		n := min(pad, len(hugeBlock))
		if _, err := w.Write(hugeBlock[:n]); err != nil {
			return // the client stopped reading
		}
		pad -= n
	}
	w.Write([]byte(suffix))
}
