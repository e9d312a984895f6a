package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/tuitest"
)

// TestMain runs the tests in UTC: snapshots show times. (The Backups
// screen remembers the last service in the user state directory; tests
// neither read nor write it.)
func TestMain(m *testing.M) { tuitest.Main(m) }

// demoHarness is the demo sandbox at a fixed time, shown at w x h.
func demoHarness(t *testing.T, w, h int, tweak func(*Options)) (*harness, *sandbox.Server, *sandbox.ManualClock) {
	t.Helper()
	srv, clk, c := tuitest.Sandbox(t, true)
	opts := Options{Client: c, Profile: "demo", Demo: true, Now: clk.Now, SlowInterval: 30 * time.Second}
	if tweak != nil {
		tweak(&opts)
	}
	return newHarness(t, opts, w, h), srv, clk
}

// TestGolden snapshots the frame (escape sequences stripped) at 80x24 and
// 140x40. Regenerate with: go test ./tui/ -run TestGolden -update
func TestGolden(t *testing.T) {
	type step func(h *harness, srv *sandbox.Server, clk *sandbox.ManualClock)
	keys := func(ks ...string) step {
		return func(h *harness, _ *sandbox.Server, _ *sandbox.ManualClock) {
			for _, k := range ks {
				h.Key(k)
			}
		}
	}
	cases := []struct {
		name  string
		tweak func(*Options)
		steps []step
	}{
		{name: "list"},
		{name: "detail", steps: []step{keys("enter")}},
		{name: "help", steps: []step{keys("?")}},
		{name: "create_form", steps: []step{keys("n")}},
		{name: "create_name_invalid", steps: []step{
			keys("n", "enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter"),
			func(h *harness, _ *sandbox.Server, _ *sandbox.ManualClock) { h.TypeText("ab") },
		}},
		{name: "create_review", steps: []step{
			keys("n", "enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter"),
			func(h *harness, _ *sandbox.Server, _ *sandbox.ManualClock) {
				h.TypeText("orders-db2")
				h.Key("enter")
				h.Key("enter")
				h.Key("enter")
				h.TypeText("203.0.113.7")
				h.Key("enter")
			},
		}},
		{name: "credentials", steps: []step{keys("c")}},
		{name: "credentials_pending", steps: []step{keys("G", "k", "c")}}, // reporting-new
		{name: "allowlist", steps: []step{keys("j", "j", "j", "j", "a")}}, // orders-prod
		{name: "confirm_remove", steps: []step{keys("j", "j", "j", "j", "a", "d")}},
		{name: "stale_header", steps: []step{func(h *harness, srv *sandbox.Server, clk *sandbox.ManualClock) {
			srv.SetFaults(sandbox.Faults{ErrorRate: 1})
			clk.Advance(14 * time.Second)
			h.Key("r")
		}}},
		{name: "readonly_header", tweak: func(o *Options) { o.ReadOnly, o.Demo, o.Profile = true, false, "prod-eu" }},
		{name: "placeholder", steps: []step{keys("2")}},
		{name: "command_line", steps: []step{keys(":", "b", "a", "tab")}},
	}
	for _, size := range [][2]int{{80, 24}, {140, 40}} {
		for _, tc := range cases {
			t.Run(fmt.Sprintf("%s_%dx%d", tc.name, size[0], size[1]), func(t *testing.T) {
				h, srv, clk := demoHarness(t, size[0], size[1], tc.tweak)
				for _, s := range tc.steps {
					s(h, srv, clk)
				}
				out := h.Screen()
				tuitest.CheckFrame(t, out, size[0], size[1])
				golden.RequireEqual(t, out)
			})
		}
	}
	for _, size := range [][2]int{{59, 24}, {80, 15}} {
		t.Run(fmt.Sprintf("too_small_%dx%d", size[0], size[1]), func(t *testing.T) {
			h, _, _ := demoHarness(t, 80, 24, nil)
			h.Key("j") // state to keep
			h.Send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			out := h.Screen()
			if !strings.Contains(out, "terminal too small (need 60x16") {
				t.Fatalf("no too-small message:\n%s", out)
			}
			golden.RequireEqual(t, out)
			// resizing back keeps the state (the cursor on the second row)
			h.Send(tea.WindowSizeMsg{Width: 80, Height: 24})
			h.sees(t, "> broken-import", "state lost across resize")
		})
	}
}
