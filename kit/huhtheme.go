package kit

import (
	"slices"
	"strings"
	"unicode"

	"charm.land/bubbles/v2/key"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// HuhTheme adapts the application theme to huh forms: the same semantic
// colours (none under NO_COLOR) and ASCII glyphs unless Unicode was chosen.
// It follows c.Theme, so a background detected later applies too.
func HuhTheme(c *Common) huh.Theme {
	return huh.ThemeFunc(func(bool) *huh.Styles {
		th := c.Theme
		t := huh.ThemeBase(th.Dark)
		g := th.Glyphs
		bar := lipgloss.Border{Left: g.BoxV}
		if th.Accessible {
			bar.Left = g.Cursor // no box drawing: the focused field is marked as a selected row is
		}
		t.Focused.Base = lipgloss.NewStyle().PaddingLeft(1).Border(bar, false, false, false, true)
		if th.AccentColor != nil {
			t.Focused.Base = t.Focused.Base.BorderForeground(th.AccentColor)
		}
		t.Focused.Card = t.Focused.Base
		t.Focused.Title = th.Title
		t.Focused.NoteTitle = th.Title.MarginBottom(1)
		t.Focused.Description = th.Muted
		t.Focused.ErrorIndicator = th.Error.SetString(" *")
		t.Focused.ErrorMessage = th.Error // unused: FormView draws the errors
		t.Focused.SelectSelector = th.Accent.SetString(g.Cursor + " ")
		t.Focused.NextIndicator = th.Accent.MarginLeft(1).SetString(g.Arrow)
		t.Focused.PrevIndicator = th.Accent.MarginRight(1).SetString("<-")
		t.Focused.Option = th.Base
		t.Focused.SelectedOption = th.OK
		t.Focused.SelectedPrefix = th.OK.SetString("[x] ")
		t.Focused.UnselectedPrefix = th.Muted.SetString("[ ] ")
		t.Focused.MultiSelectSelector = th.Accent.SetString(g.Cursor + " ")
		t.Focused.FocusedButton = th.ButtonOn
		t.Focused.BlurredButton = th.Button
		if th.Accessible {
			// the choice marked in text, not by reverse video alone:
			// "(x) on  ( ) off"
			t.Focused.FocusedButton = th.ButtonOn.SetString("(x)")
			t.Focused.BlurredButton = th.Button.SetString("( )")
		}
		t.Focused.Next = th.ButtonOn
		t.Focused.TextInput.Prompt = th.Accent
		t.Focused.TextInput.Placeholder = th.Muted
		t.Focused.TextInput.Cursor = th.Accent
		t.Blurred = t.Focused
		t.Blurred.Base = t.Focused.Base.Border(lipgloss.Border{Left: " "}, false, false, false, true)
		t.Blurred.Card = t.Blurred.Base
		t.Blurred.NextIndicator = lipgloss.NewStyle()
		t.Blurred.PrevIndicator = lipgloss.NewStyle()
		t.Blurred.Title = th.Bold
		t.Group.Title = th.Title
		t.Group.Description = th.Muted
		return t
	})
}

// NewForm is an embedded huh form of the app: no help of its own (the
// footer has the keys), accessible when the app is, the app's theme, no
// error footer (FormView draws each error under its field), and tab on
// the last field doing what enter does (formKeys).
func NewForm(c *Common, groups ...*huh.Group) *huh.Form {
	return huh.NewForm(groups...).WithShowHelp(false).WithShowErrors(false).
		WithAccessible(c.Accessible).WithTheme(HuhTheme(c)).WithKeyMap(formKeys())
}

// formKeys is huh's key map with tab doing on a form's last field what
// enter does there, as the forms' footers say ("enter/tab next"): huh binds tab to
// "next" only, which it turns off on the last field, so a tab there did
// nothing; now the form ends (its review or its store comes next).
func formKeys() *huh.KeyMap {
	km := huh.NewDefaultKeyMap()
	submit := key.NewBinding(key.WithKeys("enter", "tab"), key.WithHelp("enter", "submit"))
	km.Input.Submit, km.Select.Submit, km.Confirm.Submit = submit, submit, submit
	return km
}

// FormView renders an embedded huh form in at most height lines (height
// is what the form was given with WithHeight; 0: no limit), with the
// focused group's validation errors drawn under the focused field, in
// its bar: "! nodes: must be a whole number, at least 1".
//
// huh v2 draws no error in an input field: only its group's footer lists
// them, under the viewport that WithHeight sized while there was no
// error, so the footer fell below the form's area and enter seemed to do
// nothing. Here the footer is turned off (the viewport keeps its height)
// and the lines of the errors are taken from the form's own area: blank
// lines and the fields below the focused one first (the last line then
// says "~ enter/tab: more below"), then lines above it.
// The form must be made by NewForm (no error footer): View writes nothing.
func FormView(c *Common, form *huh.Form, height int) string {
	view := form.View()
	focused := form.GetFocusedField()
	var msgs []string
	// a message the form shows already (a field's description that
	// repeats its rule, as the cron and type hints do) is not said twice
	shown := fold(view)
	add := func(m string) {
		if !slices.Contains(msgs, m) && !strings.Contains(shown, fold(m)) {
			msgs = append(msgs, m)
		}
	}
	if focused != nil && focused.Error() != nil {
		add(focused.Error().Error())
	}
	for _, err := range form.Errors() {
		add(err.Error()) // another field's, which holds enter too
	}
	if len(msgs) == 0 {
		return view
	}
	lines := strings.Split(view, "\n")
	width := max(20, lipgloss.Width(view))
	bar := HuhTheme(c).Theme(c.Theme.Dark).Focused.Base
	room := max(10, width-bar.GetHorizontalFrameSize())
	var errLines []string
	for _, m := range msgs {
		wrapped := strings.Split(Wrap("! "+m, room), "\n")
		for i, l := range wrapped {
			if i > 0 {
				l = "  " + l
			}
			errLines = append(errLines, bar.Render(c.Theme.Error.Render(l)))
		}
	}
	at := len(lines) // no focused field found: at the bottom
	if focused != nil {
		if i, n := findBlock(lines, strings.Split(focused.View(), "\n")); n > 0 {
			at = i + n
		}
	}
	out := make([]string, 0, len(lines)+len(errLines))
	out = append(out, lines[:at]...)
	out = append(out, errLines...)
	out = append(out, lines[at:]...)
	end := at + len(errLines) // the errors are out[at:end]
	if height <= 0 {
		return strings.Join(out, "\n")
	}
	// cut to height: blank lines below the errors, then lines below them
	// (the last line then says more is below), then lines above
	cut := false
	for len(out) > height {
		blank := -1
		for i := len(out) - 1; i >= end; i-- {
			if strings.TrimSpace(ansi.Strip(out[i])) == "" {
				blank = i
				break
			}
		}
		switch {
		case blank >= 0:
			out = slices.Delete(out, blank, blank+1)
		case len(out) > end:
			out = out[:len(out)-1]
			cut = true
		default:
			out = out[1:]
			end--
		}
	}
	if cut && len(out) > 0 {
		// the fields below are reached once the error is mended: the last
		// line says so, instead of the last line below the errors or,
		// when none is left, instead of the first line above them
		if len(out) == end {
			out = out[1:]
		} else {
			out = out[:len(out)-1]
		}
		more := c.Theme.Glyphs.Ellipsis + " enter/tab: more below"
		out = append(out, c.Theme.Muted.Render(ansi.Truncate(more, width, c.Theme.Glyphs.Ellipsis)))
	}
	return strings.Join(out, "\n")
}

// fold is s without styles, bars and white space: text to compare however
// it was wrapped (a wrap may break a word at a hyphen).
func fold(s string) string {
	return strings.Join(strings.FieldsFunc(ansi.Strip(s), func(r rune) bool {
		return unicode.IsSpace(r) || r == '|' || r == '│' || r == '┃'
	}), "")
}

// findBlock is where the lines of block (a field's view) are in lines (a
// form's view): the index of its first line and how many of its lines
// follow it there (the viewport may cut the field). Lines are compared
// without styles and outer spaces; 0 lines: not found.
func findBlock(lines, block []string) (int, int) {
	plain := func(s string) string { return strings.TrimSpace(ansi.Strip(s)) }
	if len(block) == 0 || plain(block[0]) == "" {
		return 0, 0
	}
	first := plain(block[0])
	for i, l := range lines {
		if plain(l) != first {
			continue
		}
		n := 1
		for n < len(block) && i+n < len(lines) && plain(lines[i+n]) == plain(block[n]) {
			n++
		}
		return i, n
	}
	return 0, 0
}
