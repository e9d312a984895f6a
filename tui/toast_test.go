package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/charmbracelet/x/ansi"
	"github.com/skytui/skytui/kit"
)

// TestQueuedToastsShowInTurn: a warning covered by a newer toast is not
// lost: when the newer one's time is up, the covered one shows for its
// own whole time, and "(+n)" counts those waiting. News (info, done) gives
// way to a newer toast and does not come back (shown after newer news it
// would read as the present), unless both came in one burst.
func TestQueuedToastsShowInTurn(t *testing.T) {
	now := t0
	h := newHarness(t, Options{Profile: "test", Now: func() time.Time { return now },
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{&fakeScreen{id: "a"}} }}, 100, 30)
	line := func() string {
		for _, l := range strings.Split(h.Screen(), "\n") {
			if strings.Contains(l, "first") || strings.Contains(l, "second") || strings.Contains(l, "third") || strings.Contains(l, "schedule") {
				return strings.TrimPrefix(strings.TrimSpace(l), "! ")
			}
		}
		return ""
	}
	// shows: the toast's line is want, or the test stops saying what
	// (a format for the line shown)
	shows := func(want, what string) {
		t.Helper()
		if got := line(); got != want {
			t.Fatalf(what, got)
		}
	}
	expire := func(tm tea.Msg) bool { _, ok := tm.(toastExpireMsg); return ok }
	warn := func(texts ...string) {
		for _, text := range texts {
			h.Send(kit.ToastMsg{Level: kit.ToastWarn, Text: text})
		}
	}
	warn("first", "second", "third")
	shows("third  (+2)", "newest first: %q")
	// every timer armed so far is up: only the front's counts
	h.Fire(expire)
	shows("second  (+1)", "after the newest's time: %q")
	h.Fire(expire)
	shows("first", "after the second's time: %q")
	h.Fire(expire)
	shows("", "all shown, still %q")
	// the same message again (a refused key pressed twice) waits once
	warn("second", "first", "second")
	shows("second  (+1)", "the same warning twice: %q")
	h.Fire(expire)
	shows("first", "after the repeated warning's time: %q")
	h.Fire(expire)
	shows("", "the repeated warning came back: %q")
	h.Send(kit.ToastMsg{Level: kit.ToastSuccess, Text: "schedule 6 created"})
	now = now.Add(3 * time.Second)
	h.Send(kit.ToastMsg{Level: kit.ToastSuccess, Text: "schedule 6 deleted"})
	shows("ok schedule 6 deleted", "news after news: %q")
	h.Fire(expire)
	shows("", "the older news came back: %q")
	// news in one burst (a restore's end, its target ready) waits its turn
	h.Send(kit.ToastMsg{Level: kit.ToastSuccess, Text: "schedule 7 created"})
	h.Send(kit.ToastMsg{Level: kit.ToastInfo, Text: "schedule 7 runs daily"})
	h.Fire(expire)
	shows("ok schedule 7 created", "news of one burst: %q")
}

// typingScreen has a field with the keys, as a form does.
type typingScreen struct{ *fakeScreen }

func (typingScreen) CapturesKeys() bool { return true }

func (s typingScreen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	_, cmd := s.fakeScreen.Update(msg)
	return s, cmd
}

// While a field has the keys, a long error keeps to its one line, so it
// never covers the field being typed in, and its hint says that L and X
// work once out of the field (in it they type: X reaches the screen).
func TestErrorToastKeepsOffTheFieldBeingTyped(t *testing.T) {
	s := typingScreen{&fakeScreen{id: "a"}}
	h := newHarness(t, Options{Profile: "test", Now: func() time.Time { return t0 },
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{s} }}, 100, 30)
	long := "restore into staging-eu failed: 404 Not Found: backup not-a-key not found — Use the id (key) of a backup from GET /backups?service_id=<source service>. (POST /backup/v1/restores, trace 00a16a385f)"
	h.Send(kit.ToastMsg{Level: kit.ToastError, Text: long})
	var lines []string
	for _, l := range strings.Split(h.Screen(), "\n") {
		if strings.Contains(l, "restore into staging-eu") || strings.Contains(l, "trace 00a16") || strings.Contains(l, "dismiss") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "(out of the field: L log, X dismiss)") {
		t.Fatalf("the error takes %d lines while a field has the keys: %q", len(lines), lines)
	}
	h.Key("X")
	if !strings.Contains(h.Screen(), "restore into staging-eu") {
		t.Fatal("X typed in a field dismissed the error")
	}
}

