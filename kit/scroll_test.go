package kit

import "testing"

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
