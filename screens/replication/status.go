package replication

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
)

// The status list: one row per saved pair, its replica status polled
// while the list is shown, its keys (stop, start, the grant, forget).

// pairView is what the list knows of a pair: the last status read, the
// last error, the lag's history and the action under way.
type pairView struct {
	pair  replsetup.Pair
	last  *replsetup.PairStatus
	err   error
	at    time.Time
	errAt time.Time
	hist  history
	busy  string
	// notReady is the secondary as read at notReadyAt when it was not
	// ready (stopped, pending, failed), its replica status unread (last
	// keeps the status read before); nil once it is read again
	notReady   *api.Service
	notReadyAt time.Time
	// refused is the API's refusal of the last change asked here (status,
	// message, trace ID), shown in full under the pair
	refused string
}

// Action tags of the status list.
type (
	pairTag struct {
		secondary string
		start     bool
	}
	forgetTag  struct{ secondary string }
	discardTag struct{}
)

const statusKeyPrefix = "replication/status/"

// statusKey is the key of a pair's replica status, read on its secondary.
func statusKey(secondaryID string) kit.Key[replsetup.PairStatus] {
	return kit.Key[replsetup.PairStatus](statusKeyPrefix + secondaryID)
}

// statusResource polls a pair's replica status, often while its threads
// are live (the lag changes at every read).
func statusResource(eng *replsetup.Engine, cache *replsetup.CredCache, p replsetup.Pair) kit.Resource {
	return statusKey(p.SecondaryID).Resource(func(ctx context.Context) (replsetup.PairStatus, error) {
		ps, err := eng.PairStatus(ctx, p, cache)
		switch {
		case replsetup.NotReady(err):
			// a stopped, pending or failed secondary was read: its state
			// is what the pane says, not a failed request of the header's
			return ps, nil
		case api.IsNotFound(err) && ps.Secondary.ID == "":
			// the secondary itself is not found: deleted, said in the
			// pane with the pair's fix (d), not retried in the header
			return replsetup.PairStatus{Secondary: *replsetup.Gone(p.SecondaryID, p.SecondaryName)}, nil
		}
		return ps, err
	}, func(ps replsetup.PairStatus) bool {
		if ps.Status == nil {
			return false
		}
		io := strings.ToLower(ps.Status.IORunning)
		return io == "yes" || io == "connecting" || io == "preparing"
	}).Titled("the replication status of " + p.Text("->"))
}

// onStatusData takes a pair's status; it reports whether msg was one.
func (s *Screen) onStatusData(msg kit.DataMsg) bool {
	id, ok := strings.CutPrefix(msg.Key, statusKeyPrefix)
	if !ok {
		return false
	}
	pv := s.view(id)
	if pv == nil {
		return true
	}
	ps, err, _ := statusKey(id).Of(msg)
	if err != nil {
		pv.err, pv.errAt = err, msg.At
		pv.hist.gap()
		// what was read before the error: the secondary's record
		if part, ok := msg.Data.(replsetup.PairStatus); ok && part.Secondary.ID != "" {
			if pv.last == nil {
				pv.last = &replsetup.PairStatus{}
			}
			pv.last.Secondary = part.Secondary
		}
	} else if ps.Status == nil && ps.Secondary.ID != "" && !ps.Secondary.Ready() {
		// the secondary's state: the status read before stays below it
		sec := ps.Secondary
		pv.notReady, pv.notReadyAt, pv.err = &sec, msg.At, nil
		if pv.last != nil {
			pv.last.Secondary = sec
		}
		pv.hist.gap()
	} else {
		pv.last, pv.err, pv.at, pv.notReady = &ps, nil, msg.At, nil
		var lag *int64
		if ps.Status != nil {
			lag = ps.Status.SecondsBehindMaster
		}
		pv.hist.add(lag)
	}
	s.rebuildRows()
	return true
}

