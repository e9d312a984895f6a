package backups

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

// TestColumnsAt80DoNotJump: at 80 columns a backup in progress hides no
// column: the same ones show with and without it.
func TestColumnsAt80DoNotJump(t *testing.T) {
	header := func(bs ...api.Backup) string {
		s := newScreen(t, 80, 20)
		feed(s, backupData{Backups: bs})
		for _, l := range strings.Split(ansi.Strip(s.View()), "\n") {
			if strings.Contains(l, "KEY") {
				return strings.Join(strings.Fields(l), " ")
			}
		}
		return ""
	}
	const a, b, c = "8d2286750d5237f04580d918376c3d62", "edae7168e1de37f04580d918376c3d62", "bc6f94862830e7f04580d918376c3d62"
	done := header(bk(a, "incremental", "Succeeded", time.Hour), bk(b, "full", "Succeeded", 5*24*time.Hour))
	running := header(bk(c, "full", "Running", time.Minute), bk(a, "incremental", "Succeeded", time.Hour), bk(b, "full", "Succeeded", 5*24*time.Hour))
	if done != running || !strings.Contains(done, "SIZE") {
		t.Errorf("at 80 columns: %q; with a backup in progress: %q", done, running)
	}
}

// statusLine is the first line of the screen's view, without styles.
func statusLine(s *Screen) string {
	line, _, _ := strings.Cut(tuitest.View(s), "\n")
	return line
}

// tooOldNote is the form of the too-old note the line shows, or "".
func tooOldNote(line string) string {
	for _, n := range tooOldNotes {
		if strings.Contains(line, n) {
			return n
		}
	}
	return ""
}

// The status line's note on what "too old" means is shown whole or not
// at all, never cut inside a word, at 80 and 60 columns: the one-service
// view and the view of every service, with and without a backup in
// progress (whose count text is longer).
func TestTooOldNoteIsWholeAt80And60(t *testing.T) {
	th := tuitest.Common().Theme
	old := bk("old", "full", "Succeeded", 5*24*time.Hour)
	done := bk("done", "incremental", "Succeeded", time.Hour)
	running := bk("run", "full", "Running", 10*time.Minute)
	services := []api.Service{{ID: sid, Name: "orders-prod"}}
	cases := []struct {
		name    string
		all     bool
		backups []api.Backup
		w       int
		want    string // the form that must show ("" when none fits)
	}{
		{"one service 80", false, []api.Backup{old, done}, 80, "too old: >4 days"},
		{"one service in progress 80", false, []api.Backup{old, done, running}, 80, "too old: >4 days"},
		{"every service in progress 80", true, []api.Backup{old, done, running}, 80, "too old: >4 days"},
		{"one service 60", false, []api.Backup{old, done}, 60, "too old: >4 days"},
		{"every service 60", true, []api.Backup{old, done}, 60, "too old: >4 days"},
		// " Backups of all services  3 backups, 1 in progress" leaves 9
		// cells: no form fits, so none is shown, not a cut one
		{"every service in progress 60", true, []api.Backup{old, done, running}, 60, ""},
		{"one service 140", false, []api.Backup{old, done, running}, 140, tooOldNotes[0]},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var s *Screen
			if c.all {
				s = New(tuitest.Common())
				s.SetSize(c.w, 24)
				s.Update(kit.DataMsg{Key: kit.ServicesKey.String(), Data: services, At: now})
				s.Update(kit.DataMsg{Key: kit.AllBackupsKey.String(), Data: c.backups, At: now})
			} else {
				s = newScreen(t, c.w, 24)
				feed(s, backupData{Backups: c.backups})
			}
			line := statusLine(s)
			if ansi.StringWidth(line) > c.w || strings.HasSuffix(line, th.Glyphs.Ellipsis) {
				t.Fatalf("the status line is cut at %d columns:\n%q", c.w, line)
			}
			if got := tooOldNote(line); got != c.want {
				t.Fatalf("too-old note at %d columns = %q, want %q:\n%q", c.w, got, c.want, line)
			}
			if c.want == "" && strings.Contains(line, "too old") {
				t.Fatalf("a part of the too-old note shows:\n%q", line)
			}
			// the sort note is whole too, when it is there
			if strings.Contains(line, "sort:") && !strings.Contains(line, s.SortNote()) {
				t.Fatalf("the sort note is cut:\n%q", line)
			}
		})
	}
}

