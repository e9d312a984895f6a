package backups

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/forms/backupform"
	"github.com/skytui/skytui/kit"
)

// The screen's keys (the list's own, enter, esc, J/K and the table's, are
// kit.ListView's) and what they open: the picker, the schedules, the form.

type keyMap struct {
	New, Pick, All, Schedules key.Binding
	CopyKey, CopyGTID         key.Binding
	Restore                   key.Binding
	// the schedules view's
	Edit, Suspend, Delete key.Binding
}

func newKeyMap() keyMap {
	return keyMap{
		New:       kit.Bind("n", "new backup"),
		Pick:      kit.Bind("f", "for one service"),
		All:       kit.Bind("a", "all services"),
		Schedules: kit.Bind("t", "schedules/backups"),
		CopyKey:   kit.Bind("y", "copy key"),
		CopyGTID:  kit.Bind("Y", "copy GTID"),
		Restore:   kit.Bind("R", "restore"),
		Edit:      kit.Bind("e", "edit"),
		Suspend:   kit.Bind("s", "suspend/resume"),
		Delete:    kit.Bind("d", "delete", "delete"),
	}
}

// onKey: the form takes every key; while a filter is typed the view's
// table does; then the keys of both views (f, a, n, t), the list's own
// (y, Y), and the view's (list: kit.ListView.HandleKey, s and S among them).
func (s *Screen) onKey(msg tea.KeyPressMsg) tea.Cmd {
	switch {
	case s.mode == modeForm:
		if s.form == nil {
			s.mode = modeList
			return nil
		}
		return s.form.Update(msg)
	case s.mode == modeSchedEdit:
		return s.onEditKey(msg)
	case s.mode == modeRestore:
		if s.restore == nil {
			s.mode = modeList
			return nil
		}
		return s.restore.Update(msg)
	case s.mode == modeSchedules && s.sched.Capturing():
		_, cmd := s.sched.HandleKey(msg)
		return cmd
	case s.mode == modeList && s.Capturing():
		_, cmd := s.HandleKey(msg)
		return cmd
	}
	k := s.keys
	switch {
	case key.Matches(msg, k.Pick):
		return s.openPicker()
	case !s.all() && key.Matches(msg, k.All):
		return s.Open(AllArg)
	case key.Matches(msg, k.New):
		return s.openForm()
	case key.Matches(msg, k.Schedules):
		if s.mode == modeSchedules {
			s.mode = modeList
			return nil
		}
		return s.openSchedules()
	}
	if s.mode == modeSchedules {
		switch {
		case key.Matches(msg, k.Edit):
			return s.openEdit()
		case key.Matches(msg, k.Suspend):
			return s.toggleSuspend()
		case key.Matches(msg, k.Delete):
			return s.deleteSchedule()
		}
		used, cmd := s.sched.HandleKey(msg)
		if !used && key.Matches(msg, s.Keys.Back) {
			s.mode = modeList
		}
		return cmd
	}
	switch {
	case key.Matches(msg, k.CopyKey):
		it, ok := s.selected()
		if !ok || it.Optimistic && strings.HasPrefix(it.Key, "job ") {
			return kit.Toast(kit.ToastWarn, "no backup key to copy yet")
		}
		return kit.Copy(s.common, "backup key "+api.ShortKey(it.Key), it.Key)
	case key.Matches(msg, k.Restore):
		return s.openRestore()
	case key.Matches(msg, k.CopyGTID):
		it, ok := s.selected()
		if !ok {
			return nil
		}
		if it.BinlogGTIDPosition == "" {
			return kit.Toast(kit.ToastWarn, "backup "+api.ShortKey(it.Key)+" has no GTID position")
		}
		return kit.Copy(s.common, "GTID position "+it.BinlogGTIDPosition, it.BinlogGTIDPosition)
	}
	_, cmd := s.HandleKey(msg)
	return cmd
}

func (s *Screen) openPicker() tea.Cmd {
	if !s.svcsOK {
		if s.svcsErr != nil {
			return kit.Toast(kit.ToastError, "cannot list services: "+s.svcsErr.Error())
		}
		return kit.Toast(kit.ToastInfo, "services are still loading; try again in a moment")
	}
	return kit.OpenDialog(kit.NewPicker(s.common, "Backups of which service?", ID, s.services))
}

// Scope implements kit.Scoped: the service shown (or the one being looked
// up), else AllArg. Going back from a jump here (Services' b) opens the
// screen on the scope it had before: the jump narrows the view for that
// visit only, while f, a and ":backups" choose it until changed.
func (s *Screen) Scope() string {
	switch {
	case s.wanted != "":
		return s.wanted
	case s.all():
		return AllArg
	}
	return s.svcID
}

