package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// An action on a service with a 5,000-character name (the hostile
// sandbox's) that is refused still shows the refusal's status, message and
// trace ID on the message line: the name is shortened in its middle, not
// the status. The log keeps the whole text.
func TestRefusalOfALongNamedActionShowsItsStatus(t *testing.T) {
	name := "start long-name-" + strings.Repeat("abcdefghij", 499) + " HOSTILE-T0HOSTILE-T2HOSTILE-DCS"
	refusal := &api.Error{Method: "POST", Path: "/provisioning/v1/services/dbtgf00000099/start", Status: 429,
		Message: "rate limit exceeded", Solution: "retry later", TraceID: "4bf92f3577b34da6"}
	for _, sz := range [][2]int{{60, 16}, {80, 24}} {
		h := newHarness(t, Options{Profile: "test", Now: func() time.Time { return t0 },
			Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{&fakeScreen{id: "a"}} }}, sz[0], sz[1])
		h.Send(kit.ActionRequestMsg{Action: kit.Action{Name: name, Mutating: true, Origin: "a",
			Run: func(context.Context) (any, error) { return nil, refusal }}})
		scr := h.Screen()
		lines := strings.Split(scr, "\n")
		msg := strings.Join(lines[len(lines)-4:len(lines)-1], "\n")
		for _, want := range []string{"error: start lon", "~ failed: 429 Too Many Requests: rate limit", "trace 4bf92f3577b34da6)", "(L log, X dismiss)"} {
			if !strings.Contains(strings.ReplaceAll(msg, "\n ", " "), want) {
				t.Errorf("%dx%d: the message line lacks %q:\n%s", sz[0], sz[1], want, msg)
			}
		}
		for _, l := range lines {
			if w := ansi.StringWidth(l); w > sz[0] {
				t.Errorf("%dx%d: a line of %d cells: %q", sz[0], sz[1], w, l)
			}
		}
		if e := h.m.msgs.entries; len(e) == 0 || !strings.HasPrefix(e[len(e)-1].text, name+" failed: 429 Too Many Requests") {
			t.Errorf("%dx%d: the log does not keep the whole text", sz[0], sz[1])
		}
	}
}
