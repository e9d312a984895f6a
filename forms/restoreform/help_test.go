package restoreform

import (
	"slices"
	"strings"
	"testing"

	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// TestHelpWhereNothingIsTyped: the wizard takes every key, so on the
// steps where nothing is typed (where the backup is, the refusal) its
// own ? asks the root for the help, and its keys offer it; where a name
// is typed (the target list) ? is typed into the name.
func TestHelpWhereNothingIsTyped(t *testing.T) {
	e := rtSetup(t, false)
	asksHelp := func(step string, w *Wizard) {
		t.Helper()
		if got := rtPress(w, "?"); !slices.Contains(got, any(kit.HelpMsg{})) {
			t.Errorf("%s: ? answered %v, want the help", step, got)
		}
		if !strings.Contains(kit.HintLine(w.KeyMap().Short...), "? help") {
			t.Errorf("%s: the keys do not offer ?: %q", step, kit.HintLine(w.KeyMap().Short...))
		}
	}
	w := e.wizard(t, Options{})
	asksHelp("where is the backup", w)
	if w.StepName() != "source" {
		t.Fatalf("? left the first step for %s", w.StepName())
	}
	w, _ = e.refused(t)
	asksHelp("refused", w)

	w = e.wizard(t, Options{})
	rtPress(w, "enter") // managed storage: the target list
	if got := rtPress(w, "?"); len(got) != 0 || !strings.Contains(tuitest.View(w), "/?") {
		t.Errorf("? in the target list: %v, not typed:\n%s", got, tuitest.View(w))
	}
}
