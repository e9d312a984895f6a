// Package restores is the Restores screen: the table of restores with the
// target service joined from the services listing, live status of running
// restores, a detail pane, delete of a restore that has not finished, the
// new-restore wizard (tui/restoreform.Restore, shared with the Replication
// screen) and the guided migration across cloud providers. It talks to the
// API only through tea.Cmds, polls through the root's engine (Resources),
// mutates through the root's action layer (kit.Do) and follows submitted
// restores with a root watch (kit.Watch), so their outcome is told even
// when this screen is not shown.
package restores

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/forms/restoreform"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
)

// ID is the screen's name on the command line.
const ID = "restores"

// Polled resources.
const (
	ResourceKey = "restores"
	ServicesKey = "services"
)

// WideWidth is the width from which the detail pane goes to the right.
const WideWidth = kit.WideWidth

// pendingRowID is the row of a restore being submitted.
const pendingRowID = "submitting"

type mode int

const (
	modeList mode = iota
	modeWizard
	modeMigrate
)

// Column indices.
const (
	colID = iota
	colTarget
	colService
	colSource
	colType
	colStatus
	colMessage
)

// Screen is the Restores screen.
type Screen struct {
	common *kit.Common
	keys   keyMap
	table  *kit.Table
	detail *kit.Detail
	mode   mode

	width, height int
	showDetail    bool

	restores []api.Restore
	visible  []api.Restore  // rows of the table, in order
	byRow    map[string]int // row ID -> index in visible
	services map[string]api.Service
	svcList  []api.Service
	loaded   bool
	loadErr  error
	// firstSeen times running restores the API gives no start time for.
	firstSeen map[int64]time.Time
	// pending is the restore being submitted; accepted are restores the
	// API accepted that the listing does not show yet.
	pending  *api.Restore
	accepted map[int64]api.Restore
	// svcFilter shows only the restores of one service ("" all).
	svcFilter string

	// sweep lists the restores of every service where the server lists
	// them only per service (the live service); it is used from commands.
	sweep *api.RestoreSweep

	wizard *restoreform.Wizard
	// draft is a wizard left with esc: n brings it back as it was.
	draft   *restoreform.Wizard
	migrate *migration
}

// New builds the screen.
func New(c *kit.Common) *Screen {
	s := &Screen{
		common:    c,
		keys:      newKeyMap(),
		detail:    kit.NewDetail(c),
		byRow:     map[string]int{},
		services:  map[string]api.Service{},
		firstSeen: map[int64]time.Time{},
		accepted:  map[int64]api.Restore{},
		sweep:     &api.RestoreSweep{},
	}
	s.table = kit.NewTable(c, []kit.Column{
		colID:      {Title: "ID", Min: 3, Max: 8, Priority: 10, Right: true},
		colTarget:  {Title: "TARGET", Min: 12, Max: 24, Priority: 9},
		colService: {Title: "SERVICE ID", Min: 13, Max: 16, Priority: 3},
		colSource:  {Title: "SOURCE", Min: 16, Max: 44, Priority: 7},
		colType:    {Title: "TYPE", Min: 8, Max: 10, Priority: 4},
		colStatus:  {Title: "STATUS", Min: 16, Max: 20, Priority: 8},
		colMessage: {Title: "MESSAGE", Min: 12, Max: 40, Priority: 6},
	})
	s.table.Empty = "loading restores" + c.Theme.Glyphs.Ellipsis
	return s
}

// ID implements kit.Screen.
func (s *Screen) ID() string { return ID }

// Title implements kit.Screen.
func (s *Screen) Title() string { return "Restores" }

// Init implements kit.Screen.
func (s *Screen) Init() tea.Cmd { return nil }

// CapturesKeys implements kit.Screen: the wizard and the migration take
// every key (esc goes back a step); the list only while filtering.
func (s *Screen) CapturesKeys() bool {
	switch s.mode {
	case modeWizard, modeMigrate:
		return true
	}
	return s.table.Filtering()
}

// Open implements kit.Opener: ":restores <service>" shows the restores of
// one service (name or ID).
func (s *Screen) Open(arg string) tea.Cmd {
	arg = strings.TrimSpace(arg)
	if arg == "" {
		return nil
	}
	s.svcFilter = s.resolve(arg)
	s.mode = modeList
	s.rebuildRows()
	return nil
}

