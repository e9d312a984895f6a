package backups

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
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
