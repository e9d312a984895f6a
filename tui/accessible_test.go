package tui

import (
	"strings"
	"testing"
)

// TestAccessibleDrawsNoLines: --accessible keeps the layout but draws no
// box or rule (a screen reader would read a line of dashes or bars): no
// dialog border, no separator between the list and its pane, stacked or
// side by side; the normal UI draws them.
func TestAccessibleDrawsNoLines(t *testing.T) {
	lines := func(frame string) (n int) {
		for _, l := range strings.Split(frame, "\n") {
			if strings.Contains(l, "+-----") || strings.Contains(l, "-----") || strings.Contains(l, " | ") {
				n++
			}
		}
		return n
	}
	for _, size := range [][2]int{{80, 24}, {140, 40}} {
		for _, accessible := range []bool{false, true} {
			h, _, _ := demoHarness(t, size[0], size[1], func(o *Options) { o.Accessible = accessible })
			h.Key("enter") // the detail pane: under the list at 80, beside it at 140
			pane := h.Screen()
			h.Key("esc")
			h.Key("x") // stop/start asks yes/no in a dialog
			dialog := h.Screen()
			if !strings.Contains(pane, "Topology") || !strings.Contains(dialog, "[ No ]") {
				t.Fatalf("%dx%d: no pane or no dialog:\n%s\n%s", size[0], size[1], pane, dialog)
			}
			n := lines(pane) + lines(dialog)
			if accessible && n > 0 {
				t.Errorf("%dx%d accessible: %d lines drawn:\n%s\n%s", size[0], size[1], n, pane, dialog)
			}
			if !accessible && n == 0 {
				t.Errorf("%dx%d: the normal UI draws no separator or border:\n%s\n%s", size[0], size[1], pane, dialog)
			}
		}
	}
}
