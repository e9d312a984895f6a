// Package replication is the Replication screen: the status of the
// replication pairs set up with skytui (IO and SQL threads, lag with a
// sparkline, GTID positions, the last errors; stop, start, the grant
// again) and the setup wizard that makes a secondary replicate from a
// primary. The wizard's steps, rules and calls are api/replsetup's (no
// Bubble Tea); this package is their terminal face: the shell (this
// file), the status list (status.go: a kit.ListView with the pair's
// status under it), three sub-models, the wizard (wizard.go; its keys and
// the pair step's chooser in wizard_keys.go), the grant (grant.go) and
// managed replication (managed.go), and every view (view.go). It talks to the
// API and to the services' SQL endpoints only in tea.Cmds, polls through
// the root's engine (Resources), and mutates through the action layer
// (kit.Do), which refuses every change on a read-only profile.
package replication

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/kit"
)

// ID is the screen's name on the command line.
const ID = "replication"

type mode int

const (
	modeStatus mode = iota
	modeWizard
	modeGrant
	modeManaged // managed.go
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

// Screen is the Replication screen: the status list of the saved pairs
// (a kit.ListView, the selected pair's status under it), and, one at a
// time, the setup wizard or the grant of a pair.
type Screen struct {
	kit.Name
	*kit.ListView
	common *kit.Common
	opts   Options
	store  *replsetup.Store
	creds  *replsetup.CredCache
	keys   statusKeys
	mode   mode

	state    replsetup.ProfileState
	stateErr error // the saved state could not be read
	// the saved pairs are shared with the command line (`skytui
	// replication setup` saves one): each save writes only what changed
	// here (edits, queued until the next save) into what the file holds
	// then, and the file is read again at every poll (savedResource)
	edits   []replsetup.PairEdit
	saving  int         // saves under way: a read of the file waits for them
	fileGen uint64      // the newest read or write of the file taken (Store.Read)
	written *savedState // the newest answer of the saves under way

	views     map[string]*pairView // by secondary ID
	detailOff int                  // scroll of the pair's status pane
	// readNow is the local clock as the rows were last built (data, the
	// clock's tick): the READ column's ages and the pane's are of it
	readNow time.Time

	wizard  *wizard
	grant   *grantView // open in modeGrant
	managed *managedFlow
	// replicas are the primaries' managed replicas as last read, by
	// primary ID
	replicas map[string]replicaList
}

// Messages of the screen's commands.
type (
	stateLoadedMsg struct {
		profile string
		state   replsetup.ProfileState
		gen     uint64
		err     error
	}
	// stateSavedMsg is a save's answer: the state written
	stateSavedMsg struct {
		savedState
		err error
	}
)

// savedState is the profile's state as the file held it: read (the
// poll's answer) or written (a save's), numbered by Store.Read.
type savedState struct {
	profile string
	state   replsetup.ProfileState
	gen     uint64
	err     error // read: the file could not be read
}

// New builds the screen.
func New(c *kit.Common) *Screen { return NewWithOptions(c, Options{}) }

// NewWithOptions builds the screen with the given parts.
func NewWithOptions(c *kit.Common, o Options) *Screen {
	st := o.Store
	if st == nil {
		st = replsetup.DefaultStore()
	}
	s := &Screen{Name: kit.NewName(ID, "Replication"), common: c, opts: o, store: st, creds: replsetup.NewCredCache(), keys: newStatusKeys(),
		views: map[string]*pairView{}, replicas: map[string]replicaList{}}
	s.ListView = kit.NewListView(c, "Replication", "pairs", []kit.Column{
		{Title: "PRIMARY", Min: 10, Max: 24, Priority: 10},
		{Title: "SECONDARY", Min: 10, Max: 24, Priority: 10},
		{Title: "IO", Min: 7, Max: 10, Priority: 9}, // "Connec~": the state stays readable
		{Title: "SQL", Min: 3, Max: 5, Priority: 9},
		{Title: "BEHIND", Min: 6, Max: 7, Priority: 8, Right: true},
		{Title: "HISTORY", Min: 10, Max: HistoryLen, Priority: 5, Newest: true},
		{Title: "READ", Min: 7, Max: 8, Priority: 4},
	})
	// The pair's status is always shown under the list, drawn here: enter
	// has nothing to open, J/K scroll that status.
	s.Keys.Detail.SetEnabled(false)
	s.Scroll = s.scroll
	s.PaneOf = s.pane
	// the READ column's "12s ago" ages on the clock's tick, as the pane's
	s.Rebuild, s.Moving = s.rebuildRows, s.anyRead
	s.Changes = []key.Binding{s.keys.New, s.keys.Stop, s.keys.Start, s.keys.End}
	// g shows the grant: the first row is home here (one key, one meaning)
	s.Table.Keys.Top = kit.Bind("home", "first row")
	s.wizard = newWizard(c, s)
	s.managed = newManagedFlow(c)
	s.managed.pairs = s.pairs
	s.managed.shown = func() bool { return s.mode == modeManaged }
	return s
}

func (s *Screen) engine() *replsetup.Engine {
	saved := slices.Clone(s.state.Pairs) // read here: the engine runs in commands
	return &replsetup.Engine{Client: s.common.Client, Now: s.common.Time, Open: s.opts.OpenSQL, SQLTimeout: s.opts.SQLTimeout,
		Saved: func() ([]replsetup.Pair, error) { return saved, nil }, BusyFix: busyFix(s.common)}
}

// busyFix is the way out of a secondary that replicates already (or feeds
// another service), in the screen's keys for a pair on the status list,
// else its command on this account (none in the demo).
func busyFix(c *kit.Common) func(replsetup.Busy) string {
	return func(b replsetup.Busy) string {
		name := kit.ShellQuote(replsetup.SvcName(b.Follower))
		stop, how := "skytui replication stop "+name+" --yes", "STOP REPLICA on it"
		switch {
		case b.Unknown != "":
			return "check again (c) once it can be read (this machine must reach " + name + " over SQL, as step 4 will)"
		case b.FeedsManaged:
			if cmd := c.Command("skytui replication stop " + kit.ShellQuote(b.FeedsName) + " --managed --yes"); cmd != "" {
				return "end the managed replication of " + b.FeedsName + " first (`" + cmd + "`, or E on its pair), or choose another secondary"
			}
			return "end the managed replication of " + b.FeedsName + " first (E on its pair on the status list), or choose another secondary"
		case b.FeedsName != "":
			return "end the replication of " + b.FeedsName + " first (its pair on the status list, or where it was set up), or choose another secondary"
		case b.Saved != nil && b.Saved.Managed():
			return "esc to the status list: E ends that managed replication; then set it up anew"
		case b.Saved != nil:
			return "esc to the status list: s stops its threads, d forgets the pair; then set it up anew"
		case b.Managed:
			stop, how = "skytui replication stop "+name+" --managed --yes", "E on its pair if it is on the status list"
		}
		if cmd := c.Command(stop); cmd != "" {
			return "end it first (`" + cmd + "`, or " + how + "), then try again"
		}
		return "end it first (" + how + "), then try again"
	}
}

// Init loads the saved pairs and any unfinished setup.
func (s *Screen) Init() tea.Cmd {
	store, profile := s.store, s.common.Profile
	return func() tea.Msg {
		ps, gen, err := store.Read(profile)
		return stateLoadedMsg{profile: profile, state: ps, gen: gen, err: err}
	}
}

// pane is the sub-view shown instead of the status list (nil: the list).
func (s *Screen) pane() kit.Pane {
	switch s.mode {
	case modeWizard:
		return s.wizard
	case modeGrant:
		return s.grant
	case modeManaged:
		return s.managed
	}
	return nil
}

// SetSize implements kit.Screen.
func (s *Screen) SetSize(w, h int) {
	s.ListView.SetSize(w, h)
	s.layout()
}

// layout sizes the status table under the lines above it (they change
// with the state, so it runs after every Update) and the wizard.
func (s *Screen) layout() {
	w, h := s.Size()
	s.Table.SetSize(w, s.tableHeight(len(s.headLines())))
	s.wizard.SetSize(w, h)
	s.managed.SetSize(w, h)
	if s.grant != nil {
		s.grant.SetSize(w, h)
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
			s.Table.SetFilter("")
			s.Table.Select(p.SecondaryID)
			s.layout()
			return nil
		}
	}
	return kit.Toast(kit.ToastInfo, "no replication pair with "+arg+" yet: n sets one up")
}

