// Package tuitest drives Bubble Tea models in tests without a terminal and
// against an in-process sandbox on a manual clock, so nothing depends on
// time. It never imports package tui, so tui's own tests use it too.
package tuitest

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/internal/testenv"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/sandbox"
)

// T0 is the fixed start of every deterministic test (the demo sandbox's
// "now"): testenv.T0.
var T0 = testenv.T0

// TestKey is the API key of the test sandboxes.
const TestKey = "test-key-123"

// transport serves requests in-process, so the base URL (and the header
// showing its host) is fixed. Like a real transport it tells the client's
// trace that the request was written, and a handler that aborts (a server
// dropping the connection, http.ErrAbortHandler) is a lost answer.
type transport struct{ h http.Handler }

func (t transport) RoundTrip(r *http.Request) (res *http.Response, err error) {
	if tr := httptrace.ContextClientTrace(r.Context()); tr != nil && tr.WroteRequest != nil {
		tr.WroteRequest(httptrace.WroteRequestInfo{})
	}
	defer func() {
		if v := recover(); v != nil {
			if v != http.ErrAbortHandler {
				panic(v)
			}
			res, err = nil, io.ErrUnexpectedEOF // the connection closed without an answer
		}
	}()
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	return rec.Result(), nil
}

// HTTPClient is an http.Client whose requests h serves in-process.
func HTTPClient(h http.Handler) *http.Client { return &http.Client{Transport: transport{h}} }

// Sandbox starts an in-process sandbox (demo data or empty) on a manual
// clock at T0, with a client for it.
func Sandbox(t testing.TB, demo bool) (*sandbox.Server, *sandbox.ManualClock, *api.Client) {
	t.Helper()
	return SandboxWith(t, sandbox.Options{DemoData: demo, Seed: 7})
}

// SandboxWith is Sandbox with the given options: the clock is always a
// new manual clock at T0, and an empty APIKey is TestKey.
func SandboxWith(t testing.TB, o sandbox.Options) (*sandbox.Server, *sandbox.ManualClock, *api.Client) {
	t.Helper()
	if o.APIKey == "" {
		o.APIKey = TestKey
	}
	clk := sandbox.NewManualClock(T0)
	o.Clock = clk
	srv := sandbox.New(o)
	t.Cleanup(func() { srv.Close() })
	return srv, clk, Client(t, srv, api.Config{APIKey: o.APIKey})
}

// Config is cfg for a client of the in-process server h: the base URL
// fixed, no retries.
func Config(h http.Handler, cfg api.Config) api.Config {
	cfg.BaseURL, cfg.HTTPClient, cfg.MaxRetries = "http://127.0.0.1:8080", HTTPClient(h), -1
	return cfg
}

// Client is a client of the in-process server h configured by
// Config(h, cfg).
func Client(t testing.TB, h http.Handler, cfg api.Config) *api.Client {
	t.Helper()
	c, err := api.New(Config(h, cfg))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// EmptySecrets is an empty in-memory keystore.
func EmptySecrets(t testing.TB) *keystore.Store {
	t.Helper()
	st, err := keystore.Open(keystore.Options{
		Backends: []keystore.Backend{keystore.NewMemoryBackend("memory (test)")},
		Getenv:   func(string) string { return "" },
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// Secrets is an in-memory keystore with one made-up bucket credential of
// each kind: prefix-gcs and prefix-s3.
func Secrets(t testing.TB, prefix string) *keystore.Store {
	t.Helper()
	st := EmptySecrets(t)
	const pk = `-----BEGIN PRIVATE KEY-----\nZGVtbyBrZXk=\n-----END PRIVATE KEY-----\n`
	for _, c := range []keystore.BucketCredential{
		keystore.GCSCredential{Name: prefix + "-gcs", KeyJSON: []byte(`{"type":"service_account","client_email":"b@x.iam.gserviceaccount.com","private_key":"` + pk + `"}`)},
		keystore.S3Credential{Name: prefix + "-s3", AccessKeyID: "AKIATEST0000000000", SecretAccessKey: "s3cr3t-never-shown", Region: "us-east-1"},
	} {
		if err := st.PutBucketCredential(c); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// Timer is what After returns instead of sleeping: the harness records
// it, and the test decides whether to fire it.
type Timer struct {
	D   time.Duration
	Msg tea.Msg
}

// After is a scheduler for tests: its command answers a Timer at once.
func After(d time.Duration, msg tea.Msg) tea.Cmd {
	return func() tea.Msg { return Timer{D: d, Msg: msg} }
}

// IsPollTick tells the root model's poll ticks.
func IsPollTick(msg tea.Msg) bool { return fmt.Sprintf("%T", msg) == "tui.pollTickMsg" }

// IsWatchTick tells the root model's watch ticks (a long operation
// followed to its end).
func IsWatchTick(msg tea.Msg) bool { return fmt.Sprintf("%T", msg) == "tui.watchTickMsg" }

// KeyMsg is the press of a key: "enter", "esc", "a", "ctrl+c",
// "shift+tab"... (kit.KeyPress); it panics on a name it does not know.
func KeyMsg(k string) tea.KeyPressMsg {
	msg, ok := kit.KeyPress(k)
	if !ok {
		panic("unknown key " + k)
	}
	return msg
}
