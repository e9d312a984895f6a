// Package restores is the Restores screen: the table of restores with the
// target service joined from the services listing, live status of running
// restores, a detail pane, delete of a restore that has not finished, the
// new-restore wizard (restoreform.Wizard, shared with the Replication
// screen) and the guided migration across cloud providers. It talks to the
// API only through tea.Cmds, polls through the root's engine (Resources),
// mutates through the root's action layer (kit.Do) and follows submitted
// restores with a root watch (kit.Watch), so their outcome is told even
// when this screen is not shown.
package restores

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/forms/restoreform"
	"github.com/skytui/skytui/kit"
)

// ID is the screen's name on the command line.
const ID = "restores"

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
	colStarted
	colMessage
)

// Screen is the Restores screen.
type Screen struct {
	kit.Name
	*kit.ListView
	common *kit.Common
	keys   keyMap
	mode   mode

	restores []api.Restore
	visible  []api.Restore  // rows of the table, in order
	byRow    map[string]int // row ID -> index in visible
	services map[string]api.Service
	svcList  []api.Service
	// svcErr is why the last services listing failed (nil: it did not)
	svcErr error
	// firstSeen times running restores the API gives no start time for.
	firstSeen map[int64]time.Time
	// pending is the restore being submitted; accepted are restores the
	// API accepted that the listing does not show yet.
	pending  *api.Restore
	accepted map[int64]api.Restore
	// pointInTime are the point-in-time restores submitted from this
	// screen while it runs, by ID: the API's record names only the backup
	// such a restore starts from
	pointInTime map[int64]pointInTime
	// pendingKnown are the restores listed when the submit was sent: a
	// new one on the pending restore's target is the submitted restore,
	// listed before the submit's answer came.
	pendingKnown map[int64]bool
	// svcFilter shows only the restores of one service ("" all).
	svcFilter string
	// svcsRead: a services listing has come (names resolve against it)
	svcsRead bool
	// rowsAt is the time the rows' ages were made at (the list shows them
	// as of its last rebuild, on the clock's tick)
	rowsAt time.Time

	// sweep lists the restores of every service where the server lists
	// them only per service (the live service); it is used from commands.
	sweep *api.RestoreSweep
	// stale are the services whose restores listing failed in the last
	// sweep: their rows are from their last listing that did not fail
	stale []api.SweepFailure

	wizard *restoreform.Wizard
	// draft is a wizard left with esc: n brings it back as it was.
	draft   *restoreform.Wizard
	migrate *migration
	// sent is the migration whose restore was submitted and not yet
	// answered: a refusal brings it back (esc from the wizard then returns
	// to its copy step)
	sent *migration
}

// New builds the screen.
func New(c *kit.Common) *Screen {
	s := &Screen{
		Name:        kit.NewName(ID, "Restores"),
		common:      c,
		keys:        newKeyMap(),
		byRow:       map[string]int{},
		services:    map[string]api.Service{},
		firstSeen:   map[int64]time.Time{},
		accepted:    map[int64]api.Restore{},
		pointInTime: map[int64]pointInTime{},
		sweep:       &api.RestoreSweep{},
	}
	s.ListView = kit.NewListView(c, "Restores", "restores", []kit.Column{
		colID:      {Title: "ID", Min: 3, Max: 8, Priority: 10, Right: true},
		colTarget:  {Title: "TARGET", Min: 12, Max: 24, Priority: 9},
		colService: {Title: "SERVICE ID", Min: 13, Max: 16, Priority: 3},
		colSource:  {Title: "SOURCE", Min: 16, Max: 44, Priority: 7},
		colType:    {Title: "TYPE", Min: 8, Max: 10, Priority: 4},
		colStatus:  {Title: "STATUS", Min: 16, Max: 20, Priority: 8},
		colStarted: {Title: "STARTED", Min: 12, Max: 12, Priority: 2},
		colMessage: {Title: "MESSAGE", Min: 12, Max: 40, Priority: 6},
	})
	// esc also shows every service's restores again
	s.Keys.Back.SetHelp("esc", "back / clear filter")
	s.DetailOf = s.detailOf
	s.Rebuild, s.Moving = s.rebuildRows, s.anyRunning
	s.Changes = []key.Binding{s.keys.New, s.keys.Delete, s.keys.Migrate}
	s.OnRow = []key.Binding{s.keys.Delete}
	s.PaneOf = s.pane
	return s
}

// pane is the sub-view shown instead of the list (nil: the list).
func (s *Screen) pane() kit.Pane {
	switch s.mode {
	case modeWizard:
		return s.wizard
	case modeMigrate:
		return s.migrate
	}
	return nil
}

// UsesEsc implements kit.EscUser: the wizard and the migration take
// esc, then the detail pane and a filter; after a jump (Services' R) the
// esc after those goes back, and the jump's service filter ends with it
// (Scope). Without a jump, esc then shows every service's restores.
func (s *Screen) UsesEsc() bool { return s.mode != modeList || s.BackUsed() }

