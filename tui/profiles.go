package tui

import (
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
)

// switchProfile opens another profile (in a command: it may read a
// keystore). A profile with no API key stored comes back with its client
// (without a key) and an error that wraps keystore.ErrNotFound: it opens
// as a first start does, with the key prompt (profileOpened).
func (m *Model) switchProfile(name string) tea.Cmd {
	if m.opts.SwitchProfile == nil {
		return m.toast(kit.ToastError, "profiles are not configured: cannot switch to "+name)
	}
	if name == m.common.Profile {
		return m.toast(kit.ToastInfo, "already on profile "+name)
	}
	if p, ok := m.entered[name]; ok {
		// the key entered at the prompt this run, over the keystore's and
		// the environment's
		return func() tea.Msg { return profileOpenedMsg{p: p} }
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
	if errors.Is(msg.err, keystore.ErrNotFound) && msg.p.Client != nil {
		return m.applyKeylessProfile(msg.p)
	}
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
	cmds := m.resetForProfile(p, false)
	cmds = append(cmds, m.toast(kit.ToastSuccess, done), m.startSpinner())
	return tea.Batch(cmds...)
}

// applyKeylessProfile makes p, which has no API key stored, the current
// profile as a first start without a key does: polling stopped (nothing
// is sent, the screens say "no API key") and the key prompt open.
func (m *Model) applyKeylessProfile(p Profile) tea.Cmd {
	cmds := m.resetForProfile(p, true)
	cmds = append(cmds, m.toast(kit.ToastInfo, "switched to profile "+p.Name+", which has no API key yet"), m.startSpinner(),
		m.openKeyPrompt(noKeyReason(p.Name)))
	return tea.Batch(cmds...)
}

// noKeyReason is what the key prompt says of a profile without a key.
func noKeyReason(profile string) string {
	return "Profile " + profile + " has no API key yet. Paste the key's token: it is checked with one cheap call, then stored in the keystore, never in a file in clear."
}

// resetForProfile puts p's client to work with fresh screens and a new
// polling generation; with noKey, polling stays stopped until a key is
// entered. It returns the screens' Init and the first fetches.
func (m *Model) resetForProfile(p Profile, noKey bool) []tea.Cmd {
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
	if noKey {
		m.engine.stopped, m.engine.stopErr = true, errNoAPIKey
	}
	return append(cmds, m.engine.switchTo(m.screen().Resources())...)
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
		info := m.profileInfo(name)
		mark, ro := "", ""
		if name == m.common.Profile {
			mark = "current"
		}
		if info.ReadOnly {
			ro = "READ-ONLY"
		}
		rows = append(rows, kit.Row{ID: name, Cells: []string{name, mark, ro, api.CleanText(info.Host)}})
	}
	// the host gives way first (it shrinks, then goes), then the marks;
	// the name stays
	cols := []kit.Column{
		{Title: "PROFILE", Min: 8, Max: 40, Priority: 9},
		{Title: "", Min: 7, Max: 7, Priority: 7},
		{Title: "", Min: 9, Max: 9, Priority: 8},
		{Title: "ENDPOINT", Min: 8, Max: 40, Priority: 5},
	}
	return kit.OpenDialog(kit.NewChoicePicker(m.common, "Switch to which profile?", profilePurpose, cols, rows, m.common.Profile))
}

// profileInfo is what the picker says of profile name: for the one in use,
// its client's host and its read-only state (an --api-url or --read-only
// of this run included); for one whose key was entered this run, that
// client's host; else what the config file says (Options.ProfileDetails).
func (m *Model) profileInfo(name string) ProfileInfo {
	info := m.opts.ProfileDetails[name]
	switch p, entered := m.entered[name]; {
	case name == m.common.Profile:
		info.ReadOnly = m.common.ReadOnly
		if c := m.common.Client; c != nil {
			info.Host = c.Host()
		}
	case entered && p.Client != nil:
		info.Host, info.ReadOnly = p.Client.Host(), info.ReadOnly || p.ReadOnly
	}
	return info
}
