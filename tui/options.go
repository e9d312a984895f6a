// Package tui is the root of the terminal application: screen switching,
// header, footer, help, command line, dialogs and toasts, the one polling
// engine and the one action layer. It knows screens only through their
// interface.
package tui

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
)

// Options are what the command line hands the application.
type Options struct {
	Client     *api.Client
	Profile    string // profile name shown in the header
	ReadOnly   bool   // block every mutating action in the action layer
	Demo       bool   // running against the embedded sandbox: DEMO badge
	Accessible bool   // huh accessible forms, no animation

	// ReadOnlyFlag: ReadOnly comes from --read-only (every profile is
	// read-only this run), not only from the profile: refusals say so.
	ReadOnlyFlag bool
	// SlowInterval is the refresh interval when everything on screen is
	// settled (0 = off, otherwise at least 2 s); FastInterval while anything
	// is pending or running.
	SlowInterval time.Duration
	FastInterval time.Duration
	Bell         bool // ring the terminal bell for outcomes on another screen
	// Secrets is the keystore: bucket credentials, encryption keys, the
	// backend shown in Settings. Nil when none could be opened.
	Secrets *keystore.Store
	// Now fixes the clock, for tests. Nil: ages of what the API reports
	// are measured by the server's clock (api.Client.Now: its Date header,
	// or the demo sandbox's own), the client's own events by the local one.
	Now     func() time.Time
	Version string

	// Unicode selects Unicode glyphs instead of the ASCII default.
	Unicode bool
	// NoMouse leaves the mouse to the terminal (its own selection and
	// scrolling); Accessible does too.
	NoMouse bool
	// NoColor removes colours; Run sets it from NO_COLOR when unset.
	NoColor bool
	// Getenv reads the environment (TMUX, DISPLAY, NO_COLOR); default
	// os.Getenv.
	Getenv func(string) string
	// Profiles are the profile names ":profile <name>" completes.
	Profiles []string
	// ProfileDetails, by profile name, is what the ":profile" picker shows
	// next to each name (nil or a name missing: the name alone).
	ProfileDetails map[string]ProfileInfo
	// SwitchProfile opens another profile for ":profile <name>"; nil when
	// profiles are not configured. A profile with no API key stored comes
	// back with its client (no key) and the keystore's not-found error:
	// the switch is made and the key prompt opens.
	SwitchProfile func(name string) (Profile, error)
	// Login checks an API key typed into the key prompt (one cheap call),
	// stores it in the keystore and returns the profile with a client that
	// carries it. It runs in a command. Nil: the prompt is unavailable.
	Login func(ctx context.Context, profile, key string) (Profile, error)
	// ConfigWarnings are what the config file holds that was ignored
	// (config.Config.Warnings): Settings lists them and a toast says so at
	// start.
	ConfigWarnings []string
	// NeedKey starts with the key prompt instead of polling: the profile
	// has no API key yet (a first run).
	NeedKey bool
	// KeyFromEnv: Client's API key came from SKYSQL_API_KEY, which takes
	// precedence over the keystore at every start (the key prompt says so:
	// a key entered there is not the one the next start uses).
	KeyFromEnv bool
	// ReplicationStore keeps the replication setup's progress and pairs;
	// nil: the file in the user state directory. The demo passes one of its
	// own, removed at exit, so every demo starts clean.
	ReplicationStore *replsetup.Store
	// Screens overrides the screens (tests); nil builds the standard four.
	Screens func(c *kit.Common) []kit.Screen
	// After schedules a message after a delay; default tea.Tick. Tests
	// replace it to see which intervals the polling engine arms.
	After func(d time.Duration, msg tea.Msg) tea.Cmd
}

// Profile is what a profile switch hands back.
type Profile struct {
	Name       string
	Client     *api.Client
	ReadOnly   bool
	Demo       bool
	KeyFromEnv bool // Client's key came from SKYSQL_API_KEY (Options.KeyFromEnv)
}

// ProfileInfo is what tells a profile apart in the ":profile" picker,
// read from the config file (no keystore, no network): its endpoint's
// host and whether it is read-only.
type ProfileInfo struct {
	Host     string
	ReadOnly bool
}

// Defaults of the polling engine.
const (
	DefaultFastInterval = 2 * time.Second
	DefaultSlowInterval = 30 * time.Second
	MinInterval         = 2 * time.Second
	MaxBackoff          = 2 * time.Minute
	// ClockInterval re-renders relative times ("updated 12s ago").
	ClockInterval = 10 * time.Second
	// MinWidth and MinHeight are the smallest usable terminal.
	MinWidth  = 60
	MinHeight = 16
)
