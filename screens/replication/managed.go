package replication

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
)

// Managed replication, the wizard's other way: the service's own
// replication, set up with one API request (POST .../replication) and
// ended with another (DELETE), instead of the sky procedures' six steps.
// m in the wizard's pair chooser opens it: choose the primary, then the
// replica, then the type (t), review what is sent and enter (asked
// yes/no). The status list shows a managed pair like the others (its
// status read over SQL on the replica), with the primary's replicas from
// GET .../replicas, and E ends it (asked yes/no, naming both).

type managedPhase int

const (
	pickPrimary managedPhase = iota
	pickReplica
	review
)

// managedFlow is the managed replication's setup.
type managedFlow struct {
	common *kit.Common
	keys   managedKeys
	table  *kit.Table

	phase            managedPhase
	primary, replica *api.Service
	mode             string
	err              string // why the last choice or the request was refused
	busy             bool   // the request is being sent
	gen              int    // which run of the flow: an answer for an earlier one is not this one's

	services       []api.Service
	servicesLoaded bool
	servicesErr    error // why the last listing failed
	width, height  int
}

type managedKeys struct {
	Run, Mode, Back key.Binding
}

// Action tags of the managed flow and of the status list's E.
type (
	managedStartTag struct {
		pair replsetup.Pair
		gen  int
	}
	managedEndTag struct{ secondary string }
)

func newManagedFlow(c *kit.Common) *managedFlow {
	return &managedFlow{common: c, mode: api.ReplicationUni, keys: managedKeys{
		Run:  kit.Bind("enter", "choose"),
		Mode: kit.Bind("t", "uni- / bi-directional"),
		Back: kit.Bind("esc", "back"),
	}}
}

// start opens the flow at the primary's choice (primary: already chosen
// in the wizard's chooser).
func (mf *managedFlow) start(primary *api.Service) {
	mf.table = kit.NewTable(mf.common, []kit.Column{
		{Title: "NAME", Min: 8, Max: 24, Priority: 10},
		{Title: "ID", Min: 8, Max: 16, Priority: 8},
		{Title: "STATUS", Min: 6, Max: 18, Priority: 9},
		{Title: "PROVIDER/REGION", Min: 10, Max: 24, Priority: 7},
		{Title: "REPLICATES FROM", Min: 8, Max: 16, Priority: 5},
	})
	mf.servicesEmpty()
	mf.phase, mf.primary, mf.replica, mf.err, mf.busy = pickPrimary, nil, nil, "", false
	mf.gen++
	mf.mode = api.ReplicationUni
	if primary != nil {
		p := *primary
		mf.primary, mf.phase = &p, pickReplica
	}
	mf.rebuild()
	mf.layout()
}

// servicesEmpty says why the list has no service to offer while none were
// read: still loading, or the listing's error.
func (mf *managedFlow) servicesEmpty() {
	if mf.table == nil || mf.servicesLoaded {
		return
	}
	mf.table.Empty = "loading services" + mf.common.Theme.Glyphs.Ellipsis
	if mf.servicesErr != nil {
		mf.table.Empty = kit.ServicesUnread(mf.servicesErr)
	}
}

func (mf *managedFlow) setServices(svcs []api.Service) {
	mf.services, mf.servicesLoaded = svcs, true
	if mf.table != nil {
		mf.rebuild()
	}
}

func (mf *managedFlow) service(id string) (api.Service, bool) {
	for _, v := range mf.services {
		if v.ID == id {
			return v, true
		}
	}
	return api.Service{}, false
}

func (mf *managedFlow) rebuild() {
	if mf.servicesLoaded {
		mf.table.Empty = "no services: create two on the Services screen"
	}
	rows := make([]kit.Row, 0, len(mf.services))
	for _, v := range mf.services {
		from := ""
		if p := api.ManagedReplicaOf(&v); p != "" {
			from = p
			if ps, ok := mf.service(p); ok {
				from = ps.NameOrID()
			}
		}
		rows = append(rows, kit.Row{ID: v.ID, Cells: []string{v.Name, v.ID, v.Status, v.Where(), from},
			Kinds: []theme.Kind{0, 0, theme.StatusKind(v.Status)}})
	}
	mf.table.SetRows(rows)
}

// SetSize implements kit.Pane.
func (mf *managedFlow) SetSize(w, h int) {
	mf.width, mf.height = w, h
	mf.layout()
}

func (mf *managedFlow) layout() {
	if mf.table == nil {
		return
	}
	mf.table.SetSize(mf.width, max(3, mf.height-len(mf.head(mf.width))))
}

// CapturesKeys implements kit.Pane: a filter typed takes every key.
// Update implements kit.PaneUpdater: a paste or the filter input's cursor
// goes to the list shown.
func (mf *managedFlow) Update(msg tea.Msg) tea.Cmd {
	if mf.table == nil {
		return nil
	}
	_, cmd := mf.table.Update(msg)
	return cmd
}

