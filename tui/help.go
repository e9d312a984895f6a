package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/kit"
)

type globalKeys struct {
	Screen1, Screen2, Screen3, Screen4 key.Binding
	Screen5                            key.Binding
	Next, Prev                         key.Binding
	Help, Command, Refresh, Back, Quit key.Binding
	// Log opens the message log; Dismiss removes the toast shown (an
	// error stays until then).
	Log, Dismiss key.Binding
	// Pause stops and resumes the automatic refresh (watches go on).
	Pause   key.Binding
	Suspend key.Binding
	// HelpView are the keys of the "?" overlay (not global: not listed)
	HelpView helpKeys
}

// helpKeys are the "?" overlay's bindings; its title and the footer are
// generated from them.
type helpKeys struct {
	Close key.Binding
	// Down's help ("j/k scroll") names Up too, PageDown's ("pgdn/pgup
	// page") PageUp; Up and PageUp have none of their own.
	Down, Up         key.Binding
	PageDown, PageUp key.Binding
	Top, Bottom      key.Binding
}

func defaultGlobalKeys() globalKeys {
	return globalKeys{
		Screen1: kit.Bind("1", "services"),
		Screen2: kit.Bind("2", "backups"),
		Screen3: kit.Bind("3", "restores"),
		Screen4: kit.Bind("4", "replication"),
		Screen5: kit.Bind("5", "settings"),
		Next:    kit.Bind("tab", "next screen"),
		Prev:    kit.Bind("shift+tab", "previous screen"),
		Help:    kit.Bind("?", "help"),
		Command: kit.Bind(":", "command"),
		Refresh: kit.Bind("r", "refresh"),
		Back:    kit.Bind("esc", "back"),
		Log:     kit.Bind("L", "message log"),
		Dismiss: kit.Bind("X", "dismiss message"),
		Pause:   kit.Bind("p", "pause/resume auto-refresh"),
		Quit:    kit.Bind("q", "quit", "ctrl+c"),
		// ctrl+z works everywhere, in a form field too (handleKey)
		Suspend: kit.Bind("ctrl+z", "suspend"),
		HelpView: helpKeys{
			Close:    kit.BindHelp("esc/?", "close help", "esc", "?", "q", "enter"),
			Down:     kit.BindHelp("j/k", "scroll", "j", "down"),
			Up:       key.NewBinding(key.WithKeys("k", "up")),
			PageDown: kit.BindHelp("pgdn/pgup", "page", "pgdown", "space", "ctrl+d"),
			PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u")),
			Top:      kit.BindHelp("g/G", "top/bottom", "g", "home"),
			Bottom:   key.NewBinding(key.WithKeys("G", "end")),
		},
	}
}

// updateHelp handles a key while the help is shown.
func (m *Model) updateHelp(msg tea.KeyPressMsg) {
	k := m.keys.HelpView
	switch {
	case key.Matches(msg, k.Close):
		m.showHelp = false
		m.helpOffset = 0
	case key.Matches(msg, k.Down), key.Matches(msg, k.Up), key.Matches(msg, k.PageDown), key.Matches(msg, k.PageUp):
		// a line with j/k, a page (less a line, kept for context) with pgdn/pgup
		_, rows, _, maxOff := m.helpLayout(m.width, m.bodyHeight())
		by := 1
		if key.Matches(msg, k.PageDown) || key.Matches(msg, k.PageUp) {
			by = max(1, rows-1)
		}
		if key.Matches(msg, k.Up) || key.Matches(msg, k.PageUp) {
			by = -by
		}
		m.helpOffset = max(0, min(m.helpOffset+by, maxOff))
	case key.Matches(msg, k.Top):
		m.helpOffset = 0
	case key.Matches(msg, k.Bottom):
		_, _, _, maxOff := m.helpLayout(m.width, m.bodyHeight())
		m.helpOffset = maxOff
	}
}

func (k globalKeys) list() []key.Binding {
	return []key.Binding{k.Screen1, k.Screen2, k.Screen3, k.Screen4, k.Screen5, k.Next, k.Prev,
		k.Help, k.Command, k.Refresh, k.Pause, k.Log, k.Dismiss, k.Back, k.Quit, k.Suspend}
}

// helpView is the full help, generated from the bindings themselves,
// scrolled to helpOffset.
func (m *Model) helpView(w, h int) string {
	th := m.common.Theme
	columns, rows, _, maxOff := m.helpLayout(w, h)
	colW := w / len(columns)
	off := min(m.helpOffset, maxOff)
	var out []string
	for r := off; r < off+rows; r++ {
		var row strings.Builder
		for c, col := range columns {
			cell := ""
			if r < len(col) {
				cell = ansi.Truncate(col[r], colW-1, "")
			}
			row.WriteString(cell)
			if c < len(columns)-1 {
				row.WriteString(strings.Repeat(" ", max(0, colW-ansi.StringWidth(cell))))
			}
		}
		out = append(out, strings.TrimRight(row.String(), " "))
	}
	k := m.keys.HelpView
	if maxOff > 0 {
		below := len(columns[0]) - off - rows
		out = append(out, th.Muted.Render("  "+kit.MoreLine(m.common, kit.Bind("j", ""), kit.Bind("k", ""), off, below)))
	}
	title := th.Bold.Render(" Help") + th.Muted.Render("  ("+strings.ReplaceAll(k.Close.Help().Key, "/", " or ")+" to close)")
	if maxOff > 0 {
		// the scroll keys that fit, whole (the footer names them too)
		for _, keys := range [][]key.Binding{{k.Down, k.PageDown, k.Top}, {k.Down, k.Top}, {k.Down}} {
			if hint := "  " + kit.HintLine(keys...); ansi.StringWidth(title+hint) <= w {
				title += th.Muted.Render(hint)
				break
			}
		}
	}
	return title + "\n\n" + strings.Join(out, "\n")
}

