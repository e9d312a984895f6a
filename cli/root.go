// Package cli is skytui's command line: the TUI entry, auth, creds, the
// sandbox server and version.
package cli

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui"
)

// Main runs the command line and returns the process's exit status. When
// a terminating signal ended the TUI (its terminal restored, every
// deferred clean-up done), a prompt, or a command (a request or a --wait
// cancelled), the status is 128 + the signal number, as a shell reports a
// process killed by it: SIGHUP 129, SIGINT 130, SIGQUIT 131, SIGTERM 143.
// The commands for scripts exit 2 (usage), 3 (refused) and 4 (not found)
// too; any other error 1.
func Main(version string) int {
	ctx, got, stop := signalContext(context.Background())
	e := defaultEnv(version)
	err := e.execute(ctx, newRootCmd(e))
	stop()
	var sig *tui.SignalError
	if errors.As(err, &sig) {
		return sig.ExitCode()
	}
	s := got()
	if s != nil && errors.Is(err, context.Canceled) {
		// a request the signal cancelled: that, not "context canceled"
		err = fmt.Errorf("interrupted (%s): what was being read or sent was stopped", s)
	}
	code := reportError(os.Stderr, err)
	if s != nil {
		return signalExit(s)
	}
	return code
}

type rootFlags struct {
	demo        bool
	apiURL      string
	profile     string
	debug       bool
	ui          tui.Options     // the flags' part of the terminal UI's options
	demoSandbox sandbox.Options // with --demo, the flags' part of the sandbox's
}

