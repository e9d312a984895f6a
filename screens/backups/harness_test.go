package backups_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/screens/backups"
	"github.com/skytui/skytui/tui"
	"github.com/skytui/skytui/tui/tuitest"
)

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

// harness drives the root model without a terminal (see
// tuitest.Harness); spinner frames are dropped too.
type harness struct {
	*tuitest.Harness
	m *tui.Model
}

// command runs a ":" command line.
func (h *harness) command(line string) {
	h.Key(":")
	h.TypeText(line)
	h.Key("enter")
}

// app is the demo sandbox (or an empty one) behind the whole application
// at a fixed time.
func app(t *testing.T, w, h int, demo bool, tweak func(*tui.Options)) (*harness, *sandbox.Server, *sandbox.ManualClock) {
	t.Helper()
	srv, clk, c := tuitest.Sandbox(t, demo)
	opts := tui.Options{Client: c, Profile: "demo", Demo: true, Now: clk.Now, SlowInterval: 30 * time.Second, Secrets: tuitest.Secrets(t, "team"),
		After: tuitest.After, Getenv: func(string) string { return "" }}
	if tweak != nil {
		tweak(&opts)
	}
	m := tui.New(opts)
	hs := &tuitest.Harness{T: t, Model: m, Render: m.Render, Ignore: []string{"bubbles/v2/cursor", "bubbles/v2/spinner"}}
	return &harness{Harness: hs.Start(w, h), m: m}, srv, clk
}

// sandboxAt is the demo sandbox at T0 with a client on the given backup
// prefix (api.DefaultBackupPrefix or api.LiveBackupPrefix).
func sandboxAt(t *testing.T, prefix string) (*sandbox.Server, *sandbox.ManualClock, *api.Client) {
	t.Helper()
	clk := sandbox.NewManualClock(tuitest.T0)
	srv := sandbox.New(sandbox.Options{DemoData: true, Seed: 7, APIKey: tuitest.TestKey, Clock: clk})
	t.Cleanup(func() { srv.Close() })
	c, err := api.New(api.Config{BaseURL: "http://127.0.0.1:8080", APIKey: tuitest.TestKey, HTTPClient: tuitest.HTTPClient(srv),
		MaxRetries: -1, BackupPrefix: prefix})
	if err != nil {
		t.Fatal(err)
	}
	return srv, clk, c
}

func waitFor(t *testing.T, h *harness, what string) {
	t.Helper()
	if !strings.Contains(h.Screen(), what) {
		t.Fatalf("the screen does not show %q:\n%s", what, h.Screen())
	}
}
