package kit

import (
	"strings"
	"testing"

	"github.com/skytui/skytui/theme"
)

// TestTextWindow: a text that fits shows whole; one that does not shows
// room-1 lines from where it was scrolled, never past its last line, and
// the line under it names the keys and what each shows.
func TestTextWindow(t *testing.T) {
	if first, rows, cut := TextWindow(5, 5, 3); first != 0 || rows != 5 || cut {
		t.Errorf("a text that fits: %d %d %v", first, rows, cut)
	}
	if first, rows, cut := TextWindow(12, 5, 0); first != 0 || rows != 4 || !cut {
		t.Errorf("the top of a cut text: %d %d %v", first, rows, cut)
	}
	if first, rows, _ := TextWindow(12, 5, 99); first != 8 || rows != 4 {
		t.Errorf("scrolled past the end: from %d, %d rows; want the last four lines", first, rows)
	}
	c := common()
	down, up := Bind("pgdn", "scroll", "pgdown"), Bind("pgup", "scroll back")
	for _, tc := range []struct {
		above, below int
		want         string
	}{
		{0, 8, c.Theme.Glyphs.Ellipsis + " pgdn: 8 more lines"},
		{3, 1, c.Theme.Glyphs.Ellipsis + " pgdn: 1 more line, pgup: 3 lines above"},
		{8, 0, c.Theme.Glyphs.Ellipsis + " pgup: 8 lines above"},
	} {
		if got := MoreLine(c, down, up, tc.above, tc.below); got != tc.want {
			t.Errorf("MoreLine(%d above, %d below) = %q, want %q", tc.above, tc.below, got, tc.want)
		}
	}
}

// A review keeps what is said of the request in place while the request
// keeps ReviewMinRows lines; else it scrolls above the request, and a
// submit first shows the request's end.
func TestReviewKeepsNotesThenScrollsThem(t *testing.T) {
	c := &Common{Theme: theme.Default()}
	head, notes := []string{"Review"}, []string{"! refused: 400 bad size (trace t-1)"}
	request := strings.Split("{\n a\n b\n c\n d\n e\n f\n}", "\n")
	tall := NewReview(20, head, notes, request, false)
	if _, _, cut := tall.Window(20, 0); cut || !strings.Contains(tall.View(c, 60, 20, 0), "trace t-1") {
		t.Fatalf("20 lines: want the whole request and the refusal:\n%s", tall.View(c, 60, 20, 0))
	}
	under := NewReview(20, head, notes, request, true)
	if v := strings.Split(under.View(c, 60, 20, 0), "\n"); v[len(v)-1] != notes[0] || v[len(v)-2] != "" {
		t.Fatalf("below: want the refusal last, after a blank line:\n%s", strings.Join(v, "\n"))
	}
	short := NewReview(7, head, notes, request, true)
	v := short.View(c, 60, 7, 0)
	if lines := strings.Split(v, "\n"); len(lines) > 7 || lines[1] != notes[0] {
		t.Fatalf("7 lines: want the refusal first under the title, scrolling with the request, in 7 lines:\n%s", v)
	}
	end, hidden := short.End(7, 0)
	if !hidden || !strings.Contains(short.View(c, 60, 7, end), "}") {
		t.Fatalf("7 lines: end %d hidden %v; the end's view lacks the request's last line:\n%s", end, hidden, short.View(c, 60, 7, end))
	}
	if top := short.Scroll(7, 0, 1); top == 0 || short.Scroll(7, top, -1) != 0 {
		t.Fatalf("a page down from the top moved to %d and back to %d", top, short.Scroll(7, top, -1))
	}
}
