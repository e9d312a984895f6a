package cli

import (
	"testing"

	"github.com/skytui/skytui/keystore"
)

// TestTUIKnowsTheKeyCameFromTheEnvironment: the TUI is told when its key,
// or a switched profile's, came from SKYSQL_API_KEY (its key prompt says
// that the environment wins at every start); a stored key is not.
func TestTUIKnowsTheKeyCameFromTheEnvironment(t *testing.T) {
	h := labHarness(t)
	for _, env := range []string{"", "skysql.from.the.environment"} {
		t.Setenv(keystore.EnvAPIKey, env)
		opts := tuiOptions(h, "--profile", "lab")
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