func newRootCmd(e *env) *cobra.Command {
	var f rootFlags
	cmd := &cobra.Command{
		Use:   "skytui",
		Short: "Terminal UI for managed MariaDB: services, backups, restores, replication",
		Long: `skytui is a keyboard-driven terminal UI for a managed MariaDB service.

Start it against the embedded sandbox, no account needed:
  skytui --demo

Against a real account, store the API key once, then start:
  skytui auth login --profile skysql
  skytui --profile skysql

The API key is read from the keystore or from SKYSQL_API_KEY, never from
the command line.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return e.runTUI(cmd, f)
		},
	}
	// --profile "" (a script's unset variable) must not mean the default
	// profile, which may be production; likewise --api-url ""
	cmd.PersistentPreRunE = func(c *cobra.Command, _ []string) error {
		for name, what := range map[string]string{"profile": "a profile name", "api-url": "a URL"} {
			if fl := c.Flag(name); fl != nil && fl.Changed && strings.TrimSpace(fl.Value.String()) == "" {
				return usageErrf("--%s is empty: give %s, or leave the flag out for the default", name, what)
			}
		}
		return nil
	}
	e.root = cmd
	if _, ok := e.stderr.(hintWriter); !ok {
		e.stderr = hintWriter{w: e.stderr, e: e}
	}
	cmd.SetIn(e.stdin)
	cmd.SetOut(e.stdout)
	cmd.SetErr(e.stderr)
	fl := cmd.Flags()
	fl.BoolVar(&f.demo, "demo", false, "run against an embedded sandbox with demo data (no account needed)")
	fl.StringVar(&f.apiURL, "api-url", "", "API base URL, overriding the profile's (HTTPS unless loopback)")
	fl.StringVar(&f.profile, "profile", "", "profile to use (default: the config file's default, else skysql)")
	fl.BoolVar(&f.debug, "debug", false, "write a debug log to the user state directory (API key redacted)")
	fl.BoolVar(&f.ui.Accessible, "accessible", false, "accessible mode: plain prompts, no animation")
	fl.BoolVar(&f.ui.NoMouse, "no-mouse", false, "leave the mouse to the terminal (its own text selection); --accessible implies it")
	fl.BoolVar(&f.ui.ReadOnly, "read-only", false, "refuse every change to the account (the local keystore stays writable: bucket credentials, the API key)")
	fl.DurationVar(&f.ui.SlowInterval, "refresh", 30*time.Second, "refresh interval when nothing is pending (0 = off, minimum 2s); default from the profile")
	fl.Float64Var(&f.demoSandbox.TimeScale, "time-scale", 30, "with --demo: how much faster the sandbox clock runs")
	fl.BoolVar(&f.demoSandbox.Hostile, "hostile", false, "with --demo: the demo data carries terminal control sequences (a test of the cleaning)")
	auth, creds := newAuthCmd(e), newCredsCmd(e)
	addKeystoreReadOnlyFlag(auth)
	addKeystoreReadOnlyFlag(creds)
	cmd.AddCommand(newVersionCmd(e), newSandboxCmd(e), auth, creds)
	cmd.AddCommand(scriptCmds(e)...)
	addCompletions(e, cmd)
	strictCompletionCmd(cmd)
	usageTree(cmd)
	return cmd
}

func newVersionCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintln(cmd.OutOrStdout(), "skytui", e.version)
		},
	}
}

func randomKey() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return "sandbox." + hex.EncodeToString(b)
}

func (e *env) runTUI(cmd *cobra.Command, f rootFlags) error {
	if r := f.ui.SlowInterval; r != 0 && r < 2*time.Second {
		return fmt.Errorf("--refresh %s: must be 0 (off) or at least 2s", r)
	}
	logger, closeLog, err := openDebugLog(f.debug, e.stderr)
	if err != nil {
		return err
	}
	defer closeLog()
	ctx := cmd.Context()

	opts := f.ui
	opts.ReadOnlyFlag = f.ui.ReadOnly // refusals name --read-only, not the profile
	opts.FastInterval, opts.Bell, opts.Version = 2*time.Second, true, e.version
	if f.demo {
		key := randomKey()
		so := f.demoSandbox
		so.APIKey, so.DemoData, so.Logger, so.SQL = key, true, logger, sandbox.SQLDemo
		sb := sandbox.New(so)
		url, err := sb.Start("127.0.0.1:0")
		if err != nil {
			return fmt.Errorf("start the demo sandbox: %w", err)
		}
		defer sb.Close()
		s := &session{profile: demoProfile(url)}
		if opts.Client, err = s.clientWith(key, e.version, logger, sb.Clock().Now); err != nil {
			return err
		}
		if opts.Secrets, err = demoSecrets(); err != nil {
			return err
		}
		opts.Profile = s.profile.Name
		opts.Demo = true
		// the demo's replication pairs live as long as the demo: its
		// sandbox starts afresh each time, with the same service IDs
		stateDir, err := os.MkdirTemp("", "skytui-demo-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(stateDir)
		opts.ReplicationStore = &replsetup.Store{Path: filepath.Join(stateDir, replsetup.StateFileName)}
		return e.runUI(ctx, opts)
	}

	s, err := e.openSession(f.profile, f.apiURL)
	if err != nil {
		return err
	}
	// an encrypted secrets file is unlocked first, a wrong passphrase asked
	// again: the key may be in it, and its passphrase cannot be asked once
	// the UI owns the terminal
	if err := e.unlockSecrets(s); err != nil {
		return err
	}
	key, src, err := s.apiKey()
	if errors.Is(err, keystore.ErrNotFound) && s.store.Backend().Name() == keystore.BackendFile {
		// the encrypted file's passphrase is asked on the terminal, so the
		// key is too, before the UI takes the terminal over; into this
		// session's keystore, whose passphrase is then known (asked once)
		if err := e.loginSession(ctx, s, authFlags{profile: s.profile.Name, apiURL: f.apiURL}); err != nil {
			return err
		}
		key, src, err = s.apiKey()
	}
	switch {
	case errors.Is(err, keystore.ErrNotFound):
		opts.NeedKey = true // the UI opens its key prompt first
	case err != nil:
		return err
	}
	if opts.Client, err = s.client(key, e.version, logger); err != nil {
		return err
	}
	// the key prompt says when the key in use is the environment's, which
	// every start takes again
	opts.KeyFromEnv = fromEnv(src)
	opts.Login = e.loginFunc(s, f.ui.ReadOnly, logger)
	opts.Profile = s.profile.Name
	opts.Secrets = s.store
	opts.Profiles = s.cfg.ProfileNames()
	opts.ConfigWarnings = s.cfg.Warnings
	opts.SwitchProfile = e.profileSwitcher(s, f.ui.ReadOnly, logger)
	opts.ProfileDetails = profileDetails(s, f.ui.ReadOnly)
	opts.ReadOnly = opts.ReadOnly || s.profile.ReadOnly
	opts.Bell = s.profile.Bell
	if !cmd.Flags().Changed("refresh") {
		opts.SlowInterval = time.Duration(s.profile.RefreshSeconds) * time.Second
	}
	if s.profile.FastRefreshSeconds > 0 {
		opts.FastInterval = time.Duration(s.profile.FastRefreshSeconds) * time.Second
	}
	e.tuiActive.Store(true)
	defer e.tuiActive.Store(false)
	return e.runUI(ctx, opts)
}

type sandboxFlags struct {
	listen, apiKey, faults   string
	noDemo, mariadb, logReqs bool
	opts                     sandbox.Options // the flags' part of the sandbox's options
}

func newSandboxCmd(e *env) *cobra.Command {
	var f sandboxFlags
	cmd := &cobra.Command{
		Use:   "sandbox",
		Short: "Serve the sandbox API (the whole interface, in memory) until interrupted",
		Long: `Serve the sandbox API on a loopback address: services, backups, restores
and the option listings, with a fast clock and optional fault injection.

Every ready service answers the sky replication procedures on its
readwrite port (127.0.0.1); with --mariadb each is a real local mariadbd,
so restores copy data and replication is real.

The key given with --api-key is the sandbox's own key, not a real one.
Without --api-key the sandbox accepts the key in SKYSQL_API_KEY (so the
key stays out of the process list), else a random one it prints.
Point skytui at it with:
  SKYSQL_API_KEY=<key> skytui --api-url <printed URL>`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return e.runSandbox(cmd.Context(), f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.listen, "listen", "127.0.0.1:8080", "address to listen on (loopback)")
	fl.StringVar(&f.apiKey, "api-key", "", "API key the sandbox accepts (default: $SKYSQL_API_KEY, else random and printed)")
	fl.Float64Var(&f.opts.TimeScale, "time-scale", 1, "sandbox seconds per real second (60: a 5-minute launch takes 5 s)")
	fl.BoolVar(&f.noDemo, "no-demo-data", false, "start empty")
	fl.StringVar(&f.faults, "faults", "", "fault injection, e.g. latency=200ms,error=0.1,429=0.05,retry-after=2s,malformed=0.05,drop=0.05,timeout=0.02,unreadable=0.05,drop-after=0.02,empty=0.03,null=0.03,endless=0.02,huge=0.02")
	fl.BoolVar(&f.logReqs, "log-requests", false, "print one line per request on stderr: method, path, query, status (never the API key)")
	fl.Float64Var(&f.opts.RateLimit, "rate-limit", 0, "requests per second per key before 429 (0 = unlimited)")
	fl.BoolVar(&f.opts.Hostile, "hostile", false, "spoil the demo data's text with terminal control sequences and add a service with a 5,000-character name (a test of the client's cleaning)")
	fl.BoolVar(&f.mariadb, "mariadb", false, "back each ready service with a real local mariadbd (needs mariadb-server; starts without demo data)")
	return cmd
}

func (e *env) runSandbox(ctx context.Context, f sandboxFlags) error {
	// plain HTTP with an API key: loopback only
	if host, _, err := net.SplitHostPort(f.listen); err != nil || !api.IsLoopbackHost(host) {
		return fmt.Errorf("--listen %s: must be a loopback address such as 127.0.0.1:8080 (the sandbox speaks plain HTTP)", f.listen)
	}
	if f.opts.TimeScale <= 0 {
		return fmt.Errorf("--time-scale %v: must be positive", f.opts.TimeScale)
	}
	faults, err := sandbox.ParseFaults(f.faults)
	if err != nil {
		return fmt.Errorf("--faults: %w", err)
	}
	key, printKey := f.apiKey, false
	if key == "" {
		key = strings.TrimSpace(os.Getenv(keystore.EnvAPIKey))
	}
	if key == "" {
		key, printKey = randomKey(), true
	}
	mode := sandbox.SQLDemo
	if f.mariadb {
		mode = sandbox.SQLMariaDB
	}
	var logger *slog.Logger
	if f.logReqs {
		logger = slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	opts := f.opts
	opts.APIKey, opts.DemoData, opts.Faults, opts.SQL, opts.Logger = key, !f.noDemo && !f.mariadb, faults, mode, logger
	sb, err := sandbox.Open(opts)
	if err != nil {
		return err
	}
	defer sb.Close()
	url, err := sb.Start(f.listen)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "sandbox listening on %s\n", url)
	switch {
	case printKey:
		fmt.Fprintf(e.stdout, "API key: %s\n", key)
	case f.apiKey == "":
		fmt.Fprintf(e.stdout, "API key: the value of %s (%s)\n", keystore.EnvAPIKey, keystore.Fingerprint(key))
	}
	fmt.Fprintf(e.stdout, "backup interface: %s/backup/v1 and %s/skybackup/v1; provisioning: %s/provisioning/v1\n", url, url, url)
	<-ctx.Done()
	return nil
}

// unlockSecrets reads the session's secrets once before the UI starts, so
// that an encrypted file's passphrase is asked while it can be: a wrong
// one is said and asked again, and after the last try the UI does not
// start (it would show the file as empty). Other errors are the UI's to
// show, where the secrets are listed.
func (e *env) unlockSecrets(s *session) error {
	for try := 1; ; try++ {
		_, err := s.store.ListBucketCredentials()
		if !errors.Is(err, keystore.ErrWrongPassphrase) {
			return nil
		}
		if try == passphraseTries {
			return fmt.Errorf("%w (%d tries): the UI does not start with the secrets locked; start it again, or choose another backend with SKYTUI_SECRETS_BACKEND", keystore.ErrWrongPassphrase, passphraseTries)
		}
		// the prompt named the file
		fmt.Fprintln(e.stderr, "skytui: wrong passphrase: try again")
	}
}
