package tui

import (
	"strings"
	"testing"
)

// TestHelpListsEveryCommandAndScrolls: the help lists every ":" command
// (from the command line's own table), cuts no description at 80x24, and
// g/G go to its top and bottom.
func TestHelpListsEveryCommandAndScrolls(t *testing.T) {
	h, _, _ := demoHarness(t, 80, 24, nil)
	h.Key("?")
	h.Key("G")
	bottom := h.Screen()
	for _, c := range commands {
		if !strings.Contains(bottom, ":"+c.name) || !strings.Contains(bottom, c.desc) {
			t.Errorf("the help's end does not list :%s (%s):\n%s", c.name, c.desc, bottom)
		}
	}
	if strings.Contains(bottom, "Services\n") {
		t.Errorf("G did not scroll to the end:\n%s", bottom)
	}
	h.Key("g")
	if top := h.Screen(); !strings.Contains(top, "Services") || !strings.Contains(top, "enter  details") {
		t.Errorf("g did not go back to the top:\n%s", top)
	}
}