func (mf *managedFlow) CapturesKeys() bool { return mf.table != nil && mf.table.Filtering() }

// head is what is above the table: the title, what managed replication
// does and needs, whom to choose, and why the last choice was refused.
func (mf *managedFlow) head(w int) []string {
	th := mf.common.Theme
	lines := []string{th.Bold.Render(" Managed replication") + th.Muted.Render("  esc: back to the wizard")}
	lines = append(lines, styled(" ", replsetup.ManagedText, th.Muted.Render, w)...)
	switch mf.phase {
	case pickPrimary:
		lines = append(lines, " "+th.Accent.Render("Choose the PRIMARY")+" (the service to replicate from):")
	case pickReplica:
		lines = append(lines, wrap(" ", "Primary: "+th.Bold.Render(replsetup.SvcName(mf.primary))+". "+th.Accent.Render("Choose the REPLICA")+" (it will follow the primary):", w)...)
	}
	if mf.err != "" {
		lines = append(lines, styled(" ", "refused: "+mf.err, th.Error.Render, w)...)
	}
	return lines
}

// View is the chooser, or the review of the request.
func (mf *managedFlow) View() string {
	w := mf.width
	lines := mf.head(w)
	if mf.phase != review {
		lines = append(lines, mf.table.View())
		return fit(strings.Join(lines, "\n"), w, mf.height, mf.common.Theme)
	}
	th := mf.common.Theme
	pri, rep := replsetup.SvcName(mf.primary), replsetup.SvcName(mf.replica)
	lines = append(lines, "")
	lines = append(lines, wrap(" ", th.Title.Render(rep+" "+th.Glyphs.Arrow+" replicates from "+th.Glyphs.Arrow+" "+pri), w)...)
	for _, t := range api.ReplicationTypes {
		mark := "( )"
		if t == mf.mode {
			mark = th.Accent.Render("(*)")
		}
		lines = append(lines, wrap("   "+mark+" ", t+": "+api.ReplicationTypeText(t), w)...)
	}
	lines = append(lines, "")
	lines = append(lines, wrap(" ", th.Label.Render("Sends  ")+"POST /provisioning/v1/services/"+mf.replica.ID+"/replication", w)...)
	lines = append(lines, wrap("        ", fmt.Sprintf(`{"primary_host":%q,"replication_type":%q}`, mf.primary.ID, mf.mode), w)...)
	lines = append(lines, wrap(" ", th.Label.Render("Then   ")+"the pair joins the status list; its status is read over SQL on "+rep+". E there ends it.", w)...)
	if mf.busy {
		lines = append(lines, " "+th.Pending.Render("sending"+th.Glyphs.Ellipsis))
	} else {
		lines = append(lines, wrap(" ", th.Accent.Render("enter")+" sets it up (asked yes/no); t switches uni- / bi-directional; esc goes back", w)...)
	}
	return fit(strings.Join(lines, "\n"), w, mf.height, mf.common.Theme)
}

// KeyMap implements kit.Pane: the keys of the current phase, enter and
// esc first.
func (mf *managedFlow) KeyMap() kit.Keys {
	k := mf.keys
	if mf.phase == review {
		return kit.KeysOf(withHelp(k.Run, "set up managed replication"), k.Back, k.Mode)
	}
	if mf.table != nil && mf.table.Filtering() {
		return kit.FilterKeys()
	}
	role := "choose primary"
	if mf.phase == pickReplica {
		role = "choose replica"
	}
	t := kit.DefaultTableKeys
	if mf.table != nil {
		t = mf.table.Keys
	}
	// esc, the way back, before the filter and the list's movement: a
	// narrow footer keeps enter and esc
	return kit.KeysOf(withHelp(k.Run, role), k.Back, t.Filter, t.Up, t.Down)
}

// onKey is a key in the flow; back reports leaving it.
func (mf *managedFlow) onKey(msg tea.KeyPressMsg, eng *replsetup.Engine) (cmd tea.Cmd, back bool) {
	k := mf.keys
	if mf.phase != review {
		if used, cmd := mf.table.FilterFirst(msg, k.Back); used {
			mf.layout()
			return cmd, false
		}
	}
	switch {
	case key.Matches(msg, k.Back):
		switch {
		case mf.busy:
		case mf.phase == review:
			mf.phase, mf.replica, mf.err = pickReplica, nil, ""
		case mf.phase == pickReplica:
			mf.phase, mf.primary, mf.err = pickPrimary, nil, ""
		default:
			return nil, true
		}
		mf.layout()
		return nil, false
	case mf.phase == review && key.Matches(msg, k.Mode):
		if !mf.busy {
			mf.mode = map[string]string{api.ReplicationUni: api.ReplicationBi, api.ReplicationBi: api.ReplicationUni}[mf.mode]
		}
		return nil, false
	case key.Matches(msg, k.Run):
		cmd := mf.choose(eng)
		mf.layout()
		return cmd, false
	}
	if mf.phase == review {
		return nil, false
	}
	mf.err = ""
	_, cmd = mf.table.Update(msg)
	return cmd, false
}

