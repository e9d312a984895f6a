package replication

import (
	"strings"

	"github.com/skytui/skytui/kit"
)

// A list of services cut to its room says so: under its rows, a line
// counts the rows below and above the ones shown and names the keys that
// move there, as a cut text does (kit.MoreLine).

// sizeList gives t h lines: all of them when its rows fit, else one less,
// the line listLines says what is cut in.
func sizeList(t *kit.Table, w, h int) {
	t.SetSize(w, h)
	if h > 3 && t.Cut() {
		t.SetSize(w, h-1)
	}
}

// listLines is t's view, and when its rows are cut the line saying how
// many are below and above: "… down/j: 5 more services, up/k: 2 above".
func listLines(c *kit.Common, t *kit.Table) []string {
	lines := strings.Split(t.View(), "\n")
	if more := t.MoreRows("service", "services"); more != "" {
		lines = append(lines, c.Theme.Muted.Render("  "+more))
	}
	return lines
}

// listMin is the fewest lines t keeps when the text above it is cut: the
// header, two rows and the line saying what is cut (one row with the
// filter's line), or all it has when that is less.
func listMin(t *kit.Table) int {
	need := 1 + max(1, t.Len())
	if t.Filtering() || t.Filter() != "" {
		need++
	}
	return min(4, need)
}
