package replication_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/tui"
)

// bksp at the backup's step goes back to the allow list's step and stays
// there, though its check passes at once (it moved straight on to the
// backup again); enter there checks again and goes on; bksp once more is
// the pair's choice.
func TestBackFromBackupStaysAtAllowList(t *testing.T) {
	h := newDemo(t).app(80, 24, nil)
	h.Keys("4", "n")
	h.Sees("Choose the PRIMARY")
	h.choosePair("orders-prod", "replica-west")
	h.Sees("Step 1 of 6")
	if strings.Contains(h.Screen(), "FAIL  1 Allow list") {
		h.Key("enter")
	}
	h.Sees("Step 2 of 6")
	h.Key("backspace")
	h.Sees("PASS  1 Allow list")
	if !strings.Contains(h.Screen(), "Step 1 of 6") {
		t.Fatalf("bksp at step 2 did not stay at step 1:\n%s", h.Screen())
	}
	h.Key("enter")
	h.Sees("Step 2 of 6")
	h.Key("backspace")
	h.Sees("Step 1 of 6")
	h.Key("backspace")
	h.Sees("Choose the PRIMARY")
}

// The start refused (error 1045: the grant was said to be run but was
// not), bksp and the grant run: the start's step no longer shows its old
// failure; enter at it starts replication.
func TestRerunClearsOldFailure(t *testing.T) {
	h := newDemo(t).replication(nil, "No replication set up with skytui yet.")
	h.toRestored()
	h.Sees("Step 4 of 6")
	h.Key("enter")
	h.Sees("Step 5 of 6")
	h.Keys("m", "y")
	h.Sees("Step 6 of 6")
	h.Key("enter")
	h.Sees("error 1045")
	h.Key("backspace")
	h.Sees("Step 5 of 6")
	h.Key("enter")
	h.Sees("Step 6 of 6")
	if strings.Contains(h.Screen(), "error 1045") {
		t.Fatalf("the grant ran, step 6 still shows the start's old failure:\n%s", h.Screen())
	}
}

// toBackups drives the wizard to step 2 at h's size.
func (h *harness) toBackups() {
	h.T.Helper()
	h.Keys("4", "n")
	h.Sees("Choose the PRIMARY")
	h.choosePair("orders-prod", "replica-west")
	for i := 0; i < 3 && !strings.Contains(h.Screen(), "Step 2 of 6"); i++ {
		h.Key("enter") // the missing entry added (the step's end shown first)
	}
	h.Sees("Step 2 of 6")
}

// The backups' list cut to its room says how many rows are below and
// above (as the services' list does), its cut header is marked, and the
// selected row's reason, cut in its row, shows whole under the list.
func TestBackupListSaysCutAndWhyWhole(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {60, 16}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := newDemo(t).app(size[0], size[1], nil)
			h.toBackups()
			if !regexp.MustCompile(`down/j: \d+ more backups`).MatchString(h.Screen()) {
				t.Fatalf("the cut backups' list does not say so:\n%s", h.Screen())
			}
			if size[0] == 60 && !regexp.MustCompile(`GTID / WHY (~|…)`).MatchString(h.Screen()) {
				t.Fatalf("the header is cut without a mark:\n%s", h.Screen())
			}
			for i := 0; i < 20 && !strings.Contains(h.Screen(), "up/k: "); i++ {
				h.Key("j")
			}
			h.Sees("above")
			for i := 0; i < 20 && !strings.Contains(h.Screen(), "refused: t"); i++ {
				h.Key("j")
			}
			// cut in its row, whole under the list
			h.Sees("refused: taken")
			h.Sees("binary logs from")
			h.Sees("its position)")
		})
	}
}

// With no pair, the text saying how to make one, cut at 60x16 on a
// read-only profile, says what is below and scrolls with J/K.
func TestEmptyTextScrolls(t *testing.T) {
	h := newDemo(t).app(60, 16, func(o *tui.Options) { o.ReadOnly = true })
	h.Key("4")
	h.Sees("No replication set up with skytui yet.")
	h.Sees("J: ")
	h.Keys("J", "J", "J")
	h.Sees("starts clean.")
	h.Sees("K: ")
	h.Sees("Its first step offers managed")
}

// A service that a saved pair has replicate already (set up with the sky
// procedures) is marked in the managed flow's replica list and in the
// guided wizard's secondary list, and enter on it is refused with its
// primary named, before any request.
func TestKnownReplicaMarked(t *testing.T) {
	d := newDemo(t)
	pri, sec := d.byName("orders-prod"), d.byName("replica-west")
	d.savePair(replsetup.Pair{PrimaryID: pri.ID, PrimaryName: pri.Name, SecondaryID: sec.ID, SecondaryName: sec.Name, Method: replsetup.MethodGTID})
	h := d.replication(nil, "1 pair")
	rowOf := func(name string) string {
		for _, l := range strings.Split(h.Screen(), "\n") {
			if strings.Contains(l, name) && !strings.Contains(l, "->") && !strings.Contains(l, "Primary") {
				return l
			}
		}
		return ""
	}
	// managed: n, m, the primary
	h.Keys("n", "m")
	h.pick("orders-prod")
	if r := rowOf("replica-west"); !strings.Contains(r, "replica: replicates already") {
		t.Fatalf("managed: replica-west's row %q:\n%s", r, h.Screen())
	}
	h.pick("replica-west")
	h.Sees("replica-west already replicates from orders-prod")
	h.Keys("esc", "esc", "esc", "esc")
	// guided: the secondary's list
	h.Key("n")
	h.Sees("Choose the PRIMARY")
	h.pick("orders-prod")
	h.Sees("Choose the SECONDARY")
	if r := rowOf("replica-west"); !strings.Contains(r, "secondary: replicates already") {
		t.Fatalf("guided: replica-west's row %q:\n%s", r, h.Screen())
	}
	h.pick("replica-west")
	h.Sees("replica-west already replicates from orders-prod")
	h.Sees("Choose the SECONDARY")
}