// status is the replica status last read (nil: none, or the last read
// failed or found the secondary not ready, so nothing is known of it now).
func (pv *pairView) status() *api.ReplicationStatus {
	if pv == nil || pv.err != nil || pv.notReady != nil || pv.last == nil {
		return nil
	}
	return pv.last.Status
}

// replicaGone reports a pair whose secondary was last read being deleted
// or gone: its replication cannot be ended or changed, only forgotten.
func (s *Screen) replicaGone(p replsetup.Pair) bool {
	return replsetup.IsGone(s.view(p.SecondaryID).down())
}

// down is the secondary as last read when it is not ready (stopped,
// pending, failed: its replica status cannot be read), else nil.
func (pv *pairView) down() *api.Service {
	if pv == nil || pv.err != nil {
		return nil
	}
	return pv.notReady
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

func (s *Screen) selectedPair() (replsetup.Pair, bool) {
	id := s.SelectedID()
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
	case "", "n/a":
		return theme.KindMuted
	}
	return theme.KindError
}

// anyRead reports a pair whose status (or secondary) was read: its READ
// column and the pane say how long ago, which moves with the clock.
func (s *Screen) anyRead() bool {
	for _, pv := range s.views {
		if !pv.at.IsZero() || !pv.notReadyAt.IsZero() {
			return true
		}
	}
	return false
}

