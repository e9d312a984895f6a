package kit

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"
)

// FormCut is the line a form's step ends with when its view (FormView's
// lines) does not show every field of the focused step whole: the fields
// below the focused one and those above it, by name, and the keys that go
// there, "~ below: credentials (enter/tab); above: bucket path
// (shift+tab)", cut to width; "" when every field shows. groups are the
// form's fields group by group, as built; names, its fields by name (as a
// refusal names them). The form's view then gives the line its blank line
// under the heading (the new service's, the new backup's).
func FormCut(c *Common, form *huh.Form, groups [][]huh.Field, names map[string]huh.Field, view string, next, prev key.Binding, width int) string {
	lines := strings.Split(view, "\n")
	cur := form.GetFocusedField()
	var above, below []string
	for _, g := range groups {
		if !slices.Contains(g, cur) {
			continue
		}
		passed := false
		for _, fl := range g {
			if fl == cur {
				passed = true
				continue
			}
			if shownWhole(lines, strings.Split(fl.View(), "\n")) {
				continue
			}
			name := fieldName(names, fl)
			if passed {
				below = append(below, name)
			} else {
				above = append(above, name)
			}
		}
	}
	if len(above)+len(below) == 0 {
		return ""
	}
	var more []string
	if len(below) > 0 {
		more = append(more, "below: "+strings.Join(below, ", ")+" ("+next.Help().Key+")")
	}
	if len(above) > 0 {
		more = append(more, "above: "+strings.Join(above, ", ")+" ("+prev.Help().Key+")")
	}
	th := c.Theme
	return th.Muted.Render(ansi.Truncate(" "+th.Glyphs.Ellipsis+" "+strings.Join(more, "; "), width, th.Glyphs.Ellipsis))
}

// fieldName is fl's name in names, "" when it has none.
func fieldName(names map[string]huh.Field, fl huh.Field) string {
	for n, x := range names {
		if x == fl {
			return n
		}
	}
	return ""
}

// shownWhole reports that the lines of block (a field's view) are all in
// lines, one after the other; compared without styles and outer spaces.
func shownWhole(lines, block []string) bool {
	plain := func(s string) string { return strings.TrimSpace(ansi.Strip(s)) }
	for len(block) > 0 && plain(block[len(block)-1]) == "" {
		block = block[:len(block)-1]
	}
	if len(block) == 0 {
		return true
	}
	for i := range lines {
		n := 0
		for n < len(block) && i+n < len(lines) && plain(lines[i+n]) == plain(block[n]) {
			n++
		}
		if n == len(block) {
			return true
		}
	}
	return false
}
