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
// footer always keeps; at 80 columns each numbered step's footer shows
// bksp (the previous step) too. The list's movement keys give way: at 80
// columns the chooser's footer read "enter choose primary  up/k move up
// down/j move down  / filter  ? help  q quit", and the restore step's
// "enter restore (type to confirm)  c check again  ? help  q quit". The
// help (?) still says what esc keeps: "leave (progress kept)".
func TestWizardFooterKeepsEsc(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {60, 16}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			d := newDemo(t)
			pri, sec := d.byName("orders-prod"), d.byName("replica-west")
			d.failAllowList(pri, sec) // step 1 fails: its fix is enter's
			h := d.app(size[0], size[1], nil)
			wide := size[0] >= 80
			check := func(step string, prev bool) {
				t.Helper()
				lines := strings.Split(h.Screen(), "\n")
				f := lines[len(lines)-1]
				if !strings.Contains(f, " enter ") || !strings.Contains(f, " esc ") {
					t.Errorf("%s: the footer lacks enter or esc: %q", step, f)
				}
				if prev && wide && !strings.Contains(f, "bksp previous step") {
					t.Errorf("%s: the footer lacks bksp: %q", step, f)
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
			check("choosing the primary", false)
			h.pick("orders-prod")
			h.Sees("Choose the SECONDARY")
			check("choosing the secondary", false)
			h.pick("replica-west")
			h.Sees("Step 1 of 6")
			h.Sees("FAIL  1 Allow list")
			check("the allow list failing", true)
			next("Step 2 of 6")
			check("the backup", true)
			next("Step 3 of 6")
			check("the restore", true)
			h.Key("enter")
			h.Sees("This erases ALL data in replica-west.")
			check("the restore's confirmation", false)
			h.TypeText("replica-west")
			h.Key("enter")
			h.Sees("WAIT  3 Restore")
			check("the restore running", true)
			d.clk.Advance(time.Hour)
			h.FirePolls()
			h.Sees("Step 4 of 6")
			check("change primary", true)
			next("Step 5 of 6")
			check("the grant", true)
			next("Step 6 of 6")
			check("the start", true)

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
