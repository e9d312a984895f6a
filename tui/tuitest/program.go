package tuitest

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// Program runs a model in a real Bubble Tea program (teatest) and drives
// it the way a user does: keys pressed, text typed, and waits for what the
// screen shows (its latest frame, see FrameRecorder).
type Program struct {
	T   testing.TB
	Rec *FrameRecorder
	TM  *teatest.TestModel
}

// Run starts m in a w x h terminal.
func Run(t testing.TB, m tea.Model, w, h int) *Program {
	t.Helper()
	rec := NewFrameRecorder(m)
	return &Program{T: t, Rec: rec, TM: teatest.NewTestModel(t, rec, teatest.WithInitialTermSize(w, h))}
}

// Press presses keys in order (names as KeyMsg takes them).
func (p *Program) Press(keys ...string) {
	for _, k := range keys {
		p.TM.Send(KeyMsg(k))
	}
}

// Type types text, one key at a time.
func (p *Program) Type(s string) {
	for _, k := range Typed(s) {
		p.TM.Send(k)
	}
}

// Command runs a ":" command line as typed (no completion).
func (p *Program) Command(line string) {
	p.Press(":")
	p.Type(line)
	p.Press("enter")
}

// Frame is the latest frame, without escape sequences.
func (p *Program) Frame() string { return p.Rec.Frame() }

// Wait waits (up to 15 seconds) until the screen shows what.
func (p *Program) Wait(what string) {
	p.T.Helper()
	p.Rec.Wait(p.T, what)
}

// WaitRe waits (up to 15 seconds) until a line of the screen matches re.
func (p *Program) WaitRe(re *regexp.Regexp) {
	p.T.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		for _, l := range strings.Split(p.Frame(), "\n") {
			if re.MatchString(l) {
				return
			}
		}
		if time.Now().After(deadline) {
			p.T.Fatalf("no line of the screen ever matched %v; last frame:\n%s", re, p.Frame())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Quit presses ctrl+c (which quits from anywhere, a dialog or a field
// included) and waits for the program to end.
func (p *Program) Quit() {
	p.T.Helper()
	p.QuitWith("ctrl+c")
}

// QuitWith presses key k, which must end the program, and waits (up to
// 10 seconds) for the end.
func (p *Program) QuitWith(k string) {
	p.T.Helper()
	p.Press(k)
	p.TM.WaitFinished(p.T, teatest.WithFinalTimeout(10*time.Second))
}
