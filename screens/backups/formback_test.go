package backups_test

import "testing"

// TestNewBackupEscBackToSchedules: n pressed on the schedules and left
// with esc goes back to the schedules, where it was pressed.
func TestNewBackupEscBackToSchedules(t *testing.T) {
	h, _, _ := openDaily(t, nil)
	h.Key("n")
	h.Sees("Step 1 of 3: type")
	h.Key("esc")
	h.Sees("new backup cancelled")
	h.Sees("Schedules of orders-prod")
	h.Sees("daily at 03:00 UTC")
}
