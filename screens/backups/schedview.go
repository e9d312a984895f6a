package backups

import (
	"context"
	"strconv"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

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
	v.Loaded("no schedules: n with a daily, hourly or cron schedule creates one")
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
