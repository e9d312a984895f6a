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
	// pairs are the saved pairs (their secondaries replicate already)
	pairs savedPairs
	// shown reports the flow on the screen (not left for the status list
	// or the wizard)
	shown         func() bool
	width, height int
	// top is the first line shown of what scrolls: the text above the
	// chooser's list, the review's request
	top int
}

type managedKeys struct {
	Run, Mode, Back key.Binding
	// More and Less scroll the text above the chooser's list when it
	// does not fit (the review scrolls with kit.ReviewKeys).
	More, Less key.Binding
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
		More: kit.BindHelp("J", "scroll down", "J", "ctrl+d"),
		Less: kit.BindHelp("K", "scroll up", "K", "ctrl+u"),
	}}
}

// start opens the flow at the primary's choice (primary: already chosen
// in the wizard's chooser).
func (mf *managedFlow) start(primary *api.Service) {
	mf.table = kit.NewTable(mf.common, chooserColumns(kit.Column{Title: "REPLICATES FROM", Min: 8, Max: 16, Priority: 5}))
	// a name typed lands on a service this step takes
	mf.table.Choosable = func(id string) bool {
		v, ok := mf.service(id)
		return ok && mf.refusal(&v) == ""
	}
	mf.servicesEmpty()
	mf.phase, mf.primary, mf.replica, mf.err, mf.busy, mf.top = pickPrimary, nil, nil, "", false, 0
	mf.gen++
	mf.mode = api.ReplicationUni
	if primary != nil {
		p := *primary
		mf.primary, mf.phase = &p, pickReplica
	}
	mf.rebuild()
	mf.table.StartOn(mf.table.Choosable)
	mf.layout()
}

// refusal is why v cannot be taken at this step of the chooser, in a few
// words (its CANNOT BE column; the rules' whole reason shows on enter),
// or "".
func (mf *managedFlow) refusal(v *api.Service) string {
	if mf.phase == pickPrimary {
		return replsetup.ManagedNote(nil, v)
	}
	if note := replsetup.ManagedNote(mf.primary, v); note != "" {
		return note
	}
	return replsetup.NoteOf(mf.pairs.known("replica", v))
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
	first := !mf.servicesLoaded
	mf.services, mf.servicesLoaded = svcs, true
	if mf.table != nil {
		mf.rebuild()
		if first { // a refresh leaves the cursor where the user put it
			mf.table.StartOn(mf.table.Choosable)
		}
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
		note := mf.refusal(&v)
		kinds := []theme.Kind{0, 0, theme.StatusKind(v.Status), 0, 0, theme.KindMuted}
		if note != "" {
			kinds[0] = theme.KindMuted
		}
		rows = append(rows, kit.Row{ID: v.ID, Cells: []string{v.Name, v.ID, v.Status, v.Where(), from, note}, Kinds: kinds})
	}
	mf.table.SetRows(rows)
}

// SetSize implements kit.Pane.
func (mf *managedFlow) SetSize(w, h int) {
	mf.width, mf.height = w, h
	mf.layout()
}

func (mf *managedFlow) layout() {
	if mf.table == nil || mf.phase == review {
		return
	}
	l := mf.chooserLayout()
	sizeList(mf.table, mf.width, max(1, l.listH))
	mf.top = l.top
}

// Update implements kit.PaneUpdater: a paste or the filter input's cursor
// goes to the list shown.
func (mf *managedFlow) Update(msg tea.Msg) tea.Cmd {
	if mf.table == nil {
		return nil
	}
	_, cmd := mf.table.Update(msg)
	return cmd
}

// CapturesKeys implements kit.Pane: a filter typed takes every key.
func (mf *managedFlow) CapturesKeys() bool { return mf.table != nil && mf.table.Filtering() }

// title is the flow's first line.
func (mf *managedFlow) title() string {
	th := mf.common.Theme
	return th.Bold.Render(" Managed replication") + th.Muted.Render("  esc: back to the wizard")
}

