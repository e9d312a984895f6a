// Package replication is the Replication screen: the status of the
// replication pairs set up with skytui (IO and SQL threads, lag with a
// sparkline, GTID positions, the last errors; stop, start, the grant
// again) and the setup wizard that makes a secondary replicate from a
// primary. The wizard's logic (wizard.go) is a plain state machine with
// one method per step; this file is its terminal face. It talks to the
// API and to the services' SQL endpoints only in tea.Cmds, polls through
// the root's engine (Resources), and mutates through the action layer
// (kit.Do), which refuses every change on a read-only profile.
package replication

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/forms/restoreform"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
)

// ID is the screen's name on the command line.
const ID = "replication"

// Resource keys.
const (
	servicesKey      = "services"
	statusKeyPrefix  = "replication/status/"
	restoreKeyPrefix = "replication/restore/"
)

type mode int

const (
	modeStatus mode = iota
	modeWizard
	modeGrant
)

// Options build a screen with non-default parts (tests).
type Options struct {
	// Store is where progress and pairs are kept (default: the user
	// state directory).
	Store *replsetup.Store
	// OpenSQL connects to a service (default api.OpenSQL).
	OpenSQL func(api.SQLTarget) (*api.SQLClient, error)
	// SQLTimeout bounds each SQL statement (default 10 s).
	SQLTimeout time.Duration
}

// Screen is the Replication screen.
type Screen struct {
	common *kit.Common
	opts   Options
	store  *replsetup.Store
	creds  *replsetup.CredCache
	keys   keyMap

	mode          mode
	width, height int

	loaded  bool
	loadErr error
	state   replsetup.ProfileState

	services       []api.Service
	servicesLoaded bool
	servicesErr    error

	table     *kit.Table
	views     map[string]*pairView // by secondary ID
	detailOff int                  // scroll of the pair's status pane
	detailMax int

	wiz       *replsetup.Wizard
	wizID     uint64
	seq       uint64
	pending   map[replsetup.Step]uint64 // latest read-only check per step
	busy      string
	notice    string
	noticeErr bool
	chooser   *chooser
	backupCur int
	confirm   *restoreform.Confirm
	submitted bool // the restore is being submitted

	grant *grantView
}

type pairView struct {
	pair  replsetup.Pair
	last  *replsetup.PairStatus
	err   error
	at    time.Time
	errAt time.Time
	hist  history
	busy  string
}

type chooser struct {
	table   *kit.Table
	primary *api.Service
	err     string
}

type grantView struct {
	pair    replsetup.Pair
	grant   string
	err     error
	loading bool
	seq     uint64
}

// Messages of the screen's commands.
type (
	stateLoadedMsg struct {
		profile string
		state   replsetup.ProfileState
		err     error
	}
	stateSavedMsg struct{ err error }
	checkMsg      struct {
		wizID, seq uint64
		o          replsetup.Outcome
	}
	grantLoadedMsg struct {
		seq   uint64
		grant string
		err   error
	}
)

// Action tags.
type (
	wizTag struct {
		wizID uint64
		step  replsetup.Step
		op    string
	}
	pairTag struct {
		secondary string
		start     bool
	}
	forgetTag  struct{ secondary string }
	discardTag struct{}
)

// New builds the screen.
func New(c *kit.Common) *Screen { return NewWithOptions(c, Options{}) }

// NewWithOptions builds the screen with the given parts.
func NewWithOptions(c *kit.Common, o Options) *Screen {
	st := o.Store
	if st == nil {
		st = replsetup.DefaultStore()
	}
	s := &Screen{common: c, opts: o, store: st, creds: replsetup.NewCredCache(), keys: newKeyMap(),
		views: map[string]*pairView{}, pending: map[replsetup.Step]uint64{}}
	s.table = kit.NewTable(c, []kit.Column{
		{Title: "PRIMARY", Min: 10, Max: 24, Priority: 10},
		{Title: "SECONDARY", Min: 10, Max: 24, Priority: 10},
		{Title: "IO", Min: 3, Max: 10, Priority: 9},
		{Title: "SQL", Min: 3, Max: 5, Priority: 9},
		{Title: "BEHIND", Min: 6, Max: 7, Priority: 8, Right: true},
		{Title: "HISTORY", Min: 10, Max: HistoryLen, Priority: 5},
		{Title: "READ", Min: 7, Max: 8, Priority: 4},
	})
	s.table.Empty = "loading" + c.Theme.Glyphs.Ellipsis
	return s
}

func (s *Screen) engine() *replsetup.Engine {
	return &replsetup.Engine{Client: s.common.Client, Now: s.common.Time, Open: s.opts.OpenSQL, SQLTimeout: s.opts.SQLTimeout}
}

// ID implements kit.Screen.
func (s *Screen) ID() string { return ID }

// Title implements kit.Screen.
func (s *Screen) Title() string { return "Replication" }

// Init loads the saved pairs and any unfinished setup.
func (s *Screen) Init() tea.Cmd {
	store, profile := s.store, s.common.Profile
	return func() tea.Msg {
		ps, err := store.Load(profile)
		return stateLoadedMsg{profile: profile, state: ps, err: err}
	}
}

// CapturesKeys implements kit.Screen.
func (s *Screen) CapturesKeys() bool {
	switch s.mode {
	case modeWizard:
		if s.confirm != nil {
			return true
		}
		if s.chooser != nil {
			return s.chooser.table.Filtering()
		}
	case modeStatus:
		return s.table.Filtering()
	}
	return false
}

// SetSize implements kit.Screen.
func (s *Screen) SetSize(w, h int) {
	s.width, s.height = w, h
	s.layout()
}

func (s *Screen) layout() {
	w, h := s.width, s.height
	s.table.SetSize(w, max(2, min(len(s.state.Pairs)+1, (h-1)*40/100)))
	if s.chooser != nil {
		s.chooser.table.SetSize(w-2, max(3, h-stepsHeight-4))
	}
}

