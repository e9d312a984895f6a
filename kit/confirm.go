package kit

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"charm.land/bubbles/v2/help"
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

// KeyMap gives the footer the dialog's own keys: enter confirm and esc
// cancel while the name is typed; y, n/esc, the move between the buttons
// and enter for a yes or no.
func (d *ConfirmDialog) KeyMap() help.KeyMap {
	k := d.keys
	switch {
	case d.spec.Kind == ConfirmTypeName && d.refused() != "":
		return KeysOf(k.Cancel) // enter sends nothing
	case d.spec.Kind == ConfirmTypeName:
		return KeysOf(k.Submit, k.Cancel)
	}
	return KeysOf(k.Yes, k.No, k.Move, k.Choose)
}

// live is the detail and the refusal as the owner's data says them now
// (Confirm.Live), else the detail given.
func (d *ConfirmDialog) live() (detail, refused string) {
	if d.spec.Live != nil {
		return d.spec.Live()
	}
	return d.spec.Detail, ""
}

// refused is why the action no longer applies, "" while it does.
func (d *ConfirmDialog) refused() string {
	_, why := d.live()
	return why
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
		case key.Matches(kp, k.Submit) && d.refused() != "":
			return d, nil // the dialog says why: nothing is sent
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
	case kp.String() == "left" || kp.String() == "h":
		d.yes = false // No is the left button: left never wraps round to Yes
	case kp.String() == "right" || kp.String() == "l":
		d.yes = true
	case key.Matches(kp, k.Move):
		d.yes = !d.yes // tab and shift+tab go round
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

// View renders the dialog box within the SetSize area. The detail (what
// the action does, its consequence) is wrapped, never cut when the area
// can hold it: a dialog whose detail does not fit at its usual width takes
// the whole width, then leaves out the blank line above the buttons, then
// says where the cursor is on the buttons' line instead of the hint's, then
// leaves the hint out (the footer shows the same keys: KeyMap).
// Text from the API can be any length (a 5,000-character service name):
// only then is the detail cut to the lines that fit, its last line ending
// in the ellipsis glyph, so the buttons, the input and the hint always
// stay on screen. The name to be typed is shown whole, on lines of its own
// when it is longer than the line; only a name that cannot fit whole in the
// area is shown shortened in the middle. What must be typed is still the
// whole name.
func (d *ConfirmDialog) View() string {
	th := d.common.Theme
	title := d.spec.Title
	if title == "" {
		title = "Are you sure?"
	}
	w, _ := d.boxWidth()
	widths := []int{w}
	if wide := min(d.width, 72); wide > w {
		widths = append(widths, wide)
	}
	type layout struct {
		gap, compact, bare bool
	}
	layouts := []layout{{gap: true}, {}, {compact: true}, {compact: true, bare: true}}
	if d.spec.Kind == ConfirmTypeName {
		layouts = layouts[:2]
	}
	text, _ := d.live()
	var detail, tail []string
	var gap bool
	for _, bw := range widths {
		inner := bw - 4
		var lines []string
		if text != "" {
			lines = strings.Split(Wrap(text, inner, " ,/"), "\n")
		}
		for _, l := range layouts {
			w, detail, gap = bw, lines, l.gap
			tail = d.tail(inner, l.compact)
			if l.bare {
				tail = tail[:1] // the buttons' line
			}
			if d.fits(len(detail), len(tail), gap) {
				return d.box(title, detail, tail, gap, w)
			}
		}
	}
	// even the widest, tightest layout cannot hold the whole detail: it is
	// cut, visibly, so the buttons (with the hint) or the input stay
	if d.spec.Kind != ConfirmTypeName || d.height > 0 && d.height-4-len(tail) < 0 {
		tail = d.tail(w-4, true) // a name that cannot fit whole: shortened
	}
	if len(detail) > 0 {
		room := maxDetailLines
		if d.height > 0 {
			room = min(room, d.height-4-len(tail))
		}
		if room > 0 {
			detail = strings.Split(CapText(text, w-4, room, th.Glyphs.Ellipsis), "\n")
		} else {
			detail = nil
		}
	}
	return d.box(title, detail, tail, false, w)
}

// fits says whether a box with that many detail and tail lines fits the
// height: its border and title take 4 lines, gap a blank line after the
// detail. With no height known, the detail may take maxDetailLines.
func (d *ConfirmDialog) fits(detail, tail int, gap bool) bool {
	if d.height <= 0 {
		return detail <= maxDetailLines
	}
	n := 4 + detail + tail
	if gap && detail > 0 {
		n++
	}
	return n <= d.height
}

// box draws the dialog from its parts.
func (d *ConfirmDialog) box(title string, detail, tail []string, gap bool, w int) string {
	body := append([]string(nil), detail...)
	if gap && len(detail) > 0 {
		body = append(body, "")
	}
	body = append(body, tail...)
	return Box(d.common.Theme, title, strings.Join(body, "\n"), w)
}

// tail is what is under the detail, wrapped to inner: the buttons and the
// hint, or what to type and the input. compact says where the cursor is on
// the buttons' line, so the hint may take one line fewer; for a name to
// type, that the name is shortened in the middle (only when it cannot fit
// whole). A name longer than the line is shown whole on lines of its own,
// under what to do.
func (d *ConfirmDialog) tail(inner int, compact bool) []string {
	th := d.common.Theme
	var tail []string
	if d.spec.Kind == ConfirmTypeName {
		name := d.spec.Name
		k := d.keys
		ask := " to " + k.Submit.Help().Desc + ", " + k.Cancel.Help().Key + " to " + k.Cancel.Help().Desc + ":"
		lines := []string{"Type " + th.Bold.Render(name) + ask}
		switch {
		case compact && ansi.StringWidth(name) > inner-12:
			shown := MiddleTruncate(name, max(10, inner-12), th.Glyphs.Ellipsis)
			lines = []string{"Type " + th.Bold.Render(shown) + " (" + strconv.Itoa(utf8.RuneCountInString(name)) + " characters)" + ask}
		case ansi.StringWidth("Type "+name) > inner:
			lines = []string{"Type this name" + ask}
			for l := range strings.SplitSeq(ansi.Hardwrap(name, inner, true), "\n") {
				lines = append(lines, th.Bold.Render(l))
			}
		}
		if why := d.refused(); why != "" {
			// what was typed stays, under why it will not be sent
			lines = []string{th.Error.Render("Nothing will be sent: "+why+".") + " " + k.Cancel.Help().Key + " to " + k.Cancel.Help().Desc + "."}
		}
		tail = append(tail, lines...)
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
		buttons := lipgloss.JoinHorizontal(lipgloss.Top, no, "  ", yes)
		k := d.keys
		hint := HintLine(k.Yes, k.No, k.Move, k.Choose)
		if compact {
			tail = append(tail, buttons+"  "+th.Muted.Render("("+cur+")"), th.Muted.Render(hint))
		} else {
			tail = append(tail, buttons, th.Muted.Render(hint+" ("+cur+")"))
		}
	}
	fit := lipgloss.NewStyle().Width(inner)
	return strings.Split(fit.Render(strings.Join(tail, "\n")), "\n")
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
