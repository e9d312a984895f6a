package tui

import (
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

func TestNoColorEnvRemovesColours(t *testing.T) {
	h, _, _ := demoHarness(t, 100, 30, func(o *Options) {
		o.Getenv = func(k string) string {
			if k == "NO_COLOR" {
				return "1"
			}
			return ""
		}
	})
	h.Key("enter")
	out := h.m.Render()
	if strings.Contains(out, "38;") || strings.Contains(out, "48;") {
		t.Fatalf("colour codes under NO_COLOR: %q", out[:min(400, len(out))])
	}
	if !regexp.MustCompile(`\x1b\[(?:[0-9;]*;)?7(?:;[0-9;]*)?m`).MatchString(out) {
		t.Fatal("the selection is not visible (reverse) without colour")
	}
}

func TestSpinnerOnlyWhileInFlight(t *testing.T) {
	spins := func(h *harness) int {
		n := 0
		for _, tm := range h.Timers {
			if _, ok := tm.Msg.(spinMsg); ok {
				n++
			}
		}
		return n
	}
	r := &fakeRes{key: "x", block: make(chan struct{})}
	h := fakeApp(t, 30*time.Second, &fakeScreen{id: "a", res: []*fakeRes{r}})
	if spins(h) != 1 {
		t.Fatalf("no spinner while a request is in flight: %d", spins(h))
	}
	close(r.block)
	h.Settle()
	h.Fire(func(m tea.Msg) bool { _, ok := m.(spinMsg); return ok })
	if spins(h) != 0 || h.m.spinning {
		t.Fatal("the spinner keeps ticking when nothing is in flight")
	}

	// accessible: no animation at all
	r2 := &fakeRes{key: "x", block: make(chan struct{})}
	s := &fakeScreen{id: "a", res: []*fakeRes{r2}}
	h2 := newHarness(t, Options{Accessible: true, Now: func() time.Time { return t0 },
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{s} }}, 100, 30)
	if spins(h2) != 0 {
		t.Fatal("the spinner animates in accessible mode")
	}
	close(r2.block)
	h2.Settle()
}

func TestScreenSwitchingAndPlaceholders(t *testing.T) {
	h, _, _ := demoHarness(t, 100, 30, nil)
	for _, c := range [][2]string{{"2", "Backups of all services"}, {"3", "Restores 2 (1 running)"},
		{"4", "n new setup"}, {"1", "orders-prod"}} {
		k, want := c[0], c[1]
		h.Key(k)
		if !strings.Contains(h.Screen(), want) {
			t.Fatalf("key %s: no %q:\n%s", k, want, h.Screen())
		}
	}
	h.Key("tab")
	if h.m.Active().ID() != "backups" {
		t.Fatalf("tab went to %s", h.m.Active().ID())
	}
	h.Key("shift+tab")
	h.Key("shift+tab")
	if h.m.Active().ID() != "settings" {
		t.Fatalf("shift+tab from the first screen should wrap to the last (settings), went to %s", h.m.Active().ID())
	}
	h.Key("shift+tab")
	if h.m.Active().ID() != "replication" {
		t.Fatalf("shift+tab went to %s", h.m.Active().ID())
	}
	// the command line, with completion
	h.runCompleted("backups orders-p", "backups orders-prod")
	if h.m.Active().ID() != "backups" || !strings.Contains(h.Screen(), "Backups of orders-prod (dbtaf33737495)") {
		t.Fatalf(":backups did not open the service's backups:\n%s", h.Screen())
	}
	h.Key(":")
	h.TypeText("bogus")
	h.Key("enter")
	if !strings.Contains(lastToast(h), "unknown command :bogus") {
		t.Fatalf("toast = %q", lastToast(h))
	}
	// :backups without a service goes back to every service's backups
	h.Key(":")
	h.TypeText("backups")
	h.Key("enter")
	if !strings.Contains(h.Screen(), "Backups of all services") || !strings.Contains(h.Screen(), "SERVICE") {
		t.Fatalf(":backups did not show every service's backups:\n%s", h.Screen())
	}
	// an unknown name says so and changes nothing
	h.Key(":")
	h.TypeText("backups nosuch")
	h.Key("enter")
	if !strings.Contains(h.Screen(), `no service named "nosuch"`) || !strings.Contains(h.Screen(), "Backups of all services") {
		t.Fatalf(":backups nosuch:\n%s", h.Screen())
	}
}

