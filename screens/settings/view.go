package settings

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/kit"
)

// The screen's view: the text above the list (the profile, the config's
// warnings, where secrets are kept), then the list.

// View implements kit.Screen: the text above, cut to what the list
// leaves, then the list; or the form, whose step, when its fields do not
// all fit, gives the blank line under the heading to a last line naming
// the fields below and above (kit.FormCut).
func (s *Screen) View() string {
	th := s.common.Theme
	if s.form != nil {
		head := ansi.Truncate(th.Bold.Render(" Add a bucket credential"), s.width, th.Glyphs.Ellipsis)
		form := kit.FormView(s.common, s.form, s.formHeight())
		if mark := kit.FormCut(s.common, s.form, s.groups, s.fields, form, s.keys.FormNext, s.keys.FormPrev, s.width); mark != "" {
			return head + "\n" + form + "\n" + mark
		}
		return head + "\n\n" + form
	}
	lines := s.head()
	if off, keep, cut := kit.TextWindow(len(lines), s.headRoom(), s.headOff); cut {
		above, below := off, len(lines)-off-keep
		lines = lines[off : off+keep]
		if s.headRoom() > 0 {
			lines = append(lines, ansi.Truncate(th.Muted.Render("   "+s.moreText(above, below)), s.width, th.Glyphs.Ellipsis))
		}
	}
	more := s.Table.MoreRows("entry", "entries")
	switch {
	case more == "":
		lines = append(lines, s.ListView.View("", s.listHint()))
	case s.DetailShown():
		lines = append(lines, s.StatusLine("", s.listHint()), s.splitView(s.moreLine(more)))
	default:
		lines = append(lines, s.ListView.View("", s.listHint()), s.moreLine(more))
	}
	return strings.Join(lines, "\n")
}

// moreLine is the line under a cut list (kit.Table.MoreRows).
func (s *Screen) moreLine(more string) string {
	th := s.common.Theme
	return ansi.Truncate(th.Muted.Render("  "+more), s.tableWidth(), th.Glyphs.Ellipsis)
}

// tableWidth is the list's width: the screen's, but beside the pane
// (kit.LayoutSplit) its share.
func (s *Screen) tableWidth() int { return kit.SplitTableWidth(s.width, s.DetailShown()) }

// splitView is the list with its pane open, with the line saying what is
// cut under the rows (layout kept it a line).
func (s *Screen) splitView(more string) string {
	return kit.ViewSplitUnder(s.common.Theme, s.Table, s.Detail, true, s.width, more)
}

// listTitle is the title of the list's status line.
const listTitle = "Bucket credentials and encryption keys"

// listHints are the forms of the note after the list's title and count,
// longest first (a and d are in the footer too).
var listHints = []string{"(never shown; a to add, d to remove)", "(never shown)"}

// staleNote is what kit.ListView.StatusLine adds at the end of the line
// when the data is stale; measured here so that it is not the part cut.
const staleNote = "showing last data"

// listHint is the longest form of the hint that the status line has room
// for whole, beside the title, the count (a filter's "0 of 4") and the
// stale note; none when even the shortest does not fit (it was cut:
// "(never shown; a to add, d to re~").
func (s *Screen) listHint() string {
	used := ansi.StringWidth(" "+listTitle) + 1 + ansi.StringWidth(s.CountText())
	if s.Stale() {
		used += 2 + ansi.StringWidth(staleNote)
	}
	for _, h := range listHints {
		if used+2+ansi.StringWidth(h) <= s.width {
			return s.common.Theme.Muted.Render(h)
		}
	}
	return ""
}

// moreText is the line under the cut text above the list: how much is
// above and below, and the keys that scroll it.
func (s *Screen) moreText(above, below int) string {
	l := s.ListView.Keys
	if s.DetailShown() { // the keys scroll the details now
		return fmt.Sprintf("%s %s: esc closes the details, then %s shows them", s.common.Theme.Glyphs.Ellipsis,
			kit.Count(above+below, "more line", "more lines"), l.ScrollDown.Help().Key)
	}
	return kit.MoreLine(s.common, l.ScrollDown, l.ScrollUp, above, below)
}

