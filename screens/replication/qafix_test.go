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
