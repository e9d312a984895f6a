package kit

import (
	"strings"
	"testing"
)

// TestCommandLinesNeverSplitATokenOrAQuote: a command wraps only between
// tokens, a quoted password with spaces stays on one line, a shell
// command's lines end in " \", and joined back the lines are the command.
func TestCommandLinesNeverSplitATokenOrAQuote(t *testing.T) {
	grant := "GRANT REPLICATION SLAVE ON *.* TO 'repl_dbtaf09859780'@'%' IDENTIFIED BY 'pass word with spaces';"
	for w := 12; w <= 60; w += 4 {
		lines := CommandLines(grant, w, false)
		for _, l := range lines {
			if strings.Count(l, "'")%2 != 0 {
				t.Fatalf("w=%d: a quoted string is split: %q", w, lines)
			}
		}
		if got := strings.Join(lines, " "); got != grant {
			t.Fatalf("w=%d: joined %q, want %q", w, got, grant)
		}
	}
	cmd := "gsutil -m rsync -r s3://acme-db-exports/orders-mig/2026-11-23/ gs://acme-gcp/orders-mig/2026-11-23/"
	lines := CommandLines(cmd, 40, true)
	for i, l := range lines {
		if i < len(lines)-1 && !strings.HasSuffix(l, " \\") {
			t.Fatalf("line %d does not continue: %q", i, l)
		}
		if strings.Contains(l, "s3://") && !strings.Contains(l, "s3://acme-db-exports/orders-mig/2026-11-23/") {
			t.Fatalf("a path is split: %q", lines)
		}
	}
	if got := strings.ReplaceAll(strings.Join(lines, " "), " \\ ", " "); got != cmd {
		t.Fatalf("joined %q", got)
	}
	if lines := CommandLines("mariadb --host db.example.com", 80, true); len(lines) != 1 || lines[0] != "mariadb --host db.example.com" {
		t.Fatalf("a command that fits: %q", lines)
	}
}
