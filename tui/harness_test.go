package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/tui/tuitest"
)

// t0 is the fixed start of every deterministic test.
var t0 = tuitest.T0

const testKey = tuitest.TestKey

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

// runCompleted opens the ":" command line, types typed, completes it
// with tab, which must give want, and runs it with enter.
func (h *harness) runCompleted(typed, want string) {
	h.T.Helper()
	h.Key(":")
	h.TypeText(typed)
	h.Key("tab")
	if got := h.m.cmdline.Value(); got != want {
		h.T.Fatalf("completion of %q = %q, want %q", typed, got, want)
	}
	h.Key("enter")
}

// sees fails t unless the screen shows want; what says what went wrong.
func (h *harness) sees(t testing.TB, want, what string) {
	t.Helper()
	if !strings.Contains(h.Screen(), want) {
		t.Fatalf("%s:\n%s", what, h.Screen())
	}
}

// both runs test twice: as the subtest named no with false, and as yes
// with true.
func both(t *testing.T, no, yes string, test func(t *testing.T, b bool)) {
	for _, b := range []bool{false, true} {
		name := no
		if b {
			name = yes
		}
		t.Run(name, func(t *testing.T) { test(t, b) })
	}
}

// lastToast is the text of the last message.
func lastToast(h *harness) string {
	if n := len(h.m.toasts); n > 0 {
		return h.m.toasts[n-1].text
	}
	return ""
}

// toastSays fails t unless the last message says want.
func (h *harness) toastSays(t testing.TB, want string) {
	t.Helper()
	if got := lastToast(h); !strings.Contains(got, want) {
		t.Fatalf("the last message is %q, want it to say %q", got, want)
	}
}

// pollIntervals lists the intervals of armed poll ticks, by key.
func (h *harness) pollIntervals() map[string][]time.Duration {
	out := map[string][]time.Duration{}
	for _, tm := range h.Timers {
		// only the ticks the engine would act on: a re-armed resource
		// leaves its earlier tick behind, stale, and the order in which
		// batched timers are recorded is not the order they were armed in
		if p, ok := tm.Msg.(pollTickMsg); ok && h.m.engine.states[p.key] != nil && p.seq == h.m.engine.states[p.key].seq && p.gen == h.m.engine.gen {
			out[p.key] = append(out[p.key], tm.D)
		}
	}
	return out
}
