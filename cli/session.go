package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/config"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui"
	"github.com/spf13/cobra"
)

// env is what the commands touch of the outside world; tests replace it.
type env struct {
	version string
	stdin   io.Reader
	stdout  io.Writer
	stderr  io.Writer
	// loadConfig reads the profiles file.
	loadConfig func() (*config.Config, error)
	// openStore opens the secrets chain.
	openStore func(pass keystore.PassphraseFunc) (*keystore.Store, error)
	// tuiActive is set while the terminal UI owns the terminal.
	tuiActive atomic.Bool
	// configWarned is set once the config file's warnings were printed.
	configWarned bool
	// setupSteps, when set, stands in front of the engine whose calls are
	// replication setup's steps (tests make a step answer otherwise).
	setupSteps func(*replsetup.Engine) setupSteps
	// tuiRun, when set, stands in for tui.Run (tests see the options the
	// terminal UI would start with).
	tuiRun func(context.Context, tui.Options) error
	// selection is the --profile and --api-url given, as a suggested
	// command takes them (hints.go).
	selection string
	// root is the command tree, which says what flags a suggested command
	// takes.
	root *cobra.Command
}

// runUI runs the terminal UI with opts.
func (e *env) runUI(ctx context.Context, opts tui.Options) error {
	if e.tuiRun != nil {
		return e.tuiRun(ctx, opts)
	}
	return tui.Run(ctx, opts)
}

func defaultEnv(version string) *env {
	return &env{
		version:    version,
		stdin:      os.Stdin,
		stdout:     os.Stdout,
		stderr:     os.Stderr,
		loadConfig: config.Load,
		openStore: func(pass keystore.PassphraseFunc) (*keystore.Store, error) {
			return keystore.Open(keystore.Options{Passphrase: pass})
		},
	}
}

func (e *env) prompter() *prompter {
	p := newPrompter(e.stdin, e.stderr)
	p.tuiActive = &e.tuiActive
	return p
}

// session is a resolved profile with its secrets store.
type session struct {
	cfg     *config.Config
	profile config.Profile
	store   *keystore.Store
}

// openSession resolves the profile (flag, else the file's default, else the
// skysql preset), applies an --api-url override, and opens the keystore.
// A profile named that the file does not hold is refused (exit 2), with
// --api-url too: a typo must not turn a read-only profile into a new
// writable one. Only auth login makes one (openLoginSession).
func (e *env) openSession(profileName, apiURL string) (*session, error) {
	return e.openSessionNew(profileName, apiURL, false)
}

// openLoginSession is openSession for auth login: a profile named with
// --api-url that the file does not hold is a new one, with that URL.
func (e *env) openLoginSession(profileName, apiURL string) (*session, error) {
	return e.openSessionNew(profileName, apiURL, true)
}

func (e *env) openSessionNew(profileName, apiURL string, newOK bool) (*session, error) {
	e.noteSelection(profileName, apiURL)
	cfg, err := e.loadConfig()
	e.printConfigWarnings(cfg, err)
	if err != nil {
		return nil, err
	}
	p, err := cfg.Profile(profileName)
	made := false
	switch {
	case err == nil:
	case profileName == "":
		return nil, err
	case config.ValidateProfileName(profileName) != nil:
		// no such profile can be made: its name's rule, not a command
		// that would be refused
		return nil, usageErrf("--profile: %v", config.ValidateProfileName(profileName))
	case apiURL == "" || !newOK:
		// a profile named on the command line that is not there: the flag
		// is wrong (exit 2)
		return nil, usageErrf("--profile %s: %v; a new profile is made by `skytui auth login --profile %s --api-url %s`", profileName, err, kit.ShellQuote(profileName), kit.ShellQuote(kit.Or(apiURL, "URL")))
	default:
		// a new profile named on the command line with its URL
		p, made = config.NewProfile(profileName, apiURL), true
	}
	if apiURL != "" {
		p.BaseURL = apiURL
		if err := api.ValidateBaseURL(apiURL); err != nil {
			return nil, usageErrf("--api-url: %v", err)
		}
	}
	if err := api.ValidateBaseURL(p.BaseURL); err != nil {
		return nil, fmt.Errorf("profile %q: %w", p.Name, err)
	}
	if made {
		// a new profile's name (its URL is checked above), refused
		// before anything is asked or sent
		if err := p.Validate(); err != nil {
			return nil, usageErrf("--profile: %v", err)
		}
	}
	store, err := e.openStore(e.prompter().Passphrase)
	if err != nil {
		return nil, err
	}
	return &session{cfg: cfg, profile: p, store: store}, nil
}

