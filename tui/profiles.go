package tui

import (
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/kit"
)

// switchProfile opens another profile (in a command: it may read a
// keystore).
func (m *Model) switchProfile(name string) tea.Cmd {
	if m.opts.SwitchProfile == nil {
		return m.toast(kit.ToastError, "profiles are not configured: cannot switch to "+name)
	}
	if name == m.common.Profile {
		return m.toast(kit.ToastInfo, "already on profile "+name)
	}
	open := m.opts.SwitchProfile
	return func() tea.Msg {
		p, err := open(name)
		if p.Name == "" {
			p.Name = name
		}
		return profileOpenedMsg{p: p, err: err}
	}
}

func (m *Model) profileOpened(msg profileOpenedMsg) tea.Cmd {
	if msg.err != nil {
		return m.toast(kit.ToastError, "profile "+msg.p.Name+": "+msg.err.Error())
	}
	if msg.p.Client == nil {
		return m.toast(kit.ToastError, "profile "+msg.p.Name+": no API client")
	}
	return m.applyProfile(msg.p, "switched to profile "+msg.p.Name)
}

// applyProfile makes p the current profile: new client, fresh screens, a
// new polling generation, then a toast.
func (m *Model) applyProfile(p Profile, done string) tea.Cmd {
	msg := profileOpenedMsg{p: p}
	c := m.common
	c.Client, c.Profile, c.ReadOnly, c.Demo = msg.p.Client, msg.p.Name, msg.p.ReadOnly, msg.p.Demo
	m.opts.KeyFromEnv = p.KeyFromEnv // the key prompt's note follows the client
	m.profileGen++
	m.known = nil
	m.dialogs, m.jumps = nil, nil
	m.screens = m.buildScreens()
	cmds := []tea.Cmd{}
	for _, s := range m.screens {
		s.SetSize(m.width, m.bodyHeight())
		cmds = append(cmds, kit.Address(s.ID(), s.Init()))
	}
	m.engine.resetFreshness()
	cmds = append(cmds, m.engine.switchTo(m.screen().Resources())...)
	cmds = append(cmds, m.toast(kit.ToastSuccess, done), m.startSpinner())
	return tea.Batch(cmds...)
}

// profilePurpose marks the profile picker's answer.
const profilePurpose = "profile"

// openProfilePicker opens the picker of ":profile" alone: the configured
// profiles, the current one selected and marked.
func (m *Model) openProfilePicker() tea.Cmd {
	if len(m.opts.Profiles) == 0 || m.opts.SwitchProfile == nil {
		return m.toast(kit.ToastInfo, "profile "+m.common.Profile+": no other profile is configured (skytui auth login --profile NAME --api-url URL adds one)")
	}
	rows := make([]kit.Row, 0, len(m.opts.Profiles))
	for _, name := range m.opts.Profiles {
		mark := ""
		if name == m.common.Profile {
			mark = "current"
		}
		rows = append(rows, kit.Row{ID: name, Cells: []string{name, mark}})
	}
	cols := []kit.Column{{Title: "PROFILE", Min: 8, Max: 40, Priority: 9}, {Title: "", Min: 7, Max: 7, Priority: 8}}
	return kit.OpenDialog(kit.NewChoicePicker(m.common, "Switch to which profile?", profilePurpose, cols, rows, m.common.Profile))
}
