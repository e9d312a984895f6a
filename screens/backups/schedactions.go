package backups

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// The changes of the schedules view: edit the cron expression (e),
// suspend or resume (s), delete (d). Each goes to the action layer (a
// read-only profile is refused there, before anything is sent); the
// answer refreshes the schedules.

type schedChange int

const (
	changeEdit schedChange = iota + 1
	changeSuspend
	changeDelete
)

// schedTag marks the answer of a schedule change.
type schedTag struct {
	change schedChange
	id     int64
	svcID  string
	edit   *schedEdit // changeEdit: the edit, reopened when refused
}

// selectedSchedule is the schedule under the cursor of the schedules view.
func (s *Screen) selectedSchedule() (api.Schedule, bool) {
	i, ok := s.sched.byID[s.sched.SelectedID()]
	if !ok {
		return api.Schedule{}, false
	}
	return s.sched.shown[i], true
}

// changeable says why the selected schedule cannot be changed ("" when it
// can): a one-time job, a schedule shown before the API named it.
func (s *Screen) changeable(what string) (api.Schedule, string) {
	sc, ok := s.selectedSchedule()
	switch {
	case !ok:
		return sc, "no schedule selected"
	case sc.ID <= 0:
		return sc, "this schedule has no ID yet (the API has not listed it): it cannot be " + what + " yet"
	}
	return sc, ""
}

func scheduleName(sc *api.Schedule, svcName string) string {
	return "schedule " + scheduleKey(sc) + " of " + svcName
}

// openEdit opens the edit of the selected schedule's cron expression.
func (s *Screen) openEdit() tea.Cmd {
	if s.common.ReadOnly {
		return kit.RefuseReadOnly(s.common, "editing a schedule")
	}
	sc, why := s.changeable("edited")
	if why == "" && isOnce(&sc) {
		why = "schedule " + scheduleKey(&sc) + " is a one-time job: it cannot be edited (n takes a new backup or makes a new schedule)"
	}
	if why != "" {
		return kit.Toast(kit.ToastWarn, why)
	}
	s.edit = newSchedEdit(s.common, sc, s.nameOf(s.sched.svcID, sc.ServiceName))
	if typed, ok := s.typed[int64(sc.ID)]; ok {
		s.edit.setTyped(typed)
	}
	s.edit.SetSize(s.Size())
	s.mode = modeSchedEdit
	return s.edit.focus()
}

// schedEvidence reads the schedule back, for an answer that was lost.
func schedEvidence(client *api.Client, id int64) func(ctx context.Context) (map[string]string, error) {
	return func(ctx context.Context) (map[string]string, error) {
		if client == nil {
			return nil, errNoClient
		}
		sc, err := client.GetSchedule(ctx, id)
		if api.IsNotFound(err) {
			return map[string]string{}, nil
		}
		if err != nil {
			return nil, err
		}
		return map[string]string{scheduleKey(sc): schedLine(sc)}, nil
	}
}

// schedLine is how a schedule is shown as evidence of a change:
// "schedule 1: 0 4 * * *, active".
func schedLine(sc *api.Schedule) string {
	state := "active"
	if sc.Suspended {
		state = "suspended"
	}
	return fmt.Sprintf("schedule %d: %s, %s", int64(sc.ID), sc.Expression(), state)
}

// schedEffect is the kit.Action.Effect of a change of schedule id of
// service svcID: a reading of the service's schedules shows it carried
// out when it lists the schedule as shows says the change leaves it (the
// expression sent, the suspension asked). Evidence, keyed by the
// schedule, cannot see a change of a schedule that was there before.
func schedEffect(svcID string, id int64, shows func(sc *api.Schedule) bool) func(kit.DataMsg) string {
	return func(msg kit.DataMsg) string {
		list, err, ok := kit.SchedulesKey(svcID).Of(msg)
		if !ok || err != nil {
			return ""
		}
		for i := range list {
			if sc := &list[i]; int64(sc.ID) == id && shows(sc) {
				return schedLine(sc)
			}
		}
		return ""
	}
}

