package tui

import (
	"context"
	"encoding/base64"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// selectedEntry is the text of the log's selected entry.
func selectedEntry(h *harness) string {
	h.T.Helper()
	if n := len(h.m.dialogs); n == 0 {
		h.T.Fatalf("no dialog open:\n%s", h.Screen())
	}
	d, ok := h.m.dialogs[len(h.m.dialogs)-1].(*logDialog)
	if !ok {
		h.T.Fatalf("the front dialog is %T, not the log", h.m.dialogs[len(h.m.dialogs)-1])
	}
	return d.Selected()
}

// unboxed is the screen with the box's borders taken off each line and
// the lines joined, so text wrapped over several lines reads as one.
func unboxed(screen string) string {
	var b strings.Builder
	for _, l := range strings.Split(screen, "\n") {
		l = strings.TrimSpace(l)
		l = strings.Trim(l, "|│")
		b.WriteString(strings.TrimSpace(l) + " ")
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// logRows are the rows of entries the log's box shows: its lines between
// the title and the hint line, borders kept.
func logRows(h *harness) []string {
	h.T.Helper()
	var box []string
	for _, l := range strings.Split(h.Screen(), "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "|") {
			box = append(box, l)
		}
	}
	if len(box) < 2 || !strings.Contains(box[0], "Message log") {
		h.T.Fatalf("no log box:\n%s", h.Screen())
	}
	return box[1 : len(box)-1]
}

// logHint is the log box's last line: what is below and above, the keys.
func logHint(h *harness) string {
	h.T.Helper()
	var last string
	for _, l := range strings.Split(h.Screen(), "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "|") {
			last = l
		}
	}
	return strings.TrimSpace(strings.Trim(last, "|"))
}

// TestMessageLogKeepsToastsAndChangesInOrder: L shows every toast and
// every change sent with its outcome, in order, the newest last; esc
// closes it; :log opens it too.
func TestMessageLogKeepsToastsAndChangesInOrder(t *testing.T) {
	s := &fakeScreen{id: "a"}
	h := fakeApp(t, time.Minute, s)
	h.Send(kit.ToastMsg{Level: kit.ToastInfo, Text: "first note"})
	s.onKey = kit.Do(kit.Action{Name: "create backup of orders-prod", Mutating: true, Origin: "a",
		Run: func(context.Context) (any, error) { return nil, nil }})
	h.Key("n")
	s.onKey = kit.Do(kit.Action{Name: "stop orders-prod", Mutating: true, Origin: "a",
		Run: func(context.Context) (any, error) { return nil, &api.Error{Status: 409, Message: "pending"} }})
	h.Key("n")
	s.onKey = nil
	h.Send(kit.ToastMsg{Level: kit.ToastWarn, Text: "last note"})
	h.Key("L")
	screen := h.Screen()
	want := []string{"info  first note", "sent  create backup of orders-prod", "ok    create backup of orders-prod: done",
		"sent  stop orders-prod", "error stop orders-prod failed", "warn  last note"}
	at := 0
	for _, w := range want {
		i := strings.Index(screen[at:], w)
		if i < 0 {
			t.Fatalf("%q missing or out of order in the log:\n%s", w, screen)
		}
		at += i + len(w)
	}
	if !strings.Contains(screen, "Message log") || !strings.Contains(screen, "6 entries, newest last") {
		t.Fatalf("no log box:\n%s", screen)
	}
	if got := selectedEntry(h); !strings.Contains(got, "last note") {
		t.Fatalf("the newest is not selected: %q", got)
	}
	h.Key("esc")
	if len(h.m.dialogs) != 0 || strings.Contains(h.Screen(), "Message log") {
		t.Fatalf("esc did not close the log:\n%s", h.Screen())
	}
	h.Key(":")
	h.TypeText("log")
	h.Key("enter")
	if !strings.Contains(h.Screen(), "Message log") {
		t.Fatalf(":log did not open the log:\n%s", h.Screen())
	}
}

// TestMessageLogShowsAPIErrorWhole: a refused change's status, message,
// solution, request and trace ID are in the log whole at 60 columns,
// however long (the toast wraps onto three lines and says L shows it
// whole), and y copies the entry whole through OSC 52.
func TestMessageLogShowsAPIErrorWhole(t *testing.T) {
	s := &fakeScreen{id: "a"}
	h := fakeApp(t, time.Minute, s)
	h.Send(tea.WindowSizeMsg{Width: 60, Height: 16})
	msg := "The number of nodes for topology es-single must be exactly 1, and a replica of a service with a pending change cannot be scaled until it is ready"
	trace := "8ff56da608436616c0ffee0123456789"
	apiErr := &api.Error{Method: "PATCH", Path: "/provisioning/v1/services/dbtaf33737495/nodes", Status: 400,
		Message: msg, Solution: "Set nodes to 1", TraceID: trace}
	s.onKey = kit.Do(kit.Action{Name: "scale orders-prod", Mutating: true, Origin: "a",
		Run: func(context.Context) (any, error) { return nil, apiErr }})
	h.Key("n")
	s.onKey = nil
	// the error wraps onto three lines above the footer: the status is
	// read where it appears, and the last line says where it is whole
	lines := strings.Split(h.Screen(), "\n")
	if len(lines) < 4 || !strings.Contains(lines[len(lines)-4], "error: scale orders-prod failed: 400 Bad") ||
		!strings.Contains(lines[len(lines)-2], "(L log, X dismiss)") {
		t.Fatalf("the error's toast does not wrap onto three lines saying where it is whole:\n%s", h.Screen())
	}
	h.Key("L")
	// the box shows a few lines at 60x16: read it all with j, a line at
	// a time through the entry (each line read once, in order)
	seen := []string{}
	for range 30 {
		for _, l := range logRows(h) {
			if !slices.Contains(seen, l) {
				seen = append(seen, l)
			}
		}
		h.Key("j")
	}
	got := unboxed(strings.Join(seen, "\n"))
	for _, w := range []string{"400 Bad Request", msg, "Set nodes to 1", "PATCH /provisioning/v1/services/dbtaf33737495/nodes",
		"refused: scale orders-prod"} {
		// a long word (a path) may be broken over two lines, never cut
		if !strings.Contains(strings.ReplaceAll(got, " ", ""), strings.ReplaceAll(w, " ", "")) {
			t.Fatalf("%q is not whole in the log at 60x16:\n%s", w, strings.Join(seen, "\n"))
		}
	}
	if !strings.Contains(got, trace) {
		t.Fatalf("the trace ID is not whole in the log:\n%s", strings.Join(seen, "\n"))
	}
	for _, l := range seen {
		if strings.Contains(l, "~") || strings.Contains(l, "…") {
			t.Fatalf("a line of the log is cut: %q", l)
		}
	}
	// y copies the selected entry whole
	h.Raw = nil
	h.Key("y")
	copied := ""
	for _, r := range h.Raw {
		if i := strings.Index(r, "52;c;"); i >= 0 {
			b64 := strings.TrimRight(r[i+5:], "\a\x1b\\")
			dec, err := base64.StdEncoding.DecodeString(b64)
			if err != nil {
				t.Fatalf("OSC 52 payload %q: %v", b64, err)
			}
			copied = string(dec)
		}
	}
	for _, w := range []string{"status: 400 Bad Request", "message: " + msg, "trace ID: " + trace, "scale orders-prod failed"} {
		if !strings.Contains(copied, w) {
			t.Fatalf("y copied %q, missing %q (raw %q)", copied, w, h.Raw)
		}
	}
	if !strings.Contains(lastToast(h), "log entry copied to the clipboard") {
		t.Fatalf("no copy toast: %q", lastToast(h))
	}
}

// TestErrorToastStaysUntilDismissed: an error shows past its time, below
// the toasts that came after it, until X dismisses it; other toasts go.
func TestErrorToastStaysUntilDismissed(t *testing.T) {
	h := fakeApp(t, time.Minute, &fakeScreen{id: "a"})
	line := func() string {
		lines := strings.Split(h.Screen(), "\n")
		return strings.TrimSpace(lines[len(lines)-2]) // the message line
	}
	expire := func(tm tea.Msg) bool { _, ok := tm.(toastExpireMsg); return ok }
	h.Send(kit.ToastMsg{Level: kit.ToastError, Text: "delete restore 4 failed: 409 Conflict"})
	h.Fire(expire)
	h.Fire(expire)
	if got := line(); got != "error: delete restore 4 failed: 409 Conflict  (L log, X dismiss)" {
		t.Fatalf("the error went after its time: %q", got)
	}
	h.Send(kit.ToastMsg{Level: kit.ToastInfo, Text: "a note"})
	if got := line(); got != "a note  (+1)" {
		t.Fatalf("a newer toast does not show first: %q", got)
	}
	h.Fire(expire)
	if got := line(); !strings.HasPrefix(got, "error: delete restore 4 failed") {
		t.Fatalf("the error did not come back after the note: %q", got)
	}
	h.Fire(expire)
	h.Key("X")
	if got := line(); got != "" {
		t.Fatalf("X did not dismiss the error: %q", got)
	}
	if strings.Contains(h.Screen(), "409") {
		t.Fatalf("still shown:\n%s", h.Screen())
	}
}

// TestSelfDeletedRestoreNoWarning: a restore the user deletes is not
// reported "no longer exists" by its watch, whether the watch finds it
// gone while the delete is being sent or after it was answered.
func TestSelfDeletedRestoreNoWarning(t *testing.T) {
	both(t, "watch after the answer", "watch while sending", func(t *testing.T, early bool) {
		s := &fakeScreen{id: "a"}
		h := newHarness(t, Options{Profile: "p", Now: func() time.Time { return t0 }, FastInterval: 2 * time.Second,
			Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{s} }}, 100, 30)
		h.Send(kit.WatchMsg{Watch: kit.Watch{Key: "restore/4", Name: "restore 4 into x", Origin: "a",
			Gone:    "restore 4 into x no longer exists (deleted)",
			Fetch:   func(context.Context) (any, error) { return nil, &api.Error{Status: 404} },
			Outcome: func(any) (bool, kit.ToastLevel, string) { return false, 0, "" }}})
		gate := make(chan struct{})
		s.onKey = kit.Do(kit.Action{Name: "delete restore 4 into x", Mutating: true, Origin: "a",
			Ends:    []string{"restore/4"},
			Success: func(any) string { return "restore 4 into x deleted" },
			Run: func(context.Context) (any, error) {
				if early {
					<-gate
				}
				return nil, nil
			}})
		h.Key("d")
		s.onKey = nil
		h.Fire(func(m tea.Msg) bool { _, ok := m.(watchTickMsg); return ok })
		if early {
			close(gate)
			h.Settle()
		}
		for _, e := range h.m.msgs.entries {
			if e.level == kit.ToastWarn || strings.Contains(e.text, "no longer exists") {
				t.Fatalf("the user's own delete was reported: %q", e.text)
			}
		}
		if got := lastToast(h); got != "restore 4 into x deleted" {
			t.Fatalf("toast %q", got)
		}
		if len(h.m.Watching()) != 0 {
			t.Fatal("the watch did not end")
		}
	})
}