func (s *Screen) rebuildRows() {
	// pv.at is when it was read, by the local clock; the pane's ages are
	// of this same reading (View reads no clock of its own)
	s.readNow = s.common.Wall()
	now := s.readNow
	rows := make([]kit.Row, 0, len(s.state.Pairs))
	for _, p := range s.state.Pairs {
		pv := s.view(p.SecondaryID)
		io, sqlT, behind, read := "?", "?", "-", "-"
		var hist string
		if pv != nil {
			if pv.last != nil && pv.last.Status != nil {
				st := pv.last.Status
				io, sqlT = api.OrID(st.IORunning, "-"), api.OrID(st.SQLRunning, "-")
				switch {
				case replsetup.ManagedInAPI(p, &pv.last.Secondary, st):
					io, sqlT = "n/a", "n/a" // not readable over SQL; the pane says why
				case !st.Configured:
					io, sqlT = "none", "none"
				}
				if st.SecondsBehindMaster != nil {
					behind = fmt.Sprintf("%ds", *st.SecondsBehindMaster)
				}
			}
			if pv.err != nil {
				io, sqlT, behind = "error", "error", "-"
			}
			if sec := pv.down(); sec != nil {
				io, sqlT, behind = api.OrID(sec.Status, "-"), "-", "-"
			}
			hist = Sparkline(s.common.Theme.Glyphs, pv.hist.samples, HistoryLen)
			// when the status was read, as the pane's "Last read"
			// says (not when the secondary was found not ready)
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
	s.SetRows(rows)
}

// ---- keys ----

// statusKeys are the status list's own keys (the list's are
// kit.ListView's).
type statusKeys struct {
	New, Continue, Stop, Start, Grant, Forget, End key.Binding
}

func newStatusKeys() statusKeys {
	return statusKeys{
		New:      kit.Bind("n", "new setup"),
		Continue: kit.Bind("c", "continue setup"),
		Stop:     kit.Bind("s", "stop replication"),
		Start:    kit.Bind("S", "start replication"),
		Grant:    kit.Bind("g", "show the grant"),
		Forget:   kit.Bind("d", "forget pair"),
		End:      kit.Bind("E", "end managed replication"),
	}
}

// onStatusKey is a key in the status list: the screen's keys first (not
// while the filter is typed), then the list's.
func (s *Screen) onStatusKey(msg tea.KeyPressMsg) tea.Cmd {
	if !s.Capturing() {
		if cmd, used := s.pairKey(msg); used {
			return cmd
		}
	}
	before := s.SelectedID()
	_, cmd := s.HandleKey(msg)
	if s.SelectedID() != before {
		s.detailOff = 0
	}
	return cmd
}

func (s *Screen) pairKey(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	k := s.keys
	switch {
	case key.Matches(msg, k.New) && s.common.ReadOnly:
		// at the key, before a pair is chosen; an unfinished setup (c)
		// may still be looked at: its every change is refused
		return kit.RefuseReadOnly(s.common, "setting up replication"), true
	case key.Matches(msg, k.New):
		if s.state.Setup == nil {
			return s.newSetup(), true
		}
		if why := s.newRefused(); why != "" {
			// forgetting the setup would leave its restore, still erasing
			// the secondary, followed nowhere (as bksp in the wizard)
			return kit.ToastWhile(kit.ToastWarn, why, func() bool { return s.newRefused() != "" }), true
		}
		setup := *s.state.Setup
		return kit.Do(kit.Action{
			Name: "discard the unfinished setup of " + setup.PairText("->"),
			Confirm: kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Start a new setup?",
				Detail: "The unfinished setup of " + setup.PairText("->") + " (at step " + fmt.Sprint(int(setup.Step)) + ", " + setup.Step.Title() +
					") is forgotten; nothing changes on the services. c continues it instead."},
			Origin: ID, Tag: discardTag{},
			Success: func(any) string { return "unfinished setup discarded" },
		}), true
	case key.Matches(msg, k.Continue):
		return s.continueSetup(), true
	case key.Matches(msg, k.Stop):
		return s.pairAction(false), true
	case key.Matches(msg, k.Start):
		return s.pairAction(true), true
	case key.Matches(msg, k.Grant):
		if p, ok := s.selectedPair(); ok && p.Managed() {
			return kit.Toast(kit.ToastInfo, p.Text("->")+" is managed replication: the service runs it, there is no grant"), true
		}
		return s.openGrant(), true
	case key.Matches(msg, k.End):
		return s.endManaged(), true
	case key.Matches(msg, k.Forget):
		return s.forget(), true
	}
	return nil, false
}

// setupRestore says the unfinished setup's restore that may still be
// running ("" when there is none): the one the wizard follows while it
// runs (running) or before it is read, or one saved started and not
// passed, read by no one until c continues the setup (followed false).
func (s *Screen) setupRestore() (what string, running, followed bool) {
	st := s.state.Setup
	if st == nil {
		return "", false, false
	}
	restore := fmt.Sprintf("restore %d into %s", st.RestoreID, api.OrID(st.SecondaryName, st.SecondaryID))
	if w := s.wizard.w; w != nil && w.Progress.StartedAt.Equal(st.StartedAt) && w.Progress.SecondaryID == st.SecondaryID {
		if !s.wizard.restoreRunning() {
			return "", false, true
		}
		p := w.Progress
		restore = fmt.Sprintf("restore %d into %s", p.RestoreID, api.OrID(p.SecondaryName, p.SecondaryID))
		return restore, w.Verdict(replsetup.StepRestore) == replsetup.Waiting, true
	}
	if st.Step != replsetup.StepRestore || st.RestoreID <= 0 || st.HasPassed(replsetup.StepRestore) {
		return "", false, false
	}
	return restore, false, false
}

// newRefused is why n is refused while the unfinished setup's restore may
// still run ("": it is not): forgetting the setup would leave that
// restore, erasing the secondary, followed nowhere.
func (s *Screen) newRefused() string {
	restore, running, followed := s.setupRestore()
	switch {
	case restore == "":
		return ""
	case running:
		return restore + " is running: a new setup is refused until it ends (c continues it)"
	case followed:
		return restore + " was started, its end not read yet (it is being read): a new setup is refused until it ends"
	}
	return restore + " was started, its end not read: a new setup is refused until c reads it"
}

// statusKeyMap is the help of the status list.
func (s *Screen) statusKeyMap() kit.Keys {
	k := s.keys
	var short []key.Binding
	if s.newRefused() == "" || s.common.ReadOnly { // refused while the setup's restore may run
		short = append(short, k.New)
	}
	if s.state.Setup != nil {
		short = append(short, k.Continue)
	}
	p, ok := s.selectedPair()
	// the footer names the one of s/S the pair's last read leaves to do
	// (S when stopped, s when running), both while it is not known, and
	// neither while the secondary is down (? lists them all)
	var run []key.Binding
	unconfigured := false
	if ok {
		pv := s.view(p.SecondaryID)
		switch st := pv.status(); {
		case pv.down() != nil:
		case st != nil && !st.Configured:
			// nothing to stop or start, no grant to show: d and n are what
			// its fix names
			unconfigured = true
		case replsetup.Stopped(st):
			run = []key.Binding{k.Start}
		case replsetup.Running(st):
			run = []key.Binding{k.Stop}
		default:
			run = []key.Binding{k.Stop, k.Start}
		}
	}
	if ok && p.Managed() {
		end := []key.Binding{k.End}
		if s.replicaGone(p) { // nothing to end: d forgets the pair
			end = nil
		}
		// its own key first: s/S pause and resume its threads only
		short = append(append(append(short, end...), run...), k.Forget, s.Table.Keys.Filter)
	} else if len(s.state.Pairs) > 0 {
		grant := []key.Binding{k.Grant}
		if unconfigured {
			grant = nil
		}
		short = append(append(append(short, run...), grant...), k.Forget, s.Table.Keys.Filter)
	}
	return s.ListView.KeyMap(short, k.New, k.Continue, k.Stop, k.Start, k.Grant, k.Forget, k.End)
}

// ---- actions ----

// pairAction stops or starts replication of the selected pair, confirmed
// with the cursor on "no".
func (s *Screen) pairAction(start bool) tea.Cmd {
	p, ok := s.selectedPair()
	if !ok {
		return nil
	}
	eng := s.engine()
	sec, pri := api.OrID(p.SecondaryName, p.SecondaryID), api.OrID(p.PrimaryName, p.PrimaryID)
	// what the last read says leaves nothing to do: said, nothing asked
	// or sent (r reads again); a read-only profile's refusal comes first
	pv := s.view(p.SecondaryID)
	read := ""
	if !pv.at.IsZero() {
		read = " (read " + kit.Ago(s.readNow.Sub(pv.at)) + " ago)" // as the list says
	}
	switch st := pv.status(); {
	case s.common.ReadOnly:
	case pv.down() != nil:
		// short, the fix before the message line cuts it: the pane says
		// the whole state
		down := pv.down()
		_, fix := replsetup.PairServiceState(p, p.SecondaryRole(), down)
		return kit.Toast(kit.ToastWarn, sec+" is "+down.Status+": nothing was sent; "+fix)
	case st != nil && !st.Configured:
		// the threads have nowhere to replicate from: short, the pane's
		// fix says the rest
		verb := "stop"
		if start {
			verb = "start"
		}
		return kit.Toast(kit.ToastWarn, "nothing to "+verb+": replication is not configured on "+sec+" (d forgets the pair)")
	case !start && replsetup.Stopped(st):
		return kit.Toast(kit.ToastInfo, "replication is stopped already on "+sec+read+": S starts it")
	case start && replsetup.Running(st):
		return kit.Toast(kit.ToastInfo, "replication runs already on "+sec+read+": s stops it")
	}
	c := kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Stop replication?",
		Detail: sec + " stops replicating from " + pri + ": CALL sky.stop_replication() on " + sec + ". Its data stays as it is and falls behind until replication is started again."}
	name := "stop replication on " + sec
	if start {
		c.Title = "Start replication?"
		c.Detail = sec + " resumes replicating from " + pri + " where it stopped: CALL sky.start_replication() on " + sec + "."
		name = "start replication on " + sec
	}
	if p.Managed() {
		c.Detail += " Managed replication stays set up (E ends it)."
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
		Refresh: []string{statusKey(p.SecondaryID).String()},
	})
}

