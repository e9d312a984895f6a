package services

import (
	"strings"
	"testing"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// typeInto types text on s, key by key.
func typeInto(s *Screen, text string) {
	for _, m := range tuitest.Typed(text) {
		s.Update(m)
	}
}

// flatView is the view of s with its runs of spaces and line breaks made
// one space (a text wrapped reads whole).
func flatView(s *Screen) string { return strings.Join(strings.Fields(tuitest.View(s)), " ") }

// TestAllowListAddDraftKeptPerService: what was typed to add (and to
// check) comes back at the next n (i) after the allow list was left and
// opened again, as the create form's does; another service's list has its
// own, and an add carried out, answered after the list was left, leaves
// nothing to bring back.
func TestAllowListAddDraftKeptPerService(t *testing.T) {
	s := newScreen(100, 24)
	a, b := svc(1, "ready"), svc(2, "ready")
	a.Name, b.Name = "analytics", "orders-prod"
	feed(s, []api.Service{a, b})
	leave := func() {
		press(s, "esc") // the input
		press(s, "esc") // the allow list
		if out := tuitest.View(s); strings.Contains(out, "Allow list") {
			t.Fatalf("esc esc did not leave the allow list:\n%s", out)
		}
	}

	press(s, "down")
	press(s, "a")
	press(s, "n")
	typeInto(s, "2001:db8::/32 v6 net")
	press(s, "esc")
	press(s, "i")
	typeInto(s, "192.0.2.9")
	leave()

	press(s, "a")
	press(s, "n")
	if out := flatView(s); !strings.Contains(out, "add> 2001:db8::/32 v6 net") {
		t.Fatalf("n on the allow list opened again lost what was typed:\n%s", tuitest.View(s))
	}
	press(s, "esc")
	press(s, "i")
	if out := flatView(s); !strings.Contains(out, "check> 192.0.2.9") {
		t.Fatalf("i on the allow list opened again lost what was typed:\n%s", tuitest.View(s))
	}
	leave()

	// another service's allow list: nothing typed there yet
	press(s, "up")
	press(s, "a")
	if out := tuitest.View(s); !strings.Contains(out, "analytics") {
		t.Fatalf("not the allow list of analytics:\n%s", out)
	}
	press(s, "n")
	if got := s.allow.input.Value(); got != "" {
		t.Fatalf("analytics' add input holds orders-prod's %q", got)
	}
	typeInto(s, "203.0.113.7")
	req, ok := press(s, "enter")().(kit.ActionRequestMsg)
	if !ok {
		t.Fatalf("enter did not ask to add: %#v", req)
	}
	leave()
	// the add is done after the list was left: nothing to bring back
	s.Update(kit.ActionDoneMsg{Name: req.Action.Name, Tag: req.Action.Tag})
	press(s, "a")
	press(s, "n")
	if got := s.allow.input.Value(); got != "" {
		t.Fatalf("n after the add was done brings back %q", got)
	}
	leave()

	press(s, "down")
	press(s, "a")
	press(s, "n")
	if out := flatView(s); !strings.Contains(out, "add> 2001:db8::/32 v6 net") {
		t.Fatalf("orders-prod's draft is lost after another list was used:\n%s", tuitest.View(s))
	}
}

// TestAllowListReadOnlyInvitesNoAdd: on a read-only profile neither the
// empty list nor a check's answer invites n, which would be refused.
func TestAllowListReadOnlyInvitesNoAdd(t *testing.T) {
	for _, readOnly := range []bool{false, true} {
		s := newScreen(100, 24)
		s.common.ReadOnly = readOnly
		openAllowListOf(s, "broken-import")
		checkedAddress(t, s, "1.2.3.4", false)
		out := flatView(s)
		if !strings.Contains(out, "no entries: no address may connect") ||
			!strings.Contains(out, "1.2.3.4 is NOT allowed to connect to broken-import") {
			t.Fatalf("read-only %v: the empty list or the answer is not said:\n%s", readOnly, tuitest.View(s))
		}
		if invites := strings.Contains(out, "n adds"); invites == readOnly {
			t.Fatalf("read-only %v: invites n %v:\n%s", readOnly, invites, tuitest.View(s))
		}
		if readOnly && !strings.Contains(out, "no entries: no address may connect (read-only profile)") {
			t.Fatalf("read-only: the empty list does not say why nothing can be added:\n%s", tuitest.View(s))
		}
	}
}

// TestAllowListAddAfterACheck: "(n adds it)" under a check's answer is
// true: n opens the add input with the address typed, the cursor at its
// end (a comment follows); once taken, the answer no longer offers it and
// what was typed is kept as any draft. With a draft of its own kept, the
// answer does not offer n (n brings the draft back).
func TestAllowListAddAfterACheck(t *testing.T) {
	s, _ := allowListOf("orders-prod", 100, 24)
	checkedAddress(t, s, "10.1.2.3", false)
	if out := flatView(s); !strings.Contains(out, "10.1.2.3 is NOT allowed to connect to orders-prod (n adds it)") {
		t.Fatalf("the answer does not offer n:\n%s", tuitest.View(s))
	}
	press(s, "n")
	typeInto(s, " office")
	out := flatView(s)
	if !strings.Contains(out, "add> 10.1.2.3 office") || !strings.Contains(out, `will add 10.1.2.3/32 with the comment "office"`) {
		t.Fatalf("n after the check does not add the address checked:\n%s", tuitest.View(s))
	}
	press(s, "esc")
	if out := flatView(s); strings.Contains(out, "n adds it") {
		t.Fatalf("the answer still offers n, which now brings back what was typed:\n%s", tuitest.View(s))
	}
	press(s, "n")
	if got := s.allow.input.Value(); got != "10.1.2.3 office" {
		t.Fatalf("n after esc holds %q, want what was typed", got)
	}
	press(s, "esc")

	// a draft kept: a check does not offer n, and n brings back the draft
	checkedAddress(t, s, "10.9.9.9", false)
	out = flatView(s)
	if !strings.Contains(out, "10.9.9.9 is NOT allowed to connect to orders-prod") || strings.Contains(out, "n adds it") {
		t.Fatalf("with a draft kept, the answer:\n%s", tuitest.View(s))
	}
	press(s, "n")
	if got := s.allow.input.Value(); got != "10.1.2.3 office" {
		t.Fatalf("n with a draft kept holds %q", got)
	}
}
