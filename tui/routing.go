package tui

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// Update routes messages: keys go dialog → command line / help → focused
// input → global → active screen.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	// a toast that no longer holds (kit.ToastWhile) goes as soon as what
	// it says stops being so: a key, a fresh listing
	cmd = tea.Batch(cmd, m.retireToasts())
	if m.started && !m.quitting {
		if res := m.screen().Resources(); !m.engine.sameKeys(res) {
			cmd = tea.Batch(cmd, tea.Batch(m.engine.sync(res)...), m.startSpinner())
		}
	}
	return m, cmd
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	if a, ok := msg.(kit.Addressed); ok {
		if cmd, own := m.own(a.Msg, a.To); own {
			return cmd
		}
		if a.To == kit.DialogAddress {
			return m.toDialog(a.Msg)
		}
		return m.deliver(a.To, a.Msg)
	}
	if cmd, own := m.own(msg, ""); own {
		return cmd
	}
	// A message nobody addressed (a component's own tick started outside
	// any Update): the front dialog's, else the visible screen's.
	if len(m.dialogs) > 0 {
		return m.toDialog(msg)
	}
	return m.toScreen(msg)
}

// own handles the messages the root owns, whoever sent them; from is the
// address of the component whose command answered ("" for the runtime and
// the root itself). It reports false for any other message.
func (m *Model) own(msg tea.Msg, from string) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.common.Width, m.common.Height = msg.Width, msg.Height
		for _, s := range m.screens {
			s.SetSize(m.width, m.bodyHeight())
		}
		for _, d := range m.dialogs {
			d.SetSize(m.dialogArea())
		}
		m.cmdline.setWidth(m.width)
		// a form open on the visible screen lays itself out again now
		return m.toScreen(kit.ResizedMsg{}), true
	case tea.BackgroundColorMsg:
		m.common.Theme = newTheme(m.opts, msg.IsDark())
		for _, s := range m.screens {
			s.SetSize(m.width, m.bodyHeight()) // lay out again in the new theme
		}
		return nil, true
	case tea.KeyPressMsg:
		return m.handleKey(msg), true
	case tea.MouseClickMsg, tea.MouseWheelMsg:
		return m.onMouse(msg.(tea.MouseMsg)), true
	case tea.MouseReleaseMsg, tea.MouseMotionMsg:
		return nil, true // a click acts on the press
	case tea.PasteMsg:
		// pasted text goes where typed text would
		if len(m.dialogs) > 0 {
			return m.toDialog(msg), true
		}
		if m.cmdline.active {
			var cmd tea.Cmd
			m.cmdline.input, cmd = m.cmdline.input.Update(msg)
			return cmd, true
		}
		return m.toScreen(msg), true
	case pollTickMsg:
		return tea.Batch(m.engine.onTick(msg), m.startSpinner()), true
	case pollResultMsg:
		data, cmds := m.engine.onResult(msg)
		if data == nil {
			return nil, true
		}
		m.logRefresh(data.Key, data.Err)
		if data.Err == nil {
			m.logParts(data.Key, data.Parts)
		}
		if api.IsUnauthorized(data.Err) && m.opts.Login != nil {
			cmds = append(cmds, m.openUnaskedKeyPrompt("The API refused the key of profile "+m.common.Profile+" ("+oneLineErr(data.Err)+"). Enter a valid key, or esc to look around without one."))
		}
		if svcs, err, ok := kit.ServicesKey.Of(*data); ok && err == nil {
			m.known = svcs
		}
		m.noteRestores(*data)
		cmds = append(cmds, m.effectSeen(*data))
		return tea.Batch(append(cmds, m.toScreen(*data))...), true
	case kit.RefreshMsg:
		return tea.Batch(tea.Batch(m.engine.refresh(msg.Keys, len(msg.Keys) > 0)...), m.startSpinner()), true
	case clockMsg:
		return tea.Batch(m.toScreen(kit.ClockMsg{Now: m.common.Time()}), m.after(ClockInterval, clockMsg{})), true
	case spinMsg:
		m.spinFrame++
		if m.engine.inFlight() || len(m.actions.running) > 0 {
			return m.after(120*time.Millisecond, spinMsg{}), true
		}
		m.spinning = false
		return nil, true
	case kit.ToastMsg:
		return m.toastMsg(msg, from), true
	case toastExpireMsg:
		return m.expireToast(msg), true
	case kit.ActionRequestMsg:
		a := msg.Action
		if a.Origin == "" && from != "" && from != kit.DialogAddress {
			a.Origin = from // the screen whose command asked
		}
		if a.Origin == "" {
			a.Origin = m.screen().ID()
		}
		return m.requestAction(a), true
	case actionResultMsg:
		return m.actionDone(msg), true
	case kit.OutcomeCheckedMsg:
		m.outcomeChecked(msg)
		return nil, true
	case kit.ConfirmedMsg:
		m.removeDialog(msg.ID)
		if msg.ID == quitDialogID {
			if msg.Yes {
				m.quitting = true
				return tea.Quit, true
			}
			return nil, true
		}
		cmd, _ := m.confirmedAction(msg)
		return cmd, true
	case kit.OpenDialogMsg:
		m.pushDialog(msg.Dialog)
		return nil, true
	case kit.CloseDialogMsg:
		if n := len(m.dialogs); n > 0 {
			m.dialogs = m.dialogs[:n-1]
		}
		return nil, true
	case kit.PickedMsg:
		switch {
		case msg.Purpose == profilePurpose && msg.ID != "":
			return m.switchProfile(msg.ID), true
		case msg.Service == nil:
			return nil, true
		}
		return m.openScreen(msg.Purpose, msg.Service.ID), true
	case kit.JumpMsg:
		return m.onJump(msg, from), true
	case kit.WatchMsg:
		return m.startWatch(msg.Watch), true
	case watchTickMsg:
		return m.onWatchTick(msg), true
	case watchResultMsg:
		return m.onWatchResult(msg), true
	case profileOpenedMsg:
		return m.profileOpened(msg), true
	case loginRequestMsg:
		return m.login(msg), true
	case keyLoginMsg:
		return m.loggedIn(msg), true
	case keyPromptWaitMsg:
		return m.after(keyPromptArmDelay, keyPromptArmMsg(msg)), true
	case keyPromptArmMsg:
		m.armKeyPrompt(msg)
		return nil, true
	case kit.LoginRequestMsg:
		return m.openKeyPrompt(msg.Reason), true
	case kit.HelpMsg:
		// the ? of a screen that takes every key (the restore wizard's
		// first step); a hidden screen's comes too late
		if from == m.screen().ID() && len(m.dialogs) == 0 {
			m.showHelp = true
		}
		return nil, true
	case kit.DataMsg, kit.ClockMsg:
		return nil, true // only the engine and the clock send these
	}
	return nil, false
}

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	// ctrl+c by name, not m.keys.Quit: that binding is also "q", which is
	// text in a dialog or a field, while ctrl+c quits from anywhere. The
	// help lists it under Quit ("q quit"), which matches it too.
	if msg.String() == "ctrl+c" {
		return m.quit()
	}
	if key.Matches(msg, m.keys.Suspend) {
		// Bubble Tea leaves the alternate screen and raw mode, stops the
		// process group (SIGTSTP) and, on SIGCONT, takes the terminal back
		// and redraws; the shell reads what is typed meanwhile.
		return tea.Suspend
	}
	if len(m.dialogs) > 0 {
		return m.toDialog(msg)
	}
	if m.cmdline.active {
		return m.cmdline.update(m, msg)
	}
	if m.showHelp {
		m.updateHelp(msg)
		return nil
	}
	if m.width < MinWidth || m.height < MinHeight {
		if key.Matches(msg, m.keys.Quit) {
			return m.quit()
		}
		return nil
	}
	if m.screen().CapturesKeys() {
		return m.toScreen(msg)
	}
	switch {
	case key.Matches(msg, m.keys.Quit):
		return m.quit()
	case key.Matches(msg, m.keys.Help):
		m.showHelp = true
		return nil
	case key.Matches(msg, m.keys.Command):
		return m.cmdline.open(m.width)
	case key.Matches(msg, m.keys.Back) && m.canGoBack():
		return m.goBack()
	case key.Matches(msg, m.keys.Refresh):
		return tea.Batch(tea.Batch(m.engine.refresh(nil, false)...), m.startSpinner())
	case key.Matches(msg, m.keys.Pause):
		return m.togglePause()
	case key.Matches(msg, m.keys.Log):
		return m.openLog()
	case key.Matches(msg, m.keys.Dismiss):
		return m.dismissToast()
	case key.Matches(msg, m.keys.Screen1):
		return m.switchScreen(0)
	case key.Matches(msg, m.keys.Screen2):
		return m.switchScreen(1)
	case key.Matches(msg, m.keys.Screen3):
		return m.switchScreen(2)
	case key.Matches(msg, m.keys.Screen4):
		return m.switchScreen(3)
	case key.Matches(msg, m.keys.Screen5):
		return m.switchScreen(4)
	case key.Matches(msg, m.keys.Next):
		return m.switchScreen((m.active + 1) % len(m.screens))
	case key.Matches(msg, m.keys.Prev):
		return m.switchScreen((m.active + len(m.screens) - 1) % len(m.screens))
	}
	return m.toScreen(msg)
}

