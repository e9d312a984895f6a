package tui

import (
	"context"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
)

// keyPrompt asks for the profile's API key: on a first run without one,
// after a 401, and from Settings. The key is masked, checked by Options.Login
// (one cheap call, then stored in the keystore) in a command, and dropped
// from the input once accepted. A refused key stays in the (masked) input so
// a typo can be fixed.
type keyPrompt struct {
	common  *kit.Common
	reason  string
	envNote string // the key in use came from SKYSQL_API_KEY: what that means
	input   kit.Input
	busy    bool
	err     string
	attempt int
	width   int
	keys    keyPromptKeys
}

// keyPromptKeys are the prompt's bindings; its hint line and the footer
// are generated from them.
type keyPromptKeys struct {
	Submit, Later key.Binding
}

// keyLoginMsg is Options.Login's answer.
type keyLoginMsg struct {
	attempt int
	p       Profile
	err     error
}

func newKeyPrompt(c *kit.Common, reason string) *keyPrompt {
	in := kit.NewSecretInput("> ", "paste the API key", '*')
	in.Focus()
	return &keyPrompt{common: c, reason: reason, input: in, keys: keyPromptKeys{
		Submit: kit.Bind("enter", "check and store"),
		Later:  kit.Bind("esc", "later (:login reopens)"),
	}}
}

// KeyMap is the prompt's keys for the footer: its own, not a generic
// dialog's "enter choose".
func (k *keyPrompt) KeyMap() help.KeyMap {
	return kit.KeysOf(k.keys.Submit, k.keys.Later)
}

func (k *keyPrompt) Update(msg tea.Msg) (kit.Dialog, tea.Cmd) {
	switch msg := msg.(type) {
	case keyLoginMsg:
		if msg.attempt != k.attempt {
			return k, nil
		}
		k.busy = false
		if msg.err != nil {
			k.err = msg.err.Error()
		}
		return k, nil
	case tea.KeyPressMsg:
		if k.busy {
			return k, nil
		}
		switch {
		case key.Matches(msg, k.keys.Later):
			return k, func() tea.Msg { return kit.CloseDialogMsg{} }
		case key.Matches(msg, k.keys.Submit):
			token := strings.TrimSpace(k.input.Value())
			if token == "" {
				k.err = "API key: required (paste the key's token)"
				return k, nil
			}
			k.busy, k.err = true, ""
			k.attempt++
			return k, func() tea.Msg { return loginRequestMsg{key: token, attempt: k.attempt} }
		}
	}
	var cmd tea.Cmd
	k.input, cmd = k.input.Update(msg)
	return k, cmd
}

// loginRequestMsg asks the root to run Options.Login in a command.
type loginRequestMsg struct {
	key     string
	attempt int
}

// SetSize implements kit.Dialog: the prompt is as wide as it may be, up to
// 76 cells; its height is its text's.
func (k *keyPrompt) SetSize(width, _ int) {
	k.width = min(max(40, width), 76)
	k.input.SetWidth(k.width - 6)
}

func (k *keyPrompt) View() string {
	th := k.common.Theme
	w := k.width
	var b strings.Builder
	if k.reason != "" {
		b.WriteString(kit.Wrap(k.reason, w-4) + "\n\n")
	}
	if k.envNote != "" {
		b.WriteString(th.Warn.Render(kit.Wrap(k.envNote, w-4)) + "\n\n")
	}
	if c := k.common.Client; c != nil {
		b.WriteString(th.Muted.Render("endpoint ") + c.Host() + "\n")
	}
	if s := k.common.Secrets; s != nil {
		b.WriteString(th.Muted.Render("stored in ") + s.Backend().Label() + "\n")
	}
	b.WriteString("\n" + k.input.View() + "\n")
	switch {
	case k.busy:
		b.WriteString(th.Accent.Render("checking the key with the API...") + "\n")
	case k.err != "":
		b.WriteString(th.Error.Render(kit.Wrap(k.err, w-4)) + "\n")
	}
	b.WriteString("\n" + th.Muted.Render(kit.HintLine(k.keys.Submit, k.keys.Later)))
	return kit.Box(th, "API key for profile "+k.common.Profile, b.String(), w)
}

// openKeyPrompt shows the prompt unless it is already open.
func (m *Model) openKeyPrompt(reason string) tea.Cmd {
	switch {
	case m.opts.Login == nil && m.common.Demo:
		return m.toast(kit.ToastInfo, "the demo needs no API key: its sandbox has its own. For a real account, quit and run `skytui auth login`")
	case m.opts.Login == nil:
		return m.toast(kit.ToastError, "no keystore to store an API key in: run `skytui auth login`")
	}
	for _, d := range m.dialogs {
		if _, ok := d.(*keyPrompt); ok {
			return nil
		}
	}
	p := newKeyPrompt(m.common, reason)
	if m.opts.KeyFromEnv {
		p.envNote = envKeyNote
	}
	m.pushDialog(p)
	return nil
}

// envKeyNote is what the key prompt says when the key in use (the one the
// API refused, after a 401) came from the environment: a key entered here
// is stored, but the next start takes the environment's again.
const envKeyNote = "The key in use came from " + keystore.EnvAPIKey + " in the environment, which takes precedence over the keystore on every start: a key entered here is stored and used for this run, but the next start uses " + keystore.EnvAPIKey + " again. Unset it to use the stored key."

// login runs Options.Login (a network call and a keystore write) in a
// command and hands the answer to the prompt.
func (m *Model) login(req loginRequestMsg) tea.Cmd {
	login, ctx, profile := m.opts.Login, m.ctx, m.common.Profile
	return func() tea.Msg {
		cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		p, err := login(cctx, profile, req.key)
		return keyLoginMsg{attempt: req.attempt, p: p, err: err}
	}
}

func (m *Model) loggedIn(msg keyLoginMsg) tea.Cmd {
	if msg.err != nil || msg.p.Client == nil {
		// the prompt shows the error and keeps the input
		return m.toDialog(msg)
	}
	where := "the keystore"
	if s := m.common.Secrets; s != nil {
		where = s.Backend().Label()
	}
	done := "API key of profile " + msg.p.Name + " accepted and stored in " + where
	if m.opts.KeyFromEnv {
		done += "; " + keystore.EnvAPIKey + " still takes precedence at the next start (unset it to use the stored key)"
	}
	return m.applyProfile(msg.p, done)
}