func (s *Screen) resolve(arg string) string {
	if _, ok := s.services[arg]; ok {
		return arg
	}
	for _, v := range s.svcList {
		if v.Name == arg {
			return v.ID
		}
	}
	return arg
}

// Resources implements kit.Screen: the restores, the services (names,
// providers, statuses), and what the wizard or the migration asks for.
func (s *Screen) Resources() []kit.Resource {
	client, sweep := s.common.Client, s.sweep
	res := []kit.Resource{
		{
			Key: ResourceKey,
			Fetch: func(ctx context.Context) (any, error) {
				if client == nil {
					return nil, fmt.Errorf("no API client")
				}
				return sweep.All(ctx, client, kit.Fresh(ctx))
			},
			Pending: func(data any) bool {
				rs, _ := data.([]api.Restore)
				for i := range rs {
					if rs[i].Running() {
						return true
					}
				}
				return false
			},
		},
		{
			Key: ServicesKey,
			Fetch: func(ctx context.Context) (any, error) {
				if client == nil {
					return nil, fmt.Errorf("no API client")
				}
				return client.ListServices(ctx)
			},
		},
	}
	switch s.mode {
	case modeWizard:
		if s.wizard != nil {
			res = append(res, s.wizard.Resources()...)
		}
	case modeMigrate:
		if s.migrate != nil {
			res = append(res, s.migrate.resources()...)
		}
	}
	return res
}

// SetSize implements kit.Screen.
func (s *Screen) SetSize(w, h int) {
	s.width, s.height = w, h
	s.layout()
}

func (s *Screen) layout() {
	w, h := s.width, s.height
	kit.LayoutSplit(s.table, s.detail, s.showDetail, w, h-1) // h-1: the status line
	if s.wizard != nil {
		s.wizard.SetSize(w, h)
	}
	if s.migrate != nil {
		s.migrate.setSize(w, h)
	}
}

// ---- data ----

// Update implements kit.Screen.
func (s *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case kit.DataMsg:
		return s, s.onData(msg)
	case kit.ClockMsg:
		if s.anyRunning() {
			s.rebuildRows()
		}
		return s, nil
	case kit.ActionDoneMsg:
		return s, s.onActionDone(msg)
	case kit.WatchDoneMsg:
		if r, ok := msg.Data.(*api.Restore); ok && r != nil && r.ID > 0 {
			if _, ok := s.accepted[int64(r.ID)]; ok {
				s.accepted[int64(r.ID)] = *r
			}
			s.replace(*r)
		}
		if s.migrate != nil {
			s.migrate.onWatchDone(msg)
		}
		return s, kit.Refresh(ResourceKey, ServicesKey)
	case restoreform.DoneMsg:
		return s, s.onWizardDone(msg)
	case migrationExitMsg:
		return s, s.onMigrationExit(msg)
	case tea.KeyPressMsg:
		return s, s.onKey(msg)
	case tea.PasteMsg:
		switch s.mode {
		case modeWizard:
			return s, s.wizard.Update(msg)
		case modeMigrate:
			return s, s.migrate.update(msg)
		}
		if s.table.Filtering() {
			_, cmd := s.table.Update(msg)
			return s, cmd
		}
		return s, nil
	}
	// component messages (keystore listings, form internals, the
	// migration's backup form) go to whoever they belong to; each checks
	// that the message is its own
	var cmds []tea.Cmd
	if s.wizard != nil {
		cmds = append(cmds, s.wizard.Update(msg))
	}
	if s.draft != nil && s.draft != s.wizard {
		cmds = append(cmds, s.draft.Update(msg))
	}
	if s.migrate != nil {
		cmds = append(cmds, s.migrate.update(msg))
	}
	if s.mode == modeList {
		_, cmd := s.table.Update(msg)
		cmds = append(cmds, cmd)
	}
	return s, tea.Batch(cmds...)
}