// Resources implements kit.Screen: the services listing; in the status
// view one resource per pair (the secondary's replica status); the
// restore the wizard waits for.
func (s *Screen) Resources() []kit.Resource {
	res := []kit.Resource{kit.Services(s.common), savedResource(s.store, s.common.Profile)}
	switch s.mode {
	case modeStatus:
		eng, cache := s.engine(), s.creds
		for _, p := range s.state.Pairs {
			res = append(res, statusResource(eng, cache, p))
		}
		// a gone primary has no replicas to read
		if p, ok := s.selectedPair(); ok && p.Managed() && s.common.Client != nil && !s.primaryGone(p) {
			res = append(res, replicasResource(s.common.Client, p.PrimaryID))
		}
	}
	// the wizard's restore, while it runs, whatever is shown: left with
	// esc, it is still followed until it ends
	return append(res, s.wizard.resources(s.engine())...)
}

// ---- update ----

// Update implements kit.Screen.
func (s *Screen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	cmd := s.update(msg)
	s.layout() // the lines above the table may have changed
	return s, cmd
}

func (s *Screen) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case stateLoadedMsg:
		s.onLoaded(msg)
		return nil
	case stateSavedMsg:
		return s.onSaved(msg)
	case kit.DataMsg:
		return s.onData(msg)
	case checkMsg:
		return s.wizard.onCheck(msg)
	case grantLoadedMsg:
		if s.grant != nil {
			s.grant.onLoaded(msg)
		}
		return nil
	case kit.ActionSentMsg:
		s.onActionSent(msg)
		return nil
	case kit.ActionDoneMsg:
		return s.onActionDone(msg)
	case tea.KeyPressMsg:
		switch s.mode {
		case modeWizard:
			return s.wizard.onKey(msg)
		case modeGrant:
			cmd, back := s.grant.onKey(msg)
			if back {
				s.grant, s.mode = nil, modeStatus
			}
			return cmd
		case modeManaged:
			cmd, back := s.managed.onKey(msg, s.engine())
			if back {
				// back to the sky procedures' chooser
				s.mode = modeWizard
				s.wizard.start()
			}
			return cmd
		}
		return s.onStatusKey(msg)
	}
	// the clock's tick (the READ column, ListView.Rebuild), pastes and
	// component messages (the filter input's cursor…): the open pane's,
	// else the list's
	return s.ListView.Update(msg)
}