// forget drops the selected pair from the list, confirmed; replication
// itself is not touched.
func (s *Screen) forget() tea.Cmd {
	p, ok := s.selectedPair()
	if !ok {
		return nil
	}
	ends := "s stops it"
	if p.Managed() {
		ends = "E ends it"
	}
	return kit.Do(kit.Action{
		Name: "forget " + p.Text("->"),
		Confirm: kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Forget this pair?",
			Detail: "skytui stops showing " + p.Text("->") + ". Replication on the services is not changed (" + ends + ")."},
		Origin: ID, Tag: forgetTag{secondary: p.SecondaryID},
		Success: func(any) string { return p.Text("->") + " forgotten" },
	})
}

// openGrant shows the selected pair's grant, read again on its secondary.
func (s *Screen) openGrant() tea.Cmd {
	p, ok := s.selectedPair()
	if !ok {
		return nil
	}
	s.grant = newGrantView(s.common, s.engine, p)
	s.mode = modeGrant
	return s.grant.read()
}

// ---- the lag's history ----

// HistoryLen is how many Seconds_Behind_Master samples are kept per pair.
const HistoryLen = 60

// history is a pair's polls: the lag of each (nil: NULL, or no status
// was read: a gap in the sparkline) and whether a status was read.
type history struct {
	samples []*int64
	read    []bool
}

