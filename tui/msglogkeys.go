package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/kit"
)

// keyLines are the lines of the log's ? list: listBindings, the ones
// Update matches, each once.
func (d *logDialog) keyLines() []string {
	th := d.common.Theme
	inner := d.inner()
	bs := d.listBindings()
	kw := 0
	for _, b := range bs {
		kw = max(kw, ansi.StringWidth(b.Help().Key))
	}
	var lines []string
	seen := map[string]bool{}
	for _, b := range bs {
		h := b.Help()
		if !b.Enabled() || h.Key == "" || seen[h.Key+h.Desc] {
			continue
		}
		seen[h.Key+h.Desc] = true
		line := "  " + th.Key.Render(h.Key) + strings.Repeat(" ", kw-ansi.StringWidth(h.Key)+2) + th.Desc.Render(h.Desc)
		lines = append(lines, ansi.Truncate(line, inner, th.Glyphs.Ellipsis))
	}
	return lines
}

// keysRoom is how many lines the ? list has: the box's borders, its title
// line and its last line take four.
func (d *logDialog) keysRoom() int { return max(1, d.height-4) }

// keysWindow is which of the ? list's lines show (kit.TextWindow): when
// it is cut, one line of the room says what is below and above.
func (d *logDialog) keysWindow() (first, rows int, cut bool) {
	return kit.TextWindow(len(d.keyLines()), d.keysRoom(), d.keysTop)
}

// keysScrollHelp is the ? list's scroll keys as the footer names them.
func (d *logDialog) keysScrollHelp() key.Binding {
	return kit.ScrollHelp(d.keys.PageDown, d.keys.PageUp)
}

// keysBindings are the keys the ? list answers: back to the log, and
// while it is cut the log's movement keys, which scroll it. The footer
// shows the first two (keysFooter).
func (d *logDialog) keysBindings() []key.Binding {
	k := d.keys
	if _, _, cut := d.keysWindow(); !cut {
		return []key.Binding{k.HelpBack}
	}
	return []key.Binding{k.HelpBack, d.keysScrollHelp(), k.Down, k.Up, k.Top, k.Bottom}
}

// keysFooter is what the footer says of the ? list's keys: the way back
// and, while it is cut, the keys that scroll it.
func (d *logDialog) keysFooter() []key.Binding {
	return d.keysBindings()[:min(2, len(d.keysBindings()))]
}

// keysKey is a key given to the ? list: esc or ? goes back to the
// entries; when the list is cut j/k scroll it a line, pgdn/pgup a page,
// g/G to its ends.
func (d *logDialog) keysKey(msg tea.KeyPressMsg) {
	k := d.keys
	if key.Matches(msg, k.HelpBack) {
		d.keysShown = false
		return
	}
	first, rows, cut := d.keysWindow()
	if !cut {
		return
	}
	n := len(d.keyLines())
	switch {
	case key.Matches(msg, k.Down):
		d.keysLine(1)
	case key.Matches(msg, k.Up):
		d.keysLine(-1)
	case key.Matches(msg, k.PageDown):
		d.keysTop = kit.PageTop(first, rows, n, 1)
	case key.Matches(msg, k.PageUp):
		d.keysTop = kit.PageTop(first, rows, n, -1)
	case key.Matches(msg, k.Top):
		d.keysTop = 0
	case key.Matches(msg, k.Bottom):
		d.keysTop = n - rows
	}
}

// keysLine scrolls the ? list a line (dir 1 down, -1 up) when it is cut.
func (d *logDialog) keysLine(dir int) {
	if first, rows, cut := d.keysWindow(); cut {
		d.keysTop = max(0, min(first+dir, len(d.keyLines())-rows))
	}
}

// keysView is the log's box while ? lists its keys in the entries' place,
// scrolled when they do not fit (with a line saying what is below and
// above), the way back on its last line.
func (d *logDialog) keysView() string {
	th := d.common.Theme
	inner := d.inner()
	body := []string{ansi.Truncate(th.Title.Render("Message log")+"  "+th.Muted.Render("keys"), inner, th.Glyphs.Ellipsis)}
	lines := d.keyLines()
	first, rows, cut := d.keysWindow()
	body = append(body, lines[first:first+rows]...)
	if cut {
		more := kit.MoreLine(d.common, d.keys.PageDown, d.keys.PageUp, first, len(lines)-first-rows)
		body = append(body, th.Muted.Render(ansi.Truncate(more, inner, th.Glyphs.Ellipsis)))
	}
	for len(body) < d.height-3 {
		body = append(body, "")
	}
	body = append(body, th.Muted.Render(ansi.Truncate(kit.HintLine(d.keys.HelpBack), inner, th.Glyphs.Ellipsis)))
	return kit.Box(th, "", strings.Join(body, "\n"), d.width)
}
