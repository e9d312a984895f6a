package tui

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/tui/tuitest"
)

// A storm of random sizes down to 1x1, with keys pressed in between on every
// screen, never panics, and every frame fits the terminal it is drawn for.
func TestResizeStorm(t *testing.T) {
	_, _, c := tuitest.Sandbox(t, true)
	h := newHarness(t, Options{Client: c, Profile: "storm", Demo: true, Now: func() time.Time { return t0 }}, 120, 40)
	rng := rand.New(rand.NewPCG(1, 2))
	keys := []string{"tab", "j", "enter", "n", "esc", "?", "esc", ":", "esc", "/", "esc", "shift+tab", "c", "esc", "a", "esc"}
	for i := range 400 {
		w, ht := 1+rng.IntN(220), 1+rng.IntN(70)
		if i%10 == 0 {
			w, ht = 1, 1
		}
		h.Deliver(tea.WindowSizeMsg{Width: w, Height: ht})
		if i%3 == 0 {
			h.Deliver(tuitest.KeyMsg(keys[rng.IntN(len(keys))]))
		}
		frame := ansi.Strip(h.m.Render())
		lines := strings.Split(frame, "\n")
		if len(lines) > ht {
			t.Fatalf("%dx%d: frame has %d lines:\n%s", w, ht, len(lines), frame)
		}
		for _, l := range lines {
			if lw := ansi.StringWidth(l); lw > w {
				t.Fatalf("%dx%d: a line is %d wide: %q", w, ht, lw, l)
			}
		}
		if i%25 == 0 {
			h.Settle()
		}
	}
	h.Deliver(tea.WindowSizeMsg{Width: 100, Height: 30})
	h.Settle()
	h.sees(t, "skytui", "after the storm the frame is back")
}