// printConfigWarnings prints what the config file holds that was ignored,
// once per run, on stderr: "skytui: warning: FILE:LINE: unknown ...". They
// come before the command's own output, before the TUI takes the screen,
// and before an error they may explain.
func (e *env) printConfigWarnings(cfg *config.Config, err error) {
	if e.configWarned {
		return
	}
	warnings := config.Warnings(err)
	if cfg != nil {
		warnings = cfg.Warnings
	}
	for _, w := range warnings {
		fmt.Fprintln(e.stderr, "skytui: warning:", w)
	}
	e.configWarned = len(warnings) > 0
}

func (s *session) client(key, version string, logger *slog.Logger) (*api.Client, error) {
	return s.clientWith(key, version, logger, nil)
}

// clientWith is client with the in-process server's clock (the demo).
func (s *session) clientWith(key, version string, logger *slog.Logger, serverClock func() time.Time) (*api.Client, error) {
	return api.New(api.Config{
		ServerClock:        serverClock,
		BaseURL:            s.profile.BaseURL,
		APIKey:             key,
		Org:                s.profile.Org,
		ProvisioningPrefix: s.profile.ProvisioningPrefix,
		BackupPrefix:       s.profile.BackupPrefix,
		UserAgent:          "skytui/" + version,
		Logger:             logger,
	})
}

// apiKey returns the profile's key and where it came from.
func (s *session) apiKey() (string, keystore.Backend, error) {
	key, src, err := s.store.APIKey(s.profile.Name)
	if errors.Is(err, keystore.ErrNotFound) {
		// an encrypted file not read may hold it: said first, so that a
		// second copy is not stored by following the advice
		if unread := s.store.Unread(); unread != "" {
			return "", nil, fmt.Errorf("no API key for profile %q in the keystore read%s; or run `skytui auth login --profile %s` (or set %s): %w",
				s.profile.Name, unread, s.profile.Name, keystore.EnvAPIKey, keystore.ErrNotFound)
		}
		return "", nil, fmt.Errorf("no API key for profile %q: run `skytui auth login --profile %s` (or set %s): %w", s.profile.Name, s.profile.Name, keystore.EnvAPIKey, keystore.ErrNotFound)
	}
	return key, src, err
}

// fromEnv is whether a key read from src came from SKYSQL_API_KEY.
func fromEnv(src keystore.Backend) bool {
	return src != nil && src.Name() == keystore.BackendEnv
}

// profileSwitcher opens another profile of the same config file and
// keystore for ":profile NAME". It runs in a tea.Cmd (it reads the keystore).
// A profile with no key stored comes back with its client, without a key,
// and the error wrapping keystore.ErrNotFound: the UI opens it with its key
// prompt, as a start without a key does.
func (e *env) profileSwitcher(s *session, forceReadOnly bool, logger *slog.Logger) func(string) (tui.Profile, error) {
	return func(name string) (tui.Profile, error) {
		p, err := s.cfg.Profile(name)
		if err != nil {
			return tui.Profile{Name: name}, err
		}
		if name == s.profile.Name {
			p = s.profile // this run's: --api-url stays
		}
		other := &session{cfg: s.cfg, profile: p, store: s.store}
		key, src, keyErr := other.apiKey()
		if keyErr != nil && !errors.Is(keyErr, keystore.ErrNotFound) {
			return tui.Profile{Name: name}, keyErr
		}
		c, err := other.client(key, e.version, logger)
		if err != nil {
			return tui.Profile{Name: name}, err
		}
		return tui.Profile{Name: p.Name, Client: c, ReadOnly: forceReadOnly || p.ReadOnly, KeyFromEnv: fromEnv(src)}, keyErr
	}
}

