package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/kit"
)

// TestLogHelpListsItsKeys: ? in the message log lists the log's keys (it
// was swallowed); ? (or esc) goes back to the entries; the footer offers it.
func TestLogHelpListsItsKeys(t *testing.T) {
	h := fakeApp(t, time.Minute, &fakeScreen{id: "a"})
	h.Send(kit.ToastMsg{Level: kit.ToastInfo, Text: "first note"})
	h.Key("L")
	if f := footerLine(h); !strings.Contains(f, "? keys") {
		t.Errorf("the log's footer does not offer ?:\n%q", f)
	}
	h.Key("?")
	out := unboxed(h.Screen())
	for _, want := range []string{"Message log keys", "down/j move down", "up/k move up", "pgdn page down", "g/home first row", "G/end last row", "/ filter", "y copy entry", "esc close", "q close"} {
		if !strings.Contains(out, want) {
			t.Errorf("? in the log does not list %q:\n%s", want, h.Screen())
		}
	}
	if strings.Contains(strings.Join(logRows(h), "\n"), "first note") || h.m.showHelp {
		t.Errorf("the keys are not shown in the log's place:\n%s", h.Screen())
	}
	h.Key("?")
	if !strings.Contains(strings.Join(logRows(h), "\n"), "first note") {
		t.Fatalf("? again does not go back to the entries:\n%s", h.Screen())
	}
	h.Key("?")
	h.Key("esc")
	if !strings.Contains(strings.Join(logRows(h), "\n"), "first note") || len(h.m.dialogs) != 1 {
		t.Fatalf("esc on the keys does not go back to the entries:\n%s", h.Screen())
	}
}

// TestLogHelpScrollsOnASmallTerminal: at 60x16 and 80x16 the log's ? list
// is taller than its box: a line says what is below and which key shows
// it, and pgdn (j, G) scrolls to the keys below (/ filter, y copy entry,
// q close, esc close); g goes back to the top; the footer names the
// scroll keys.
func TestLogHelpScrollsOnASmallTerminal(t *testing.T) {
	for _, w := range []int{60, 80} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			h := fakeApp(t, time.Minute, &fakeScreen{id: "a"})
			h.Send(tea.WindowSizeMsg{Width: w, Height: 16})
			h.Send(kit.ToastMsg{Level: kit.ToastInfo, Text: "first note"})
			h.Keys("L", "?")
			rows := strings.Join(logRows(h), "\n")
			if !strings.Contains(rows, "pgdn: ") || !strings.Contains(rows, "more lines") {
				t.Fatalf("the cut keys list does not say what is below:\n%s", h.Screen())
			}
			if f := footerLine(h); !strings.Contains(f, "pgdn/pgup scroll text") {
				t.Errorf("the footer does not name the scroll keys: %q", f)
			}
			all := keysSeen(h, "pgdown")
			for _, want := range []string{"down/j move down", "/ filter", "y copy entry", "q close", "esc close", "? keys"} {
				if !strings.Contains(all, want) {
					t.Errorf("pgdn does not reach %q:\n%s", want, h.Screen())
				}
			}
			if !strings.Contains(strings.Join(logRows(h), "\n"), "pgup: ") {
				t.Errorf("at the end the lines above are not said:\n%s", h.Screen())
			}
			h.Key("g")
			if r := logRows(h); !strings.Contains(r[0], "down/j") {
				t.Errorf("g does not go back to the first key:\n%s", h.Screen())
			}
			for _, k := range []string{"j", "G"} {
				h.Key("g")
				if !strings.Contains(keysSeen(h, k), "esc close") {
					t.Errorf("%s does not scroll the keys:\n%s", k, h.Screen())
				}
			}
			h.Key("esc")
			if !strings.Contains(strings.Join(logRows(h), "\n"), "first note") {
				t.Fatalf("esc on the keys does not go back to the entries:\n%s", h.Screen())
			}
		})
	}
}

// keysSeen presses k until the log's keys list stops moving and returns
// every line shown on the way, unboxed.
func keysSeen(h *harness, k string) string {
	seen := []string{unboxed(strings.Join(logRows(h), "\n"))}
	for range 20 {
		before := h.Screen()
		h.Key(k)
		if h.Screen() == before {
			break
		}
		seen = append(seen, unboxed(strings.Join(logRows(h), "\n")))
	}
	return strings.Join(seen, "\n")
}
