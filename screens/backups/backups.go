// Package backups is the Backups screen: the backups of every service
// (with a SERVICE column), or of one service once narrowed (p, ":backups
// NAME"; a or ":backups all" goes back), the listing merged with the backup
// status call when narrowed, in-progress rows polled fast; their detail
// pane, a service's schedules with their next runs, and the new-backup
// form (tui/backupform.Backup). It reads through the root's polling engine
// (Resources) and mutates through the root's action layer (kit.Do).
package backups

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/forms/backupform"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
)

// ID is the screen's name on the command line.
const ID = "backups"

// ServicesKey is the services listing (names, statuses, the picker).
const ServicesKey = "services"

// AllBackupsKey is the polled resource of the backups of every service.
const AllBackupsKey = "backups/*"

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
)

// Screen is the Backups screen.
type Screen struct {
	common *kit.Common
	keys   keyMap
	mode   mode

	width, height int

	// the service shown: "" is every service
	svcID    string
	wanted   string // a name or ID from ":backups X", resolved once services load
	retried  string // wanted was not listed; the listing is being read again
	services []api.Service
	svcsOK   bool
	svcsErr  error

	// backups
	data       backupData
	loaded     bool
	loadErr    error
	items      []item
	byKey      map[string]int
	optimistic map[string]*optimistic
	table      *kit.Table
	detail     *kit.Detail
	showDetail bool
	sortBy     sortKey
	desc       bool

	// schedules (of one service: the one shown, or in the all-services
	// view the selected backup's)
	schedSvc     string
	schedules    []api.Schedule // as listed
	schedAll     []api.Schedule // listed and just created, as shown
	schedLoaded  bool
	schedErr     error
	schedByID    map[string]int
	optSchedules map[string]api.Schedule
	schedTable   *kit.Table
	schedDetail  *kit.Detail

	// the new-backup form
	form       *backupform.Form
	draft      *backupform.Draft
	submitting string
}

// New builds the screen.
func New(c *kit.Common) *Screen {
	s := &Screen{
		common:       c,
		keys:         newKeyMap(),
		detail:       kit.NewDetail(c),
		schedDetail:  kit.NewDetail(c),
		byKey:        map[string]int{},
		optimistic:   map[string]*optimistic{},
		schedByID:    map[string]int{},
		optSchedules: map[string]api.Schedule{},
		desc:         true, // newest first
	}
	s.table = kit.NewTable(c, tableColumns(true))
	s.table.SetSortIndicator(s.col(colStarted), true)
	s.schedTable = kit.NewTable(c, scheduleColumns())
	s.schedTable.Empty = "loading schedules" + c.Theme.Glyphs.Ellipsis
	s.resetData()
	return s
}

func (s *Screen) resetData() {
	s.data, s.loaded, s.loadErr, s.items = backupData{}, false, nil, nil
	clear(s.byKey)
	clear(s.optimistic)
	s.resetSchedules()
	s.table.Empty = "loading backups" + s.common.Theme.Glyphs.Ellipsis
	s.table.SetRows(nil)
}

