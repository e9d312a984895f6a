package restoreform

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/tui/tuitest"
)

// Nothing typed on the confirmation is lost, and a step's refusal leaves
// with what it was about.

// toBackups is the wizard at 80x24 on the backups step: managed storage,
// into target, the backups of source listed.
func (e *rtEnv) toBackups(t *testing.T, target, source string) *Wizard {
	t.Helper()
	w := e.wizard(t, Options{})
	w.SetSize(80, 24)
	rtPress(w, "1")
	w.targets.Select(e.byName[target].ID)
	rtPress(w, "enter", "s")
	w.sources.Select(e.byName[source].ID)
	rtPress(w, "enter")
	e.feedBackups(t, w)
	return w
}

// managedInto is a new wizard past its first steps: managed storage, into
// target (the backups of the target's own listing asked next).
func (e *rtEnv) managedInto(t *testing.T, target string) *Wizard {
	t.Helper()
	w := e.wizard(t, Options{})
	rtPress(w, "1")
	w.targets.Select(e.byName[target].ID)
	rtPress(w, "enter")
	return w
}

// rtManagedConfirm is the wizard at the confirmation, at 80x24: managed
// storage, orders-prod's newest completed backup into replica-west.
func rtManagedConfirm(t *testing.T) (*rtEnv, *Wizard) {
	t.Helper()
	e := rtSetup(t, false)
	w := e.toBackups(t, "replica-west", "orders-prod")
	rtPress(w, "enter")
	if w.Confirm() == nil {
		t.Fatalf("step %s, want the confirmation:\n%s", w.StepName(), rtView(w))
	}
	return e, w
}

// TestConfirmTypingOnAButtonGoesToTheName: tab puts the focus on [ Back ];
// the name typed then goes to the name's field (the focus moves there),
// not into nothing, and the enter after it confirms what was typed
// instead of pressing Back (it went back to step 3, the name lost). A
// paste and backspace on a button edit the name too.
func TestConfirmTypingOnAButtonGoesToTheName(t *testing.T) {
	_, w := rtManagedConfirm(t)
	rtPress(w, "tab")
	if w.Confirm().focus != confirmFocusBack {
		t.Fatalf("tab: focus %d, want Back", w.Confirm().focus)
	}
	rtType(w, "replica-west")
	out := rtView(w)
	if got := w.Confirm().Typed(); got != "replica-west" {
		t.Fatalf("typed on [ Back ]: the name holds %q\n%s", got, out)
	}
	if !strings.Contains(out, "> replica-west") || !strings.Contains(out, "[ Restore and erase replica-west ]") {
		t.Fatalf("the typed name is not shown in its field:\n%s", out)
	}
	a, done := rtAction(t, rtPress(w, "enter"))
	if !done.Submitted || a.Key != "restore:"+w.Target().ID {
		t.Fatalf("enter after the typed name: %+v %+v", a, done)
	}

	// a paste and backspace on a button
	_, w = rtManagedConfirm(t)
	rtPress(w, "tab")
	w.Update(tea.PasteMsg{Content: "replica-wes"})
	if got := w.Confirm().Typed(); got != "replica-wes" || w.Confirm().focus != confirmFocusInput {
		t.Fatalf("pasted on [ Back ]: name %q, focus %d", got, w.Confirm().focus)
	}
	rtPress(w, "tab", "backspace")
	if got := w.Confirm().Typed(); got != "replica-we" {
		t.Fatalf("backspace on [ Back ]: name %q", got)
	}
	// keys that move between the buttons still move
	rtType(w, "st")
	rtPress(w, "tab", "right")
	if !w.Confirm().OnRestore() {
		t.Fatal("right on [ Back ] did not move to the enabled Restore")
	}
}

