package kit

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestTableColumnsDependOnWidthOnly: a row whose status grows (pending,
// with its progress) shortens cells, never drops a column; the set of
// columns changes with the width alone.
func TestTableColumnsDependOnWidthOnly(t *testing.T) {
	cols := []Column{
		{Title: "NAME", Min: 10, Max: 20, Priority: 10},
		{Title: "STATUS", Min: 10, Max: 30, Priority: 9},
		{Title: "SIZE", Min: 8, Max: 10, Priority: 6},
		{Title: "NODES", Min: 5, Max: 5, Priority: 5},
	}
	header := func(w int, status string) string {
		tb := NewTable(common(), cols)
		tb.SetRows([]Row{{ID: "a", Cells: []string{"orders-prod", "ready", "sky-4x16", "2"}},
			{ID: "b", Cells: []string{"reporting-new", status, "sky-2x8", "1"}}})
		tb.SetSize(w, 5)
		return strings.Join(strings.Fields(ansi.Strip(strings.Split(tb.View(), "\n")[0])), " ")
	}
	for _, w := range []int{30, 36, 45, 60} {
		ready, pending := header(w, "ready"), header(w, "pending_create 2m00s/~5m")
		if ready != pending {
			t.Errorf("at %d columns the columns are %q, with a pending row %q", w, ready, pending)
		}
	}
	if h := header(45, "pending_create 2m00s/~5m"); h != "NAME STATUS SIZE NODES" {
		t.Errorf("at 45 columns: %q, want every column (each fits at its Min)", h)
	}
	if h := header(36, "ready"); h != "NAME STATUS SIZE" {
		t.Errorf("at 36 columns: %q, want NODES dropped first", h)
	}
}

// TestTableNewestColumnKeepsTheEnd: a history wider than its column shows
// its newest (last) readings, not its oldest.
func TestTableNewestColumnKeepsTheEnd(t *testing.T) {
	tb := NewTable(common(), []Column{{Title: "NAME", Min: 4, Max: 4}, {Title: "HISTORY", Min: 6, Max: 6, Newest: true}})
	tb.SetRows([]Row{{ID: "a", Cells: []string{"pair", "oldest-123456"}}})
	tb.SetSize(20, 4)
	row := ansi.Strip(strings.Split(tb.View(), "\n")[1])
	if !strings.Contains(row, "123456") || strings.Contains(row, "old") {
		t.Errorf("the history cell shows %q, want its last six cells", row)
	}
}
