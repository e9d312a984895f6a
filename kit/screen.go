// Package kit is what the root model (package tui) and the screens
// (packages screens/*) share: the Screen interface, the Common context,
// the descriptions of polled resources and of actions, the messages that
// carry them, and the shared components (table, detail pane, confirm
// dialog, service picker, clipboard).
//
// Screens import kit, never tui (tui imports the screens) and never
// another screen.
package kit

import (
	"context"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/theme"
)

// Common is the context every screen shares, by pointer: the root updates
// it (theme after background detection, profile after a switch) and the
// screens read it when they render.
type Common struct {
	Theme  *theme.Theme
	Client *api.Client
	// Secrets holds bucket credentials and encryption keys; nil when no
	// keystore could be opened (screens then say so).
	Secrets    *keystore.Store
	Profile    string
	ReadOnly   bool
	Demo       bool
	Accessible bool

	// ReadOnlyFlag: ReadOnly comes from --read-only, which makes every
	// profile read-only this run (the profile itself may be writable).
	ReadOnlyFlag bool
	// Now fixes the clock (tests); nil in use: Time is the server's
	// clock, Wall the local one.
	Now func() time.Time
	// Getenv reads the environment (TMUX, DISPLAY…); tests replace it.
	Getenv func(string) string
	// Width and Height are the whole terminal's size.
	Width, Height int
	// Context is cancelled when the application exits; one-shot commands
	// of screens (credentials, option listings) use it.
	Context context.Context
}

// Command is a command line for the user to run outside (cmd, such as
// "skytui replication stop replica-west --yes") on this account: with the
// profile and the API URL in use, so that it never acts on the default
// profile's service of the same name. "" in the demo, whose embedded
// sandbox no command reaches.
func (c *Common) Command(cmd string) string {
	if c.Demo {
		return ""
	}
	if c.Profile != "" {
		cmd += " --profile " + ShellQuote(c.Profile)
	}
	if c.Client != nil {
		cmd += " --api-url " + ShellQuote(c.Client.BaseURL())
	}
	return cmd
}

// Ctx returns the application context.
func (c *Common) Ctx() context.Context {
	if c.Context == nil {
		return context.Background()
	}
	return c.Context
}

// Time returns the current time of the common clock: Now when set (tests),
// else the API server's time as the client knows it (api.Client.Now: the
// demo sandbox's own clock, or the Date of the last answer), so ages agree
// with the server's timestamps.
func (c *Common) Time() time.Time {
	switch {
	case c.Now != nil:
		return c.Now()
	case c.Client != nil:
		return c.Client.Now()
	}
	return time.Now()
}

// Wall returns the local clock (Now when set): for the client's own
// events, such as when a listing was read or a message logged, never to
// compare with the API's timestamps (Time is for those).
func (c *Common) Wall() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Env reads an environment variable through Getenv.
func (c *Common) Env(k string) string {
	if c.Getenv == nil {
		return ""
	}
	return c.Getenv(k)
}

// Screen is one of the numbered screens (Services, Backups, …).
//
// The root model routes keys dialog → focused input → global → screen: a
// screen whose CapturesKeys is true (a filter, a form field) receives every
// key but ctrl+c, so typing "q" or "1" in a field never quits or switches.
type Screen interface {
	// ID is the stable name used by the command line (":services").
	ID() string
	// Title is the tab label.
	Title() string
	// KeyMap lists the bindings of the screen's current mode; the footer
	// and the "?" help are generated from it.
	KeyMap() help.KeyMap
	// SetSize gives the screen its area (the body between header and
	// footer). It is called on every resize; state must survive it.
	SetSize(width, height int)
	Init() tea.Cmd
	Update(msg tea.Msg) (Screen, tea.Cmd)
	// View renders exactly the area given by SetSize. It must not do I/O.
	View() string
	// Resources are what the screen wants polled while it is visible. The
	// root re-reads them after every Update, so a screen can add one (an
	// allow list it opened) or drop one.
	Resources() []Resource
	// CapturesKeys reports that a text input has focus.
	CapturesKeys() bool
}

// Pane is a screen's sub-view that takes the body while it is open (a
// form, a wizard, an allow list): the screen's one switch over its modes
// returns it (ListView.PaneOf), and View, KeyMap and CapturesKeys are
// then the pane's. It is sized when it opens, and by the ListView on
// every resize while it is open.
type Pane interface {
	View() string
	KeyMap() Keys
	CapturesKeys() bool
	SetSize(w, h int)
}

// PaneUpdater is a Pane that takes the messages of its own components (a
// form's cursor, its async checks) while it is open.
type PaneUpdater interface {
	Pane
	Update(msg tea.Msg) tea.Cmd
}

