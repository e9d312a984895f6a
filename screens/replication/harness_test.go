package replication_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/screens/replication"
	"github.com/skytui/skytui/tui"
)

// The real application (tui.Model with every screen) driven without a
// terminal: commands run in goroutines and their messages are fed back;
// timers are recorded and fired by the test, so nothing depends on time.

var t0 = time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)

const testKey = "test-key-replication"

var bg = context.Background()

type timerMsg struct {
	d   time.Duration
	msg tea.Msg
}

func testAfter(d time.Duration, msg tea.Msg) tea.Cmd {
	return func() tea.Msg { return timerMsg{d: d, msg: msg} }
}

type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	return rec.Result(), nil
}

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
	clk := sandbox.NewManualClock(t0)
	srv := sandbox.New(sandbox.Options{APIKey: testKey, Clock: clk, DemoData: true, SQL: sandbox.SQLDemo, Seed: 7})
	t.Cleanup(func() { srv.Close() })
	// in-process HTTP: the header shows a fixed host; the services' SQL
	// endpoints are real loopback listeners all the same
	c, err := api.New(api.Config{BaseURL: "http://127.0.0.1:8080", APIKey: testKey, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: handlerTransport{srv}}})
	if err != nil {
		t.Fatal(err)
	}
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
	return filepath.Join(d.state, "skytui", replication.StateFileName)
}

type harness struct {
	t       *testing.T
	d       *demo
	m       *tui.Model
	ch      chan tea.Msg
	pending int
	timers  []timerMsg
	raw     []string
}

func (d *demo) app(w, h int, tweak func(*tui.Options)) *harness {
	d.t.Helper()
	opts := tui.Options{Client: d.c, Profile: "demo", Demo: true, Now: d.clk.Now, SlowInterval: 30 * time.Second,
		After: testAfter, Getenv: func(string) string { return "" }}
	if tweak != nil {
		tweak(&opts)
	}
	h2 := &harness{t: d.t, d: d, m: tui.New(opts), ch: make(chan tea.Msg, 64)}
	h2.spawn(h2.m.Init())
	h2.deliver(tea.WindowSizeMsg{Width: w, Height: h})
	h2.settle()
	return h2
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
		h.raw = append(h.raw, fmt.Sprint(msg.Msg))
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
	if strings.Contains(reflect.TypeOf(msg).PkgPath(), "bubbles/v2/cursor") {
		return
	}
	h.deliver(msg)
}

// settle runs until no command is left or none answered for a second
// (what is left then sleeps: a cursor blink).
func (h *harness) settle() {
	h.t.Helper()
	for h.pending > 0 {
		select {
		case msg := <-h.ch:
			h.pending--
			h.handle(msg)
		case <-time.After(time.Second):
			return
		}
	}
}

func (h *harness) send(msg tea.Msg) {
	h.deliver(msg)
	h.settle()
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	}
	r := []rune(k)
	if len(r) != 1 {
		panic("unknown key " + k)
	}
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

func (h *harness) key(ks ...string) {
	for _, k := range ks {
		h.send(keyMsg(k))
	}
}

func (h *harness) typeText(s string) {
	for _, r := range s {
		h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// fire delivers the recorded timers whose message matches.
func (h *harness) fire(match func(tea.Msg) bool) int {
	var keep, fire []timerMsg
	for _, tm := range h.timers {
		if match(tm.msg) {
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

// poll fires the armed poll ticks: the root's engine fetches again.
func (h *harness) poll() int {
	return h.fire(func(m tea.Msg) bool { return fmt.Sprintf("%T", m) == "tui.pollTickMsg" })
}

// screen is the frame without escape sequences, the services' SQL ports
// (random loopback ports) replaced by fixed ones of the same width.
func (h *harness) screen() string {
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
	h.t.Helper()
	if !strings.Contains(h.screen(), what) {
		h.t.Fatalf("the screen does not show %q:\n%s", what, h.screen())
	}
}

// lastToast is the message line.
func (h *harness) lastToast() string {
	lines := strings.Split(h.screen(), "\n")
	if len(lines) < 2 {
		return ""
	}
	return lines[len(lines)-2]
}

// activeScreen is the visible screen.
func (h *harness) active() *replication.Screen {
	s, _ := h.m.Active().(*replication.Screen)
	return s
}