// TestMessageLogBounded: the log keeps the last logMax entries and says
// how many older ones it let go.
func TestMessageLogBounded(t *testing.T) {
	h := fakeApp(t, time.Minute, &fakeScreen{id: "a"})
	for i := range logMax + 7 {
		h.m.toast(kit.ToastInfo, "note "+strings.Repeat("x", i%3))
	}
	if n := len(h.m.msgs.entries); n != logMax {
		t.Fatalf("%d entries kept", n)
	}
	h.Key("L")
	if !strings.Contains(h.Screen(), "500 entries, newest last (7 older let go)") {
		t.Fatalf("no count:\n%s", h.Screen())
	}
	h.Key("g")
	if got := selectedEntry(h); !strings.Contains(got, "note x") {
		t.Fatalf("g: %q", got)
	}
}

// TestRestoreStartedThenDeletedOnSandbox: a restore started from the
// wizard (so followed by a watch) and then deleted with d is said deleted
// once, never "no longer exists".
func TestRestoreStartedThenDeletedOnSandbox(t *testing.T) {
	h, srv, _ := demoHarness(t, 100, 30, nil)
	rstSubmit(t, h)
	if len(h.m.Watching()) != 1 {
		t.Fatalf("no watch: %v", h.m.Watching())
	}
	h.Key("d")
	if !strings.Contains(h.Screen(), "Delete restore 3?") {
		t.Fatalf("d is not on the new restore:\n%s", h.Screen())
	}
	h.TypeText("dev-serverless")
	h.Key("enter")
	if n := srv.Stats().Count("DELETE", "/backup/v1/restores/{id}"); n != 1 {
		t.Fatalf("DELETE sent %d times", n)
	}
	rstFireWatches(h)
	rstFireWatches(h)
	for _, e := range h.m.msgs.entries {
		if e.level == kit.ToastWarn || strings.Contains(e.text, "no longer exists") {
			t.Fatalf("the user's own delete was reported: %q", e.text)
		}
	}
	if got := lastToast(h); !strings.Contains(got, "restore 3 into dev-serverless deleted") {
		t.Fatalf("toast %q", got)
	}
}

