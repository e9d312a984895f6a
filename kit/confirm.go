package kit

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
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
	input    Input
	wrong    bool

	keys          confirmKeys
	width, height int
}

// confirmKeys are the confirmation dialog's bindings; its hint line and
// its sentence are generated from them.
type confirmKeys struct {
	// yes / no
	Yes, No, Move, Choose key.Binding
	// type the name
	Submit, Cancel key.Binding
}

func newConfirmKeys() confirmKeys {
	return confirmKeys{
		Yes:    Bind("y", "yes", "Y"),
		No:     BindHelp("n/esc", "no", "n", "N", "esc", "q"),
		Move:   moveBinding(),
		Choose: Bind("enter", "choose", "space"),
		Submit: Bind("enter", "confirm"),
		Cancel: Bind("esc", "cancel"),
	}
}

// moveBinding moves between a dialog's two buttons.
func moveBinding() key.Binding {
	return BindHelp("<-/->", "move", "left", "right", "h", "l", "tab", "shift+tab")
}

// NewConfirm builds a confirmation dialog.
func NewConfirm(c *Common, id int, spec Confirm) *ConfirmDialog {
	d := &ConfirmDialog{ID: id, common: c, spec: spec, keys: newConfirmKeys()}
	if spec.Kind == ConfirmTypeName {
		in := NewInput("> ", "")
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
	return Send(ConfirmedMsg{ID: id, Yes: yes})
}

// Update handles keys.
func (d *ConfirmDialog) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	if d.answered {
		return d, nil
	}
	if c, ok := msg.(tea.MouseClickMsg); ok {
		// a click on a button answers as its key does
		if d.spec.Kind == ConfirmTypeName {
			return d, nil
		}
		if yes, on := ButtonAt(d.View(), c.X, c.Y, "[ Yes ]", "[ No ]"); on {
			return d, d.answer(yes == 0)
		}
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
	k := d.keys
	if d.spec.Kind == ConfirmTypeName {
		switch {
		case key.Matches(kp, k.Cancel):
			return d, d.answer(false)
		case key.Matches(kp, k.Submit):
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
	switch {
	case key.Matches(kp, k.Move):
		d.yes = !d.yes
	case key.Matches(kp, k.Yes):
		return d, d.answer(true)
	case key.Matches(kp, k.No):
		return d, d.answer(false)
	case key.Matches(kp, k.Choose):
		return d, d.answer(d.yes)
	}
	return d, nil
}

// SetSize implements Dialog.
func (d *ConfirmDialog) SetSize(width, height int) {
	d.width, d.height = width, height
	_, inner := d.boxWidth()
	d.input.SetWidth(inner - 3)
}

// boxWidth is the box's width and the width inside its border.
func (d *ConfirmDialog) boxWidth() (w, inner int) {
	w = min(max(40, d.width*2/3), d.width, 72)
	return w, w - 4
}

// View renders the dialog box within the SetSize area. Text from the API
// can be any length (a 5,000-character service name): the detail is cut to
// the lines that fit and the name to be typed is shown shortened in the
// middle, so the buttons, the input and the hint always stay on screen.
// What must be typed is still the whole name.
func (d *ConfirmDialog) View() string {
	th := d.common.Theme
	height := d.height
	w, inner := d.boxWidth()
	fit := lipgloss.NewStyle().Width(inner)
	var tail []string
	if d.spec.Kind == ConfirmTypeName {
		name := d.spec.Name
		shown := MiddleTruncate(name, max(10, inner-12), th.Glyphs.Ellipsis)
		k := d.keys
		ask := " to " + k.Submit.Help().Desc + ", " + k.Cancel.Help().Key + " to " + k.Cancel.Help().Desc + ":"
		line := "Type " + th.Bold.Render(shown) + ask
		if shown != name {
			line = "Type " + th.Bold.Render(shown) + " (" + strconv.Itoa(utf8.RuneCountInString(name)) + " characters)" + ask
		}
		tail = append(tail, line)
		tail = append(tail, d.input.View())
		if d.wrong {
			tail = append(tail, th.Error.Render("does not match; type the name exactly"))
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
		tail = append(tail, lipgloss.JoinHorizontal(lipgloss.Top, no, "  ", yes))
		k := d.keys
		tail = append(tail, th.Muted.Render(HintLine(k.Yes, k.No, k.Move, k.Choose)+" ("+cur+")"))
	}
	var body []string
	if d.spec.Detail != "" {
		// the box's border and title take 4 lines, a blank line follows
		// the detail
		room := maxDetailLines
		if height > 0 {
			room = min(room, height-4-lipgloss.Height(fit.Render(strings.Join(tail, "\n")))-1)
		}
		if room > 0 {
			body = append(body, CapText(d.spec.Detail, inner, room, th.Glyphs.Ellipsis), "")
		}
	}
	body = append(body, tail...)
	title := d.spec.Title
	if title == "" {
		title = "Are you sure?"
	}
	return Box(th, title, strings.Join(body, "\n"), w)
}

// maxDetailLines bounds a dialog's detail when the height is not known.
const maxDetailLines = 12

// CapText wraps s to width and keeps at most lines lines; when it cuts,
// the last line kept ends with ellipsis.
func CapText(s string, width, lines int, ellipsis string) string {
	if lines <= 0 {
		return ""
	}
	out := strings.Split(Wrap(s, width, " ,/"), "\n")
	if len(out) <= lines {
		return strings.Join(out, "\n")
	}
	out = out[:lines]
	last := out[lines-1]
	if ansi.StringWidth(last)+ansi.StringWidth(ellipsis) > width {
		last = ansi.Truncate(last, width-ansi.StringWidth(ellipsis), "")
	}
	out[lines-1] = last + ellipsis
	return strings.Join(out, "\n")
}

// MiddleTruncate shortens s to at most width cells by cutting its middle,
// so both its start and its end stay readable ("long-na…ghij").
func MiddleTruncate(s string, width int, ellipsis string) string {
	sw := ansi.StringWidth(s)
	if sw <= width {
		return s
	}
	room := width - ansi.StringWidth(ellipsis)
	if room <= 1 {
		return ansi.Truncate(s, width, ellipsis)
	}
	head := ansi.Truncate(s, room-room/2, "")
	tail := ansi.TruncateLeft(s, sw-room/2, "")
	return head + ellipsis + tail
}

// ButtonAt says which of the labels is drawn at (x, y) of view (the last
// line that shows the first label: the buttons are under any text from
// the API), as an index into labels.
func ButtonAt(view string, x, y int, labels ...string) (int, bool) {
	lines := strings.Split(ansi.Strip(view), "\n")
	row := -1
	for i, l := range lines {
		if strings.Contains(l, labels[0]) {
			row = i
		}
	}
	if row < 0 || y != row {
		return 0, false
	}
	line := lines[row]
	for i, lb := range labels {
		at := strings.LastIndex(line, lb)
		if at < 0 {
			continue
		}
		x0 := ansi.StringWidth(line[:at])
		if x >= x0 && x < x0+ansi.StringWidth(lb) {
			return i, true
		}
	}
	return 0, false
}