// Without a backup that is too old there is no note, and the sort note
// stays.
func TestNoTooOldNoteWithoutOldBackups(t *testing.T) {
	s := newScreen(t, 80, 24)
	feed(s, backupData{Backups: []api.Backup{bk("done", "full", "Succeeded", time.Hour)}})
	line := statusLine(s)
	if strings.Contains(line, "too old") || !strings.Contains(line, "sort: started") {
		t.Fatalf("status line = %q", line)
	}
}

// TestTooOldRowsSayItAtEveryWidth: the row of a backup too old to start
// replication says "too old" at 140, 80 and 60 columns, in the view of
// every service (where at 60 columns AGE has no room and the status line
// none for the note) and of one: in AGE where it shows, else in STATUS.
// A recent backup's row says completed. Resizing makes the rows again.
func TestTooOldRowsSayItAtEveryWidth(t *testing.T) {
	old := bk("0ld0", "full", "Succeeded", 5*24*time.Hour)
	done := bk("d0ne", "incremental", "Succeeded", time.Hour)
	services := []api.Service{{ID: sid, Name: "orders-prod"}}
	rowOf := func(s *Screen, short string) string {
		for _, l := range strings.Split(tuitest.View(s), "\n") {
			if strings.Contains(l, short) {
				return l
			}
		}
		t.Fatalf("no row of %s:\n%s", short, tuitest.View(s))
		return ""
	}
	for _, all := range []bool{true, false} {
		var s *Screen
		if all {
			s = New(tuitest.Common())
			s.SetSize(140, 16)
			s.Update(kit.DataMsg{Key: kit.ServicesKey.String(), Data: services, At: now})
			s.Update(kit.DataMsg{Key: kit.AllBackupsKey.String(), Data: []api.Backup{old, done}, At: now})
		} else {
			s = newScreen(t, 140, 16)
			feed(s, backupData{Backups: []api.Backup{old, done}})
		}
		for _, w := range []int{140, 80, 60, 80} {
			s.SetSize(w, 16)
			if r := rowOf(s, api.ShortKey(old.Key)); !strings.Contains(r, "too old") {
				t.Errorf("all=%v at %d columns the old backup's row does not say too old:\n%s", all, w, tuitest.View(s))
			}
			if r := rowOf(s, api.ShortKey(done.Key)); strings.Contains(r, "too old") || !strings.Contains(r, "completed") {
				t.Errorf("all=%v at %d columns the recent backup's row = %q", all, w, r)
			}
		}
	}
}

// TestScheduleColumnsAt60: at 60 columns a schedule's cron expression of
// a weekday schedule ("30 2 * * 1-5") shows whole, with its status; the
// description gives way (the pane has it). It was cut to "30 2 * * ~".
func TestScheduleColumnsAt60(t *testing.T) {
	tb := kit.NewTable(tuitest.Common(), scheduleColumns())
	tb.SetRows([]kit.Row{{ID: "4", Cells: []string{"4", "incremental", "30 2 * * 1-5", "at 02:30 UTC, Monday through Friday", "Tue 02:30", "Suspended", "managed"}}})
	tb.SetSize(60, 5)
	out := ansi.Strip(tb.View())
	for _, want := range []string{"30 2 * * 1-5", "Suspended", "STATUS"} {
		if !strings.Contains(out, want) {
			t.Errorf("at 60 columns %q is not whole:\n%s", want, out)
		}
	}
}
