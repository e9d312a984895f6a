package tui

import (
	"context"
	"fmt"
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
//
// A prompt that opened by itself (a 401 answered while the user typed) is
// locked: it takes no key typed before it could be seen. It is armed once
// no key came for keyPromptArmDelay (from its opening, then from the last
// key dropped); until then every key is dropped, the enter of a command
// typed elsewhere too, and the prompt says so instead of naming keys.
// Armed, enter opens the input and esc closes it. The dropped keys are
// counted and said, those typed before it was first armed as typed as it
// opened.
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
	// locked: opened by itself, the input takes nothing until enter;
	// armed: enter may open it; arms counts the arm timers started (the
	// last one arms)
	locked, armed bool
	arms          int
	// early are the keys (and pastes) dropped before the prompt was first
	// armed, typed as it opened; later those dropped since
	early, later int
	wasArmed     bool
}

// keyPromptKeys are the prompt's bindings; its hint line and the footer
// are generated from them.
type keyPromptKeys struct {
	Submit, Later key.Binding
	// Unlock opens the input of a prompt that opened by itself, once it is
	// armed; Wait is what it says until then (every key is dropped).
	Unlock, Wait key.Binding
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
		Unlock: kit.Bind("enter", "type a new key"),
		Wait:   kit.BindHelp("wait:", "keys typed now are dropped", "enter", "esc"),
		Later:  kit.Bind("esc", "later (:login reopens)"),
		More:   kit.BindHelp("pgdn", "scroll", "pgdown"),
		Less:   kit.Bind("pgup", "scroll back"),
	}}
}

// KeyMap is the prompt's keys for the footer: its own, not a list's, and
// the scroll keys while the text above the input is cut; while a locked
// prompt is not armed, that keys are dropped.
func (k *keyPrompt) KeyMap() help.KeyMap {
	keys := k.hintKeys()
	if k.locked && !k.armed {
		return kit.KeysOf(keys...)
	}
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
	case keyPromptArmMsg:
		k.armed = k.armed || (msg.prompt == k && msg.n == k.arms)
		k.wasArmed = k.wasArmed || k.armed
		return k, nil
	case tea.PasteMsg:
		if k.locked {
			return k, k.drop()
		}
	case tea.KeyPressMsg:
		if k.locked {
			return k, k.lockedKey(msg)
		}
		if kit.ScrollDir(msg, k.keys.More, k.keys.Less) != 0 {
			k.scroll(msg)
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

// hintKeys are the keys that work now, as the prompt's hint line and the
// footer name them: a locked prompt's enter and esc once it is armed, and
// before that, that keys are dropped.
func (k *keyPrompt) hintKeys() []key.Binding {
	switch {
	case k.locked && !k.armed:
		return []key.Binding{k.keys.Wait}
	case k.locked:
		return []key.Binding{k.keys.Unlock, k.keys.Later}
	}
	return []key.Binding{k.keys.Submit, k.keys.Later}
}

// lockedKey is a key the locked prompt was given: before it is armed, all
// are dropped; then the scroll keys scroll, esc closes, enter opens the
// input and any other key is dropped.
func (k *keyPrompt) lockedKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case !k.armed:
	case kit.ScrollDir(msg, k.keys.More, k.keys.Less) != 0:
		k.scroll(msg)
		return nil
	case key.Matches(msg, k.keys.Later):
		return func() tea.Msg { return kit.CloseDialogMsg{} }
	case key.Matches(msg, k.keys.Unlock):
		k.locked, k.early, k.later = false, 0, 0
		return k.input.Focus()
	}
	return k.drop()
}

// drop counts a key the locked prompt did not take and disarms it until no
// key came for keyPromptArmDelay: the user is still typing elsewhere.
func (k *keyPrompt) drop() tea.Cmd {
	if k.wasArmed {
		k.later++
	} else {
		k.early++
	}
	return k.disarm()
}

// droppedNote says how many keys the locked prompt dropped, and how many
// of them were typed as it opened (before it was first armed).
func (k *keyPrompt) droppedNote() string {
	n := k.early + k.later
	switch {
	case n == 0:
		return ""
	case k.later == 0 && n == 1:
		return "1 key typed as this opened was dropped: nothing was sent"
	case k.later == 0:
		return fmt.Sprintf("%d keys typed as this opened were dropped: nothing was sent", n)
	case k.early == 0:
		return kit.Count(n, "key", "keys") + " dropped: nothing was sent"
	}
	return fmt.Sprintf("%d keys dropped, %d of them typed as this opened: nothing was sent", n, k.early)
}

// disarm starts the wait for the quiet that arms the locked prompt (the
// root's timer, in a command).
func (k *keyPrompt) disarm() tea.Cmd {
	k.armed = false
	k.arms++
	wait := keyPromptWaitMsg{prompt: k, n: k.arms}
	return func() tea.Msg { return wait }
}

