package api

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Backup schedules are 5-field cron expressions that the service evaluates
// in UTC. No maintained describer is reachable on the module proxy, so this
// file describes the common shapes in English (daily at a time, every N
// minutes or hours, on given weekdays or days of the month, in given
// months) and returns "" for anything else: callers then show the raw
// expression alone. Next runs come from NextRuns (robfig/cron), the
// same parser the client and the sandbox validate with.

// ScheduleZone is the zone the service evaluates cron expressions in.
var ScheduleZone = time.UTC

// ScheduleRuns returns the next n runs of a cron expression after now, as the
// service computes them (in UTC).
func ScheduleRuns(expr string, now time.Time, n int) ([]time.Time, error) {
	return NextRuns(expr, now.In(ScheduleZone), n)
}

// RunLine shows one run in UTC and in loc (the user's local time):
// "Sun 2026-03-15 03:00 UTC (local Sat 2026-03-14 23:00 EDT)".
func RunLine(t time.Time, loc *time.Location) string {
	const layout = "Mon 2006-01-02 15:04 MST"
	utc := t.In(ScheduleZone).Format(layout)
	if loc == nil {
		loc = time.Local
	}
	lt := t.In(loc)
	if name, off := lt.Zone(); off == 0 && (name == "UTC" || name == "GMT" || name == "") {
		return utc + " (local time is UTC)"
	}
	return utc + " (local " + lt.Format(layout) + ")"
}

// RunLines is the next n runs of expr after now, one RunLine each; on a
// bad expression, the one line of the error.
func RunLines(expr string, now time.Time, n int, loc *time.Location) []string {
	runs, err := NextRuns(expr, now, n)
	if err != nil {
		return []string{err.Error()}
	}
	out := make([]string, len(runs))
	for i, r := range runs {
		out[i] = RunLine(r, loc)
	}
	return out
}

// DescribeCron describes a 5-field cron expression in English, or returns
// "" when the expression is invalid or of a shape it does not know.
// Times are the service's, in UTC.
func DescribeCron(expr string) string {
	if expr == "once" {
		return "once, now"
	}
	if _, err := ParseCron(expr); err != nil {
		return ""
	}
	f := strings.Fields(expr)
	minute, ok1 := parseCronField(f[0], 0, 59, nil)
	hour, ok2 := parseCronField(f[1], 0, 23, nil)
	dom, ok3 := parseCronField(f[2], 1, 31, nil)
	month, ok4 := parseCronField(f[3], 1, 12, monthNames)
	dow, ok5 := parseCronField(f[4], 0, 6, dayNames)
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 {
		return ""
	}
	clock, interval := describeTime(minute, hour)
	if clock == "" && interval == "" {
		return ""
	}
	days := describeDays(dom, dow)
	months := ""
	if !month.any {
		names := make([]string, len(month.vals))
		for i, m := range month.vals {
			names[i] = time.Month(m).String()
		}
		months = "in " + cronJoinAnd(names)
	}
	if clock != "" {
		when := days
		if when == "" {
			when = "daily"
			if months != "" {
				when = "every day"
			}
		}
		return cronJoinWords(when, months, "at "+clock)
	}
	if days == "" {
		return cronJoinWords(interval, months)
	}
	return cronJoinWords(interval+",", days, months)
}

// cronJoinWords joins the parts that are not empty with spaces.
func cronJoinWords(parts ...string) string {
	return strings.Join(slices.DeleteFunc(parts, func(p string) bool { return p == "" }), " ")
}

// cronField is one field of an expression: any value ("*"), every step
// ("*/n"), or an explicit set of values.
type cronField struct {
	any  bool
	step int   // "*/n"
	vals []int // sorted, distinct
	// ranges keeps "a-b" items as written, for "from 09:00 to 17:00".
	ranges [][2]int
	items  int // comma-separated items written
}

var monthNames = map[string]int{"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6,
	"jul": 7, "aug": 8, "sep": 9, "oct": 10, "nov": 11, "dec": 12}