// A toast that is not an error and waited its turn too long is dropped
// unshown (it is in the log): news (info, done) after staleNews, a
// warning after staleToast. Shown after newer news it would read as the
// present ("schedule 6 created" after "schedule 6 deleted"). An error
// waits for as long as it takes.
func TestStaleToastsDropped(t *testing.T) {
	for _, tc := range []struct {
		toasts      []kit.ToastMsg
		wait        time.Duration
		gone, shown string
	}{
		{[]kit.ToastMsg{{Level: kit.ToastWarn, Text: "accepted; the answer could not be read"},
			{Level: kit.ToastSuccess, Text: "backup schedule 6 created"}, {Level: kit.ToastSuccess, Text: "backup schedule 6 deleted"}},
			12 * time.Second, "schedule 6 created", "accepted; the answer could not be read"},
		{[]kit.ToastMsg{{Level: kit.ToastError, Text: "delete schedule 9 failed: 503"},
			{Level: kit.ToastSuccess, Text: "change schedule 9: done"}, {Level: kit.ToastInfo, Text: "copied the password"}},
			time.Minute, "change schedule 9: done", "delete schedule 9 failed"},
	} {
		now := t0
		h := newHarness(t, Options{Profile: "test", Now: func() time.Time { return now },
			Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{&fakeScreen{id: "a"}} }}, 100, 30)
		for _, m := range tc.toasts {
			h.Send(m)
		}
		now = now.Add(tc.wait)
		h.Fire(func(tm tea.Msg) bool { _, ok := tm.(toastExpireMsg); return ok })
		if scr := h.Screen(); strings.Contains(scr, tc.gone) || !strings.Contains(scr, tc.shown) {
			t.Fatalf("%v later, after the newest, the queue shows:\n%s", tc.wait, scr)
		}
	}
}

// An error longer than its three lines gives up its request first (the
// log keeps it), then loses its middle, never its end: the status and the
// message start on the first line, and the trace ID stays on the last,
// with how to read it whole; a cut starts at a whole word.
func TestLongErrorKeepsItsTraceID(t *testing.T) {
	h := newHarness(t, Options{Profile: "test", Now: func() time.Time { return t0 },
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{&fakeScreen{id: "a"}} }}, 80, 24)
	long := "start legacy-batch failed: 409 Conflict: service dbtaf65932198 is in a pending state (pending_start); try again once it is ready " +
		strings.Repeat("— Wait until the service status is ready, then retry. ", 3) + "(POST /provisioning/v1/services/dbtaf65932198/start, trace 4bf92f3577b34da6)"
	h.Send(kit.ToastMsg{Level: kit.ToastError, Text: long})
	scr := h.Screen()
	for _, want := range []string{"error: start legacy-batch failed: 409 Conflict", "once it is ready (trace", "4bf92f3577b34da6)  (L log, X dismiss)"} {
		if !strings.Contains(scr, want) {
			t.Errorf("the error lacks %q:\n%s", want, scr)
		}
	}
	for _, l := range strings.Split(scr, "\n") {
		if w := ansi.StringWidth(l); w > 80 {
			t.Errorf("a line of %d cells: %q", w, l)
		}
	}

	// a refusal with the API's solution: at 80x24 (four lines) the
	// solution is whole, the request gave way; at 60x16 (three) the
	// solution goes too, and the message's last words, before the
	// brackets (it was cut to "~37010…)", "(trace" lost); the trace ID
	// stays, labelled
	stop := "stop replica-west failed: 409 Conflict: service dbtaf93155232 is in a pending state (pending_stop); try again once it is ready — Wait until the service status is ready, then retry. (POST /provisioning/v1/services/dbtaf93155232/stop, trace 37010fa177a482ea71b923cbfba267b3)"
	for _, sz := range []struct {
		w, h int
		want string
	}{{80, 24, "— Wait until the service status is ready, then retry. (trace 37010fa177a482ea71b923cbfba267b3) (L log, X dismiss)"}, {60, 16, " ~ (trace 37010fa177a482ea71b923cbfba267b3) (L log, X dismiss)"}} {
		h := newHarness(t, Options{Profile: "test", Now: func() time.Time { return t0 },
			Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{&fakeScreen{id: "a"}} }}, sz.w, sz.h)
		h.Send(kit.ToastMsg{Level: kit.ToastError, Text: stop})
		scr := strings.Split(h.Screen(), "\n")
		got := strings.Join(strings.Fields(strings.Join(scr[len(scr)-1-h.m.errorLines():len(scr)-1], " ")), " ")
		if !strings.HasPrefix(got, "error: stop replica-west failed: 409 Conflict: service dbtaf93155232 is in a pending state") || !strings.HasSuffix(got, sz.want) {
			t.Errorf("%dx%d: the error reads %q", sz.w, sz.h, got)
		}
	}
}

