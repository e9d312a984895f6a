package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/kit"
)

// Jumps (kit.JumpMsg): a screen asks to show another one opened on an
// argument; the root pushes where it came from, and esc on the screen
// jumped to (once that screen has no use for esc: kit.EscUser) pops back.
// Any other switch (a number, tab, a ":" command, a profile) forgets the
// jumps: esc then means what it means on the screen alone.

// jump is one jump made: from screen index from to screen index to; a
// screen jumped to that is kit.Scoped had scope before the jump (scoped).
type jump struct {
	from, to int
	scope    string
	scoped   bool
}

// onJump shows the screen asked for, opened on its argument, and
// remembers the visible screen; from is the address of the asker, which
// must be the visible screen (an answer that arrives after the user moved
// on jumps nowhere).
func (m *Model) onJump(msg kit.JumpMsg, from string) tea.Cmd {
	if from != "" && from != m.screen().ID() {
		return nil
	}
	back := m.active
	stack := m.jumps
	j := jump{from: back}
	for _, s := range m.screens {
		if sc, ok := s.(kit.Scoped); ok && s.ID() == msg.Screen {
			j.scope, j.scoped = sc.Scope(), true
		}
	}
	m.jumps = nil // kept, not ended: the way back goes on through them
	cmd := m.openScreen(msg.Screen, msg.Arg)
	if m.active != back {
		j.to = m.active
		m.jumps = append(stack, j)
	} else {
		m.jumps = stack // a jump to the screen shown keeps the way back
	}
	return cmd
}

// canGoBack reports that esc goes back: a jump led to the visible screen
// and the screen has nothing left for esc to do.
func (m *Model) canGoBack() bool {
	n := len(m.jumps)
	if n == 0 || m.jumps[n-1].to != m.active {
		return false
	}
	u, ok := m.screen().(kit.EscUser)
	return ok && !u.UsesEsc()
}

// goBack shows the screen the last jump came from, as it was left (its
// selection kept); the screen left, when kit.Scoped, shows again what it
// showed before the jump (endJumps: the jump's narrowing ends with it).
func (m *Model) goBack() tea.Cmd {
	n := len(m.jumps)
	j, rest := m.jumps[n-1], m.jumps[:n-1]
	m.jumps = []jump{j} // the one left; the jumps before it lead on back
	cmd := m.switchScreen(j.from)
	m.jumps = rest
	return cmd
}

// endJumps ends the narrowing of the jumps left behind (switchScreen, when
// another screen is shown): a kit.Scoped screen a jump opened shows again
// what it showed before that jump, so Services' b, then esc or 1, then 2
// shows the Backups as they were chosen there (all services, or f's
// choice), not the one service of the visit.
func (m *Model) endJumps() tea.Cmd {
	var cmds []tea.Cmd
	for i := len(m.jumps) - 1; i >= 0; i-- {
		j := m.jumps[i]
		if sc, ok := m.screens[j.to].(kit.Scoped); ok && j.scoped {
			cmds = append(cmds, kit.Address(m.screens[j.to].ID(), sc.Open(j.scope)))
		}
	}
	return tea.Batch(cmds...)
}

// backBinding is the global esc, described with where it goes back to.
func (m *Model) backBinding() key.Binding {
	b := m.keys.Back
	if n := len(m.jumps); n > 0 {
		b.SetHelp(b.Help().Key, "back to "+strings.ToLower(m.screens[m.jumps[n-1].from].Title()))
	}
	return b
}