// TestMessageLogKeysOneMeaning: in each of the log's modes (entries, a
// filter kept, a filter typed) no key has two meanings.
func TestMessageLogKeysOneMeaning(t *testing.T) {
	h := fakeApp(t, time.Minute, &fakeScreen{id: "a"})
	h.Send(kit.ToastMsg{Level: kit.ToastInfo, Text: "a note"})
	h.Key("L")
	d := h.m.dialogs[0].(*logDialog)
	check := func(mode string) {
		if dups := kit.DuplicateKeys(d.bindings()...); len(dups) > 0 {
			t.Errorf("%s: %v", mode, dups)
		}
	}
	check("entries")
	h.Key("/")
	h.TypeText("note")
	check("filter typed")
	h.Key("enter")
	check("filter kept")
	h.Key("esc")
	if len(h.m.dialogs) != 1 || d.filter != "" {
		t.Fatalf("esc with a filter kept did not clear it first")
	}
	h.Key("esc")
	if len(h.m.dialogs) != 0 {
		t.Fatal("esc without a filter did not close the log")
	}
}

// TestMessageLogSelectionStaysWhenFull: once the log is full, each new
// entry lets the oldest go; the entry the user selected stays selected.
func TestMessageLogSelectionStaysWhenFull(t *testing.T) {
	h := fakeApp(t, time.Minute, &fakeScreen{id: "a"})
	for i := range logMax {
		h.m.toast(kit.ToastInfo, fmt.Sprintf("note %d", i))
	}
	h.Key("L")
	h.Key("k")
	h.Key("k")
	before := selectedEntry(h)
	if !strings.Contains(before, "note 497") {
		t.Fatalf("selected %q", before)
	}
	for i := range 3 {
		h.m.toast(kit.ToastInfo, fmt.Sprintf("later %d", i))
	}
	if got := selectedEntry(h); got != before {
		t.Fatalf("the selection moved from %q to %q as entries came", before, got)
	}
	// the footer lists every way to move
	var footer []string
	for _, b := range h.m.dialogs[len(h.m.dialogs)-1].(*logDialog).KeyMap().ShortHelp() {
		footer = append(footer, b.Help().Key)
	}
	for _, want := range []string{"down/j", "up/k", "pgdn", "pgup", "g/home", "G/end"} {
		if !slices.Contains(footer, want) {
			t.Errorf("the log's footer keys %q lack %s", footer, want)
		}
	}
}