// TestWithoutRequest: the request goes from an error's closing brackets,
// what else they hold stays.
func TestWithoutRequest(t *testing.T) {
	for in, want := range map[string]string{
		"x failed: 409 Conflict: busy (POST /a/b, trace 01)":                   "x failed: 409 Conflict: busy (trace 01)",
		"x failed: 429 Too Many Requests (retry after 5m0s, GET /a, trace 02)": "x failed: 429 Too Many Requests (retry after 5m0s, trace 02)",
		"x failed: 500 Internal Server Error (GET /a)":                         "x failed: 500 Internal Server Error",
		"no brackets here": "no brackets here",
	} {
		if got := withoutRequest(in); got != want {
			t.Errorf("withoutRequest(%q) = %q, want %q", in, got, want)
		}
	}
	// the API's solution goes the same way, the brackets after it stay
	if got := withoutSolution("x failed: 409 Conflict: busy — Wait (a while), then retry. (trace 01)"); got != "x failed: 409 Conflict: busy (trace 01)" {
		t.Errorf("withoutSolution: %q", got)
	}
}

// While a dialog is in front (the :profile picker types a filter) an
// error keeps to one line and says L and X work once it is closed.
func TestErrorToastUnderADialog(t *testing.T) {
	h := newHarness(t, Options{Profile: "test", Now: func() time.Time { return t0 },
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{&fakeScreen{id: "a"}} }}, 100, 30)
	h.Send(kit.ToastMsg{Level: kit.ToastError, Text: "delete schedule 9 failed: 503 Service Unavailable (trace 1f2e)"})
	h.Send(kit.OpenDialogMsg{Dialog: kit.NewConfirm(h.m.common, 1, kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Delete?"})})
	if scr := h.Screen(); !strings.Contains(scr, "(once the dialog is closed: L log, X dismiss)") {
		t.Fatalf("under a dialog the error says:\n%s", scr)
	}
	// at 60 columns, with more waiting, the hint is short: the error's own
	// words keep the line (they had a few letters left)
	h = newHarness(t, Options{Profile: "test", Now: func() time.Time { return t0 },
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{&fakeScreen{id: "a"}} }}, 60, 16)
	for _, n := range []string{"zzz1", "zzz2", "zzz3"} {
		h.Send(kit.ToastMsg{Level: kit.ToastError, Text: `no service named "` + n + `"; still showing all services`})
	}
	h.Send(kit.OpenDialogMsg{Dialog: kit.NewConfirm(h.m.common, 1, kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Delete?"})})
	scr := strings.Split(h.Screen(), "\n")
	if msg := scr[len(scr)-2]; !strings.Contains(msg, `error: no service named "zzz3"`) || !strings.Contains(msg, "(L/X once closed)") {
		t.Fatalf("at 60 columns under a dialog the error line is %q", msg)
	}
}

// p then p: the "paused" toast does not wait behind "resumed" to show
// afterwards, saying the opposite of what is true.
func TestPauseResumeToastsReplaceEachOther(t *testing.T) {
	h := newHarness(t, Options{Profile: "test", Now: func() time.Time { return t0 },
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{&fakeScreen{id: "a"}} }}, 100, 30)
	h.Key("p")
	h.Key("p")
	var texts []string
	for _, tt := range h.m.toasts {
		texts = append(texts, tt.text)
	}
	if len(texts) != 1 || texts[0] != "auto-refresh resumed" {
		t.Fatalf("toasts after p p: %q", texts)
	}
}

// Two errors at once: the one in front says "(+1)", and its hint goes
// below with the text's last words, so the message line (above the
// footer) always carries the error's text, never only "(+1)  (L log, X
// dismiss)" under a line that reads as the body's; the whole text is on
// the error's lines, at 80x24 and at 60x16, for a short error as for a
// refusal with its status, message and trace ID, and so is the older
// error once the newer one's time is up.
func TestTwoErrorsAtOnceKeepTheirText(t *testing.T) {
	refusal := "backup of orders-prod failed: 409 Conflict: a backup is running (POST /backup/v1/backups, trace 4bf92f35)"
	for _, sz := range [][2]int{{80, 24}, {60, 16}} {
		for _, texts := range [][2]string{
			{`no service named "zzz1"; still showing all services`, `no service named "zzz2"; still showing all services`},
			{refusal, "restore 7 failed: 503 Service Unavailable (GET /backup/v1/restores, trace 1f2e)"},
			// the last line one long word: its end goes down with the hint
			{"restore failed: " + strings.Repeat("x", 52), "restore failed: " + strings.Repeat("y", 52)},
		} {
			h := newHarness(t, Options{Profile: "test", Now: func() time.Time { return t0 },
				Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{&fakeScreen{id: "a"}} }}, sz[0], sz[1])
			for _, text := range texts {
				h.Send(kit.ToastMsg{Level: kit.ToastError, Text: text})
			}
			for i, text := range []string{texts[1], texts[0]} {
				scr := strings.Split(h.Screen(), "\n")
				msg := scr[len(scr)-2]
				if !strings.Contains(msg, "(+1)") || !strings.Contains(msg, "(L log, X dismiss)") {
					t.Fatalf("%dx%d: the message line is %q", sz[0], sz[1], msg)
				}
				if words := strings.TrimSpace(msg[:strings.Index(msg, "(+1)")]); words == "" {
					t.Fatalf("%dx%d: the message line has no text of the error: %q\n%s", sz[0], sz[1], msg, strings.Join(scr, "\n"))
				}
				var shown []string
				for _, l := range scr[len(scr)-1-h.m.errorLines() : len(scr)-1] {
					shown = append(shown, strings.Fields(l)...)
				}
				// compared without spaces: a long word is cut where it wraps
				nospace := func(s string) string { return strings.Join(strings.Fields(s), "") }
				if got := strings.Join(shown, " "); !strings.Contains(nospace(got), nospace("error: "+text)) {
					t.Fatalf("%dx%d: error %d reads %q, not %q", sz[0], sz[1], i+1, got, text)
				}
				h.Fire(func(tm tea.Msg) bool { _, ok := tm.(toastExpireMsg); return ok })
			}
		}
	}
}

// TestToastTakenDownOnceItNoLongerHolds: a refusal that speaks of a
// status ("x is pending_stop: it can be …") goes at the next tick once
// the status changed, in front or waiting behind a newer toast; the log
// keeps it.
func TestToastTakenDownOnceItNoLongerHolds(t *testing.T) {
	h := newHarness(t, Options{Profile: "test", Now: func() time.Time { return t0 },
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{&fakeScreen{id: "a"}} }}, 100, 30)
	pending := true
	const refusal = "db1 is pending_stop: it can be stopped or started once it is no longer pending"
	holds := func() bool { return pending }
	expire := func(tm tea.Msg) bool { _, ok := tm.(toastExpireMsg); return ok }
	h.Send(kit.ToastMsg{Level: kit.ToastWarn, Text: refusal, Holds: holds})
	h.Send(clockMsg{})
	h.sees(t, refusal, "the refusal is not shown while it holds")
	pending = false
	h.Send(clockMsg{})
	if strings.Contains(h.Screen(), refusal) {
		t.Fatalf("in front: still shown once it no longer holds:\n%s", h.Screen())
	}
	// waiting behind a newer toast: it does not come back
	pending = true
	h.Send(kit.ToastMsg{Level: kit.ToastWarn, Text: refusal, Holds: holds})
	h.Send(kit.ToastMsg{Level: kit.ToastWarn, Text: "newer"})
	pending = false
	h.Send(clockMsg{})
	h.Fire(expire)
	if strings.Contains(h.Screen(), refusal) {
		t.Fatalf("waiting: came back once it no longer holds:\n%s", h.Screen())
	}
	n := 0
	for _, e := range h.m.msgs.entries {
		if e.text == refusal {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("the log has the refusal %d times, want 2", n)
	}
}

// TestToastOfAScreenGoesWithIt: a toast that holds (kit.ToastWhile,
// kit.ToastHere) speaks of the screen that sent it, its view or its keys
// ("no service named x; still showing y", "d forgets this pair"): it goes
// when another screen is shown, and a newer one from the same screen
// replaces it rather than waiting to show after it.
func TestToastOfAScreenGoesWithIt(t *testing.T) {
	h := newHarness(t, Options{Profile: "test", Now: func() time.Time { return t0 },
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{&fakeScreen{id: "a"}, &fakeScreen{id: "b"}} }}, 100, 30)
	always := func() bool { return true }
	from := func(text string) {
		h.Send(kit.Addressed{To: "a", Msg: kit.ToastMsg{Level: kit.ToastWarn, Text: text, Holds: always}})
	}
	from(`no service named "x"; still showing all`)
	from(`no service named "y"; still showing all`)
	h.sees(t, `no service named "y"`, "the newer warning is not shown")
	h.Fire(func(tm tea.Msg) bool { _, ok := tm.(toastExpireMsg); return ok })
	if strings.Contains(h.Screen(), `no service named "x"`) {
		t.Fatalf("the replaced warning came back:\n%s", h.Screen())
	}
	from("nothing to end: d forgets this pair")
	h.Key("2")
	if strings.Contains(h.Screen(), "d forgets this pair") {
		t.Fatalf("screen a's warning is shown on screen b:\n%s", h.Screen())
	}
}

// TestSeenWarningGivesWay: a warning shown for two seconds or more has
// been read: a newer toast replaces it for good (it came back after the
// newer one, where it read as the present: "cannot choose that" of a scale
// already applied). One covered sooner shows again in its turn.
func TestSeenWarningGivesWay(t *testing.T) {
	now := t0
	h := newHarness(t, Options{Profile: "test", Now: func() time.Time { return now },
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{&fakeScreen{id: "a"}} }}, 100, 30)
	expire := func(tm tea.Msg) bool { _, ok := tm.(toastExpireMsg); return ok }
	h.Send(kit.ToastMsg{Level: kit.ToastWarn, Text: "cannot choose that: topology es-single has one node"})
	now = now.Add(3 * time.Second)
	h.Send(kit.ToastMsg{Level: kit.ToastSuccess, Text: "service orders-stage is ready"})
	h.Fire(expire)
	if strings.Contains(h.Screen(), "cannot choose that") {
		t.Fatalf("a warning read for 3 s came back after the newer toast:\n%s", h.Screen())
	}
	h.Send(kit.ToastMsg{Level: kit.ToastWarn, Text: "backup b1 is in progress"})
	now = now.Add(time.Second)
	h.Send(kit.ToastMsg{Level: kit.ToastWarn, Text: "schedule 3 is a one-time job"})
	h.Fire(expire)
	if !strings.Contains(h.Screen(), "backup b1 is in progress") {
		t.Fatalf("a warning covered after 1 s did not show again in its turn:\n%s", h.Screen())
	}
}
