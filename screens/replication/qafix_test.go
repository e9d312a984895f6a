package replication_test

import (
	"strings"
	"testing"
)

// bksp at the backup's step goes back to the allow list's step and stays
// there, though its check passes at once (it moved straight on to the
// backup again); enter there checks again and goes on; bksp once more is
// the pair's choice.
func TestBackFromBackupStaysAtAllowList(t *testing.T) {
	h := newDemo(t).app(80, 24, nil)
	h.Keys("4", "n")
	h.Sees("Choose the PRIMARY")
	h.choosePair("orders-prod", "replica-west")
	h.Sees("Step 1 of 6")
	if strings.Contains(h.Screen(), "FAIL  1 Allow list") {
		h.Key("enter")
	}
	h.Sees("Step 2 of 6")
	h.Key("backspace")
	h.Sees("PASS  1 Allow list")
	if !strings.Contains(h.Screen(), "Step 1 of 6") {
		t.Fatalf("bksp at step 2 did not stay at step 1:\n%s", h.Screen())
	}
	h.Key("enter")
	h.Sees("Step 2 of 6")
	h.Key("backspace")
	h.Sees("Step 1 of 6")
	h.Key("backspace")
	h.Sees("Choose the PRIMARY")
}

// The start refused (error 1045: the grant was said to be run but was
// not), bksp and the grant run: the start's step no longer shows its old
// failure; enter at it starts replication.
func TestRerunClearsOldFailure(t *testing.T) {
	h := newDemo(t).replication(nil, "No replication set up with skytui yet.")
	h.toRestored()
	h.Sees("Step 4 of 6")
	h.Key("enter")
	h.Sees("Step 5 of 6")
	h.Keys("m", "y")
	h.Sees("Step 6 of 6")
	h.Key("enter")
	h.Sees("error 1045")
	h.Key("backspace")
	h.Sees("Step 5 of 6")
	h.Key("enter")
	h.Sees("Step 6 of 6")
	if strings.Contains(h.Screen(), "error 1045") {
		t.Fatalf("the grant ran, step 6 still shows the start's old failure:\n%s", h.Screen())
	}
}
