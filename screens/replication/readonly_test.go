package replication_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skytui/skytui/tui"
)

// A read-only profile starts no setup from an unfinished one: bksp from
// step 1 back to the pair is refused as n is (choosing another pair is a
// new setup), and at a setup saved at its pair step m (managed
// replication) and enter (choosing) are refused at once: no form opens,
// the footer leaves them out and ? marks them "(read-only)".
func TestReadOnlyPairStepStartsNoSetup(t *testing.T) {
	d := newDemo(t)
	pri, sec := d.byName("orders-prod"), d.byName("replica-west")
	d.failAllowList(pri, sec)
	d.saveAtAllowList(pri, sec)
	h := d.replication(readOnly)
	h.Key("c")
	h.Sees("FAIL  1 Allow list")
	if f := h.footer(); strings.Contains(f, "bksp") {
		t.Fatalf("step 1's footer offers the refused bksp: %q", f)
	}
	if help := fmt.Sprint(h.active().KeyMap().FullHelp()); !strings.Contains(help, "previous step (read-only)") {
		t.Fatalf("the help does not mark bksp read-only: %s", help)
	}
	h.refused("backspace", "Choose the PRIMARY")
	if got := h.lastToast(); !strings.Contains(got, "not allowed on read-only profile demo: choosing another pair") {
		t.Fatalf("bksp at step 1 read-only: %q", got)
	}
	h.Sees("FAIL  1 Allow list")

	d.saveAtPair(pri, sec)
	h = d.replication(readOnly)
	h.Key("c")
	h.Sees("Choose the PRIMARY")
	if f := h.footer(); strings.Contains(f, "enter") || strings.Contains(f, "m managed") {
		t.Fatalf("the pair step's footer offers refused keys: %q", f)
	}
	help := fmt.Sprint(h.active().KeyMap().FullHelp())
	for _, want := range []string{"choose primary (read-only)", "managed replication instead (read-only)"} {
		if !strings.Contains(help, want) {
			t.Fatalf("the help lacks %q: %s", want, help)
		}
	}
	if strings.Contains(h.Screen(), "Or m: managed replication") {
		t.Fatalf("the read-only pair step invites m:\n%s", h.Screen())
	}
	h.refused("m", "Managed replication")
	if got := h.lastToast(); !strings.Contains(got, "not allowed on read-only profile demo: setting up replication") {
		t.Fatalf("m read-only: %q", got)
	}
	h.Keys("/")
	h.TypeText("orders-prod")
	h.Key("enter")
	h.refused("enter", "Choose the SECONDARY")
	if got := h.lastToast(); !strings.Contains(got, "not allowed on read-only profile demo: setting up replication") {
		t.Fatalf("enter at the pair step read-only: %q", got)
	}
}

// A managed pair's pane on a read-only profile does not offer E, which
// is refused; a writable one does.
func TestReadOnlyManagedPaneOffersNoEnd(t *testing.T) {
	d := newDemo(t)
	d.managedPair("uni-directional")
	d.replication(nil, "managed replication (uni-directional); E ends it")
	h := d.replication(readOnly, "managed replication (uni-directional)")
	if strings.Contains(h.Screen(), "E ends it") {
		t.Fatalf("a read-only pane offers E:\n%s", h.Screen())
	}
}

// A step's change refused read-only reads as one sentence, the refusal
// the message line gives too (it read "refused: profile is read-only:
// add … not allowed"), and its fix names the cause: a run started with
// --read-only is to be started again without it (the profile itself is
// writable: :profile would not help); a read-only profile is to be
// switched for a writable one.
func TestReadOnlyStepRefusalNamesCause(t *testing.T) {
	for _, c := range []struct {
		name         string
		ro           func(*tui.Options)
		problem, fix string
	}{
		{"flag", readOnlyRun, "not allowed on read-only profile demo (--read-only): add ",
			"Fix: nothing was changed; start skytui again without --read-only to go on"},
		{"profile", readOnly, "not allowed on read-only profile demo: add ",
			"Fix: nothing was changed; switch to a writable profile (:profile) to go on"},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := newDemo(t)
			pri, sec := d.byName("orders-prod"), d.byName("replica-west")
			d.failAllowList(pri, sec)
			d.saveAtAllowList(pri, sec)
			h := d.replication(c.ro)
			h.Key("c")
			h.Sees("FAIL  1 Allow list")
			h.refused("enter")
			h.Sees("FAIL  1 Allow list      " + c.problem) // the step's row
			h.Sees(" " + c.problem)                        // the step's text
			h.Sees(c.fix)
			if scr := h.Screen(); strings.Contains(scr, "refused: profile is read-only") || strings.Contains(scr, "not allowed\n") {
				t.Fatalf("the refusal reads as before:\n%s", scr)
			}
		})
	}
}
