package api

import (
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // America/New_York without the system's zone files
)

func TestDescribeCron(t *testing.T) {
	for _, c := range []struct{ expr, want string }{
		{"0 3 * * *", "daily at 03:00 UTC"},
		{"30 1 * * 0", "every Sunday at 01:30 UTC"},
		{"30 1 * * sun", "every Sunday at 01:30 UTC"},
		{"15 * * * *", "every hour at :15"},
		{"0 * * * *", "every hour at :00"},
		{"*/15 * * * *", "every 15 minutes"},
		{"* * * * *", "every minute"},
		{"0 */6 * * *", "every 6 hours, at 00:00, 06:00, 12:00 and 18:00 UTC"},
		{"0 */2 * * *", "every 2 hours at :00 (from 00:00 UTC)"},
		{"0 9-17 * * 1-5", "every hour from 09:00 to 17:00 UTC, Monday to Friday"},
		{"0 2 * * 1,3,5", "every Monday, Wednesday and Friday at 02:00 UTC"},
		{"0 2,14 * * *", "daily at 02:00 and 14:00 UTC"},
		{"0 0 1 * *", "on day 1 of the month at 00:00 UTC"},
		{"0 0 1,15 * *", "on days 1 and 15 of the month at 00:00 UTC"},
		{"0 4 * 1,7 *", "every day in January and July at 04:00 UTC"},
		{"45 23 * * 6", "every Saturday at 23:45 UTC"},
		{"0 5 1 * 1", "on day 1 of the month or every Monday at 05:00 UTC"},
		{"once", "once, now"},
		// stepped ranges and steps within hours
		{"5 1-6/2 * * *", "daily at 01:05, 03:05 and 05:05 UTC"},
		{"0 0-22/2 * * *", "at :00 past hours 00, 02, 04, 06, 08, 10, 12, 14, 16, 18, 20 and 22 UTC"},
		{"0 9 * * 1-5/2", "every Monday, Wednesday and Friday at 09:00 UTC"},
		{"*/20 9-17 * * *", "every 20 minutes from 09:00 to 17:59 UTC"},
		{"0 4 * * SAT,SUN", "every Sunday and Saturday at 04:00 UTC"},
		// shapes it does not know, and invalid ones: "" (callers show the raw expression)
		{"1-10/2 * * * *", ""},
		{"0 3 * *", ""},
		{"61 3 * * *", ""},
		{"", ""},
		{"@daily", ""},
	} {
		if got := DescribeCron(c.expr); got != c.want {
			t.Errorf("DescribeCron(%q) = %q, want %q", c.expr, got, c.want)
		}
	}
}

func TestNextRunsAreUTCWhateverTheCallerZone(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	// 22:00 in New York on March 7 is 03:00 UTC on March 8: the run of
	// that day is already past, so the next is March 9 03:00 UTC.
	now := time.Date(2026, 3, 7, 22, 30, 0, 0, ny)
	runs, err := ScheduleRuns("0 3 * * *", now, 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Time{
		time.Date(2026, 3, 9, 3, 0, 0, 0, time.UTC),
		time.Date(2026, 3, 10, 3, 0, 0, 0, time.UTC),
		time.Date(2026, 3, 11, 3, 0, 0, 0, time.UTC),
	}
	for i := range want {
		if !runs[i].Equal(want[i]) || runs[i].Location() != time.UTC {
			t.Errorf("run %d = %v, want %v (in UTC)", i, runs[i], want[i])
		}
	}
}

// A daily run at 03:00 UTC is 22:00 in New York before the DST change of
// 8 March 2026 and 23:00 after it; the UTC time never moves.
func TestRunLinesAcrossDST(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 6, 12, 0, 0, 0, time.UTC)
	got := RunLines("0 3 * * *", now, 3, ny)
	want := []string{
		"Sat 2026-03-07 03:00 UTC (local Fri 2026-03-06 22:00 EST)",
		"Sun 2026-03-08 03:00 UTC (local Sat 2026-03-07 22:00 EST)",
		"Mon 2026-03-09 03:00 UTC (local Sun 2026-03-08 23:00 EDT)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("runs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// in UTC the local part says so rather than repeating itself
	if got := RunLine(time.Date(2026, 3, 9, 3, 0, 0, 0, time.UTC), time.UTC); got != "Mon 2026-03-09 03:00 UTC (local time is UTC)" {
		t.Fatalf("UTC line = %q", got)
	}
	// a zone east of UTC moves to the next day
	tokyo, _ := time.LoadLocation("Asia/Tokyo")
	if got := RunLine(time.Date(2026, 3, 9, 18, 30, 0, 0, time.UTC), tokyo); got != "Mon 2026-03-09 18:30 UTC (local Tue 2026-03-10 03:30 JST)" {
		t.Fatalf("Tokyo line = %q", got)
	}
}

func TestNextRunsWeeklyAndHourly(t *testing.T) {
	now := time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC) // a Saturday
	runs, _ := ScheduleRuns("30 1 * * 0", now, 2)
	if !runs[0].Equal(time.Date(2026, 3, 15, 1, 30, 0, 0, time.UTC)) || !runs[1].Equal(time.Date(2026, 3, 22, 1, 30, 0, 0, time.UTC)) {
		t.Fatalf("weekly runs = %v", runs)
	}
	runs, _ = ScheduleRuns(HourlyCron, now, 2)
	if !runs[0].Equal(now.Add(time.Hour)) || !runs[1].Equal(now.Add(2*time.Hour)) {
		t.Fatalf("hourly runs = %v (a run exactly now is not next)", runs)
	}
	if _, err := ScheduleRuns("0 25 * * *", now, 1); err == nil {
		t.Fatal("an invalid expression has next runs")
	}
	if l := RunLines("0 3 * *", now, 3, time.UTC); len(l) != 1 || !strings.Contains(l[0], "5 fields") {
		t.Fatalf("bad expression lines = %q", l)
	}
}

func TestDailyCronAndClock(t *testing.T) {
	for _, c := range []struct{ in, want, err string }{
		{"03:00", "0 3 * * *", ""},
		{"3:05", "5 3 * * *", ""},
		{"23:59", "59 23 * * *", ""},
		{" 00:00 ", "0 0 * * *", ""},
		{"24:00", "", "hour 24 must be 0 to 23"},
		{"12:60", "", "minute 60 must be 0 to 59"},
		{"1200", "", `"1200" is not HH:MM`},
		{"12:5", "", `"12:5" is not HH:MM`},
		{"ab:cd", "", "is not HH:MM"},
		{"", "", "is required"},
	} {
		got, err := DailyCron(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), "time: ") {
				t.Errorf("DailyCron(%q) error = %v, want one naming the field and %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("DailyCron(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
}