func (s *Screen) onData(msg kit.DataMsg) tea.Cmd {
	if s.wizard != nil && s.wizard.OnData(msg) {
		return nil
	}
	if s.migrate != nil && s.migrate.onData(msg) {
		return nil
	}
	switch msg.Key {
	case ServicesKey:
		if msg.Err != nil {
			return nil // the restores still show, with IDs only
		}
		svcs, _ := msg.Data.([]api.Service)
		s.svcList = svcs
		clear(s.services)
		for _, v := range svcs {
			s.services[v.ID] = v
		}
		if s.wizard != nil {
			s.wizard.SetServices(svcs)
		}
		if s.draft != nil && s.draft != s.wizard {
			s.draft.SetServices(svcs)
		}
		if s.migrate != nil {
			s.migrate.setServices(svcs)
		}
		if s.svcFilter != "" {
			s.svcFilter = s.resolve(s.svcFilter) // a name typed before the listing came
		}
		s.rebuildRows()
	case ResourceKey:
		if msg.Err != nil {
			s.loadErr = msg.Err
			if !s.loaded {
				s.table.Empty = "could not load restores: " + msg.Err.Error()
			}
			return nil
		}
		rs, _ := msg.Data.([]api.Restore)
		s.setRestores(rs)
	}
	return nil
}

// setRestores replaces the listing, keeping the restores just accepted
// that it does not show yet.
func (s *Screen) setRestores(rs []api.Restore) {
	s.loaded, s.loadErr = true, nil
	s.table.Empty = "no restores yet: press n to restore a backup into a service"
	seen := make(map[int64]bool, len(rs))
	now := s.common.Time()
	for _, r := range rs {
		id := int64(r.ID)
		seen[id] = true
		if r.Running() && r.CreatedAt.IsZero() {
			if _, ok := s.firstSeen[id]; !ok {
				s.firstSeen[id] = now
			}
		}
	}
	for id, r := range s.accepted {
		if seen[id] {
			delete(s.accepted, id)
			continue
		}
		rs = append(rs, r)
	}
	s.restores = rs
	s.rebuildRows()
}

// replace updates one restore in place (a watch's final answer).
func (s *Screen) replace(r api.Restore) {
	for i := range s.restores {
		if s.restores[i].ID == r.ID {
			s.restores[i] = r
			s.rebuildRows()
			return
		}
	}
}

func (s *Screen) anyRunning() bool {
	if s.pending != nil {
		return true
	}
	for i := range s.restores {
		if s.restores[i].Running() {
			return true
		}
	}
	return false
}

func rowID(r *api.Restore) string {
	if r.ID == 0 {
		return pendingRowID
	}
	return strconv.FormatInt(int64(r.ID), 10)
}

// all is the restores shown: the one being submitted first, then the
// listing newest first.
func (s *Screen) all() []api.Restore {
	out := make([]api.Restore, 0, len(s.restores)+1)
	if s.pending != nil {
		out = append(out, *s.pending)
	}
	list := append([]api.Restore(nil), s.restores...)
	sort.SliceStable(list, func(i, j int) bool { return list[i].ID > list[j].ID })
	return append(out, list...)
}

func (s *Screen) rebuildRows() {
	now := s.common.Time()
	all := s.all()
	rows := make([]kit.Row, 0, len(all))
	clear(s.byRow)
	shown := s.restoresShown(all)
	for i := range shown {
		r := &shown[i]
		id := rowID(r)
		idCell := id
		switch {
		case r.ID == 0 && s.pending != nil && i == 0 && r.Status == s.pending.Status:
			idCell = "-" // the restore being submitted
		case r.ID == 0:
			// listed without a readable id (null, odd): its own row, "?"
			id, idCell = "noid-"+strconv.Itoa(i), "?"
		}
		s.byRow[id] = i
		rows = append(rows, kit.Row{
			ID: id,
			Cells: []string{
				colID:      idCell,
				colTarget:  s.targetName(r),
				colService: r.ServiceID,
				colSource:  s.sourceText(r),
				colType:    r.Type,
				colStatus:  s.statusText(r, now),
				colMessage: r.Message,
			},
			Kinds: []theme.Kind{colStatus: theme.StatusKind(r.Status)},
		})
	}
	s.visible = shown
	s.table.SetRows(rows)
	s.refreshDetail()
}

func (s *Screen) restoresShown(all []api.Restore) []api.Restore {
	if s.svcFilter == "" {
		return all
	}
	var out []api.Restore
	for _, r := range all {
		if r.ServiceID == s.svcFilter || s.sourceService(&r) == s.svcFilter {
			out = append(out, r)
		}
	}
	return out
}