// chooserLayout is the chooser under its title: what managed replication
// does and needs (it scrolls, J/K, when the whole does not fit), whom to
// choose and why the last choice was refused (kept in sight), and the
// list, never cut below its header, two rows and the line saying what is
// cut.
func (mf *managedFlow) chooserLayout() bodyLayout {
	th, w := mf.common.Theme, mf.width
	parts := bodyParts{status: -1, text: styled(" ", replsetup.ManagedText, th.Muted.Render, w)}
	switch mf.phase {
	case pickPrimary:
		parts.keep = append(parts.keep, " "+th.Accent.Render("Choose the PRIMARY")+" (the service to replicate from):")
	case pickReplica:
		parts.keep = append(parts.keep, wrap(" ", "Primary: "+th.Bold.Render(replsetup.SvcName(mf.primary))+". "+th.Accent.Render("Choose the REPLICA")+" (it will follow the primary):", w)...)
	}
	parts.keep = append(parts.keep, mf.errLines()...)
	t := mf.table
	parts.list = func(int) []string { return listLines(mf.common, t) }
	parts.listMin = listMin(t)
	return layParts(parts, max(0, mf.height-1), mf.top)
}

// errLines say why the last choice or the request was refused.
func (mf *managedFlow) errLines() []string {
	if mf.err == "" {
		return nil
	}
	return styled(" ", "refused: "+mf.err, mf.common.Theme.Error.Render, mf.width)
}

// reviewOf is the review of the request: the title on top (and what
// managed replication does when there is room), why it was
// refused or that it is being sent kept in place (or scrolled with it
// on a short terminal), the pair, the type, the request and what enter,
// t and esc do scrolled between (kit.Review).
func (mf *managedFlow) reviewOf() kit.Review {
	th, w := mf.common.Theme, mf.width
	pri, rep := replsetup.SvcName(mf.primary), replsetup.SvcName(mf.replica)
	notes := mf.errLines()
	if mf.busy {
		notes = append(notes, " "+th.Pending.Render("sending"+th.Glyphs.Ellipsis))
	}
	req := wrap(" ", th.Title.Render(rep+" "+th.Glyphs.Arrow+" replicates from "+th.Glyphs.Arrow+" "+pri), w)
	for _, t := range api.ReplicationTypes {
		mark := "( )"
		if t == mf.mode {
			mark = th.Accent.Render("(*)")
		}
		req = append(req, wrap("   "+mark+" ", t+": "+api.ReplicationTypeText(t), w)...)
	}
	req = append(req, "")
	req = append(req, wrap(" ", th.Label.Render("Sends  ")+"POST /provisioning/v1/services/"+mf.replica.ID+"/replication", w)...)
	req = append(req, wrap("        ", fmt.Sprintf(`{"primary_host":%q,"replication_type":%q}`, mf.primary.ID, mf.mode), w)...)
	req = append(req, wrap(" ", th.Label.Render("Then   ")+"the pair joins the status list; its status is read over SQL on "+rep+". E there ends it.", w)...)
	if !mf.busy {
		how := th.Accent.Render("enter") + " sets it up (asked yes/no); t switches uni- / bi-directional; esc goes back"
		if mf.common.ReadOnly {
			how = upperFirst(readOnlyWhy(mf.common)) + ": setting it up is refused. t switches uni- / bi-directional; esc goes back"
		}
		req = append(req, wrap(" ", how, w)...)
	}
	head := []string{mf.title()}
	// what managed replication does stays above when the whole fits; on a
	// short terminal the request has the room (the chooser showed it)
	if text := styled(" ", replsetup.ManagedText, th.Muted.Render, w); len(head)+len(text)+len(notes)+1+len(req) <= mf.height {
		head = append(head, text...)
	}
	return kit.NewReview(mf.height, head, notes, req, false)
}

// View is the chooser, or the review of the request.
func (mf *managedFlow) View() string {
	if mf.phase == review {
		return mf.reviewOf().View(mf.common, mf.width, mf.height, mf.top)
	}
	lines := append([]string{mf.title()}, mf.chooserLayout().view(mf.common, mf.keys.More, mf.keys.Less)...)
	return fit(strings.Join(lines, "\n"), mf.width, mf.height, mf.common.Theme)
}

