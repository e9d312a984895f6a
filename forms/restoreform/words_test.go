package restoreform

import (
	"strings"
	"testing"
)

// TestBackupPickerWordsAsBackups: the wizard's backup picker words a
// backup's status as the Backups screen does (completed, in progress),
// not with the API's Succeeded and Running.
func TestBackupPickerWordsAsBackups(t *testing.T) {
	e := rtSetup(t, false)
	w := e.wizard(t, Options{})
	rtPress(w, "1")
	w.targets.Select(e.byName["dev-serverless"].ID)
	rtPress(w, "enter")
	rtPress(w, "s")
	w.sources.Select(e.byName["analytics-gcp"].ID)
	rtPress(w, "enter")
	e.feedBackups(t, w)
	out := rtView(w)
	if !strings.Contains(out, "completed") || !strings.Contains(out, "in progress") ||
		strings.Contains(out, "Succeeded") || strings.Contains(out, "Running") {
		t.Fatalf("the picker's status words:\n%s", out)
	}
}