func TestTypingDoesNotTriggerGlobalKeys(t *testing.T) {
	h, _, _ := demoHarness(t, 100, 30, nil)
	h.Key("/")
	h.TypeText("q1?:r")
	if h.m.quitting || h.m.Active().ID() != "services" || h.m.showHelp || h.m.cmdline.active {
		t.Fatal("keys typed into the filter acted as global keys")
	}
	h.sees(t, "/q1?:r", "filter text not shown")
}

// Without a clock fixed by a test, ages of what the API reports are
// measured by the server's clock (the Date of its answers): the demo's
// sandbox runs at T0, so a service launched two minutes before T0 shows
// about two minutes, whatever the local clock says; the header's "updated"
// is measured by the local clock it was read by.
func TestAgesFollowTheServerClock(t *testing.T) {
	h, _, _ := demoHarness(t, 140, 40, func(o *Options) { o.Now = nil })
	h.Settle()
	out := h.Screen()
	if !regexp.MustCompile(`reporting-new +\S+ +pending_create 2m0[0-2]s/~5m`).MatchString(out) {
		t.Fatalf("the launch's elapsed time is not the server's two minutes:\n%s", out)
	}
	if !regexp.MustCompile(`updated [0-9]s ago`).MatchString(out) {
		t.Fatalf("the header's age of the last read is off:\n%s", out)
	}
}

// At 60 columns the tabs do not all fit by name: the others show their
// number only, so the shown screen's tab (Settings, the last) is never
// cut off; a click on a number still shows that screen.
func TestNarrowTabsKeepTheShownOne(t *testing.T) {
	h, _, _ := demoHarness(t, 60, 16, nil)
	h.Key("5")
	tabs := strings.Split(h.Screen(), "\n")[1]
	if !strings.Contains(tabs, "[ 5 Settings ]") || !strings.Contains(tabs, "  4  ") {
		t.Fatalf("tabs at 60 columns on Settings: %q", tabs)
	}
	x := strings.Index(tabs, "2")
	h.Send(tea.MouseClickMsg{X: x, Y: 1, Button: tea.MouseLeft})
	if tabs := strings.Split(h.Screen(), "\n")[1]; !strings.Contains(tabs, "[ 2 Backups ]") {
		t.Fatalf("a click on 2 at column %d: %q", x, tabs)
	}
}

// At 60 columns the header keeps how fresh the data is whole: the host
// goes first (the profile names it).
func TestNarrowHeaderKeepsFreshness(t *testing.T) {
	h, _, _ := demoHarness(t, 60, 16, nil)
	head := strings.Split(h.Screen(), "\n")[0]
	if !strings.Contains(head, "updated 0s ago") || !strings.Contains(head, "profile demo") || !strings.Contains(head, "DEMO") {
		t.Fatalf("header at 60 columns: %q", head)
	}
	h2, _, _ := demoHarness(t, 100, 30, nil)
	if head := strings.Split(h2.Screen(), "\n")[0]; !strings.Contains(head, "127.0.0.1:8080") {
		t.Fatalf("header at 100 columns lost the host: %q", head)
	}
	// a read-only profile with an org at 80 columns: the host goes, the
	// org stays (it says whose account this is)
	srv, clk, _ := tuitest.Sandbox(t, true)
	h3 := newHarness(t, Options{Client: tuitest.Client(t, srv, api.Config{APIKey: tuitest.TestKey, Org: "my-org"}), Profile: "prod-ro", ReadOnly: true,
		Now: clk.Now, SlowInterval: 30 * time.Second}, 80, 24)
	head = strings.Split(h3.Screen(), "\n")[0]
	for _, want := range []string{"profile prod-ro", "org my-org", "READ-ONLY", "updated 0s ago"} {
		if !strings.Contains(head, want) {
			t.Errorf("header at 80 columns lacks %q: %q", want, head)
		}
	}
}
