package kit

import (
	"slices"
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

// A shell-quoted apostrophe ('\”) neither opens nor closes a quote: the
// command still breaks only between words, never inside a quoted path.
func TestCommandLinesQuotedApostrophe(t *testing.T) {
	cmd := ShellCommand("gsutil", "cp", "gs://b/john's dumps/x.sql", "s3://other/dest path/")
	want := []string{"gsutil cp \\", `'gs://b/john'\''s dumps/x.sql' \`, `'s3://other/dest path/'`}
	if got := CommandLines(cmd, 30, true); !slices.Equal(got, want) {
		t.Fatalf("lines %q, want %q", got, want)
	}
	// SQL: a backslash escapes inside a string; '' is a quote too
	sql := `CHANGE MASTER TO MASTER_PASSWORD='p\'w x', MASTER_USER='o''k y'`
	if got := CommandLines(sql, 40, false); !slices.Equal(got, []string{"CHANGE MASTER TO", `MASTER_PASSWORD='p\'w x',`, `MASTER_USER='o''k y'`}) {
		t.Fatalf("sql lines %q", got)
	}
}
