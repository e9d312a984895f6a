package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/screens/backups"
	"github.com/skytui/skytui/screens/replication"
	"github.com/skytui/skytui/screens/restores"
	"github.com/skytui/skytui/screens/services"
	"github.com/skytui/skytui/screens/settings"
	"github.com/skytui/skytui/theme"
	"github.com/skytui/skytui/tui/kit"
)

// Internal messages of the root.
type (
	clockMsg         struct{}
	spinMsg          struct{}
	toastExpireMsg   struct{ id int }
	profileOpenedMsg struct {
		p   Profile
		err error
	}
)

// errNoAPIKey stops polling on a first run until a key is entered.
var errNoAPIKey = errors.New("no API key")

func oneLineErr(err error) string { return strings.Join(strings.Fields(err.Error()), " ") }

// quitDialogID is the confirmation dialog of "quit while submitting".
const quitDialogID = -1

type toast struct {
	id    int
	level kit.ToastLevel
	text  string
}

type globalKeys struct {
	Screen1, Screen2, Screen3, Screen4 key.Binding
	Screen5                            key.Binding
	Next, Prev                         key.Binding
	Help, Command, Refresh, Back, Quit key.Binding
	Suspend                            key.Binding
}

func defaultGlobalKeys() globalKeys {
	return globalKeys{
		Screen1: key.NewBinding(key.WithKeys("1"), key.WithHelp("1", "services")),
		Screen2: key.NewBinding(key.WithKeys("2"), key.WithHelp("2", "backups")),
		Screen3: key.NewBinding(key.WithKeys("3"), key.WithHelp("3", "restores")),
		Screen4: key.NewBinding(key.WithKeys("4"), key.WithHelp("4", "replication")),
		Screen5: key.NewBinding(key.WithKeys("5"), key.WithHelp("5", "settings")),
		Next:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next screen")),
		Prev:    key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous screen")),
		Help:    key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Command: key.NewBinding(key.WithKeys(":"), key.WithHelp(":", "command")),
		Refresh: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Back:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Quit:    key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		// ctrl+z works everywhere, in a form field too (handleKey)
		Suspend: key.NewBinding(key.WithKeys("ctrl+z"), key.WithHelp("ctrl+z", "suspend")),
	}
}

func (k globalKeys) list() []key.Binding {
	return []key.Binding{k.Screen1, k.Screen2, k.Screen3, k.Screen4, k.Screen5, k.Next, k.Prev,
		k.Help, k.Command, k.Refresh, k.Back, k.Quit, k.Suspend}
}

// Model is the root model of the application.
type Model struct {
	opts    Options
	ctx     context.Context
	common  *kit.Common
	screens []kit.Screen
	active  int
	engine  *engine
	actions *actionLayer
	// profileGen changes on a profile switch; answers of actions started
	// under another profile only toast.
	profileGen int
	actionGen  map[int]int

	dialogs    []kit.Dialog
	showHelp   bool
	helpOffset int
	helpMax    int
	cmdline    *cmdLine
	toasts     []toast
	toastID    int
	keys       globalKeys
	after      func(time.Duration, tea.Msg) tea.Cmd

	width, height int
	spinning      bool
	spinFrame     int
	known         []api.Service // last services listing, for completion and the picker
	quitting      bool
	started       bool // Init ran: the engine follows the screen's resources

	// watches are long operations followed whatever screen is shown (watch.go).
	watches *watcher
}

// New builds the root model.
func New(opts Options) *Model { return newModel(context.Background(), opts) }

