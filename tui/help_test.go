package tui

import (
	"fmt"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
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

// TestHelpWrapsAtSixtyColumns: at 60x16, on every screen, scrolled from
// top to bottom, no line of the help is wider than the terminal and every
// description is whole: a long one wraps under itself (":start <service>
// start a stopped service (confirmed)", not "(confirme").
func TestHelpWrapsAtSixtyColumns(t *testing.T) {
	h, _, _ := demoHarness(t, 60, 16, nil)
	for i := range 5 {
		h.Key(fmt.Sprint(i + 1))
		h.Key("?")
		// the help's lines by their place in it, as the screen shows them
		// while j scrolls to the end
		seen := map[int]string{}
		for {
			screen := strings.Split(h.Screen(), "\n")
			for _, l := range screen {
				if w := ansi.StringWidth(l); w > 60 {
					t.Fatalf("screen %d: a line %d wide: %q", i+1, w, l)
				}
			}
			for r, l := range screen[4 : len(screen)-2] {
				seen[h.m.helpOffset+r] = l
			}
			before := h.m.helpOffset
			h.Key("j")
			if h.m.helpOffset == before {
				break
			}
		}
		// a line under a description continues it
		var entries []string
		for r := 0; r < len(seen); r++ {
			l := strings.TrimRight(seen[r], " ")
			if strings.HasPrefix(l, "      ") && len(entries) > 0 {
				entries[len(entries)-1] += " " + strings.TrimSpace(l)
				continue
			}
			entries = append(entries, strings.Join(strings.Fields(l), " "))
		}
		text := strings.Join(entries, "\n")
		var want []string
		for _, c := range commands {
			want = append(want, strings.TrimSpace(":"+c.name+" "+c.arg)+" "+c.desc)
		}
		for _, b := range append(h.m.keys.list(), flatten(h.m.screen().KeyMap().FullHelp())...) {
			if hk := b.Help(); hk.Key != "" && b.Enabled() {
				want = append(want, hk.Key+" "+hk.Desc)
			}
		}
		for _, w := range want {
			if !strings.Contains(text, w) {
				t.Errorf("screen %d: %q not whole in the help:\n%s", i+1, w, text)
			}
		}
		h.Key("esc")
	}
}

func flatten(groups [][]key.Binding) []key.Binding {
	var out []key.Binding
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// TestHelpScrollsByLineAndByPage: j/k move the help one line, pgdn/pgup a
// page less a line (kept for context), never past either end.
func TestHelpScrollsByLineAndByPage(t *testing.T) {
	h, _, _ := demoHarness(t, 60, 16, nil)
	h.Key("?")
	_, rows, _, maxOff := h.m.helpLayout(h.m.width, h.m.bodyHeight())
	if maxOff < rows {
		t.Fatalf("the help fits in %d rows (scrolls %d): nothing to page", rows, maxOff)
	}
	for _, step := range []struct {
		key  string
		want int
	}{{"j", 1}, {"down", 2}, {"k", 1}, {"pgdown", rows}, {"pgup", 1}, {"k", 0}, {"k", 0}, {"G", maxOff}, {"space", maxOff}} {
		h.Key(step.key)
		if h.m.helpOffset != step.want {
			t.Fatalf("after %s the help is scrolled %d lines, want %d", step.key, h.m.helpOffset, step.want)
		}
	}
	if !strings.Contains(h.Screen(), "pgdn/pgup page") {
		t.Errorf("the footer does not name the page keys:\n%s", h.Screen())
	}
	// at 60 columns the title names the keys that fit, each whole
	title := strings.Split(h.Screen(), "\n")[2]
	if strings.Contains(title, "g/G") != strings.Contains(title, "g/G top/bottom") ||
		strings.Contains(title, "pgdn") != strings.Contains(title, "pgdn/pgup page") {
		t.Errorf("the help's title cuts a key's hint: %q", title)
	}
}

// TestHelpMarksChangeCommandsReadOnly: on a read-only profile the help
// marks the ":" commands that change the account, as it marks the keys.
func TestHelpMarksChangeCommandsReadOnly(t *testing.T) {
	h, _, _ := demoHarness(t, 140, 40, func(o *Options) { o.ReadOnly = true })
	h.Key("?")
	h.Key("G")
	screen := h.Screen()
	for _, c := range commands {
		marked := strings.Contains(screen, c.desc+" (read-only)")
		if marked != c.change {
			t.Errorf(":%s marked read-only: %v, want %v:\n%s", c.name, marked, c.change, screen)
		}
	}
}

// TestHelpTitlesAPanesKeys: the help of a pane open on a screen (the
// allow list, the credentials) is headed by the pane's name, not the
// screen's.
func TestHelpTitlesAPanesKeys(t *testing.T) {
	for key, title := range map[string]string{"a": "Allow list", "c": "Credentials"} {
		h, _, _ := demoHarness(t, 140, 40, nil)
		h.Key(key)
		h.Key("?")
		lines := strings.Split(h.Screen(), "\n")
		if len(lines) < 5 || strings.TrimSpace(lines[4]) != title && !strings.HasPrefix(strings.TrimSpace(lines[4]), title+" ") {
			t.Errorf("%s: the help's first group is not %q:\n%s", key, title, h.Screen())
		}
	}
}

// TestHelpInTheRestoreWizardsChoices: on the restore wizard's first step
// (Restores, n: no field has the focus, the wizard takes every key for
// its 1-4) ? lists the step's keys, the footer offers it, and esc closes
// the help back onto the step; on a step where a name is typed ? is
// typed.
func TestHelpInTheRestoreWizardsChoices(t *testing.T) {
	h, _, _ := demoHarness(t, 60, 16, nil)
	h.Key("3")
	h.Key("n")
	h.sees(t, "New restore 1/4", "n did not open the wizard")
	if foot := footer(h.Screen()); !strings.Contains(foot, "? help") {
		t.Errorf("the footer does not offer ?: %q", foot)
	}
	h.Key("?")
	if !h.m.showHelp || !strings.Contains(h.Screen(), "1-4") || !strings.Contains(h.Screen(), "choose") {
		t.Fatalf("? on the first step did not list its keys:\n%s", h.Screen())
	}
	// what works here: ctrl+x leaves (from any step); of the global keys
	// only ctrl+c and ctrl+z (1-4 choose here, : is not the command line)
	h.Key("G")
	all := h.m.helpText()
	for _, want := range []string{"ctrl+x", "Global (in a form, only these)", "ctrl+c", "ctrl+z"} {
		if !strings.Contains(all, want) {
			t.Errorf("the wizard's help lacks %q:\n%s", want, all)
		}
	}
	for _, not := range []string{"5 settings", ":services", "r refresh"} {
		if strings.Contains(all, not) {
			t.Errorf("the wizard's help lists %q, which does not work there:\n%s", not, all)
		}
	}
	h.Key("esc")
	h.sees(t, "New restore 1/4", "esc did not close the help onto the step")
	h.Key("enter") // managed storage: the target list, where a name is typed
	h.Key("?")
	if h.m.showHelp {
		t.Fatalf("? in the target list opened the help instead of filtering:\n%s", h.Screen())
	}
}

// helpText is the whole help, every column, unstyled and unscrolled, as
// one text of "key  description" lines.
func (m *Model) helpText() string {
	columns, _, _, _ := m.helpLayout(200, 1000)
	var lines []string
	for _, c := range columns {
		for _, l := range c {
			lines = append(lines, strings.Join(strings.Fields(ansi.Strip(l)), " "))
		}
	}
	return strings.Join(lines, "\n")
}
