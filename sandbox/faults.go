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
// timeout, error, 429 and malformed, so their sum must not exceed 1.
// Latency is added to every API request. Faults are decided before a
// request is handled: a faulted POST never creates anything.
type Faults struct {
	Latency       time.Duration // added before every API request
	ErrorRate     float64       // 500 or 503 with the error body
	RateLimitRate float64       // 429 with Retry-After
	RetryAfter    time.Duration // Retry-After of injected 429s (default 1s)
	MalformedRate float64       // 200 with a truncated JSON body
	DropRate      float64       // hijack and close the connection, no answer
	TimeoutRate   float64       // hang until the client gives up (or 30 s, then 504)
	Seed          int64         // seed of the fault draws (0: Options.Seed)
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
)

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
	"seed":        "seed",
}

// ParseFaults reads a fault specification such as
// "latency=200ms,error=0.1,429=0.05,retry-after=2s,malformed=0.05,drop=0.05,timeout=0.02,seed=7".
// An empty spec means no faults.
func ParseFaults(spec string) (Faults, error) {
	var f Faults
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return f, nil
	}
	known := []string{"latency", "error", "429", "retry-after", "malformed", "drop", "timeout", "seed"}
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
			}
		}
	}
	if err := f.validate(); err != nil {
		return Faults{}, err
	}
	return f, nil
}

func (f Faults) validate() error {
	rates := map[string]float64{"error": f.ErrorRate, "429": f.RateLimitRate, "malformed": f.MalformedRate, "drop": f.DropRate, "timeout": f.TimeoutRate}
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
	if f.Seed != 0 {
		parts = append(parts, "seed="+strconv.FormatInt(f.Seed, 10))
	}
	return strings.Join(parts, ",")
}

// faultInjector draws one decision per API request.
type faultInjector struct {
	mu  sync.Mutex
	f   Faults
	rng *rand.Rand
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
// errors) which 5xx status to answer with.
func (fi *faultInjector) decide() (kind faultKind, latency time.Duration, status int, retryAfter time.Duration) {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	f := fi.f
	latency = f.Latency
	retryAfter = f.RetryAfter
	if retryAfter <= 0 {
		retryAfter = time.Second
	}
	if f.DropRate+f.TimeoutRate+f.ErrorRate+f.RateLimitRate+f.MalformedRate <= 0 {
		return faultNone, latency, 0, retryAfter
	}
	u := fi.rng.Float64()
	for _, c := range []struct {
		k faultKind
		p float64
	}{{faultDrop, f.DropRate}, {faultTimeout, f.TimeoutRate}, {faultError, f.ErrorRate}, {faultRateLimit, f.RateLimitRate}, {faultMalformed, f.MalformedRate}} {
		if u < c.p {
			kind = c.k
			break
		}
		u -= c.p
	}
	if kind == faultError {
		status = 500
		if fi.rng.IntN(2) == 1 {
			status = 503
		}
	}
	return kind, latency, status, retryAfter
}
