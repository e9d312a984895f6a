package kit

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// A text taller than its room scrolls the same way wherever it is (the
// restore confirmation's explanation, the replication wizard's step, the
// text above Settings' list): room-1 lines of it from the first line
// shown, then one line saying how much is below and above and which keys
// scroll there. TextWindow places the window, MoreLine words that line.

// TextWindow is where a text of n lines shows in room lines when the
// first line asked for is top: from first, rows lines, and cut when it
// does not fit (then one line of the room is MoreLine's). top is kept
// within the text, so the last line can always be reached and no scroll
// shows emptiness.
func TextWindow(n, room, top int) (first, rows int, cut bool) {
	if n <= room {
		return 0, n, false
	}
	rows = max(0, room-1)
	return max(0, min(top, n-rows)), rows, true
}

// PageTop is the top line after a page of scroll from the window first,
// rows lines of a text of n lines: dir 1 down, -1 up, by the window less
// a line (kept for context), held within the text.
func PageTop(first, rows, n, dir int) int {
	return max(0, min(first+dir*max(1, rows-1), n-rows))
}

// ReviewKeys scroll a review's request when it does not fit (the new
// service's, the new backup's): J and K, as the detail pane, with the
// page and arrow keys, since a review has no list to move in.
var ReviewKeys = struct{ More, Less key.Binding }{
	More: BindHelp("J", "scroll down", "J", "ctrl+d", "pgdown", "down"),
	Less: BindHelp("K", "scroll up", "K", "ctrl+u", "pgup", "up"),
}

// MoreLine says what a cut text has below and above its window and the
// keys that show it: "~ pgdn: 4 more lines, pgup: 3 lines above".
func MoreLine(c *Common, down, up key.Binding, above, below int) string {
	var more []string
	if below > 0 {
		more = append(more, down.Help().Key+": "+Count(below, "more line", "more lines"))
	}
	if above > 0 {
		more = append(more, up.Help().Key+": "+Count(above, "line", "lines")+" above")
	}
	return c.Theme.Glyphs.Ellipsis + " " + strings.Join(more, ", ")
}

// ScrollHelp is the one footer entry of a pair of scroll keys: "pgdn/pgup
// scroll text", matching either.
func ScrollHelp(down, up key.Binding) key.Binding {
	return BindHelp(down.Help().Key+"/"+up.Help().Key, "scroll text", append(down.Keys()[:len(down.Keys()):len(down.Keys())], up.Keys()...)...)
}

// ScrollDir is which way a key scrolls: 1 for down, -1 for up, 0 when it
// is neither.
func ScrollDir(msg tea.KeyPressMsg, down, up key.Binding) int {
	switch {
	case key.Matches(msg, down):
		return 1
	case key.Matches(msg, up):
		return -1
	}
	return 0
}
