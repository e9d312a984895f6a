package services

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/tui/tuitest"
)

// demoForm is the Services screen against the demo sandbox, at 80x20,
// the create form not opened yet.
func demoForm(t *testing.T) (*tuitest.Harness, *Screen) {
	t.Helper()
	return demoScreen(t, 80, 20, nil)
}

// openCreate presses n and waits until the form's first step lists the
// providers and their regions, one region chosen.
func openCreate(hs *tuitest.Harness, s *Screen) {
	hs.T.Helper()
	hs.Key("n")
	hs.Until("the providers and regions", func() bool {
		return strings.Contains(hs.Screen(), "(us-east-1)") && s.form.values.region.Get() != ""
	})
}

// demoScreen is the Services screen against the demo sandbox in a w x h
// harness, in the model wrap makes of it (nil: screenApp). It is quiet
// 50 ms after a key (a cursor's blink is not waited for): what a test
// waits for, it waits for with Until.
func demoScreen(t *testing.T, w, h int, wrap func(*Screen) tea.Model) (*tuitest.Harness, *Screen) {
	t.Helper()
	_, _, client := tuitest.Sandbox(t, true)
	c := tuitest.Common()
	c.Client = client
	s := New(c)
	s.SetSize(w, h)
	var m tea.Model = screenApp{s}
	if wrap != nil {
		m = wrap(s)
	}
	return (&tuitest.Harness{T: t, Model: m, Render: s.View, Quiet: 50 * time.Millisecond}).Start(w, h), s
}

// TestCreateReopensWhereItWasLeft: esc on the first step, then n, opens
// the form again on that step, its provider and region kept, and enter
// goes on from there. Before, n opened step 4 (the field the incomplete
// draft's check named first, storage) with no choices in its lists and
// no key that did anything, at every n after.
func TestCreateReopensWhereItWasLeft(t *testing.T) {
	hs, s := demoForm(t)
	openCreate(hs, s)
	hs.Key("esc")
	if s.mode != modeList {
		t.Fatalf("esc did not leave the form:\n%s", hs.Screen())
	}
	hs.Key("n")
	hs.Until("the form again", func() bool { return strings.Contains(hs.Screen(), "(us-east-1)") })
	if v := hs.Screen(); !strings.Contains(v, "1/5: where") || s.form.focused() != "provider" {
		t.Fatalf("n after esc on the first step: focus on %q, want the provider on step 1:\n%s", s.form.focused(), v)
	}
	hs.Keys("enter", "enter")
	hs.Until("step 2", func() bool { return strings.Contains(hs.Screen(), "2/5: what") && s.form.focused() == "service type" })
}

// TestCreateListWithoutItsChoiceLetsGo: a refusal that names a field on
// a later step than one the draft leaves empty opens the form on the
// empty one (storage named, no service type chosen: the service type).
// A form moved past it all the same (a jump) says on each list whose
// choices hang on it what to choose first, refuses going on, and
// shift+tab goes back at once, step by step. A list with no option took
// no key: the form could only be left with esc, and n opened it there
// again.
func TestCreateListWithoutItsChoiceLetsGo(t *testing.T) {
	hs, s := demoForm(t)
	s.draft = &draft{Nodes: "1", SSL: true, Provider: "aws", Region: "us-east-1"}
	s.submitErr = "storage: must be a positive size in GB"
	hs.Key("n")
	hs.Until("the service types", func() bool { return strings.Contains(hs.Screen(), "(transactional)") })
	if f := s.form.focused(); f != "service type" {
		t.Fatalf("the form opened on %q, past the service type not chosen:\n%s", f, hs.Screen())
	}
	hs.Key("esc")
	s.draft = &draft{Nodes: "1", SSL: true, Provider: "aws", Region: "us-east-1"}
	open := s.openCreate() // on the service type, not shown yet
	hs.Spawn(tea.Batch(open, s.form.focus("storage")))
	hs.Until("the storage", func() bool {
		return s.form.focused() == "storage" && strings.Contains(hs.Screen(), "choose a topology first")
	})
	hs.Key("enter")
	if s.form.focused() != "storage" {
		t.Fatalf("enter went on from a list with nothing to choose:\n%s", hs.Screen())
	}
	start := time.Now()
	for i := 0; !strings.Contains(hs.Screen(), "2/5: what"); i++ {
		if i == 5 {
			t.Fatalf("5 shift+tabs did not reach step 2:\n%s", hs.Screen())
		}
		from := s.form.focused()
		hs.Key("shift+tab")
		hs.Until("shift+tab leaving the "+from, func() bool { return s.form.focused() != from })
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("shift+tab took %s to leave the lists", d)
	}
}