// Open selects the pair of a service (":replication <id or name>").
func (s *Screen) Open(arg string) tea.Cmd {
	arg = strings.TrimSpace(arg)
	if arg == "" {
		return nil
	}
	for _, p := range s.state.Pairs {
		if p.SecondaryID == arg || p.SecondaryName == arg || p.PrimaryID == arg || p.PrimaryName == arg {
			s.mode = modeStatus
			s.table.SetFilter("")
			s.table.Select(p.SecondaryID)
			return nil
		}
	}
	return kit.Toast(kit.ToastInfo, "no replication pair with "+arg+" yet: n sets one up")
}

// Resources implements kit.Screen: the services listing; in the status
// view one resource per pair (the secondary's replica status); in the
// wizard the restore it waits for.
func (s *Screen) Resources() []kit.Resource {
	client := s.common.Client
	res := []kit.Resource{{
		Key: servicesKey,
		Fetch: func(ctx context.Context) (any, error) {
			if client == nil {
				return nil, errors.New("no API client")
			}
			return client.ListServices(ctx)
		},
		Pending: func(data any) bool {
			svcs, _ := data.([]api.Service)
			for i := range svcs {
				if svcs[i].Pending() {
					return true
				}
			}
			return false
		},
	}}
	eng := s.engine()
	switch s.mode {
	case modeStatus:
		cache := s.creds
		for _, p := range s.state.Pairs {
			pair := p
			res = append(res, kit.Resource{
				Key: statusKeyPrefix + pair.SecondaryID,
				Fetch: func(ctx context.Context) (any, error) {
					return eng.PairStatus(ctx, pair, cache)
				},
				Pending: func(data any) bool {
					ps, _ := data.(replsetup.PairStatus)
					if ps.Status == nil {
						return false
					}
					// live threads change every poll: sample the lag often
					io := strings.ToLower(ps.Status.IORunning)
					return io == "yes" || io == "connecting" || io == "preparing"
				},
			})
		}
	case modeWizard:
		if w := s.wiz; w != nil && w.Current() == replsetup.StepRestore && w.Progress.RestoreID > 0 && !w.Progress.HasPassed(replsetup.StepRestore) {
			p := w.Progress
			res = append(res, kit.Resource{
				Key: restoreKey(p.RestoreID),
				Fetch: func(ctx context.Context) (any, error) {
					return eng.CheckRestore(ctx, p), nil
				},
				Pending: func(data any) bool {
					o, _ := data.(replsetup.Outcome)
					return o.Verdict == replsetup.Waiting
				},
			})
		}
	}
	return res
}

func restoreKey(id int64) string { return fmt.Sprintf("%s%d", restoreKeyPrefix, id) }

// ---- update ----

// Update implements kit.Screen.
func (s *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	switch msg := msg.(type) {
	case stateLoadedMsg:
		s.onLoaded(msg)
		return s, nil
	case stateSavedMsg:
		if msg.err != nil {
			return s, kit.Toast(kit.ToastWarn, "replication progress not saved: "+msg.err.Error())
		}
		return s, nil
	case kit.DataMsg:
		return s, s.onData(msg)
	case checkMsg:
		return s, s.onCheck(msg)
	case grantLoadedMsg:
		if g := s.grant; g != nil && g.seq == msg.seq {
			g.loading, g.grant, g.err = false, msg.grant, msg.err
		}
		return s, nil
	case kit.ActionDoneMsg:
		return s, s.onActionDone(msg)
	case kit.ClockMsg:
		return s, nil
	case tea.KeyPressMsg:
		return s, s.onKey(msg)
	case tea.PasteMsg:
		if s.confirm != nil && !s.submitted {
			_, cmd := s.confirm.Update(msg)
			return s, cmd
		}
		if s.mode == modeWizard && s.chooser != nil {
			_, cmd := s.chooser.table.Update(msg)
			return s, cmd
		}
		_, cmd := s.table.Update(msg)
		return s, cmd
	}
	// component messages (the filter input's cursor…)
	if s.mode == modeWizard && s.confirm != nil {
		_, cmd := s.confirm.Update(msg)
		return s, cmd
	}
	if s.mode == modeWizard && s.chooser != nil {
		_, cmd := s.chooser.table.Update(msg)
		return s, cmd
	}
	if s.mode == modeStatus {
		_, cmd := s.table.Update(msg)
		return s, cmd
	}
	return s, nil
}

func (s *Screen) onLoaded(msg stateLoadedMsg) {
	if msg.profile != s.common.Profile {
		return
	}
	s.loaded, s.loadErr = true, msg.err
	// a setup started before the file was read keeps going
	if s.wiz != nil && s.state.Setup != nil {
		msg.state.Setup = s.state.Setup
	}
	for _, p := range s.state.Pairs {
		msg.state.WithPair(p)
	}
	s.state = msg.state
	s.rebuildRows()
}

func (s *Screen) setStatus(text string, isErr bool) {
	s.notice, s.noticeErr = text, isErr
}

// ---- data ----