// add is a poll that read the status, whose lag was v (nil: NULL).
func (h *history) add(v *int64) {
	if v != nil {
		n := *v
		v = &n
	}
	h.push(v, true)
}

// gap is a poll that read no status: it failed, or the secondary was
// not ready.
func (h *history) gap() { h.push(nil, false) }

func (h *history) push(v *int64, read bool) {
	h.samples, h.read = append(h.samples, v), append(h.read, read)
	if len(h.samples) > HistoryLen {
		h.samples = h.samples[len(h.samples)-HistoryLen:]
		h.read = h.read[len(h.read)-HistoryLen:]
	}
}

// reads counts the polls kept that read a status.
func (h *history) reads() int {
	n := 0
	for _, r := range h.read {
		if r {
			n++
		}
	}
	return n
}

// max is the largest lag of the polls kept that read one (NULL reads
// are none), and how many did.
func (h *history) max() (m int64, n int) {
	for _, v := range h.samples {
		if v == nil {
			continue
		}
		n++
		m = max(m, *v)
	}
	return m, n
}

// maxText says the lag's maximum over the reads kept (reads of them): a
// NULL lag (not replicating) is no 0 s, so reads without a number are
// counted apart, and none with one says so.
func (h *history) maxText() string {
	reads := h.reads()
	m, n := h.max()
	switch {
	case n == 0:
		return fmt.Sprintf("no lag read in the last %d reads", reads)
	case n < reads:
		return fmt.Sprintf("max %ds over the last %d reads (%d of them NULL)", m, reads, reads-n)
	}
	return fmt.Sprintf("max %ds over the last %d reads", m, reads)
}

// Sparkline draws the last width samples with the theme's glyphs (ASCII
// by default): the lowest glyph is 0 s, the highest the window's maximum
// (at least 5 s, so a steady 1–2 s does not look like a spike); a gap is a
// space.
func Sparkline(g theme.Glyphs, samples []*int64, width int) string {
	levels := g.Spark
	if len(levels) == 0 {
		levels = theme.ASCII.Spark
	}
	if width <= 0 {
		return ""
	}
	if len(samples) > width {
		samples = samples[len(samples)-width:]
	}
	var top int64 = 5
	for _, v := range samples {
		if v != nil && *v > top {
			top = *v
		}
	}
	var b strings.Builder
	for _, v := range samples {
		if v == nil {
			b.WriteByte(' ')
			continue
		}
		n := *v
		if n < 0 {
			n = 0
		}
		i := int((n*int64(len(levels)-1) + top - 1) / top) // ceil: any lag shows above the floor
		i = min(max(i, 0), len(levels)-1)
		b.WriteString(levels[i])
	}
	return b.String()
}
