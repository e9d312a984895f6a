package services

import (
	"slices"
	"strings"
	"testing"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// The allow list's line of outbound IPs wraps between addresses at 80 and
// 60 columns: every address whole on one line, nothing cut, and the view
// still exactly its height, the table under the text.
func TestAllowListOutboundIPsWrapWhole(t *testing.T) {
	ips := []string{"198.51.100.148", "203.0.113.244", "192.0.2.17", "2001:db8:4006:812::200e"}
	v := svc(1, "ready")
	v.OutboundIPs = ips
	v.Endpoints[0].AllowList = []api.AllowListEntry{{IP: "203.0.113.0/24", Comment: "BI cluster"}}
	for _, sz := range []struct{ w, h int }{{80, 20}, {60, 12}} {
		a := newAllowView(tuitest.Common(), newKeyMap(), v, nil)
		a.SetSize(sz.w, sz.h)
		out := tuitest.View(a)
		lines := strings.Split(out, "\n")
		if len(lines) != sz.h {
			t.Fatalf("at %dx%d the allow list is %d lines:\n%s", sz.w, sz.h, len(lines), out)
		}
		for _, l := range lines {
			if ansi.StringWidth(l) > sz.w || strings.HasSuffix(l, a.common.Theme.Glyphs.Ellipsis) {
				t.Fatalf("at %d columns a line is cut: %q\n%s", sz.w, l, out)
			}
		}
		for _, ip := range ips {
			whole := false
			for _, l := range lines {
				whole = whole || strings.Contains(l, ip)
			}
			if !whole {
				t.Fatalf("at %d columns %s is not whole on one line:\n%s", sz.w, ip, out)
			}
		}
		// read as a reader does: the lines under the title, then the table
		var intro []string
		for _, l := range lines[1:] {
			if strings.TrimSpace(l) == "" {
				break
			}
			intro = append(intro, strings.TrimSpace(l))
		}
		want := "Addresses allowed to connect. Outbound IPs of this service: " + strings.Join(ips, ", ")
		if got := strings.Join(intro, " "); got != want {
			t.Fatalf("at %d columns the text reads\n%q, want\n%q\n%s", sz.w, got, want, out)
		}
		if !strings.Contains(out, "203.0.113.0/24  BI cluster") {
			t.Fatalf("at %d columns the entry is not shown:\n%s", sz.w, out)
		}

		// an address checked: its answer under the text, the height kept
		a.onCheck(ipCheckMsg{serviceID: v.ID, ip: "203.0.113.5", res: &api.IPAllowed{IsAllowed: true}})
		out = tuitest.View(a)
		if n := strings.Count(out, "\n") + 1; n != sz.h || !strings.Contains(out, a.checked) || !strings.Contains(out, "203.0.113.0/24") {
			t.Fatalf("at %dx%d with a check's answer (%d lines):\n%s", sz.w, sz.h, n, out)
		}
	}
}

// A service with one outbound IP at a wide terminal: one line, as before.
func TestAllowListIntroOneLineWhenItFits(t *testing.T) {
	v := svc(1, "ready")
	v.OutboundIPs = []string{"198.51.100.148"}
	got := introLines(v, 120)
	if len(got) != 1 || got[0] != " Addresses allowed to connect. Outbound IPs of this service: 198.51.100.148" {
		t.Fatalf("intro = %q", got)
	}
	if got := introLines(api.Service{}, 120); got[0] != " Addresses allowed to connect. Outbound IPs of this service: "+kit.OrDash("") {
		t.Fatalf("no outbound IPs: %q", got)
	}
}

// TestAllowListHintsWrapWhole: at 80 and 60 columns, n's hint, a wide
// network's warning and a check's answer wrap between words under the
// input, every address whole on a line, nothing cut ("… then a comment
// i~", "… may connect; ask~"), the view still its height with the table
// above them.
func TestAllowListHintsWrapWhole(t *testing.T) {
	v := svc(1, "ready")
	v.Name = "orders-prod"
	v.OutboundIPs = []string{"198.51.100.148"}
	v.Endpoints[0].AllowList = []api.AllowListEntry{{IP: "203.0.113.0/24", Comment: "BI cluster"}}
	for _, sz := range []struct{ w, h int }{{80, 20}, {60, 12}} {
		s := newScreen(sz.w, sz.h)
		feed(s, []api.Service{v})
		press(s, "a")
		press(s, "n")
		// what is under the input, as a reader reads it
		under := func(prompt string) (string, []string) {
			out := tuitest.View(s)
			lines := strings.Split(out, "\n")
			if len(lines) != sz.h {
				t.Fatalf("at %dx%d the allow list is %d lines:\n%s", sz.w, sz.h, len(lines), out)
			}
			for _, l := range lines {
				if ansi.StringWidth(l) > sz.w || strings.HasSuffix(strings.TrimRight(l, " "), s.common.Theme.Glyphs.Ellipsis) {
					t.Fatalf("at %d columns a line is cut: %q\n%s", sz.w, l, out)
				}
			}
			if !strings.Contains(out, "203.0.113.0/24  BI cluster") {
				t.Fatalf("at %dx%d the entry is not shown:\n%s", sz.w, sz.h, out)
			}
			for i, l := range lines {
				if strings.HasPrefix(strings.TrimSpace(l), prompt) {
					var words []string
					for _, h := range lines[i+1:] {
						words = append(words, strings.TrimSpace(h))
					}
					return strings.TrimSpace(strings.Join(words, " ")), lines[i+1:]
				}
			}
			t.Fatalf("no %q line:\n%s", prompt, out)
			return "", nil
		}
		for _, tc := range []struct{ typed, says string }{
			{"", "an address (a /32 is added for one host) or a CIDR network, then a comment if you like"},
			{"10.0.0.0/15", "warning: 10.0.0.0/15 is wider than /16: every address in it may connect; asked before adding"},
		} {
			if tc.typed != "" {
				s.Update(tea.PasteMsg{Content: tc.typed})
			}
			got, lines := under("add>")
			if got != tc.says {
				t.Errorf("at %d columns the hint reads\n%q, want\n%q", sz.w, got, tc.says)
			}
			if sz.w == 80 && len(lines) < 2 {
				t.Errorf("at 80 columns the hint is not wrapped, the test tests nothing: %q", lines)
			}
			if tc.typed != "" && !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, tc.typed) }) {
				t.Errorf("at %d columns %s is not whole on a line: %q", sz.w, tc.typed, lines)
			}
		}
		press(s, "ctrl+u") // nothing kept to add: the answer offers n
		press(s, "esc")
		// a check's answer, longer than a line at 60 columns
		s.Update(ipCheckMsg{serviceID: v.ID, ip: "203.0.113.5", res: &api.IPAllowed{}})
		out := tuitest.View(s)
		if n := strings.Count(out, "\n") + 1; n != sz.h {
			t.Fatalf("at %dx%d with a check's answer the view is %d lines:\n%s", sz.w, sz.h, n, out)
		}
		want := "203.0.113.5 is NOT allowed to connect to orders-prod (n adds it)"
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) || !strings.Contains(out, "203.0.113.5 is NOT") {
			t.Errorf("at %d columns the check's answer is not whole:\n%s", sz.w, out)
		}
	}
}