func (s *Screen) onData(msg kit.DataMsg) tea.Cmd {
	switch {
	case msg.Key == servicesKey:
		if msg.Err != nil {
			s.servicesErr = msg.Err
			return nil
		}
		s.servicesErr = nil
		s.servicesLoaded = true
		s.services, _ = msg.Data.([]api.Service)
		if s.chooser != nil {
			s.rebuildChooser()
		}
		if s.confirm != nil {
			if v, ok := s.service(s.confirm.Target.ID); ok {
				s.confirm.SetTarget(v)
			}
		}
		return nil
	case strings.HasPrefix(msg.Key, statusKeyPrefix):
		id := strings.TrimPrefix(msg.Key, statusKeyPrefix)
		pv := s.view(id)
		if pv == nil {
			return nil
		}
		if msg.Err != nil {
			pv.err, pv.errAt = msg.Err, msg.At
			pv.hist.add(nil)
			if ps, ok := msg.Data.(replsetup.PairStatus); ok && ps.Secondary.ID != "" {
				sec := ps.Secondary
				if pv.last == nil {
					pv.last = &replsetup.PairStatus{}
				}
				pv.last.Secondary = sec
			}
		} else {
			ps, _ := msg.Data.(replsetup.PairStatus)
			pv.last, pv.err, pv.at = &ps, nil, msg.At
			var lag *int64
			if ps.Status != nil {
				lag = ps.Status.SecondsBehindMaster
			}
			pv.hist.add(lag)
		}
		s.rebuildRows()
		return nil
	case strings.HasPrefix(msg.Key, restoreKeyPrefix):
		w := s.wiz
		if w == nil || msg.Key != restoreKey(w.Progress.RestoreID) || w.Current() != replsetup.StepRestore {
			return nil
		}
		if msg.Err != nil {
			return nil
		}
		o, ok := msg.Data.(replsetup.Outcome)
		if !ok || o.Verdict == replsetup.Unchecked {
			return nil
		}
		prev := w.Verdict(replsetup.StepRestore)
		changed := w.Apply(o, s.common.Time())
		var cmds []tea.Cmd
		if o.Verdict != prev || changed {
			cmds = append(cmds, s.save())
		}
		if o.Verdict == replsetup.Pass && prev != replsetup.Pass {
			cmds = append(cmds, kit.Toast(kit.ToastSuccess, replsetup.CredentialsNote(w.Progress)))
		}
		if changed {
			cmds = append(cmds, s.enterStep())
		}
		return tea.Batch(cmds...)
	}
	return nil
}

func (s *Screen) view(secondaryID string) *pairView {
	pv := s.views[secondaryID]
	if pv == nil {
		for _, p := range s.state.Pairs {
			if p.SecondaryID == secondaryID {
				pv = &pairView{pair: p}
				s.views[secondaryID] = pv
			}
		}
	}
	return pv
}

func (s *Screen) service(id string) (api.Service, bool) {
	for _, v := range s.services {
		if v.ID == id {
			return v, true
		}
	}
	return api.Service{}, false
}

func (s *Screen) selectedPair() (replsetup.Pair, bool) {
	id := s.table.SelectedID()
	for _, p := range s.state.Pairs {
		if p.SecondaryID == id {
			return p, true
		}
	}
	return replsetup.Pair{}, false
}

func ioKind(state string) theme.Kind {
	switch strings.ToLower(state) {
	case "yes":
		return theme.KindOK
	case "connecting", "preparing":
		return theme.KindWarn
	case "":
		return theme.KindMuted
	}
	return theme.KindError
}

func (s *Screen) rebuildRows() {
	if s.loaded && len(s.state.Pairs) == 0 {
		s.table.Empty = "no replication pairs yet"
	}
	now := s.common.Time()
	rows := make([]kit.Row, 0, len(s.state.Pairs))
	for _, p := range s.state.Pairs {
		pv := s.view(p.SecondaryID)
		io, sqlT, behind, read := "?", "?", "-", "-"
		var hist string
		if pv != nil {
			if pv.last != nil && pv.last.Status != nil {
				st := pv.last.Status
				io, sqlT = api.OrID(st.IORunning, "-"), api.OrID(st.SQLRunning, "-")
				if !st.Configured {
					io, sqlT = "none", "none"
				}
				if st.SecondsBehindMaster != nil {
					behind = fmt.Sprintf("%ds", *st.SecondsBehindMaster)
				}
			}
			if pv.err != nil {
				io, sqlT, behind = "error", "error", "-"
			}
			hist = Sparkline(s.common.Theme.Glyphs, pv.hist.samples, HistoryLen)
			if !pv.at.IsZero() {
				read = kit.Ago(now.Sub(pv.at)) + " ago"
			}
		}
		rows = append(rows, kit.Row{
			ID:    p.SecondaryID,
			Cells: []string{api.OrID(p.PrimaryName, p.PrimaryID), api.OrID(p.SecondaryName, p.SecondaryID), io, sqlT, behind, hist, read},
			Kinds: []theme.Kind{0, 0, ioKind(io), ioKind(sqlT), 0, theme.KindNeutral, theme.KindMuted},
		})
	}
	s.table.SetRows(rows)
	s.layout()
}

// ---- saving ----

// save writes the state in a command, numbered now so the newest wins.
func (s *Screen) save() tea.Cmd {
	s.syncSetup()
	snap := s.state.Clone()
	store, profile := s.store, s.common.Profile
	seq := store.NextSeq()
	return func() tea.Msg {
		return stateSavedMsg{err: store.Save(profile, snap, seq)}
	}
}

// syncSetup copies the wizard's progress into the saved state: nothing
// until a pair is chosen, nothing once the setup is done.
func (s *Screen) syncSetup() {
	w := s.wiz
	if w == nil || w.Progress.PrimaryID == "" || w.Current() == replsetup.StepDone {
		if w != nil && w.Current() == replsetup.StepDone {
			s.state.Setup = nil
		}
		return
	}
	p := w.Progress
	s.state.Setup = &p
}

// ---- wizard ----

func (s *Screen) newWizard() tea.Cmd {
	s.wizID++
	s.wiz = replsetup.NewWizard(s.common.Time())
	s.state.Setup = nil
	s.mode = modeWizard
	s.busy = ""
	s.setStatus("", false)
	s.confirm, s.submitted = nil, false
	s.openChooser()
	return s.save()
}

func (s *Screen) resumeWizard() tea.Cmd {
	if s.state.Setup == nil {
		return nil
	}
	if s.wiz == nil || s.wiz.Progress.StartedAt != s.state.Setup.StartedAt || s.wiz.Progress.SecondaryID != s.state.Setup.SecondaryID {
		s.wizID++
		s.wiz = replsetup.Resume(*s.state.Setup)
	}
	s.mode = modeWizard
	s.setStatus("", false)
	s.chooser = nil
	if s.wiz.Current() == replsetup.StepPair {
		s.openChooser()
	}
	return s.enterStep()
}

