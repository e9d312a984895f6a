package tui

import (
	"context"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

type answerMsg struct{ of string }

// TestAnswersGoToTheScreenThatAsked: a screen's command answers after the
// user moved to another screen; the answer reaches the screen that asked,
// and no other screen sees it.
func TestAnswersGoToTheScreenThatAsked(t *testing.T) {
	release := make(chan struct{})
	a := &fakeScreen{id: "a", onKey: func() tea.Msg { <-release; return answerMsg{"a"} }}
	b := &fakeScreen{id: "b"}
	h := fakeApp(t, time.Minute, a, b)
	h.Deliver(tuitest.KeyMsg("x")) // a asks; its command waits
	h.Key("2")                     // the user moves to b
	close(release)
	h.Settle()
	if got := answers(a); len(got) != 1 || got[0] != (answerMsg{"a"}) {
		t.Fatalf("screen a got %#v, want its answer once", got)
	}
	if got := answers(b); len(got) != 0 {
		t.Fatalf("screen b got a's answer: %#v", got)
	}
}

func answers(s *fakeScreen) (out []answerMsg) {
	for _, m := range s.got {
		if a, ok := m.(answerMsg); ok {
			out = append(out, a)
		}
	}
	return out
}

// TestActionOriginIsTheScreenThatAsked: an action handed over by a screen
// that is no longer visible reports back to that screen.
func TestActionOriginIsTheScreenThatAsked(t *testing.T) {
	release := make(chan struct{})
	a := &fakeScreen{id: "a", onKey: func() tea.Msg {
		<-release
		return kit.ActionRequestMsg{Action: kit.Action{Name: "check a thing", Run: func(context.Context) (any, error) { return nil, nil }}}
	}}
	b := &fakeScreen{id: "b"}
	h := fakeApp(t, time.Minute, a, b)
	h.Deliver(tuitest.KeyMsg("x"))
	h.Key("2")
	close(release)
	h.Settle()
	if len(a.done) != 1 || len(b.done) != 0 {
		t.Fatalf("done: a %d, b %d; want the action's end at a, which asked", len(a.done), len(b.done))
	}
}