// head is the text above the list: the profile, the config's warnings,
// where secrets are kept, and why the last credential was not stored.
// Long values wrap under their start (a backend's reason, the key's
// source, a warning), so nothing is cut; the text scrolls when it is
// taller than its room.
func (s *Screen) head() []string {
	th := s.common.Theme
	w := s.width
	var lines []string
	add := func(l string) { lines = append(lines, ansi.Truncate(l, w, th.Glyphs.Ellipsis)) }
	plain := func(t ...string) string { return strings.Join(t, "") }
	// para adds text wrapped after first (the next lines indented as far),
	// each line in style
	para := func(first, text string, style func(...string) string) {
		indent := ansi.StringWidth(first)
		for i, l := range strings.Split(kit.Wrap(text, max(10, w-indent), " /"), "\n") {
			if i == 0 {
				add(first + style(l))
			} else {
				add(strings.Repeat(" ", indent) + style(l))
			}
		}
	}
	fieldStyled := func(k, v string, style func(...string) string) {
		para("   "+th.Muted.Render(fmt.Sprintf("%-14s", k)), v, style)
	}
	field := func(k, v string) { fieldStyled(k, v, plain) }
	// titled is a bold title and a muted note after it, the note on the
	// next line when both do not fit
	titled := func(title, note string) {
		if ansi.StringWidth(title+note) <= w {
			add(th.Bold.Render(title) + th.Muted.Render(note))
			return
		}
		add(th.Bold.Render(title))
		para("   ", strings.TrimSpace(note), th.Muted.Render)
	}

	add(th.Bold.Render(" Profile"))
	field("name", s.common.Profile)
	if c := s.common.Client; c != nil {
		field("endpoint", c.BaseURL())
		if c.Org() != "" {
			field("org", c.Org())
		}
	}
	if s.common.ReadOnly {
		fieldStyled("read-only", "yes: every change to the account is refused", th.Warn.Render)
	} else {
		field("read-only", "no")
	}
	if s.common.Demo {
		field("demo", "yes: an embedded sandbox, no account")
	}
	if ws := s.configWarnings; len(ws) > 0 {
		add("")
		titled(" Config warnings", "  (ignored by skytui: fix the file, then restart)")
		for i, cw := range ws {
			if i == maxConfigWarnings {
				para("   ", fmt.Sprintf("+%d more: `skytui auth status` prints them all", len(ws)-i), th.Muted.Render)
				break
			}
			// wrapped, not cut: the suggestion is at the end
			for j, l := range strings.Split(kit.Wrap(cw, max(20, w-5), " /"), "\n") {
				mark := "     "
				if j == 0 {
					mark = "   " + th.Warn.Render("!") + " "
				}
				add(mark + l)
			}
		}
	}
	add("")
	add(th.Bold.Render(" Secrets"))
	switch {
	case s.loaded == nil:
		add("   reading the keystore" + th.Glyphs.Ellipsis)
	default:
		l := s.loaded
		if l.label != "" {
			field("kept in", l.label)
		}
		field("API key", l.keyInfo)
		if l.keyNote != "" {
			field("", l.keyNote)
		}
		for _, b := range l.backends {
			state, style := "usable", th.OK.Render
			if !b.Usable {
				state, style = "unusable: "+b.Reason, th.Muted.Render
			} else if b.ReadOnly {
				state = "usable, read-only"
			}
			if b.Note != "" {
				state += "; " + b.Note
			}
			mark := "  "
			if b.Selected {
				mark = th.Accent.Render("* ")
			}
			first := "     " + mark + fmt.Sprintf("%-8s ", b.Name)
			if text := b.Label + " " + th.Glyphs.Dash + " " + state; ansi.StringWidth(first+text) > w {
				// wrapped, the reason with it: one style for the lines
				para(first, text, style)
				continue
			}
			add(first + b.Label + " " + th.Glyphs.Dash + " " + style(state))
		}
		if l.err != nil {
			para("   ", l.err.Error(), th.Error.Render)
		}
	}
	add("")
	if s.lastErr != "" {
		para("   ", "! "+s.lastErr, th.Error.Render)
		para("   ", "(a reopens the form with what you typed)", th.Muted.Render)
	}
	return lines
}
