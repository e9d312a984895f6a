package tui

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// The polling engine: one for all screens. Rules:
//   - the next tick of a resource is armed only after its previous response;
//   - at most one request per resource is in flight;
//   - a generation number, bumped on a screen or profile switch, makes
//     every older tick and reply stale (dropped on arrival);
//   - only the visible screen's resources are polled;
//   - fast interval while anything on screen is pending, slow otherwise
//     (0 = off), exponential backoff from the fast interval up to
//     MaxBackoff on errors;
//   - a 401 stops all polling until the user refreshes by hand;
//   - paused (p), no tick is armed: what is on screen stays until the
//     user refreshes (r), switches screens or resumes (p again).

type pollTickMsg struct {
	gen, serial, seq uint64
	key              string
}

type pollResultMsg struct {
	gen, serial uint64
	key         string
	data        any
	err         error
}

type resState struct {
	res      kit.Resource
	serial   uint64 // identifies this incarnation of the resource
	inFlight bool
	seq      uint64        // the tick armed last; older ticks are ignored
	armed    time.Duration // interval of the armed tick (0 = none)
	backoff  time.Duration
	pending  bool
	failures int
	again    bool // a refresh was asked while in flight: fetch on reply
}

// freshness survives screen switches, so coming back shows "updated 40s
// ago" until the first reply.
type freshness struct {
	lastOK  time.Time
	lastErr error
	errAt   time.Time
	retryAt time.Time // when the next try after lastErr is armed
}

type engine struct {
	ctx        context.Context
	fast, slow time.Duration
	after      func(time.Duration, tea.Msg) tea.Cmd
	now        func() time.Time

	gen     uint64
	serial  uint64
	states  map[string]*resState
	order   []string
	fresh   map[string]*freshness
	stopped bool // a 401 stopped polling
	stopErr error
	paused  bool // p: no tick is armed
	// requests counts fetches started, for tests and diagnostics.
	requests int
}

func newEngine(ctx context.Context, fast, slow time.Duration, after func(time.Duration, tea.Msg) tea.Cmd, now func() time.Time) *engine {
	if fast <= 0 {
		fast = DefaultFastInterval
	}
	fast = max(fast, MinInterval)
	if slow < 0 {
		slow = DefaultSlowInterval
	}
	if slow > 0 {
		slow = max(slow, MinInterval)
	}
	return &engine{ctx: ctx, fast: fast, slow: slow, after: after, now: now,
		states: map[string]*resState{}, fresh: map[string]*freshness{}}
}

// switchTo replaces the polled set (a screen or profile switch): the
// generation changes, so every tick and reply of the old set is dropped,
// and the new set is fetched at once.
func (e *engine) switchTo(res []kit.Resource) []tea.Cmd {
	e.gen++
	e.states = map[string]*resState{}
	e.order = nil
	return e.sync(res)
}

// resetFreshness forgets what was known (a profile switch).
func (e *engine) resetFreshness() {
	e.fresh = map[string]*freshness{}
	e.stopped, e.stopErr = false, nil
}

// sync adds resources the screen now wants (fetched at once) and drops
// the ones it no longer wants, within the same generation.
func (e *engine) sync(res []kit.Resource) []tea.Cmd {
	var cmds []tea.Cmd
	want := make(map[string]bool, len(res))
	order := make([]string, 0, len(res))
	for _, r := range res {
		want[r.Key] = true
		order = append(order, r.Key)
		if st, ok := e.states[r.Key]; ok {
			st.res = r // closures may have changed
			continue
		}
		e.serial++
		st := &resState{res: r, serial: e.serial}
		e.states[r.Key] = st
		if e.stopped {
			cmds = append(cmds, e.notAsked(st))
		} else {
			cmds = append(cmds, e.fetch(st, true))
		}
	}
	for k := range e.states {
		if !want[k] {
			delete(e.states, k)
		}
	}
	e.order = order
	return cmds
}

func (e *engine) sameKeys(res []kit.Resource) bool {
	if len(res) != len(e.order) {
		return false
	}
	for i, r := range res {
		if e.order[i] != r.Key {
			return false
		}
	}
	return true
}

// fetch starts one request of a resource. fresh marks a fetch that must
// not be served from a resource's own cache (kit.Fresh): the first one, a
// refresh the user asked for and a refresh after a change; a tick is not.
func (e *engine) fetch(st *resState, fresh bool) tea.Cmd {
	st.inFlight = true
	st.armed = 0
	st.seq++ // any armed tick is now stale
	e.requests++
	gen, serial, key, f, ctx := e.gen, st.serial, st.res.Key, st.res.Fetch, e.ctx
	if fresh {
		ctx = kit.WithFresh(ctx)
	}
	return func() tea.Msg {
		var data any
		var err error
		if f != nil {
			data, err = f(ctx)
		}
		return pollResultMsg{gen: gen, serial: serial, key: key, data: data, err: err}
	}
}

// notAskedError is the answer of a resource the engine did not ask for
// because polling is stopped (no API key yet, or the key was refused): the
// screen says why instead of "loading" for ever.
type notAskedError struct{ why error }

func (n notAskedError) Error() string {
	if errors.Is(n.why, errNoAPIKey) {
		return "no API key (:login enters one; nothing was asked)"
	}
	return "not asked: the API refused the key (" + oneLineErr(n.why) + "); :login enters another"
}

// notAsked answers a resource at once with why it is not asked.
func (e *engine) notAsked(st *resState) tea.Cmd {
	gen, serial, key, why := e.gen, st.serial, st.res.Key, e.stopErr
	return func() tea.Msg {
		return pollResultMsg{gen: gen, serial: serial, key: key, err: notAskedError{why: why}}
	}
}