// commandKeys are the : commands as the help lists them.
func (m *Model) commandKeys() []key.Binding {
	var cmds []key.Binding
	for _, c := range commands {
		k := strings.TrimSpace(":" + c.name + " " + c.arg)
		desc := c.desc
		if c.change && m.common.ReadOnly {
			desc += " (read-only)"
		}
		cmds = append(cmds, kit.BindHelp(k, desc, ":"+c.name))
	}
	return cmds
}

// helpLayout lays the help out in w x h: the columns (lists of lines), the
// rows shown, and the furthest it can be scrolled. Groups (the screen's
// keys, Global, Commands) go into columns whole, as many columns as the
// width gives 38 cells each; when they do not all fit, the help is one
// column, the full width, its long descriptions wrapped under themselves
// (nothing cut), scrolled with j/k.
func (m *Model) helpLayout(w, h int) (columns [][]string, rows, cols, maxOff int) {
	th := m.common.Theme
	type group struct {
		title string
		keys  []key.Binding
	}
	var groups []group
	km := m.screen().KeyMap()
	for i, g := range km.FullHelp() {
		title := m.screen().Title()
		if k, ok := km.(kit.Keys); ok && k.Title != "" {
			title = k.Title // a pane's keys
		}
		if i > 0 {
			title = "" // continuation of the screen's keys
		}
		groups = append(groups, group{title, g})
	}
	if m.screen().CapturesKeys() {
		// a form or a wizard takes every key but these two: the others
		// (the screens' numbers, :, r, q…) are its own or typed there
		groups = append(groups, group{"Global (in a form, only these)", []key.Binding{kit.Bind("ctrl+c", "quit"), m.keys.Suspend}})
	} else {
		groups = append(groups, group{"Global", m.keys.list()}, group{"Commands", m.commandKeys()})
	}
	// blocks are the groups' lines, one block per group (its title and its
	// keys); a description longer than width wraps under itself (width 0:
	// no wrapping)
	blocksOf := func(width int) [][]string {
		seen := map[string]bool{}
		var blocks [][]string
		for _, g := range groups {
			kw := 0
			for _, b := range g.keys {
				kw = max(kw, ansi.StringWidth(b.Help().Key))
			}
			var gl []string
			for _, b := range g.keys {
				hk := b.Help()
				if hk.Key == "" || !b.Enabled() {
					continue
				}
				id := g.title + hk.Key + hk.Desc
				if seen[id] {
					continue
				}
				seen[id] = true
				lead := "  " + th.Key.Render(hk.Key) + strings.Repeat(" ", kw-ansi.StringWidth(hk.Key)+2)
				descAt := 2 + kw + 2
				desc := []string{hk.Desc}
				if width > 0 && descAt+ansi.StringWidth(hk.Desc) > width {
					if width-descAt < 16 {
						// no room beside the keys: the description under them
						descAt = 6
						gl = append(gl, strings.TrimRight(lead, " "))
						lead = strings.Repeat(" ", descAt)
					}
					desc = strings.Split(kit.Wrap(hk.Desc, width-descAt), "\n")
				}
				for i, d := range desc {
					if i > 0 {
						lead = strings.Repeat(" ", descAt)
					}
					gl = append(gl, lead+th.Desc.Render(d))
				}
			}
			if len(gl) == 0 {
				continue
			}
			if g.title != "" {
				gl = append([]string{th.Title.Render(g.title)}, gl...)
			}
			if g.title == "" && len(blocks) > 0 {
				// the screen's further keys stay with its first ones
				last := &blocks[len(blocks)-1]
				*last = append(append(*last, ""), gl...)
				continue
			}
			blocks = append(blocks, gl)
		}
		return blocks
	}
	blocks := blocksOf(0)
	rows = max(1, h-2)
	widestOf := func(blocks [][]string) int {
		widest := 0
		for _, b := range blocks {
			for _, l := range b {
				widest = max(widest, ansi.StringWidth(l))
			}
		}
		return widest
	}
	widest := widestOf(blocks)
	if widest+2 > w {
		// narrower than a line: the descriptions that would pass the edge
		// wrap under themselves, so nothing is cut
		blocks = blocksOf(w - 2)
		widest = widestOf(blocks)
	}
	cols = max(1, min(w/38, w/(widest+2))) // no line cut in a column
	// whole groups into columns, a blank line between groups
	columns = [][]string{nil}
	for _, b := range blocks {
		c := &columns[len(columns)-1]
		need := len(b)
		if len(*c) > 0 {
			need++
		}
		if len(*c)+need > rows && len(*c) > 0 {
			columns = append(columns, nil)
			c = &columns[len(columns)-1]
		}
		if len(*c) > 0 {
			*c = append(*c, "")
		}
		*c = append(*c, b...)
	}
	fits := len(columns) <= cols
	for _, c := range columns {
		fits = fits && len(c) <= rows
	}
	if fits {
		return columns, rows, len(columns), 0
	}
	var one []string
	for i, b := range blocks {
		if i > 0 {
			one = append(one, "")
		}
		one = append(one, b...)
	}
	rows = max(1, rows-1) // the last line says what is below and above
	return [][]string{one}, rows, 1, max(0, len(one)-rows)
}