// TestConfirmBackAsksTheNameAgain: the name typed, then [ Back ] (or
// esc): coming back, even to the same restore, the name is asked again,
// the focus in its field, so enter on the step before and another enter
// (a double press) never restore with a name typed earlier.
func TestConfirmBackAsksTheNameAgain(t *testing.T) {
	_, w := rtManagedConfirm(t)
	rtType(w, "replica-west")
	rtPress(w, "tab", "enter")
	if w.StepName() != "backup" {
		t.Fatalf("enter on [ Back ]: step %s", w.StepName())
	}
	rtPress(w, "enter")
	cf := w.Confirm()
	if cf == nil || cf.Typed() != "" || cf.focus != confirmFocusInput {
		t.Fatalf("back to the same restore: step %s\n%s", w.StepName(), rtView(w))
	}
	rtType(w, "replica-west")
	rtPress(w, "esc")
	rtPress(w, "enter")
	if got := w.Confirm().Typed(); got != "" {
		t.Fatalf("esc, then back to the same restore: name %q kept", got)
	}
	rtPress(w, "enter")
	if w.StepName() != "confirm" {
		t.Fatalf("enter with no name typed left the step: %s", w.StepName())
	}
	// left with ctrl+x, the name typed, and brought back (n: Init): the
	// name is asked again, not kept armed
	rtType(w, "replica-west")
	rtPress(w, "ctrl+x")
	rtRun(w, w.Init())
	if cf := w.Confirm(); cf == nil || cf.Typed() != "" || cf.focus != confirmFocusInput || cf.Matches() {
		t.Fatalf("brought back after ctrl+x: the name typed before is kept\n%s", rtView(w))
	}
}

// TestBackupRefusalLeavesWithItsList: the refusal of a running backup of
// analytics-gcp is not shown over orders-prod's backups once s chose that
// service (nor over the services to choose from); on the target step a
// refusal leaves when the cursor leaves the service it was about.
func TestBackupRefusalLeavesWithItsList(t *testing.T) {
	e := rtSetup(t, false)
	orders := e.byName["orders-prod"]
	w := e.toBackups(t, "replica-west", "analytics-gcp")
	running := ""
	for k, b := range w.backups {
		if api.BackupState(b.Status) == api.BackupInProgress {
			running = k
		}
	}
	if running == "" {
		t.Fatal("analytics-gcp has no running backup")
	}
	w.backupTable.Select(running)
	rtPress(w, "enter")
	const refusal = "is still running; only a completed backup can be"
	if !strings.Contains(rtView(w), refusal) {
		t.Fatalf("no refusal:\n%s", rtView(w))
	}
	rtPress(w, "s")
	if out := rtView(w); strings.Contains(out, refusal) {
		t.Fatalf("the refusal stays over the services:\n%s", out)
	}
	w.sources.Select(orders.ID)
	rtPress(w, "enter")
	e.feedBackups(t, w)
	if out := rtView(w); !strings.Contains(out, "Backups of orders-prod") || strings.Contains(out, refusal) {
		t.Fatalf("orders-prod's backups:\n%s", out)
	}

	// the target step: a pending service refused, then the cursor moves
	rtPress(w, "esc")
	w.targets.Select(e.byName["reporting-new"].ID)
	rtPress(w, "enter")
	if !strings.Contains(rtView(w), "reporting-new is pending_create") {
		t.Fatalf("no refusal of the pending target:\n%s", rtView(w))
	}
	rtPress(w, "down")
	if out := rtView(w); strings.Contains(out, "reporting-new is pending_create") {
		t.Fatalf("the refusal stays under another service:\n%s", out)
	}
}

// TestSourcePickerStartsAfresh: s opens the source services with no
// filter (the name typed to choose the last one was kept, and the next
// name typed was added to it: "analytics-gcporders-prod", nothing matched
// and enter went back to the old list); enter while no row matches stays.
func TestSourcePickerStartsAfresh(t *testing.T) {
	e := rtSetup(t, false)
	w := e.wizard(t, Options{})
	w.SetSize(80, 24)
	rtPress(w, "1")
	w.targets.Select(e.byName["replica-west"].ID)
	rtPress(w, "enter", "s")
	rtType(w, "analytics-gcp")
	rtPress(w, "enter")
	if got := w.sourceServiceID(); got != e.byName["analytics-gcp"].ID {
		t.Fatalf("source %s:\n%s", got, rtView(w))
	}
	rtPress(w, "s")
	if f := w.sources.Filter(); f != "" || !strings.Contains(rtView(w), "orders-prod") {
		t.Fatalf("s again: the services are filtered on %q:\n%s", f, rtView(w))
	}
	rtType(w, "nothing-like-it")
	rtPress(w, "enter")
	if !w.pickingSource || !strings.Contains(rtView(w), "no rows match the filter") {
		t.Fatalf("enter with no row matching left the services:\n%s", rtView(w))
	}
	for i := 0; w.pickingSource && i < 3; i++ {
		rtPress(w, "esc") // the filter, then the services
	}
	if w.StepName() != "backup" || w.pickingSource {
		t.Fatalf("esc from the services: step %s:\n%s", w.StepName(), rtView(w))
	}
	rtPress(w, "s")
	rtType(w, "orders-prod")
	rtPress(w, "enter")
	e.feedBackups(t, w)
	if out := rtView(w); w.sourceServiceID() != e.byName["orders-prod"].ID || !strings.Contains(out, "Backups of orders-prod") {
		t.Fatalf("s, orders-prod, enter:\n%s", out)
	}
}

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