func (e *engine) arm(st *resState, d time.Duration) tea.Cmd {
	st.seq++
	st.armed = d
	if d <= 0 || e.paused {
		st.armed = 0
		return nil
	}
	return e.after(d, pollTickMsg{gen: e.gen, serial: st.serial, seq: st.seq, key: st.res.Key})
}

func (e *engine) anyPending() bool {
	for _, st := range e.states {
		if st.pending {
			return true
		}
	}
	return false
}

func (e *engine) interval(st *resState) time.Duration {
	if st.backoff > 0 {
		return st.backoff
	}
	if e.anyPending() {
		return e.fast
	}
	return e.slow
}

// onTick starts the fetch a current tick asks for.
func (e *engine) onTick(m pollTickMsg) tea.Cmd {
	st, ok := e.states[m.key]
	if !ok || m.gen != e.gen || m.serial != st.serial || m.seq != st.seq || st.inFlight || e.stopped {
		return nil
	}
	return e.fetch(st, false)
}

// onResult takes a reply: it returns the data message for the screen
// (nil when stale) and the commands arming the next ticks.
// title is the title of the resource key polled now ("" when none).
func (e *engine) title(key string) string {
	if st, ok := e.states[key]; ok {
		return st.res.Title
	}
	return ""
}

func (e *engine) onResult(m pollResultMsg) (*kit.DataMsg, []tea.Cmd) {
	st, ok := e.states[m.key]
	if !ok || m.gen != e.gen || m.serial != st.serial {
		return nil, nil // stale: a switch happened since
	}
	st.inFlight = false
	if _, ok := m.err.(notAskedError); ok {
		// nothing was asked: no freshness, no backoff, no tick
		return &kit.DataMsg{Key: m.key, Err: m.err, At: e.now()}, nil
	}
	again := st.again
	st.again = false
	now := e.now()
	fr := e.fresh[m.key]
	if fr == nil {
		fr = &freshness{}
		e.fresh[m.key] = fr
	}
	var parts []error
	m.err, parts = kit.SplitPartial(m.err) // a part failed: the rest is read
	msg := &kit.DataMsg{Key: m.key, Data: m.data, Err: m.err, At: now, Parts: parts}
	if m.err != nil {
		fr.lastErr, fr.errAt, fr.retryAt = m.err, now, time.Time{}
		st.failures++
		if api.IsUnauthorized(m.err) {
			e.stopped, e.stopErr = true, m.err
			for _, s := range e.states {
				s.seq++ // kill armed ticks
				s.armed = 0
			}
			return msg, nil
		}
		if st.backoff == 0 {
			st.backoff = e.fast
		} else {
			st.backoff = min(2*st.backoff, MaxBackoff)
		}
		cmd := e.arm(st, st.backoff)
		if cmd != nil {
			fr.retryAt = now.Add(st.backoff)
		}
		return msg, []tea.Cmd{cmd}
	}
	fr.lastOK, fr.lastErr = now, nil
	st.failures, st.backoff = 0, 0
	wasPending := e.anyPending()
	st.pending = st.res.Pending != nil && st.res.Pending(m.data)
	var cmds []tea.Cmd
	if again {
		cmds = append(cmds, e.fetch(st, true))
	} else {
		cmds = append(cmds, e.arm(st, e.interval(st)))
	}
	if !wasPending && st.pending {
		// something started: bring the other resources to the fast pace
		for _, k := range e.order {
			o := e.states[k]
			if o == st || o.inFlight || o.backoff > 0 {
				continue
			}
			if o.armed == 0 || o.armed > e.fast {
				cmds = append(cmds, e.arm(o, e.fast))
			}
		}
	}
	return msg, cmds
}

// refresh fetches now (all resources when keys is empty). A resource
// already in flight is not asked twice; when again is set (after an
// action changed it) it is fetched once more when the reply arrives, since
// that reply may predate the change. A manual refresh also restarts
// polling after a 401.
func (e *engine) refresh(keys []string, again bool) []tea.Cmd {
	if len(keys) == 0 {
		keys = e.order
		e.stopped, e.stopErr = false, nil
	}
	var cmds []tea.Cmd
	for _, k := range keys {
		st, ok := e.states[k]
		if !ok || e.stopped {
			continue
		}
		if st.inFlight {
			st.again = st.again || again
			continue
		}
		st.backoff = 0
		cmds = append(cmds, e.fetch(st, true))
	}
	return cmds
}

// pause stops arming ticks (the armed ones are dropped); resume fetches
// everything at once and polls as before.
func (e *engine) pause(on bool) []tea.Cmd {
	if e.paused == on {
		return nil
	}
	e.paused = on
	if on {
		for _, st := range e.states {
			st.seq++ // armed ticks are dropped
			st.armed = 0
		}
		return nil
	}
	return e.refresh(e.order, false)
}

func (e *engine) inFlight() bool {
	for _, st := range e.states {
		if st.inFlight {
			return true
		}
	}
	return false
}

// status summarises the freshness of the visible screen's data: the
// oldest last success, the most recent error if the latest reply of any
// resource failed, and when the next try after it comes (zero: none
// armed).
func (e *engine) status() (lastOK time.Time, err error, retryAt time.Time, known bool) {
	for _, k := range e.order {
		fr := e.fresh[k]
		if fr == nil {
			continue
		}
		if !known || fr.lastOK.Before(lastOK) {
			lastOK = fr.lastOK
		}
		known = true
		if fr.lastErr != nil {
			err = fr.lastErr
			if !fr.retryAt.IsZero() && (retryAt.IsZero() || fr.retryAt.Before(retryAt)) {
				retryAt = fr.retryAt
			}
		}
	}
	return lastOK, err, retryAt, known
}
