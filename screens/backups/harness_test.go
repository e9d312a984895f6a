package backups_test

import (
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui"
	"github.com/skytui/skytui/tui/tuitest"
)

func TestMain(m *testing.M) { tuitest.Main(m) }

// options are the whole application's on c at the sandbox's clock:
// profile "demo" (a demo), polls every 30 s, the team's bucket
// credentials, no environment.
func options(t *testing.T, c *api.Client, clk *sandbox.ManualClock) tui.Options {
	return tui.Options{Client: c, Profile: "demo", Demo: true, Now: clk.Now, SlowInterval: 30 * time.Second, Secrets: tuitest.Secrets(t, "team"),
		Getenv: func(string) string { return "" }}
}

// harness drives the root model without a terminal (see
// tuitest.Harness); spinner frames are dropped too.
type harness struct {
	*tuitest.Harness
	m   *tui.Model
	srv *sandbox.Server
}

// command runs a ":" command line.
func (h *harness) command(line string) {
	h.Key(":")
	h.TypeText(line)
	h.Key("enter")
}

// backupsOf opens the Backups screen narrowed to the service name
// (:backups NAME) and waits for its title.
func (h *harness) backupsOf(name string) {
	h.T.Helper()
	h.command("backups " + name)
	h.Sees("Backups of " + name)
}

// app is the demo sandbox (or an empty one) behind the whole application
// at a fixed time.
func app(t *testing.T, w, h int, demo bool, tweak func(*tui.Options)) (*harness, *sandbox.Server, *sandbox.ManualClock) {
	t.Helper()
	srv, clk, c := tuitest.Sandbox(t, demo)
	opts := options(t, c, clk)
	opts.After = tuitest.After
	if tweak != nil {
		tweak(&opts)
	}
	m := tui.New(opts)
	hs := &tuitest.Harness{T: t, Model: m, Render: m.Render, Ignore: []string{"bubbles/v2/cursor", "bubbles/v2/spinner"}}
	return &harness{Harness: hs.Start(w, h), m: m, srv: srv}, srv, clk
}

// program runs the whole application in a real program (teatest) on c at
// w x h, on real timers.
func program(t *testing.T, c *api.Client, clk *sandbox.ManualClock, w, h int, tweak func(*tui.Options)) *tuitest.Program {
	t.Helper()
	opts := options(t, c, clk)
	if tweak != nil {
		tweak(&opts)
	}
	return tuitest.Run(t, tui.New(opts), w, h)
}

// sandboxAt is the demo sandbox at T0 with a client on the given backup
// prefix (api.DefaultBackupPrefix or api.LiveBackupPrefix).
func sandboxAt(t *testing.T, prefix string) (*sandbox.Server, *sandbox.ManualClock, *api.Client) {
	t.Helper()
	srv, clk, _ := tuitest.Sandbox(t, true)
	return srv, clk, tuitest.Client(t, srv, api.Config{APIKey: tuitest.TestKey, BackupPrefix: prefix})
}
