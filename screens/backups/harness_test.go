package backups_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/screens/backups"
	"github.com/skytui/skytui/tui"
)

// t0 is the fixed start of every deterministic test (the demo sandbox's
// "now").
var t0 = time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)

const testKey = "test-key-123"

func TestMain(m *testing.M) {
	time.Local = time.UTC // snapshots show times
	// never the user's state directory: each test that wants one sets it
	dir, err := os.MkdirTemp("", "skytui-backups-state-*")
	if err != nil {
		panic(err)
	}
	backups.StateFile = func() (string, error) { return filepath.Join(dir, "state.json"), nil }
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// useStateFile points the state file at a fresh temporary file.
func useStateFile(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state", "state.json")
	old := backups.StateFile
	backups.StateFile = func() (string, error) { return path, nil }
	t.Cleanup(func() { backups.StateFile = old })
	return path
}

// noState turns remembering off for a test.
func noState(t *testing.T) {
	t.Helper()
	old := backups.StateFile
	backups.StateFile = func() (string, error) { return "", nil }
	t.Cleanup(func() { backups.StateFile = old })
}

// handlerTransport serves requests in-process, so the base URL (and the
// header showing its host) is fixed.
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	return rec.Result(), nil
}

func newSandbox(t testing.TB, demo bool) (*sandbox.Server, *sandbox.ManualClock, *api.Client) {
	t.Helper()
	clk := sandbox.NewManualClock(t0)
	srv := sandbox.New(sandbox.Options{APIKey: testKey, Clock: clk, DemoData: demo, Seed: 7})
	t.Cleanup(func() { srv.Close() })
	c, err := api.New(api.Config{
		BaseURL:    "http://127.0.0.1:8080",
		APIKey:     testKey,
		HTTPClient: &http.Client{Transport: handlerTransport{srv}},
		MaxRetries: -1,
	})
	if err != nil {
		t.Fatal(err)
	}
	return srv, clk, c
}

