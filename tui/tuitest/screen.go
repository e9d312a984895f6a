package tuitest

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/internal/testenv"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/theme"
)

// Main runs a package's tests in UTC (snapshots show times): a
// package's TestMain calls it. It is testenv.Main, for the tests that
// need nothing else of testenv.
var Main = testenv.Main

// Common is the context a screen or a form is tested in outside the
// root: the default theme, a clock stopped at T0, profile "t".
func Common() *kit.Common {
	return &kit.Common{Theme: theme.Default(), Now: func() time.Time { return T0 }, Profile: "t"}
}

// Updater is a screen or a component: Update answers it and a command.
type Updater[M any] interface {
	Update(tea.Msg) (M, tea.Cmd)
}

// Press presses key k (see KeyMsg) on m and returns its command, not run.
func Press[M any](m Updater[M], k string) tea.Cmd {
	_, cmd := m.Update(KeyMsg(k))
	return cmd
}

// View is what m shows, without escape sequences.
func View(m interface{ View() string }) string { return ansi.Strip(m.View()) }

// CheckFits asserts a frame fits a w x h area: at most h lines, none
// wider than w cells (CheckFrame wants the whole terminal filled); what
// names the frame in a failure.
func CheckFits(t testing.TB, what, frame string, w, h int) {
	t.Helper()
	lines := strings.Split(frame, "\n")
	if len(lines) > h {
		t.Errorf("%s: %d lines, more than %d", what, len(lines), h)
	}
	for i, l := range lines {
		if n := ansi.StringWidth(l); n > w {
			t.Errorf("%s: line %d is %d cells wide, more than %d: %q", what, i+1, n, w, ansi.Strip(l))
		}
	}
}

// LineWith is the line of view that holds want, or "".
func LineWith(view, want string) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, want) {
			return l
		}
	}
	return ""
}

// Service is the service named name, as the API lists it; the test fails
// if there is none.
func Service(t testing.TB, c *api.Client, name string) api.Service {
	t.Helper()
	svcs, err := c.ListServices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range svcs {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no service %s", name)
	return api.Service{}
}

// Changes counts the requests other than GET the sandbox received.
func Changes(srv *sandbox.Server) int {
	n := 0
	for k, v := range srv.Stats().Requests {
		if !strings.HasPrefix(k, "GET ") {
			n += v
		}
	}
	return n
}