func (s *Screen) openChooser() {
	t := kit.NewTable(s.common, []kit.Column{
		{Title: "NAME", Min: 8, Max: 24, Priority: 10},
		{Title: "ID", Min: 8, Max: 16, Priority: 8},
		{Title: "STATUS", Min: 6, Max: 18, Priority: 9},
		{Title: "PROVIDER/REGION", Min: 10, Max: 24, Priority: 7},
		{Title: "OUTBOUND IP", Min: 10, Max: 32, Priority: 3},
	})
	t.Empty = "loading services" + s.common.Theme.Glyphs.Ellipsis
	s.chooser = &chooser{table: t}
	s.rebuildChooser()
	s.layout()
}

func (s *Screen) rebuildChooser() {
	c := s.chooser
	if s.servicesLoaded {
		c.table.Empty = "no services: create two on the Services screen"
	}
	rows := make([]kit.Row, 0, len(s.services))
	for _, v := range s.services {
		where := v.Provider
		if v.Region != "" {
			where += "/" + v.Region
		}
		rows = append(rows, kit.Row{ID: v.ID,
			Cells: []string{v.Name, v.ID, v.Status, where, strings.Join(v.OutboundIPs, ", ")},
			Kinds: []theme.Kind{0, 0, theme.StatusKind(v.Status)}})
	}
	c.table.SetRows(rows)
}

// check runs a read-only check of the current wizard in a command.
func (s *Screen) check(step replsetup.Step, busy string, f func(ctx context.Context) replsetup.Outcome) tea.Cmd {
	s.seq++
	seq, wizID := s.seq, s.wizID
	s.pending[step] = seq
	s.busy = busy
	ctx := s.common.Ctx()
	return func() tea.Msg { return checkMsg{wizID: wizID, seq: seq, o: f(ctx)} }
}

func (s *Screen) onCheck(msg checkMsg) tea.Cmd {
	w := s.wiz
	if w == nil || msg.wizID != s.wizID || s.pending[msg.o.Step] != msg.seq {
		return nil // stale: another check or another setup since
	}
	delete(s.pending, msg.o.Step)
	s.busy = ""
	o := msg.o
	if o.Step == replsetup.StepPair {
		if o.Verdict != replsetup.Pass {
			if s.chooser != nil {
				s.chooser.err = o.Problem
				s.chooser.primary = nil
			}
			w.Results[replsetup.StepPair] = o
			return nil
		}
		s.chooser = nil
	}
	if o.Step == replsetup.StepBackup && o.Backup != nil {
		s.backupCur = 0
		key := w.Progress.BackupKey
		if key == "" {
			key = o.Backup.Backup.Key
		}
		for i := range o.Backups {
			if o.Backups[i].Backup.Key == key {
				s.backupCur = i
			}
		}
	}
	changed := w.Apply(o, s.common.Time())
	cmds := []tea.Cmd{s.save()}
	if changed {
		cmds = append(cmds, s.enterStep())
	}
	return tea.Batch(cmds...)
}

// enterStep starts the read-only check a step needs when the wizard
// arrives at it.
func (s *Screen) enterStep() tea.Cmd {
	w := s.wiz
	if w == nil {
		return nil
	}
	s.busy = ""
	eng := s.engine()
	p := w.Progress
	switch w.Current() {
	case replsetup.StepAllowList:
		return s.check(replsetup.StepAllowList, "checking "+api.OrID(p.PrimaryName, p.PrimaryID)+"'s allow list", func(ctx context.Context) replsetup.Outcome {
			return eng.CheckAllowList(ctx, p)
		})
	case replsetup.StepBackup:
		return s.check(replsetup.StepBackup, "listing "+api.OrID(p.PrimaryName, p.PrimaryID)+"'s backups", func(ctx context.Context) replsetup.Outcome {
			return eng.ListBackups(ctx, p)
		})
	case replsetup.StepGrant:
		if w.Grant == "" {
			return s.check(replsetup.StepGrant, "reading the grant from "+api.OrID(p.SecondaryName, p.SecondaryID), func(ctx context.Context) replsetup.Outcome {
				return eng.FetchGrantStep(ctx, p)
			})
		}
	case replsetup.StepDone:
		return s.finish()
	}
	return nil
}

// finish ends the setup: the pair joins the status view.
func (s *Screen) finish() tea.Cmd {
	w := s.wiz
	if w == nil {
		return nil
	}
	pair := replsetup.PairOf(w.Progress, s.common.Time())
	s.state.WithPair(pair)
	s.state.Setup = nil
	s.wiz = nil
	s.chooser, s.confirm = nil, nil
	s.mode = modeStatus
	delete(s.views, pair.SecondaryID) // a new history
	s.rebuildRows()
	s.table.SetFilter("")
	s.table.Select(pair.SecondaryID)
	return tea.Batch(s.save(), kit.Toast(kit.ToastSuccess, "replication "+pair.Text("->")+" set up: its status is polled here"))
}

// outcomeRun adapts a step to kit.Action.Run: the outcome is the result;
// a failed step is also the error the toast shows.
func outcomeRun(f func(ctx context.Context) replsetup.Outcome) func(ctx context.Context) (any, error) {
	return func(ctx context.Context) (any, error) {
		o := f(ctx)
		if o.Verdict == replsetup.Fail {
			if o.Err != nil && o.Problem == "" {
				return o, o.Err
			}
			return o, errors.New(o.Problem)
		}
		return o, nil
	}
}

func outcomeText(res any) string {
	if o, ok := res.(replsetup.Outcome); ok && o.Summary != "" {
		return o.Summary
	}
	return "done"
}

// act hands a step's mutating call to the action layer.
func (s *Screen) act(step replsetup.Step, op, name, key string, run func(ctx context.Context) replsetup.Outcome, refresh ...string) tea.Cmd {
	s.busy = name
	return kit.Do(kit.Action{
		Name:     name,
		Key:      key,
		Mutating: true,
		Origin:   ID,
		Tag:      wizTag{wizID: s.wizID, step: step, op: op},
		Run:      outcomeRun(run),
		Success:  outcomeText,
		Refresh:  refresh,
	})
}

