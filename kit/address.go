package kit

import (
	"reflect"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// Answers go to the component that asked. The root wraps every command a
// screen (or the front dialog) returns with Address, so what the command
// answers comes back as an Addressed message and is delivered to that
// screen alone, visible or not; nothing is broadcast. (gh-dash does the
// same with MakeSectionCmd.)

// Addressed is the answer of a command, for the component To: a screen's
// ID, or DialogAddress.
type Addressed struct {
	To  string
	Msg tea.Msg
}

// Send is a command that answers msg.
func Send(msg tea.Msg) tea.Cmd { return func() tea.Msg { return msg } }

// DialogAddress is the address of the front dialog.
const DialogAddress = "#dialog"

var cmdType = reflect.TypeOf(tea.Cmd(nil))

// Address wraps cmd so that its answer is addressed to `to`. Bubble Tea's
// own messages (quit, suspend, clipboard, window title…) pass unwrapped, so
// the runtime still sees them; a batch or sequence is unwrapped and each of
// its commands addressed in turn.
func Address(to string, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg { return address(to, cmd()) }
}

func address(to string, msg tea.Msg) tea.Msg {
	if msg == nil {
		return nil
	}
	if _, ok := msg.(Addressed); ok {
		return msg
	}
	v := reflect.ValueOf(msg)
	if v.Kind() == reflect.Slice && v.Type().Elem() == cmdType {
		// tea.BatchMsg, and the unexported sequence message
		out := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := 0; i < v.Len(); i++ {
			c, _ := v.Index(i).Interface().(tea.Cmd)
			out.Index(i).Set(reflect.ValueOf(Address(to, c)))
		}
		return out.Interface()
	}
	if isRuntimeMsg(v.Type()) {
		return msg
	}
	return Addressed{To: to, Msg: msg}
}

// isRuntimeMsg reports a message of Bubble Tea's own package: the runtime
// acts on those, so they must reach it as they are.
func isRuntimeMsg(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return strings.HasPrefix(t.PkgPath(), "charm.land/bubbletea/")
}
