package kit

import (
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
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
		t.Focused.ErrorMessage = th.Error.SetString(" *")
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