func newModel(ctx context.Context, opts Options) *Model {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	if opts.Profile == "" {
		opts.Profile = "default"
	}
	after := opts.After
	if after == nil {
		after = func(d time.Duration, msg tea.Msg) tea.Cmd {
			return tea.Tick(d, func(time.Time) tea.Msg { return msg })
		}
	}
	noColor := opts.NoColor || theme.NoColorEnv(opts.Getenv)
	opts.NoColor = noColor
	c := &kit.Common{
		Theme:      theme.New(theme.Options{Dark: true, NoColor: noColor, Unicode: opts.Unicode, Accessible: opts.Accessible}),
		Client:     opts.Client,
		Secrets:    opts.Secrets,
		Profile:    opts.Profile,
		ReadOnly:   opts.ReadOnly,
		Demo:       opts.Demo,
		Accessible: opts.Accessible,
		Now:        opts.Now,
		Getenv:     opts.Getenv,
		Context:    ctx,
	}
	m := &Model{
		opts:      opts,
		ctx:       ctx,
		common:    c,
		actions:   newActionLayer(),
		actionGen: map[int]int{},
		keys:      defaultGlobalKeys(),
		after:     after,
	}
	m.engine = newEngine(ctx, opts.FastInterval, opts.SlowInterval, after, opts.Now)
	if opts.NeedKey {
		// nothing to poll with until a key is entered
		m.engine.stopped, m.engine.stopErr = true, errNoAPIKey
	}
	m.cmdline = newCmdLine(c)
	m.screens = m.buildScreens()
	return m
}

func (m *Model) buildScreens() []kit.Screen {
	if m.opts.Screens != nil {
		return m.opts.Screens(m.common)
	}
	return []kit.Screen{
		services.New(m.common),
		backups.New(m.common),
		restores.New(m.common),
		replication.New(m.common),
		settings.New(m.common).WithConfigWarnings(m.opts.ConfigWarnings),
	}
}

// Init starts the first fetch, background detection and the clock.
func (m *Model) Init() tea.Cmd {
	m.started = true
	cmds := []tea.Cmd{tea.RequestBackgroundColor, m.after(ClockInterval, clockMsg{})}
	for _, s := range m.screens {
		cmds = append(cmds, s.Init())
	}
	cmds = append(cmds, m.engine.switchTo(m.screen().Resources())...)
	cmds = append(cmds, m.startSpinner())
	if n := len(m.opts.ConfigWarnings); n > 0 {
		cmds = append(cmds, kit.Toast(kit.ToastWarn, configWarningsToast(n, m.keys.Screen5.Help().Key, m.common.Theme.Glyphs.Dash)))
	}
	if m.opts.NeedKey {
		cmds = append(cmds, m.openKeyPrompt("Profile "+m.common.Profile+" has no API key yet. Paste the key's token: it is checked with one cheap call, then stored in the keystore, never in a file in clear."))
	}
	return tea.Batch(cmds...)
}

// configWarningsToast is the start-up note about ignored config entries.
func configWarningsToast(n int, settingsKey, dash string) string {
	noun := "warnings"
	if n == 1 {
		noun = "warning"
	}
	return fmt.Sprintf("config: %d %s %s see Settings (%s)", n, noun, dash, settingsKey)
}

func (m *Model) screen() kit.Screen { return m.screens[m.active] }

// Common exposes the shared context (tests).
func (m *Model) Common() *kit.Common { return m.common }

// Active is the visible screen.
func (m *Model) Active() kit.Screen { return m.screen() }

// Submitting reports actions in flight.
func (m *Model) Submitting() []string { return m.actions.submitting() }

func (m *Model) bodyHeight() int { return max(0, m.height-4) }

