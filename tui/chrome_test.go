package tui

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/tuitest"
)

// headerLine is the frame's first line, without the spaces at its end.
func headerLine(h *harness) string {
	return strings.TrimRight(strings.Split(h.Screen(), "\n")[0], " ")
}

// footerLine is the frame's last line, without the spaces at its end.
func footerLine(h *harness) string {
	lines := strings.Split(h.Screen(), "\n")
	return strings.TrimRight(lines[len(lines)-1], " ")
}

// The header paused and not, at 80 and 60 columns, on the demo and on a
// read-only profile with an org: the profile (and the org), the badges,
// "paused" and how old the data is stay, whole; what is short of room
// goes in its order (the host, "(p resumes)", the app's name, the word
// "profile"), and no word is cut.
func TestPausedHeaderKeepsWhatMatters(t *testing.T) {
	const host = "127.0.0.1:8080"
	type account struct {
		name string
		open func(t *testing.T, w, h int) (*harness, func(time.Duration))
	}
	demo := account{"demo", func(t *testing.T, w, hh int) (*harness, func(time.Duration)) {
		h, _, clk := demoHarness(t, w, hh, nil)
		return h, clk.Advance
	}}
	prod := account{"prod-ro", func(t *testing.T, w, hh int) (*harness, func(time.Duration)) {
		srv, clk, _ := tuitest.Sandbox(t, true)
		c := tuitest.Client(t, srv, api.Config{APIKey: tuitest.TestKey, Org: "my-org"})
		return newHarness(t, Options{Client: c, Profile: "prod-ro", ReadOnly: true, Now: clk.Now, SlowInterval: 30 * time.Second}, w, hh), clk.Advance
	}}
	cases := []struct {
		acct       account
		w, h       int
		paused     bool
		want, lack []string
	}{
		{demo, 80, 24, false, []string{"skytui", "profile demo", host, "DEMO", "updated 12s ago"}, nil},
		{demo, 80, 24, true, []string{"skytui", "profile demo", "DEMO", "paused (p resumes)  updated 12s ago"}, []string{host}},
		{demo, 60, 16, false, []string{"skytui", "profile demo", "DEMO", "updated 12s ago"}, []string{host}},
		{demo, 60, 16, true, []string{"skytui", "profile demo", "DEMO", "paused  updated 12s ago"}, []string{host, "(p resumes)"}},
		{prod, 80, 24, false, []string{"skytui", "profile prod-ro", "org my-org", "READ-ONLY", "updated 12s ago"}, []string{host}},
		{prod, 80, 24, true, []string{"skytui", "profile prod-ro", "org my-org", "READ-ONLY", "paused  updated 12s ago"}, []string{host, "(p resumes)"}},
		{prod, 60, 16, false, []string{"profile prod-ro", "org my-org", "READ-ONLY", "updated 12s ago"}, []string{host, "skytui"}},
		{prod, 60, 16, true, []string{"prod-ro", "org my-org", "READ-ONLY", "paused  updated 12s ago"}, []string{host, "skytui", "profile", "(p resumes)"}},
	}
	for _, tc := range cases {
		state := "polling"
		if tc.paused {
			state = "paused"
		}
		t.Run(fmt.Sprintf("%s_%s_%d", tc.acct.name, state, tc.w), func(t *testing.T) {
			h, advance := tc.acct.open(t, tc.w, tc.h)
			if tc.paused {
				h.Key("p")
			}
			advance(12 * time.Second)
			h.Send(clockMsg{})
			head := headerLine(h)
			for _, w := range tc.want {
				if !strings.Contains(head, w) {
					t.Errorf("header lacks %q:\n%q", w, head)
				}
			}
			for _, l := range tc.lack {
				if strings.Contains(head, l) {
					t.Errorf("header still has %q (it should have gone first):\n%q", l, head)
				}
			}
			// how old the data is ends the line, whole
			if !strings.HasSuffix(head, "updated 12s ago") {
				t.Errorf("header does not end with how old the data is:\n%q", head)
			}
			// every word is one of the whole header's: none is cut
			whole := strings.Fields("skytui profile " + tc.acct.name + " " + host + " org my-org DEMO READ-ONLY paused (p resumes) updated 12s ago")
			for _, w := range strings.Fields(head) {
				if !slices.Contains(whole, w) {
					t.Errorf("header has %q, a word cut or not expected:\n%q", w, head)
				}
			}
		})
	}
}

