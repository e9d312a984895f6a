package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/kit"
)

// TestQueuedToastsShowInTurn: a toast covered by a newer one is not lost:
// when the newer one's time is up, the covered one shows for its own whole
// time, and "(+n)" counts those waiting.
func TestQueuedToastsShowInTurn(t *testing.T) {
	h := fakeApp(t, time.Minute, &fakeScreen{id: "a"})
	for _, text := range []string{"first", "second", "copied the password"} {
		h.Send(kit.ToastMsg{Level: kit.ToastInfo, Text: text})
	}
	line := func() string {
		for _, l := range strings.Split(h.Screen(), "\n") {
			if strings.Contains(l, "first") || strings.Contains(l, "second") || strings.Contains(l, "copied") {
				return strings.TrimSpace(l)
			}
		}
		return ""
	}
	if got := line(); got != "copied the password  (+2)" {
		t.Fatalf("newest first: %q", got)
	}
	expire := func(tm tea.Msg) bool { _, ok := tm.(toastExpireMsg); return ok }
	// every timer armed so far is up: only the front's counts
	h.Fire(expire)
	if got := line(); got != "second  (+1)" {
		t.Fatalf("after the newest's time: %q", got)
	}
	h.Fire(expire)
	if got := line(); got != "first" {
		t.Fatalf("after the second's time: %q", got)
	}
	h.Fire(expire)
	if got := line(); got != "" {
		t.Fatalf("all shown, still %q", got)
	}
}