var dayNames = map[string]int{"sun": 0, "mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6}

func cronValue(s string, names map[string]int) (int, bool) {
	if v, ok := names[strings.ToLower(s)]; ok {
		return v, true
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

func parseCronField(s string, lo, hi int, names map[string]int) (cronField, bool) {
	if s == "*" || s == "?" {
		return cronField{any: true}, true
	}
	if rest, ok := strings.CutPrefix(s, "*/"); ok {
		n, err := strconv.Atoi(rest)
		if err != nil || n <= 0 {
			return cronField{}, false
		}
		if n == 1 {
			return cronField{any: true}, true
		}
		return cronField{step: n}, true
	}
	var f cronField
	seen := map[int]bool{}
	for _, item := range strings.Split(s, ",") {
		f.items++
		step := 1
		if r, st, ok := strings.Cut(item, "/"); ok {
			// a stepped range ("1-6/2", "5/15"): its values are listed
			n, err := strconv.Atoi(st)
			if err != nil || n <= 0 {
				return cronField{}, false
			}
			item, step = r, n
			if !strings.Contains(item, "-") {
				item += "-" + strconv.Itoa(hi)
			}
		}
		a, b, isRange := strings.Cut(item, "-")
		from, ok := cronValue(a, names)
		if !ok {
			return cronField{}, false
		}
		to := from
		if isRange {
			if to, ok = cronValue(b, names); !ok || to < from {
				return cronField{}, false
			}
			if step == 1 {
				f.ranges = append(f.ranges, [2]int{from, to})
			}
		}
		if from < lo || to > hi {
			return cronField{}, false
		}
		for v := from; v <= to; v += step {
			if !seen[v] {
				seen[v] = true
				f.vals = append(f.vals, v)
			}
		}
	}
	sort.Ints(f.vals)
	if len(f.vals) == hi-lo+1 {
		return cronField{any: true}, true
	}
	return f, true
}

// describeTime returns either clock times ("03:00 UTC", "01:15 and 13:15
// UTC") or an interval phrase ("every 15 minutes", "every hour at :15").
func describeTime(minute, hour cronField) (clock, interval string) {
	switch {
	case minute.any && hour.any:
		return "", "every minute"
	case minute.step > 0 && hour.any:
		return "", fmt.Sprintf("every %d minutes", minute.step)
	case len(minute.vals) == 1 && hour.any:
		return "", fmt.Sprintf("every hour at :%02d", minute.vals[0])
	case len(minute.vals) > 1 && hour.any && len(minute.vals) <= 4:
		marks := make([]string, len(minute.vals))
		for i, m := range minute.vals {
			marks[i] = fmt.Sprintf(":%02d", m)
		}
		return "", "every hour at " + cronJoinAnd(marks)
	case len(minute.vals) == 1 && hour.step > 0:
		m := minute.vals[0]
		var times []string
		for h := 0; h < 24; h += hour.step {
			times = append(times, fmt.Sprintf("%02d:%02d", h, m))
		}
		if len(times) <= 6 {
			return "", fmt.Sprintf("every %d hours, at %s UTC", hour.step, cronJoinAnd(times))
		}
		return "", fmt.Sprintf("every %d hours at :%02d (from 00:%02d UTC)", hour.step, m, m)
	case len(minute.vals) == 1 && len(hour.ranges) == 1 && hour.items == 1:
		m, r := minute.vals[0], hour.ranges[0]
		return "", fmt.Sprintf("every hour from %02d:%02d to %02d:%02d UTC", r[0], m, r[1], m)
	case len(minute.vals) >= 1 && len(hour.vals) >= 1 && len(minute.vals)*len(hour.vals) <= 6:
		var times []string
		for _, h := range hour.vals {
			for _, m := range minute.vals {
				times = append(times, fmt.Sprintf("%02d:%02d", h, m))
			}
		}
		return cronJoinAnd(times) + " UTC", ""
	case minute.step > 0 && len(hour.ranges) == 1 && hour.items == 1:
		r := hour.ranges[0]
		return "", fmt.Sprintf("every %d minutes from %02d:00 to %02d:59 UTC", minute.step, r[0], r[1])
	case len(minute.vals) == 1 && len(hour.vals) > 1:
		hs := make([]string, len(hour.vals))
		for i, h := range hour.vals {
			hs[i] = fmt.Sprintf("%02d", h)
		}
		return "", fmt.Sprintf("at :%02d past hours %s UTC", minute.vals[0], cronJoinAnd(hs))
	case minute.any && len(hour.vals) == 1:
		h := hour.vals[0]
		return "", fmt.Sprintf("every minute from %02d:00 to %02d:59 UTC", h, h)
	case minute.step > 0 && len(hour.vals) == 1:
		h := hour.vals[0]
		return "", fmt.Sprintf("every %d minutes from %02d:00 to %02d:59 UTC", minute.step, h, h)
	}
	return "", ""
}

// describeDays is "" (every day), "every Sunday", "Monday to Friday",
// "on day 1 of the month", or both joined by "or" (cron's rule when both
// are restricted).
func describeDays(dom, dow cronField) string {
	var parts []string
	if !dom.any {
		if dom.step > 0 {
			parts = append(parts, fmt.Sprintf("every %d days of the month", dom.step))
		} else {
			days := make([]string, len(dom.vals))
			for i, d := range dom.vals {
				days[i] = strconv.Itoa(d)
			}
			word := "day"
			if len(days) > 1 {
				word = "days"
			}
			parts = append(parts, "on "+word+" "+cronJoinAnd(days)+" of the month")
		}
	}
	if !dow.any {
		if dow.step > 0 {
			return "" // "*/2" weekdays: too rare to phrase; caller falls back
		}
		parts = append(parts, describeWeekdays(dow))
	}
	return strings.Join(parts, " or ")
}

func describeWeekdays(dow cronField) string {
	name := func(d int) string { return time.Weekday(d).String() }
	if len(dow.ranges) == 1 && dow.items == 1 {
		r := dow.ranges[0]
		if r == [2]int{1, 5} {
			return "Monday to Friday"
		}
		return name(r[0]) + " to " + name(r[1])
	}
	names := make([]string, len(dow.vals))
	for i, d := range dow.vals {
		names[i] = name(d)
	}
	return "every " + cronJoinAnd(names)
}

// cronJoinAnd is "a", "a and b", "a, b and c".
func cronJoinAnd(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// DailyCron is the expression of "daily at HH:MM" (UTC).
func DailyCron(hhmm string) (string, error) {
	h, m, err := ParseClock(hhmm)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d %d * * *", m, h), nil
}

// HourlyCron is the expression of "every hour" (at minute 0).
const HourlyCron = "0 * * * *"

// ParseClock reads "HH:MM" (24-hour, UTC).
func ParseClock(s string) (hour, minute int, err error) {
	s = strings.TrimSpace(s)
	a, b, ok := strings.Cut(s, ":")
	if s == "" {
		return 0, 0, fmt.Errorf("time: is required, as HH:MM in UTC (24-hour), such as 03:00")
	}
	if !ok {
		return 0, 0, fmt.Errorf("time: %q is not HH:MM (24-hour, UTC), such as 03:00", s)
	}
	hour, err1 := strconv.Atoi(a)
	minute, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || len(b) != 2 || len(a) < 1 || len(a) > 2 {
		return 0, 0, fmt.Errorf("time: %q is not HH:MM (24-hour, UTC), such as 03:00", s)
	}
	if hour < 0 || hour > 23 {
		return 0, 0, fmt.Errorf("time: hour %d must be 0 to 23", hour)
	}
	if minute < 0 || minute > 59 {
		return 0, 0, fmt.Errorf("time: minute %d must be 0 to 59", minute)
	}
	return hour, minute, nil
}