// runStep is enter in the wizard: the current step's action.
func (s *Screen) runStep() tea.Cmd {
	w := s.wiz
	eng := s.engine()
	p := w.Progress
	pri, sec := api.OrID(p.PrimaryName, p.PrimaryID), api.OrID(p.SecondaryName, p.SecondaryID)
	if s.busy != "" {
		s.setStatus("wait: "+s.busy+s.common.Theme.Glyphs.Ellipsis, false)
		return nil
	}
	switch w.Current() {
	case replsetup.StepPair:
		return s.choose()
	case replsetup.StepAllowList:
		o := w.Result(replsetup.StepAllowList)
		if o.Verdict == replsetup.Fail && len(o.Missing) > 0 {
			ips := append([]string(nil), o.Missing...)
			return s.act(replsetup.StepAllowList, "allow", "add "+strings.Join(replsetup.HostCIDRs(ips), ", ")+" to "+pri+"'s allow list", "allowlist:"+p.PrimaryID,
				func(ctx context.Context) replsetup.Outcome { return eng.AddAllowList(ctx, p, ips) }, servicesKey)
		}
		return s.recheck()
	case replsetup.StepBackup:
		if s.backupCur < 0 || s.backupCur >= len(w.Backups) {
			return s.recheck()
		}
		c := w.Backups[s.backupCur]
		if err := w.ChooseBackup(c.Backup.Key, s.common.Time()); err != nil {
			s.setStatus("backup "+api.ShortKey(c.Backup.Key)+" cannot be used: "+err.Error(), true)
			return nil
		}
		s.setStatus("", false)
		return tea.Batch(s.save(), s.enterStep())
	case replsetup.StepRestore:
		switch w.Verdict(replsetup.StepRestore) {
		case replsetup.Pass:
			w.GoTo(replsetup.StepChange)
			return s.enterStep()
		case replsetup.Waiting:
			s.setStatus("the restore is running: it is followed here until it ends", false)
			return nil
		}
		s.openConfirm()
		return nil
	case replsetup.StepChange:
		if w.Verdict(replsetup.StepRestore) != replsetup.Pass && !p.HasPassed(replsetup.StepRestore) {
			s.setStatus("restore the backup first (step 3)", true)
			return nil
		}
		return s.act(replsetup.StepChange, "change", "point "+sec+" at "+pri, "change-primary:"+p.SecondaryID,
			func(ctx context.Context) replsetup.Outcome { return eng.ChangePrimary(ctx, p) })
	case replsetup.StepGrant:
		if w.Grant == "" {
			return s.enterStep()
		}
		grant := w.Grant
		return s.act(replsetup.StepGrant, "grant", "run the replication grant on "+pri, "grant:"+p.PrimaryID,
			func(ctx context.Context) replsetup.Outcome { return eng.RunGrant(ctx, p, grant) })
	case replsetup.StepStart:
		return s.act(replsetup.StepStart, "start", "start replication on "+sec, "replication:"+p.SecondaryID,
			func(ctx context.Context) replsetup.Outcome { return eng.StartReplication(ctx, p) })
	case replsetup.StepDone:
		return s.finish()
	}
	return nil
}

// recheck is c in the wizard: the current step's read-only check again.
func (s *Screen) recheck() tea.Cmd {
	w := s.wiz
	switch w.Current() {
	case replsetup.StepAllowList, replsetup.StepBackup:
		delete(w.Results, w.Current())
		return s.enterStep()
	case replsetup.StepRestore:
		if w.Progress.RestoreID > 0 {
			return kit.Refresh(restoreKey(w.Progress.RestoreID))
		}
	case replsetup.StepGrant:
		w.Grant = ""
		return s.enterStep()
	}
	return nil
}

// choose is enter in the pair chooser: first the primary, then the
// secondary; the pair's rules refuse with the reason.
func (s *Screen) choose() tea.Cmd {
	c := s.chooser
	if c == nil {
		s.openChooser()
		return nil
	}
	id := c.table.SelectedID()
	v, ok := s.service(id)
	if !ok {
		return nil
	}
	if c.primary == nil {
		if !v.Ready() {
			c.err = fmt.Sprintf("%s is %s: the primary must be ready", replsetup.SvcName(&v), api.OrID(v.Status, "unknown"))
			return nil
		}
		c.primary, c.err = &v, ""
		c.table.SetFilter("")
		return nil
	}
	if err := replsetup.ValidatePair(c.primary, &v); err != nil {
		c.err = err.Error()
		return nil
	}
	c.err = ""
	eng, pid, sid := s.engine(), c.primary.ID, v.ID
	return s.check(replsetup.StepPair, "checking "+replsetup.SvcName(c.primary)+" and "+replsetup.SvcName(&v), func(ctx context.Context) replsetup.Outcome {
		return eng.CheckPair(ctx, pid, sid)
	})
}

// openConfirm shows the Restores screen's type-to-confirm for the restore
// into the secondary.
func (s *Screen) openConfirm() {
	w := s.wiz
	p := w.Progress
	target, ok := s.service(p.SecondaryID)
	if !ok {
		target = api.Service{ID: p.SecondaryID, Name: p.SecondaryName}
	}
	var choice *replsetup.BackupChoice
	for i := range w.Backups {
		if w.Backups[i].Backup.Key == p.BackupKey {
			choice = &w.Backups[i]
		}
	}
	src := "backup " + api.ShortKey(p.BackupKey) + " of " + api.OrID(p.PrimaryName, p.PrimaryID)
	var details []string
	if choice != nil {
		details = append(details, choice.Backup.Type)
	}
	if !p.BackupTime.IsZero() {
		details = append(details, "taken "+replsetup.Ago(s.common.Time().Sub(p.BackupTime))+" ago")
	}
	if choice != nil && choice.Backup.SizeBytes > 0 {
		details = append(details, kit.HumanBytes(choice.Backup.SizeBytes))
	}
	if p.GTID != "" {
		details = append(details, "GTID "+p.GTID)
	}
	if len(details) > 0 {
		src += " (" + strings.Join(details, ", ") + ")"
	}
	req := replsetup.RestoreRequest(p)
	body := fmt.Sprintf(`{"service_id":%q,"key":%q,"id":%q}`, req.ServiceID, req.Key, req.ID)
	s.confirm = restoreform.NewConfirm(s.common, target, src, api.OrID(p.PrimaryName, p.PrimaryID), body)
	s.submitted = false
}

