package kit

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// namedKeys are the keys KeyPress knows by name.
var namedKeys = map[string]rune{
	"enter":     tea.KeyEnter,
	"esc":       tea.KeyEscape,
	"tab":       tea.KeyTab,
	"space":     tea.KeySpace,
	"backspace": tea.KeyBackspace,
	"delete":    tea.KeyDelete,
	"up":        tea.KeyUp,
	"down":      tea.KeyDown,
	"left":      tea.KeyLeft,
	"right":     tea.KeyRight,
	"home":      tea.KeyHome,
	"end":       tea.KeyEnd,
	"pgup":      tea.KeyPgUp,
	"pgdown":    tea.KeyPgDown,
}

// KeyPress is the press of a key named as key bindings name them:
// "enter", "esc", "a", "ctrl+c", "shift+tab"...: a named key or one
// character, after any ctrl+ and shift+. A key pressed without a modifier
// carries its text. A click on a key in the footer is its first key
// pressed; tests press keys with it. ok is false for a name it does not
// know.
func KeyPress(k string) (msg tea.KeyPressMsg, ok bool) {
	name := k
	for {
		if rest, ok := strings.CutPrefix(name, "ctrl+"); ok && rest != "" {
			msg.Mod, name = msg.Mod|tea.ModCtrl, rest
		} else if rest, ok := strings.CutPrefix(name, "shift+"); ok && rest != "" {
			msg.Mod, name = msg.Mod|tea.ModShift, rest
		} else {
			break
		}
	}
	text := name
	if code, ok := namedKeys[name]; ok {
		msg.Code, text = code, ""
		if code == tea.KeySpace {
			text = " "
		}
	} else if r := []rune(name); len(r) == 1 {
		msg.Code = r[0]
	} else {
		return tea.KeyPressMsg{}, false
	}
	if msg.Mod == 0 {
		msg.Text = text
	}
	return msg, true
}