func (s *Screen) resetSchedules() {
	s.schedules, s.schedLoaded, s.schedErr, s.schedAll = nil, false, nil, nil
	clear(s.schedByID)
	clear(s.optSchedules)
	s.schedTable.Empty = "loading schedules" + s.common.Theme.Glyphs.Ellipsis
	s.schedTable.SetFilter("")
	s.schedTable.SetRows(nil)
	s.schedDetail.SetContent("", nil)
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

// ID implements kit.Screen.
func (s *Screen) ID() string { return ID }

// Title implements kit.Screen.
func (s *Screen) Title() string { return "Backups" }

// ServiceID is the service shown, or "".
func (s *Screen) ServiceID() string { return s.svcID }

// Init implements kit.Screen. The screen opens on every service; the
// services listing and the backups are fetched through Resources.
func (s *Screen) Init() tea.Cmd { return nil }

// Open implements kit.Opener: ":backups <service>" (a name or an ID) and
// the picker's choice narrow the view to that service; ":backups all" (and
// an empty argument) shows every service again. An unknown service is said
// in a toast and changes nothing; before the services listing has arrived
// the request waits for it.
func (s *Screen) Open(arg string) tea.Cmd {
	arg = strings.TrimSpace(arg)
	if arg == "" || arg == AllArg {
		s.wanted, s.retried = "", ""
		return s.choose("")
	}
	s.wanted, s.retried = arg, ""
	return s.resolve()
}

// lookup finds a service of the listing by ID, then by name.
func (s *Screen) lookup(w string) (string, bool) {
	for _, v := range s.services {
		if v.ID == w {
			return v.ID, true
		}
	}
	for _, v := range s.services {
		if v.Name == w {
			return v.ID, true
		}
	}
	return "", false
}

// resolve turns wanted into a service of the listing once the listing is
// there; a name or ID it does not show is looked for once more (the
// service may be newer than the listing), then refused.
func (s *Screen) resolve() tea.Cmd {
	w := s.wanted
	if w == "" || !s.svcsOK {
		return nil // resolved when the listing arrives
	}
	if id, ok := s.lookup(w); ok {
		s.wanted, s.retried = "", ""
		return s.choose(id)
	}
	if s.retried != w {
		s.retried = w
		return kit.Refresh(ServicesKey)
	}
	s.wanted, s.retried = "", ""
	return kit.Toast(kit.ToastError, fmt.Sprintf("no service named %q; still showing %s", w, s.shownText()))
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
	s.table = kit.NewTable(s.common, tableColumns(s.all()))
	s.resetData()
	s.schedSvc = ""
	switch s.mode {
	case modeForm:
		s.form, s.mode = nil, modeList
	case modeSchedules:
		if id == "" {
			s.mode = modeList
		} else {
			s.schedSvc = id
		}
	}
	s.rebuild()
	s.layout()
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

func (s *Screen) serviceName() string { return s.nameOf(s.svcID, "") }

// CapturesKeys implements kit.Screen.
func (s *Screen) CapturesKeys() bool {
	switch s.mode {
	case modeForm:
		return s.form != nil && s.form.CapturesKeys()
	case modeSchedules:
		return s.schedTable.Filtering()
	}
	return s.table.Filtering()
}

// Resources implements kit.Screen: the services listing always; the
// backups of every service, or of the one shown (with the status call);
// and one service's schedules while they are shown.
func (s *Screen) Resources() []kit.Resource {
	client := s.common.Client
	res := []kit.Resource{{
		Key: ServicesKey,
		Fetch: func(ctx context.Context) (any, error) {
			if client == nil {
				return nil, errors.New("no API client")
			}
			return client.ListServices(ctx)
		},
	}}
	pending := func(data any) bool {
		if len(s.optimistic) > 0 {
			return true
		}
		d, _ := data.(backupData)
		for _, it := range merge(d, nil) {
			if it.inProgress() {
				return true
			}
		}
		return false
	}
	if s.all() {
		res = append(res, kit.Resource{
			Key: AllBackupsKey,
			Fetch: func(ctx context.Context) (any, error) {
				if client == nil {
					return nil, errors.New("no API client")
				}
				return fetchAllBackups(ctx, client)
			},
			Pending: pending,
		})
	} else {
		id := s.svcID
		res = append(res, kit.Resource{
			Key: backupform.BackupsKey(id),
			Fetch: func(ctx context.Context) (any, error) {
				if client == nil {
					return nil, errors.New("no API client")
				}
				return fetchBackups(ctx, client, id)
			},
			Pending: pending,
		})
	}
	if s.mode == modeSchedules && s.schedSvc != "" {
		id := s.schedSvc
		res = append(res, kit.Resource{
			Key: backupform.SchedulesKey(id),
			Fetch: func(ctx context.Context) (any, error) {
				if client == nil {
					return nil, errors.New("no API client")
				}
				return client.ListSchedules(ctx, id)
			},
		})
	}
	return res
}

// fetchAllBackups lists the backups of every service. The live service
// lists them in one call; the interface document's prefix lists them per
// service, so the services are listed here first (the fetch runs in a
// goroutine and reads no screen state, and the first fetch does not wait
// for the screen's own services listing).
//
// The status call is not made in this view: it is one call per service
// (the live service has none at all), so polling it for every service
// would multiply the requests of every poll, fast ones included, by the
// number of services. The listing's status is used, and the detail pane
// says so ("from the listing"); narrowing to one service (p) merges the
// status call as before, and backups submitted here show at once anyway.
func fetchAllBackups(ctx context.Context, client *api.Client) (backupData, error) {
	var ids []string
	if !client.LiveBackup() {
		svcs, err := client.ListServices(ctx)
		if err != nil {
			return backupData{}, err
		}
		for _, v := range svcs {
			if v.ID != "" {
				ids = append(ids, v.ID)
			}
		}
		if len(ids) == 0 {
			return backupData{}, nil
		}
	}
	list, err := client.ListAllBackups(ctx, ids)
	if err != nil {
		return backupData{}, err
	}
	return backupData{Backups: list}, nil
}

// fetchBackups reads the listing, then the status of initiated backups.
// A failing status call does not hide the listing: its status is used.
func fetchBackups(ctx context.Context, client *api.Client, id string) (backupData, error) {
	list, err := client.ListBackups(ctx, id)
	if err != nil {
		return backupData{}, err
	}
	d := backupData{Backups: list}
	st, err := client.BackupStatus(ctx, id)
	switch {
	case errors.Is(err, api.ErrStatusUnsupported):
		d.StatusUnsupported = true
	case err != nil:
		d.StatusErr = err
	default:
		d.Statuses = st
	}
	return d, nil
}

// SetSize implements kit.Screen.
func (s *Screen) SetSize(w, h int) {
	s.width, s.height = w, h
	s.layout()
}

func (s *Screen) layout() {
	w, h := s.width, s.height
	kit.LayoutSplit(s.table, s.detail, s.showDetail, w, h-1) // h-1: the status line
	// schedules (a few rows): the list over the selected one's next runs
	sh := h - 1
	tableH := max(4, sh/2)
	s.schedTable.SetSize(w, tableH)
	s.schedDetail.SetSize(w, sh-tableH-1)
	if s.form != nil {
		s.form.SetSize(w, h)
	}
}

// ---- messages ----

// Update implements kit.Screen.
func (s *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case kit.DataMsg:
		return s, s.onData(msg)
	case kit.ClockMsg:
		s.rebuild()
		s.rebuildSchedules()
		return s, nil
	case kit.ActionDoneMsg:
		return s, s.onActionDone(msg)
	case backupform.SubmitMsg:
		return s, s.onSubmit(msg)
	case backupform.CancelMsg:
		if s.form == nil || msg.Form != s.form {
			return s, nil
		}
		d := msg.Draft
		s.draft, s.form, s.mode = &d, nil, modeList
		return s, kit.Toast(kit.ToastInfo, "new backup cancelled; n brings back what you typed")
	case tea.KeyPressMsg:
		return s, s.onKey(msg)
	}
	// component messages (form internals, input cursor…)
	switch s.mode {
	case modeForm:
		if s.form != nil {
			return s, s.form.Update(msg)
		}
	case modeSchedules:
		_, cmd := s.schedTable.Update(msg)
		return s, cmd
	default:
		_, cmd := s.table.Update(msg)
		return s, cmd
	}
	return s, nil
}

func (s *Screen) onData(msg kit.DataMsg) tea.Cmd {
	switch {
	case msg.Key == ServicesKey:
		if msg.Err != nil {
			s.svcsErr = msg.Err
			return nil
		}
		s.services, _ = msg.Data.([]api.Service)
		s.svcsOK, s.svcsErr = true, nil
		if s.loaded {
			s.emptyText()
			s.rebuild() // the names of the SERVICE column and the detail pane
		}
		return s.resolve()
	case msg.Key == s.backupsKey():
		if msg.Err != nil {
			s.loadErr = msg.Err
			if !s.loaded {
				s.table.Empty = "could not load backups: " + msg.Err.Error()
			}
			return nil
		}
		d, _ := msg.Data.(backupData)
		s.data, s.loaded, s.loadErr = d, true, nil
		s.emptyText()
		settle(d, s.optimistic, s.common.Time())
		s.rebuild()
	case s.schedSvc != "" && msg.Key == backupform.SchedulesKey(s.schedSvc):
		if msg.Err != nil {
			s.schedErr = msg.Err
			if !s.schedLoaded {
				s.schedTable.Empty = "could not load schedules: " + msg.Err.Error()
			}
			return nil
		}
		list, _ := msg.Data.([]api.Schedule)
		s.schedules, s.schedLoaded, s.schedErr = list, true, nil
		s.schedTable.Empty = "no schedules: n with a daily, hourly or cron schedule creates one"
		for _, sc := range list {
			delete(s.optSchedules, scheduleKey(&sc))
		}
		s.rebuildSchedules()
	}
	return nil
}

// backupsKey is the resource of the backups shown.
func (s *Screen) backupsKey() string {
	if s.all() {
		return AllBackupsKey
	}
	return backupform.BackupsKey(s.svcID)
}

// emptyText is what the table says when it has no rows.
func (s *Screen) emptyText() {
	switch {
	case !s.all():
		s.table.Empty = "no backups yet: n takes one (the platform also takes a nightly full backup)"
	case s.svcsOK && len(s.services) == 0:
		s.table.Empty = "no services in this account yet: create one on the Services screen (1, then n)"
	default:
		s.table.Empty = "no backups of any service yet: p picks a service, then n takes one"
	}
}

// itemService is the service of a backup: its service_id, else the one in
// its key ("<hash>:<service_id>:<pod>").
func itemService(it *item) string {
	if it.ServiceID != "" {
		return it.ServiceID
	}
	if _, rest, ok := strings.Cut(it.Key, ":"); ok {
		id, _, _ := strings.Cut(rest, ":")
		return id
	}
	return ""
}

// rebuild merges, sorts and hands the table its rows; the table keeps
// the cursor on the same backup.
func (s *Screen) rebuild() {
	items := merge(s.data, s.optimistic)
	sortItems(items, s.sortBy, s.desc)
	s.items = items
	now := s.common.Time()
	rows := make([]kit.Row, len(items))
	clear(s.byKey)
	for i := range items {
		s.byKey[items[i].Key] = i
		rows[i] = items[i].row(now)
		if s.all() {
			r := &rows[i]
			r.Cells = append([]string{s.nameOf(itemService(&items[i]), items[i].ServiceName)}, r.Cells...)
			r.Kinds = append([]theme.Kind{theme.KindNeutral}, r.Kinds...)
		}
	}
	s.table.SetRows(rows)
	col := colStarted
	switch s.sortBy {
	case sortType:
		col = colType
	case sortStatus:
		col = colStatus
	case sortSize:
		col = colSize
	}
	s.table.SetSortIndicator(s.col(col), s.desc)
	s.refreshDetail()
}

func (s *Screen) rebuildSchedules() {
	list := append([]api.Schedule(nil), s.schedules...)
	for _, sc := range s.optSchedules {
		list = append(list, sc)
	}
	sortSchedules(list)
	s.schedAll = list
	now := s.common.Time()
	rows := make([]kit.Row, len(list))
	clear(s.schedByID)
	for i := range list {
		rows[i] = scheduleRow(&list[i], now)
		s.schedByID[scheduleKey(&list[i])] = i
	}
	s.schedTable.SetRows(rows)
	s.refreshSchedDetail()
}

func (s *Screen) selected() (item, bool) {
	i, ok := s.byKey[s.table.SelectedID()]
	if !ok {
		return item{}, false
	}
	return s.items[i], true
}

func (s *Screen) refreshDetail() {
	if !s.showDetail {
		return
	}
	it, ok := s.selected()
	if !ok {
		s.detail.SetContent("No backup selected", nil)
		return
	}
	s.detail.SetContent("Backup "+api.ShortKey(it.Key), it.detailSections(s.common.Time(), s.nameOf(itemService(&it), it.ServiceName)))
}

func (s *Screen) refreshSchedDetail() {
	i, ok := s.schedByID[s.schedTable.SelectedID()]
	if !ok {
		s.schedDetail.SetContent("", nil)
		return
	}
	sc := &s.schedAll[i]
	s.schedDetail.SetContent("Schedule "+scheduleKey(sc), scheduleSections(sc, s.common.Time(), time.Local))
}

// hasFull reports a completed full backup of service id in what is
// shown, for the form's incremental rule; nil while the listing is not
// loaded (the form then finds out itself).
func (s *Screen) hasFull(id string) *bool {
	if !s.loaded || !s.shows(id) {
		return nil
	}
	has := false
	for _, it := range merge(s.data, nil) {
		if itemService(&it) != id {
			continue
		}
		if api.HasCompletedFull([]api.Backup{it.Backup}) ||
			strings.EqualFold(it.Type, api.BackupFull) && it.State == api.BackupCompleted {
			has = true
		}
	}
	return &has
}

// ---- keys ----

func (s *Screen) onKey(msg tea.KeyPressMsg) tea.Cmd {
	if s.mode == modeForm {
		if s.form == nil {
			s.mode = modeList
			return nil
		}
		return s.form.Update(msg)
	}
	tbl := s.table
	if s.mode == modeSchedules {
		tbl = s.schedTable
	}
	if tbl.Filtering() {
		_, cmd := tbl.Update(msg)
		s.refreshDetail()
		s.refreshSchedDetail()
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
	case key.Matches(msg, k.Back):
		if tbl.Filter() != "" {
			tbl.SetFilter("")
			s.refreshDetail()
			s.refreshSchedDetail()
			return nil
		}
		if s.mode == modeSchedules {
			s.mode = modeList
			return nil
		}
		if s.showDetail {
			s.showDetail = false
			s.layout()
		}
		return nil
	}
	if s.mode == modeSchedules {
		switch {
		case key.Matches(msg, k.ScrollDown):
			s.schedDetail.ScrollBy(3)
			return nil
		case key.Matches(msg, k.ScrollUp):
			s.schedDetail.ScrollBy(-3)
			return nil
		}
		_, cmd := s.schedTable.Update(msg)
		s.refreshSchedDetail()
		return cmd
	}
	switch {
	case key.Matches(msg, k.Detail):
		s.showDetail = !s.showDetail
		s.layout()
		s.refreshDetail()
		return nil
	case key.Matches(msg, k.Sort):
		s.sortBy = (s.sortBy + 1) % 4
		s.desc = s.sortBy == sortStarted || s.sortBy == sortSize
		s.rebuild()
		return nil
	case key.Matches(msg, k.Reverse):
		s.desc = !s.desc
		s.rebuild()
		return nil
	case key.Matches(msg, k.CopyKey):
		it, ok := s.selected()
		if !ok || it.Optimistic && strings.HasPrefix(it.Key, "job ") {
			return kit.Toast(kit.ToastWarn, "no backup key to copy yet")
		}
		return kit.Copy(s.common, "backup key "+api.ShortKey(it.Key), it.Key)
	case key.Matches(msg, k.CopyGTID):
		it, ok := s.selected()
		if !ok {
			return nil
		}
		if it.BinlogGTIDPosition == "" {
			return kit.Toast(kit.ToastWarn, "backup "+api.ShortKey(it.Key)+" has no GTID position")
		}
		return kit.Copy(s.common, "GTID position "+it.BinlogGTIDPosition, it.BinlogGTIDPosition)
	case key.Matches(msg, k.ScrollDown):
		s.detail.ScrollBy(3)
		return nil
	case key.Matches(msg, k.ScrollUp):
		s.detail.ScrollBy(-3)
		return nil
	}
	_, cmd := s.table.Update(msg)
	s.refreshDetail()
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

// target is the service that t and n act on: the one shown, the one whose
// schedules are shown, or in the all-services view the selected backup's.
func (s *Screen) target() (string, bool) {
	switch {
	case s.mode == modeSchedules && s.schedSvc != "":
		return s.schedSvc, true
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
		return kit.Toast(kit.ToastInfo, "no backup selected: p picks a service for its schedules")
	}
	if id != s.schedSvc {
		s.schedSvc = id
		s.resetSchedules()
	}
	s.mode = modeSchedules
	return nil
}

// openForm opens the new-backup form, with what was typed before, for the
// target service (in the all-services view: the selected backup's; the
// form's title names it). A read-only profile is told why at once (the
// action layer refuses the submit anyway).
func (s *Screen) openForm() tea.Cmd {
	if s.common.ReadOnly {
		return kit.Toast(kit.ToastError, fmt.Sprintf("profile %s is read-only: new backups are not allowed", s.common.Profile))
	}
	id, ok := s.target()
	if !ok {
		return kit.Toast(kit.ToastInfo, "no backup selected: p picks the service to back up")
	}
	v, ok := s.serviceOf(id)
	if !ok {
		v = api.Service{ID: id, Name: id}
		if it, sel := s.selected(); sel && s.all() && it.ServiceName != "" {
			v.Name = it.ServiceName
		}
	}
	s.form = backupform.New(s.common, v, backupform.Options{Draft: s.draft, HasFullBackup: s.hasFull(id)})
	s.form.SetSize(s.width, s.height)
	s.mode = modeForm
	return s.form.Init()
}

// ---- the action ----

// submitTag marks the answer of a backup this screen submitted.
type submitTag struct {
	form  *backupform.Form
	req   api.ScheduleRequest
	svcID string
	at    time.Time
}

func (s *Screen) onSubmit(msg backupform.SubmitMsg) tea.Cmd {
	if s.form == nil || msg.Form != s.form {
		return nil
	}
	a := msg.Action
	a.Origin = ID
	a.Tag = submitTag{form: msg.Form, req: msg.Request, svcID: msg.Request.ServiceID, at: s.common.Time()}
	s.submitting = a.Name
	s.draft = nil
	s.mode = modeList
	return kit.Do(a)
}

func (s *Screen) onActionDone(msg kit.ActionDoneMsg) tea.Cmd {
	tag, ok := msg.Tag.(submitTag)
	if !ok {
		return nil
	}
	s.submitting = ""
	if api.IsOutcomeUnknown(msg.Err) {
		// sent, never answered: the root's dialog shows what appeared and
		// offers the resend; the form is kept (n brings it back), not
		// reopened with an invitation to submit again
		d := tag.form.Draft()
		s.draft = &d
		if s.mode == modeForm && s.form == tag.form {
			s.form, s.mode = nil, modeList
		}
		return nil
	}
	if msg.Err != nil {
		// back to the review, everything kept
		if s.shows(tag.svcID) {
			s.form = tag.form
			s.form.Failed(msg.Err)
			s.form.SetSize(s.width, s.height)
			s.mode = modeForm
		} else {
			d := tag.form.Draft() // another service is shown: n brings it back
			s.draft = &d
		}
		return nil
	}
	if !s.shows(tag.svcID) {
		return nil
	}
	s.form = nil
	sc, _ := msg.Result.(*api.Schedule)
	if tag.req.Schedule == "once" {
		key := ""
		var job int64
		if sc != nil {
			key, job = sc.BackupID, int64(sc.ID)
		}
		if key == "" {
			key = "job " + strconv.FormatInt(job, 10)
		}
		if _, listed := s.byKey[key]; !listed {
			o := &optimistic{at: tag.at, item: item{
				Backup: api.Backup{Key: key, ServiceID: tag.svcID, Type: tag.req.BackupType,
					Status: api.BackupInProgress, StartTime: api.Time{Time: tag.at}},
				State: api.BackupInProgress, Word: api.BackupInProgress, Source: srcSubmitted,
				Optimistic: true, JobID: job,
			}}
			if es := tag.req.ExternalStorage; es != nil {
				o.IsExternalStorage, o.Bucket = true, es.Bucket.Path
			}
			s.optimistic[key] = o
		}
		s.mode = modeList
		s.table.SetFilter("")
		s.rebuild()
		s.table.Select(key)
		s.refreshDetail()
		if s.all() {
			// the action refreshes the service's own keys, not this one
			return kit.Refresh(AllBackupsKey)
		}
		return nil
	}
	if sc != nil {
		if sc.ServiceID == "" {
			sc.ServiceID = tag.svcID
		}
		if sc.Type == "" {
			sc.Type = tag.req.BackupType
		}
		if sc.Expression() == "" || sc.Expression() == "cron" {
			sc.Cron = tag.req.Schedule
		}
		if tag.req.ExternalStorage != nil && sc.Target == "" {
			sc.Target = tag.req.ExternalStorage.Bucket.Path
		}
	}
	if tag.svcID != s.schedSvc {
		s.schedSvc = tag.svcID
		s.resetSchedules()
	}
	if sc != nil {
		s.optSchedules[scheduleKey(sc)] = *sc
	}
	s.mode = modeSchedules
	s.schedTable.SetFilter("")
	s.rebuildSchedules()
	if sc != nil {
		s.schedTable.Select(scheduleKey(sc))
		s.refreshSchedDetail()
	}
	return nil
}

// ---- view ----

// View implements kit.Screen.
func (s *Screen) View() string {
	th := s.common.Theme
	if s.mode == modeForm && s.form != nil {
		return s.form.View()
	}
	status := s.statusLine()
	if s.mode == modeSchedules {
		return status + "\n" + kit.Stacked(th, s.schedTable.View(), s.schedTable.Height(), s.schedDetail.View(), s.width)
	}
	return status + "\n" + kit.ViewSplit(th, s.table, s.detail, s.showDetail, s.width)
}

func (s *Screen) statusLine() string {
	th := s.common.Theme
	id := s.svcID
	if s.mode == modeSchedules {
		id = s.schedSvc
	}
	name := s.nameOf(id, "")
	head := " Backups of " + name
	switch {
	case s.mode == modeSchedules:
		head = " Schedules of " + name
	case s.all():
		head = " Backups of all services"
	}
	if id != "" && name != id && s.width >= 100 {
		head += " (" + id + ")"
	}
	var notes []string
	if s.mode == modeSchedules {
		notes = append(notes, s.schedCount(), "times in UTC and local")
	} else {
		notes = append(notes, s.countText(), "sort: "+s.sortText())
		if s.anyTooOld() {
			notes = append(notes, "too old = over 4 days: cannot start replication")
			if s.width < 100 {
				notes[len(notes)-1] = "too old: >4 days"
			}
		}
	}
	line := th.Bold.Render(head) + "  " + th.Muted.Render(strings.Join(notes, "  "))
	if s.wanted != "" {
		line += "  " + th.Pending.Render("looking up service "+s.wanted+th.Glyphs.Ellipsis)
		if s.svcsErr != nil {
			line += "  " + th.Warn.Render("cannot list services: "+s.svcsErr.Error())
		}
	}
	switch {
	case s.submitting != "":
		line += "  " + th.Pending.Render("submitting "+s.submitting+th.Glyphs.Ellipsis)
	case s.mode == modeList && s.loadErr != nil && s.loaded:
		line += "  " + th.Warn.Render("showing last data")
	case s.mode == modeList && s.data.StatusErr != nil:
		line += "  " + th.Warn.Render("status call failed: showing the listing's status")
	}
	return ansi.Truncate(line, s.width, th.Glyphs.Ellipsis)
}

func (s *Screen) anyTooOld() bool {
	now := s.common.Time()
	for i := range s.items {
		if s.items[i].TooOld(now) {
			return true
		}
	}
	return false
}

func (s *Screen) countText() string {
	if !s.loaded && s.loadErr == nil {
		return "loading"
	}
	n := s.table.Total()
	word := "backups"
	if n == 1 {
		word = "backup"
	}
	if s.table.Filter() != "" {
		return fmt.Sprintf("%d of %d %s", s.table.Len(), n, word)
	}
	running := 0
	for i := range s.items {
		if s.items[i].inProgress() {
			running++
		}
	}
	if running > 0 {
		return fmt.Sprintf("%d %s, %d in progress", n, word, running)
	}
	return fmt.Sprintf("%d %s", n, word)
}

func (s *Screen) schedCount() string {
	if !s.schedLoaded && s.schedErr == nil {
		return "loading"
	}
	n := s.schedTable.Total()
	if s.schedTable.Filter() != "" {
		return fmt.Sprintf("%d of %d", s.schedTable.Len(), n)
	}
	return strconv.Itoa(n)
}

func (s *Screen) sortText() string {
	g := s.common.Theme.Glyphs
	if s.desc {
		return s.sortBy.String() + " " + g.SortDesc
	}
	return s.sortBy.String() + " " + g.SortAsc
}

// ---- key map ----

type keyMap struct {
	Detail, Back, Sort, Reverse, New, Pick, All, Schedules key.Binding
	CopyKey, CopyGTID                                      key.Binding
	ScrollDown, ScrollUp                                   key.Binding
}

func newKeyMap() keyMap {
	return keyMap{
		Detail:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "details")),
		Back:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Sort:       key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "sort: started/type/status/size")),
		Reverse:    key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "reverse sort")),
		New:        key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new backup")),
		Pick:       key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "pick service")),
		All:        key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "all services")),
		Schedules:  key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "schedules/backups")),
		CopyKey:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy key")),
		CopyGTID:   key.NewBinding(key.WithKeys("Y"), key.WithHelp("Y", "copy GTID")),
		ScrollDown: key.NewBinding(key.WithKeys("J", "ctrl+d"), key.WithHelp("J", "scroll details down")),
		ScrollUp:   key.NewBinding(key.WithKeys("K", "ctrl+u"), key.WithHelp("K", "scroll details up")),
	}
}

