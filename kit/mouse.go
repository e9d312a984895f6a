package kit

// The mouse on a list: what is under a point, a click on a row and the
// wheel. The root finds the list under the pointer (MouseList) and calls
// these; a second click on the selected row is the screen's enter, pressed
// by the root, so it means on each screen what enter means there.

// MouseTarget is what lies under a point of a list.
type MouseTarget int

const (
	// MouseNone: the status line, a rule, past the rows.
	MouseNone MouseTarget = iota
	// MouseRow: a row of the table.
	MouseRow
	// MousePane: the detail pane.
	MousePane
)

// MouseList is a screen that shows a list the mouse can use: the list
// shown now and the line of the screen's view it starts on (nil while the
// screen shows something else: a form, a wizard).
type MouseList interface {
	MouseList() (l *ListView, top int)
}

// RowAt is the index among the shown rows of the row drawn on line y of
// the table's view (0: the header).
func (t *Table) RowAt(y int) (int, bool) {
	if y < 1 || y > t.rowsHeight() {
		return 0, false
	}
	i := t.offset + y - 1
	if i >= len(t.view) {
		return 0, false
	}
	return i, true
}

// SelectIndex moves the cursor to the i-th shown row.
func (t *Table) SelectIndex(i int) { t.move(i - t.cursor) }

// Scroll moves the cursor by n rows (the wheel).
func (t *Table) Scroll(n int) { t.move(n) }

// At says what is under (x, y) in the list's own lines (0: the status
// line) and, for a row, its index among the shown rows.
func (l *ListView) At(x, y int) (MouseTarget, int) {
	y-- // the status line
	if y < 0 {
		return MouseNone, 0
	}
	th := l.Table.Height()
	switch {
	case !l.showDetail:
	case l.pinned || l.width < WideWidth:
		// stacked: the table, a rule, the pane
		if y > th {
			return MousePane, 0
		}
	default:
		// side by side: the pane right of the table and its separator
		if x >= SplitTableWidth(l.width, true)+3 {
			return MousePane, 0
		}
	}
	if y >= th {
		return MouseNone, 0
	}
	if i, ok := l.Table.RowAt(y); ok {
		return MouseRow, i
	}
	return MouseNone, 0
}

// ClickRow selects the i-th shown row and reports whether it was the
// selected one already.
func (l *ListView) ClickRow(i int) (already bool) {
	if i == l.Table.Cursor() {
		return true
	}
	l.Table.SelectIndex(i)
	l.RefreshDetail()
	return false
}

// Wheel moves the selection by n rows over the table, or scrolls the pane
// by n lines over it.
func (l *ListView) Wheel(t MouseTarget, n int) {
	if t == MousePane {
		l.scroll(n)
		return
	}
	l.Table.Scroll(n)
	l.RefreshDetail()
}
