package tui

import (
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/tuitest"
)

// t0 is the fixed start of every deterministic test.
var t0 = tuitest.T0

const testKey = tuitest.TestKey

// newSandbox starts an in-process sandbox on a manual clock.
func newSandbox(t testing.TB, demo bool) (*sandbox.Server, *sandbox.ManualClock, *api.Client) {
	t.Helper()
	return tuitest.Sandbox(t, demo)
}

// harness drives a Model without a terminal (see tuitest.Harness).
type harness struct {
	*tuitest.Harness
	m *Model
}

func newHarness(t testing.TB, opts Options, w, h int) *harness {
	t.Helper()
	if opts.After == nil {
		opts.After = tuitest.After
	}
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	m := New(opts)
	return &harness{Harness: tuitest.New(t, m, m.Render, w, h), m: m}
}

// pollIntervals lists the intervals of armed poll ticks, by key.
func (h *harness) pollIntervals() map[string][]time.Duration {
	out := map[string][]time.Duration{}
	for _, tm := range h.Timers {
		if p, ok := tm.Msg.(pollTickMsg); ok {
			out[p.key] = append(out[p.key], tm.D)
		}
	}
	return out
}