func (s *Screen) submitRestore() tea.Cmd {
	w := s.wiz
	p := w.Progress
	eng := s.engine()
	s.submitted = true
	s.confirm.Err = ""
	cmd := s.act(replsetup.StepRestore, "restore", "restore "+api.ShortKey(p.BackupKey)+" into "+api.OrID(p.SecondaryName, p.SecondaryID),
		"restore:"+p.SecondaryID, func(ctx context.Context) replsetup.Outcome { return eng.StartRestore(ctx, p) }, "services", "restores")
	return cmd
}

// ---- actions ----

func (s *Screen) onActionDone(msg kit.ActionDoneMsg) tea.Cmd {
	switch tag := msg.Tag.(type) {
	case wizTag:
		return s.onStepDone(tag, msg)
	case pairTag:
		if pv := s.view(tag.secondary); pv != nil {
			pv.busy = ""
		}
		return nil
	case forgetTag:
		if msg.Err != nil {
			return nil
		}
		s.state.WithoutPair(tag.secondary)
		delete(s.views, tag.secondary)
		s.rebuildRows()
		return s.save()
	case discardTag:
		if msg.Err != nil {
			return nil
		}
		return s.newWizard()
	case grantRanTag:
		w := s.wiz
		if msg.Err != nil || w == nil || tag.wizID != s.wizID {
			return nil
		}
		w.GrantRanByUser(s.common.Time())
		return tea.Batch(s.save(), s.enterStep())
	}
	return nil
}

type grantRanTag struct{ wizID uint64 }

func (s *Screen) onStepDone(tag wizTag, msg kit.ActionDoneMsg) tea.Cmd {
	w := s.wiz
	if w == nil || tag.wizID != s.wizID {
		return nil // the setup it belonged to is gone; the toast said it
	}
	s.busy = ""
	o, ok := msg.Result.(replsetup.Outcome)
	if !ok {
		// refused before any call: read-only, cancelled, already running
		if tag.op == "restore" && s.confirm != nil {
			s.submitted = false
			s.confirm.Err = errText(msg.Err)
			s.confirm.Reset()
			return nil
		}
		if msg.Err != nil {
			fix := ""
			if errors.Is(msg.Err, kit.ErrReadOnly) {
				fix = "this profile is read-only: nothing was changed; switch to a writable profile (:profile) to go on"
			}
			w.Results[tag.step] = replsetup.Outcome{Step: tag.step, Verdict: replsetup.Fail, Err: msg.Err, Problem: "refused: " + errText(msg.Err), Fix: fix}
		}
		return nil
	}
	if tag.op == "restore" && s.confirm != nil {
		if o.Verdict == replsetup.Fail {
			s.submitted = false
			s.confirm.Err = o.Problem
			s.confirm.Reset()
			return nil
		}
		s.confirm, s.submitted = nil, false
	}
	changed := w.Apply(o, s.common.Time())
	var cmds []tea.Cmd
	if tag.op == "start" && o.Status != nil {
		// replication is configured and started: the pair is watched from
		// now on, whatever the outcome
		s.state.WithPair(replsetup.PairOf(w.Progress, s.common.Time()))
		s.rebuildRows()
	}
	cmds = append(cmds, s.save())
	if changed {
		cmds = append(cmds, s.enterStep())
	}
	return tea.Batch(cmds...)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// pairAction stops or starts replication of the selected pair, confirmed
// with the cursor on "no".
func (s *Screen) pairAction(start bool) tea.Cmd {
	p, ok := s.selectedPair()
	if !ok {
		return nil
	}
	eng := s.engine()
	sec, pri := api.OrID(p.SecondaryName, p.SecondaryID), api.OrID(p.PrimaryName, p.PrimaryID)
	c := kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Stop replication?",
		Detail: sec + " stops replicating from " + pri + ": CALL sky.stop_replication() on " + sec + ". Its data stays as it is and falls behind until replication is started again."}
	name := "stop replication on " + sec
	if start {
		c.Title = "Start replication?"
		c.Detail = sec + " resumes replicating from " + pri + " where it stopped: CALL sky.start_replication() on " + sec + "."
		name = "start replication on " + sec
	}
	if pv := s.view(p.SecondaryID); pv != nil {
		pv.busy = name
	}
	return kit.Do(kit.Action{
		Name:     name,
		Key:      "replication:" + p.SecondaryID,
		Mutating: true,
		Confirm:  c,
		Origin:   ID,
		Tag:      pairTag{secondary: p.SecondaryID, start: start},
		Run: func(ctx context.Context) (any, error) {
			msg, err := eng.SetReplication(ctx, p, start)
			return msg, err
		},
		Success: func(res any) string {
			if m, _ := res.(string); m != "" {
				return sec + ": " + m
			}
			return name + ": done"
		},
		Refresh: []string{statusKeyPrefix + p.SecondaryID},
	})
}

func (s *Screen) openGrant() tea.Cmd {
	p, ok := s.selectedPair()
	if !ok {
		return nil
	}
	s.seq++
	g := &grantView{pair: p, loading: true, seq: s.seq}
	s.grant = g
	s.mode = modeGrant
	eng, seq, ctx := s.engine(), s.seq, s.common.Ctx()
	return func() tea.Msg {
		grant, err := eng.FetchGrant(ctx, p.SecondaryID)
		return grantLoadedMsg{seq: seq, grant: grant, err: err}
	}
}

// ---- keys ----

