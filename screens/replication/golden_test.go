package replication_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
)

// TestGolden snapshots the frame (escape sequences stripped, the random
// SQL ports fixed) at 80x24 and 140x40 along one setup in the demo: the
// empty state, a refused pair, a failing and a passing step with its fix,
// the backups, the restore's type-to-confirm, the restore running and
// done, the grant, 1045 at the start, the status view with 1045, with a
// sparkline, the grant again, and a secondary whose status cannot be read.
// Regenerate with: go test ./screens/replication/ -run TestGolden -update
func TestGolden(t *testing.T) {
	goldenSizes(t, func(t *testing.T, d *demo, w, ht int) {
		pri, sec := d.byName("orders-prod"), d.byName("replica-west")
		d.failAllowList(pri, sec) // step 1 fails
		h := d.app(w, ht, nil)
		snap := h.snapper(t)
		h.Key("4")
		snap("01_empty")
		h.Key("n")
		h.pick("orders-prod")
		h.pick("legacy")
		h.Sees("refused: the secondary legacy-batch is stopped")
		snap("02_pair_refused")
		h.Key("esc") // clear the filter
		h.pick("replica-west")
		h.Sees("FAIL  1 Allow list")
		snap("03_allowlist_fail")
		h.Key("enter")
		h.Sees("Step 2 of 6")
		snap("04_backups")
		h.Keys("enter", "enter")
		h.TypeText("replica-west")
		snap("05_restore_confirm")
		h.Key("enter")
		h.Sees("WAIT  3 Restore")
		snap("06_restore_running")
		d.clk.Advance(time.Hour)
		h.FirePolls()
		h.Sees("PASS  3 Restore")
		snap("07_restore_done")
		h.Key("enter")
		h.Sees("Step 5 of 6")
		snap("08_grant")
		h.Key("m")
		h.Sees("Did you run the grant?")
		snap("09_grant_ran_confirm")
		h.Key("y")
		h.Key("enter")
		h.Sees("FAIL  6 Start")
		snap("10_start_1045")
		h.Key("esc")
		h.Sees("IO thread     Connecting")
		snap("11_status_1045")
		// fix it: back in the wizard, run the grant (step 5), start again
		h.Keys("c", "backspace")
		h.Sees("Step 5 of 6")
		h.Key("enter")
		h.Sees("Step 6 of 6")
		h.Key("enter")
		h.Sees("IO thread     Yes")
		for range 40 {
			d.clk.Advance(5 * time.Second)
			h.FirePolls()
		}
		snap("12_status_sparkline")
		h.Key("g")
		h.Sees("IDENTIFIED BY")
		snap("13_grant_again")
		h.Key("esc")
		// a restore into the secondary: its status cannot be read, its
		// state says why (the status read before stays below it)
		bs, err := d.c.ListBackups(bg, pri.ID)
		if err != nil {
			t.Fatal(err)
		}
		var key string
		for _, b := range bs {
			if b.Type == api.BackupFull && api.BackupState(b.Status) == api.BackupCompleted && !b.IsExternalStorage {
				key = b.Key
			}
		}
		if _, err := d.c.CreateRestore(bg, api.ManagedRestore(sec.ID, key)); err != nil {
			t.Fatal(err)
		}
		d.clk.Advance(5 * time.Second)
		h.FirePolls()
		h.Sees("Status        the secondary replica-west is pending_")
		snap("14_status_unreadable")
	})
}

// TestGoldenSmall: at 60x16, the smallest size skytui supports, the step
// list folds into the current step's line; the list being chosen from
// shows with its selected row, the primary is named while the secondary
// (the service the restore erases) is chosen, and the text that does not
// fit says what is above and below and scrolls with J/K, which that line
// and the help name (the footer keeps enter and esc first: at 60 columns
// J/K does not fit beside them).
// Regenerate with: go test ./screens/replication/ -run TestGoldenSmall -update
func TestGoldenSmall(t *testing.T) {
	d := newDemo(t)
	pri, sec := d.byName("orders-prod"), d.byName("replica-west")
	d.failAllowList(pri, sec)
	h := d.app(60, 16, nil)
	snap := h.snapper(t)
	h.Keys("4", "n")
	h.Sees("Choose the PRIMARY")
	h.onRow("orders-prod")
	snap("01_choose_primary")
	h.pick("orders-prod")
	h.pick("legacy")
	h.Sees("refused: the secondary legacy-batch is stopped")
	h.Sees("Primary: orders-prod on aws. Choose the SECONDARY")
	h.onRow("legacy-batch")
	snap("02_pair_refused")
	h.Key("esc") // clear the filter
	h.Key("/")
	h.TypeText("replica-west")
	h.Key("enter") // keep the filter: the cursor on replica-west
	h.Sees("Primary: orders-prod on aws. Choose the SECONDARY")
	h.onRow("replica-west")
	h.cut("J: 2 more lines")
	snap("03_choose_secondary")
	h.Key("J")
	h.Sees("Or m: managed replication")
	h.Sees("K: 2 lines above")
	h.onRow("replica-west")
	h.Key("enter")
	h.Sees("FAIL  1 Allow list")
	h.Sees("Fix: press enter to add")
	h.cut("J: 2 more lines")
	snap("04_allowlist_cut")
	h.Key("J")
	h.Sees("Allow list of orders-prod")
	h.cut("K: 2 lines above")
	snap("05_allowlist_scrolled")
	h.Key("enter")
	h.Sees("Step 2 of 6")
	h.Sees("TAKEN")
	h.onRow("full")
	snap("06_backups")
}

// onRow fails unless the selected row (the cursor's) shows and holds
// what.
func (h *harness) onRow(what string) {
	h.T.Helper()
	for _, l := range strings.Split(h.Screen(), "\n") {
		if strings.HasPrefix(l, "> ") && !strings.Contains(l, "  Pair") && strings.Contains(l, what) {
			return
		}
	}
	h.T.Fatalf("no selected row with %q:\n%s", what, h.Screen())
}

// cut fails unless the step's text says what is above or below (more,
// naming the key), the help names the keys that scroll it, and the
// footer keeps enter and esc (J/K too where there is room for it).
func (h *harness) cut(more string) {
	h.T.Helper()
	out := h.Screen()
	lines := strings.Split(out, "\n")
	footer := lines[len(lines)-1]
	if !strings.Contains(out, more) || !strings.Contains(fmt.Sprint(h.active().KeyMap().FullHelp()), "J/K") {
		h.T.Fatalf("the cut text's %q or the help's J/K scroll text missing:\n%s", more, out)
	}
	if !strings.Contains(footer, " enter ") || !strings.Contains(footer, " esc ") {
		h.T.Fatalf("the footer lacks enter or esc:\n%s", out)
	}
}
