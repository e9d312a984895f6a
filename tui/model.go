package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/screens/backups"
	"github.com/skytui/skytui/screens/replication"
	"github.com/skytui/skytui/screens/restores"
	"github.com/skytui/skytui/screens/services"
	"github.com/skytui/skytui/screens/settings"
	"github.com/skytui/skytui/theme"
)

// Internal messages of the root.
type (
	clockMsg         struct{}
	spinMsg          struct{}
	toastExpireMsg   struct{ id, shown int }
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
	// entered are the profiles whose API key was entered at the prompt
	// and accepted this run: a switch back to one uses it (profiles.go)
	entered map[string]Profile

	dialogs    []kit.Dialog
	showHelp   bool
	helpOffset int
	cmdline    *cmdLine
	toasts     []toast
	msgs       msgLog // the message log (msglog.go)
	toastID    int
	keys       globalKeys
	after      func(time.Duration, tea.Msg) tea.Cmd

	width, height int
	spinning      bool
	spinFrame     int
	known         []api.Service // last services listing, for completion and the picker
	quitting      bool
	started       bool // Init ran: the engine follows the screen's resources

	// jumps are the jumps that led to the visible screen (jump.go).
	jumps []jump

	// watches are long operations followed whatever screen is shown (watch.go).
	watches *watcher
}

// New builds the root model.
func New(opts Options) *Model { return newModel(context.Background(), opts) }

func newModel(ctx context.Context, opts Options) *Model {
	// opts.Now fixes the clock in tests; in use it stays nil, so ages are
	// measured by the server's clock (Common.Time) and the engine's own
	// times by the local one
	wall := opts.Now
	if wall == nil {
		wall = time.Now
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
		Theme:      newTheme(opts, true),
		Client:     opts.Client,
		Secrets:    opts.Secrets,
		Profile:    opts.Profile,
		ReadOnly:   opts.ReadOnly,
		Demo:       opts.Demo,
		Accessible: opts.Accessible,
		Now:        opts.Now,
		Getenv:     opts.Getenv,
		Context:    ctx,

		ReadOnlyFlag: opts.ReadOnlyFlag,
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
	m.engine = newEngine(ctx, opts.FastInterval, opts.SlowInterval, after, wall)
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
		replication.NewWithOptions(m.common, replication.Options{Store: m.opts.ReplicationStore}),
		settings.New(m.common).WithConfigWarnings(m.opts.ConfigWarnings),
	}
}

// Init starts the first fetch, background detection and the clock.
func (m *Model) Init() tea.Cmd {
	m.started = true
	cmds := []tea.Cmd{tea.RequestBackgroundColor, m.after(ClockInterval, clockMsg{})}
	for _, s := range m.screens {
		cmds = append(cmds, kit.Address(s.ID(), s.Init()))
	}
	cmds = append(cmds, m.engine.switchTo(m.screen().Resources())...)
	cmds = append(cmds, m.startSpinner())
	if n := len(m.opts.ConfigWarnings); n > 0 {
		cmds = append(cmds, kit.Toast(kit.ToastWarn, configWarningsToast(n, m.keys.Screen5.Help().Key, m.common.Theme.Glyphs.Dash)))
	}
	if m.opts.NeedKey {
		cmds = append(cmds, m.openKeyPrompt(noKeyReason(m.common.Profile)))
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

// newTheme is the theme of opts (NoColor and Getenv set) on a dark or
// light background.
func newTheme(opts Options, dark bool) *theme.Theme {
	return theme.New(theme.Options{Dark: dark, NoColor: opts.NoColor, Unicode: opts.Unicode,
		Accessible: opts.Accessible, UTF8: theme.UTF8Env(opts.Getenv)})
}

// Submitting reports actions in flight.
func (m *Model) Submitting() []string { return m.actions.submitting() }

// Message is the message line's text whole (the toast in front, as
// "error: …", "! …" or "✓ …"), however many lines it takes on screen.
func (m *Model) Message() string {
	lines := m.messageView(max(m.width, MinWidth))
	for i, l := range lines {
		lines[i] = strings.TrimSpace(ansi.Strip(l))
	}
	return strings.Join(lines, " ")
}

func (m *Model) bodyHeight() int { return max(0, m.height-4) }

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
