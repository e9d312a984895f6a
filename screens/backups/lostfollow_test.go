package backups_test

import (
	"regexp"
	"testing"
	"time"
)

var followedBackup = regexp.MustCompile(`backup [0-9a-f]{12} of orders-prod`)

// TestLostBackupAnswerFollowed: a one-off backup whose answer was lost,
// which the backups read again show started, is followed to its end as
// one whose answer came: "backup KEY of orders-prod completed".
func TestLostBackupAnswerFollowed(t *testing.T) {
	h, _, clk := app(t, 120, 36, true, nil)
	h.backupsOf("orders-prod")
	h.dropNext("POST", "/backup/v1/backups/schedules")
	h.Key("n")
	h.Keys("enter", "enter", "enter") // full, once, managed storage
	h.Sees("Review: this is the request that will be sent")
	h.Key("enter")
	h.Sees("Outcome unknown: full backup")
	h.Sees("It was most likely carried out")
	h.Key("enter") // leave it
	h.seesNot("Outcome unknown")
	var want string
	for _, w := range h.m.Watching() {
		if followedBackup.MatchString(w) {
			want = w
		}
	}
	if want == "" {
		t.Fatalf("watching %v, want the backup that was found started", h.m.Watching())
	}
	h.Key("1") // elsewhere
	clk.Advance(time.Hour)
	if h.FireWatches() == 0 {
		t.Fatal("no watch tick armed")
	}
	h.Sees(want + " completed")
}