// saveEdit sends the edited expression, once.
func (s *Screen) saveEdit() tea.Cmd {
	e := s.edit
	id, svc, expr := int64(e.sc.ID), s.sched.svcID, e.expr()
	client := s.common.Client
	s.mode = modeSchedules
	delete(s.typed, id) // sent: a refusal brings it back
	return kit.Do(kit.Action{
		Name:       fmt.Sprintf("change %s to %q", scheduleName(&e.sc, e.svcName), expr),
		Supersedes: "change schedule " + strconv.FormatInt(id, 10),
		Key:        "schedule:" + strconv.FormatInt(id, 10),
		Mutating:   true,
		Origin:     ID,
		Tag:        schedTag{change: changeEdit, id: id, svcID: svc, edit: e},
		Run: func(ctx context.Context) (any, error) {
			if client == nil {
				return nil, errNoClient
			}
			return client.UpdateSchedule(ctx, id, api.ScheduleUpdate{Schedule: expr})
		},
		Refresh:    []string{kit.SchedulesKey(svc).String()},
		Evidence:   schedEvidence(client, id),
		EvidenceOf: fmt.Sprintf("schedule %d", id),
		Effect:     schedEffect(svc, id, func(sc *api.Schedule) bool { return scheduleExpr(sc) == expr }),
	})
}

// toggleSuspend suspends or resumes the selected schedule, asked yes/no.
func (s *Screen) toggleSuspend() tea.Cmd {
	sc, why := s.changeable("suspended")
	if why == "" && isOnce(&sc) {
		why = "schedule " + scheduleKey(&sc) + " is a one-time job: there is nothing to suspend"
	}
	if why != "" {
		return kit.Toast(kit.ToastWarn, why)
	}
	id, svc, suspend := int64(sc.ID), s.sched.svcID, !sc.Suspended
	name := scheduleName(&sc, s.nameOf(svc, sc.ServiceName))
	verb, title, detail := "suspend", "Suspend "+name+"?",
		fmt.Sprintf("No %s backups are taken by it (%s) until it is resumed; the backups it took stay.", kit.OrDash(sc.Type), scheduleWhen(&sc, s.common.Time()))
	if !suspend {
		verb, title = "resume", "Resume "+name+"?"
		detail = fmt.Sprintf("%s backups are taken again %s; the runs missed while suspended are not taken.", kit.OrDash(sc.Type), scheduleWhen(&sc, s.common.Time()))
	}
	client := s.common.Client
	return kit.Do(kit.Action{
		Name:     verb + " " + name,
		Key:      "schedule:" + strconv.FormatInt(id, 10),
		Mutating: true,
		Origin:   ID,
		Tag:      schedTag{change: changeSuspend, id: id, svcID: svc},
		Confirm:  kit.Confirm{Kind: kit.ConfirmYesNo, Title: title, Detail: detail},
		Run: func(ctx context.Context) (any, error) {
			if client == nil {
				return nil, errNoClient
			}
			return client.UpdateSchedule(ctx, id, api.ScheduleUpdate{Suspended: &suspend})
		},
		Refresh:    []string{kit.SchedulesKey(svc).String()},
		Evidence:   schedEvidence(client, id),
		EvidenceOf: fmt.Sprintf("schedule %d", id),
		Effect:     schedEffect(svc, id, func(sc *api.Schedule) bool { return sc.Suspended == suspend }),
	})
}

// deleteSchedule deletes the selected schedule, asked yes/no naming it.
// A schedule the API no longer has (404: deleted elsewhere while this
// asked) is gone, as asked: done, not a failure.
func (s *Screen) deleteSchedule() tea.Cmd {
	sc, why := s.changeable("deleted")
	if why != "" {
		return kit.Toast(kit.ToastWarn, why)
	}
	id, svc := int64(sc.ID), s.sched.svcID
	name := scheduleName(&sc, s.nameOf(svc, sc.ServiceName))
	detail := fmt.Sprintf("%s: %s %s backups (%s) to %s. It takes no more backups; the backups it took stay.",
		name, kit.OrDash(sc.Type), kit.KeepTogether(kit.OrDash(scheduleExpr(&sc))), scheduleWhen(&sc, s.common.Time()), targetWords(&sc))
	if isOnce(&sc) {
		detail = fmt.Sprintf("%s: %s, to %s. A backup it took stays.", name, onceWords(&sc, s.common.Time()), targetWords(&sc))
	}
	client := s.common.Client
	return kit.Do(kit.Action{
		Name:     "delete " + name,
		Key:      "schedule:" + strconv.FormatInt(id, 10),
		Mutating: true,
		Origin:   ID,
		Tag:      schedTag{change: changeDelete, id: id, svcID: svc},
		Confirm:  kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Delete " + name + "?", Detail: detail},
		Run: func(ctx context.Context) (any, error) {
			if client == nil {
				return nil, errNoClient
			}
			if err := client.DeleteSchedule(ctx, id); api.IsNotFound(err) {
				return alreadyGone{}, nil
			} else if err != nil {
				return nil, err
			}
			return nil, nil
		},
		Success: func(r any) string {
			if _, gone := r.(alreadyGone); gone {
				return name + " was already gone (deleted elsewhere): nothing left to delete"
			}
			return "delete " + name + ": done"
		},
		Refresh:    []string{kit.SchedulesKey(svc).String()},
		Evidence:   schedEvidence(client, id),
		EvidenceOf: fmt.Sprintf("schedule %d", id),
	})
}

