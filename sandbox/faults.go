package sandbox

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Faults describes injected failures. Rates are probabilities per request
// (0..1) and are exclusive: one draw per request picks at most one of drop,
// timeout, error, 429, malformed, unreadable, drop-after, empty, null,
// endless and huge, so their sum must not exceed 1. Latency is added to
// every API request.
//
// Drop, timeout, error and 429 are decided before a request is handled: a
// request faulted so changes nothing. Malformed answers a read with half
// its JSON; a change drawing it is carried out (or refused, with its
// error) and its 2xx answer cut in half: a 2xx never claims a change the
// store did not make. Unreadable and drop-after
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
	MalformedRate  float64       // 200 with a truncated JSON body (a change: carried out first, its own 2xx)
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
			for _, r := range f.rates() {
				if r.name == name {
					*r.p = p
				}
			}
		}
	}
	if err := f.validate(); err != nil {
		return Faults{}, err
	}
	return f, nil
}

// namedRate is one rate of Faults with its key in ParseFaults.
type namedRate struct {
	name string
	p    *float64
}

// rates are f's rates with their keys, in the order String writes them:
// the one list ParseFaults, validate and String go by.
func (f *Faults) rates() []namedRate {
	return []namedRate{{"error", &f.ErrorRate}, {"429", &f.RateLimitRate}, {"malformed", &f.MalformedRate}, {"drop", &f.DropRate},
		{"timeout", &f.TimeoutRate}, {"unreadable", &f.UnreadableRate}, {"drop-after", &f.DropAfterRate}, {"empty", &f.EmptyRate},
		{"null", &f.NullRate}, {"endless", &f.EndlessRate}, {"huge", &f.HugeRate}}
}

func (f Faults) validate() error {
	sum := 0.0
	var names []string
	for _, r := range f.rates() {
		if v := *r.p; math.IsNaN(v) || v < 0 || v > 1 {
			return fmt.Errorf("faults: %s=%v: must be a rate between 0 and 1", r.name, v)
		}
		sum += *r.p
		names = append(names, r.name)
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
	for _, r := range f.rates() {
		if *r.p > 0 {
			parts = append(parts, r.name+"="+strconv.FormatFloat(*r.p, 'g', -1, 64))
		}
		if r.name == "429" && f.RetryAfter > 0 {
			parts = append(parts, "retry-after="+f.RetryAfter.String())
		}
	}
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