func (s *Screen) onLoaded(msg stateLoadedMsg) {
	if msg.profile != s.common.Profile {
		return
	}
	s.Loaded("no replication pairs yet")
	s.stateErr = msg.err
	s.fileGen = max(s.fileGen, msg.gen)
	// a setup started before the file was read keeps going
	if s.wizard.active() && s.state.Setup != nil {
		msg.state.Setup = s.state.Setup
	}
	for _, p := range s.state.Pairs {
		msg.state.WithPair(p)
	}
	s.state = msg.state
	s.rebuildRows()
}

// onData takes the polled answers: the services (the wizard's), a pair's
// status, the restore the wizard follows.
func (s *Screen) onData(msg kit.DataMsg) tea.Cmd {
	if svcs, err, ok := kit.ServicesKey.Of(msg); ok {
		if err == nil {
			s.wizard.setServices(svcs)
			s.managed.setServices(svcs)
		}
		s.wizard.servicesErr, s.managed.servicesErr = err, err
		s.wizard.servicesEmpty()
		s.managed.servicesEmpty()
		return nil
	}
	if r, _, ok := savedKey.Of(msg); ok {
		s.onFileRead(r)
		return nil
	}
	if s.onStatusData(msg) || s.onReplicasData(msg) {
		return nil
	}
	return s.wizard.onData(msg)
}

// ---- saving ----

// save writes the state in a command: the setup, numbered now so the
// newest wins, and the pairs added and forgotten since the last save,
// into what the file holds then (a pair the command line saved
// meanwhile is kept).
func (s *Screen) save() tea.Cmd {
	s.wizard.syncInto(&s.state)
	snap := s.state.Clone()
	store, profile := s.store, s.common.Profile
	c := replsetup.Change{Seq: store.NextSeq(), Setup: snap.Setup, Edits: s.edits, Pairs: snap.Pairs}
	s.edits = nil
	s.saving++
	return func() tea.Msg {
		ps, gen, err := store.Apply(profile, c)
		return stateSavedMsg{savedState: savedState{profile: profile, state: ps, gen: gen}, err: err}
	}
}

// onSaved takes a save's answer: once none is under way, the pairs the
// newest one wrote (those saved elsewhere with them) are the list's.
func (s *Screen) onSaved(msg stateSavedMsg) tea.Cmd {
	if msg.profile != s.common.Profile {
		return nil
	}
	s.saving = max(0, s.saving-1)
	if msg.err == nil && (s.written == nil || msg.gen > s.written.gen) {
		w := msg.savedState
		s.written = &w
	}
	if w := s.written; w != nil && s.saving == 0 {
		s.written = nil
		s.takePairs(w.state.Pairs, w.gen)
	}
	if msg.err != nil {
		return kit.Toast(kit.ToastWarn, "replication progress not saved: "+msg.err.Error())
	}
	return nil
}

