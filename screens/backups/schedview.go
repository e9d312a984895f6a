package backups

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// schedView is the schedules view: the schedules of one service (the one
// shown, or in the all-services view the selected backup's), the list
// over the selected schedule's next runs. It is always stacked, the list
// on top (a service has a few schedules; the runs want the width), so it
// is not a kit.ListView, but it takes the list's keys (esc, J/K).
type schedView struct {
	common *kit.Common
	svcID  string
	listed []api.Schedule          // as listed
	shown  []api.Schedule          // listed and just created, as shown
	made   map[string]api.Schedule // created here, not listed yet
	byID   map[string]int
	loaded bool
	err    error
	table  *kit.Table
	detail *kit.Detail
	width  int
}

func newSchedView(c *kit.Common) *schedView {
	v := &schedView{common: c, made: map[string]api.Schedule{}, byID: map[string]int{},
		table: kit.NewTable(c, scheduleColumns()), detail: kit.NewDetail(c)}
	v.reset()
	return v
}

// reset forgets the schedules: they are loading again.
func (v *schedView) reset() {
	v.listed, v.shown, v.loaded, v.err = nil, nil, false, nil
	clear(v.byID)
	clear(v.made)
	v.table.Empty = "loading schedules" + v.common.Theme.Glyphs.Ellipsis
	v.table.SetFilter("")
	v.table.SetRows(nil)
	v.detail.SetContent("", nil)
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
		v.err = err
		if !v.loaded {
			v.table.Empty = "could not load schedules: " + err.Error()
		}
		return
	}
	v.listed, v.loaded, v.err = list, true, nil
	v.table.Empty = "no schedules: n with a daily, hourly or cron schedule creates one"
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
	v.table.SetFilter("")
	v.rebuild()
	if sc != nil {
		v.table.Select(scheduleKey(sc))
		v.refreshDetail()
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
	v.table.SetRows(rows)
	v.refreshDetail()
}

func (v *schedView) refreshDetail() {
	i, ok := v.byID[v.table.SelectedID()]
	if !ok {
		v.detail.SetContent("", nil)
		return
	}
	sc := &v.shown[i]
	v.detail.SetContent("Schedule "+scheduleKey(sc), scheduleSections(sc, v.common.Time(), time.Local))
}

// setSize lays out the list over the pane, below the status line.
func (v *schedView) setSize(w, h int) {
	v.width = w
	h-- // the status line
	tableH := max(4, h/2)
	v.table.SetSize(w, tableH)
	v.detail.SetSize(w, h-tableH-1)
}

// capturing reports that the filter is being typed.
func (v *schedView) capturing() bool { return v.table.Filtering() }

// handleKey handles the view's keys and reports whether it used the key:
// while the filter is typed, every key; esc clears the filter (else it is
// the screen's: back to the backups); J/K scroll the pane; the rest moves
// in the table.
func (v *schedView) handleKey(msg tea.KeyPressMsg, k kit.ListKeys) (bool, tea.Cmd) {
	if v.table.Filtering() {
		_, cmd := v.table.Update(msg)
		v.refreshDetail()
		return true, cmd
	}
	switch {
	case key.Matches(msg, k.Back):
		if v.table.Filter() == "" {
			return false, nil
		}
		v.table.SetFilter("")
		v.refreshDetail()
		return true, nil
	case key.Matches(msg, k.ScrollDown):
		v.detail.ScrollBy(3)
		return true, nil
	case key.Matches(msg, k.ScrollUp):
		v.detail.ScrollBy(-3)
		return true, nil
	}
	used, cmd := v.table.Update(msg)
	v.refreshDetail()
	return used, cmd
}

// update passes a message that is not a key (the filter input's cursor)
// to the table.
func (v *schedView) update(msg tea.Msg) tea.Cmd {
	_, cmd := v.table.Update(msg)
	return cmd
}

// countText is "loading", the number of schedules, or "N of M" under a
// filter.
func (v *schedView) countText() string {
	if !v.loaded && v.err == nil {
		return "loading"
	}
	n := v.table.Total()
	if v.table.Filter() != "" {
		return fmt.Sprintf("%d of %d", v.table.Len(), n)
	}
	return strconv.Itoa(n)
}

// view is the status line (title, count, notes) over the list and the
// pane.
func (v *schedView) view(title string, notes ...string) string {
	th := v.common.Theme
	line := th.Bold.Render(" "+title) + "  " + th.Muted.Render(v.countText()+"  times in UTC and local")
	if n := kit.Notes(notes...); n != "" {
		line += "  " + n
	}
	line = ansi.Truncate(line, v.width, th.Glyphs.Ellipsis)
	return line + "\n" + kit.Stacked(th, v.table.View(), v.table.Height(), v.detail.View(), v.width)
}
