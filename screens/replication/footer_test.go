package replication_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
)

// TestWizardFooterKeepsEsc: on every step of the wizard, at 80x24 and
// 60x16, the footer (the root's, laid out from the step's short help)
// shows enter and esc, the way out that the README promises a wizard's
// footer always keeps, and then the step's own keys before the generic
// ones (bksp, the scroll, a list's movement): at 80 columns every own key
// of each step. The list's movement keys give way: at 80 columns the
// chooser's footer read "enter choose primary  up/k move up down/j move
// down  / filter  ? help  q quit". The grant step's y and m gave way to
// "bksp previous step" at 80 columns and to nothing at 60 ("enter run
// grant on primary  esc leave  ? help  q quit"), the two keys a user at
// that step needs. The help (?) still says what esc keeps: "leave
// (progress kept)".
func TestWizardFooterKeepsEsc(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {60, 16}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			d := newDemo(t)
			pri, sec := d.byName("orders-prod"), d.byName("replica-west")
			d.failAllowList(pri, sec) // step 1 fails: its fix is enter's
			h := d.app(size[0], size[1], nil)
			wide := size[0] >= 80
			// check: enter, esc and, at 80 columns, wide (else narrow)
			check := func(step string, wide80, narrow []string) {
				t.Helper()
				lines := strings.Split(h.Screen(), "\n")
				f := lines[len(lines)-1]
				if !strings.Contains(f, " enter ") || !strings.Contains(f, " esc ") {
					t.Errorf("%s: the footer lacks enter or esc: %q", step, f)
				}
				want := narrow
				if wide {
					want = wide80
				}
				for _, k := range want {
					if !strings.Contains(f, "  "+k) {
						t.Errorf("%s: the footer lacks %q: %q", step, k, f)
					}
				}
			}
			// enter until the next step shows (on a short terminal, a
			// step that changes a service shows its statement first)
			next := func(what string) {
				t.Helper()
				for range 3 {
					h.Key("enter")
					if strings.Contains(h.Screen(), what) {
						return
					}
				}
				h.Sees(what)
			}
			h.Keys("4", "n")
			h.Sees("Choose the PRIMARY")
			check("choosing the primary", []string{"/ filter", "m managed"}, nil)
			h.pick("orders-prod")
			h.Sees("Choose the SECONDARY")
			check("choosing the secondary", []string{"/ filter"}, nil)
			h.pick("replica-west")
			h.Sees("Step 1 of 6")
			h.Sees("FAIL  1 Allow list")
			check("the allow list failing", []string{"c check again", "bksp back"}, nil)
			next("Step 2 of 6")
			check("the backup", []string{"b GTID/binlog", "c check again"}, nil)
			next("Step 3 of 6")
			check("the restore", []string{"c check again"}, nil)
			h.Key("enter")
			h.Sees("This erases ALL data in replica-west.")
			check("the restore's confirmation", nil, nil)
			h.TypeText("replica-west")
			h.Key("enter")
			h.Sees("WAIT  3 Restore")
			// bksp is refused while the restore runs (TestBackWhileRestoreRunsIsRefused)
			check("the restore running", []string{"c check again"}, nil)
			d.clk.Advance(time.Hour)
			h.FirePolls()
			h.Sees("Step 4 of 6")
			check("change primary", []string{"b GTID/binlog", "bksp back"}, []string{"b GTID/binlog"})
			next("Step 5 of 6")
			check("the grant", []string{"y copy grant", "m I ran the grant"}, []string{"y copy", "m I ran it"})
			next("Step 6 of 6")
			check("the start", []string{"y copy grant", "bksp back"}, []string{"y copy"})

			var full []key.Binding
			for _, col := range h.active().KeyMap().FullHelp() {
				full = append(full, col...)
			}
			if !slices.ContainsFunc(full, func(b key.Binding) bool {
				return b.Help().Key == "esc" && b.Help().Desc == "leave (progress kept)"
			}) {
				t.Errorf("the help does not say esc keeps the progress: %v", full)
			}
		})
	}
}