func (s *Screen) onKey(msg tea.KeyPressMsg) tea.Cmd {
	switch s.mode {
	case modeWizard:
		return s.onWizardKey(msg)
	case modeGrant:
		return s.onGrantKey(msg)
	}
	if s.table.Filtering() {
		_, cmd := s.table.Update(msg)
		return cmd
	}
	k := s.keys
	switch {
	case key.Matches(msg, k.New):
		if s.state.Setup != nil {
			setup := *s.state.Setup
			return kit.Do(kit.Action{
				Name: "discard the unfinished setup of " + setup.PairText("->"),
				Confirm: kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Start a new setup?",
					Detail: "The unfinished setup of " + setup.PairText("->") + " (at step " + fmt.Sprint(int(setup.Step)) + ", " + setup.Step.Title() +
						") is forgotten; nothing changes on the services. c continues it instead."},
				Origin: ID, Tag: discardTag{},
				Success: func(any) string { return "unfinished setup discarded" },
			})
		}
		return s.newWizard()
	case key.Matches(msg, k.Continue):
		if s.state.Setup == nil {
			if s.wiz != nil {
				s.mode = modeWizard
				return nil
			}
			return kit.Toast(kit.ToastInfo, "no unfinished setup: n starts one")
		}
		return s.resumeWizard()
	case key.Matches(msg, k.Stop):
		return s.pairAction(false)
	case key.Matches(msg, k.Start):
		return s.pairAction(true)
	case key.Matches(msg, k.Grant):
		return s.openGrant()
	case key.Matches(msg, k.Forget):
		p, ok := s.selectedPair()
		if !ok {
			return nil
		}
		return kit.Do(kit.Action{
			Name: "forget " + p.Text("->"),
			Confirm: kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Forget this pair?",
				Detail: "skytui stops showing " + p.Text("->") + ". Replication on the services is not changed (s stops it)."},
			Origin: ID, Tag: forgetTag{secondary: p.SecondaryID},
			Success: func(any) string { return p.Text("->") + " forgotten" },
		})
	case key.Matches(msg, k.ScrollDown):
		s.detailOff = min(s.detailOff+3, s.detailMax)
		return nil
	case key.Matches(msg, k.ScrollUp):
		s.detailOff = max(0, s.detailOff-3)
		return nil
	case key.Matches(msg, k.Back):
		if s.table.Filter() != "" {
			s.table.SetFilter("")
		}
		return nil
	}
	before := s.table.SelectedID()
	_, cmd := s.table.Update(msg)
	if s.table.SelectedID() != before {
		s.detailOff = 0
	}
	return cmd
}

func (s *Screen) onGrantKey(msg tea.KeyPressMsg) tea.Cmd {
	k := s.keys
	g := s.grant
	switch {
	case key.Matches(msg, k.Back):
		s.grant = nil
		s.mode = modeStatus
		return nil
	case key.Matches(msg, k.Copy):
		if g != nil && g.grant != "" {
			return kit.Copy(s.common, "the grant", g.grant)
		}
	case key.Matches(msg, k.Recheck):
		s.mode = modeStatus
		s.table.Select(g.pair.SecondaryID)
		return s.openGrant()
	}
	return nil
}

func (s *Screen) onWizardKey(msg tea.KeyPressMsg) tea.Cmd {
	w := s.wiz
	if w == nil {
		s.mode = modeStatus
		return nil
	}
	if s.confirm != nil {
		if s.submitted {
			return nil // answer pending: keys wait
		}
		ans, cmd := s.confirm.Update(msg)
		switch ans {
		case restoreform.ConfirmBack:
			s.confirm = nil
			return nil
		case restoreform.ConfirmYes:
			return s.submitRestore()
		}
		return cmd
	}
	k := s.keys
	if c := s.chooser; c != nil && w.Current() == replsetup.StepPair {
		if c.table.Filtering() {
			_, cmd := c.table.Update(msg)
			return cmd
		}
		switch {
		case key.Matches(msg, k.Back):
			if c.table.Filter() != "" {
				c.table.SetFilter("")
				return nil
			}
			if c.primary != nil {
				c.primary, c.err = nil, ""
				return nil
			}
			return s.leaveWizard()
		case key.Matches(msg, k.Run):
			return s.runStep()
		}
		c.err = ""
		_, cmd := c.table.Update(msg)
		return cmd
	}
	s.setStatus("", false)
	switch {
	case key.Matches(msg, k.Back):
		return s.leaveWizard()
	case key.Matches(msg, k.Run):
		return s.runStep()
	case key.Matches(msg, k.Recheck):
		return s.recheck()
	case key.Matches(msg, k.Prev):
		if w.Current() > replsetup.StepPair && s.busy == "" {
			w.GoTo(w.Current() - 1)
			if w.Current() == replsetup.StepPair {
				s.openChooser()
			}
			return tea.Batch(s.save(), s.enterStep())
		}
		return nil
	case key.Matches(msg, k.Copy):
		if w.Grant != "" && (w.Current() == replsetup.StepGrant || w.Current() == replsetup.StepChange || w.Current() == replsetup.StepStart) {
			return kit.Copy(s.common, "the grant", w.Grant)
		}
		return nil
	case key.Matches(msg, k.RanIt):
		if w.Current() != replsetup.StepGrant || w.Grant == "" {
			return nil
		}
		pri := api.OrID(w.Progress.PrimaryName, w.Progress.PrimaryID)
		return kit.Do(kit.Action{
			Name: "mark the grant as run on " + pri,
			Confirm: kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Did you run the grant?",
				Detail: "Say yes only once the grant ran on " + pri + " (the primary). Without it the secondary's IO thread stays Connecting with error 1045."},
			Origin: ID, Tag: grantRanTag{wizID: s.wizID},
			Success: func(any) string { return "grant marked as run on " + pri },
		})
	case key.Matches(msg, k.Method):
		if w.Current() != replsetup.StepChange && w.Current() != replsetup.StepBackup {
			return nil
		}
		m, err := w.ToggleMethod(s.common.Time())
		if err != nil {
			s.setStatus(err.Error(), true)
			return nil
		}
		s.setStatus("replication will start from the backup's "+map[string]string{replsetup.MethodGTID: "GTID position", replsetup.MethodBinlog: "binlog file and position"}[m], false)
		return s.save()
	case key.Matches(msg, k.Up):
		if w.Current() == replsetup.StepBackup && s.backupCur > 0 {
			s.backupCur--
		}
		return nil
	case key.Matches(msg, k.Down):
		if w.Current() == replsetup.StepBackup && s.backupCur < len(w.Backups)-1 {
			s.backupCur++
		}
		return nil
	}
	return nil
}

