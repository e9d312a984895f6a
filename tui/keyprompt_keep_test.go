package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/tuitest"
)

// profileKeyHarness is refusedKeyHarness with profiles: prod, whose key
// from SKYSQL_API_KEY the API refuses (the environment takes precedence
// over the keystore, as in the command line's switch), and lab, whose key
// works.
func profileKeyHarness(t *testing.T) (*harness, *fakeLogin) {
	t.Helper()
	return refusedKeyHarnessWith(t, true, func(o *Options, srv *sandbox.Server) {
		o.Profiles = []string{"lab", "prod"}
		o.SwitchProfile = func(name string) (Profile, error) {
			if name == "prod" {
				return Profile{Name: name, Client: revokedClient(t, srv), KeyFromEnv: true}, nil
			}
			return Profile{Name: name, Client: tuitest.Client(t, srv, api.Config{})}, nil
		}
	})
}

// TestEnteredKeyKeptThroughProfileSwitches: a key entered at the prompt
// and accepted by the API is used for its profile for the rest of the run,
// over the environment's, after a switch to another profile and back.
func TestEnteredKeyKeptThroughProfileSwitches(t *testing.T) {
	h, fl := profileKeyHarness(t)
	unlockPrompt(t, h)
	h.TypeText(testKey)
	h.Key("enter")
	h.toastSays(t, "accepted and stored")

	h.Key(":")
	h.TypeText("profile lab")
	h.Key("enter")
	h.Settle()
	h.toastSays(t, "switched to profile lab")
	h.Key(":")
	h.TypeText("profile prod")
	h.Key("enter")
	h.Settle()
	h.toastSays(t, "switched to profile prod")
	if strings.Contains(h.Screen(), "API key for profile") || strings.Contains(h.Screen(), "API key refused") {
		t.Fatalf("back on prod, the key entered should be used, not the environment's:\n%s", h.Screen())
	}
	h.sees(t, "orders-prod", "back on prod, the services should be listed")
	if fl.calls != 1 {
		t.Fatalf("%d checks: the key should not be asked again", fl.calls)
	}
}

// TestKeyEnteredKeepsDrafts: entering a key for the profile in use keeps
// what the screens hold: the restore wizard left without a key comes back
// where it was, and now lists the services.
func TestKeyEnteredKeepsDrafts(t *testing.T) {
	srv, _, _ := tuitest.Sandbox(t, true)
	fl := &fakeLogin{srv: srv, stored: map[string]string{}}
	h := newHarness(t, Options{Client: tuitest.Client(t, srv, api.Config{}), Profile: "prod", NeedKey: true, Login: fl.login, Now: func() time.Time { return t0 }}, 100, 30)
	h.Key("esc")
	h.Keys("3", "n", "enter")
	h.sees(t, "New restore 2/4", "the wizard's second step")
	h.Key("ctrl+x")
	h.toastSays(t, "n brings back what you chose and typed")
	h.Keys("5", "K")
	h.TypeText(testKey)
	h.Key("enter")
	h.toastSays(t, "accepted and stored")
	h.Keys("3", "n")
	h.sees(t, "New restore 2/4", "the wizard should come back where it was left")
	h.sees(t, "orders-prod", "the wizard should list the services with the key")
}