// toScreen hands a message to the visible screen.
func (m *Model) toScreen(msg tea.Msg) tea.Cmd { return m.updateScreen(m.active, msg) }

// deliver hands a message to the screen with the given ID, visible or not.
func (m *Model) deliver(id string, msg tea.Msg) tea.Cmd {
	for i, s := range m.screens {
		if s.ID() == id {
			return m.updateScreen(i, msg)
		}
	}
	return nil
}

// updateScreen updates screen i; what its commands answer comes back
// addressed to it.
func (m *Model) updateScreen(i int, msg tea.Msg) tea.Cmd {
	s, cmd := m.screens[i].Update(msg)
	m.screens[i] = s
	return kit.Address(s.ID(), cmd)
}

// pushDialog opens d in front of the others, sized to the dialog area.
func (m *Model) pushDialog(d kit.Dialog) {
	d.SetSize(m.dialogArea())
	m.dialogs = append(m.dialogs, d)
}

// dialogArea is what a dialog may cover: the body less a margin.
func (m *Model) dialogArea() (w, h int) { return m.width - 4, m.bodyHeight() - 2 }

// toDialog hands a message to the front dialog; what its commands answer
// comes back addressed to the front dialog.
func (m *Model) toDialog(msg tea.Msg) tea.Cmd {
	n := len(m.dialogs)
	if n == 0 {
		return nil
	}
	d, cmd := m.dialogs[n-1].Update(msg)
	m.dialogs[n-1] = d
	return kit.Address(kit.DialogAddress, cmd)
}