// TestAllowListInputsKeepTheirTextThroughEsc: what was typed to check (i)
// is there again at the next i after esc, as what was typed to add (n) is
// at the next n; neither takes the other's.
func TestAllowListInputsKeepTheirTextThroughEsc(t *testing.T) {
	a := newAllowView(tuitest.Common(), newKeyMap(), svc(1, "ready"), nil)
	a.SetSize(80, 20)
	typeIn := func(keys ...string) {
		for _, k := range keys {
			a.onKey(tuitest.KeyMsg(k))
		}
	}
	typeIn("i")
	for _, m := range tuitest.Typed("203.0.113.9") {
		a.onKey(m)
	}
	typeIn("esc", "n")
	if v := a.input.Value(); v != "" {
		t.Fatalf("n after a check's esc: the add input holds %q", v)
	}
	for _, m := range tuitest.Typed("198.51.100.0/24") {
		a.onKey(m)
	}
	typeIn("esc", "i")
	if v := a.input.Value(); v != "203.0.113.9" || !a.checking {
		t.Fatalf("i after esc: the check input holds %q, want 203.0.113.9", v)
	}
	typeIn("esc", "n")
	if v := a.input.Value(); v != "198.51.100.0/24" || !a.adding {
		t.Fatalf("n after esc: the add input holds %q, want 198.51.100.0/24", v)
	}
}

