package cli

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/spf13/cobra"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/config"
	"github.com/skytui/skytui/keystore"
)

func demoProfile(url string) config.Profile {
	p := config.NewProfile("demo", url)
	return p
}

type authFlags struct {
	profile string
	apiURL  string
	org     string
	noCheck bool
}

func newAuthCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "auth",
		Short: "Store, remove and show the API key of a profile",
	}
	var f authFlags
	login := &cobra.Command{
		Use:   "login",
		Short: "Read an API key without echo, check it, and store it in the keystore",
		Long: `Read an API key without echo (or one line from standard input when it is
not a terminal), check it with one cheap API call, and store it in the
keystore under the profile. A profile named here that the config file does
not have yet is created with --api-url.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return e.authLogin(cmd.Context(), f) },
	}
	login.Flags().StringVar(&f.profile, "profile", "", "profile (default: the config file's default, else skysql)")
	login.Flags().StringVar(&f.apiURL, "api-url", "", "API base URL (HTTPS unless loopback): required for a new profile; for an existing one, it replaces the profile's URL")
	login.Flags().StringVar(&f.org, "org", "", "organisation sent as X-MDB-Org")
	login.Flags().BoolVar(&f.noCheck, "no-check", false, "store the key without checking it against the API")

	logout := profileCmd("logout", "Remove the profile's API key from the keystore", e.authLogout)
	status := profileCmd("status", "Show the profile, endpoint, secrets backend and a fingerprint of the key (never the key)", e.authStatus)
	cmd.AddCommand(login, logout, status)
	return cmd
}

// profileCmd makes an auth verb that takes only --profile and runs run
// with it.
func profileCmd(use, short string, run func(profile string) error) *cobra.Command {
	var profile string
	cmd := &cobra.Command{
		Use:   use,
		Short: short,
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return run(profile) },
	}
	cmd.Flags().StringVar(&profile, "profile", "", "profile")
	return cmd
}

func (e *env) authLogin(ctx context.Context, f authFlags) error {
	s, err := e.openLoginSession(f.profile, f.apiURL)
	if err != nil {
		return err
	}
	return e.loginSession(ctx, s, f)
}

// loginSession is auth login in a session already open: its keystore, so
// an encrypted file's passphrase asked (or set) once serves the whole run.
// f.profile and f.apiURL must be the ones s was opened with.
func (e *env) loginSession(ctx context.Context, s *session, f authFlags) error {
	if f.org != "" {
		s.profile.Org = f.org
	}
	key, err := e.prompter().Secret(fmt.Sprintf("API key for profile %s (%s)", s.profile.Name, s.profile.BaseURL))
	if err != nil {
		return fmt.Errorf("read the API key: %w", err)
	}
	if key == "" {
		return usageErr(errors.New("no API key entered")) // exit 2: input not given
	}
	if !f.noCheck {
		c, err := s.client(key, e.version, slog.New(slog.DiscardHandler))
		if err != nil {
			return err
		}
		cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		// ctrl+c during the check ends the command as at the prompt
		_, err = untilSignal(nil, func() (struct{}, error) { return struct{}{}, c.Check(cctx) })
		cancel()
		if interrupted(err) {
			return err
		}
		if api.IsUnauthorized(err) {
			return fmt.Errorf("the API refused this key (%v); nothing was stored", err)
		}
		if err != nil {
			// said as a whole command: this also runs at skytui's start,
			// which has no --no-check of its own
			return fmt.Errorf("could not check the key: %v; nothing was stored (`skytui auth login --profile %s --no-check` stores it without the check)", err, s.profile.Name)
		}
	}
	if err := s.store.SetAPIKey(s.profile.Name, key); err != nil {
		return fmt.Errorf("store the API key: %w", err)
	}
	b := s.store.Backend()
	fmt.Fprintf(e.stdout, "Stored the API key of profile %s (%s) in %s.\n", s.profile.Name, keystore.Fingerprint(key), storeWhere(b))
	// keep the profile (no secrets) in the config file
	if _, inFile := findProfile(s.cfg, s.profile.Name); !inFile || f.apiURL != "" || f.org != "" {
		if err := s.cfg.Upsert(s.profile); err != nil {
			return fmt.Errorf("the API key is stored, but profile %s was not saved in the config file: %w", s.profile.Name, err)
		}
		if err := s.cfg.Save(); err != nil {
			return e.configNotSaved(s.profile.Name, err)
		}
	}
	return nil
}

// configNotSaved reports a config file auth login did not change (the key
// is stored by then). When the file was left alone to keep what the user
// wrote in it, the lines to add or change are printed on stderr, as they
// go in the file.
func (e *env) configNotSaved(profile string, err error) error {
	var me *config.ManualEditError
	if !errors.As(err, &me) {
		return fmt.Errorf("the API key is stored, but profile %s was not saved in the config file: %w", profile, err)
	}
	fmt.Fprintf(e.stderr, "skytui: config %s left unchanged (%s); add or change these lines yourself:\n", me.Path, me.Reason)
	for _, l := range me.Lines {
		fmt.Fprintln(e.stderr, l)
	}
	return fmt.Errorf("the API key is stored, but profile %s is not in the config file %s until you make the change above", profile, me.Path)
}

func findProfile(cfg *config.Config, name string) (config.Profile, bool) {
	for _, p := range cfg.Profiles {
		if p.Name == name {
			return p, true
		}
	}
	return config.Profile{}, false
}

func (e *env) authLogout(profile string) error {
	s, err := e.openSession(profile, "")
	if err != nil {
		return err
	}
	from, err := s.store.DeleteAPIKey(s.profile.Name)
	if errors.Is(err, keystore.ErrNotFound) {
		// a copy may be in an encrypted file not read: say where, and how
		// to remove it from there
		fmt.Fprintf(e.stdout, "Profile %s had no stored API key%s.\n", s.profile.Name, s.store.Unread())
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Removed the API key of profile %s from %s.\n", s.profile.Name, storePlaces(from))
	return nil
}

func (e *env) authStatus(profile string) error {
	s, err := e.openSession(profile, "")
	if err != nil {
		return err
	}
	p := s.profile
	w := e.stdout
	fmt.Fprintf(w, "profile:   %s\n", p.Name)
	fmt.Fprintf(w, "endpoint:  %s (provisioning %s, backup %s)\n", p.BaseURL, p.ProvisioningPrefix, p.BackupPrefix)
	if p.Org != "" {
		fmt.Fprintf(w, "org:       %s\n", p.Org)
	}
	if p.ReadOnly {
		fmt.Fprintln(w, "read-only: yes")
	}
	key, src, err := s.store.APIKey(p.Name)
	switch {
	case errors.Is(err, keystore.ErrNotFound):
		// where it may still be comes before a login that would store a
		// second copy
		if unread := s.store.Unread(); unread != "" {
			fmt.Fprintf(w, "API key:   none in the keystore read%s (or run `skytui auth login --profile %s`)\n", unread, p.Name)
		} else {
			fmt.Fprintf(w, "API key:   none (run `skytui auth login --profile %s`)\n", p.Name)
		}
	case err != nil:
		fmt.Fprintf(w, "API key:   unreadable: %v\n", err)
	default:
		fmt.Fprintf(w, "API key:   %s from %s\n", keystore.Fingerprint(key), src.Label())
	}
	fmt.Fprintln(w, "secrets backends:")
	for _, st := range s.store.Probe() {
		mark := "  "
		if st.Selected {
			mark = "* "
		}
		state := "usable"
		if !st.Usable {
			state = "unusable: " + st.Reason
		} else if st.ReadOnly {
			state = "usable, read-only"
		}
		if st.Note != "" {
			state += "; " + st.Note
		}
		fmt.Fprintf(w, "  %s%-8s %s — %s\n", mark, st.Name, st.Label, state)
	}
	return nil
}
