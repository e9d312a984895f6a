package restores

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/tui/tuitest"
)

// A name pasted on the Restores screen goes where typed text would: into
// the wizard's and the migration's lists (through the screen's Update,
// as the root hands a paste to the screen).

// TestPasteIntoTheWizardsTargets: n, managed storage, then a paste into
// the target list filters it at once.
func TestPasteIntoTheWizardsTargets(t *testing.T) {
	s := newScreen(120, 30)
	feed(s, listing())
	press(s, "n")
	press(s, "1")
	s.Update(tea.PasteMsg{Content: "replica"})
	if got := s.wizard.StepName(); got != "target" {
		t.Fatalf("step %s, want the target", got)
	}
	if v := view(s); !containsAll(v, "/replica", "1 of 3") {
		t.Fatalf("the paste is not the target list's filter:\n%s", v)
	}
}

// TestPasteIntoTheMigrationsLists: m, then a paste into the source list
// and one into the target list (after "/") filter them, and enter
// chooses the row each leaves.
func TestPasteIntoTheMigrationsLists(t *testing.T) {
	s := newScreen(120, 30)
	feed(s, listing())
	press(s, "m")
	if s.migrate == nil {
		t.Fatal("m did not open the migration")
	}
	m := s.migrate
	s.Update(tea.PasteMsg{Content: "orders"})
	if m.table.Filter() != "orders" || m.table.SelectedID() != orders.ID {
		t.Fatalf("pasted orders into the sources: filter %q, on %q\n%s", m.table.Filter(), m.table.SelectedID(), view(s))
	}
	press(s, "enter")
	if m.step != migTarget || m.srcID != orders.ID {
		t.Fatalf("enter after the paste: step %d, source %q", m.step, m.srcID)
	}
	press(s, "/")
	s.Update(tea.PasteMsg{Content: "gcp"})
	if m.table.Filter() != "gcp" || m.table.SelectedID() != gcpSvc.ID {
		t.Fatalf("pasted gcp into the targets: filter %q, on %q\n%s", m.table.Filter(), m.table.SelectedID(), view(s))
	}
}

// TestMigrationFilterLandsOnAChoosableService: at the target step, with
// the cursor moved onto a service that cannot be the target, a name
// typed that keeps it moves the cursor to the first one that can.
func TestMigrationFilterLandsOnAChoosableService(t *testing.T) {
	m := migrationOf([]api.Service{orders, replica, gcpSvc}, nil)
	m.table.Select(orders.ID)
	m.Update(tuitest.KeyMsg("enter"))
	if m.step != migTarget {
		t.Fatalf("step %d, want the target", m.step)
	}
	m.table.Select(replica.ID) // same provider as the source: cannot be the target
	for _, k := range tuitest.Typed("dbt") {
		m.Update(k)
	}
	if m.table.Filter() != "dbt" || m.table.Len() != 3 || m.table.SelectedID() != gcpSvc.ID {
		t.Fatalf("typed dbt: filter %q, %d rows, on %q, want %s", m.table.Filter(), m.table.Len(), m.table.SelectedID(), gcpSvc.ID)
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}