// target is the service that t and n act on: the one shown, the one whose
// schedules are shown, or in the all-services view the selected backup's.
func (s *Screen) target() (string, bool) {
	switch {
	case s.mode == modeSchedules && s.sched.svcID != "":
		return s.sched.svcID, true
	case !s.all():
		return s.svcID, true
	}
	it, ok := s.selected()
	if !ok {
		return "", false
	}
	id := itemService(&it)
	return id, id != ""
}

// openSchedules shows the schedules of the target service.
func (s *Screen) openSchedules() tea.Cmd {
	id, ok := s.target()
	if !ok {
		return kit.Toast(kit.ToastInfo, "no backup selected: "+s.keys.Pick.Help().Key+" picks a service for its schedules")
	}
	s.sched.show(id)
	s.retitle()
	s.mode = modeSchedules
	return nil
}

// openForm opens the new-backup form, with what was typed before, for the
// target service (in the all-services view: the selected backup's; the
// form's title names it). A read-only profile is told why at once (the
// action layer refuses the submit anyway).
func (s *Screen) openForm() tea.Cmd {
	if s.common.ReadOnly {
		return kit.RefuseReadOnly(s.common, "a new backup")
	}
	id, ok := s.target()
	if !ok {
		return kit.Toast(kit.ToastInfo, "no backup selected: "+s.keys.Pick.Help().Key+" picks the service to back up")
	}
	v, ok := s.serviceOf(id)
	if !ok {
		v = api.Service{ID: id, Name: id}
		if it, sel := s.selected(); sel && s.all() && it.ServiceName != "" {
			v.Name = it.ServiceName
		}
	}
	s.form = backupform.New(s.common, v, backupform.Options{Draft: s.drafts.Of(id), HasFullBackup: s.hasFull(id)})
	s.form.SetSize(s.Size())
	s.formFrom, s.mode = s.mode, modeForm
	return s.form.Init()
}

// formBack is the view a form left with esc goes back to: the schedules
// when n was pressed there (and they are still shown), else the backups.
func (s *Screen) formBack() mode {
	if s.formFrom == modeSchedules && s.sched.svcID != "" {
		return modeSchedules
	}
	return modeList
}

// KeyMap implements kit.Screen: the bindings of the current mode.
func (s *Screen) KeyMap() help.KeyMap {
	if p := s.pane(); p != nil {
		return p.KeyMap()
	}
	if s.mode == modeSchedules && s.sched.Capturing() {
		return kit.FilterKeys()
	}
	k := s.keys
	// a (all services) only where it does something: narrowed
	var all []key.Binding
	if !s.all() {
		all = []key.Binding{k.All}
	}
	t, l := s.Table.Keys, s.Keys
	if s.mode == modeSchedules {
		// e and s only for a schedule they can change: a one-time job has
		// no expression to edit and nothing to suspend
		var change []key.Binding
		switch sc, ok := s.selectedSchedule(); {
		case ok && isOnce(&sc):
			change = []key.Binding{k.Delete}
		case ok:
			change = []key.Binding{k.Edit, k.Suspend, k.Delete}
		}
		short := slices.Concat([]key.Binding{k.Schedules}, change, []key.Binding{k.New, k.Pick}, all, []key.Binding{t.Filter, l.Back})
		full := [][]key.Binding{
			slices.Concat([]key.Binding{k.Schedules, k.Edit, k.Suspend, k.Delete, k.New, k.Pick}, all, []key.Binding{l.ScrollDown, l.ScrollUp, l.Back}),
			{t.Up, t.Down, t.PageUp, t.PageDown, t.Top, t.Bottom, t.Filter},
		}
		return kit.ReadOnlyHelp(s.common, kit.Keys{Short: short, Full: full}, k.Edit, k.Suspend, k.Delete, k.New)
	}
	act := []key.Binding{k.New, k.Schedules}
	if _, ok := s.target(); !ok {
		// every service shown and no backup selected: n and t have no
		// service to act on (they say f picks one), so the footer leaves
		// them out, as the empty list's text says "f picks a service"
		act = nil
	}
	short := slices.Concat([]key.Binding{l.Detail}, act, []key.Binding{k.Restore}, all, []key.Binding{k.CopyKey, k.CopyGTID, k.Pick, t.Filter, l.Sort})
	return s.ListView.KeyMap(short, slices.Concat([]key.Binding{k.New, k.Restore, k.Schedules, k.Pick}, all, []key.Binding{k.CopyKey, k.CopyGTID})...)
}
