package backups_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui"
	"github.com/skytui/skytui/tui/tuitest"
)

func TestMain(m *testing.M) {
	time.Local = time.UTC // snapshots show times
	os.Exit(m.Run())
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
