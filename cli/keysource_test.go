package cli

import (
	"bytes"
	"context"
	"testing"

	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/tui"
)

// TestTUIKnowsTheKeyCameFromTheEnvironment: the TUI is told when its key,
// or a switched profile's, came from SKYSQL_API_KEY (its key prompt says
// that the environment wins at every start); a stored key is not.
func TestTUIKnowsTheKeyCameFromTheEnvironment(t *testing.T) {
	h := newHarness(t)
	if out, err := h.run(goodKey+"\n", "auth", "login", "--profile", "lab", "--api-url", h.url); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	start := func() tui.Options {
		t.Helper()
		var opts tui.Options
		var out bytes.Buffer
		e := h.newEnv("", &out, &out)
		e.tuiRun = func(_ context.Context, o tui.Options) error { opts = o; return nil }
		cmd := newRootCmd(e)
		cmd.SetArgs([]string{"--profile", "lab"})
		if err := cmd.ExecuteContext(context.Background()); err != nil {
			t.Fatalf("%v\n%s", err, out.String())
		}
		return opts
	}
	for _, env := range []string{"", "skysql.from.the.environment"} {
		t.Setenv(keystore.EnvAPIKey, env)
		opts := start()
		want := env != ""
		if opts.KeyFromEnv != want {
			t.Errorf("%s=%q: Options.KeyFromEnv = %v, want %v", keystore.EnvAPIKey, env, opts.KeyFromEnv, want)
		}
		p, err := opts.SwitchProfile("lab")
		if err != nil || p.KeyFromEnv != want {
			t.Errorf("%s=%q: switched profile KeyFromEnv = %v (%v), want %v", keystore.EnvAPIKey, env, p.KeyFromEnv, err, want)
		}
	}
}
