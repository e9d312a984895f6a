package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/skytui/skytui/tui/tuitest"
)

// at is where text is drawn on the screen (the last line showing it).
func (h *harness) at(text string) (x, y int) {
	h.T.Helper()
	y = -1
	for i, l := range strings.Split(h.Screen(), "\n") {
		if j := strings.Index(l, text); j >= 0 {
			x, y = ansi.StringWidth(l[:j]), i
		}
	}
	if y < 0 {
		h.T.Fatalf("%q is not on the screen:\n%s", text, h.Screen())
	}
	return x, y
}

// click clicks the middle of text.
func (h *harness) click(text string) {
	h.T.Helper()
	x, y := h.at(text)
	h.Send(tea.MouseClickMsg{X: x + len(text)/2, Y: y, Button: tea.MouseLeft})
	h.Send(tea.MouseReleaseMsg{X: x + len(text)/2, Y: y, Button: tea.MouseLeft})
}

func (h *harness) wheel(text string, down bool) {
	h.T.Helper()
	x, y := h.at(text)
	b := tea.MouseWheelUp
	if down {
		b = tea.MouseWheelDown
	}
	h.Send(tea.MouseWheelMsg{X: x, Y: y, Button: b})
}

// selectedLine is the table line under the cursor.
func (h *harness) selectedLine() string {
	for _, l := range strings.Split(h.Screen(), "\n") {
		if strings.HasPrefix(l, "> ") {
			return l
		}
	}
	return ""
}

// TestMouseTabsRowsAndFooter: a click on a tab shows its screen, on a row
// selects it, on the selected row opens its details (enter); the wheel
// moves the selection; a click on a key in the footer presses it.
func TestMouseTabsRowsAndFooter(t *testing.T) {
	h, _, _ := demoHarness(t, 80, 24, nil)
	if v := h.m.View(); v.MouseMode != tea.MouseModeCellMotion {
		t.Fatalf("mouse mode %v, want cell motion", v.MouseMode)
	}
	h.click("2 Backups")
	h.sees(t, "Backups of", "a click on the Backups tab did not show it")
	h.click("1 Services")
	h.sees(t, "sort:", "a click on the Services tab did not show it")

	h.click("staging-eu")
	if l := h.selectedLine(); !strings.Contains(l, "staging-eu") {
		t.Fatalf("a click on staging-eu selected %q", l)
	}
	if h.m.screen().(interface{ DetailShown() bool }).DetailShown() {
		t.Fatal("the first click opened the details")
	}
	h.click("staging-eu")
	if !h.m.screen().(interface{ DetailShown() bool }).DetailShown() {
		t.Fatalf("a click on the selected row did not open its details:\n%s", h.Screen())
	}
	h.Key("esc")
	before := h.selectedLine()
	h.wheel("staging-eu", false)
	if after := h.selectedLine(); after == before {
		t.Fatalf("the wheel did not move the selection from %q", before)
	}
	h.wheel("staging-eu", true)
	if after := h.selectedLine(); after != before {
		t.Fatalf("wheel up then down: %q, want %q", after, before)
	}

	h.click("? help")
	h.sees(t, "Help  (esc or ? to close)", "a click on \"? help\" in the footer did not open the help")
	h.click("esc/? close help")
	if h.m.showHelp {
		t.Fatal("a click on \"esc/? close help\" did not close the help")
	}
}

// TestMouseDialogs: in a confirmation a click on [ No ] answers no and
// sends nothing; in a picker a click selects a row and a second chooses
// it.
func TestMouseDialogs(t *testing.T) {
	h, srv, _ := demoHarness(t, 100, 30, nil)
	before := tuitest.Changes(srv)
	h.runCompleted("stop replica-w", "stop replica-west")
	h.sees(t, "Stop service?", "no stop confirmation")
	h.click("[ No ]")
	if len(h.m.dialogs) != 0 || tuitest.Changes(srv) != before {
		t.Fatalf("a click on [ No ] did not close the confirmation without sending (dialogs %d):\n%s", len(h.m.dialogs), h.Screen())
	}
	h.runCompleted("stop replica-w", "stop replica-west")
	h.click("[ Yes ]")
	if n := srv.Stats().Count("POST", "/provisioning/v1/services/{id}/stop"); n != 1 {
		t.Fatalf("a click on [ Yes ]: %d stops sent, want 1", n)
	}

	h.Key("2")
	h.Key("f")
	h.sees(t, "Backups of which service?", "f did not open the picker")
	h.click("dbtzf28096722") // staging-eu's row
	if !strings.Contains(h.Screen(), "Backups of which service?") {
		t.Fatal("the first click in the picker chose")
	}
	h.click("dbtzf28096722")
	h.sees(t, "Backups of staging-eu", "a second click did not choose staging-eu")
}

// TestNoMouse: --no-mouse (and --accessible) leave the mouse to the
// terminal: no mouse mode, and a click does nothing.
func TestNoMouse(t *testing.T) {
	for name, tweak := range map[string]func(*Options){
		"no-mouse":   func(o *Options) { o.NoMouse = true },
		"accessible": func(o *Options) { o.Accessible = true },
	} {
		t.Run(name, func(t *testing.T) {
			h, _, _ := demoHarness(t, 80, 24, tweak)
			if v := h.m.View(); v.MouseMode != tea.MouseModeNone {
				t.Fatalf("mouse mode %v, want none", v.MouseMode)
			}
			h.click("2 Backups")
			if strings.Contains(h.Screen(), "Backups of") {
				t.Fatal("a click changed the screen")
			}
		})
	}
}