// checkedAddress presses i on the open allow list of s, types ip and
// enter, and answers the check it asks with allowed.
func checkedAddress(t *testing.T, s *Screen, ip string, allowed bool) {
	t.Helper()
	press(s, "i")
	for _, m := range tuitest.Typed(ip) {
		s.Update(m)
	}
	m, ok := press(s, "enter")().(ipCheckMsg)
	if !ok || m.ip != ip {
		t.Fatalf("enter did not check %s: %#v", ip, m)
	}
	m.err, m.res = nil, &api.IPAllowed{IsAllowed: allowed}
	s.Update(m)
}

// TestAllowListCheckAskedAgainWhenTheListChanges: an address checked,
// then its entry removed: the answer "is allowed" is not left under a
// list that no longer allows it; the address is checked again (the
// answer meanwhile says so) and the new answer shows. An answer to the
// check asked before the change, arriving late, is dropped.
func TestAllowListCheckAskedAgainWhenTheListChanges(t *testing.T) {
	s, v := allowListOf("orders-qa01", 80, 20, api.AllowListEntry{IP: "203.0.113.7/32", Comment: "office"})
	checkedAddress(t, s, "203.0.113.7", true)
	allowed := "203.0.113.7 is allowed to connect to orders-qa01"
	if out := tuitest.View(s); !strings.Contains(out, allowed) {
		t.Fatalf("no answer:\n%s", out)
	}
	stale := ipCheckMsg{serviceID: v.ID, ip: "203.0.113.7", seq: s.allow.checkSeq, res: &api.IPAllowed{IsAllowed: true}}

	// the entry removed: the remove's answer is the list, now empty
	_, cmd := s.Update(kit.ActionDoneMsg{Tag: allowTag{serviceID: v.ID, ip: "203.0.113.7/32"},
		Result: []api.AllowListGroup{{Name: "primary"}}})
	out := tuitest.View(s)
	if strings.Contains(out, allowed) || !strings.Contains(out, "no entries: no address may connect") {
		t.Fatalf("after the entry's removal the old answer stays:\n%s", out)
	}
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "the allow list changed: checking 203.0.113.7 again") {
		t.Fatalf("the answer does not say the address is checked again:\n%s", out)
	}
	if cmd == nil {
		t.Fatal("the address is not checked again")
	}
	again, ok := cmd().(ipCheckMsg)
	if !ok || again.ip != "203.0.113.7" {
		t.Fatalf("checked again: %#v", again)
	}
	s.Update(stale) // the first check's answer, late
	if out := tuitest.View(s); strings.Contains(out, allowed) {
		t.Fatalf("a late answer of before the change is shown:\n%s", out)
	}
	again.err, again.res = nil, &api.IPAllowed{IsAllowed: false}
	s.Update(again)
	if out := tuitest.View(s); !strings.Contains(strings.Join(strings.Fields(out), " "), "203.0.113.7 is NOT allowed to connect to orders-qa01") {
		t.Fatalf("the new answer is not shown:\n%s", out)
	}
	// the poll reading the same list asks nothing again
	_, cmd = s.Update(kit.DataMsg{Key: kit.AllowListKey(v.ID).String(), Data: []api.AllowListGroup{{Name: "primary"}}, At: now})
	if cmd != nil {
		t.Fatal("an unchanged list checked the address again")
	}
}