// alreadyGone is the answer of a delete of a schedule the API no longer
// has.
type alreadyGone struct{}

// onceWords names a one-time job plainly: "the one-time logical backup
// job set for Nov 20 02:00".
func onceWords(sc *api.Schedule, now time.Time) string {
	w := "the one-time " + kit.OrDash(sc.Type) + " backup job"
	if !sc.ScheduledAt.IsZero() {
		w += " set for " + kit.Stamp(sc.ScheduledAt.Time, now)
	}
	return w
}

// onSchedDone takes the answer of a schedule change: a refused edit comes
// back with what was typed and the API's reason; a schedule changed or
// deleted shows so at once, before the listing is read again.
func (s *Screen) onSchedDone(tag schedTag, msg kit.ActionDoneMsg) tea.Cmd {
	switch {
	case api.IsOutcomeUnknown(msg.Err):
		return nil // the root's dialog shows what the schedule is now
	case msg.Err != nil:
		if tag.change == changeEdit && tag.edit != nil && s.mode == modeSchedules && s.sched.svcID == tag.svcID {
			s.edit = tag.edit
			s.edit.failed(msg.Err)
			s.edit.SetSize(s.Size())
			s.mode = modeSchedEdit
			return s.edit.focus()
		}
		if tag.change == changeEdit && tag.edit != nil {
			s.typed[tag.id] = tag.edit.input.Value() // e on the schedule brings it back
		}
		return nil
	}
	if s.sched.svcID != tag.svcID {
		return nil
	}
	s.sched.changed(tag.id, tag.change == changeDelete, msg.Result)
	return nil
}

// onEditKey: the edit takes every key; enter saves a valid, changed
// expression, esc goes back to the schedules keeping what was typed (e on
// the same schedule brings it back).
func (s *Screen) onEditKey(msg tea.KeyPressMsg) tea.Cmd {
	if s.edit == nil {
		s.mode = modeSchedules
		return nil
	}
	res, cmd := s.edit.Update(msg)
	switch res {
	case editSave:
		return s.saveEdit()
	case editCancel:
		e := s.edit
		s.edit, s.mode = nil, modeSchedules
		id := int64(e.sc.ID)
		if e.expr() == scheduleExpr(&e.sc) {
			delete(s.typed, id)
			return kit.Toast(kit.ToastInfo, "schedule not changed")
		}
		s.typed[id] = e.input.Value()
		return kit.Toast(kit.ToastInfo, "schedule not changed; "+s.keys.Edit.Help().Key+" brings back what you typed")
	}
	return cmd
}

// targetWords is where a schedule's backups go, in words.
func targetWords(sc *api.Schedule) string {
	if t := sc.TargetText(); t != api.ManagedPlace {
		return t
	}
	return "managed storage"
}

// schedEdit is the edit of a schedule's cron expression: one input,
// prefilled with the expression; under it, as it is typed, what is wrong
// with it (the rule, next to the field) or what it means and its next
// three runs in UTC and local time. enter saves, esc cancels; an answer
// that refuses the change comes back here with what was typed.
type schedEdit struct {
	common  *kit.Common
	sc      api.Schedule
	svcName string
	input   kit.Input
	refused string // the API's refusal of the last save
	keys    editKeys
	width   int
	height  int
}

type editKeys struct{ Save, Cancel key.Binding }

func newEditKeys() editKeys {
	return editKeys{
		Save:   kit.Bind("enter", "save"),
		Cancel: kit.Bind("esc", "cancel"),
	}
}

// editResult is what a key did to the edit.
type editResult int

const (
	editNone editResult = iota
	editSave
	editCancel
)

func newSchedEdit(c *kit.Common, sc api.Schedule, svcName string) *schedEdit {
	e := &schedEdit{common: c, sc: sc, svcName: svcName, keys: newEditKeys(), input: kit.NewInput("> ", "minute hour day-of-month month day-of-week")}
	if expr := scheduleExpr(&sc); expr != "cron" {
		e.input.SetValue(expr)
	}
	e.input.CursorEnd()
	return e
}

