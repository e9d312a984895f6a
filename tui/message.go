package tui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/kit"
)

// messageView is the message line: the command line, or the toast in
// front. An error that does not fit wraps onto up to errorLines lines
// (the lines above the message line cover the bottom of the body), so its
// status, message and trace ID are read where they appear; the rest is in
// the message log (L). While a field has the keys (a form, a filter) the
// error keeps to its one line, so it never covers what is being typed, and
// its hint says the keys work once out of the field (there they type).
func (m *Model) messageView(w int) []string {
	th := m.common.Theme
	if m.cmdline.active {
		return []string{m.cmdline.view(m, w)}
	}
	n := len(m.toasts)
	if n == 0 {
		return []string{""}
	}
	t := m.toasts[n-1]
	st := th.Base
	prefix := ""
	switch t.level {
	case kit.ToastSuccess:
		st, prefix = th.OK, th.Glyphs.Check+" "
	case kit.ToastWarn:
		st, prefix = th.Warn, "! "
	case kit.ToastError:
		st, prefix = th.Error, "error: "
	}
	// The start of a long text, then how to read it whole: an error
	// always says how to dismiss it and where it is whole.
	text := prefix + t.text
	tail, hint := "", ""
	if k := m.waitingToasts(); k > 0 {
		tail = fmt.Sprintf("  (+%d)", k)
	}
	lk, xk := m.keys.Log.Help().Key, m.keys.Dismiss.Help().Key
	// a field or a dialog in front has the keys: there L and X are
	// typed or the dialog's, so the hint says where they work
	typing := m.screen().CapturesKeys() || len(m.dialogs) > 0
	if t.level == kit.ToastError && typing {
		out, short := "out of the field: ", " out of the field"
		if len(m.dialogs) > 0 {
			out, short = "once the dialog is closed: ", " once closed"
		}
		hint = "  (" + out + lk + " log, " + xk + " dismiss)"
		if w-1-ansi.StringWidth(tail)-ansi.StringWidth(hint) < w/2 {
			// the error's own words first: the hint in short
			hint = "  (" + lk + "/" + xk + short + ")"
		}
	}
	if t.level == kit.ToastError && !typing {
		hint = "  (" + lk + " log, " + xk + " dismiss)"
		room := w - 1
		last := ansi.StringWidth(tail) + ansi.StringWidth(hint)
		maxErrorLines := m.errorLines()
		fits := func(text string) bool {
			ls := strings.Split(kit.Wrap(text, room), "\n")
			return len(ls) < maxErrorLines || len(ls) == maxErrorLines && ansi.StringWidth(ls[len(ls)-1])+last <= room
		}
		if !fits(text) {
			// it would lose its middle: a long name there goes first,
			// then the request, then the API's solution (the log keeps
			// them): the status, the message and the trace ID stay
			text = prefix + t.shortened(w, th.Glyphs.Ellipsis)
			if !fits(text) {
				text = withoutRequest(text)
			}
			if !fits(text) {
				text = withoutSolution(text)
			}
			if !fits(text) {
				// then words from the message's end, the brackets that
				// close it ("(trace …)") kept whole
				text = cutBeforeBrackets(text, th.Glyphs.Ellipsis, fits)
			}
		}
		lines := strings.Split(kit.Wrap(text, room), "\n")
		if n := len(lines); n < maxErrorLines && ansi.StringWidth(lines[n-1])+last > room {
			// the hint goes below, with the text's last words: the
			// message line always says something of the error, never
			// only "(+1)  (L log, X dismiss)" under a line that reads
			// as the body's
			start, end := splitEnd(lines[n-1], room, last)
			if start == "" {
				// one long word (a token, a path): its end goes down, cut
				// where the hint leaves room
				w := ansi.StringWidth(lines[n-1])
				k := max(0, w-max(1, room-last))
				start, end = ansi.Cut(lines[n-1], 0, k), ansi.Cut(lines[n-1], k, w)
			}
			lines[n-1] = start
			lines = append(lines, end)
		}
		if len(lines) > 1 {
			k := min(len(lines), maxErrorLines) - 1
			lines[k] = strings.Join(lines[k:], " ")
			if over := ansi.StringWidth(lines[k]) + last - room; over > 0 {
				// what does not fit is cut from the middle: the end
				// (the request and the trace ID) stays in sight
				lines[k] = th.Glyphs.Ellipsis + wordStart(ansi.TruncateLeft(lines[k], over+ansi.StringWidth(th.Glyphs.Ellipsis), ""))
			}
			out := make([]string, k+1)
			for i := range out {
				out[i] = st.Render(" " + lines[i])
			}
			out[k] += st.Render(tail) + th.Muted.Render(hint)
			return out
		}
	}
	room := w - 1 - ansi.StringWidth(tail) - ansi.StringWidth(hint)
	if ansi.StringWidth(text) > room {
		text = prefix + t.shortened(w, th.Glyphs.Ellipsis)
	}
	if ansi.StringWidth(text) > room && hint == "" && !typing {
		hint = "  (" + lk + " shows it whole)"
		room = w - 1 - ansi.StringWidth(tail) - ansi.StringWidth(hint)
	}
	if ansi.StringWidth(text) > room {
		text = ansi.Truncate(text, max(1, room), th.Glyphs.Ellipsis)
	}
	return []string{ansi.Truncate(st.Render(" "+text+tail)+th.Muted.Render(hint), w, th.Glyphs.Ellipsis)}
}