// switchScreen shows screen i. The polling generation changes, so replies
// for the screen left behind are dropped, and the new screen's resources
// are fetched at once.
func (m *Model) switchScreen(i int) tea.Cmd {
	if i < 0 || i >= len(m.screens) {
		return nil
	}
	if i == m.active {
		m.jumps = nil
		return nil // asked for the screen shown: it stays, the jumps are forgotten
	}
	end := m.endJumps()
	m.jumps = nil // a jump or a back sets them again (jump.go)
	m.active = i
	return tea.Batch(end, tea.Batch(m.engine.switchTo(m.screen().Resources())...), m.startSpinner())
}

func (m *Model) openScreen(id, arg string) tea.Cmd {
	for i, s := range m.screens {
		if s.ID() != id {
			continue
		}
		var cmd tea.Cmd
		if o, ok := s.(kit.Opener); ok && arg != "" {
			cmd = kit.Address(s.ID(), o.Open(arg))
		}
		return tea.Batch(cmd, m.switchScreen(i))
	}
	return m.toast(kit.ToastError, "no screen "+id)
}

func (m *Model) quit() tea.Cmd {
	if sub := m.actions.submitting(); len(sub) > 0 {
		for _, d := range m.dialogs {
			if c, ok := d.(*kit.ConfirmDialog); ok && c.ID == quitDialogID {
				return nil
			}
		}
		m.pushDialog(kit.NewConfirm(m.common, quitDialogID, kit.Confirm{
			Kind:  kit.ConfirmYesNo,
			Title: "Quit while submitting?",
			Detail: "Still being submitted: " + strings.Join(sub, ", ") +
				". The server may complete it anyway; you will not see the outcome. Quit now?",
		}))
		return nil
	}
	m.quitting = true
	return tea.Quit
}

func (m *Model) removeDialog(id int) {
	for i := len(m.dialogs) - 1; i >= 0; i-- {
		if c, ok := m.dialogs[i].(interface{ DialogID() int }); ok && c.DialogID() == id {
			m.dialogs = append(m.dialogs[:i], m.dialogs[i+1:]...)
			return
		}
	}
}

// togglePause pauses the automatic refresh (p) or resumes it, fetching
// everything at once. Watches of long operations go on either way.
func (m *Model) togglePause() tea.Cmd {
	k := m.keys
	m.dropToasts("auto-refresh ") // the newer says what is true now
	if !m.engine.paused {
		m.engine.pause(true)
		return m.toast(kit.ToastInfo, "auto-refresh paused: "+k.Refresh.Help().Key+" refreshes, "+k.Pause.Help().Key+" resumes")
	}
	cmds := m.engine.pause(false)
	return tea.Batch(tea.Batch(cmds...), m.startSpinner(), m.toast(kit.ToastInfo, "auto-refresh resumed"))
}