// Name is embedded by every screen: kit.Screen's ID and Title, and an
// Init with nothing to do (a screen that loads something when it starts
// defines its own).
type Name struct{ id, title string }

// NewName is the name of a screen: its ID (":" commands) and tab title.
func NewName(id, title string) Name { return Name{id: id, title: title} }

// ID implements Screen.
func (n Name) ID() string { return n.id }

// Title implements Screen.
func (n Name) Title() string { return n.title }

// Init implements Screen: nothing to do.
func (n Name) Init() tea.Cmd { return nil }

// Opener is implemented by screens that take an argument from the command
// line (":backups dbtxxxx").
type Opener interface {
	Open(arg string) tea.Cmd
}

// Resource is something a screen wants polled. The polling engine in tui
// owns the ticks, the generations, the in-flight flags, the intervals and
// the backoff; the screen only says what to fetch.
type Resource struct {
	// Key identifies the resource: "services", "allowlist/dbt…",
	// "backups/dbt…". Two screens asking for the same key share nothing:
	// only the visible screen polls.
	Key string
	// Fetch reads the resource. It runs in a tea.Cmd, never in Update.
	Fetch func(ctx context.Context) (any, error)
	// Pending reports that the data shows something in progress; the
	// engine then polls fast. Nil means never pending.
	Pending func(data any) bool
	// Title is what it lists, as the message log says it ("the replicas
	// of orders-prod"); "": ResourceTitle's words for the shared keys.
	Title string
}

// Titled is r with the title the log gives it.
func (r Resource) Titled(title string) Resource {
	r.Title = title
	return r
}

type freshKey struct{}

// WithFresh marks a fetch as fresh: the first of a resource, one the user
// asked for, or one after a change. A Fetch that keeps its own cache (the
// restores of every service, asked per service) asks everything again.
func WithFresh(ctx context.Context) context.Context { return context.WithValue(ctx, freshKey{}, true) }

// Fresh reports whether a fetch is fresh (see WithFresh).
func Fresh(ctx context.Context) bool { v, _ := ctx.Value(freshKey{}).(bool); return v }

// DataMsg delivers a fetched resource (or the error) to the screen that
// asked for it. Stale replies (older generation) never arrive.
type DataMsg struct {
	Key  string
	Data any
	Err  error
	At   time.Time
	// Parts are the parts of a listing across services that failed while
	// the rest was read (Data holds the rest): a Fetch returns them as
	// Partial, and the message log keeps each whole.
	Parts []error
}

// RefreshMsg asks the engine to fetch resources now (all of the visible
// screen's when Keys is empty). A request already in flight is not doubled.
type RefreshMsg struct{ Keys []string }

// Refresh returns a command that asks for an immediate refresh.
func Refresh(keys ...string) tea.Cmd {
	return Send(RefreshMsg{Keys: keys})
}

// ClockMsg is sent to the visible screen on the slow re-render tick
// (about every 10 s) so relative times ("3m ago") stay current.
type ClockMsg struct{ Now time.Time }

// ResizedMsg goes to the visible screen after every resize (SetSize has
// run): a huh form lays itself out only in Update, so a form open on the
// screen passes it to its form, which then shows the new size at once
// instead of after the next key.
type ResizedMsg struct{}

// Bind is a binding whose help names its first key: Bind("D", "delete"),
// Bind("n", "add entry", "+") (n and + both add; the help says n).
func Bind(k, desc string, more ...string) key.Binding {
	return key.NewBinding(key.WithKeys(append([]string{k}, more...)...), key.WithHelp(k, desc))
}

// BindHelp is a binding whose help names its keys otherwise:
// BindHelp("up/k", "move up", "up", "k").
func BindHelp(help, desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))
}

// Keys is a help.KeyMap made of the bindings a screen shows in its current
// mode: Short for the footer, Full for "?" (Short as one column when nil).
type Keys struct {
	Short []key.Binding
	Full  [][]key.Binding
	// Title, when set, heads these keys in "?" instead of the screen's
	// title: a pane's own keys ("Allow list" on the Services screen).
	Title string
}

// KeysOf is a key map of one group: the footer's and the help's.
func KeysOf(b ...key.Binding) Keys { return Keys{Short: b, Full: [][]key.Binding{b}} }

// ShortHelp implements help.KeyMap.
func (k Keys) ShortHelp() []key.Binding { return k.Short }

// FullHelp implements help.KeyMap.
func (k Keys) FullHelp() [][]key.Binding {
	if k.Full == nil {
		return [][]key.Binding{k.Short}
	}
	return k.Full
}
