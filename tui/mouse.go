package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/kit"
)

// The mouse (off with --no-mouse and in --accessible, where the terminal
// keeps its own selection and scrolling):
//   - a click on a tab shows that screen; on a key in the footer presses
//     it; on the message line opens the message log;
//   - a click on a row selects it, a click on the selected row is enter;
//   - in a dialog, a click on a button or a row is the same as choosing
//     it with the keys (the dialog decides);
//   - the wheel moves the selection in a list, scrolls a detail pane, the
//     help and the message log.
// Everything a click does is a key's: the mouse adds no action of its own.

// wheelStep is how far a wheel notch moves a pane or the help.
const wheelStep = 3

// mouseOn reports whether skytui takes the mouse.
func (m *Model) mouseOn() bool { return !m.opts.NoMouse && !m.opts.Accessible }

// onMouse handles a click (left button) or a wheel turn.
func (m *Model) onMouse(msg tea.MouseMsg) tea.Cmd {
	if !m.mouseOn() || m.width < MinWidth || m.height < MinHeight || m.cmdline.active {
		return nil
	}
	ms := msg.Mouse()
	switch msg.(type) {
	case tea.MouseClickMsg:
		if ms.Button != tea.MouseLeft {
			return nil
		}
		return m.click(ms.X, ms.Y)
	case tea.MouseWheelMsg:
		switch ms.Button {
		case tea.MouseWheelUp:
			return m.wheel(ms.X, ms.Y, -1)
		case tea.MouseWheelDown:
			return m.wheel(ms.X, ms.Y, 1)
		}
	}
	return nil
}

// bodyTop is the first line of the body (under the header and the tabs).
const bodyTop = 2

func (m *Model) click(x, y int) tea.Cmd {
	bh := m.bodyHeight()
	switch {
	case y == m.height-1:
		return m.clickFooter(x)
	case len(m.dialogs) > 0:
		if y >= bodyTop && y < bodyTop+bh {
			return m.toDialogAt(x, y-bodyTop, func(dx, dy int) tea.Msg {
				return tea.MouseClickMsg{X: dx, Y: dy, Button: tea.MouseLeft}
			})
		}
		return nil
	case m.showHelp:
		return nil
	case y == 1:
		if i, ok := m.tabAt(x); ok {
			return m.switchScreen(i)
		}
		return nil
	case y >= m.height-1-len(m.messageView(m.width)) && len(m.toasts) > 0:
		return m.openLog()
	case y >= bodyTop && y < bodyTop+bh:
		l, top := m.mouseList()
		if l == nil {
			return nil
		}
		what, i := l.At(x, y-bodyTop-top)
		if what != kit.MouseRow {
			return nil
		}
		if l.ClickRow(i) {
			// the selected row again: enter, as the screen means it
			return m.pressKey("enter")
		}
	}
	return nil
}

func (m *Model) wheel(x, y, n int) tea.Cmd {
	bh := m.bodyHeight()
	if y < bodyTop || y >= bodyTop+bh {
		return nil
	}
	switch {
	case len(m.dialogs) > 0:
		button := tea.MouseWheelDown
		if n < 0 {
			button = tea.MouseWheelUp
		}
		return m.toDialogAt(x, y-bodyTop, func(dx, dy int) tea.Msg {
			return tea.MouseWheelMsg{X: dx, Y: dy, Button: button}
		})
	case m.showHelp:
		_, _, _, maxOff := m.helpLayout(m.width, bh)
		m.helpOffset = min(max(0, m.helpOffset+n*wheelStep), maxOff)
		return nil
	}
	l, top := m.mouseList()
	if l == nil {
		return nil
	}
	what, _ := l.At(x, y-bodyTop-top)
	if what == kit.MousePane {
		n *= wheelStep
	}
	l.Wheel(what, n)
	return nil
}

// mouseList is the list the visible screen shows now, if any.
func (m *Model) mouseList() (*kit.ListView, int) {
	if ml, ok := m.screen().(kit.MouseList); ok && !m.screen().CapturesKeys() {
		return ml.MouseList()
	}
	return nil, 0
}

// toDialogAt sends the front dialog a mouse message at (x, y) of the body,
// in the dialog's own cells; a point outside the dialog goes nowhere.
func (m *Model) toDialogAt(x, y int, msg func(dx, dy int) tea.Msg) tea.Cmd {
	d := m.dialogs[len(m.dialogs)-1]
	bl := strings.Split(d.View(), "\n")
	ox, oy, bw := boxOrigin(bl, m.width, m.bodyHeight())
	dx, dy := x-ox, y-oy
	if dx < 0 || dy < 0 || dx >= bw || dy >= len(bl) {
		return nil
	}
	return m.toDialog(msg(dx, dy))
}

// tabAt is the screen whose tab is drawn at column x (tabsView).
func (m *Model) tabAt(x int) (int, bool) {
	at := 1
	for i, label := range m.tabLabels(m.width) {
		w := ansi.StringWidth(label)
		if x >= at && x < at+w {
			return i, true
		}
		at += w
	}
	return 0, false
}

// clickFooter presses the footer key drawn at column x.
func (m *Model) clickFooter(x int) tea.Cmd {
	_, keys := m.footerLayout(m.width)
	for _, k := range keys {
		if x >= k.x0 && x < k.x1 && len(k.b.Keys()) > 0 {
			return m.pressKey(k.b.Keys()[0])
		}
	}
	return nil
}

// pressKey handles a key as if it were typed.
func (m *Model) pressKey(name string) tea.Cmd {
	kp, ok := kit.KeyPress(name)
	if !ok {
		return nil
	}
	return m.handleKey(kp)
}