// cut reports that what scrolls does not fit: the chooser's text, the
// review's request.
func (mf *managedFlow) cut() bool {
	if mf.table == nil {
		return false
	}
	if mf.phase == review {
		_, _, cut := mf.reviewOf().Window(mf.height, mf.top)
		return cut
	}
	return mf.chooserLayout().cut
}

// KeyMap implements kit.Pane: the keys of the current phase, enter and
// esc first, then the scroll while the text is cut. On a read-only
// profile the review's enter, a change, is left out of the footer and
// marked in the help.
func (mf *managedFlow) KeyMap() kit.Keys {
	k := mf.keys
	if mf.phase == review {
		// the footer's words are short: at 60 columns it keeps t and
		// the scroll beside enter and esc; the help says them whole
		run := withHelp(k.Run, "set up managed replication")
		full := []key.Binding{run, k.Back, k.Mode}
		short := []key.Binding{withHelp(run, "set up"), k.Back, withHelp(k.Mode, "uni/bi")}
		if mf.cut() {
			scroll := kit.ScrollHelp(kit.ReviewKeys.More, kit.ReviewKeys.Less)
			full, short = append(full, scroll), append(short, withHelp(scroll, "scroll"))
		}
		return kit.ReadOnlyHelp(mf.common, kit.Keys{Short: short, Full: [][]key.Binding{full}}, run, withHelp(run, "set up"))
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
	keys := []key.Binding{withHelp(k.Run, role), k.Back, t.Filter}
	if mf.cut() {
		keys = append(keys, kit.ScrollHelp(k.More, k.Less))
	}
	return kit.KeysOf(append(keys, t.Up, t.Down)...)
}

// onKey is a key in the flow; back reports leaving it.
func (mf *managedFlow) onKey(msg tea.KeyPressMsg, eng *replsetup.Engine) (cmd tea.Cmd, back bool) {
	k := mf.keys
	if mf.phase == review {
		if d := kit.ScrollDir(msg, kit.ReviewKeys.More, kit.ReviewKeys.Less); d != 0 {
			mf.top = mf.reviewOf().Scroll(mf.height, mf.top, d)
			return nil, false
		}
	} else {
		if used, cmd := mf.table.FilterFirst(msg, k.Back); used {
			mf.layout()
			return cmd, false
		}
		if d := kit.ScrollDir(msg, k.More, k.Less); d != 0 {
			if l := mf.chooserLayout(); l.cut {
				mf.top = kit.PageTop(l.top, l.rows, len(l.text), d)
			}
			return nil, false
		}
	}
	switch {
	case key.Matches(msg, k.Back):
		switch {
		case mf.busy:
		case mf.phase == review:
			mf.phase, mf.replica, mf.err, mf.top = pickReplica, nil, "", 0
		case mf.phase == pickReplica:
			id := mf.primary.ID
			mf.phase, mf.primary, mf.err, mf.top = pickPrimary, nil, "", 0
			mf.rebuild() // the primary's refusals
			mf.table.Select(id)
			mf.table.StartOn(mf.table.Choosable)
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
		if mf.phase == review && !mf.busy {
			// the request below the window is shown first, and the
			// next enter asks
			if end, hidden := mf.reviewOf().End(mf.height, mf.top); hidden {
				mf.top = end
				return mf.whileReviewed("the rest of the request is shown now: read it, then enter sets it up"), false
			}
		}
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

// whileReviewed is a hint about the review shown: true, and shown, only
// while this review is, nothing sent (once it is sent, or the flow left,
// a hint still waiting its turn would read as the present).
func (mf *managedFlow) whileReviewed(text string) tea.Cmd {
	gen := mf.gen
	return kit.ToastWhile(kit.ToastInfo, text, func() bool {
		return mf.phase == review && mf.gen == gen && !mf.busy && (mf.shown == nil || mf.shown())
	})
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
		switch err := replsetup.CheckManagedPrimary(&v); {
		case err != nil:
			mf.err = mf.named(err.Error())
		default:
			mf.primary, mf.phase, mf.err, mf.top = &v, pickReplica, "", 0
			mf.table.SetFilter("")
			mf.rebuild() // the replica's refusals
			mf.table.StartOn(mf.table.Choosable)
		}
		return nil
	}
	if err := replsetup.ValidateManagedPair(mf.primary, &v); err != nil {
		mf.err = mf.named(err.Error())
		return nil
	}
	if err := mf.pairs.known("replica", &v); err != nil {
		mf.err = err.Error()
		return nil
	}
	mf.replica, mf.phase, mf.err, mf.top = &v, review, "", 0
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
	if errors.Is(msg.Err, kit.ErrCancelled) || errors.Is(msg.Err, kit.ErrReadOnly) {
		mf.err = "" // nothing sent: a no says nothing, a read-only refusal is the message line's
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
func replicasKey(primaryID string) kit.Key[replicaList] {
	return kit.Key[replicaList](replicasKeyPrefix + primaryID)
}

// replicasResource polls the replicas of the selected managed pair's
// primary. A primary the API no longer has (its replicas and the
// service both answered 404) is gone: the pane says so with the pair's
// fix, the header does not retry it as a failed refresh.
func replicasResource(c *api.Client, primaryID string) kit.Resource {
	return replicasKey(primaryID).Resource(func(ctx context.Context) (replicaList, error) {
		list, err := c.ListReplicas(ctx, primaryID)
		if api.IsNotFound(err) {
			if _, gerr := c.GetService(ctx, primaryID); api.IsNotFound(gerr) {
				return replicaList{gone: true}, nil
			}
		}
		return replicaList{list: list}, err
	}, nil).Titled("the replicas of primary " + primaryID)
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
	if s.replicaGone(p) && !s.common.ReadOnly { // a read-only profile's refusal comes first
		return kit.ToastHere(kit.ToastWarn, "nothing to end: "+sec+" is "+s.view(p.SecondaryID).down().Status+"; d forgets this pair")
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
	method := "managed replication (" + api.OrID(p.Mode, "type unknown") + ")"
	if !s.replicaGone(p) && !s.common.ReadOnly { // E is refused read-only
		method += "; E ends it"
	}
	f("Method", method, theme.KindNeutral)
	if pv := s.view(p.SecondaryID); pv != nil && pv.refused != "" {
		f("Refused", pv.refused, theme.KindError)
	}
	reps, ok := s.replicas[p.PrimaryID]
	switch {
	case s.primaryGone(p):
		f("Replicas", "none: "+api.OrID(p.PrimaryName, p.PrimaryID)+" is "+replsetup.StatusGone, theme.KindMuted)
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
	gone bool // the primary is not found: deleted
	err  error
}

// onReplicasData takes a primary's replicas; it reports whether msg was one.
func (s *Screen) onReplicasData(msg kit.DataMsg) bool {
	id, ok := strings.CutPrefix(msg.Key, replicasKeyPrefix)
	if !ok {
		return false
	}
	reps, err, _ := replicasKey(id).Of(msg)
	if err != nil {
		if old, ok := s.replicas[id]; ok {
			old.err = err
			s.replicas[id] = old
			return true
		}
	}
	reps.err = err
	s.replicas[id] = reps
	return true
}

// primaryGone reports a pair whose primary is no longer there (not
// being deleted: gone).
func (s *Screen) primaryGone(p replsetup.Pair) bool {
	pri := s.primary(p)
	return pri != nil && pri.Status == replsetup.StatusGone
}

// primary is the pair's primary as last known: as the services listing
// last had it, or gone (replsetup.Gone) when its replicas were answered
// 404 with it, or a listing read without error no longer has it; nil
// while nothing is known of it.
func (s *Screen) primary(p replsetup.Pair) *api.Service {
	if s.replicas[p.PrimaryID].gone {
		return replsetup.Gone(p.PrimaryID, p.PrimaryName)
	}
	if pri, ok := s.wizard.service(p.PrimaryID); ok {
		return &pri
	}
	if s.wizard.servicesLoaded && s.wizard.servicesErr == nil {
		return replsetup.Gone(p.PrimaryID, p.PrimaryName)
	}
	return nil
}
