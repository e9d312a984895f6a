package backups

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// schedEdit is the edit of a schedule's cron expression: one input,
// prefilled with the expression; under it, as it is typed, what is wrong
// with it (the rule, next to the field) or what it means and its next
// three runs in UTC and local time. enter saves, esc cancels; an answer
// that refuses the change comes back here with what was typed.
type schedEdit struct {
	common  *kit.Common
	sc      api.Schedule
	svcName string
	input   kit.Input
	refused string // the API's refusal of the last save
	keys    editKeys
	width   int
	height  int
}

type editKeys struct{ Save, Cancel key.Binding }

func newEditKeys() editKeys {
	return editKeys{
		Save:   kit.Bind("enter", "save"),
		Cancel: kit.Bind("esc", "cancel"),
	}
}

// editResult is what a key did to the edit.
type editResult int

const (
	editNone editResult = iota
	editSave
	editCancel
)

func newSchedEdit(c *kit.Common, sc api.Schedule, svcName string) *schedEdit {
	e := &schedEdit{common: c, sc: sc, svcName: svcName, keys: newEditKeys(), input: kit.NewInput("> ", "minute hour day-of-month month day-of-week")}
	if expr := scheduleExpr(&sc); expr != "cron" {
		e.input.SetValue(expr)
	}
	e.input.CursorEnd()
	return e
}

func (e *schedEdit) focus() tea.Cmd { return e.input.Focus() }

// expr is the expression as typed.
func (e *schedEdit) expr() string { return strings.TrimSpace(e.input.Value()) }

// problem is what is wrong with the expression typed, "" when nothing;
// unchanged is refused too (there is nothing to save).
func (e *schedEdit) problem() string {
	if err := api.ValidateScheduleEdit(e.expr()); err != nil {
		return err.Error()
	}
	if e.expr() == scheduleExpr(&e.sc) {
		return "unchanged: type the new cron expression"
	}
	return ""
}

// Update takes a key or a paste; it reports a save (the expression is
// valid and changed) or a cancel.
func (e *schedEdit) Update(msg tea.Msg) (editResult, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, e.keys.Cancel):
			return editCancel, nil
		case key.Matches(k, e.keys.Save):
			if e.problem() != "" {
				return editNone, nil // the problem already shows under the field
			}
			return editSave, nil
		}
	}
	before := e.input.Value()
	var cmd tea.Cmd
	e.input, cmd = e.input.Update(msg)
	if e.input.Value() != before {
		e.refused = ""
	}
	return editNone, cmd
}

// failed shows the API's refusal under the field; what was typed stays.
func (e *schedEdit) failed(err error) { e.refused = err.Error() }

func (e *schedEdit) SetSize(w, h int) {
	e.width, e.height = w, h
	e.input.SetWidth(max(10, min(w-4, 60)))
}

func (e *schedEdit) KeyMap() kit.Keys {
	b := []key.Binding{e.keys.Save, e.keys.Cancel}
	return kit.Keys{Short: b, Full: [][]key.Binding{b}}
}

func (e *schedEdit) View() string {
	th := e.common.Theme
	w := max(20, e.width-2)
	wrap := func(s string) string { return ansi.Wrap(s, w, " ") }
	lines := []string{
		th.Title.Render(wrap(" Edit schedule " + scheduleKey(&e.sc) + " of " + e.svcName)),
		th.Muted.Render(wrap(" " + orDash(e.sc.Type) + " backups to " + targetWords(&e.sc) + "; now " + orDash(scheduleExpr(&e.sc)) + " (" + scheduleWhen(&e.sc) + ")")),
		"",
		th.Label.Render(" Cron expression (UTC): minute hour day-of-month month day-of-week"),
		" " + e.input.View(),
	}
	if p := e.problem(); p != "" && e.expr() != scheduleExpr(&e.sc) {
		lines = append(lines, th.Error.Render(wrap(" ! "+p)))
	} else if p == "" {
		desc := api.DescribeCron(e.expr())
		if desc == "" {
			desc = "custom: " + e.expr()
		}
		lines = append(lines, th.OK.Render(wrap(" ok: "+desc)), "", th.Label.Render(" Next runs:"))
		for _, l := range api.RunLines(e.expr(), e.common.Time(), 3, time.Local) {
			lines = append(lines, wrap("   "+l))
		}
	} else {
		lines = append(lines, th.Muted.Render(wrap(" "+p)))
	}
	if e.refused != "" {
		lines = append(lines, "", th.Error.Render(wrap(" ! the API refused it: "+e.refused)))
	}
	if e.height > 0 && len(lines) > e.height {
		lines = lines[:e.height]
	}
	return strings.Join(lines, "\n")
}
