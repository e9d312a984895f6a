package kit

import tea "charm.land/bubbletea/v2"

// Jumps between related things: a screen asks the root to show another
// screen opened on an argument (the Backups of the selected service); the
// root remembers where the jump came from, and esc on the screen jumped to
// goes back there once the screen has no use for esc itself.

// JumpMsg asks the root to show screen Screen opened on Arg (kit.Opener),
// remembering the screen that asked, which esc comes back to.
type JumpMsg struct {
	Screen string
	Arg    string
}

// Jump returns a command that asks for a jump.
func Jump(screen, arg string) tea.Cmd { return Send(JumpMsg{Screen: screen, Arg: arg}) }

// EscUser is implemented by a screen that can be jumped to: UsesEsc
// reports that esc has something to do on it now (clear a filter, hide
// the detail pane, leave a mode), which comes before going back. A screen
// that does not implement it keeps esc: the root never goes back from it.
type EscUser interface {
	UsesEsc() bool
}

// Scoped is implemented by a screen that a jump narrows (the Backups of
// one service): Scope is the Open argument that shows what the screen
// shows now. The root reads it before a jump opens the screen, and when
// esc goes back from that jump it opens the screen on it again: leaving a
// drill-down ends it, and what was chosen on the screen before (a picker,
// a ":" command) is shown again.
type Scoped interface {
	Opener
	Scope() string
}
