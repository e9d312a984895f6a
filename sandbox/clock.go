package sandbox

import (
	"sync"
	"time"
)

// Clock is the sandbox's notion of time. Every state change of the sandbox
// (a launch finishing, a backup job ending, a cron schedule firing, a
// restore completing) is computed from it, lazily, when a request arrives.
type Clock interface{ Now() time.Time }

// scaledClock runs scale times faster than the wall clock, from start.
type scaledClock struct {
	start time.Time
	real0 time.Time
	scale float64
}

// NewScaledClock returns a clock that starts at start and runs scale times
// faster than real time (scale <= 0 means 1).
func NewScaledClock(start time.Time, scale float64) Clock {
	if scale <= 0 {
		scale = 1
	}
	return &scaledClock{start: start, real0: time.Now(), scale: scale}
}

func (c *scaledClock) Now() time.Time {
	elapsed := time.Since(c.real0) // monotonic
	return c.start.Add(time.Duration(float64(elapsed) * c.scale))
}

// ManualClock only moves when told to; tests use it to make every timed
// transition deterministic. It is safe for concurrent use.
type ManualClock struct {
	mu  sync.Mutex
	now time.Time
}

// NewManualClock returns a clock standing at start.
func NewManualClock(start time.Time) *ManualClock { return &ManualClock{now: start} }

// Now returns the current sandbox time.
func (c *ManualClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock forward by d; a negative d is ignored (sandbox
// time never runs backwards).
func (c *ManualClock) Advance(d time.Duration) {
	if d <= 0 {
		return
	}
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}