// TestMessageLogScrollsByWholeEntries: at 60x16 and 80x24, wherever the
// log is scrolled (on opening, G, j/k, pgup/pgdn, g) the box starts on an
// entry's first line (its time), never on a piece of an entry's text, the
// selected entry's first line shows, and the last line says how many
// lines are above as well as below: on opening and at G the older entries
// above are counted.
func TestMessageLogScrollsByWholeEntries(t *testing.T) {
	for _, size := range [][2]int{{60, 16}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			h := fakeApp(t, time.Minute, &fakeScreen{id: "a"})
			h.Send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			words := strings.Fields("the replica of this service runs it again once the primary is ready and the binlog position is known to both sides")
			for i := range 14 {
				h.m.toast(kit.ToastInfo, fmt.Sprintf("note %d ", i)+strings.Join(words[:(i*7)%len(words)+1], " "))
				if i%5 == 2 { // an error taller than the box at 60x16
					h.m.logRefresh(fmt.Sprintf("services-%d", i), &api.Error{Method: "GET", Path: "/provisioning/v1/services", Status: 503,
						Message: strings.Repeat("the service is unavailable while it is being upgraded ", 4), TraceID: "8ff56da608436616c0ffee0123456789"})
				}
			}
			h.Key("L")
			d := h.m.dialogs[0].(*logDialog)
			head := regexp.MustCompile(`^\| (> |  )\d\d:\d\d:\d\d (info|warn|ok|error|sent)`)
			count := regexp.MustCompile(`(\d+) (?:more )?lines?(?: (above))?`)
			check := func(after string) (above, below int) {
				t.Helper()
				rows := logRows(h)
				if !head.MatchString(rows[0]) {
					t.Fatalf("after %s the box starts on a piece of an entry: %q\n%s", after, rows[0], h.Screen())
				}
				cursors, filled := 0, 0
				for _, r := range rows {
					if strings.HasPrefix(r, "| > ") {
						cursors++
					}
					if strings.TrimSpace(strings.Trim(r, "|")) != "" {
						filled++
					}
				}
				if cursors != 1 {
					t.Fatalf("after %s the selected entry's first line is not shown once:\n%s", after, h.Screen())
				}
				hint := logHint(h)
				for _, m := range count.FindAllStringSubmatch(hint, -1) {
					n, _ := strconv.Atoi(m[1])
					if m[2] != "" {
						above = n
					} else {
						below = n
					}
				}
				if above > 0 && !strings.Contains(hint, fmt.Sprintf("up/k: %s above", kit.Count(above, "line", "lines"))) ||
					below > 0 && !strings.Contains(hint, fmt.Sprintf("down/j: %s", kit.Count(below, "more line", "more lines"))) {
					t.Fatalf("after %s the hint is not kit.MoreLine's: %q", after, hint)
				}
				if above+filled+below != len(d.lines) {
					t.Fatalf("after %s the hint counts %d above and %d below with %d shown, of %d lines:\n%s",
						after, above, below, filled, len(d.lines), h.Screen())
				}
				return above, below
			}
			if above, below := check("opening"); above == 0 || below != 0 {
				t.Fatalf("on opening at the newest the lines above are not counted: %q", logHint(h))
			}
			steps := []string{"G", "k", "k", "k", "k", "k", "k", "k", "k", "k", "k", "k", "k", "k", "k", "k", "k", "k", "k", "k", "k",
				"k", "k", "k", "k", "k", "k", "k", "k", "k", "k", "k", "pgdown", "pgdown", "pgup", "G", "pgup", "pgup", "pgup",
				"pgup", "pgup", "pgup", "pgup", "pgup", "pgup", "pgup", "g", "pgdown", "pgdown", "pgdown", "pgdown", "pgdown", "pgdown",
				"pgdown", "pgdown", "pgdown", "g"}
			for range 60 {
				steps = append(steps, "j")
			}
			for _, k := range steps {
				h.Key(k)
				check(k)
			}
			if above, _ := check("j to the end"); above == 0 || !strings.Contains(selectedEntry(h), "note 13") {
				t.Fatalf("j did not reach the newest: %q", selectedEntry(h))
			}
			h.Key("g")
			if above, below := check("g"); above != 0 || below == 0 {
				t.Fatalf("at the first entry: %q", logHint(h))
			}
			h.Key("G")
			if above, below := check("G"); above == 0 || below != 0 {
				t.Fatalf("at G the lines above are not counted: %q", logHint(h))
			}
		})
	}
}

