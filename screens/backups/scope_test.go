package backups_test

import (
	"regexp"
	"strings"
	"testing"
)

// statusLine is the Backups' status line (the third line of the frame).
func statusLine(h *harness) string {
	lines := strings.Split(h.Screen(), "\n")
	if len(lines) < 3 {
		return ""
	}
	return lines[2]
}

// seesBackupsOf asserts the Backups screen is shown, of what (a service's
// name or "all services").
func seesBackupsOf(t *testing.T, h *harness, of, what string) {
	t.Helper()
	if l := statusLine(h); !strings.HasPrefix(l, " Backups of "+of+" ") || !strings.Contains(h.Screen(), "[ 2 Backups ]") {
		t.Fatalf("%s: want the Backups of %s, status line %q:\n%s", what, of, l, h.Screen())
	}
}

// selectService moves the Services' cursor to the row of name.
func selectService(t *testing.T, h *harness, name string) {
	t.Helper()
	h.Key("g")
	row := regexp.MustCompile(`(?m)^> ` + regexp.QuoteMeta(name) + ` `)
	for range 20 {
		if row.MatchString(h.Screen()) {
			return
		}
		h.Key("j")
	}
	t.Fatalf("no row %s:\n%s", name, h.Screen())
}

// A jump from Services (b) narrows the Backups for that visit only: esc
// back (or another screen, 1) ends it, so 2 shows every service's backups
// again; a service chosen on the Backups screen itself (f) stays chosen,
// and a jump and its esc bring it back.
func TestJumpNarrowingEndsWithEsc(t *testing.T) {
	h, _, _ := app(t, 80, 24, true, nil)
	h.Sees("orders-prod")
	// jump: from Services, b on name; leave: the keys that leave it; then
	// 2 shows the Backups of want
	jumpAndLeave := func(name string, leave []string, want, what string) {
		t.Helper()
		h.Key("1")
		selectService(t, h, name)
		h.Key("b")
		seesBackupsOf(t, h, name, "b on "+name)
		h.Keys(leave...)
		h.Sees("[ 1 Services ]")
		h.Key("2")
		seesBackupsOf(t, h, want, what)
	}
	jumpAndLeave("orders-prod", []string{"esc"}, "all services", "2 after esc out of the jump")
	// leaving the jump another way (1) ends it too
	jumpAndLeave("orders-prod", []string{"1"}, "all services", "2 after 1 out of the jump")

	// f chooses on purpose: kept across screens
	h.Key("f")
	h.Sees("Backups of which service?")
	h.TypeText("orders-prod")
	h.Key("enter")
	seesBackupsOf(t, h, "orders-prod", "f orders-prod")
	h.Key("1")
	h.Key("2")
	seesBackupsOf(t, h, "orders-prod", "2 after f and 1")

	// a jump to another service, then esc: the chosen one is back
	jumpAndLeave("analytics-gcp", []string{"esc"}, "orders-prod", "2 after esc out of a jump from f's choice")

	// a ":backups NAME" is a choice too, as is a for all services
	h.command("backups analytics-gcp")
	seesBackupsOf(t, h, "analytics-gcp", ":backups analytics-gcp")
	h.Key("a")
	seesBackupsOf(t, h, "all services", "a")
}
