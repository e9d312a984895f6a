package kit

import (
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// ConfirmedMsg is the answer of a ConfirmDialog.
type ConfirmedMsg struct {
	ID  int
	Yes bool
}

// ConfirmDialog asks yes / no with the cursor on "no", or asks to type a
// name. It answers once: keys after the answer are ignored, so a double
// enter cannot submit twice.
type ConfirmDialog struct {
	ID       int
	common   *Common
	spec     Confirm
	yes      bool // cursor on "yes"
	answered bool
	input    textinput.Model
	wrong    bool
}

// NewConfirm builds a confirmation dialog.
func NewConfirm(c *Common, id int, spec Confirm) *ConfirmDialog {
	d := &ConfirmDialog{ID: id, common: c, spec: spec}
	if spec.Kind == ConfirmTypeName {
		in := textinput.New()
		in.Prompt = "> "
		st := in.Styles()
		st.Cursor.Blink = false
		in.SetStyles(st)
		in.Focus()
		d.input = in
	}
	return d
}

// DialogID identifies the dialog for the root.
func (d *ConfirmDialog) DialogID() int { return d.ID }

// OnYes reports whether the cursor is on "yes" (it starts on "no").
func (d *ConfirmDialog) OnYes() bool { return d.yes }

// Answered reports that the dialog has answered.
func (d *ConfirmDialog) Answered() bool { return d.answered }

func (d *ConfirmDialog) answer(yes bool) tea.Cmd {
	d.answered = true
	id := d.ID
	return func() tea.Msg { return ConfirmedMsg{ID: id, Yes: yes} }
}

// Update handles keys.
func (d *ConfirmDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	if d.answered {
		return d, nil
	}
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if d.spec.Kind == ConfirmTypeName {
			var cmd tea.Cmd
			d.input, cmd = d.input.Update(msg)
			return d, cmd
		}
		return d, nil
	}
	if d.spec.Kind == ConfirmTypeName {
		switch kp.String() {
		case "esc":
			return d, d.answer(false)
		case "enter":
			if d.input.Value() == d.spec.Name {
				return d, d.answer(true)
			}
			d.wrong = true
			return d, nil
		}
		d.wrong = false
		var cmd tea.Cmd
		d.input, cmd = d.input.Update(msg)
		return d, cmd
	}
	switch kp.String() {
	case "left", "right", "h", "l", "tab", "shift+tab":
		d.yes = !d.yes
	case "y", "Y":
		return d, d.answer(true)
	case "n", "N", "esc", "q":
		return d, d.answer(false)
	case "enter", "space":
		return d, d.answer(d.yes)
	}
	return d, nil
}

// View renders the dialog box.
func (d *ConfirmDialog) View(width, _ int) string {
	th := d.common.Theme
	w := min(max(40, width*2/3), width, 72)
	inner := w - 4
	var body []string
	if d.spec.Detail != "" {
		body = append(body, ansi.Wrap(d.spec.Detail, inner, " "))
		body = append(body, "")
	}
	if d.spec.Kind == ConfirmTypeName {
		body = append(body, "Type "+th.Bold.Render(d.spec.Name)+" to confirm, esc to cancel:")
		d.input.SetWidth(inner - 3)
		body = append(body, d.input.View())
		if d.wrong {
			body = append(body, th.Error.Render("does not match; type the name exactly"))
		}
	} else {
		no, yes := th.Button.Render("[ No ]"), th.Button.Render("[ Yes ]")
		if d.yes {
			yes = th.ButtonOn.Render("[ Yes ]")
		} else {
			no = th.ButtonOn.Render("[ No ]")
		}
		cur := "cursor on No"
		if d.yes {
			cur = "cursor on Yes"
		}
		body = append(body, lipgloss.JoinHorizontal(lipgloss.Top, no, "  ", yes))
		body = append(body, th.Muted.Render("y yes  n/esc no  "+"<-/-> move  enter choose ("+cur+")"))
	}
	title := d.spec.Title
	if title == "" {
		title = "Are you sure?"
	}
	return Box(th, title, strings.Join(body, "\n"), w)
}