// choose is enter: the primary, then the replica (the rules refuse with
// the reason), then the request.
func (mf *managedFlow) choose(eng *replsetup.Engine) tea.Cmd {
	if mf.phase == review {
		return mf.send(eng)
	}
	v, ok := mf.service(mf.table.SelectedID())
	if !ok {
		return nil
	}
	if mf.phase == pickPrimary {
		switch {
		case v.Pending():
			mf.err = fmt.Sprintf("%s is %s: a service in a pending state cannot be the primary; wait until it is ready", v.NameOrID(), v.Status)
		case !v.Ready():
			mf.err = fmt.Sprintf("%s is %s: the primary must be ready", v.NameOrID(), api.OrID(v.Status, "unknown"))
		case api.ManagedReplicaOf(&v) != "":
			mf.err = mf.named(fmt.Sprintf("%s is itself a replica of %s: choose a service that is not a replica", v.NameOrID(), api.ManagedReplicaOf(&v)))
		default:
			mf.primary, mf.phase, mf.err = &v, pickReplica, ""
			mf.table.SetFilter("")
		}
		return nil
	}
	if err := replsetup.ValidateManagedPair(mf.primary, &v); err != nil {
		mf.err = mf.named(err.Error())
		return nil
	}
	mf.replica, mf.phase, mf.err = &v, review, ""
	return nil
}

// named is a refusal's text with each service it names by ID alone named
// "name (ID)", as the command line says it: a user knows services by name.
func (mf *managedFlow) named(s string) string {
	return api.NameServiceIDs(s, mf.services)
}

// send hands the request to the action layer: refused on a read-only
// profile, asked yes/no, sent once.
func (mf *managedFlow) send(eng *replsetup.Engine) tea.Cmd {
	if mf.busy {
		return nil
	}
	pri, rep, mode := *mf.primary, *mf.replica, mf.mode
	cl := eng.Client
	mf.err = "" // busy from kit.ActionSentMsg: not while the confirmation asks
	name := "set up managed replication of " + rep.NameOrID() + " from " + pri.NameOrID()
	return kit.Do(kit.Action{
		Name:     name,
		Key:      "managed:" + rep.ID,
		Mutating: true,
		Confirm: kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Set up managed replication?",
			Detail: rep.NameOrID() + " replicates from " + pri.NameOrID() + " (" + mode + ": " + api.ReplicationTypeText(mode) + "). One request to the API; the service does the rest."},
		Origin: ID,
		Tag:    managedStartTag{pair: replsetup.ManagedPair(&pri, &rep, mode, mf.common.Time()), gen: mf.gen},
		// the engine's call: a lost answer is read back from the replica
		// (it passes when the replica reports the primary); otherwise it
		// stays unknown and the action layer shows the evidence
		Run: func(ctx context.Context) (any, error) {
			o := eng.StartManaged(ctx, pri.ID, rep.ID, mode)
			switch {
			case o.Verdict == replsetup.Pass:
				return o, nil
			case o.Err != nil:
				return nil, o.Err
			}
			return nil, errors.New(o.Summary)
		},
		Success: func(res any) string {
			if o, ok := res.(replsetup.Outcome); ok && o.Err != nil {
				return o.Summary // the answer was lost; the replica said it took
			}
			return rep.NameOrID() + " replicates from " + pri.NameOrID() + " (" + mode + ")"
		},
		Refresh: []string{kit.ServicesKey.String()},
		Evidence: func(ctx context.Context) (map[string]string, error) {
			s, err := cl.GetService(ctx, rep.ID)
			if err != nil {
				return nil, err
			}
			return map[string]string{rep.ID: rep.NameOrID() + " replicates from: " + api.OrID(s.PrimaryHost, "nothing")}, nil
		},
		EvidenceOf: rep.NameOrID() + "'s primary",
	})
}

