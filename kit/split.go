package kit

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/theme"
)

// WideWidth is the width from which a detail pane sits right of its table;
// below it the pane goes under the table.
const WideWidth = 120

// A table with an optional detail pane is laid out the same way on every
// screen: side by side from WideWidth (55% for the table), stacked below
// otherwise (45% for the table, at least 5 rows).

// LayoutSplit sizes the table and, when show is set, the pane in w x h.
func LayoutSplit(t *Table, d *Detail, show bool, w, h int) {
	tw, th := w, h
	if show {
		if w >= WideWidth {
			tw = SplitTableWidth(w, true)
			d.SetSize(w-tw-3, th)
		} else {
			tableH := max(5, th*45/100)
			d.SetSize(w, th-tableH-1)
			th = tableH
		}
	}
	t.SetSize(tw, th)
}

// SplitTableWidth is the table's width in a split of width w: its share
// beside the pane (show) from WideWidth, else w.
func SplitTableWidth(w int, show bool) int {
	if show && w >= WideWidth {
		return w * 55 / 100
	}
	return w
}

// ViewSplit renders the table, and the pane when show is set, as
// LayoutSplit laid them out in width w.
func ViewSplit(th *theme.Theme, t *Table, d *Detail, show bool, w int) string {
	return ViewSplitUnder(th, t, d, show, w, "")
}

// ViewSplitUnder is ViewSplit with a line under the table's rows, beside
// or above the pane (what a cut list has below and above: the table was
// laid out a line shorter for it); "" is none.
func ViewSplitUnder(th *theme.Theme, t *Table, d *Detail, show bool, w int, under string) string {
	tv, tableH := t.View(), t.Height()
	if under != "" {
		tv, tableH = PadLines(tv, tableH)+"\n"+under, tableH+1
	}
	if !show {
		return tv
	}
	dv := d.View()
	if w >= WideWidth {
		return SideBySide(tv, dv, SplitTableWidth(w, true), th.Glyphs.Sep, th)
	}
	return Stacked(th, tv, tableH, dv, w)
}

// Stacked puts bottom under top (padded to topH lines) with a rule between.
func Stacked(t *theme.Theme, top string, topH int, bottom string, w int) string {
	rule := t.Muted.Render(strings.Repeat(t.Glyphs.HRule, w))
	return PadLines(top, topH) + "\n" + rule + "\n" + bottom
}

// PadLines pads s with empty lines to h lines.
func PadLines(s string, h int) string {
	n := strings.Count(s, "\n") + 1
	if n < h {
		s += strings.Repeat("\n", h-n)
	}
	return s
}

// SideBySide joins two blocks with a separator column; the left block is
// cut or padded to lw cells.
func SideBySide(left, right string, lw int, sep string, t *theme.Theme) string {
	ll := strings.Split(left, "\n")
	rl := strings.Split(right, "\n")
	n := max(len(ll), len(rl))
	var b strings.Builder
	sepS := " " + t.Muted.Render(sep) + " "
	for i := 0; i < n; i++ {
		l := ""
		if i < len(ll) {
			l = ll[i]
		}
		w := ansi.StringWidth(l)
		if w > lw {
			l = ansi.Truncate(l, lw, "")
			w = lw
		}
		b.WriteString(l)
		b.WriteString(strings.Repeat(" ", lw-w))
		b.WriteString(sepS)
		if i < len(rl) {
			b.WriteString(rl[i])
		}
		if i < n-1 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