// Scope implements kit.Scoped: the service shown, else AllArg. Going back
// from a jump here opens the screen on the scope it had before: the jump
// narrows the view for that visit only, while f and ":restores NAME"
// choose it until changed.
func (s *Screen) Scope() string { return kit.Or(s.svcFilter, AllArg) }

// AllArg is the ":restores" argument that shows every service's restores.
const AllArg = "all"

// Open implements kit.Opener: ":restores <service>" shows the restores of
// one service (name or ID).
func (s *Screen) Open(arg string) tea.Cmd {
	arg = strings.TrimSpace(arg)
	switch arg {
	case "":
		return nil
	case AllArg:
		s.svcFilter = ""
	default:
		if found := api.ServicesNamed(s.svcList, arg); len(found) > 1 {
			// a name two services share: neither is chosen for the user
			return kit.Toast(kit.ToastWarn, fmt.Sprintf("%s: give its ID, :restores ID; still showing %s", api.SharedName(arg, found, false), s.shownText()))
		}
		id := s.resolve(arg)
		if !s.knownService(id) {
			// a name that is neither a service nor the target of a restore
			// listed changes nothing; said only while the view it names is
			// still shown
			shown := s.svcFilter
			return kit.ToastWhile(kit.ToastWarn, fmt.Sprintf("no service named %q; still showing %s", arg, s.shownText()),
				func() bool { return s.svcFilter == shown })
		}
		s.svcFilter = id
	}
	s.mode = modeList
	s.rebuildRows()
	return nil
}

// knownService reports that id (as resolve gives it) may be narrowed to:
// a service of the listing, the target of a restore listed (a deleted
// service's restores stay listed), or anything while the services are not
// read yet (resolved when they come).
func (s *Screen) knownService(id string) bool {
	if _, ok := s.services[id]; ok || !s.svcsRead {
		return true
	}
	return slices.ContainsFunc(s.restores, func(r api.Restore) bool { return r.ServiceID == id || r.ServiceName == id })
}

