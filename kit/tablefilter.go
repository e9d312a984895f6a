package kit

import (
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// The table's filter: "/", a name typed (TypeFilters) or pasted, and the
// rows it leaves shown.

// Filter is the current filter text.
func (t *Table) Filter() string { return t.filter }

// Filtering reports that the filter input has focus.
func (t *Table) Filtering() bool { return t.filtering }

// SetFilter sets the filter text.
func (t *Table) SetFilter(f string) {
	t.filter = f
	t.input.SetValue(f)
	t.refiltered()
}

// refiltered recomputes the shown rows after the filter changed and, in a
// table with Choosable, puts the cursor on a row that may be chosen.
func (t *Table) refiltered() {
	t.refilter()
	if t.Choosable != nil {
		t.StartOn(t.Choosable)
	}
}

// typeToFilter starts the filter with a typed character (a table that
// TypeFilters, the key none of its own): the character is the filter's
// first. used reports that the key was taken.
func (t *Table) typeToFilter(kp tea.KeyPressMsg) (used bool, cmd tea.Cmd) {
	r := []rune(kp.Text)
	if len(r) != 1 || !unicode.IsPrint(r[0]) || unicode.IsSpace(r[0]) {
		return false, nil
	}
	t.filtering = true
	t.input.SetValue(t.filter + kp.Text)
	t.input.CursorEnd()
	t.filter = t.input.Value()
	t.refiltered()
	return true, t.input.Focus()
}

// pasteToFilter starts the filter with pasted text (a table that
// TypeFilters, its filter not being typed): as typeToFilter does with a
// typed character, the text is added to the filter kept, and the rows
// are filtered at once. Pasted white space alone is not taken.
func (t *Table) pasteToFilter(p tea.PasteMsg) (used bool, cmd tea.Cmd) {
	if strings.TrimSpace(p.Content) == "" {
		return false, nil
	}
	t.filtering = true
	t.input.SetValue(t.filter)
	t.input.CursorEnd()
	focus := t.input.Focus() // the input takes text only while focused
	return true, tea.Batch(focus, t.typed(p))
}

// FilterFirst gives the filter the first say over a key in a table that
// is one step of a flow: while the filter is typed every key is the
// table's, and back (esc) with a filter kept clears it. used reports that
// the key was taken; otherwise the step's own keys come next.
//
// In a table whose name is just typed (TypeFilters), enter while typing
// keeps the filter and is not taken: the step chooses the row at once, as
// its footer says, instead of a first enter that only ends the typing.
func (t *Table) FilterFirst(msg tea.KeyPressMsg, back key.Binding) (used bool, cmd tea.Cmd) {
	if t.Filtering() {
		_, cmd := t.Update(msg)
		if t.TypeFilters && key.Matches(msg, t.Keys.FilterKeep) {
			return false, cmd
		}
		return true, cmd
	}
	if key.Matches(msg, back) && t.Filter() != "" {
		t.SetFilter("")
		return true, nil
	}
	return false, nil
}

// typed gives the filter input a message and filters by what it holds.
func (t *Table) typed(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	t.input, cmd = t.input.Update(msg)
	if v := t.input.Value(); v != t.filter {
		t.filter = v
		t.refiltered()
	}
	return cmd
}

// refilter recomputes the shown rows and puts the cursor back on the
// selected ID (or the same position when that row is gone).
func (t *Table) refilter() {
	f := strings.ToLower(strings.TrimSpace(t.filter))
	t.view = t.view[:0]
	if cap(t.view) < len(t.rows) {
		t.view = make([]int, 0, len(t.rows))
	}
	for i := range t.rows {
		if f == "" || strings.Contains(t.hay[i], f) {
			t.view = append(t.view, i)
		}
	}
	if t.selID != "" {
		for i, ri := range t.view {
			if t.rows[ri].ID == t.selID {
				t.cursor = i
				break
			}
		}
	}
	t.clamp()
	if r, ok := t.Selected(); ok {
		t.selID = r.ID
	}
	t.fitInput()
}
