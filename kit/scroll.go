package kit

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
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
	return MoreOf(c, down, up, above, below, "line", "lines")
}

// MoreOf is MoreLine for a cut list of things called one and many: "~
// down/j: 5 more services, up/k: 2 services above".
func MoreOf(c *Common, down, up key.Binding, above, below int, one, many string) string {
	var more []string
	if below > 0 {
		more = append(more, down.Help().Key+": "+Count(below, "more "+one, "more "+many))
	}
	if above > 0 {
		more = append(more, up.Help().Key+": "+Count(above, one, many)+" above")
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

// Review is a request shown before it is sent (the new service's, the new
// backup's): Head stays on top, Tail at the bottom, and Body, the request,
// scrolls between them with ReviewKeys when the area is too short. A
// review keeps only the first line shown (its top); the rest follows from
// the area.
type Review struct {
	Head, Body, Tail []string
}

// ReviewMinRows is the fewest lines of the request (with the line saying
// what is below) that what is said of it leaves on screen, or it scrolls
// with the request.
const ReviewMinRows = 5

// NewReview lays a review out in h lines: head, then the request. What is
// said of the request (notes: a warning, a refusal, each line whole) stays
// in place, above the request or, below, under it after a blank line,
// while it leaves the request ReviewMinRows lines; otherwise it scrolls
// with the request, above it, so a refusal is the first thing seen.
func NewReview(h int, head, notes, request []string, below bool) Review {
	fits := len(head)+len(notes)+1+min(len(request), ReviewMinRows) <= h
	switch {
	case fits && below:
		return Review{Head: head, Body: request, Tail: append([]string{""}, notes...)}
	case fits:
		return Review{Head: append(append(slices.Clip(head), notes...), ""), Body: request}
	}
	body := request
	if len(notes) > 0 {
		body = append(append(slices.Clip(notes), ""), request...)
	}
	if below {
		return Review{Head: head, Body: body, Tail: []string{""}}
	}
	return Review{Head: append(slices.Clip(head), ""), Body: body}
}

// Window is which lines of the request show in h lines from top: from
// first, rows of them, and whether it is cut (one more line then says what
// is above and below).
func (r Review) Window(h, top int) (first, rows int, cut bool) {
	return TextWindow(len(r.Body), h-len(r.Head)-len(r.Tail), top)
}

// Scroll is the top after a page of scroll (dir 1 down, -1 up).
func (r Review) Scroll(h, top, dir int) int {
	first, rows, cut := r.Window(h, top)
	if !cut {
		return top
	}
	return PageTop(first, rows, len(r.Body), dir)
}

// End is the top that shows the request's last line, and whether the
// window at top hides it (then a submit shows it first).
func (r Review) End(h, top int) (endTop int, hidden bool) {
	first, rows, cut := r.Window(h, top)
	return len(r.Body) - rows, cut && rows > 0 && first+rows < len(r.Body)
}

// View draws the review in w×h from top.
func (r Review) View(c *Common, w, h, top int) string {
	th := c.Theme
	first, rows, cut := r.Window(h, top)
	lines := slices.Clone(r.Head)
	if cut {
		lines = append(lines, r.Body[first:first+rows]...)
		if h-len(r.Head)-len(r.Tail) > 0 {
			more := MoreLine(c, ReviewKeys.More, ReviewKeys.Less, first, len(r.Body)-first-rows)
			lines = append(lines, th.Muted.Render("   "+more))
		}
	} else {
		lines = append(lines, r.Body...)
	}
	lines = append(lines, r.Tail...)
	if h > 0 && len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, th.Glyphs.Ellipsis)
	}
	return strings.Join(lines, "\n")
}