// TestAllowListAddOfAListedAddress: n with an address the list has
// already says so with its comment as it is typed; with the same comment
// or none, enter sends nothing and keeps what was typed; with another
// comment, enter asks yes/no before replacing the comment, naming both.
func TestAllowListAddOfAListedAddress(t *testing.T) {
	v := svc(1, "ready")
	v.Name = "orders-prod"
	v.Endpoints[0].AllowList = []api.AllowListEntry{{IP: "198.51.100.0/24", Comment: "app servers"}}
	for _, typed := range []string{"198.51.100.0/24", "198.51.100.0/24 app servers"} {
		s := newScreen(100, 24)
		feed(s, []api.Service{v})
		press(s, "a")
		press(s, "n")
		s.Update(tea.PasteMsg{Content: typed})
		out := strings.Join(strings.Fields(tuitest.View(s)), " ")
		if !strings.Contains(out, `198.51.100.0/24 is in the allow list already with the comment "app servers"`) {
			t.Fatalf("%q: the hint does not say it is listed:\n%s", typed, tuitest.View(s))
		}
		// enter would do nothing: the footer does not offer it
		if slices.ContainsFunc(s.KeyMap().ShortHelp(), func(b key.Binding) bool { return b.Help().Key == "enter" }) {
			t.Errorf("%q: the footer offers enter, which adds nothing: %v", typed, helpKeys(s.KeyMap().ShortHelp()))
		}
		if cmd := press(s, "enter"); cmd != nil {
			if _, ok := cmd().(kit.ActionRequestMsg); ok {
				t.Fatalf("%q: a listed address was sent", typed)
			}
		}
		if got := s.allow.input.Value(); got != typed || !s.allow.adding {
			t.Fatalf("%q: what was typed was lost: %q", typed, got)
		}
	}

	s := newScreen(100, 24)
	feed(s, []api.Service{v})
	press(s, "a")
	press(s, "n")
	s.Update(tea.PasteMsg{Content: "198.51.100.0/24 new app tier"})
	out := strings.Join(strings.Fields(tuitest.View(s)), " ")
	if !strings.Contains(out, `warning: 198.51.100.0/24 is in the allow list already with the comment "app servers"; asked before replacing it with "new app tier"`) {
		t.Fatalf("the hint does not warn:\n%s", tuitest.View(s))
	}
	if !slices.ContainsFunc(s.KeyMap().ShortHelp(), func(b key.Binding) bool { return b.Help().Desc == "replace comment" }) {
		t.Errorf("the footer does not say enter replaces the comment: %v", s.KeyMap().ShortHelp())
	}
	req, ok := press(s, "enter")().(kit.ActionRequestMsg)
	if !ok || !req.Action.Mutating {
		t.Fatalf("action = %#v", req)
	}
	c := req.Action.Confirm
	if c.Kind != kit.ConfirmYesNo || c.Title != "Replace the comment?" ||
		!strings.Contains(c.Detail, `with the comment "app servers". Replace its comment with "new app tier"?`) || !strings.Contains(c.Detail, "orders-prod") {
		t.Fatalf("confirmation = %#v", c)
	}
	if got := req.Action.Success(nil); got != `the comment of 198.51.100.0/24 in the allow list of orders-prod is now "new app tier"` {
		t.Fatalf("success = %q", got)
	}
}

// TestAllowListRemoveOnAnEmptyList: with no entry, d leaves the footer,
// and pressed anyway it says there is nothing to remove.
func TestAllowListRemoveOnAnEmptyList(t *testing.T) {
	s, v := allowListOf("orders-qa01", 100, 24)
	for _, b := range s.KeyMap().ShortHelp() {
		if b.Help().Key == "d" {
			t.Fatalf("the footer offers d on an empty list: %v", b.Help())
		}
	}
	cmd := press(s, "d")
	if cmd == nil {
		t.Fatal("d on an empty list says nothing")
	}
	if m, ok := cmd().(kit.ToastMsg); !ok || m.Text != "the allow list of orders-qa01 has no entry to remove" {
		t.Fatalf("d on an empty list: %#v", m)
	}
	// with an entry, d is offered
	v.Endpoints[0].AllowList = []api.AllowListEntry{{IP: "203.0.113.7/32"}}
	s.Update(kit.DataMsg{Key: kit.AllowListKey(v.ID).String(), Data: []api.AllowListGroup{{Name: "primary", AllowList: v.Endpoints[0].AllowList}}, At: now})
	if !slices.ContainsFunc(s.KeyMap().ShortHelp(), func(b key.Binding) bool { return b.Help().Key == "d" }) {
		t.Fatal("d is not offered with an entry")
	}
}

// helpKeys are the keys of bindings, as a footer shows them.
func helpKeys(b []key.Binding) []string {
	var out []string
	for _, x := range b {
		out = append(out, x.Help().Key+" "+x.Help().Desc)
	}
	return out
}