// At 80 columns (and 60) the footer of a form or of the restore wizard
// names esc, the way back out, whole: ? is typed into the field there, so
// nothing else would say it; entries that do not fit go whole, a list's
// movement keys first and together.
func TestFormFooterKeepsEsc(t *testing.T) {
	cases := []struct {
		name string
		keys []string
		esc  string
	}{
		{"create_service", []string{"n"}, "esc cancel (keeps input)"},
		{"new_backup", []string{"2", "n"}, "esc cancel (keeps input)"},
		{"restore_source", []string{"3", "n"}, "esc back (keeps input)"},
		{"restore_target", []string{"3", "n", "1"}, "esc back (keeps input)"},
		{"restore_backups", nil, "esc back (keeps input)"},
		// the new service's review: n, every choice as offered, a name,
		// then on through nodes, SSL and the allow list
		{"service_review", slices.Concat([]string{"n", "enter", "enter", "enter", "enter", "enter", "enter", "enter", "enter"},
			strings.Split("orders-db3", ""), []string{"tab", "tab", "tab", "tab"}), "esc cancel"},
		// a new backup's review: n, the type, once, managed storage
		{"backup_review", []string{"2", "n", "enter", "enter", "enter"}, "esc cancel"},
	}
	for _, size := range [][2]int{{80, 24}, {60, 16}} {
		for _, tc := range cases {
			t.Run(fmt.Sprintf("%s_%d", tc.name, size[0]), func(t *testing.T) {
				h, _, _ := demoHarness(t, size[0], size[1], nil)
				if tc.keys == nil {
					rstToManagedBackup(h, "dev-serverless", "analytics-gcp")
				}
				for _, k := range tc.keys {
					h.Key(k)
				}
				review := map[string]string{"service_review": "Review: this is the request", "backup_review": "POST /backup/v1/backups"}[tc.name]
				if review != "" && !strings.Contains(h.Screen(), review) {
					t.Fatalf("not on the review:\n%s", h.Screen())
				}
				foot := footerLine(h)
				if !strings.Contains(foot, tc.esc) || review != "" && !strings.Contains(foot, "enter ") {
					t.Fatalf("footer at %d columns lacks %q:\n%q\n%s", size[0], tc.esc, foot, h.Screen())
				}
				if strings.Contains(foot, "up/k") != strings.Contains(foot, "down/j") {
					t.Errorf("footer shows half of the movement keys: %q", foot)
				}
				if strings.HasSuffix(foot, "~") || strings.HasSuffix(foot, "…") {
					t.Errorf("footer cut: %q", foot)
				}
			})
		}
	}
}

// TestFailedRefreshIsLoggedWhole: a refresh that fails while data is shown
// says in the header how old the data is and the start of why (at 80
// columns the host gives way to it, rather than a dash with nothing after
// it); the log keeps the failure once (a reason once), however often it
// is retried, with its status, message and trace ID whole, and says when
// it works again. Paused, the header promises no retry.
func TestFailedRefreshIsLoggedWhole(t *testing.T) {
	h, srv, clk := demoHarness(t, 80, 24, nil)
	h.Sees("orders-prod")
	srv.SetFaults(sandbox.Faults{ErrorRate: 1})
	for range 3 {
		clk.Advance(14 * time.Second)
		h.Key("r")
	}
	head := strings.Split(h.Screen(), "\n")[0]
	if !regexp.MustCompile(`stale \d\d:\d\d:\d\d, retry \d\d:\d\d:\d\d . HTTP 50\d`).MatchString(head) {
		t.Fatalf("the stale header does not say why: %q", head)
	}
	var failed []logEntry
	for _, e := range h.m.msgs.entries {
		if strings.HasPrefix(e.text, "refresh of the services listing failed: HTTP 50") {
			failed = append(failed, e)
		}
	}
	// the sandbox fails with a 500 or a 503: each reason once
	seen := map[string]bool{}
	for _, e := range failed {
		if seen[e.text] {
			t.Fatalf("the same failure is logged again: %q", e.text)
		}
		seen[e.text] = true
	}
	if len(failed) == 0 {
		t.Fatalf("the failure is not in the log: %+v", h.m.msgs.entries)
	}
	fields := failed[0].copyText()
	for _, want := range []string{"status: 50", "message: ", "trace ID: ", "request: GET "} {
		if !strings.Contains(fields, want) {
			t.Errorf("the log entry lacks %q:\n%s", want, fields)
		}
	}
	// paused, nothing is retried: no retry time is promised
	h.Key("p")
	if head := strings.Split(h.Screen(), "\n")[0]; strings.Contains(head, "retry") || !strings.Contains(head, "stale") {
		t.Fatalf("paused while a refresh fails, the header says %q", head)
	}
	h.Key("p")
	srv.SetFaults(sandbox.Faults{})
	clk.Advance(time.Minute)
	h.Key("r")
	again := false
	for _, e := range h.m.msgs.entries {
		again = again || e.text == "refresh of the services listing works again"
	}
	if !again {
		t.Fatalf("the recovery is not logged: %+v", h.m.msgs.entries)
	}
}