func (e *schedEdit) focus() tea.Cmd { return e.input.Focus() }

// setTyped puts back what was typed before, the cursor at its end.
func (e *schedEdit) setTyped(typed string) {
	e.input.SetValue(typed)
	e.input.CursorEnd()
}

// expr is the expression as typed.
func (e *schedEdit) expr() string { return strings.TrimSpace(e.input.Value()) }

// problem is what is wrong with the expression typed, "" when nothing;
// unchanged is refused too (there is nothing to save).
func (e *schedEdit) problem() string {
	if err := api.ValidateScheduleEdit(e.expr()); err != nil {
		return err.Error()
	}
	if e.expr() == scheduleExpr(&e.sc) {
		return "unchanged: type the new cron expression"
	}
	return ""
}

// Update takes a key or a paste; it reports a save (the expression is
// valid and changed) or a cancel.
func (e *schedEdit) Update(msg tea.Msg) (editResult, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		switch {
		case key.Matches(k, e.keys.Cancel):
			return editCancel, nil
		case key.Matches(k, e.keys.Save):
			if e.problem() != "" {
				return editNone, nil // the problem already shows under the field
			}
			return editSave, nil
		}
	}
	before := e.input.Value()
	var cmd tea.Cmd
	e.input, cmd = e.input.Update(msg)
	if e.input.Value() != before {
		e.refused = ""
	}
	return editNone, cmd
}

// failed shows the API's refusal under the field; what was typed stays.
func (e *schedEdit) failed(err error) { e.refused = err.Error() }

// SetSize implements kit.Pane.
func (e *schedEdit) SetSize(w, h int) {
	e.width, e.height = w, h
	e.input.SetWidth(max(10, min(w-4, 60)))
}

// CapturesKeys implements kit.Pane: the expression takes every key.
func (e *schedEdit) CapturesKeys() bool { return true }

// KeyMap implements kit.Pane.
// The footer offers save only while enter would save (an expression
// valid and changed); ? lists it always.
func (e *schedEdit) KeyMap() kit.Keys {
	b := []key.Binding{e.keys.Save, e.keys.Cancel}
	if e.problem() != "" {
		return kit.Keys{Short: b[1:], Full: [][]key.Binding{b}}
	}
	return kit.KeysOf(b...)
}

func (e *schedEdit) View() string {
	th := e.common.Theme
	w := max(20, e.width-2)
	// each line wraps within the width, its continuation lines indented
	// as its first
	wrap := func(s string) string {
		text := strings.TrimLeft(s, " ")
		indent := s[:len(s)-len(text)]
		return indent + strings.ReplaceAll(kit.Wrap(text, w-len(indent)), "\n", "\n"+indent)
	}
	lines := []string{
		th.Title.Render(wrap(" Edit schedule " + scheduleKey(&e.sc) + " of " + e.svcName)),
		th.Muted.Render(wrap(" " + kit.OrDash(e.sc.Type) + " backups to " + targetWords(&e.sc) + "; now " + kit.OrDash(scheduleExpr(&e.sc)) + " (" + scheduleWhen(&e.sc, e.common.Time()) + ")")),
		"",
		th.Label.Render(wrap(" Cron expression (UTC): minute hour day-of-month month day-of-week")),
		" " + e.input.View(),
	}
	if p := e.problem(); p != "" && e.expr() != scheduleExpr(&e.sc) {
		lines = append(lines, th.Error.Render(wrap(" ! "+p)))
	} else if p == "" {
		desc := api.DescribeCron(e.expr())
		if desc == "" {
			desc = "custom: " + e.expr()
		}
		lines = append(lines, th.OK.Render(wrap(" ok: "+desc)), "")
		if e.sc.Suspended {
			// no run happens while it is suspended: no times to promise
			lines = append(lines, th.Warn.Render(wrap(" suspended: it runs on this schedule once resumed (s); no run until then")))
		} else {
			lines = append(lines, th.Label.Render(" Next runs:"))
			for _, l := range api.RunLines(e.expr(), e.common.Time(), 3, time.Local) {
				lines = append(lines, wrap("   "+l))
			}
		}
	} else {
		lines = append(lines, th.Muted.Render(wrap(" "+p)))
	}
	if e.refused != "" {
		lines = append(lines, "", th.Error.Render(wrap(" ! the API refused it: "+e.refused)))
	}
	lines = strings.Split(strings.Join(lines, "\n"), "\n")
	if e.height > 0 && len(lines) > e.height {
		lines = lines[:e.height]
	}
	return strings.Join(lines, "\n")
}