// savedKey is the state file read again (savedResource).
const savedKey kit.Key[savedState] = "replication/saved"

// savedResource reads the profile's saved state at every poll (and r),
// so a pair saved by `skytui replication setup` (or forgotten by
// `replication stop --managed`) while the screen runs is listed. An
// unreadable file is said above the list, not as a failed refresh.
func savedResource(store *replsetup.Store, profile string) kit.Resource {
	return savedKey.Resource(func(context.Context) (savedState, error) {
		ps, gen, err := store.Read(profile)
		return savedState{profile: profile, state: ps, gen: gen, err: err}, nil
	}, nil).Titled("the replication pairs saved on this machine")
}

// onFileRead takes the file read again: its pairs are the list's, unless
// a save is under way (its answer brings them) or the read began before
// the last write taken.
func (s *Screen) onFileRead(r savedState) {
	if r.profile != s.common.Profile || !s.IsLoaded() {
		return
	}
	s.stateErr = r.err
	if r.err == nil {
		s.takePairs(r.state.Pairs, r.gen)
	}
}

// takePairs makes pairs, as the file held them at gen, the list's. The
// unfinished setup stays this screen's (the wizard's progress); a pair
// changed or gone loses its status history.
func (s *Screen) takePairs(pairs []replsetup.Pair, gen uint64) {
	if gen <= s.fileGen || s.saving > 0 || len(s.edits) > 0 {
		return
	}
	s.fileGen = gen
	if slices.EqualFunc(pairs, s.state.Pairs, samePair) {
		return
	}
	for _, old := range s.state.Pairs {
		if i := slices.IndexFunc(pairs, func(p replsetup.Pair) bool { return p.SecondaryID == old.SecondaryID }); i < 0 || !samePair(pairs[i], old) {
			delete(s.views, old.SecondaryID)
		}
	}
	s.state.Pairs = slices.Clone(pairs)
	s.rebuildRows()
}

// samePair reports that a and b are the same pair, set up at the same
// time (a time read from the file has no monotonic reading).
func samePair(a, b replsetup.Pair) bool {
	at, bt := a.ConfiguredAt, b.ConfiguredAt
	a.ConfiguredAt, b.ConfiguredAt = time.Time{}, time.Time{}
	return a == b && at.Equal(bt)
}

// ---- the wizard's host ----

// newSetup starts the wizard on a new setup (the unfinished one, if any,
// is forgotten).
func (s *Screen) newSetup() tea.Cmd {
	s.state.Setup = nil
	s.mode = modeWizard
	s.wizard.start()
	return s.save()
}

// continueSetup goes back to the wizard: the setup under way, or the
// unfinished one saved.
func (s *Screen) continueSetup() tea.Cmd {
	if s.state.Setup == nil {
		if s.wizard.active() {
			s.mode = modeWizard
			return nil
		}
		if s.common.ReadOnly {
			return kit.Toast(kit.ToastInfo, "no unfinished setup: "+readOnlyWhy(s.common)+", so none can be started here")
		}
		return kit.Toast(kit.ToastInfo, "no unfinished setup: n starts one")
	}
	s.mode = modeWizard
	return s.wizard.resume(*s.state.Setup)
}

// watch adds a pair whose replication was started to the status list.
func (s *Screen) watch(p replsetup.Pair) {
	s.state.WithPair(p)
	s.edits = append(s.edits, replsetup.PairEdit{Pair: p})
	s.rebuildRows()
}

// record adds a pair just set up to the status list, its status history
// started afresh.
func (s *Screen) record(pair replsetup.Pair) {
	s.state.WithPair(pair)
	s.edits = append(s.edits, replsetup.PairEdit{Pair: pair})
	delete(s.views, pair.SecondaryID) // a new history
	s.rebuildRows()
}

// finish ends the setup: the pair joins the status view, selected.
func (s *Screen) finish(pair replsetup.Pair) tea.Cmd {
	s.state.Setup = nil
	s.mode = modeStatus
	s.record(pair)
	s.Table.SetFilter("")
	s.Table.Select(pair.SecondaryID)
	return tea.Batch(s.save(), kit.Toast(kit.ToastSuccess, "replication "+pair.Text("->")+" set up: its status is polled here"))
}

