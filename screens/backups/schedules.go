package backups

import (
	"context"
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

// scheduleColumns are the schedules table's columns. At 80 columns it
// shows ID (what tells two schedules of the same type and time apart),
// TYPE, SCHEDULE, DESCRIPTION whole, NEXT (LOCAL) and STATUS; TARGET gives
// way first (the pane has it), then ID and NEXT.
func scheduleColumns() []kit.Column {
	return []kit.Column{
		scID:     {Title: "ID", Min: 2, Max: 6, Priority: 6, Right: true},
		scType:   {Title: "TYPE", Min: 11, Max: 11, Priority: 9},
		scExpr:   {Title: "SCHEDULE", Min: 12, Max: 16, Priority: 10}, // "30 2 * * 1-5" whole at 60 columns
		scWhen:   {Title: "DESCRIPTION", Min: 19, Max: 44, Priority: 8},
		scNext:   {Title: "NEXT (LOCAL)", Min: 12, Max: 12, Priority: 6},
		scStatus: {Title: "STATUS", Min: 9, Max: 12, Priority: 7},
		scTarget: {Title: "TARGET", Min: 12, Max: 34, Priority: 5},
	}
}

func isOnce(s *api.Schedule) bool { return s.OneTime() }

// scheduleExpr is the cron expression or "once"; the live listing may
// say only "cron" without the expression.
func scheduleExpr(s *api.Schedule) string {
	return strings.TrimSpace(s.Expression())
}

func scheduleKey(s *api.Schedule) string { return strconv.FormatInt(int64(s.ID), 10) }

func scheduleWhen(s *api.Schedule, now time.Time) string {
	expr := scheduleExpr(s)
	if expr == "once" {
		if !s.ScheduledAt.IsZero() {
			return "once, at " + kit.Stamp(s.ScheduledAt.Time, now)
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
	return kit.Stamp(runs[0], now)
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
			scWhen:   scheduleWhen(s, now),
			scNext:   nextRun(s, now),
			scStatus: scheduleStatus(s),
			scTarget: s.TargetText(),
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
	if t := s.TargetText(); t != api.ManagedPlace {
		target, bucket = "your own bucket", t
	}
	f := []kit.Field{
		{Label: "ID", Value: scheduleKey(s)},
		{Label: "Type", Value: kit.OrDash(s.Type)},
		{Label: "Schedule", Value: kit.OrDash(expr)},
		{Label: "Description", Value: scheduleWhen(s, now)},
		{Label: "Next runs", Value: runs},
		{Label: "Status", Value: scheduleStatus(s), Kind: theme.StatusKind(scheduleStatus(s))},
		{Label: "Message", Value: kit.OrDash(s.Message)},
		{Label: "Target", Value: target},
	}
	if bucket != "" {
		f = append(f, kit.Field{Label: "Bucket path", Value: bucket})
	}
	f = append(f, kit.Field{Label: "Created", Value: created})
	if isOnce(s) {
		f = append(f, kit.Field{Label: "Backup", Value: kit.OrDash(s.BackupID)})
	}
	return []kit.Section{{Fields: f}}
}

// schedView is the schedules view: the schedules of one service (the one
// shown, or in the all-services view the selected backup's), the list
// over the selected schedule's next runs. It is a kit.ListView with the
// pane pinned under the list (a service has a few schedules; the runs
// want the width).
type schedView struct {
	*kit.ListView
	common *kit.Common
	svcID  string
	listed []api.Schedule          // as listed
	shown  []api.Schedule          // listed and just created, as shown
	made   map[string]api.Schedule // created here, not listed yet
	byID   map[string]int
}

func newSchedView(c *kit.Common) *schedView {
	v := &schedView{common: c, made: map[string]api.Schedule{}, byID: map[string]int{},
		ListView: kit.NewListView(c, "", "schedules", scheduleColumns())}
	v.NoSelection = ""
	v.DetailOf = v.detailOf
	v.Rebuild = v.rebuild
	v.PinPane()
	v.reset()
	return v
}

// reset forgets the schedules: they are loading again.
func (v *schedView) reset() {
	v.listed, v.shown = nil, nil
	clear(v.byID)
	clear(v.made)
	v.Table.SetFilter("")
	v.Reset()
}

// show makes the view the schedules of service id.
func (v *schedView) show(id string) {
	if id != v.svcID {
		v.svcID = id
		v.reset()
	}
}

// resource is the schedules of the service shown.
func (v *schedView) resource(client *api.Client) kit.Resource {
	id := v.svcID
	return kit.SchedulesKey(id).Resource(func(ctx context.Context) ([]api.Schedule, error) {
		if client == nil {
			return nil, errNoClient
		}
		return client.ListSchedules(ctx, id)
	}, nil)
}

// onData takes the schedules of the service shown.
func (v *schedView) onData(msg kit.DataMsg) {
	if v.svcID == "" {
		return
	}
	list, err, ok := kit.SchedulesKey(v.svcID).Of(msg)
	switch {
	case !ok:
		return
	case err != nil:
		v.Failed(err)
		return
	}
	v.listed = list
	v.Loaded(kit.Invite(v.common, "no schedules", "n with a daily, hourly or cron schedule creates one"))
	for _, sc := range list {
		delete(v.made, scheduleKey(&sc))
	}
	v.rebuild()
}

// created shows a schedule created here (nil: the answer did not say
// which) until the listing has it, selected.
func (v *schedView) created(sc *api.Schedule) {
	if sc != nil {
		v.made[scheduleKey(sc)] = *sc
	}
	v.Table.SetFilter("")
	v.rebuild()
	if sc != nil {
		v.Table.Select(scheduleKey(sc))
		v.RefreshDetail()
	}
}

func (v *schedView) rebuild() {
	list := append([]api.Schedule(nil), v.listed...)
	for _, sc := range v.made {
		list = append(list, sc)
	}
	sortSchedules(list)
	v.shown = list
	now := v.common.Time()
	rows := make([]kit.Row, len(list))
	clear(v.byID)
	for i := range list {
		rows[i] = scheduleRow(&list[i], now)
		v.byID[scheduleKey(&list[i])] = i
	}
	v.SetRows(rows)
}

func (v *schedView) detailOf(id string) (string, []kit.Section, bool) {
	i, ok := v.byID[id]
	if !ok {
		return "", nil, false
	}
	sc := &v.shown[i]
	return "Schedule " + scheduleKey(sc), scheduleSections(sc, v.common.Time(), time.Local), true
}

// view is the status line (title, count, notes) over the list and the
// pane.
func (v *schedView) view(notes ...string) string {
	return v.View(" "+v.CountText()+"  times in UTC and local", notes...)
}

// changed shows a schedule changed (sc, when the answer said) or deleted
// here at once, before the listing is read again.
func (v *schedView) changed(id int64, deleted bool, result any) {
	key := strconv.FormatInt(id, 10)
	sc, _ := result.(*api.Schedule)
	for i := 0; i < len(v.listed); i++ {
		old := &v.listed[i]
		if scheduleKey(old) != key {
			continue
		}
		if deleted {
			v.listed = append(v.listed[:i:i], v.listed[i+1:]...)
			break
		}
		if sc != nil {
			upd := *sc
			if e := scheduleExpr(&upd); e == "" || e == "cron" {
				upd.Schedule, upd.Cron = old.Schedule, old.Cron
			}
			if upd.ServiceID == "" {
				upd.ServiceID, upd.ServiceName = old.ServiceID, old.ServiceName
			}
			if upd.Type == "" {
				upd.Type = old.Type
			}
			if upd.Target == "" {
				upd.Target = old.Target
			}
			*old = upd
		}
		break
	}
	if deleted {
		delete(v.made, key)
	}
	v.rebuild()
	v.RefreshDetail()
}
