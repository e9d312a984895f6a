package tuitest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/skytui/skytui/kit"
)

// Harness drives a model without a terminal: it runs commands in
// goroutines, feeds their messages back, records armed timers (fired only
// by the test), and waits until nothing is left running.
type Harness struct {
	T      testing.TB
	Model  tea.Model
	Render func() string // the frame; Screen strips its escape sequences
	// Quiet is how long Settle waits for an answer before it stops
	// (default 200ms).
	Quiet time.Duration
	// Ignore lists package paths (substrings) whose messages are dropped
	// (default: bubbles' cursor, whose blinks would keep it busy forever).
	Ignore []string
	Timers []Timer
	Raw    []string // tea.Raw sequences (clipboard, bell)

	ch      chan tea.Msg
	pending int
}

// New starts a harness on m at w x h: Init, a window size, and Settle.
func New(t testing.TB, m tea.Model, render func() string, w, h int) *Harness {
	t.Helper()
	return (&Harness{T: t, Model: m, Render: render}).Start(w, h)
}

// Start runs Init, delivers the window size and settles: for a Harness
// built by hand (Quiet or Ignore set).
func (h *Harness) Start(w, ht int) *Harness {
	h.T.Helper()
	if h.Quiet == 0 {
		h.Quiet = 200 * time.Millisecond
	}
	if h.Ignore == nil {
		h.Ignore = []string{"bubbles/v2/cursor"}
	}
	h.ch = make(chan tea.Msg, 64)
	h.Spawn(h.Model.Init())
	h.Deliver(tea.WindowSizeMsg{Width: w, Height: ht})
	h.Settle()
	return h
}

// Spawn runs a command in a goroutine.
func (h *Harness) Spawn(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	h.pending++
	go func() { h.ch <- cmd() }()
}

// Deliver updates the model with msg and spawns its command, without
// settling.
func (h *Harness) Deliver(msg tea.Msg) {
	_, cmd := h.Model.Update(msg)
	h.Spawn(cmd)
}

var cmdSliceType = reflect.TypeOf([]tea.Cmd(nil))

// Sequence is the commands of tea.Sequence's message (its type is not
// exported), in order; ok is false for any other message.
func Sequence(msg tea.Msg) (cmds []tea.Cmd, ok bool) {
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Slice || !v.Type().ConvertibleTo(cmdSliceType) {
		return nil, false
	}
	return v.Convert(cmdSliceType).Interface().([]tea.Cmd), true
}

// RunCmds runs cmd and hands what it answers to update, depth rounds deep:
// the commands of a model driven without a program or a harness. The
// commands of a batch or a sequence run in order, at the same depth.
func RunCmds(update func(tea.Msg) tea.Cmd, cmd tea.Cmd, depth int) {
	if cmd == nil || depth == 0 {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			RunCmds(update, c, depth)
		}
	case nil:
	default:
		if cmds, ok := Sequence(msg); ok {
			for _, c := range cmds {
				RunCmds(update, c, depth)
			}
			return
		}
		RunCmds(update, update(msg), depth-1)
	}
}

// Drain runs cmd and the commands of its batches and sequences, and
// returns their messages in order (nil ones left out): what a command
// would deliver, without a model to take it.
func Drain(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	var out []tea.Msg
	var cmds []tea.Cmd
	switch m := msg.(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		cmds = m
	default:
		seq, ok := Sequence(msg)
		if !ok {
			return []tea.Msg{msg}
		}
		cmds = seq
	}
	for _, c := range cmds {
		out = append(out, Drain(c)...)
	}
	return out
}

// Typed is the key presses that type s, one a character.
func Typed(s string) []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for _, r := range s {
		out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	return out
}

