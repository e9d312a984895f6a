package kit

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// TestTableRowDroppedByARefresh: a refresh that drops the row under the
// cursor puts the cursor on a row that may be chosen, and back on the
// dropped one when a refresh lists it again; once the user has moved,
// the cursor stays where they put it. Before, it stayed on the row number:
// the neighbour, chosen or not, for good.
func TestTableRowDroppedByARefresh(t *testing.T) {
	row := func(id string) Row { return Row{ID: id, Cells: []string{id}} }
	all := []Row{row("aws-1"), row("aws-2"), row("gcp-1"), row("gcp-2")}
	without := []Row{row("aws-1"), row("gcp-1"), row("gcp-2")}
	tb := NewTable(common(), []Column{{Title: "NAME", Min: 6, Max: 10}})
	tb.SetSize(20, 8)
	tb.Choosable = func(id string) bool { return id[:3] == "aws" }
	tb.SetRows(all)
	tb.Select("aws-2")

	tb.SetRows(without)
	if got := tb.SelectedID(); got != "aws-1" {
		t.Fatalf("aws-2 dropped: the cursor is on %s, want aws-1 (gcp-1, under its row number, cannot be chosen)", got)
	}
	tb.SetRows(without) // a refresh that still lacks it: no change
	tb.SetRows(all)
	if got := tb.SelectedID(); got != "aws-2" {
		t.Fatalf("aws-2 listed again: the cursor is on %s, want aws-2", got)
	}

	// moved meanwhile: stays where the user put it
	tb.SetRows(without)
	tb.Update(tea.KeyPressMsg{Code: tea.KeyDown})
	moved := tb.SelectedID()
	tb.SetRows(all)
	if got := tb.SelectedID(); got != moved {
		t.Fatalf("after a move to %s, the listing back put the cursor on %s", moved, got)
	}

	// without Choosable: the row under the cursor's number, then back
	tb.Choosable = nil
	tb.Select("aws-2")
	tb.SetRows(without)
	if got := tb.SelectedID(); got != "gcp-1" {
		t.Fatalf("aws-2 dropped from a plain table: the cursor is on %s, want gcp-1", got)
	}
	tb.SetRows(all)
	if got := tb.SelectedID(); got != "aws-2" {
		t.Fatalf("aws-2 listed again in a plain table: the cursor is on %s", got)
	}
}

// TestTableEmptyWrapsWhole: the line a table shows with no rows (a
// listing's error) is wrapped whole, the trace ID at its end readable, as
// far as the rows' lines go; it was cut to one line.
func TestTableEmptyWrapsWhole(t *testing.T) {
	tb := NewTable(common(), []Column{{Title: "NAME", Min: 6, Max: 10}})
	tb.Empty = "could not load services: 503 Service Unavailable: service temporarily unavailable (GET /provisioning/v1/services, trace 0160ab9f2c)"
	tb.SetSize(40, 8)
	out := ansi.Strip(tb.View())
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "(GET /provisioning/v1/services, trace 0160ab9f2c)") {
		t.Fatalf("the error is not whole:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) > 40 {
			t.Errorf("a line wider than the table: %q", l)
		}
	}
	tb.SetSize(40, 3) // two lines for rows
	if n := len(strings.Split(tb.View(), "\n")); n != 3 {
		t.Fatalf("%d lines in a table of 3:\n%s", n, tb.View())
	}
}