// TestWizardListsTakeEveryLetter: in the wizard's lists a name is typed,
// so the letters that move a list elsewhere (j, k, g, G, q) are part of
// it from the first: "gcp" filters on "gcp" (g jumped to the top and was
// lost, the filter then "cp").
func TestWizardListsTakeEveryLetter(t *testing.T) {
	e := rtSetup(t, false)
	w := e.wizard(t, Options{})
	w.SetSize(80, 24)
	rtPress(w, "1")
	rtType(w, "gcp")
	v := rtView(w)
	if !strings.Contains(v, "/gcp") || strings.Contains(v, "orders-prod") {
		t.Fatalf("typed gcp: the list is not filtered on it:\n%s", v)
	}
}

// TestConfirmReopensAtItsTop: the confirmation scrolled down at 60x16,
// then left (ctrl+x, brought back; esc, enter), opens at its top again,
// the target and its status in sight (it kept the old scroll).
func TestConfirmReopensAtItsTop(t *testing.T) {
	_, w := rtManagedConfirm(t)
	w.SetSize(60, 16)
	top := rtView(w)
	if !strings.Contains(top, "status: ready") || !w.Confirm().Cut() {
		t.Fatalf("the test needs a confirmation cut at 60x16, its status on top:\n%s", top)
	}
	for _, leave := range [][]string{{"ctrl+x"}, {"esc"}} {
		rtPress(w, "pgdown", "pgdown")
		if strings.Contains(rtView(w), "status: ready") {
			t.Fatalf("pgdown did not scroll:\n%s", rtView(w))
		}
		rtPress(w, leave...)
		if leave[0] == "esc" {
			rtPress(w, "enter")
		} else {
			rtRun(w, w.Init())
		}
		if out := rtView(w); out != top {
			t.Fatalf("back after %s, the confirmation is not at its top:\n%s\nwant:\n%s", leave[0], out, top)
		}
	}
}

// TestSourceChoiceStopsAtItsEnds: up on the first source and down on the
// last stay there, as every list does (it wrapped around to the other
// end).
func TestSourceChoiceStopsAtItsEnds(t *testing.T) {
	e := rtSetup(t, false)
	w := e.wizard(t, Options{})
	w.SetSize(80, 24)
	rtPress(w, "up")
	if w.sourceCursor != 0 {
		t.Fatalf("up on the first source moved to %d", w.sourceCursor)
	}
	rtPress(w, "down", "down", "down", "down", "down")
	if w.sourceCursor != sourceCount-1 {
		t.Fatalf("down past the last source moved to %d", w.sourceCursor)
	}
}

// TestConfirmLongRefusalScrollsTheNameStays: at 60x16 (the wizard's body
// 60x12) after a refusal with a long message, the name to type, its field
// with what is typed again and the buttons stay in view; the refusal
// scrolls with the explanation (it was in the foot and pushed them off
// the screen, the trace ID cut), and pgdn reaches its trace ID.
func TestConfirmLongRefusalScrollsTheNameStays(t *testing.T) {
	_, w := rtManagedConfirm(t)
	w.SetSize(60, 12)
	w.Failed(&api.Error{Status: 429, Message: strings.Repeat("the restore service is busy with other requests; ", 5) + "retry later",
		TraceID: "4bf92f3577b34da6a3ce929d0e0e4736"})
	rtType(w, "replica")
	seen := ""
	for i := range 8 {
		v := rtView(w)
		tuitest.CheckFits(t, "the confirmation after a long refusal", v, 60, 12)
		for _, want := range []string{"This erases ALL data in replica-west.", "Type replica-west to confirm:", "> replica", "[ Back ]", "[ Restore"} {
			if !strings.Contains(v, want) {
				t.Fatalf("after %d pgdn the confirmation lacks %q:\n%s", i, want, v)
			}
		}
		if i == 0 && !strings.Contains(v, "429 Too Many Requests") {
			t.Fatalf("the refusal's status is not in sight at first:\n%s", v)
		}
		seen += v + "\n"
		rtPress(w, "pgdown")
	}
	if !strings.Contains(words(seen), "trace 4bf92f3577b34da6a3ce929d0e0e4736") {
		t.Fatalf("pgdn never showed the whole trace ID:\n%s", seen)
	}
	if got := w.Confirm().Typed(); got != "replica" {
		t.Fatalf("the name holds %q", got)
	}
}
