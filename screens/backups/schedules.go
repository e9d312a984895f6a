package backups

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
)

// The schedules view: the service's backup schedules (cron) and one-off
// jobs ("once"), each cron expression with its description and its next
// three runs in UTC and local time.

const (
	scID = iota
	scType
	scExpr
	scWhen
	scNext
	scStatus
	scTarget
)

func scheduleColumns() []kit.Column {
	return []kit.Column{
		scID:     {Title: "ID", Min: 2, Max: 6, Priority: 1, Right: true},
		scType:   {Title: "TYPE", Min: 11, Max: 11, Priority: 9},
		scExpr:   {Title: "SCHEDULE", Min: 9, Max: 16, Priority: 10},
		scWhen:   {Title: "DESCRIPTION", Min: 22, Max: 44, Priority: 8},
		scNext:   {Title: "NEXT RUN (LOCAL)", Min: 16, Max: 16, Priority: 6},
		scStatus: {Title: "STATUS", Min: 9, Max: 12, Priority: 7},
		scTarget: {Title: "TARGET", Min: 12, Max: 34, Priority: 5},
	}
}

func isOnce(s *api.Schedule) bool { return scheduleExpr(s) == "once" }

// scheduleExpr is the cron expression or "once"; the live listing may
// say only "cron" without the expression.
func scheduleExpr(s *api.Schedule) string {
	return strings.TrimSpace(s.Expression())
}

func scheduleKey(s *api.Schedule) string { return strconv.FormatInt(int64(s.ID), 10) }

func scheduleTarget(s *api.Schedule) string {
	if s.Target == "" {
		return "managed"
	}
	return s.Target
}

func scheduleWhen(s *api.Schedule) string {
	expr := scheduleExpr(s)
	if expr == "once" {
		if !s.ScheduledAt.IsZero() {
			return "once, at " + s.ScheduledAt.Local().Format("Jan 02 15:04")
		}
		return "once"
	}
	if d := api.DescribeCron(expr); d != "" {
		return d
	}
	if expr == "cron" || expr == "" {
		return "(the API did not give the expression)"
	}
	return "custom: " + expr
}

func scheduleStatus(s *api.Schedule) string {
	st := s.Status
	if st == "" {
		st = "-"
	}
	if s.Suspended {
		st = "suspended"
	}
	return st
}

func nextRun(s *api.Schedule, now time.Time) string {
	if isOnce(s) || s.Suspended {
		return "-"
	}
	runs, err := api.ScheduleRuns(scheduleExpr(s), now, 1)
	if err != nil || len(runs) == 0 {
		return "-"
	}
	return runs[0].Local().Format("Jan 02 15:04")
}

// sortSchedules: cron schedules first (oldest first), then one-off jobs
// (newest first).
func sortSchedules(list []api.Schedule) {
	sort.SliceStable(list, func(i, j int) bool {
		a, b := &list[i], &list[j]
		if oa, ob := isOnce(a), isOnce(b); oa != ob {
			return !oa
		}
		if isOnce(a) {
			return a.ID > b.ID
		}
		return a.ID < b.ID
	})
}

func scheduleRow(s *api.Schedule, now time.Time) kit.Row {
	return kit.Row{
		ID: scheduleKey(s),
		Cells: []string{
			scID:     scheduleKey(s),
			scType:   s.Type,
			scExpr:   scheduleExpr(s),
			scWhen:   scheduleWhen(s),
			scNext:   nextRun(s, now),
			scStatus: scheduleStatus(s),
			scTarget: scheduleTarget(s),
		},
		Kinds: []theme.Kind{scStatus: theme.StatusKind(scheduleStatus(s)), scTarget: 0},
	}
}

func scheduleSections(s *api.Schedule, now time.Time, loc *time.Location) []kit.Section {
	expr := scheduleExpr(s)
	runs := "-"
	if !isOnce(s) {
		if s.Suspended {
			runs = "none while suspended"
		} else if _, err := api.ParseCron(expr); err == nil {
			runs = strings.Join(api.RunLines(expr, now, 3, loc), "\n")
		}
	}
	created := "-"
	if !s.CreatedAt.IsZero() {
		created = fullTime(s.CreatedAt)
	}
	target, bucket := "managed storage", ""
	if t := scheduleTarget(s); t != "managed" {
		target, bucket = "your own bucket", t
	}
	f := []kit.Field{
		{Label: "ID", Value: scheduleKey(s)},
		{Label: "Type", Value: orDash(s.Type)},
		{Label: "Schedule", Value: orDash(expr)},
		{Label: "Description", Value: scheduleWhen(s)},
		{Label: "Next runs", Value: runs},
		{Label: "Status", Value: scheduleStatus(s), Kind: theme.StatusKind(scheduleStatus(s))},
		{Label: "Message", Value: orDash(s.Message)},
		{Label: "Target", Value: target},
	}
	if bucket != "" {
		f = append(f, kit.Field{Label: "Bucket path", Value: bucket})
	}
	f = append(f, kit.Field{Label: "Created", Value: created})
	if isOnce(s) {
		f = append(f, kit.Field{Label: "Backup", Value: orDash(s.BackupID)})
	}
	return []kit.Section{{Fields: f}}
}
