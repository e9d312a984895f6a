package tui

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/tuitest"
)

// fakeLogin checks keys against the sandbox like the command line's Login
// does, and remembers what it stored.
type fakeLogin struct {
	mu     sync.Mutex
	srv    *sandbox.Server
	stored map[string]string
	calls  int
}

func (f *fakeLogin) login(ctx context.Context, profile, key string) (Profile, error) {
	f.mu.Lock()
	f.calls++
	f.mu.Unlock()
	c, err := api.New(tuitest.Config(f.srv, api.Config{APIKey: key}))
	if err != nil {
		return Profile{}, err
	}
	if err := c.Check(ctx); err != nil {
		return Profile{}, errors.New("the API refused this key: " + err.Error())
	}
	f.mu.Lock()
	f.stored[profile] = key
	f.mu.Unlock()
	return Profile{Name: profile, Client: c}, nil
}

// loginWith opens the prompt with :login and enters testKey: it is
// accepted and stored for profile.
func (h *harness) loginWith(t *testing.T, fl *fakeLogin, profile string) {
	t.Helper()
	h.Key(":")
	h.TypeText("login")
	h.Key("enter")
	h.TypeText(testKey)
	h.Key("enter")
	h.toastSays(t, "accepted and stored")
	fl.mu.Lock()
	defer fl.mu.Unlock()
	if fl.stored[profile] != testKey {
		t.Fatalf("stored %v", fl.stored)
	}
}

func TestFirstRunAsksForTheKeyInsteadOfFailing(t *testing.T) {
	srv, _, _ := tuitest.Sandbox(t, true)
	fl := &fakeLogin{srv: srv, stored: map[string]string{}}
	h := newHarness(t, Options{Client: tuitest.Client(t, srv, api.Config{}), Profile: "prod", NeedKey: true, Login: fl.login, Now: func() time.Time { return t0 }}, 100, 30)
	scr := h.Screen()
	if !strings.Contains(scr, "API key for profile prod") || !strings.Contains(scr, "has no API key yet") {
		t.Fatalf("the key prompt should greet a first run:\n%s", scr)
	}
	if !strings.Contains(scr, "no API key for this profile") {
		t.Errorf("the header should say why nothing is shown:\n%s", scr)
	}
	if n := srv.Stats().Total; n != 0 {
		t.Errorf("%d requests were sent without a key", n)
	}

	h.TypeText("wrong-key")
	h.Key("enter")
	scr = h.Screen()
	if !strings.Contains(scr, "the API refused this key") || !strings.Contains(scr, "401") {
		t.Fatalf("a refused key must say so in the prompt:\n%s", scr)
	}
	if strings.Contains(scr, "wrong-key") {
		t.Fatal("the key must stay masked")
	}
	if len(fl.stored) != 0 {
		t.Fatal("a refused key must not be stored")
	}

	// fix the typo: the masked input kept what was typed
	for range len("wrong-key") {
		h.Key("backspace")
	}
	h.TypeText(testKey)
	h.Key("enter")
	scr = h.Screen()
	if strings.Contains(scr, "API key for profile") {
		t.Fatalf("the prompt should close on success:\n%s", scr)
	}
	if !strings.Contains(scr, "accepted and stored") || !strings.Contains(scr, "orders-prod") {
		t.Fatalf("after login the services should be listed with a toast:\n%s", scr)
	}
	if fl.stored["prod"] != testKey {
		t.Errorf("stored %v", fl.stored)
	}
}

// refusedKeyHarness is the application on profile prod whose key
// ("revoked", from SKYSQL_API_KEY when fromEnv) the sandbox refuses.
func refusedKeyHarness(t *testing.T, fromEnv bool) (*harness, *fakeLogin) {
	t.Helper()
	return refusedKeyHarnessWith(t, fromEnv, nil)
}

// refusedKeyHarnessWith is refusedKeyHarness with its options changed by
// tweak (given the sandbox) before the application starts.
func refusedKeyHarnessWith(t *testing.T, fromEnv bool, tweak func(*Options, *sandbox.Server)) (*harness, *fakeLogin) {
	t.Helper()
	srv, _, _ := tuitest.Sandbox(t, true)
	fl := &fakeLogin{srv: srv, stored: map[string]string{}}
	opts := Options{Client: revokedClient(t, srv), KeyFromEnv: fromEnv, Profile: "prod", Login: fl.login, Now: func() time.Time { return t0 }}
	if tweak != nil {
		tweak(&opts, srv)
	}
	h := newHarness(t, opts, 100, 30)
	return h, fl
}