// Update routes messages: keys go dialog → command line / help → focused
// input → global → active screen.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	if m.started && !m.quitting {
		if res := m.screen().Resources(); !m.engine.sameKeys(res) {
			cmd = tea.Batch(cmd, tea.Batch(m.engine.sync(res)...), m.startSpinner())
		}
	}
	return m, cmd
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.common.Width, m.common.Height = msg.Width, msg.Height
		for _, s := range m.screens {
			s.SetSize(m.width, m.bodyHeight())
		}
		return nil
	case tea.BackgroundColorMsg:
		m.common.Theme = theme.New(theme.Options{Dark: msg.IsDark(), NoColor: m.opts.NoColor,
			Unicode: m.opts.Unicode, Accessible: m.opts.Accessible})
		return nil
	case tea.KeyPressMsg:
		return m.handleKey(msg)
	case tea.PasteMsg:
		// pasted text goes where typed text would
		if n := len(m.dialogs); n > 0 {
			d, cmd := m.dialogs[n-1].Update(msg)
			m.dialogs[n-1] = d
			return cmd
		}
		if m.cmdline.active {
			var cmd tea.Cmd
			m.cmdline.input, cmd = m.cmdline.input.Update(msg)
			return cmd
		}
		return m.toScreen(msg)
	case pollTickMsg:
		return tea.Batch(m.engine.onTick(msg), m.startSpinner())
	case pollResultMsg:
		data, cmds := m.engine.onResult(msg)
		if data == nil {
			return nil
		}
		if api.IsUnauthorized(data.Err) && m.opts.Login != nil {
			cmds = append(cmds, m.openKeyPrompt("The API refused the key of profile "+m.common.Profile+" ("+oneLineErr(data.Err)+"). Enter a valid key, or esc to look around without one."))
		}
		if data.Key == "services" && data.Err == nil {
			if svcs, ok := data.Data.([]api.Service); ok {
				m.known = svcs
			}
		}
		s, cmd := m.screen().Update(*data)
		m.screens[m.active] = s
		return tea.Batch(append(cmds, cmd)...)
	case kit.RefreshMsg:
		return tea.Batch(tea.Batch(m.engine.refresh(msg.Keys, len(msg.Keys) > 0)...), m.startSpinner())
	case clockMsg:
		s, cmd := m.screen().Update(kit.ClockMsg{Now: m.common.Time()})
		m.screens[m.active] = s
		return tea.Batch(cmd, m.after(ClockInterval, clockMsg{}))
	case spinMsg:
		m.spinFrame++
		if m.engine.inFlight() || len(m.actions.running) > 0 {
			return m.after(120*time.Millisecond, spinMsg{})
		}
		m.spinning = false
		return nil
	case kit.ToastMsg:
		return m.toast(msg.Level, msg.Text)
	case toastExpireMsg:
		for i, t := range m.toasts {
			if t.id == msg.id {
				m.toasts = append(m.toasts[:i], m.toasts[i+1:]...)
				break
			}
		}
		return nil
	case kit.ActionRequestMsg:
		a := msg.Action
		if a.Origin == "" {
			a.Origin = m.screen().ID()
		}
		return m.requestAction(a)
	case actionResultMsg:
		return m.actionDone(msg)
	case kit.OutcomeCheckedMsg:
		m.outcomeChecked(msg)
		return nil
	case kit.ConfirmedMsg:
		m.removeDialog(msg.ID)
		if msg.ID == quitDialogID {
			if msg.Yes {
				m.quitting = true
				return tea.Quit
			}
			return nil
		}
		cmd, _ := m.confirmedAction(msg)
		return cmd
	case kit.OpenDialogMsg:
		m.dialogs = append(m.dialogs, msg.Dialog)
		return nil
	case kit.CloseDialogMsg:
		if n := len(m.dialogs); n > 0 {
			m.dialogs = m.dialogs[:n-1]
		}
		return nil
	case kit.PickedMsg:
		if msg.Service == nil {
			return nil
		}
		return m.openScreen(msg.Purpose, msg.Service.ID)
	case kit.WatchMsg:
		return m.startWatch(msg.Watch)
	case watchTickMsg:
		return m.onWatchTick(msg)
	case watchResultMsg:
		return m.onWatchResult(msg)
	case profileOpenedMsg:
		return m.profileOpened(msg)
	case loginRequestMsg:
		return m.login(msg)
	case keyLoginMsg:
		return m.loggedIn(msg)
	case kit.LoginRequestMsg:
		return m.openKeyPrompt(msg.Reason)
	case kit.DataMsg, kit.ClockMsg:
		return nil // only the engine and the clock send these
	}
	// Anything else (component ticks, form internals, the answers of
	// commands a screen started) goes to every screen: a screen that was
	// left while its command ran still gets the answer.
	var cmds []tea.Cmd
	for i, s := range m.screens {
		ns, cmd := s.Update(msg)
		m.screens[i] = ns
		cmds = append(cmds, cmd)
	}
	if n := len(m.dialogs); n > 0 {
		d, cmd := m.dialogs[n-1].Update(msg)
		m.dialogs[n-1] = d
		cmds = append(cmds, cmd)
	}
	return tea.Batch(cmds...)
}

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	if msg.String() == "ctrl+c" {
		return m.quit()
	}
	if key.Matches(msg, m.keys.Suspend) {
		// Bubble Tea leaves the alternate screen and raw mode, stops the
		// process group (SIGTSTP) and, on SIGCONT, takes the terminal back
		// and redraws; the shell reads what is typed meanwhile.
		return tea.Suspend
	}
	if n := len(m.dialogs); n > 0 {
		d, cmd := m.dialogs[n-1].Update(msg)
		m.dialogs[n-1] = d
		return cmd
	}
	if m.cmdline.active {
		return m.cmdline.update(m, msg)
	}
	if m.showHelp {
		switch msg.String() {
		case "esc", "?", "q", "enter":
			m.showHelp = false
			m.helpOffset = 0
		case "j", "down", "pgdown", "space":
			m.helpOffset = min(m.helpOffset+5, m.helpMax)
		case "k", "up", "pgup":
			m.helpOffset = max(0, m.helpOffset-5)
		}
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
		return m.cmdline.open()
	case key.Matches(msg, m.keys.Refresh):
		return tea.Batch(tea.Batch(m.engine.refresh(nil, false)...), m.startSpinner())
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

func (m *Model) toScreen(msg tea.Msg) tea.Cmd {
	s, cmd := m.screen().Update(msg)
	m.screens[m.active] = s
	return cmd
}

// deliver hands a message to the screen with the given ID.
func (m *Model) deliver(id string, msg tea.Msg) tea.Cmd {
	for i, s := range m.screens {
		if s.ID() == id {
			ns, cmd := s.Update(msg)
			m.screens[i] = ns
			return cmd
		}
	}
	return nil
}

// switchScreen shows screen i. The polling generation changes, so replies
// for the screen left behind are dropped, and the new screen's resources
// are fetched at once.
func (m *Model) switchScreen(i int) tea.Cmd {
	if i < 0 || i >= len(m.screens) {
		return nil
	}
	if i == m.active {
		return nil
	}
	m.active = i
	return tea.Batch(tea.Batch(m.engine.switchTo(m.screen().Resources())...), m.startSpinner())
}

func (m *Model) openScreen(id, arg string) tea.Cmd {
	for i, s := range m.screens {
		if s.ID() != id {
			continue
		}
		var cmd tea.Cmd
		if o, ok := s.(kit.Opener); ok && arg != "" {
			cmd = o.Open(arg)
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
		m.dialogs = append(m.dialogs, kit.NewConfirm(m.common, quitDialogID, kit.Confirm{
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

func (m *Model) toast(level kit.ToastLevel, text string) tea.Cmd {
	m.toastID++
	id := m.toastID
	m.toasts = append(m.toasts, toast{id: id, level: level, text: text})
	if len(m.toasts) > 5 {
		m.toasts = m.toasts[len(m.toasts)-5:]
	}
	d := 6 * time.Second
	if level == kit.ToastError {
		d = 15 * time.Second
	}
	return m.after(d, toastExpireMsg{id: id})
}

// startSpinner animates the spinner while something is in flight; it
// stops itself when nothing is.
func (m *Model) startSpinner() tea.Cmd {
	if m.spinning || m.opts.Accessible {
		return nil
	}
	if !m.engine.inFlight() && len(m.actions.running) == 0 {
		return nil
	}
	m.spinning = true
	return m.after(120*time.Millisecond, spinMsg{})
}

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
	m.profileGen++
	m.known = nil
	m.dialogs = nil
	m.screens = m.buildScreens()
	cmds := []tea.Cmd{}
	for _, s := range m.screens {
		s.SetSize(m.width, m.bodyHeight())
		cmds = append(cmds, s.Init())
	}
	m.engine.resetFreshness()
	cmds = append(cmds, m.engine.switchTo(m.screen().Resources())...)
	cmds = append(cmds, m.toast(kit.ToastSuccess, done), m.startSpinner())
	return tea.Batch(cmds...)
}

// ---- View ----

// View renders the frame: header, tabs, the screen (or help), the message
// line and the footer; dialogs on top.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	v.WindowTitle = "skytui " + m.common.Profile
	return v
}

// Render returns the frame as a string (tests and benchmarks).
func (m *Model) Render() string { return m.render() }

func (m *Model) render() string {
	if m.quitting {
		return ""
	}
	w, h := m.width, m.height
	if w == 0 || h == 0 {
		return "starting..."
	}
	if w < MinWidth || h < MinHeight {
		msg := fmt.Sprintf("terminal too small (need %dx%d, have %dx%d)", MinWidth, MinHeight, w, h)
		lines := strings.Split(ansi.Wrap(msg, w, " "), "\n")
		lines = append(lines, "enlarge the window, or q to quit")
		if len(lines) > h {
			lines = lines[:h] // 1x1 still gets a frame that fits
		}
		for i, l := range lines {
			st := m.common.Theme.Warn
			if i == len(lines)-1 && len(lines) > 1 {
				st = m.common.Theme.Muted
			}
			lines[i] = st.Render(ansi.Truncate(l, w, ""))
		}
		return strings.Join(lines, "\n")
	}
	bh := m.bodyHeight()
	var body string
	if m.showHelp {
		body = m.helpView(w, bh)
	} else {
		body = m.screen().View()
	}
	body = fitLines(body, w, bh)
	if n := len(m.dialogs); n > 0 {
		body = overlay(body, m.dialogs[n-1].View(w-4, bh-2), w, bh)
	}
	var b strings.Builder
	b.WriteString(m.headerView(w))
	b.WriteByte('\n')
	b.WriteString(m.tabsView(w))
	b.WriteByte('\n')
	b.WriteString(body)
	b.WriteByte('\n')
	b.WriteString(m.messageView(w))
	b.WriteByte('\n')
	b.WriteString(m.footerView(w))
	return b.String()
}

// fitLines makes s exactly h lines, none wider than w.
func fitLines(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "")
		}
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// overlay draws box centred over bg (h lines of width w).
func overlay(bg, box string, w, h int) string {
	lines := strings.Split(bg, "\n")
	bl := strings.Split(box, "\n")
	bw := 0
	for _, l := range bl {
		bw = max(bw, ansi.StringWidth(l))
	}
	x := max(0, (w-bw)/2)
	y := max(0, (h-len(bl))/2)
	for i, l := range bl {
		row := y + i
		if row >= len(lines) {
			break
		}
		under := lines[row]
		left := ansi.Truncate(under, x, "")
		left += strings.Repeat(" ", max(0, x-ansi.StringWidth(left)))
		right := ansi.TruncateLeft(under, x+bw, "")
		lines[row] = left + l + strings.Repeat(" ", max(0, bw-ansi.StringWidth(l))) + right
	}
	return strings.Join(lines, "\n")
}

func (m *Model) headerView(w int) string {
	th := m.common.Theme
	parts := []string{th.Title.Render("skytui"), "profile " + th.Bold.Render(m.common.Profile)}
	if c := m.common.Client; c != nil {
		parts = append(parts, c.Host())
		if org := c.Org(); org != "" {
			parts = append(parts, "org "+org)
		}
	}
	if m.common.Demo {
		parts = append(parts, th.BadgeDemo.Render(" DEMO "))
	}
	if m.common.ReadOnly {
		parts = append(parts, th.BadgeRO.Render(" READ-ONLY "))
	}
	left := " " + strings.Join(parts, "  ")
	right := m.freshnessView()
	lw := ansi.StringWidth(left)
	room := w - lw - 2
	if room < 12 {
		left = ansi.Truncate(left, w, th.Glyphs.Ellipsis)
		return left
	}
	if ansi.StringWidth(right) > room {
		right = ansi.Truncate(right, room, th.Glyphs.Ellipsis)
	}
	return left + strings.Repeat(" ", max(1, w-lw-ansi.StringWidth(right)-1)) + right
}

func (m *Model) freshnessView() string {
	th := m.common.Theme
	spin := ""
	if m.engine.inFlight() || len(m.actions.running) > 0 {
		spin = th.Accent.Render(th.Spinner(m.spinFrame)) + " "
	}
	if m.engine.stopped {
		if errors.Is(m.engine.stopErr, errNoAPIKey) {
			return spin + th.Warn.Render("no API key for this profile "+th.Glyphs.Dash+" :login to enter one")
		}
		return spin + th.Error.Render("API key refused (401): polling stopped "+th.Glyphs.Dash+" :login or r to retry")
	}
	lastOK, err, known := m.engine.status()
	now := m.common.Time()
	switch {
	case err != nil && lastOK.IsZero():
		return spin + th.Warn.Render("no data "+th.Glyphs.Dash+" "+reason(err))
	case err != nil:
		return spin + th.Warn.Render("stale since "+lastOK.Local().Format("15:04:05")+" "+th.Glyphs.Dash+" "+reason(err))
	case known && !lastOK.IsZero():
		return spin + th.Muted.Render("updated "+kit.Ago(now.Sub(lastOK))+" ago")
	case len(m.engine.order) == 0:
		return ""
	}
	return spin + th.Muted.Render("loading"+th.Glyphs.Ellipsis)
}

// reason is the short form of a poll error for the header.
func reason(err error) string {
	var ae *api.Error
	if errors.As(err, &ae) {
		if ae.Status > 0 {
			msg := ae.Message
			if msg == "" && ae.Err != nil {
				msg = ae.Err.Error()
			}
			if msg == "" {
				return fmt.Sprintf("HTTP %d", ae.Status)
			}
			return fmt.Sprintf("HTTP %d: %s", ae.Status, msg)
		}
		if ae.Err != nil {
			return ae.Err.Error()
		}
	}
	return err.Error()
}

func (m *Model) tabsView(w int) string {
	th := m.common.Theme
	var b strings.Builder
	b.WriteString(" ")
	for i, s := range m.screens {
		label := fmt.Sprintf(" %d %s ", i+1, s.Title())
		if i == m.active {
			b.WriteString(th.TabOn.Render("[" + label + "]"))
		} else {
			b.WriteString(th.TabOff.Render(" " + label + " "))
		}
	}
	line := b.String()
	if sub := m.actions.submitting(); len(sub) > 0 {
		note := th.Warn.Render(" submitting: " + strings.Join(sub, ", ") + th.Glyphs.Ellipsis)
		line += note
	}
	return ansi.Truncate(line, w, th.Glyphs.Ellipsis)
}

func (m *Model) messageView(w int) string {
	th := m.common.Theme
	if m.cmdline.active {
		return m.cmdline.view(m, w)
	}
	if n := len(m.toasts); n > 0 {
		t := m.toasts[n-1]
		st := th.Base
		prefix := ""
		switch t.level {
		case kit.ToastSuccess:
			st, prefix = th.OK, th.Glyphs.Check+" "
		case kit.ToastWarn:
			st, prefix = th.Warn, "! "
		case kit.ToastError:
			st, prefix = th.Error, "error: "
		}
		text := " " + prefix + t.text
		if n > 1 {
			text += fmt.Sprintf("  (+%d)", n-1)
		}
		return st.Render(ansi.Truncate(text, w, th.Glyphs.Ellipsis))
	}
	return ""
}

func (m *Model) footerView(w int) string {
	th := m.common.Theme
	render := func(b key.Binding) string {
		if !b.Enabled() || b.Help().Key == "" {
			return ""
		}
		return th.Key.Render(b.Help().Key) + " " + th.Desc.Render(b.Help().Desc)
	}
	var items, globals []string
	switch {
	case m.showHelp:
		items = append(items, render(key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc/?", "close help"))),
			render(key.NewBinding(key.WithKeys("j"), key.WithHelp("j/k", "scroll"))))
	case len(m.dialogs) > 0:
		items = append(items, render(key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose"))),
			render(key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))))
	case m.cmdline.active:
		items = append(items, render(key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete"))),
			render(key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run"))),
			render(key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel"))))
	default:
		for _, b := range m.screen().KeyMap().ShortHelp() {
			if s := render(b); s != "" {
				items = append(items, s)
			}
		}
		if !m.screen().CapturesKeys() {
			globals = []string{render(m.keys.Help), render(m.keys.Quit)}
		}
	}
	// the screen's keys as far as they fit, and always "? help" and "q quit"
	tail := strings.Join(globals, "  ")
	room := w - 1 - ansi.StringWidth(tail) - 2
	line := " "
	for i, it := range items {
		sep := "  "
		if i == 0 {
			sep = ""
		}
		if ansi.StringWidth(line+sep+it)-1 > room {
			break
		}
		line += sep + it
	}
	if tail != "" {
		if line != " " {
			line += "  "
		}
		line += tail
	}
	return ansi.Truncate(line, w, th.Glyphs.Ellipsis)
}

// helpView is the full help, generated from the bindings themselves.
func (m *Model) helpView(w, h int) string {
	th := m.common.Theme
	type group struct {
		title string
		keys  []key.Binding
	}
	var groups []group
	for i, g := range m.screen().KeyMap().FullHelp() {
		title := m.screen().Title()
		if i > 0 {
			title = "" // continuation of the screen's keys
		}
		groups = append(groups, group{title, g})
	}
	groups = append(groups, group{"Global", m.keys.list()})
	groups = append(groups, group{"Commands", []key.Binding{
		key.NewBinding(key.WithKeys(":services"), key.WithHelp(":services", "Services screen")),
		key.NewBinding(key.WithKeys(":backups"), key.WithHelp(":backups <service>", "Backups of a service")),
		key.NewBinding(key.WithKeys(":restores"), key.WithHelp(":restores", "Restores screen")),
		key.NewBinding(key.WithKeys(":replication"), key.WithHelp(":replication", "Replication screen")),
		key.NewBinding(key.WithKeys(":profile"), key.WithHelp(":profile <name>", "switch profile")),
		key.NewBinding(key.WithKeys(":q"), key.WithHelp(":q", "quit")),
	}})
	var lines []string
	seen := map[string]bool{}
	for _, g := range groups {
		kw := 0
		for _, b := range g.keys {
			kw = max(kw, ansi.StringWidth(b.Help().Key))
		}
		var gl []string
		for _, b := range g.keys {
			hk := b.Help()
			if hk.Key == "" || !b.Enabled() {
				continue
			}
			id := g.title + hk.Key + hk.Desc
			if seen[id] {
				continue
			}
			seen[id] = true
			gl = append(gl, "  "+th.Key.Render(hk.Key)+strings.Repeat(" ", kw-ansi.StringWidth(hk.Key)+2)+th.Desc.Render(hk.Desc))
		}
		if len(gl) == 0 {
			continue
		}
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		if g.title != "" {
			lines = append(lines, th.Title.Render(g.title))
		}
		lines = append(lines, gl...)
	}
	// flow into as many columns as the width allows; scroll the rest
	avail := max(1, h-2)
	cols := min(max(1, (len(lines)+avail-1)/avail), max(1, w/38))
	colW := w / cols
	page := cols * avail
	m.helpMax = max(0, len(lines)-page)
	off := min(m.helpOffset, m.helpMax)
	lines = lines[off:]
	var out []string
	for r := 0; r < avail; r++ {
		var row strings.Builder
		for c := 0; c < cols; c++ {
			i := c*avail + r
			if i >= len(lines) {
				break
			}
			cell := ansi.Truncate(lines[i], colW-1, "")
			row.WriteString(cell)
			if c < cols-1 {
				row.WriteString(strings.Repeat(" ", max(0, colW-ansi.StringWidth(cell))))
			}
		}
		out = append(out, strings.TrimRight(row.String(), " "))
	}
	title := th.Bold.Render(" Help") + th.Muted.Render("  (esc or ? to close)")
	if m.helpMax > 0 {
		title += th.Muted.Render("  j/k scroll")
	}
	return title + "\n\n" + strings.Join(out, "\n")
}