// profileDetails is what the TUI's ":profile" picker says of each profile
// of the config file: its endpoint's host (this run's --api-url for the
// profile in use) and whether it is read-only (all of them with
// --read-only). Nothing is read from the keystore.
func profileDetails(s *session, forceReadOnly bool) map[string]tui.ProfileInfo {
	out := map[string]tui.ProfileInfo{}
	for _, name := range s.cfg.ProfileNames() {
		p := s.profile
		if name != p.Name {
			var err error
			if p, err = s.cfg.Profile(name); err != nil {
				continue
			}
		}
		info := tui.ProfileInfo{ReadOnly: forceReadOnly || p.ReadOnly}
		if u, err := url.Parse(p.BaseURL); err == nil {
			info.Host = u.Host
		}
		out[name] = info
	}
	return out
}

// loginFunc is the TUI's key prompt behind the scenes: one cheap call to
// check the key against the profile's endpoint, then the keystore.
func (e *env) loginFunc(s *session, forceReadOnly bool, logger *slog.Logger) func(context.Context, string, string) (tui.Profile, error) {
	return func(ctx context.Context, name, key string) (tui.Profile, error) {
		p := s.profile
		if name != p.Name {
			var err error
			if p, err = s.cfg.Profile(name); err != nil {
				return tui.Profile{Name: name}, err
			}
		}
		other := &session{cfg: s.cfg, profile: p, store: s.store}
		c, err := other.client(key, e.version, logger)
		if err != nil {
			return tui.Profile{Name: name}, err
		}
		if err := c.Check(ctx); err != nil {
			if api.IsUnauthorized(err) {
				return tui.Profile{Name: name}, fmt.Errorf("the API refused this key: %v", err)
			}
			return tui.Profile{Name: name}, fmt.Errorf("could not check the key: %v", err)
		}
		if err := s.store.SetAPIKey(p.Name, key); err != nil {
			return tui.Profile{Name: name}, fmt.Errorf("the key works but could not be stored: %w", err)
		}
		return tui.Profile{Name: p.Name, Client: c, ReadOnly: forceReadOnly || p.ReadOnly}, nil
	}
}

// demoSecrets is the demo's keystore: in memory, labelled as such, with two
// made-up bucket credentials so the bucket forms have something to offer.
func demoSecrets() (*keystore.Store, error) {
	st, err := keystore.Open(keystore.Options{
		Backends: []keystore.Backend{keystore.NewMemoryBackend("memory (demo: forgotten on exit)")},
		Getenv:   func(string) string { return "" },
	})
	if err != nil {
		return nil, err
	}
	const pk = `-----BEGIN PRIVATE KEY-----\nZGVtbyBrZXksIG5vdCBhIHJlYWwgb25l\n-----END PRIVATE KEY-----\n`
	creds := []keystore.BucketCredential{
		keystore.GCSCredential{Name: "demo-gcs", KeyJSON: []byte(`{"type":"service_account","project_id":"demo","client_email":"backups@demo.iam.gserviceaccount.com","private_key":"` + pk + `"}`)},
		keystore.S3Credential{Name: "demo-s3", AccessKeyID: "AKIADEMO0000000000", SecretAccessKey: "demo-secret-not-real", Region: "us-east-1"},
	}
	for _, c := range creds {
		if err := st.PutBucketCredential(c); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// openDebugLog opens the debug log in the user state directory. The client
// logs only a redacted copy of the headers, so the API key never reaches it.
func openDebugLog(enabled bool, stderr io.Writer) (*slog.Logger, func(), error) {
	if !enabled {
		return slog.New(slog.DiscardHandler), func() {}, nil
	}
	dir, err := config.EnsureStateDir()
	if err != nil {
		return nil, nil, err
	}
	path := filepath.Join(dir, "debug.log")
	fh, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintln(stderr, "skytui: debug log:", path)
	return slog.New(slog.NewTextHandler(fh, &slog.HandlerOptions{Level: slog.LevelDebug})), func() { fh.Close() }, nil
}