// revokedClient is a client of srv whose key ("revoked") it refuses.
func revokedClient(t *testing.T, srv *sandbox.Server) *api.Client {
	t.Helper()
	bad, err := api.New(api.Config{BaseURL: "http://127.0.0.1:8080", APIKey: "revoked",
		HTTPClient: tuitest.HTTPClient(srv), MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return bad
}

func TestRefusedKeyWhileRunningOpensThePrompt(t *testing.T) {
	h, _ := refusedKeyHarness(t, false)
	scr := h.Screen()
	if !strings.Contains(scr, "The API refused the key of profile prod") {
		t.Fatalf("a 401 should open the key prompt:\n%s", scr)
	}
	armPrompt(h)
	h.Key("esc")
	if strings.Contains(h.Screen(), "API key for profile") {
		t.Fatal("esc closes the prompt")
	}
	h.Key(":")
	h.TypeText("login")
	h.Key("enter")
	h.sees(t, "API key for profile prod", ":login reopens the prompt")
}

// TestDemoNeedsNoKey: K in the demo says the demo needs no key, instead of
// an error about a keystore.
func TestDemoNeedsNoKey(t *testing.T) {
	h, _, _ := demoHarness(t, 100, 30, nil)
	h.Keys("5", "K")
	if got := lastToast(h); !strings.HasPrefix(got, "the demo needs no API key") {
		t.Fatalf("K in the demo: toast %q", got)
	}
}

// TestNoKeySendsNothing: without a key, opening the screens and the create
// form (which loads the providers) sends no request; the form says why it
// has no choices.
func TestNoKeySendsNothing(t *testing.T) {
	srv, _, _ := tuitest.Sandbox(t, true)
	fl := &fakeLogin{srv: srv, stored: map[string]string{}}
	h := newHarness(t, Options{Client: tuitest.Client(t, srv, api.Config{}), Profile: "prod", NeedKey: true, Login: fl.login, Now: func() time.Time { return t0 }}, 100, 30)
	h.Key("esc") // look around without a key
	h.Key("n")
	for _, k := range []string{"2", "3", "4", "5", "1"} {
		h.Key(k)
	}
	if n := srv.Stats().Total; n != 0 {
		t.Fatalf("%d requests were sent without a key: %v", n, srv.Stats().Requests)
	}
	if !strings.Contains(h.Screen(), "no API key") {
		t.Fatalf("the screen should say there is no key:\n%s", h.Screen())
	}
}

// TestRefusedEnvironmentKeySaysWhereItCameFrom: when the key the API
// refused came from SKYSQL_API_KEY, the prompt says so, and that the
// environment takes precedence over the keystore on every start; the
// toast of an accepted key repeats it. A key from the keystore gets no
// such note.
func TestRefusedEnvironmentKeySaysWhereItCameFrom(t *testing.T) {
	both(t, "keystore", "environment", func(t *testing.T, fromEnv bool) {
		h, _ := refusedKeyHarness(t, fromEnv)
		h.sees(t, "The API refused the key of profile prod", "a 401 should open the key prompt")
		// the prompt's text, its box and wrapping left out
		text := strings.Join(strings.FieldsFunc(h.Screen(), func(r rune) bool {
			return r == ' ' || r == '\n' || strings.ContainsRune("│|", r)
		}), " ")
		for _, want := range []string{
			"The key in use came from SKYSQL_API_KEY in the environment",
			"takes precedence over the keystore on every start",
			"Unset it to use the stored key.",
		} {
			if strings.Contains(text, want) != fromEnv {
				t.Errorf("prompt says %q: %v, want %v\n%s", want, !fromEnv, fromEnv, h.Screen())
			}
		}
		unlockPrompt(t, h)
		h.TypeText(testKey)
		h.Key("enter")
		toast := lastToast(h)
		if !strings.Contains(toast, "accepted and stored") || strings.Contains(toast, "SKYSQL_API_KEY still takes precedence at the next start") != fromEnv {
			t.Errorf("toast %q", toast)
		}
	})
}

// TestKeyPromptFooterIsItsKeys: while the key prompt is open the footer
// says what its keys do there, not a generic dialog's: enter opens the
// input of the prompt a 401 opened (once armed), then checks the key.
func TestKeyPromptFooterIsItsKeys(t *testing.T) {
	h, _ := refusedKeyHarness(t, false)
	for i, enter := range []string{"enter type a new key", "enter check and store"} {
		if i == 0 {
			armPrompt(h)
		} else {
			unlockPrompt(t, h)
		}
		lines := strings.Split(h.Screen(), "\n")
		footer := lines[len(lines)-1]
		if !strings.Contains(footer, enter) || !strings.Contains(footer, "esc later (:login reopens)") || strings.Contains(footer, "choose") {
			t.Fatalf("the footer should be the prompt's keys (%s): %q", enter, footer)
		}
	}
}

// TestKeyPromptOnTheSmallestTerminal: at 60x16 a refused key's prompt
// keeps its input, the refusal with its trace ID and its bottom border;
// the text above the input is what gives way, with a line naming the key
// that scrolls it, and pgdn scrolls it.
func TestKeyPromptOnTheSmallestTerminal(t *testing.T) {
	both(t, "keystore", "environment", func(t *testing.T, fromEnv bool) {
		h, _ := refusedKeyHarness(t, fromEnv)
		h.Send(tea.WindowSizeMsg{Width: MinWidth, Height: MinHeight})
		unlockPrompt(t, h)
		h.TypeText("still-wrong")
		h.Key("enter")
		scr := h.Screen()
		lines := strings.Split(scr, "\n")
		input, trace := -1, -1
		for i, l := range lines {
			switch {
			case strings.Contains(l, "> ***********"):
				input = i
			case input >= 0 && strings.Contains(l, "trace "):
				trace = i
			}
		}
		if input < 0 || trace < input {
			t.Fatalf("the input and the refusal's trace ID should show, in that order:\n%s", scr)
		}
		if !strings.Contains(lines[trace+1], "+----") {
			t.Fatalf("the box should close under the refusal:\n%s", scr)
		}
		if !strings.Contains(lines[input-1], "pgdn: ") || !strings.Contains(lines[input-1], "more lines") {
			t.Fatalf("the line above the input should say what of the text is below and which key shows it:\n%s", scr)
		}
		before := lines[input-2]
		h.Key("pgdown")
		lines = strings.Split(h.Screen(), "\n")
		if lines[input-2] == before || !strings.Contains(lines[input-1], "pgup: ") {
			t.Fatalf("pgdn should scroll the text:\n%s", h.Screen())
		}
		if !strings.Contains(lines[input], "> ***********") {
			t.Fatalf("pgdn should leave what was typed:\n%s", h.Screen())
		}
	})
}
