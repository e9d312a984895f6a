package backupform

import "testing"

// TestSameRuns: two expressions are one schedule when every run of one is
// a run of the other, however they are written, and only then (a date
// range that leaves out a few days of the month is another schedule,
// even when the next twenty runs agree).
func TestSameRuns(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"0 3 * * 1-5", "0 3 * * MON-FRI", true},
		{"0 3 * * 1-5", "0  3 * * 1-5", true},
		{"*/30 * * * *", "0,30 * * * *", true},
		{"0 3 * * *", "0 3 * * 0-6", true},
		{"0 3 * * *", "0 3 1-31 * *", true},
		{"0 3 * * *", "0 3 1-31 * 1-5", true}, // both day fields restricted: either runs
		{"0 3 * jan-dec *", "0 3 * * *", true},
		{"0 3 * * 1-5", "0 3 * * 1-6", false},
		{"0 3 * * *", "0 3 1-27 * *", false},
		{"0 3 1-7 * 1", "0 3 1-7 * *", false},
		{"0 3 * * *", "0 4 * * *", false},
		{"0 3 * * *", "not cron", false},
	} {
		if got := sameRuns(tc.a, tc.b); got != tc.same {
			t.Errorf("sameRuns(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
}
