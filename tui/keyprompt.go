package tui

import (
	"context"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

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
	height  int
	top     int // the first line of the text shown when it is cut
	keys    keyPromptKeys
}

// keyPromptKeys are the prompt's bindings; its hint line and the footer
// are generated from them.
type keyPromptKeys struct {
	Submit, Later key.Binding
	// More and Less scroll the text above the input when it does not fit
	// (the input takes the other keys).
	More, Less key.Binding
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
		More:   kit.BindHelp("pgdn", "scroll", "pgdown"),
		Less:   kit.Bind("pgup", "scroll back"),
	}}
}

// KeyMap is the prompt's keys for the footer: its own, not a list's, and
// the scroll keys while the text above the input is cut.
func (k *keyPrompt) KeyMap() help.KeyMap {
	keys := []key.Binding{k.keys.Submit, k.keys.Later}
	if text, _, l := k.fit(); l.room < len(text) {
		keys = append(keys, kit.ScrollHelp(k.keys.More, k.keys.Less))
	}
	return kit.KeysOf(keys...)
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
		if d := kit.ScrollDir(msg, k.keys.More, k.keys.Less); d != 0 {
			text, _, l := k.fit()
			if first, rows, cut := kit.TextWindow(len(text), l.room, k.top); cut {
				k.top = kit.PageTop(first, rows, len(text), d)
			}
			return k, nil
		}
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
// 76 cells, and as tall as its text or the area.
func (k *keyPrompt) SetSize(width, height int) {
	k.width, k.height = min(max(40, width), 76), height
	k.input.SetWidth(k.width - 6)
}

// promptLayout is how the prompt fits its height.
type promptLayout struct {
	gaps     bool // a blank line above the input and above the keys' line
	hint     bool // the keys' line (the footer has the same keys)
	titleGap bool // the blank line under the title
	room     int  // lines for the text above the input: it scrolls when cut
}

// text is what the prompt says above its input: why it asks, the
// environment's note, where the key is checked and stored.
func (k *keyPrompt) text() []string {
	th := k.common.Theme
	inner := k.width - 4
	var lines []string
	if k.reason != "" {
		lines = append(lines, strings.Split(kit.Wrap(k.reason, inner), "\n")...)
		lines = append(lines, "")
	}
	if k.envNote != "" {
		for _, l := range strings.Split(kit.Wrap(k.envNote, inner), "\n") {
			lines = append(lines, th.Warn.Render(l))
		}
		lines = append(lines, "")
	}
	if c := k.common.Client; c != nil {
		lines = append(lines, th.Muted.Render("endpoint ")+c.Host())
	}
	if s := k.common.Secrets; s != nil {
		lines = append(lines, th.Muted.Render("stored in ")+s.Backend().Label())
	}
	if n := len(lines); n > 0 && lines[n-1] == "" {
		lines = lines[:n-1]
	}
	return lines
}

// foot is the input and what is said of it: the check running, or the
// refusal (at most errLines lines; 0: all).
func (k *keyPrompt) foot(errLines int) []string {
	th := k.common.Theme
	lines := []string{k.input.View()}
	switch {
	case k.busy:
		lines = append(lines, th.Accent.Render("checking the key with the API..."))
	case k.err != "":
		text := kit.Wrap(k.err, k.width-4)
		if errLines > 0 {
			text = kit.CapText(k.err, k.width-4, errLines, th.Glyphs.Ellipsis)
		}
		for _, l := range strings.Split(text, "\n") {
			lines = append(lines, th.Error.Render(l))
		}
	}
	return lines
}

// fit lays the prompt out in its height. The input and the refusal (with
// its trace ID) never leave the box: the blank lines go first, then the
// text above the input scrolls (pgdn, pgup) under the title, with a line
// saying what is above and below, and the keys' line leaves the box to
// the footer, then the blank line under the title goes. Only a refusal
// too long for the area is cut, its last line ending in the ellipsis.
func (k *keyPrompt) fit() (text, foot []string, l promptLayout) {
	text, foot = k.text(), k.foot(0)
	whole := promptLayout{gaps: true, hint: true, titleGap: true, room: len(text)}
	if k.height <= 0 {
		return text, foot, whole
	}
	// the box: its border and the title take 3 lines, 4 with the blank
	// under the title
	if 4+len(text)+len(foot)+3 <= k.height {
		return text, foot, whole
	}
	if 4+len(text)+len(foot)+1 <= k.height {
		return text, foot, promptLayout{hint: true, titleGap: true, room: len(text)}
	}
	// cut: at least a line of the text and the line saying what is cut
	if room := k.height - 4 - len(foot); room >= 2 {
		return text, foot, promptLayout{titleGap: true, room: room}
	}
	room := k.height - 3 - len(foot)
	if room < 2 {
		foot = k.foot(max(1, k.height-3-2-1))
		room = max(0, k.height-3-len(foot))
	}
	return text, foot, promptLayout{room: room}
}

func (k *keyPrompt) View() string {
	th := k.common.Theme
	w := k.width
	text, foot, l := k.fit()
	title := "API key for profile " + k.common.Profile
	var body []string
	if !l.titleGap {
		// kit.Box puts a blank line under its title: the title is the
		// body's first line instead
		body = append(body, th.Title.Render(ansi.Truncate(title, w-4, th.Glyphs.Ellipsis)))
		title = ""
	}
	first, rows, cut := kit.TextWindow(len(text), l.room, k.top)
	body = append(body, text[first:first+rows]...)
	if cut && l.room > 0 {
		body = append(body, th.Muted.Render(kit.MoreLine(k.common, k.keys.More, k.keys.Less, first, len(text)-first-rows)))
	}
	if l.gaps && len(text) > 0 {
		body = append(body, "")
	}
	body = append(body, foot...)
	if l.hint {
		if l.gaps {
			body = append(body, "")
		}
		body = append(body, th.Muted.Render(kit.HintLine(k.keys.Submit, k.keys.Later)))
	}
	return kit.Box(th, title, strings.Join(body, "\n"), w)
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
