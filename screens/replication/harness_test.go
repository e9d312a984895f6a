package replication_test

import (
	"context"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/screens/replication"
	"github.com/skytui/skytui/tui"
	"github.com/skytui/skytui/tui/tuitest"
)

// The real application (tui.Model with every screen) driven without a
// terminal: commands run in goroutines and their messages are fed back;
// timers are recorded and fired by the test, so nothing depends on time.

const testKey = "test-key-replication"

var bg = context.Background()

// demo is the demo sandbox with its SQL endpoints, on a manual clock.
type demo struct {
	t     *testing.T
	srv   *sandbox.Server
	clk   *sandbox.ManualClock
	c     *api.Client
	state string // the user state directory of this test
}

func newDemo(t *testing.T) *demo {
	t.Helper()
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	// in-process HTTP: the header shows a fixed host; the services' SQL
	// endpoints are real loopback listeners all the same
	srv, clk, c := tuitest.SandboxWith(t, sandbox.Options{APIKey: testKey, DemoData: true, SQL: sandbox.SQLDemo, Seed: 7})
	return &demo{t: t, srv: srv, clk: clk, c: c, state: state}
}

func (d *demo) byName(name string) api.Service {
	d.t.Helper()
	svcs, err := d.c.ListServices(bg)
	if err != nil {
		d.t.Fatal(err)
	}
	for _, s := range svcs {
		if s.Name == name {
			return s
		}
	}
	d.t.Fatalf("no service %s", name)
	return api.Service{}
}

func (d *demo) stateFile() string {
	return filepath.Join(d.state, "skytui", replsetup.StateFileName)
}

// harness drives the whole application (see tuitest.Harness); it
// settles after a second without an answer.
type harness struct {
	*tuitest.Harness
	d *demo
	m *tui.Model
}

func (d *demo) app(w, h int, tweak func(*tui.Options)) *harness {
	d.t.Helper()
	opts := tui.Options{Client: d.c, Profile: "demo", Demo: true, Now: d.clk.Now, SlowInterval: 30 * time.Second,
		After: tuitest.After, Getenv: func(string) string { return "" }}
	if tweak != nil {
		tweak(&opts)
	}
	h2 := &harness{d: d, m: tui.New(opts)}
	h2.Harness = (&tuitest.Harness{T: d.t, Model: h2.m, Render: h2.render, Quiet: time.Second}).Start(w, h)
	return h2
}

// render is the frame without escape sequences, the services' SQL ports
// (random loopback ports) replaced by fixed ones of the same width (the
// harness's Screen strips nothing more).
func (h *harness) render() string {
	out := ansi.Strip(h.m.Render())
	svcs, err := h.d.c.ListServices(bg)
	if err != nil {
		return out
	}
	for i, s := range svcs {
		p := s.ReadWritePort()
		if p <= 0 {
			continue
		}
		ps := strconv.Itoa(p)
		fixed := strconv.Itoa(40001 + i)
		if len(fixed) != len(ps) {
			fixed = strings.Repeat("9", len(ps))
		}
		re := regexp.MustCompile(`(^|[^0-9A-Za-z-])` + ps + `([^0-9A-Za-z-]|$)`)
		out = re.ReplaceAllString(out, "${1}"+fixed+"${2}")
	}
	return out
}

func (h *harness) waitFor(what string) {
	h.T.Helper()
	if !strings.Contains(h.Screen(), what) {
		h.T.Fatalf("the screen does not show %q:\n%s", what, h.Screen())
	}
}

// lastToast is the message line's text, whole.
func (h *harness) lastToast() string { return h.m.Message() }

// activeScreen is the visible screen.
func (h *harness) active() *replication.Screen {
	s, _ := h.m.Active().(*replication.Screen)
	return s
}
