// Package backups is the Backups screen: the backups of every service
// (with a SERVICE column), or of one service once narrowed (f, ":backups
// NAME"; a or ":backups all" goes back), the listing merged with the backup
// status call when narrowed, in-progress rows polled fast; their detail
// pane, a service's schedules with their next runs, and the new-backup
// form (forms/backupform.Form). It reads through the root's polling engine
// (Resources) and mutates through the root's action layer (kit.Do).
//
// The files: backups.go (the screen, the service shown, messages),
// fetch.go (what is polled), list.go (the backups list: rows, detail,
// status line), keys.go (keys and help), actions.go (the new backup's
// answer, and the restore of a backup, R), schedules.go (the schedules
// view, its rows and their next runs), schedactions.go (its changes and
// the cron expression's edit), rows.go (the rows and detail sections).
package backups

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/forms/backupform"
	"github.com/skytui/skytui/forms/restoreform"
	"github.com/skytui/skytui/kit"
)

// ID is the screen's name on the command line.
const ID = "backups"

// AllArg is the ":backups" argument that shows every service again (a
// service name has at least 4 characters and an ID starts with "db", so
// it names no service).
const AllArg = "all"

// WideWidth is the width from which the detail pane goes to the right.
const WideWidth = kit.WideWidth

type mode int

const (
	modeList mode = iota
	modeSchedules
	modeForm
	modeSchedEdit // a schedule's cron expression being edited
	modeRestore   // the restore wizard, opened on a backup (R)
)

// Screen is the Backups screen: the backups list (a kit.ListView), the
// schedules view and the new-backup form.
type Screen struct {
	kit.Name
	*kit.ListView
	common *kit.Common
	keys   keyMap
	mode   mode
	// formFrom is the view n opened the form from: leaving the form goes
	// back there
	formFrom mode

	// the service shown: "" is every service
	svcID    string
	wanted   string // a name or ID from ":backups X", resolved once services load
	retried  string // wanted was not listed; the listing is being read again
	services []api.Service
	svcsOK   bool
	svcsErr  error

	// backups
	data       backupData
	items      []item
	byKey      map[string]int
	optimistic map[string]*optimistic

	// schedules (of one service: the one shown, or in the all-services
	// view the selected backup's)
	sched *schedView
	edit  *schedEdit // the schedule being edited (modeSchedEdit)
	// typed is what was typed in a schedule's edit and left unsent (esc,
	// or a refusal that came while the edit was away), by schedule ID: e
	// on that schedule brings it back
	typed map[int64]string

	// the restore wizard opened on a backup (R), and the one left with esc
	// or ctrl+x: R on its backup brings it back as it was
	restore, left *restoreform.Wizard

	// the new-backup form
	form       *backupform.Form
	drafts     backupform.Drafts // what was left typed, by service: n on it brings it back
	submitting string
}

// New builds the screen.
func New(c *kit.Common) *Screen {
	s := &Screen{
		Name:       kit.NewName(ID, "Backups"),
		common:     c,
		keys:       newKeyMap(),
		byKey:      map[string]int{},
		optimistic: map[string]*optimistic{},
		sched:      newSchedView(c),
		typed:      map[int64]string{},
	}
	s.ListView = kit.NewListView(c, "", "backups", tableColumns(true))
	s.DetailOf = s.detailOf
	s.Changes = []key.Binding{s.keys.New, s.keys.Restore}
	s.OnRow = []key.Binding{s.keys.Restore, s.keys.CopyKey, s.keys.CopyGTID}
	s.PaneOf = s.pane
	s.Rebuild = s.rebuild
	s.SetSort(int(sortStarted), kit.Desc("started"), kit.Asc("type"), kit.Asc("status"), kit.Desc("size"))
	s.Table.SetSortIndicator(s.col(colStarted), true)
	s.resetData()
	s.retitle()
	return s
}

func (s *Screen) resetData() {
	s.data, s.items = backupData{}, nil
	clear(s.byKey)
	clear(s.optimistic)
	s.sched.reset()
	s.Reset()
}

// all reports the all-services view.
func (s *Screen) all() bool { return s.svcID == "" }

// shows reports that the backups of service id are in the view.
func (s *Screen) shows(id string) bool { return s.all() || s.svcID == id }

// col is the index in the table of a column of tableColumns: the
// all-services view has SERVICE first.
func (s *Screen) col(c int) int {
	if s.all() {
		return c + 1
	}
	return c
}

// ServiceID is the service shown, or "".
func (s *Screen) ServiceID() string { return s.svcID }