func (s *Screen) leaveWizard() tea.Cmd {
	s.mode = modeStatus
	s.confirm = nil
	if s.wiz != nil && s.wiz.Progress.PrimaryID == "" {
		s.wiz = nil // nothing chosen yet: nothing to resume
	}
	return s.save()
}

// ---- key map ----

type keyMap struct {
	New, Continue, Stop, Start, Grant, Forget, Back   key.Binding
	Run, Recheck, Prev, Copy, RanIt, Method, Up, Down key.Binding
	ScrollDown, ScrollUp                              key.Binding
}

func newKeyMap() keyMap {
	return keyMap{
		New:        key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new setup")),
		Continue:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "continue setup")),
		Stop:       key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "stop replication")),
		Start:      key.NewBinding(key.WithKeys("S"), key.WithHelp("S", "start replication")),
		Grant:      key.NewBinding(key.WithKeys("g"), key.WithHelp("g", "show the grant")),
		Forget:     key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "forget pair")),
		Back:       key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Run:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run step")),
		Recheck:    key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "check again")),
		Prev:       key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "previous step")),
		Copy:       key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy grant")),
		RanIt:      key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "I ran the grant")),
		Method:     key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "GTID / binlog position")),
		Up:         key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("up/k", "move up")),
		Down:       key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("down/j", "move down")),
		ScrollDown: key.NewBinding(key.WithKeys("J", "ctrl+d"), key.WithHelp("J", "scroll status down")),
		ScrollUp:   key.NewBinding(key.WithKeys("K", "ctrl+u"), key.WithHelp("K", "scroll status up")),
	}
}

func binding(keys, help string, desc string) key.Binding {
	return key.NewBinding(key.WithKeys(keys), key.WithHelp(help, desc))
}

// KeyMap implements kit.Screen: the bindings of the current mode and step.
func (s *Screen) KeyMap() help.KeyMap {
	k := s.keys
	switch s.mode {
	case modeGrant:
		b := []key.Binding{k.Copy, binding("c", "c", "read again"), binding("esc", "esc", "back")}
		return kit.Keys{Short: b, Full: [][]key.Binding{b}}
	case modeWizard:
		return s.wizardKeys()
	}
	t := s.table.Keys
	if s.table.Filtering() {
		b := []key.Binding{binding("enter", "enter", "keep filter"), binding("esc", "esc", "clear filter")}
		return kit.Keys{Short: b, Full: [][]key.Binding{b}}
	}
	var short []key.Binding
	short = append(short, k.New)
	if s.state.Setup != nil {
		short = append(short, k.Continue)
	}
	if len(s.state.Pairs) > 0 {
		short = append(short, k.Stop, k.Start, k.Grant, k.Forget, t.Filter)
	}
	full := [][]key.Binding{{k.New, k.Continue, k.Stop, k.Start, k.Grant, k.Forget}, {t.Up, t.Down, t.Top, t.Bottom, t.Filter, k.ScrollDown, k.ScrollUp, k.Back}}
	return kit.Keys{Short: short, Full: full}
}

func (s *Screen) wizardKeys() kit.Keys {
	k := s.keys
	w := s.wiz
	back := binding("esc", "esc", "leave (progress kept)")
	if s.confirm != nil {
		b := []key.Binding{binding("enter", "enter", "confirm"), binding("tab", "tab", "buttons"), binding("esc", "esc", "back")}
		return kit.Keys{Short: b, Full: [][]key.Binding{b}}
	}
	if w == nil {
		return kit.Keys{Short: []key.Binding{back}, Full: [][]key.Binding{{back}}}
	}
	prev := k.Prev
	var b []key.Binding
	switch w.Current() {
	case replsetup.StepPair:
		if s.chooser != nil && s.chooser.table.Filtering() {
			b = []key.Binding{binding("enter", "enter", "keep filter"), binding("esc", "esc", "clear filter")}
			return kit.Keys{Short: b, Full: [][]key.Binding{b}}
		}
		role := "choose primary"
		if s.chooser != nil && s.chooser.primary != nil {
			role = "choose secondary"
		}
		t := s.table.Keys
		b = []key.Binding{binding("enter", "enter", role), t.Up, t.Down, t.Filter, binding("esc", "esc", "back")}
	case replsetup.StepAllowList:
		run := binding("enter", "enter", "check again")
		if o := w.Result(replsetup.StepAllowList); o.Verdict == replsetup.Fail && len(o.Missing) > 0 {
			run = binding("enter", "enter", "add to allow list")
		}
		b = []key.Binding{run, k.Recheck, prev, back}
	case replsetup.StepBackup:
		b = []key.Binding{binding("enter", "enter", "use this backup"), k.Up, k.Down, k.Method, k.Recheck, prev, back}
	case replsetup.StepRestore:
		run := binding("enter", "enter", "restore (type to confirm)")
		switch w.Verdict(replsetup.StepRestore) {
		case replsetup.Pass:
			run = binding("enter", "enter", "next step")
		case replsetup.Waiting:
			run = binding("enter", "enter", "(restore running)")
		}
		b = []key.Binding{run, k.Recheck, prev, back}
	case replsetup.StepChange:
		b = []key.Binding{binding("enter", "enter", "call change primary"), k.Method, prev, back}
	case replsetup.StepGrant:
		b = []key.Binding{binding("enter", "enter", "run grant on primary"), k.Copy, k.RanIt, k.Recheck, prev, back}
	case replsetup.StepStart:
		b = []key.Binding{binding("enter", "enter", "start replication"), k.Copy, prev, back}
	default:
		b = []key.Binding{binding("enter", "enter", "status view"), back}
	}
	return kit.Keys{Short: b, Full: [][]key.Binding{b}}
}
