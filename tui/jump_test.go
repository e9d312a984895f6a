package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/skytui/skytui/kit"
)

// Jumps from a service to its backups (b) and restores (R), and esc back
// to the service, its row still selected; an esc the screen jumped to has
// a use for (a filter, the detail pane) comes first.
func TestJumpToBackupsAndRestoresAndBack(t *testing.T) {
	h, _, _ := demoHarness(t, 160, 40, nil)
	selected := regexp.MustCompile(`(?m)^> orders-prod `)
	h.Keys("j", "j", "j", "j")
	if !selected.MatchString(h.Screen()) {
		t.Fatalf("orders-prod not selected:\n%s", h.Screen())
	}
	h.sees(t, "b backups", "the footer lacks b")
	h.sees(t, "R restores", "the footer lacks R")
	h.sees(t, "m db shell", "the footer lacks m")
	// escStays presses esc, after which the screen still shows on
	escStays := func(on, what string) {
		t.Helper()
		h.Key("esc")
		h.sees(t, on, what)
	}
	// backToServices presses esc, which must go back to the Services,
	// orders-prod still selected
	backToServices := func(what string) {
		t.Helper()
		h.Key("esc")
		h.sees(t, "[ 1 Services ]", what)
		if !selected.MatchString(h.Screen()) {
			t.Fatalf("orders-prod is no longer selected after the jump back:\n%s", h.Screen())
		}
	}

	h.Key("b")
	h.sees(t, "[ 2 Backups ]", "b did not show the Backups")
	h.sees(t, "Backups of orders-prod", "b did not narrow to orders-prod")
	h.sees(t, "esc back to services", "the footer does not say esc goes back")
	// a filter first: esc clears it and stays
	h.Key("/")
	h.TypeText("full")
	h.Key("enter")
	escStays("Backups of orders-prod", "esc with a filter left the Backups")
	// the detail pane next
	h.Key("enter")
	escStays("Backups of orders-prod", "esc with the pane open left the Backups")
	backToServices("esc did not go back to Services")
	if strings.Contains(h.Screen(), "esc back to") {
		t.Fatalf("the footer still offers a way back:\n%s", h.Screen())
	}

	h.Key("R")
	h.sees(t, "[ 3 Restores ]", "R did not show the Restores")
	for _, line := range strings.Split(h.Screen(), "\n") {
		if regexp.MustCompile(`^[> ] +\d+ +\S+ +dbt`).MatchString(line) && !strings.Contains(line, "orders-prod") {
			t.Fatalf("R shows another service's restore: %q\n%s", line, h.Screen())
		}
	}
	// the service filter is the jump's, as with b: one esc goes back and
	// ends it (3 then shows every restore); a shows all without leaving
	h.sees(t, "(a shows all)", "the Restores do not say a shows all")
	h.sees(t, "esc back to services", "the footer does not say esc goes back")
	backToServices("esc did not go back from the Restores")
	// allRestores presses keys, then says what if one service is shown
	allRestores := func(what string, keys ...string) {
		t.Helper()
		h.Keys(keys...)
		if strings.Contains(h.Screen(), "service: orders-prod") {
			t.Fatalf("%s: one service's restores:\n%s", what, h.Screen())
		}
	}
	allRestores("3 after esc out of the R jump", "3")
	allRestores("3 after 1 out of the R jump", "1", "R", "1", "3")
	h.Key("f")
	h.TypeText("orders-prod")
	h.Key("enter")
	h.sees(t, "service: orders-prod", "f did not choose orders-prod")
	allRestores("a after f", "a")
	h.Key("1")

	// a switch by number forgets the jump: esc then stays
	h.Key("b")
	h.Key("3")
	h.Key("2")
	escStays("[ 2 Backups ]", "esc went back after a switch by number")

	// so does a ":" command to the screen already shown
	h.Key("1")
	h.Key("b")
	h.sees(t, "esc back to services", "the footer does not say esc goes back")
	h.Key(":")
	h.TypeText("backups")
	h.Key("enter")
	if strings.Contains(h.Screen(), "esc back to") {
		t.Fatalf("the footer still offers a way back after :backups:\n%s", h.Screen())
	}
	escStays("[ 2 Backups ]", "esc went back after a \":\" command to the screen shown")

	// a jump to the screen shown keeps the way back
	h.Key("1")
	h.Key("b")
	h.m.onJump(kit.JumpMsg{Screen: "backups", Arg: "orders-prod"}, "")
	h.sees(t, "esc back to services", "a jump to the screen shown lost the way back")
}