// demoSecrets is an in-memory keystore with one credential of each kind.
func demoSecrets(t testing.TB) *keystore.Store {
	t.Helper()
	st, err := keystore.Open(keystore.Options{
		Backends: []keystore.Backend{keystore.NewMemoryBackend("memory (test)")},
		Getenv:   func(string) string { return "" },
	})
	if err != nil {
		t.Fatal(err)
	}
	const pk = `-----BEGIN PRIVATE KEY-----\nZGVtbyBrZXk=\n-----END PRIVATE KEY-----\n`
	for _, c := range []keystore.BucketCredential{
		keystore.GCSCredential{Name: "team-gcs", KeyJSON: []byte(`{"type":"service_account","client_email":"b@x.iam.gserviceaccount.com","private_key":"` + pk + `"}`)},
		keystore.S3Credential{Name: "team-s3", AccessKeyID: "AKIATEST0000000000", SecretAccessKey: "s3cr3t-never-shown", Region: "us-east-1"},
	} {
		if err := st.PutBucketCredential(c); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

type timerMsg struct {
	d   time.Duration
	msg tea.Msg
}

func testAfter(d time.Duration, msg tea.Msg) tea.Cmd {
	return func() tea.Msg { return timerMsg{d: d, msg: msg} }
}

// harness drives the root model without a terminal: commands run in
// goroutines, their messages are fed back, timers are recorded (fired
// only by the test), and settle waits until nothing is left running.
type harness struct {
	t       testing.TB
	m       *tui.Model
	ch      chan tea.Msg
	pending int
	timers  []timerMsg
	raw     []string
}

func newHarness(t testing.TB, opts tui.Options, w, h int) *harness {
	t.Helper()
	if opts.After == nil {
		opts.After = testAfter
	}
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	hs := &harness{t: t, m: tui.New(opts), ch: make(chan tea.Msg, 64)}
	hs.spawn(hs.m.Init())
	hs.deliver(tea.WindowSizeMsg{Width: w, Height: h})
	hs.settle()
	return hs
}

func (h *harness) spawn(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	h.pending++
	go func() { h.ch <- cmd() }()
}

func (h *harness) deliver(msg tea.Msg) {
	_, cmd := h.m.Update(msg)
	h.spawn(cmd)
}

var cmdSliceType = reflect.TypeOf([]tea.Cmd(nil))

func (h *harness) handle(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil:
		return
	case tea.BatchMsg:
		for _, c := range msg {
			h.spawn(c)
		}
		return
	case timerMsg:
		h.timers = append(h.timers, msg)
		return
	case tea.RawMsg:
		h.raw = append(h.raw, msg.Msg.(string))
		return
	}
	v := reflect.ValueOf(msg)
	if v.Kind() == reflect.Slice && v.Type().ConvertibleTo(cmdSliceType) {
		for _, c := range v.Convert(cmdSliceType).Interface().([]tea.Cmd) {
			if c != nil {
				h.handle(c())
			}
		}
		return
	}
	pkg := reflect.TypeOf(msg).PkgPath()
	if strings.Contains(pkg, "bubbles/v2/cursor") || strings.Contains(pkg, "bubbles/v2/spinner") {
		return // blinks and spinner frames would keep the harness busy forever
	}
	h.deliver(msg)
}

func (h *harness) settle() {
	h.t.Helper()
	for h.pending > 0 {
		select {
		case msg := <-h.ch:
			h.pending--
			h.handle(msg)
		case <-time.After(200 * time.Millisecond):
			return
		}
	}
}

func (h *harness) send(msg tea.Msg) {
	h.deliver(msg)
	h.settle()
}

func (h *harness) key(k string) { h.send(keyMsg(k)) }

func (h *harness) keys(ks ...string) {
	for _, k := range ks {
		h.key(k)
	}
}

func (h *harness) typeText(s string) {
	for _, r := range s {
		h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// paste pastes text (one message: typing char by char waits for every
// cursor blink).
func (h *harness) paste(s string) { h.send(tea.PasteMsg{Content: s}) }

// command runs a ":" command line.
func (h *harness) command(line string) {
	h.key(":")
	h.typeText(line)
	h.key("enter")
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "ctrl+u":
		return tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl}
	}
	r := []rune(k)
	if len(r) != 1 {
		panic("unknown key " + k)
	}
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

func (h *harness) screen() string { return ansi.Strip(h.m.Render()) }

// firePolls delivers the armed poll ticks and settles.
func (h *harness) firePolls() int {
	var keep, fire []timerMsg
	for _, tm := range h.timers {
		if strings.Contains(reflect.TypeOf(tm.msg).Name(), "pollTick") {
			fire = append(fire, tm)
		} else {
			keep = append(keep, tm)
		}
	}
	h.timers = keep
	for _, tm := range fire {
		h.deliver(tm.msg)
	}
	h.settle()
	return len(fire)
}

// pollIntervals lists the intervals of the armed poll ticks.
func (h *harness) pollIntervals() []time.Duration {
	var out []time.Duration
	for _, tm := range h.timers {
		if strings.Contains(reflect.TypeOf(tm.msg).Name(), "pollTick") {
			out = append(out, tm.d)
		}
	}
	return out
}

// app is the demo sandbox (or an empty one) behind the whole application
// at a fixed time.
func app(t *testing.T, w, h int, demo bool, tweak func(*tui.Options)) (*harness, *sandbox.Server, *sandbox.ManualClock) {
	t.Helper()
	srv, clk, c := newSandbox(t, demo)
	opts := tui.Options{Client: c, Profile: "demo", Demo: true, Now: clk.Now, SlowInterval: 30 * time.Second, Secrets: demoSecrets(t)}
	if tweak != nil {
		tweak(&opts)
	}
	return newHarness(t, opts, w, h), srv, clk
}

func waitFor(t *testing.T, h *harness, what string) {
	t.Helper()
	if !strings.Contains(h.screen(), what) {
		t.Fatalf("the screen does not show %q:\n%s", what, h.screen())
	}
}