// TestStaleHeaderKeepsItsSpacing: without a badge before it, the failing
// refresh's text keeps two spaces from the profile however long its
// reason (it lost them: "profile skysql stale 05:29:28, …").
func TestStaleHeaderKeepsItsSpacing(t *testing.T) {
	h, srv, clk := demoHarness(t, 80, 24, func(o *Options) { o.Demo = false; o.Profile = "skysql" })
	h.Sees("orders-prod")
	srv.SetFaults(sandbox.Faults{ErrorRate: 1})
	clk.Advance(14 * time.Second)
	h.Key("r")
	if head := strings.Split(h.Screen(), "\n")[0]; !regexp.MustCompile(`skysql  +(\S+  +)?stale `).MatchString(head) {
		t.Errorf("the stale text is not set apart: %q", head)
	}
}

// TestStoppedHeaderKeepsLogin: with no API key (esc at the first prompt) or
// a key the API refused, the header's hint keeps ":login", whole, at 80
// and 60 columns: the host gives way first, then the hint its longer
// words; the profile's name stays.
func TestStoppedHeaderKeepsLogin(t *testing.T) {
	cases := []struct {
		name string
		w    int
		key  string // "" opens the first-run key prompt, esc closes it
		want []string
		end  string
	}{
		{"nokey", 80, "", []string{"skytui  profile skysql", "no API key for this profile - :login to enter one"}, ":login to enter one"},
		{"nokey", 60, "", []string{"skytui  profile skysql", "no API key - :login"}, "- :login"},
		{"refused", 80, "wrong-key", []string{"skytui  profile skysql", "API key refused (401) - :login or r"}, ":login or r"},
		{"refused", 60, "wrong-key", []string{" profile skysql", "API key refused (401) - :login or r"}, ":login or r"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s_%d", tc.name, tc.w), func(t *testing.T) {
			h := stoppedHarness(t, tc.w, tc.key)
			head := headerLine(h)
			for _, w := range tc.want {
				if !strings.Contains(head, w) {
					t.Errorf("header lacks %q:\n%q", w, head)
				}
			}
			if strings.Contains(head, "127.0.0.1") {
				t.Errorf("header keeps the host, which goes first:\n%q", head)
			}
			if !strings.HasSuffix(head, tc.end) {
				t.Errorf("header does not end with the hint, whole:\n%q", head)
			}
		})
	}
}

// stoppedHarness is profile skysql at w columns whose polling stopped: with
// no API key (key "", the first prompt closed) or with a key the API
// refuses.
func stoppedHarness(t *testing.T, w int, key string) *harness {
	t.Helper()
	srv, clk, _ := tuitest.Sandbox(t, true)
	if key == "" {
		fl := &fakeLogin{srv: srv, stored: map[string]string{}}
		h := newHarness(t, Options{Client: tuitest.Client(t, srv, api.Config{}), Profile: "skysql", NeedKey: true, Login: fl.login, Now: clk.Now}, w, 24)
		h.Key("esc")
		return h
	}
	h := newHarness(t, Options{Client: tuitest.Client(t, srv, api.Config{APIKey: key}), Profile: "skysql", Now: clk.Now}, w, 24)
	h.Sees("API key refused")
	return h
}
