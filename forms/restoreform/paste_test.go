package restoreform

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/tui/tuitest"
)

// A name pasted into one of the wizard's lists filters it, as the name
// typed does, and a name typed or pasted lands on a row that can be
// chosen.

// TestWizardListsTakeAPaste: the target list takes a paste at once, after
// "/" and after a letter typed; the source service's list and the
// backups' list take one too; enter then chooses the row it leaves.
func TestWizardListsTakeAPaste(t *testing.T) {
	e := rtSetup(t, false)
	replica := e.byName["replica-west"].ID
	for _, before := range [][]string{nil, {"/"}, {"r"}} {
		w := e.wizard(t, Options{})
		rtPress(w, "1") // managed storage: the target comes next
		rtPress(w, before...)
		paste := "replica"
		if len(before) == 1 && before[0] == "r" {
			paste = "eplica"
		}
		rtRun(w, w.Update(tea.PasteMsg{Content: paste}))
		if got := w.targets.Filter(); got != "replica" || w.targets.SelectedID() != replica {
			t.Fatalf("%v then pasted %q: filter %q, on %q\n%s", before, paste, got, w.targets.SelectedID(), rtView(w))
		}
		rtPress(w, "enter")
		if w.Target().ID != replica || w.StepName() == "target" {
			t.Fatalf("%v, paste, enter: step %s, target %q", before, w.StepName(), w.Target().ID)
		}
	}

	w := e.wizard(t, Options{})
	rtPress(w, "1")
	w.targets.Select(replica)
	rtPress(w, "enter", "s")
	rtRun(w, w.Update(tea.PasteMsg{Content: "orders-prod"}))
	if got := w.sources.Filter(); got != "orders-prod" || w.sources.SelectedID() != e.byName["orders-prod"].ID {
		t.Fatalf("pasted into the source services: filter %q, on %q\n%s", got, w.sources.SelectedID(), rtView(w))
	}
	rtPress(w, "enter")
	e.feedBackups(t, w)
	if w.backupTable.Len() < 2 {
		t.Fatalf("%d backups listed: too few to filter", w.backupTable.Len())
	}
	row, _ := w.backupTable.Selected()
	rtRun(w, w.Update(tea.PasteMsg{Content: row.Cells[0]}))
	if got := w.backupTable.Filter(); got != row.Cells[0] || w.backupTable.Len() != 1 || w.backupTable.SelectedID() != row.ID {
		t.Fatalf("pasted a backup's name %q: filter %q, %d rows\n%s", row.Cells[0], got, w.backupTable.Len(), rtView(w))
	}
}

// TestTargetFilterLandsOnAChoosableService: with the backup chosen first
// (R on the Backups screen), a name typed into the target list leaves
// the cursor on a service the backup can be restored into, not on the
// first row the filter keeps ("rep" kept reporting-new, pending and on
// another provider, above replica-west).
func TestTargetFilterLandsOnAChoosableService(t *testing.T) {
	e := rtSetup(t, false)
	orders := e.byName["orders-prod"]
	backups, err := e.client.ListBackups(context.Background(), orders.ID)
	if err != nil || len(backups) == 0 {
		t.Fatalf("orders-prod's backups: %v %v", len(backups), err)
	}
	for _, paste := range []bool{false, true} {
		w := e.wizard(t, Options{Source: SourceManaged, SourceServiceID: orders.ID, Backup: &backups[0]})
		if paste {
			rtRun(w, w.Update(tea.PasteMsg{Content: "rep"}))
		} else {
			rtType(w, "rep")
		}
		v := rtView(w)
		if !strings.Contains(tuitest.LineWith(v, "reporting-new"), "reporting-new") {
			t.Fatalf("typed rep: reporting-new is not listed:\n%s", v)
		}
		if got := w.targets.SelectedID(); got != e.byName["replica-west"].ID {
			t.Fatalf("typed rep (paste %v): the cursor is on %s, want replica-west\n%s", paste, w.service(got).Name, v)
		}
	}
}