// Handle takes the answer of a command: batches are spawned, sequences
// run in order, timers and raw sequences recorded, the rest delivered.
func (h *Harness) Handle(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil:
		return
	case tea.BatchMsg:
		for _, c := range msg {
			h.Spawn(c)
		}
		return
	case Timer:
		h.Timers = append(h.Timers, msg)
		return
	case tea.RawMsg:
		h.Raw = append(h.Raw, fmt.Sprint(msg.Msg))
		return
	}
	if cmds, ok := Sequence(msg); ok {
		// run in order
		for _, c := range cmds {
			if c != nil {
				h.Handle(c())
			}
		}
		return
	}
	inner := msg
	if a, ok := msg.(kit.Addressed); ok {
		inner = a.Msg // a component's answer: ignored by what it is
	}
	pkg := reflect.TypeOf(inner).PkgPath()
	for _, p := range h.Ignore {
		if strings.Contains(pkg, p) {
			return
		}
	}
	h.Deliver(msg)
}

// Settle runs until no command is left, or none has answered for Quiet:
// what is left then sleeps (a cursor blink) and is handled (or dropped)
// at the next Settle. The API is in-process, so its answers come at once.
func (h *Harness) Settle() {
	h.T.Helper()
	for h.pending > 0 {
		select {
		case msg := <-h.ch:
			h.pending--
			h.Handle(msg)
		case <-time.After(h.Quiet):
			return
		}
	}
}

// Until settles again and again until cond holds, for up to 10 s: an
// answer slower than Quiet (a loaded machine, the race detector) is
// waited for. It fails the test, saying what, if cond never holds.
func (h *Harness) Until(what string, cond func() bool) {
	h.T.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			h.T.Fatalf("%s: not within 10s:\n%s", what, h.Screen())
		}
		if h.pending == 0 {
			time.Sleep(10 * time.Millisecond)
		}
		h.Settle()
	}
}

// Send delivers a message and settles.
func (h *Harness) Send(msg tea.Msg) {
	h.Deliver(msg)
	h.Settle()
}

// Key presses a key (see KeyMsg).
func (h *Harness) Key(k string) { h.Send(KeyMsg(k)) }

// Keys presses keys in order.
func (h *Harness) Keys(ks ...string) {
	for _, k := range ks {
		h.Key(k)
	}
}

// TypeText types text, one key at a time.
func (h *Harness) TypeText(s string) {
	for _, k := range Typed(s) {
		h.Send(k)
	}
}

// Paste pastes text (one message: typing char by char waits for every
// cursor blink).
func (h *Harness) Paste(s string) { h.Send(tea.PasteMsg{Content: s}) }

// Screen is the rendered frame, without escape sequences.
func (h *Harness) Screen() string { return ansi.Strip(h.Render()) }

// Sees fails the test unless the screen shows what.
func (h *Harness) Sees(what string) {
	h.T.Helper()
	if !strings.Contains(h.Screen(), what) {
		h.T.Fatalf("the screen does not show %q:\n%s", what, h.Screen())
	}
}

// Fire delivers the recorded timers whose message matches, and settles.
func (h *Harness) Fire(match func(tea.Msg) bool) int {
	var keep, fire []Timer
	for _, tm := range h.Timers {
		if match(tm.Msg) {
			fire = append(fire, tm)
		} else {
			keep = append(keep, tm)
		}
	}
	h.Timers = keep
	for _, tm := range fire {
		h.Deliver(tm.Msg)
	}
	h.Settle()
	return len(fire)
}

// FirePolls fires the armed poll ticks of the root model.
func (h *Harness) FirePolls() int { return h.Fire(IsPollTick) }

// FireWatches fires the armed watch ticks of the root model.
func (h *Harness) FireWatches() int { return h.Fire(IsWatchTick) }

// PollIntervals lists the intervals of the armed poll ticks.
func (h *Harness) PollIntervals() []time.Duration {
	var out []time.Duration
	for _, tm := range h.Timers {
		if IsPollTick(tm.Msg) {
			out = append(out, tm.D)
		}
	}
	return out
}

// CheckFrame asserts the frame fills a w x h terminal exactly.
func CheckFrame(t testing.TB, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) != h {
		t.Errorf("frame has %d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if n := len([]rune(l)); n > w {
			t.Errorf("line %d is %d cells wide, more than %d: %q", i+1, n, w, l)
		}
	}
}