func (s *Screen) targetName(r *api.Restore) string {
	if v, ok := s.services[r.ServiceID]; ok && v.Name != "" {
		return v.Name
	}
	if r.ServiceName != "" {
		return r.ServiceName
	}
	return r.ServiceID
}

func (s *Screen) serviceName(id string) string {
	if v, ok := s.services[id]; ok && v.Name != "" {
		return v.Name
	}
	return id
}

// sourceService is the service whose backup a managed restore used.
func (s *Screen) sourceService(r *api.Restore) string { return restoreform.KeyService(r.Key) }

// sourceText is the backup key shortened with its service, or the bucket
// and file of an own-bucket restore.
func (s *Screen) sourceText(r *api.Restore) string {
	if sid := s.sourceService(r); sid != "" {
		return api.ShortKey(r.Key) + " of " + s.serviceName(sid)
	}
	switch {
	case r.Bucket != "" && r.Key != "":
		return strings.TrimSuffix(r.Bucket, "/") + "/" + strings.TrimPrefix(r.Key, "/")
	case r.Bucket != "":
		return r.Bucket
	}
	return r.Key
}

// sourceKind says where the backup came from.
func (s *Screen) sourceKind(r *api.Restore) string {
	if s.sourceService(r) != "" {
		return "managed storage"
	}
	if strings.HasPrefix(r.Bucket, "gs://") || strings.HasPrefix(r.Bucket, "s3://") {
		return "your own bucket"
	}
	if r.Key != "" {
		return "backup ID"
	}
	return "-"
}

// started is when a restore started: its created_at, else when this
// screen first saw it running.
func (s *Screen) started(r *api.Restore) time.Time {
	if !r.CreatedAt.IsZero() {
		return r.CreatedAt.Time
	}
	return s.firstSeen[int64(r.ID)]
}

// statusText is the status word, with the elapsed time while running.
func (s *Screen) statusText(r *api.Restore, now time.Time) string {
	st := r.Status
	if st == "" {
		st = "unknown"
	}
	if r.Running() {
		if t := s.started(r); !t.IsZero() {
			return st + " " + kit.Elapsed(now.Sub(t))
		}
	}
	return st
}

func (s *Screen) selected() (api.Restore, bool) {
	i, ok := s.byRow[s.table.SelectedID()]
	if !ok || i >= len(s.visible) {
		return api.Restore{}, false
	}
	return s.visible[i], true
}

func (s *Screen) refreshDetail() {
	if !s.showDetail {
		return
	}
	r, ok := s.selected()
	if !ok {
		s.detail.SetContent("No restore selected", nil)
		return
	}
	title := "Restore " + rowID(&r) + " into " + s.targetName(&r)
	if r.ID == 0 {
		title = "Restore into " + s.targetName(&r) + " (being submitted)"
	}
	s.detail.SetContent(title, s.detailSections(&r))
}

// detailSections is the whole restore record, the target as the services
// listing shows it, and the source.
func (s *Screen) detailSections(r *api.Restore) []kit.Section {
	now := s.common.Time()
	opt := func(v string) string {
		if v == "" {
			return "-"
		}
		return v
	}
	created := "-"
	if t := s.started(r); !t.IsZero() {
		created = t.Local().Format("2006-01-02 15:04:05") + " (" + kit.Ago(now.Sub(t)) + " ago)"
		if r.CreatedAt.IsZero() {
			created += ", first seen"
		}
	}
	rec := kit.Section{Fields: []kit.Field{
		{Label: "Status", Value: s.statusText(r, now), Kind: theme.StatusKind(r.Status)},
		{Label: "Message", Value: opt(r.Message)},
		{Label: "ID", Value: opt(rowID(r))},
		{Label: "Type", Value: opt(r.Type)},
		{Label: "Started", Value: created},
	}}
	tgt := kit.Section{Title: "Target", Fields: []kit.Field{
		{Label: "Name", Value: s.targetName(r)},
		{Label: "Service ID", Value: r.ServiceID},
	}}
	if v, ok := s.services[r.ServiceID]; ok {
		where := v.Provider
		if v.Region != "" {
			where += "/" + v.Region
		}
		tgt.Fields = append(tgt.Fields,
			kit.Field{Label: "Provider", Value: opt(where)},
			kit.Field{Label: "Status now", Value: opt(v.Status), Kind: theme.StatusKind(v.Status)})
	}
	src := kit.Section{Title: "Source", Fields: []kit.Field{
		{Label: "From", Value: s.sourceKind(r)},
	}}
	if sid := s.sourceService(r); sid != "" {
		src.Fields = append(src.Fields, kit.Field{Label: "Backup of", Value: s.serviceName(sid) + " (" + sid + ")"})
	}
	src.Fields = append(src.Fields,
		kit.Field{Label: "Backup key", Value: opt(r.Key)},
		kit.Field{Label: "Bucket", Value: opt(r.Bucket)})
	var note string
	switch {
	case r.ID == 0:
		note = "Being submitted: the row becomes the API's record when it answers."
	case r.Running():
		note = "While it runs the target is stopped and its data replaced. d deletes it (only before it finishes)."
	case r.Succeeded():
		from := "the source service"
		if sid := s.sourceService(r); sid != "" {
			from = s.serviceName(sid)
		}
		note = "The target's data and its default username and password are now those of " + from + "."
	case r.Failed():
		note = "The restore failed; the message says why."
	}
	secs := []kit.Section{rec, tgt, src}
	if note != "" {
		secs = append(secs, kit.Section{Title: "What it means", Fields: []kit.Field{{Label: "Note", Value: note}}})
	}
	return secs
}