// openManaged leaves the wizard's chooser for managed replication, with
// the primary chosen there (nil: none yet).
func (s *Screen) openManaged(primary *api.Service) tea.Cmd {
	s.mode = modeManaged
	s.managed.start(primary)
	s.managed.setServices(s.wizard.services)
	if !s.wizard.servicesLoaded {
		s.managed.servicesLoaded = false
		s.managed.servicesEmpty()
	}
	return nil
}

// finishManaged ends the managed setup: the pair joins the status view,
// selected.
func (s *Screen) finishManaged(pair replsetup.Pair) tea.Cmd {
	s.mode = modeStatus
	s.record(pair)
	s.Table.SetFilter("")
	s.Table.Select(pair.SecondaryID)
	return s.save()
}

// leave goes back from the wizard to the status list, progress kept.
func (s *Screen) leave() tea.Cmd {
	s.mode = modeStatus
	return s.save()
}

// ---- actions ----

// onActionSent: a confirmed change is on its way; the pair or the managed
// flow says so from now (not while its confirmation asked).
func (s *Screen) onActionSent(msg kit.ActionSentMsg) {
	switch tag := msg.Tag.(type) {
	case pairTag:
		if pv := s.view(tag.secondary); pv != nil {
			pv.busy = msg.Name
		}
	case managedEndTag:
		if pv := s.view(tag.secondary); pv != nil {
			pv.busy = "ending managed replication"
		}
	case managedStartTag:
		if tag.gen == s.managed.gen {
			s.managed.busy = true
		}
	}
}

func (s *Screen) onActionDone(msg kit.ActionDoneMsg) tea.Cmd {
	switch tag := msg.Tag.(type) {
	case wizTag, grantRanTag:
		return s.wizard.onActionDone(msg)
	case pairTag:
		if pv := s.view(tag.secondary); pv != nil {
			pv.busy = ""
		}
		return nil
	case forgetTag:
		if msg.Err != nil {
			return nil
		}
		return s.dropPair(tag.secondary)
	case discardTag:
		if msg.Err != nil {
			return nil
		}
		return s.newSetup()
	case managedStartTag:
		if tag.gen != s.managed.gen {
			// an earlier run of the flow: what the server accepted is
			// recorded; the run shown now is left as it is
			if msg.Err == nil {
				s.record(tag.pair)
				return s.save()
			}
			return nil
		}
		if pair, ok := s.managed.onDone(msg); ok {
			return s.finishManaged(pair)
		}
		return nil
	case managedEndTag:
		if pv := s.view(tag.secondary); pv != nil {
			pv.busy, pv.refused = "", ""
			if msg.Err != nil && !errors.Is(msg.Err, kit.ErrCancelled) && !errors.Is(msg.Err, kit.ErrReadOnly) {
				pv.refused = s.managed.named(errText(msg.Err))
			}
		}
		if msg.Err != nil {
			return nil
		}
		return s.dropPair(tag.secondary)
	}
	return nil
}

// dropPair forgets a pair (forgotten, or its managed replication ended)
// and saves the state.
func (s *Screen) dropPair(secondary string) tea.Cmd {
	s.state.WithoutPair(secondary)
	s.edits = append(s.edits, replsetup.PairEdit{Pair: replsetup.Pair{SecondaryID: secondary}, Forget: true})
	delete(s.views, secondary)
	s.rebuildRows()
	return s.save()
}

// KeyMap implements kit.Screen: the bindings of the current mode and step.
func (s *Screen) KeyMap() help.KeyMap {
	if p := s.pane(); p != nil {
		return p.KeyMap()
	}
	return s.statusKeyMap()
}

// MouseList implements kit.MouseList: the pairs, under the head lines
// (the list's status line is the last of them).
func (s *Screen) MouseList() (*kit.ListView, int) {
	if s.mode != modeStatus || len(s.state.Pairs) == 0 {
		return nil, 0
	}
	return s.ListView, len(s.headLines()) - 1
}

// pairs are the saved pairs: the choosers refuse their secondaries as a
// new replica (they replicate already).
func (s *Screen) pairs() []replsetup.Pair { return s.state.Pairs }

// savedPairs gives a chooser the saved pairs (Screen.pairs; nil: none).
type savedPairs func() []replsetup.Pair

// known refuses v in the role (a replica, a secondary) when a saved pair
// has it replicate already (the service's own fields say so only of
// managed replication).
func (p savedPairs) known(role string, v *api.Service) error {
	if p == nil {
		return nil
	}
	return replsetup.KnownReplica(p(), role, v)
}