// Open implements kit.Opener: ":backups <service>" (a name or an ID) and
// the picker's choice narrow the view to that service; ":backups all" (and
// an empty argument) shows every service again. An unknown service is said
// in a toast and changes nothing; before the services listing has arrived
// the request waits for it.
func (s *Screen) Open(arg string) tea.Cmd {
	arg = strings.TrimSpace(arg)
	// a name still looked for (the listing being read again) gives way
	// to the newer request, and says so: it is not dropped unsaid
	var gaveWay tea.Cmd
	if s.wanted != "" && s.wanted != arg {
		gaveWay = kit.Toast(kit.ToastInfo, fmt.Sprintf("%q is no longer looked for: %s was asked after it", s.wanted, orAll(arg)))
	}
	if arg == "" || arg == AllArg {
		s.wanted, s.retried = "", ""
		return tea.Batch(gaveWay, s.choose(""))
	}
	s.wanted, s.retried = arg, ""
	return tea.Batch(gaveWay, s.resolve())
}

// orAll is a request of Open in words: the name quoted, or every service.
func orAll(arg string) string {
	if arg == "" || arg == AllArg {
		return "every service"
	}
	return fmt.Sprintf("%q", arg)
}

// resolve turns wanted into a service of the listing once the listing is
// there; a name or ID it does not show is looked for once more (the
// service may be newer than the listing), then refused.
func (s *Screen) resolve() tea.Cmd {
	w := s.wanted
	if w == "" || !s.svcsOK {
		return nil // resolved when the listing arrives
	}
	switch found := api.ServicesNamed(s.services, w); len(found) {
	case 1:
		s.wanted, s.retried = "", ""
		return s.choose(found[0].ID)
	case 0:
	default:
		// a name two services share: neither is chosen for the user
		s.wanted, s.retried = "", ""
		return kit.Toast(kit.ToastWarn, fmt.Sprintf("%s: give its ID, :backups ID; still showing %s", api.SharedName(w, found, false), s.shownText()))
	}
	if s.retried != w {
		s.retried = w
		return kit.Refresh(kit.ServicesKey.String())
	}
	s.wanted, s.retried = "", ""
	// a warning that changes nothing, true only while the view it names
	// is still shown
	shown := s.svcID
	return kit.ToastWhile(kit.ToastWarn, fmt.Sprintf("no service named %q; still showing %s", w, s.shownText()),
		func() bool { return s.svcID == shown })
}

// shownText is what the view shows: "all services" or the service's name.
func (s *Screen) shownText() string {
	if s.all() {
		return "all services"
	}
	return s.serviceName()
}

// choose shows the backups of service id ("": every service).
func (s *Screen) choose(id string) tea.Cmd {
	if id == s.svcID {
		return nil
	}
	s.svcID = id
	// the SERVICE column only when several services are shown (narrowed,
	// the status line names the service)
	s.Table = kit.NewTable(s.common, tableColumns(s.all()))
	s.resetData()
	s.sched.svcID = ""
	switch s.mode {
	case modeForm:
		s.form, s.mode = nil, modeList
	case modeSchedules:
		if id == "" {
			s.mode = modeList
		} else {
			s.sched.svcID = id
		}
	}
	s.rebuild()
	s.resize(s.Size())
	s.retitle()
	return nil
}

func (s *Screen) serviceOf(id string) (api.Service, bool) {
	for _, v := range s.services {
		if v.ID == id {
			return v, true
		}
	}
	return api.Service{}, false
}

// nameOf is a service's name from the listing, else the name a backup
// carried (fallback), else the ID.
func (s *Screen) nameOf(id, fallback string) string {
	if v, ok := s.serviceOf(id); ok && v.Name != "" {
		return v.Name
	}
	if fallback != "" {
		return fallback
	}
	return id
}

// serviceName is the shown service's name, with its ID where another
// service has that name too ("orders-prod (dbtgf…)"): "Backups of
// orders-prod, no backups yet" must not read as production's.
func (s *Screen) serviceName() string {
	name := s.nameOf(s.svcID, "")
	if name != s.svcID && len(api.ServicesNamed(s.services, name)) > 1 {
		return name + " (" + s.svcID + ")"
	}
	return name
}

// CapturesKeys implements kit.Screen: the schedules' filter, else the
// open pane's or the backups' filter.
func (s *Screen) CapturesKeys() bool {
	if s.mode == modeSchedules {
		return s.sched.Capturing()
	}
	return s.ListView.CapturesKeys()
}

// pane is the sub-view shown instead of the backups or the schedules (nil:
// one of those lists).
func (s *Screen) pane() kit.Pane {
	switch {
	case s.mode == modeForm && s.form != nil:
		return s.form
	case s.mode == modeSchedEdit && s.edit != nil:
		return s.edit
	case s.mode == modeRestore && s.restore != nil:
		return s.restore
	}
	return nil
}

// UsesEsc implements kit.EscUser: esc leaves the schedules view, a form
// or the wizard, clears the filter or hides the pane before a jump goes
// back.
func (s *Screen) UsesEsc() bool { return s.mode != modeList || s.BackUsed() }

// SetSize implements kit.Screen.
func (s *Screen) SetSize(w, h int) {
	s.resize(w, h)
	s.sched.SetSize(w, h)
	s.retitle() // the service's ID shows from 100 columns
}