// onDone takes the answer of the request; it reports the pair set up.
// A cancelled confirmation sent nothing: the review stays, saying nothing.
func (mf *managedFlow) onDone(msg kit.ActionDoneMsg) (replsetup.Pair, bool) {
	mf.busy = false
	tag := msg.Tag.(managedStartTag)
	if errors.Is(msg.Err, kit.ErrCancelled) {
		mf.err = ""
		return replsetup.Pair{}, false
	}
	if msg.Err != nil {
		mf.err = mf.named(errText(msg.Err))
		if api.IsOutcomeUnknown(msg.Err) {
			mf.err = "outcome unknown: the request was sent and no answer came back; the Services screen shows whether " +
				tag.pair.SecondaryName + " now replicates from " + tag.pair.PrimaryName + ": " + mf.named(errText(msg.Err))
		}
		return replsetup.Pair{}, false
	}
	return tag.pair, true
}

// ---- in the status list ----

const replicasKeyPrefix = "replication/replicas/"

// replicasKey is the key of a primary's replicas (GET .../replicas).
func replicasKey(primaryID string) kit.Key[[]api.Service] {
	return kit.Key[[]api.Service](replicasKeyPrefix + primaryID)
}

// replicasResource polls the replicas of the selected managed pair's
// primary.
func replicasResource(c *api.Client, primaryID string) kit.Resource {
	return replicasKey(primaryID).Resource(func(ctx context.Context) ([]api.Service, error) {
		return c.ListReplicas(ctx, primaryID)
	}, nil)
}

// endManaged is E in the status list: the selected managed pair's
// replication ends, asked yes/no naming the replica and the primary;
// refused on a read-only profile by the action layer.
func (s *Screen) endManaged() tea.Cmd {
	p, ok := s.selectedPair()
	if !ok {
		return nil
	}
	sec, pri := api.OrID(p.SecondaryName, p.SecondaryID), api.OrID(p.PrimaryName, p.PrimaryID)
	if !p.Managed() {
		return kit.Toast(kit.ToastInfo, p.Text("->")+" is set up with the sky procedures, not managed replication: s stops it")
	}
	cl, id := s.common.Client, p.SecondaryID
	return kit.Do(kit.Action{
		Name:     "end managed replication of " + sec + " from " + pri,
		Key:      "managed:" + p.SecondaryID,
		Mutating: true,
		Confirm: kit.Confirm{Kind: kit.ConfirmYesNo, Title: "End managed replication?",
			Detail: sec + " stops replicating from " + pri + " (DELETE .../services/" + p.SecondaryID + "/replication). Its data stays as it is and no longer follows " + pri + "; setting it up again is a new setup."},
		Origin: ID,
		Tag:    managedEndTag{secondary: p.SecondaryID},
		Run:    func(ctx context.Context) (any, error) { return nil, cl.EndManagedReplication(ctx, id) },
		Success: func(any) string {
			return sec + " no longer replicates from " + pri
		},
		Refresh: []string{kit.ServicesKey.String()},
	})
}

// managedDetail is what the status shows of a managed pair: its type and
// the primary's replicas.
func (s *Screen) managedDetail(p replsetup.Pair, w int) []string {
	th := s.common.Theme
	const lw = 12
	var lines []string
	f := func(label, value string, k theme.Kind) { lines = append(lines, field(th, label, lw, value, k, w)...) }
	f("Method", "managed replication ("+api.OrID(p.Mode, "type unknown")+"); E ends it", theme.KindNeutral)
	if pv := s.view(p.SecondaryID); pv != nil && pv.refused != "" {
		f("Refused", pv.refused, theme.KindError)
	}
	reps, ok := s.replicas[p.PrimaryID]
	switch {
	case !ok:
		f("Replicas", "reading "+api.OrID(p.PrimaryName, p.PrimaryID)+"'s replicas"+th.Glyphs.Ellipsis, theme.KindMuted)
	case reps.err != nil:
		f("Replicas", "could not be read: "+reps.err.Error(), theme.KindError)
	case len(reps.list) == 0:
		f("Replicas", api.OrID(p.PrimaryName, p.PrimaryID)+" has none: managed replication ended", theme.KindWarn)
	default:
		names := make([]string, len(reps.list))
		for i, r := range reps.list {
			names[i] = r.NameOrID() + " (" + api.OrID(r.Status, "?") + ")"
		}
		f("Replicas", "of "+api.OrID(p.PrimaryName, p.PrimaryID)+": "+strings.Join(names, ", "), theme.KindNeutral)
	}
	return lines
}

// replicaList is a primary's replicas as last read.
type replicaList struct {
	list []api.Service
	err  error
}

// onReplicasData takes a primary's replicas; it reports whether msg was one.
func (s *Screen) onReplicasData(msg kit.DataMsg) bool {
	id, ok := strings.CutPrefix(msg.Key, replicasKeyPrefix)
	if !ok {
		return false
	}
	list, err, _ := replicasKey(id).Of(msg)
	if err != nil {
		if old, ok := s.replicas[id]; ok {
			old.err = err
			s.replicas[id] = old
			return true
		}
	}
	s.replicas[id] = replicaList{list: list, err: err}
	return true
}