// TestAllowListKeysAfterTheCommentIsReplaced: once a replaced comment is
// done, the footer and ? are the list's again (n, d, i), not the
// question's "enter replace comment".
func TestAllowListKeysAfterTheCommentIsReplaced(t *testing.T) {
	s, _ := allowListOf("orders-prod", 100, 24, api.AllowListEntry{IP: "203.0.113.10/32", Comment: "office VPN"})
	press(s, "n")
	s.Update(tea.PasteMsg{Content: "203.0.113.10 office LAN"})
	req, ok := press(s, "enter")().(kit.ActionRequestMsg)
	if !ok || req.Action.Confirm.Title != "Replace the comment?" {
		t.Fatalf("enter did not ask to replace the comment: %#v", req)
	}
	s.Update(kit.ActionDoneMsg{Name: req.Action.Name, Tag: req.Action.Tag, Result: []api.AllowListGroup{{Name: "primary",
		AllowList: []api.AllowListEntry{{IP: "203.0.113.10/32", Comment: "office LAN"}}}}})
	if out := tuitest.View(s); !strings.Contains(out, "office LAN") {
		t.Fatalf("the list does not show the new comment:\n%s", out)
	}
	var full []key.Binding
	for _, col := range s.KeyMap().FullHelp() {
		full = append(full, col...)
	}
	for _, keys := range [][]key.Binding{s.KeyMap().ShortHelp(), full} {
		got := helpKeys(keys)
		for _, want := range []string{"n add entry", "d remove entry", "i check an IP"} {
			if !slices.Contains(got, want) {
				t.Errorf("after the comment was replaced the keys lack %q: %v", want, got)
			}
		}
		if slices.Contains(got, "enter replace comment") {
			t.Errorf("after the comment was replaced the keys still offer it: %v", got)
		}
	}
}

// allowListOf is the Services screen at w x h with the allow list open of
// a ready service named name that allows entries, and that service.
func allowListOf(name string, w, h int, entries ...api.AllowListEntry) (*Screen, api.Service) {
	s := newScreen(w, h)
	return s, openAllowListOf(s, name, entries...)
}

// openAllowListOf feeds s a ready service named name that allows entries,
// the only one listed, and opens its allow list (a); it returns the
// service.
func openAllowListOf(s *Screen, name string, entries ...api.AllowListEntry) api.Service {
	v := svc(1, "ready")
	v.Name = name
	v.Endpoints[0].AllowList = entries
	feed(s, []api.Service{v})
	press(s, "a")
	return v
}

// TestAllowListFilterKeysAndEsc: while a filter is typed the footer is
// the filter's (enter keeps it, esc clears it), on a read-only profile
// too; once kept, esc clears it first (the footer says so) and only the
// next esc leaves the allow list, as on every other list.
func TestAllowListFilterKeysAndEsc(t *testing.T) {
	for _, readOnly := range []bool{false, true} {
		s, _ := allowListOf("orders-prod", 100, 24,
			api.AllowListEntry{IP: "203.0.113.10/32", Comment: "bastion"},
			api.AllowListEntry{IP: "198.51.100.0/24", Comment: "app servers"})
		s.common.ReadOnly = readOnly
		for _, k := range []string{"/", "b", "a", "s"} {
			press(s, k)
		}
		if got := helpKeys(s.KeyMap().ShortHelp()); !slices.Equal(got, []string{"enter keep filter", "esc clear filter"}) {
			t.Errorf("read-only %v: typing the filter, the footer is %v", readOnly, got)
		}
		press(s, "enter")
		out := tuitest.View(s)
		if !strings.Contains(out, "bastion") || strings.Contains(out, "app servers") {
			t.Fatalf("read-only %v: the kept filter shows:\n%s", readOnly, out)
		}
		got := helpKeys(s.KeyMap().ShortHelp())
		if !slices.Contains(got, "esc clear filter") || slices.Contains(got, "esc back") {
			t.Errorf("read-only %v: with a filter kept, the footer is %v", readOnly, got)
		}
		press(s, "esc")
		out = tuitest.View(s)
		if !strings.Contains(out, "Allow list") || !strings.Contains(out, "app servers") {
			t.Fatalf("read-only %v: esc with a filter kept did not clear it in the allow list:\n%s", readOnly, out)
		}
		if got := helpKeys(s.KeyMap().ShortHelp()); !slices.Contains(got, "esc back") {
			t.Errorf("read-only %v: with the filter cleared, the footer is %v", readOnly, got)
		}
		press(s, "esc")
		if out := tuitest.View(s); strings.Contains(out, "Allow list") {
			t.Fatalf("read-only %v: the second esc did not leave the allow list:\n%s", readOnly, out)
		}
	}
}