// KeyMap implements kit.Screen: the bindings of the current mode.
func (s *Screen) KeyMap() help.KeyMap {
	k := s.keys
	t := s.table.Keys
	if s.mode == modeForm && s.form != nil {
		b := s.form.Keys()
		return kit.Keys{Short: b, Full: [][]key.Binding{b}}
	}
	tbl := s.table
	if s.mode == modeSchedules {
		tbl = s.schedTable
	}
	if tbl.Filtering() {
		b := []key.Binding{
			key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
			key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		}
		return kit.Keys{Short: b, Full: [][]key.Binding{b}}
	}
	// a (all services) only where it does something: narrowed
	var all []key.Binding
	if !s.all() {
		all = []key.Binding{k.All}
	}
	if s.mode == modeSchedules {
		short := slices.Concat([]key.Binding{k.Schedules, k.New, k.Pick}, all, []key.Binding{t.Filter, k.Back})
		full := [][]key.Binding{
			slices.Concat([]key.Binding{k.Schedules, k.New, k.Pick}, all, []key.Binding{k.ScrollDown, k.ScrollUp, k.Back}),
			{t.Up, t.Down, t.PageUp, t.PageDown, t.Top, t.Bottom, t.Filter},
		}
		return kit.Keys{Short: short, Full: full}
	}
	short := slices.Concat([]key.Binding{k.Detail, k.New, k.Schedules}, all, []key.Binding{k.CopyKey, k.CopyGTID, k.Pick, t.Filter, k.Sort})
	full := [][]key.Binding{
		slices.Concat([]key.Binding{k.Detail, k.New, k.Schedules, k.Pick}, all, []key.Binding{k.CopyKey, k.CopyGTID, k.Sort, k.Reverse, k.ScrollDown, k.ScrollUp}),
		{t.Up, t.Down, t.PageUp, t.PageDown, t.Top, t.Bottom, t.Filter, k.Back},
	}
	return kit.Keys{Short: short, Full: full}
}