// shownText is what the view shows: "all services" or the service's name.
func (s *Screen) shownText() string {
	if s.svcFilter == "" {
		return "all services"
	}
	return s.serviceName(s.svcFilter) + "'s restores"
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
		kit.RestoresKey.Resource(func(ctx context.Context) ([]api.Restore, error) {
			if client == nil {
				return nil, fmt.Errorf("no API client")
			}
			all, failed, err := sweep.Partial(ctx, client, kit.Fresh(ctx))
			if err != nil || len(failed) == 0 {
				return all, err
			}
			if len(all) == 0 {
				// nothing to show: the listing failed (of the first
				// service that failed, named)
				return all, failed[0].ServiceError
			}
			// else a service that failed keeps its last rows and is said
			// stale alone (staleNote); the others' answers are fresh, and
			// each failure is logged whole
			parts := make([]error, len(failed))
			for i, f := range failed {
				parts[i] = f.ServiceError
			}
			return all, kit.Partial(parts...)
		}, kit.AnyRestoreRunning),
		kit.Services(s.common),
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

// listKeys are the restores and the services, re-read after a change.
var listKeys = []string{kit.RestoresKey.String(), kit.ServicesKey.String()}

// refreshLists re-reads the restores and the services.
func refreshLists() tea.Cmd { return kit.Refresh(listKeys...) }

// ---- data ----

// Update implements kit.Screen.
func (s *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case kit.DataMsg:
		return s, s.onData(msg)
	case kit.ClockMsg:
		if s.wizard != nil { // the ages it shows move with the clock
			s.wizard.Update(msg)
		}
		return s, s.ListView.Update(msg)
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
		return s, refreshLists()
	case restoreform.DoneMsg:
		return s, s.onWizardDone(msg)
	case migrationExitMsg:
		return s, s.onMigrationExit(msg)
	case tea.KeyPressMsg:
		return s, s.onKey(msg)
	case tea.PasteMsg:
		// to the wizard, the migration or a filter being typed
		if s.OpenPane() != nil || s.Capturing() {
			return s, s.ListView.Update(msg)
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
		cmds = append(cmds, s.migrate.Update(msg))
	}
	if s.mode == modeList {
		cmds = append(cmds, s.ListView.Update(msg))
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
	if svcs, err, ok := kit.ServicesKey.Of(msg); ok {
		s.svcErr = err
		if err == nil { // else the restores still show, with IDs only
			s.setServices(svcs)
		}
		s.servicesFailed()
		return nil
	}
	if rs, err, ok := kit.RestoresKey.Of(msg); ok {
		if err != nil {
			s.Failed(err)
			return nil
		}
		s.stale = s.sweep.Failed()
		s.setRestores(rs)
	}
	return nil
}

// servicesFailed tells the wizards and the migration why they have no
// services to offer, when the listing failed.
func (s *Screen) servicesFailed() {
	if s.svcErr == nil {
		return
	}
	if s.wizard != nil {
		s.wizard.ServicesFailed(s.svcErr)
	}
	if s.draft != nil {
		s.draft.ServicesFailed(s.svcErr)
	}
	if s.migrate != nil {
		s.migrate.servicesFailed(s.svcErr)
	}
}

// setServices takes a services listing: names, providers and statuses
// for the rows, the wizards and the migration.
func (s *Screen) setServices(svcs []api.Service) {
	s.svcList, s.svcsRead = svcs, true
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
}

// ---- keys ----

func (s *Screen) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := s.keys
	switch {
	case s.mode == modeWizard:
		return s.wizard.Update(msg)
	case s.mode == modeMigrate:
		return s.migrate.Update(msg)
	case s.Capturing():
		// the filter is being typed: every key is the list's
	case key.Matches(msg, s.Keys.Back) && !s.BackUsed() && s.svcFilter != "":
		// after the pane and the typed filter: the service filter
		s.svcFilter = ""
		s.rebuildRows()
		return nil
	case key.Matches(msg, k.New):
		return s.openWizard()
	case key.Matches(msg, k.Migrate):
		return s.openMigration(nil)
	case key.Matches(msg, k.Delete):
		return s.deleteSelected()
	case key.Matches(msg, k.All) && s.svcFilter == "":
		return kit.Toast(kit.ToastInfo, "every service's restores are shown already ("+k.Service.Help().Key+" shows one service's)")
	case key.Matches(msg, k.All):
		return s.Open(AllArg)
	case key.Matches(msg, k.Service):
		if len(s.svcList) == 0 {
			return kit.Toast(kit.ToastInfo, "services not loaded yet")
		}
		return kit.OpenDialog(kit.NewPicker(s.common, "Restores of which service?", ID, s.svcList))
	}
	_, cmd := s.HandleKey(msg)
	return cmd
}

type keyMap struct {
	New, Delete, Migrate, Service, All key.Binding
}

func newKeyMap() keyMap {
	return keyMap{
		New:     kit.Bind("n", "new"),
		Delete:  kit.Bind("d", "delete", "delete"),
		Migrate: kit.Bind("m", "across clouds"),
		Service: kit.Bind("f", "by service"),
		All:     kit.Bind("a", "all services"),
	}
}

// KeyMap implements kit.Screen: the bindings of the current mode.
func (s *Screen) KeyMap() help.KeyMap {
	if p := s.pane(); p != nil {
		return p.KeyMap()
	}
	k := s.keys
	// a (all services) in the footer where it does something: narrowed;
	// ? lists it always, after f (pressed unnarrowed it says so)
	var all []key.Binding
	if s.svcFilter != "" {
		all = []key.Binding{k.All}
	}
	// d in the footer where it can delete: not on a finished restore (?
	// lists it always; pressed, it says why not). It comes before m, so a
	// narrow footer (they are kept in this order) keeps the key for the
	// running restore selected rather than the migration's
	del := []key.Binding{k.Delete}
	if r, ok := s.selected(); ok {
		if _, why := s.deleteRefusal(&r); why != "" {
			del = nil
		}
	}
	// a before m and f: narrowed, the way back to every service is the one
	// a narrow footer keeps (it dropped a, keeping f)
	short := slices.Concat([]key.Binding{s.Keys.Detail, k.New}, del, all, []key.Binding{k.Migrate, k.Service, s.Table.Keys.Filter})
	return s.ListView.KeyMap(short, k.New, k.Delete, k.Migrate, k.Service, k.All)
}

// ---- view ----

// View implements kit.Screen.
func (s *Screen) View() string {
	if p := s.pane(); p != nil {
		return p.View()
	}
	th := s.common.Theme
	count := s.CountText()
	if running := s.running(); running > 0 && (s.IsLoaded() || s.Err() != nil) {
		count += fmt.Sprintf(" (%d running)", running)
	}
	var note string
	if s.svcFilter != "" {
		name := s.serviceName(s.svcFilter)
		for id, v := range s.services {
			if id != s.svcFilter && v.Name == name {
				name += " (" + s.svcFilter + ")" // another has the name: which one
				break
			}
		}
		note = th.Accent.Render("service: "+name) + th.Muted.Render(" (a shows all)")
	}
	return s.ListView.View(count, note, s.staleNote())
}

// running counts the running restores shown.
func (s *Screen) running() int {
	n := 0
	for _, r := range s.visible {
		if r.Running() {
			n++
		}
	}
	return n
}

// MouseList implements kit.MouseList: the list, while it is shown.
func (s *Screen) MouseList() (*kit.ListView, int) {
	if s.mode != modeList {
		return nil, 0
	}
	return s.ListView, 0
}