// ---- keys ----

func (s *Screen) onKey(msg tea.KeyPressMsg) tea.Cmd {
	switch s.mode {
	case modeWizard:
		return s.wizard.Update(msg)
	case modeMigrate:
		return s.migrate.update(msg)
	}
	if s.table.Filtering() {
		_, cmd := s.table.Update(msg)
		s.refreshDetail()
		return cmd
	}
	k := s.keys
	switch {
	case key.Matches(msg, k.Detail):
		s.showDetail = !s.showDetail
		s.layout()
		s.refreshDetail()
		return nil
	case key.Matches(msg, k.Back):
		switch {
		case s.table.Filter() != "":
			s.table.SetFilter("")
		case s.svcFilter != "":
			s.svcFilter = ""
			s.rebuildRows()
		case s.showDetail:
			s.showDetail = false
			s.layout()
		}
		s.refreshDetail()
		return nil
	case key.Matches(msg, k.New):
		return s.openWizard()
	case key.Matches(msg, k.Migrate):
		return s.openMigration(nil)
	case key.Matches(msg, k.Delete):
		return s.deleteSelected()
	case key.Matches(msg, k.Service):
		if len(s.svcList) == 0 {
			return kit.Toast(kit.ToastInfo, "services not loaded yet")
		}
		return kit.OpenDialog(kit.NewPicker(s.common, "Restores of which service?", ID, s.svcList))
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

// readOnlyRefusal explains why nothing can be started on this profile;
// the action layer refuses the change anyway.
func (s *Screen) readOnlyRefusal(what string) tea.Cmd {
	return kit.Toast(kit.ToastWarn, fmt.Sprintf("profile %s is read-only: %s not allowed (switch with :profile NAME)", s.common.Profile, what))
}

// openWizard opens the new-restore wizard, or brings back the one left
// with esc. The target defaults to the service filtered on.
func (s *Screen) openWizard() tea.Cmd {
	if s.common.ReadOnly {
		return s.readOnlyRefusal("starting a restore is")
	}
	if s.draft != nil {
		s.wizard, s.draft = s.draft, nil
		s.wizard.SetServices(s.svcList)
	} else {
		s.wizard = restoreform.New(s.common, restoreform.Options{Origin: ID, TargetID: s.svcFilter, Services: s.svcList})
	}
	s.mode = modeWizard
	s.wizard.SetSize(s.width, s.height)
	return s.wizard.Init()
}

// openMigration starts the cross-provider migration flow.
func (s *Screen) openMigration(req *restoreform.MigrateRequest) tea.Cmd {
	if s.common.ReadOnly {
		return s.readOnlyRefusal("a migration (it takes a backup and restores it) is")
	}
	if req == nil && s.migrate != nil && s.migrate.step >= migWait {
		s.mode = modeMigrate // back to the migration under way
		s.migrate.setSize(s.width, s.height)
		return nil
	}
	s.migrate = newMigration(s.common, s.svcList, req)
	s.migrate.setSize(s.width, s.height)
	s.mode = modeMigrate
	return s.migrate.init()
}

func (s *Screen) onWizardDone(msg restoreform.DoneMsg) tea.Cmd {
	if msg.Wizard == nil || msg.Wizard != s.wizard {
		return nil
	}
	switch {
	case msg.Submitted:
		s.pending = msg.Pending
		s.wizard = nil
		s.draft = nil
		s.mode = modeList
		s.svcFilter = ""
		s.table.SetFilter("")
		s.rebuildRows()
		s.table.Select(pendingRowID)
		s.refreshDetail()
		return nil
	case msg.Migrate != nil:
		s.draft = s.wizard
		s.wizard = nil
		return s.openMigration(msg.Migrate)
	case msg.Cancelled:
		s.draft = s.wizard
		s.wizard = nil
		s.mode = modeList
		return kit.Toast(kit.ToastInfo, "restore not started; n brings back what you chose and typed")
	}
	return nil
}

func (s *Screen) onMigrationExit(msg migrationExitMsg) tea.Cmd {
	if msg.m != s.migrate {
		return nil
	}
	if msg.restore != nil {
		s.migrate = nil
		s.wizard = restoreform.New(s.common, *msg.restore)
		s.wizard.SetSize(s.width, s.height)
		s.mode = modeWizard
		return s.wizard.Init()
	}
	if s.migrate.step < migWait {
		s.migrate = nil
	}
	s.mode = modeList
	return nil
}

// deleteTag marks the delete action's answer.
type deleteTag struct{ id int64 }

func (s *Screen) deleteSelected() tea.Cmd {
	r, ok := s.selected()
	if !ok {
		return nil
	}
	target := s.targetName(&r)
	switch {
	case r.ID == 0 && s.pending != nil && r.Status == s.pending.Status:
		return kit.Toast(kit.ToastInfo, "the restore into "+target+" is still being submitted; it can be deleted once the API has answered")
	case r.ID == 0:
		return kit.Toast(kit.ToastWarn, "the API listed this restore into "+target+" without a readable id: it cannot be deleted by id")
	case r.Finished():
		return kit.Toast(kit.ToastWarn, fmt.Sprintf("restore %d has finished (%s): only a restore that has not finished can be deleted", int64(r.ID), r.Status))
	}
	id := int64(r.ID)
	client := s.common.Client
	return kit.Do(kit.Action{
		Name:     fmt.Sprintf("delete restore %d into %s", id, target),
		Key:      "delete-restore:" + strconv.FormatInt(id, 10),
		Mutating: true,
		Origin:   ID,
		Tag:      deleteTag{id: id},
		Confirm: kit.Confirm{
			Kind:  kit.ConfirmYesNo,
			Title: fmt.Sprintf("Delete restore %d?", id),
			Detail: fmt.Sprintf("Restore %d into %s (%s) is %s. Deleting cancels it; the API refuses once the restore has finished or can no longer be stopped.",
				id, target, r.ServiceID, s.statusText(&r, s.common.Time())),
		},
		Run: func(ctx context.Context) (any, error) {
			if client == nil {
				return nil, fmt.Errorf("no API client")
			}
			return nil, client.DeleteRestore(ctx, id)
		},
		Success: func(any) string { return fmt.Sprintf("restore %d into %s deleted", id, target) },
		Refresh: []string{ResourceKey, ServicesKey},
	})
}

// ---- actions ----

func (s *Screen) onActionDone(msg kit.ActionDoneMsg) tea.Cmd {
	switch tag := msg.Tag.(type) {
	case restoreform.Tag:
		s.pending = nil
		if api.IsOutcomeUnknown(msg.Err) {
			// sent, never answered: the root's dialog shows any restore that
			// appeared on the target and offers the resend; the wizard is
			// kept as a draft, never reopened with "type the name to retry"
			if s.wizard == tag.Wizard {
				s.wizard = nil
				s.mode = modeList
			}
			s.draft = tag.Wizard
			tag.Wizard.Unknown()
			s.rebuildRows()
			return nil
		}
		if msg.Err != nil {
			// back to the confirmation with everything kept, unless the
			// user already started another wizard
			if s.wizard == nil || s.mode != modeWizard {
				s.wizard = tag.Wizard
				s.wizard.SetServices(s.svcList)
				s.wizard.SetSize(s.width, s.height)
				s.mode = modeWizard
			} else {
				s.draft = tag.Wizard
			}
			tag.Wizard.Failed(msg.Err)
			s.rebuildRows()
			return nil
		}
		rec := restoreform.Record(msg.Result, tag)
		if rec.ID > 0 {
			s.accepted[int64(rec.ID)] = rec
			found := false
			for i := range s.restores {
				if s.restores[i].ID == rec.ID {
					found = true
				}
			}
			if !found {
				s.restores = append(s.restores, rec)
			}
		}
		s.rebuildRows()
		s.table.Select(rowID(&rec))
		s.refreshDetail()
		return restoreform.Watch(s.common, ID, rec, tag)
	case deleteTag:
		if msg.Err == nil {
			delete(s.accepted, tag.id)
			kept := s.restores[:0]
			for _, r := range s.restores {
				if int64(r.ID) != tag.id {
					kept = append(kept, r)
				}
			}
			s.restores = kept
			s.rebuildRows()
		}
		return nil
	}
	if s.migrate != nil {
		return s.migrate.onActionDone(msg)
	}
	return nil
}

// ---- view ----

// View implements kit.Screen.
func (s *Screen) View() string {
	switch s.mode {
	case modeWizard:
		return s.wizard.View()
	case modeMigrate:
		return s.migrate.view()
	}
	th := s.common.Theme
	status := th.Bold.Render(" Restores") + " " + th.Muted.Render(s.countText())
	if s.svcFilter != "" {
		status += "  " + th.Accent.Render("service: "+s.serviceName(s.svcFilter)) + th.Muted.Render(" (esc shows all)")
	}
	if s.loadErr != nil && s.loaded {
		status += "  " + th.Warn.Render("showing last data")
	}
	status = ansi.Truncate(status, s.width, th.Glyphs.Ellipsis)
	return status + "\n" + kit.ViewSplit(th, s.table, s.detail, s.showDetail, s.width)
}

func (s *Screen) countText() string {
	if !s.loaded && s.loadErr == nil {
		return "loading"
	}
	running := 0
	for _, r := range s.visible {
		if r.Running() {
			running++
		}
	}
	n := strconv.Itoa(s.table.Total())
	if s.table.Filter() != "" {
		n = fmt.Sprintf("%d of %d", s.table.Len(), s.table.Total())
	}
	if running > 0 {
		n += fmt.Sprintf(" (%d running)", running)
	}
	return n
}

// ---- keys ----

type keyMap struct {
	Detail, Back, New, Delete, Migrate, Service key.Binding
	ScrollDown, ScrollUp                        key.Binding
}

func newKeyMap() keyMap {
	return keyMap{
		Detail:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "details")),
		Back:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back / clear filter")),
		New:        key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new")),
		Delete:     key.NewBinding(key.WithKeys("d", "delete"), key.WithHelp("d", "delete")),
		Migrate:    key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "migrate")),
		Service:    key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "by service")),
		ScrollDown: key.NewBinding(key.WithKeys("J", "ctrl+d"), key.WithHelp("J", "scroll details down")),
		ScrollUp:   key.NewBinding(key.WithKeys("K", "ctrl+u"), key.WithHelp("K", "scroll details up")),
	}
}

// KeyMap implements kit.Screen: the bindings of the current mode.
func (s *Screen) KeyMap() help.KeyMap {
	switch s.mode {
	case modeWizard:
		return s.wizard.KeyMap()
	case modeMigrate:
		return s.migrate.keyMap()
	}
	k := s.keys
	t := s.table.Keys
	if s.table.Filtering() {
		b := []key.Binding{
			key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "keep filter")),
			key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear filter")),
		}
		return kit.Keys{Short: b, Full: [][]key.Binding{b}}
	}
	short := []key.Binding{k.Detail, k.New, k.Delete, k.Service, t.Filter, k.Migrate}
	full := [][]key.Binding{
		{k.Detail, k.New, k.Delete, k.Migrate, k.Service, k.ScrollDown, k.ScrollUp},
		{t.Up, t.Down, t.PageUp, t.PageDown, t.Top, t.Bottom, t.Filter, k.Back},
	}
	return kit.Keys{Short: short, Full: full}
}
