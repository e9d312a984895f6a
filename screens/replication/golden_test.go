package replication_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/tui/tuitest"
)

// TestGolden snapshots the frame (escape sequences stripped, the random
// SQL ports fixed) at 80x24 and 140x40 along one setup in the demo: the
// empty state, a refused pair, a failing and a passing step with its fix,
// the backups, the restore's type-to-confirm, the restore running and
// done, the grant, 1045 at the start, the status view with 1045, with a
// sparkline, the grant again, and a secondary whose status cannot be read.
// Regenerate with: go test ./screens/replication/ -run TestGolden -update
func TestGolden(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {140, 40}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			d := newDemo(t)
			pri, sec := d.byName("orders-prod"), d.byName("replica-west")
			// step 1 fails: drop the entry that admits the secondary
			for _, e := range pri.AllowList() {
				if replsetup.AllowedBy(sec.OutboundIPs[0], []api.AllowListEntry{e}) != "" {
					if _, err := d.c.RemoveAllowListEntry(bg, pri.ID, e.IP); err != nil {
						t.Fatal(err)
					}
				}
			}
			h := d.app(size[0], size[1], nil)
			snap := func(name string) {
				t.Helper()
				out := h.Screen()
				t.Run(name, func(t *testing.T) {
					tuitest.CheckFrame(t, out, size[0], size[1])
					golden.RequireEqual(t, out)
				})
			}
			h.Key("4")
			snap("01_empty")
			h.Key("n")
			h.Key("/")
			h.TypeText("orders-prod")
			h.Keys("enter", "enter")
			h.Key("/")
			h.TypeText("legacy")
			h.Keys("enter", "enter")
			h.waitFor("refused: the secondary legacy-batch is stopped")
			snap("02_pair_refused")
			h.Key("esc") // clear the filter
			h.Key("/")
			h.TypeText("replica-west")
			h.Keys("enter", "enter")
			h.waitFor("FAIL  1 Allow list")
			snap("03_allowlist_fail")
			h.Key("enter")
			h.waitFor("Step 2 of 6")
			snap("04_backups")
			h.Keys("enter", "enter")
			h.TypeText("replica-west")
			snap("05_restore_confirm")
			h.Key("enter")
			h.waitFor("WAIT  3 Restore")
			snap("06_restore_running")
			d.clk.Advance(time.Hour)
			h.FirePolls()
			h.waitFor("PASS  3 Restore")
			snap("07_restore_done")
			h.Key("enter")
			h.waitFor("Step 5 of 6")
			snap("08_grant")
			h.Key("m")
			h.waitFor("Did you run the grant?")
			snap("09_grant_ran_confirm")
			h.Key("y")
			h.Key("enter")
			h.waitFor("FAIL  6 Start")
			snap("10_start_1045")
			h.Key("esc")
			h.waitFor("IO thread     Connecting")
			snap("11_status_1045")
			// fix it: back in the wizard, run the grant (step 5), start again
			h.Keys("c", "backspace")
			h.waitFor("Step 5 of 6")
			h.Key("enter")
			h.waitFor("Step 6 of 6")
			h.Key("enter")
			h.waitFor("IO thread     Yes")
			for range 40 {
				d.clk.Advance(5 * time.Second)
				h.FirePolls()
			}
			snap("12_status_sparkline")
			h.Key("g")
			h.waitFor("IDENTIFIED BY")
			snap("13_grant_again")
			h.Key("esc")
			// a restore into the secondary: its status cannot be read
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
			h.waitFor("could not be read")
			snap("14_status_unreadable")
		})
	}
}
