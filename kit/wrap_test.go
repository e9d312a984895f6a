package kit

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// Names with hyphens stay whole on their line; the lines keep to the
// width; a word longer than the line is still cut.
func TestWrapKeepsHyphenatedNamesWhole(t *testing.T) {
	s := "replica-west stops replicating from orders-prod: CALL sky.stop_replication() on replica-west."
	got := Wrap(s, 40)
	for _, l := range strings.Split(got, "\n") {
		if strings.HasSuffix(l, "-") || ansi.StringWidth(l) > 40 {
			t.Fatalf("line %q of\n%s", l, got)
		}
	}
	if strings.ReplaceAll(got, "\n", " ") != s {
		t.Fatalf("the text changed: %q", got)
	}
	if got := Wrap(strings.Repeat("x", 50), 20); strings.Count(got, "\n") != 2 {
		t.Fatalf("a long word is not cut: %q", got)
	}
	// a hyphenated word longer than the line breaks at its hyphens
	if got := Wrap("ok HOSTILE-T0HOSTILE-T2HOSTILE-L8", 14); got != "ok HOSTILE-\nT0HOSTILE-\nT2HOSTILE-L8" {
		t.Fatalf("a long hyphenated word: %q", got)
	}
	if got := Wrap("a-b c,d", 3, " ,"); got != "a-b\nc,d" {
		t.Fatalf("breakpoints: %q", got)
	}
}

// TestWrapMovesAPathWhole: with the slash as a breakpoint, a path that
// fits on a line moves there whole ("gs://" was left at the end of a line
// and "my-bucket/qa" went on the next); only a path longer than a line
// breaks, at its slashes.
func TestWrapMovesAPathWhole(t *testing.T) {
	got := Wrap("Delete the schedule that writes to gs://my-bucket/qa every night?", 40, " ,/")
	if !strings.Contains(got, "\ngs://my-bucket/qa every night?") {
		t.Errorf("the path is not whole on its line:\n%s", got)
	}
	long := Wrap("to s3://acme-db-exports/orders/2026/11/nightly/full.gz now", 24, " ,/")
	for _, l := range strings.Split(long, "\n") {
		if ansi.StringWidth(l) > 24 {
			t.Errorf("a line is wider than 24: %q", l)
		}
	}
	if !strings.Contains(long, "acme-db-exports/") || strings.Contains(long, "acme-\n") {
		t.Errorf("a path longer than a line breaks at its slashes, its names whole:\n%s", long)
	}
}

// A refusal wrapped on a review goes on under its words, not at the
// margin, and keeps its end (the trace ID) whole.
func TestSaidHangsUnderTheWords(t *testing.T) {
	got := Said("! the API refused it: 409 Conflict: service dbt1 is stopped (trace 4bf92f3577b34da6)", 40)
	lines := strings.Split(got, "\n")
	if len(lines) < 2 || !strings.HasPrefix(lines[0], " ! the API") {
		t.Fatalf("first line: %q", got)
	}
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, "   ") || strings.HasPrefix(l, "    ") || len(l) > 40 {
			t.Errorf("a continuation line not under the words, or wider than 40: %q", l)
		}
	}
	if !strings.Contains(got, "4bf92f3577b34da6") {
		t.Errorf("the trace ID is not whole:\n%s", got)
	}
	if plain := Said("Repeats: daily at 02:00 UTC", 40); plain != " Repeats: daily at 02:00 UTC" {
		t.Errorf("a short line: %q", plain)
	}
}

// TestWrapKeepsACronTogether: a cron expression kept together moves to the
// next line whole (it was split "15 * *" / "* * backups").
func TestWrapKeepsACronTogether(t *testing.T) {
	got := Wrap("schedule 4 of orders-prod: incremental "+KeepTogether("15 * * * *")+" backups (every hour at :15)", 40)
	if !strings.Contains(got, "\n"+KeepTogether("15 * * * *")+" backups") {
		t.Fatalf("the expression is split:\n%s", got)
	}
}
