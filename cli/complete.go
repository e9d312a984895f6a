package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/skytui/skytui/config"
)

// Shell completion: `skytui completion bash|zsh|fish|powershell` is
// cobra's; service names for SERVICE arguments and --service (and
// --confirm) come from the API, cached for 30 seconds in the user cache
// directory (names only, nothing secret). Completion never prompts: a
// keystore that needs a passphrase, a missing key or a failing call
// completes nothing.

// completionTTL is how long the cached service names are used.
const completionTTL = 30 * time.Second

// completionCacheDir is where the names are cached; tests replace it.
var completionCacheDir = func() (string, error) {
	d, err := os.UserCacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "skytui"), nil
}

// strictCompletionCmd makes `skytui completion SHELL` with a shell it does
// not know a usage error (exit 2) instead of its help with exit 0, which
// `source <(skytui completion bsh)` would run as a script.
func strictCompletionCmd(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() == "completion" {
			c.Args = usageArgs(cobra.NoArgs)
			c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
		}
	}
}

// addCompletions completes service names for every --service and
// --confirm flag and for a first argument that names a service: SERVICE
// or SECONDARY in the usage line.
func addCompletions(e *env, c *cobra.Command) {
	for _, name := range []string{"service", "confirm"} {
		if c.LocalNonPersistentFlags().Lookup(name) != nil {
			_ = c.RegisterFlagCompletionFunc(name, e.completeServiceFlag)
		}
	}
	if words := strings.Fields(c.Use); c.ValidArgsFunction == nil && len(words) > 1 {
		switch strings.Trim(words[1], "[].") {
		case "SERVICE", "SECONDARY":
			c.ValidArgsFunction = e.completeServiceArg
		}
	}
	for _, sub := range c.Commands() {
		addCompletions(e, sub)
	}
}

func (e *env) completeServiceArg(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return e.completeServiceFlag(cmd, args, toComplete)
}

func (e *env) completeServiceFlag(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	var out []string
	for _, n := range e.cachedServiceNames(cmd) {
		if strings.HasPrefix(n, toComplete) {
			out = append(out, n)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

type nameCache struct {
	At    time.Time `json:"at"`
	Names []string  `json:"names"`
}

// cachedServiceNames returns the service names of the command's profile,
// from the cache when it is fresh, else from the API (then cached).
func (e *env) cachedServiceNames(cmd *cobra.Command) []string {
	f := cmdFlags(cmd)
	cfg, err := e.loadConfig()
	if err != nil {
		return nil
	}
	p, err := cfg.Profile(f.profile)
	if err != nil {
		if f.apiURL == "" || f.profile == "" {
			return nil
		}
		p = config.NewProfile(f.profile, f.apiURL)
	}
	if f.apiURL != "" {
		p.BaseURL = f.apiURL
	}
	sum := sha256.Sum256([]byte(p.Name + "\x00" + p.BaseURL + "\x00" + p.Org))
	var path string
	if dir, err := completionCacheDir(); err == nil {
		path = filepath.Join(dir, "services-"+hex.EncodeToString(sum[:8])+".json")
		if b, err := os.ReadFile(path); err == nil {
			var nc nameCache
			if json.Unmarshal(b, &nc) == nil && time.Since(nc.At) < completionTTL && time.Since(nc.At) >= 0 {
				return nc.Names
			}
		}
	}
	store, err := e.openStore(func(string, bool) (string, error) {
		return "", errors.New("no passphrase prompt during completion")
	})
	if err != nil {
		return nil
	}
	key, _, err := store.APIKey(p.Name)
	if err != nil {
		return nil
	}
	s := &session{cfg: cfg, profile: p, store: store}
	client, err := s.client(key, e.version, slog.New(slog.DiscardHandler))
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	svcs, err := client.ListServices(ctx)
	if err != nil {
		return nil
	}
	names := make([]string, 0, len(svcs))
	for _, sv := range svcs {
		if sv.Name != "" && !strings.ContainsAny(sv.Name, " \t\n") {
			names = append(names, sv.Name)
		}
	}
	if path != "" {
		if b, err := json.Marshal(nameCache{At: time.Now(), Names: names}); err == nil {
			if os.MkdirAll(filepath.Dir(path), 0o700) == nil {
				_ = os.WriteFile(path, b, 0o600)
			}
		}
	}
	return names
}