// resize sizes the list; when the AGE column comes or goes, the rows are
// made again (STATUS says "too old" where AGE has no room).
func (s *Screen) resize(w, h int) {
	age := s.Table.Shown(s.col(colAge))
	s.ListView.SetSize(w, h)
	if s.Table.Shown(s.col(colAge)) != age {
		s.rebuild()
	}
}

// ---- messages ----

// Update implements kit.Screen.
func (s *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case kit.DataMsg:
		return s, s.onData(msg)
	case kit.ClockMsg:
		// both lists: the one not shown is current when t shows it
		s.sched.Update(msg)
		return s, s.ListView.Update(msg)
	case kit.ActionDoneMsg:
		return s, s.onActionDone(msg)
	case backupform.SubmitMsg:
		return s, s.onSubmit(msg)
	case backupform.CancelMsg:
		if s.form == nil || msg.Form != s.form {
			return s, nil
		}
		s.drafts.Keep(msg.Draft)
		s.form, s.mode = nil, s.formBack()
		return s, kit.Toast(kit.ToastInfo, "new backup cancelled; n brings back what you typed")
	case restoreform.DoneMsg:
		return s, s.onRestoreDone(msg)
	case tea.KeyPressMsg:
		return s, s.onKey(msg)
	}
	// component messages (form internals, input cursor…)
	switch {
	case s.mode == modeSchedules:
		return s, s.sched.Update(msg)
	case s.mode == modeSchedEdit && s.edit != nil:
		_, cmd := s.edit.Update(msg)
		return s, cmd
	}
	return s, s.ListView.Update(msg)
}

func (s *Screen) onData(msg kit.DataMsg) tea.Cmd {
	if s.restore != nil && s.restore.OnData(msg) {
		return nil
	}
	if svcs, err, ok := kit.ServicesKey.Of(msg); ok {
		return s.onServices(svcs, err)
	}
	if d, err, ok := s.backupsOf(msg); ok {
		if err != nil {
			s.Failed(err)
			return nil
		}
		s.data = d
		s.Loaded(s.emptyText())
		settle(d, s.optimistic, s.common.Time())
		s.rebuild()
		return nil
	}
	s.sched.onData(msg)
	return nil
}

// onServices takes the services listing: the names of the SERVICE column,
// the status line and the detail pane, and the service ":backups X" waits
// for.
func (s *Screen) onServices(svcs []api.Service, err error) tea.Cmd {
	if err != nil {
		s.svcsErr = err
		if s.restore != nil {
			s.restore.ServicesFailed(err)
		}
		return nil
	}
	s.services = svcs
	s.svcsOK, s.svcsErr = true, nil
	if s.restore != nil {
		s.restore.SetServices(svcs)
	}
	if s.IsLoaded() {
		s.Table.Empty = s.emptyText()
		s.rebuild()
	}
	s.retitle()
	return s.resolve()
}

// ---- view ----

// View implements kit.Screen.
func (s *Screen) View() string {
	if p := s.pane(); p != nil {
		return p.View()
	}
	if s.mode == modeSchedules {
		return s.sched.view(s.notes()...)
	}
	return s.listView()
}

// heading is the title of the status line: the backups (or, schedules
// set, the schedules) of service id, or of all services; the service's ID
// follows its name from 100 columns.
func (s *Screen) heading(id string, schedules bool) string {
	name := s.nameOf(id, "")
	head := "Backups of " + name
	switch {
	case schedules:
		head = "Schedules of " + name
	case id == "":
		head = "Backups of all services"
	}
	if w, _ := s.Size(); id != "" && name != id && w >= 100 {
		head += " (" + id + ")"
	}
	return head
}

// retitle gives the list its title after what it depends on changed: the
// service shown, the services' names, the width.
func (s *Screen) retitle() {
	s.SetTitle(s.heading(s.svcID, false))
	s.sched.SetTitle(s.heading(s.sched.svcID, true))
}

// notes are the status line's notes of both views after their own: the
// service being looked up and the backup being submitted.
func (s *Screen) notes() []string {
	th := s.common.Theme
	var n []string
	if s.wanted != "" {
		n = append(n, th.Pending.Render("looking up service "+s.wanted+th.Glyphs.Ellipsis))
		if s.svcsErr != nil {
			n = append(n, th.Warn.Render("cannot list services: "+s.svcsErr.Error()))
		}
	}
	if s.submitting != "" {
		n = append(n, th.Pending.Render("submitting "+s.submitting+th.Glyphs.Ellipsis))
	}
	return n
}

// MouseList implements kit.MouseList: the backups or the schedules,
// whichever is shown.
func (s *Screen) MouseList() (*kit.ListView, int) {
	switch {
	case s.mode == modeList:
		return s.ListView, 0
	case s.mode == modeSchedules && s.sched != nil:
		return s.sched.ListView, 0
	}
	return nil, 0
}