// scroll moves the text above the input a page (pgdn, pgup) when it is cut.
func (k *keyPrompt) scroll(msg tea.KeyPressMsg) {
	d := kit.ScrollDir(msg, k.keys.More, k.keys.Less)
	text, _, l := k.fit()
	if first, rows, cut := kit.TextWindow(len(text), l.room, k.top); cut {
		k.top = kit.PageTop(first, rows, len(text), d)
	}
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
// refusal (at most errLines lines; 0: all). A locked prompt has no input
// yet: its foot is the keys that work now (hintKeys, never left out of
// the box) and the keys it dropped.
func (k *keyPrompt) foot(errLines int) []string {
	th := k.common.Theme
	lines := []string{k.input.View()}
	if k.locked {
		lines = []string{th.Accent.Render(ansi.Truncate(kit.HintLine(k.hintKeys()...), k.width-4, th.Glyphs.Ellipsis))}
		if note := k.droppedNote(); note != "" {
			for _, l := range strings.Split(kit.Wrap(note, k.width-4), "\n") {
				lines = append(lines, th.Warn.Render(l))
			}
		}
		return lines
	}
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
	// a locked prompt's keys are its foot's first line, not a line of
	// their own
	hint := !k.locked
	whole := promptLayout{gaps: true, hint: hint, titleGap: true, room: len(text)}
	if k.height <= 0 {
		return text, foot, whole
	}
	// the box: its border and the title take 3 lines, 4 with the blank
	// under the title; the keys' line 1 more (none when they are in the
	// foot), and the gaps 1 each
	keys := 1
	if !hint {
		keys = 0
	}
	if 4+len(text)+len(foot)+keys+1+keys <= k.height {
		return text, foot, whole
	}
	if 4+len(text)+len(foot)+keys <= k.height {
		return text, foot, promptLayout{hint: hint, titleGap: true, room: len(text)}
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
		body = append(body, th.Muted.Render(kit.HintLine(k.hintKeys()...)))
	}
	return kit.Box(th, title, strings.Join(body, "\n"), w)
}

// openKeyPrompt shows the prompt the user asked for (K, :login, the
// first start without a key) unless it is already open: it takes keys at
// once.
func (m *Model) openKeyPrompt(reason string) tea.Cmd {
	return m.showKeyPrompt(reason, false)
}

// keyPromptArmDelay is the quiet after which the prompt that opened by
// itself takes enter: keys coming faster were typed before it was seen.
const keyPromptArmDelay = 700 * time.Millisecond

// openUnaskedKeyPrompt shows the prompt because of an answer (a 401), not
// because the user asked: it is locked (keyPrompt) and armed after
// keyPromptArmDelay without a key.
func (m *Model) openUnaskedKeyPrompt(reason string) tea.Cmd {
	return m.showKeyPrompt(reason, true)
}

func (m *Model) showKeyPrompt(reason string, locked bool) tea.Cmd {
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
	if !locked {
		return nil
	}
	p.locked = true
	p.input.Blur()
	return p.disarm()
}

// armKeyPrompt hands the arm timer to the open prompt, wherever it is in
// the stack of dialogs.
func (m *Model) armKeyPrompt(msg keyPromptArmMsg) {
	for i, d := range m.dialogs {
		if p, ok := d.(*keyPrompt); ok {
			m.dialogs[i], _ = p.Update(msg)
		}
	}
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
	// the key is this profile's for the rest of the run, over the
	// environment's (a switch back uses it)
	if m.entered == nil {
		m.entered = map[string]Profile{}
	}
	m.entered[msg.p.Name] = msg.p
	if msg.p.Name != m.common.Profile {
		return m.applyProfile(msg.p, done)
	}
	return m.renewKey(msg.p, done)
}

// renewKey puts the key entered for the profile in use to work: the
// screens stay as they are (a form, a wizard left as a draft, a filter),
// only the client changes and polling starts again at once.
func (m *Model) renewKey(p Profile, done string) tea.Cmd {
	c := m.common
	c.Client, c.ReadOnly = p.Client, c.ReadOnly || p.ReadOnly
	m.opts.KeyFromEnv = p.KeyFromEnv
	for i := len(m.dialogs) - 1; i >= 0; i-- {
		if _, ok := m.dialogs[i].(*keyPrompt); ok {
			m.dialogs = append(m.dialogs[:i], m.dialogs[i+1:]...)
		}
	}
	m.engine.resetFreshness()
	cmds := m.engine.switchTo(m.screen().Resources())
	cmds = append(cmds, m.toast(kit.ToastSuccess, done), m.startSpinner())
	return tea.Batch(cmds...)
}

// keyPromptArmMsg: the prompt that opened by itself had no key for
// keyPromptArmDelay since its n-th arm timer (the last one arms it).
type keyPromptArmMsg struct {
	prompt *keyPrompt
	n      int
}

// keyPromptWaitMsg asks the root for the n-th arm timer of the prompt.
type keyPromptWaitMsg keyPromptArmMsg