// TestLogNamesTheServiceOfAFailedPart: a listing across services that
// failed for one service is logged naming that service by name (from the
// error, else the last services listing) and its ID, not only the
// listing's request.
func TestLogNamesTheServiceOfAFailedPart(t *testing.T) {
	h := fakeApp(t, time.Minute, &fakeScreen{id: "a"})
	h.m.known = []api.Service{{ID: "dbtaf00000001", Name: "orders-prod"}}
	cause := &api.Error{Method: "GET", Path: "/skybackup/v1/restores", Status: 500, Message: "boom"}
	h.m.logRefresh(kit.RestoresKey.String(), &api.ServiceError{ServiceID: "dbtaf00000001", Err: cause})
	h.m.logRefresh(kit.RestoresKey.String(), &api.ServiceError{ServiceID: "dbtgf00000002", ServiceName: "analytics-gcp", Err: cause})
	var texts []string
	for _, e := range h.m.msgs.entries {
		texts = append(texts, e.text)
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{"refresh of the restores listing failed: listing of orders-prod (dbtaf00000001): ", "listing of analytics-gcp (dbtgf00000002): "} {
		if !strings.Contains(all, want) {
			t.Errorf("the log does not say %q:\n%s", want, all)
		}
	}
}

// TestLogKeepsAFailedPartWhole: a listing across services read but for
// one service (kit.Partial) reaches the screen as data, not a failure,
// and the log keeps that service's error whole (status, message, trace
// ID), once however often it recurs, then says when it works again.
func TestLogKeepsAFailedPartWhole(t *testing.T) {
	part := &api.ServiceError{ServiceID: "dbtaf00000001", ServiceName: "orders-prod",
		Err: &api.Error{Method: "GET", Path: "/skybackup/v1/restores", Status: 503, Message: "backend unavailable", TraceID: "feedc0de01"}}
	r := &fakeRes{key: kit.RestoresKey.String(), err: kit.Partial(part)}
	s := &fakeScreen{id: "a", res: []*fakeRes{r}}
	h := fakeApp(t, time.Minute, s)
	h.Key("r")
	texts := func() []string {
		var out []string
		for _, e := range h.m.msgs.entries {
			out = append(out, e.copyText())
		}
		return out
	}
	failed := slices.IndexFunc(texts(), func(e string) bool {
		return strings.Contains(e, "refresh of the restores listing failed: listing of orders-prod (dbtaf00000001): HTTP 503") &&
			strings.Contains(e, "backend unavailable") && strings.Contains(e, "trace ID: feedc0de01")
	})
	if failed < 0 {
		t.Fatalf("the failed part is not logged whole:\n%s", strings.Join(texts(), "\n"))
	}
	if n := len(texts()); n != 1 {
		t.Fatalf("the part is logged %d times for two reads:\n%s", n, strings.Join(texts(), "\n"))
	}
	for _, d := range s.data {
		if d.Err != nil || len(d.Parts) != 1 {
			t.Fatalf("the screen got %+v: a listing read in part is data with its failed part", d)
		}
	}
	r.set(false, nil)
	h.Key("r")
	if all := strings.Join(texts(), "\n"); !strings.Contains(all, "refresh of the restores listing: listing of orders-prod (dbtaf00000001) works again") {
		t.Fatalf("the part working again is not logged:\n%s", all)
	}
}
