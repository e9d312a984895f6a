package services

import (
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// kept80 are the footer's keys at 80 columns, as the root keeps them for
// a pane that takes every key (no "? help" of its own after them): esc
// first, then in their order as far as they fit, two spaces apart.
func kept80(s *Screen) string {
	var esc, rest []key.Binding
	for _, b := range s.KeyMap().ShortHelp() {
		if slices.Contains(b.Keys(), "esc") {
			esc = append(esc, b)
		} else {
			rest = append(rest, b)
		}
	}
	var kept []string
	used := 0
	for _, b := range append(esc, rest...) {
		it := b.Help().Key + " " + b.Help().Desc
		w := ansi.StringWidth(it)
		if used > 0 {
			w += 2
		}
		if used+w > 79 {
			break
		}
		used += w
		kept = append(kept, it)
	}
	return strings.Join(kept, "  ")
}

// TestCreateFormHelpAndRetryAreFound: while a listing failed, ctrl+r
// keeps its place in an 80-column footer over shift+tab (it was the one
// left out); ? on a list asks for the form's help (the form takes every
// key: it did nothing), and the footer offers it; in a text field ? is
// typed, and not offered.
func TestCreateFormHelpAndRetryAreFound(t *testing.T) {
	hs, s, b := brokenForm(t)
	b.fail("/provisioning/v1/regions", 1<<30)
	hs.Key("n")
	hs.Until("the region's failure", func() bool { return strings.Contains(hs.Screen(), "could not load regions") })
	if f := kept80(s); !strings.Contains(f, "ctrl+r read lists again") || !strings.Contains(f, "? help") {
		t.Errorf("an 80-column footer with a listing failed: %s", f)
	}
	if got := s.form.Update(tuitest.KeyMsg("?")); got == nil || got() != any(kit.HelpMsg{}) {
		t.Errorf("? on the provider list does not ask for the help")
	}
	if !strings.Contains(hs.Screen(), "1/5: where") {
		t.Fatalf("? left the step:\n%s", hs.Screen())
	}
	var help []string
	for _, g := range s.KeyMap().FullHelp() {
		for _, b := range g {
			help = append(help, b.Help().Key+" "+b.Help().Desc)
		}
	}
	for _, want := range []string{"ctrl+r read lists again", "enter/tab next", "esc cancel (keeps input)"} {
		if !slices.Contains(help, want) {
			t.Errorf("the form's help does not list %q: %v", want, help)
		}
	}

	b.fail("/provisioning/v1/regions", 0)
	hs.Key("esc")
	s.draft = reviewDraft("")
	s.draft.Name, s.draft.at = "orders", "name"
	hs.Key("n")
	hs.Until("the name", func() bool { return s.form != nil && s.form.focused() == "name" })
	if f := kept80(s); strings.Contains(f, "?") {
		t.Errorf("the footer offers ? in the name: %s", f)
	}
	hs.Key("?")
	if got := s.form.values.name.Get(); got != "orders?" {
		t.Errorf("? in the name: it holds %q", got)
	}
}
