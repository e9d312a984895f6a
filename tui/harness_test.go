package tui

import (
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
)

// t0 is the fixed start of every deterministic test.
var t0 = time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)

const testKey = "test-key-123"

// handlerTransport serves requests in-process, so the base URL (and the
// header showing its host) is fixed.
type handlerTransport struct{ h http.Handler }

func (t handlerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := httptest.NewRecorder()
	t.h.ServeHTTP(rec, r)
	return rec.Result(), nil
}

// newSandbox starts an in-process sandbox on a manual clock.
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

// timerMsg is what the test scheduler returns instead of sleeping: the
// harness records it, and the test decides whether to fire it.
type timerMsg struct {
	d   time.Duration
	msg tea.Msg
}

func testAfter(d time.Duration, msg tea.Msg) tea.Cmd {
	return func() tea.Msg { return timerMsg{d: d, msg: msg} }
}

// harness drives a Model without a terminal: it runs commands in
// goroutines, feeds their messages back, records armed timers, and waits
// until nothing is left running.
type harness struct {
	t       testing.TB
	m       *Model
	ch      chan tea.Msg
	pending int
	timers  []timerMsg
	raw     []string // tea.Raw sequences (clipboard)
}

func newHarness(t testing.TB, opts Options, w, h int) *harness {
	t.Helper()
	if opts.After == nil {
		opts.After = testAfter
	}
	if opts.Getenv == nil {
		opts.Getenv = func(string) string { return "" }
	}
	hs := &harness{t: t, m: New(opts), ch: make(chan tea.Msg, 64)}
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
		// tea.Sequence: run in order
		for _, c := range v.Convert(cmdSliceType).Interface().([]tea.Cmd) {
			if c != nil {
				h.handle(c())
			}
		}
		return
	}
	if strings.Contains(reflect.TypeOf(msg).PkgPath(), "bubbles/v2/cursor") {
		return // cursor blinks would keep the harness busy forever
	}
	h.deliver(msg)
}

// settle runs until no command is left, or none has answered for a
// while: what is left then sleeps (a cursor blink) and is handled (or
// dropped) at the next settle. The API is in-process, so its answers come
// at once.
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

// send delivers a message and settles.
func (h *harness) send(msg tea.Msg) {
	h.deliver(msg)
	h.settle()
}

// key presses a key: "enter", "esc", "a", "ctrl+c", "shift+tab"...
func (h *harness) key(k string) { h.send(keyMsg(k)) }

// typeText types text.
func (h *harness) typeText(s string) {
	for _, r := range s {
		h.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
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
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(k)
	if len(r) != 1 {
		panic("unknown key " + k)
	}
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

// screen is the rendered frame, without escape sequences.
func (h *harness) screen() string { return ansi.Strip(h.m.Render()) }

// fire delivers the recorded timers whose message matches, and settles.
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

// firePolls fires the armed poll ticks.
func (h *harness) firePolls() int {
	return h.fire(func(m tea.Msg) bool { _, ok := m.(pollTickMsg); return ok })
}

// pollIntervals lists the intervals of armed poll ticks, by key.
func (h *harness) pollIntervals() map[string][]time.Duration {
	out := map[string][]time.Duration{}
	for _, tm := range h.timers {
		if p, ok := tm.msg.(pollTickMsg); ok {
			out[p.key] = append(out[p.key], tm.d)
		}
	}
	return out
}
