package kit

import (
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
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

// TestCommandLinesBreakAfterACallsParenthesis: an SQL call whose first
// argument makes its first token wider than the screen (at 60 columns
// the host's "calhost'," was cut off the line) breaks after "(", where SQL
// takes a line break as a space; wide, it is one line as written.
func TestCommandLinesBreakAfterACallsParenthesis(t *testing.T) {
	call := "CALL sky.change_external_primary_gtid('dbtaf85489797.sandbox.localhost', 34923, '0-2476-65595600', true)"
	lines := CommandLines(call, 56, false)
	for _, l := range lines {
		if ansi.StringWidth(l) > 56 {
			t.Errorf("a line is wider than 56: %q", l)
		}
	}
	if got := strings.Join(lines, "\n"); !strings.Contains(got, "sky.change_external_primary_gtid(\n'dbtaf85489797.sandbox.localhost',") {
		t.Errorf("not broken after the parenthesis:\n%s", got)
	}
	if got := CommandLines(call, 200, false); !slices.Equal(got, []string{call}) {
		t.Errorf("wide: %q", got)
	}
	if got := CommandLines("echo f(x)", 200, true); !slices.Equal(got, []string{"echo f(x)"}) {
		t.Errorf("a shell command is not split at (: %q", got)
	}
}
