package services

import (
	"strings"
	"testing"

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
		a := newAllowView(tuitest.Common(), newKeyMap(), v)
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
		a.checked = "203.0.113.5 is allowed to connect to " + v.Name
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