// withoutRequest is an error's text without the request named in the
// brackets that end it ("(POST /…/stop, trace 0160…)" becomes "(trace
// 0160…)"), the first thing an error toast too long for its lines gives
// up: the message log keeps it.
func withoutRequest(text string) string {
	open := strings.LastIndex(text, " (")
	if open < 0 || !strings.HasSuffix(text, ")") {
		return text
	}
	var kept []string
	for _, part := range strings.Split(text[open+2:len(text)-1], ", ") {
		if method, _, ok := strings.Cut(part, " "); ok && slices.Contains([]string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"}, method) {
			continue
		}
		kept = append(kept, part)
	}
	if len(kept) == 0 {
		return text[:open]
	}
	return text[:open] + " (" + strings.Join(kept, ", ") + ")"
}

// withoutSolution is an error's text without the API's solution (" — Wait
// until …", up to the brackets that end it).
func withoutSolution(text string) string {
	i := strings.Index(text, " — ")
	if i < 0 {
		return text
	}
	end := len(text)
	if j := strings.LastIndex(text, " ("); j > i && strings.HasSuffix(text, ")") {
		end = j
	}
	return text[:i] + text[end:]
}

// cutBeforeBrackets drops words from the end of text before the brackets
// that close it, marking the cut with ellipsis, until fits holds (or no
// word is left to drop): "… try again once it is ready (trace 0160…)"
// becomes "… try ~ (trace 0160…)". Text with no closing brackets is as
// given.
func cutBeforeBrackets(text, ellipsis string, fits func(string) bool) string {
	open := strings.LastIndex(text, " (")
	if open < 0 || !strings.HasSuffix(text, ")") {
		return text
	}
	words, brackets := strings.Fields(text[:open]), text[open+1:]
	for n := len(words) - 1; n > 0; n-- {
		if cut := strings.Join(words[:n], " ") + " " + ellipsis + " " + brackets; fits(cut) {
			return cut
		}
	}
	return text
}

// wordStart is s from its first whole word: a line cut from its start
// (TruncateLeft) begins with no piece of a word ("race 0160…").
func wordStart(s string) string {
	if strings.HasPrefix(s, " ") {
		return strings.TrimLeft(s, " ")
	}
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return s[i+1:]
	}
	return s
}

// errorLines is how many lines an error toast may take: three on a short
// terminal (16 rows), a line more for every six rows more, up to five.
func (m *Model) errorLines() int { return min(5, max(3, m.height/6)) }

// splitEnd splits line at a space into its start and its end, the end
// at most room-extra wide and, with extra (the hint that follows it), as
// close to the start's width as may be: two lines of even length, not a
// word left alone on either. A line with no such space is all end.
func splitEnd(line string, room, extra int) (start, end string) {
	best := -1
	for i := 1; i < len(line); i++ {
		if line[i] != ' ' {
			continue
		}
		s, e := ansi.StringWidth(line[:i]), ansi.StringWidth(line[i+1:])+extra
		if e > room {
			continue
		}
		if d := abs(s - e); best < 0 || d < best {
			best, start, end = d, line[:i], line[i+1:]
		}
	}
	if best < 0 {
		return "", line
	}
	return start, end
}

func abs(n int) int { return max(n, -n) }
