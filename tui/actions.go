package tui

import (
	"cmp"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// The action layer: every mutating call goes through here. It enforces
// read-only (before asking anything and without calling the API), asks the
// confirmation the action requests, runs it exactly once, marks the
// application as submitting (quit asks first), and turns the outcome into
// a toast and an ActionDoneMsg for the screen that asked.

type actionResultMsg struct {
	id     int
	result any
	err    error
	// before is the action's Evidence read just before it was sent (nil
	// when it has none or the reading failed).
	before map[string]string
}

type actionLayer struct {
	nextID   int
	awaiting map[int]kit.Action // confirmation dialog open
	running  map[int]kit.Action // submitted, no answer yet
	// unknown holds changes that were sent and never answered, while their
	// "Outcome unknown" dialog is open (its Key stays taken meanwhile).
	unknown map[int]unknownAction
	keys    map[string]bool // awaiting or running, by Action.Key
	// calls counts Run invocations, for tests.
	calls int
}

func newActionLayer() *actionLayer {
	return &actionLayer{awaiting: map[int]kit.Action{}, running: map[int]kit.Action{}, unknown: map[int]unknownAction{}, keys: map[string]bool{}}
}

func (l *actionLayer) id() int {
	l.nextID++
	return l.nextID
}

// submitting names the actions in flight, for the quit question.
func (l *actionLayer) submitting() []string {
	var out []string
	for _, a := range l.running {
		out = append(out, a.Name)
	}
	sort.Strings(out)
	return out
}

// request handles an ActionRequestMsg.
func (m *Model) requestAction(a kit.Action) tea.Cmd {
	if a.Key == "" {
		a.Key = a.Name
	}
	l := m.actions
	if a.Mutating && m.common.ReadOnly {
		return tea.Batch(m.toast(kit.ToastWarn, kit.ReadOnlyText(m.common, a.Name)),
			m.deliver(a.Origin, kit.ActionDoneMsg{Name: a.Name, Tag: a.Tag, Err: fmt.Errorf("%w: %s not allowed", kit.ErrReadOnly, a.Name)}))
	}
	if l.keys[a.Key] {
		return tea.Batch(m.toast(kit.ToastWarn, a.Name+": already being submitted"),
			m.deliver(a.Origin, kit.ActionDoneMsg{Name: a.Name, Tag: a.Tag, Err: kit.ErrBusy}))
	}
	l.keys[a.Key] = true
	if a.Confirm.Kind != kit.ConfirmNone {
		id := l.id()
		l.awaiting[id] = a
		m.pushDialog(kit.NewConfirm(m.common, id, a.Confirm))
		return nil
	}
	return m.submit(a)
}

func (m *Model) submit(a kit.Action) tea.Cmd {
	l := m.actions
	id := l.id()
	l.running[id] = a
	m.actionGen[id] = m.profileGen
	l.calls++
	m.logSent(a)
	// sent now: an earlier no to it is over (the log keeps it), it does
	// not wait its turn to show after the answer as if current
	m.dropToasts(a.Name + ": cancelled")
	sent := m.deliver(a.Origin, kit.ActionSentMsg{Name: a.Name, Tag: a.Tag})
	run, evidence, ctx := a.Run, a.Evidence, m.ctx
	return tea.Batch(sent, func() tea.Msg {
		if run == nil {
			return actionResultMsg{id: id}
		}
		var before map[string]string
		if evidence != nil {
			before, _ = evidence(ctx) // a failed reading is said if it matters
		}
		res, err := run(ctx)
		return actionResultMsg{id: id, result: res, err: err, before: before}
	}, m.startSpinner())
}

// confirmed handles the answer of an action's confirmation dialog; it
// reports false when the dialog was not an action's.
func (m *Model) confirmedAction(msg kit.ConfirmedMsg) (tea.Cmd, bool) {
	l := m.actions
	if u, ok := l.unknown[msg.ID]; ok {
		delete(l.unknown, msg.ID)
		// answered: the warning that it is unknown has had its say (the
		// log keeps it), it does not wait its turn to show again
		m.dropToasts(u.action.Name + ": outcome unknown")
		if msg.Yes {
			return m.submit(u.action), true // the user's explicit choice
		}
		delete(l.keys, u.action.Key)
		return m.toast(kit.ToastInfo, u.action.Name+": not sent again"), true
	}
	a, ok := l.awaiting[msg.ID]
	if !ok {
		return nil, false
	}
	delete(l.awaiting, msg.ID)
	if !msg.Yes {
		delete(l.keys, a.Key)
		said := a.Name + ": cancelled"
		if a.Confirm.Live != nil {
			if _, refused := a.Confirm.Live(); refused != "" {
				// closed while it no longer applied: nothing was sent
				// because of that, not cancelled (what it acts on ended)
				said = a.Name + ": not sent: " + refused
			}
		}
		return tea.Batch(m.toast(kit.ToastInfo, said),
			m.deliver(a.Origin, kit.ActionDoneMsg{Name: a.Name, Tag: a.Tag, Err: kit.ErrCancelled})), true
	}
	return m.submit(a), true
}

func (m *Model) actionDone(msg actionResultMsg) tea.Cmd {
	l := m.actions
	a, ok := l.running[msg.id]
	if !ok {
		return nil
	}
	delete(l.running, msg.id)
	delete(l.keys, a.Key)
	sameProfile := m.actionGen[msg.id] == m.profileGen
	delete(m.actionGen, msg.id)
	var cmds []tea.Cmd
	switch why := unreadableAnswer(msg.result); {
	case api.IsOutcomeUnknown(msg.err):
		cmds = append(cmds, m.outcomeUnknown(a, msg, sameProfile))
	case errors.As(msg.err, new(*kit.NotSentError)):
		cmds = append(cmds, m.toastNamed(kit.ToastWarn, a.Name, a.Name+": not sent: "+msg.err.Error(),
			[]logField{{"outcome", "not sent: " + a.Name}}))
	case msg.err != nil:
		fields := append([]logField{{"outcome", "refused: " + a.Name}}, errorFields(msg.err)...)
		cmds = append(cmds, m.toastNamed(kit.ToastError, a.Name, a.Name+" failed: "+msg.err.Error(), fields))
		if n := len(m.toasts); n > 0 && m.toasts[n-1].id == m.toastID {
			m.toasts[n-1].supersedes = cmp.Or(a.Supersedes, a.Name)
		}
	case why != "":
		// The server accepted the change (2xx); only its answer is
		// unreadable. Never a failure, and nothing invites a second submit:
		// the lists it changed are read again at once.
		m.dropFailures(cmp.Or(a.Supersedes, a.Name)) // an earlier failure is over
		cmds = append(cmds, m.toastNamed(kit.ToastWarn, a.Name, a.Name+": accepted; the answer could not be read: "+why,
			[]logField{{"outcome", "accepted: " + a.Name}}))
		cmds = append(cmds, m.endWatches(a), m.follow(a))
	default:
		m.dropFailures(cmp.Or(a.Supersedes, a.Name)) // an earlier failure is over
		text := a.Name + ": done"
		if a.Success != nil {
			text = a.Success(msg.result)
		}
		cmds = append(cmds, m.toastWith(kit.ToastSuccess, text, []logField{{"outcome", "done: " + a.Name}}))
		cmds = append(cmds, m.endWatches(a), m.follow(a))
	}
	// a change made, maybe made, or refused because what it changes is
	// not as the lists show it (409: another state; 404: gone): the lists
	// are read again at once, so the screen agrees with the answer
	stale := api.IsConflict(msg.err) || api.IsNotFound(msg.err)
	if (msg.err == nil || api.IsOutcomeUnknown(msg.err) || stale) && len(a.Refresh) > 0 && sameProfile {
		cmds = append(cmds, m.engine.refresh(a.Refresh, true)...)
	}
	if sameProfile {
		cmds = append(cmds, m.deliver(a.Origin, kit.ActionDoneMsg{Name: a.Name, Tag: a.Tag, Result: msg.result, Err: msg.err}))
	}
	if m.opts.Bell && a.Origin != "" && a.Origin != m.screen().ID() {
		cmds = append(cmds, tea.Raw("\a")) // the outcome is on another screen
	}
	return tea.Batch(cmds...)
}

// unreadableAnswer says why an accepted change's answer could not be read,
// or "" (see api.Meta.Unreadable).
func unreadableAnswer(result any) string {
	if v := reflect.ValueOf(result); !v.IsValid() || v.Kind() == reflect.Pointer && v.IsNil() {
		return "" // no answer, or a typed nil (*api.Schedule)(nil)
	}
	if u, ok := result.(api.AnswerUnreadableError); ok {
		return u.AnswerUnreadable()
	}
	return ""
}

// unknownAction is a change whose outcome is unknown, while its dialog
// is open; found is set once a reading showed it carried out.
type unknownAction struct {
	action kit.Action
	found  bool
}

// outcomeUnknown handles a change that was sent and never answered: it is
// not reported as refused; its lists are read again (by the caller, with
// Refresh), its Evidence is read again and compared with the reading made
// before it was sent, and a dialog shows what appeared. Sending it again
// is a separate choice in that dialog, offered only once the reading is
// back; meanwhile the action's Key stays taken, so no form can send it.
func (m *Model) outcomeUnknown(a kit.Action, msg actionResultMsg, sameProfile bool) tea.Cmd {
	l := m.actions
	why := msg.err.Error()
	if e := api.AsError(msg.err); e != nil && e.Err != nil {
		why = e.Err.Error()
	}
	fields := append([]logField{{"outcome", "unknown: " + a.Name + " was sent, no answer came back"}}, errorFields(msg.err)...)
	toast := m.toastNamed(kit.ToastWarn, a.Name, a.Name+": outcome unknown — sent, no answer came back ("+why+"); reading it again", fields)
	if !sameProfile {
		return toast // another account is shown now: nothing to compare
	}
	id := l.id()
	l.unknown[id] = unknownAction{action: a}
	l.keys[a.Key] = true
	d := kit.NewOutcomeDialog(m.common, id, a.Name, why, a.EvidenceOf, a.Evidence != nil)
	if a.Effect != nil {
		d.ChecksEffect()
	}
	m.pushDialog(d)
	if a.Evidence == nil {
		return toast
	}
	evidence, before, ctx := a.Evidence, msg.before, m.ctx
	return tea.Batch(toast, func() tea.Msg {
		after, err := evidence(ctx)
		if err != nil {
			return kit.OutcomeCheckedMsg{ID: id, Err: err}
		}
		out := kit.OutcomeCheckedMsg{ID: id, All: before == nil}
		for k, v := range after {
			if _, was := before[k]; !was {
				out.Found = append(out.Found, v)
			}
		}
		return out
	})
}

// outcomeChecked hands a reading to its dialog, if it is still open; what
// appeared since the change was sent is the outcome found, in the log.
func (m *Model) outcomeChecked(msg kit.OutcomeCheckedMsg) {
	if d := m.outcomeDialog(msg.ID); d != nil {
		d.Checked(msg)
	}
	if u, ok := m.actions.unknown[msg.ID]; ok && msg.Err == nil && !msg.All && len(msg.Found) > 0 {
		m.logFound(u.action, msg.Found)
	}
}

// outcomeDialog is the open outcome dialog with that ID, or nil.
func (m *Model) outcomeDialog(id int) *kit.OutcomeDialog {
	for _, d := range m.dialogs {
		if o, ok := d.(*kit.OutcomeDialog); ok && o.ID == id {
			return o
		}
	}
	return nil
}

// effectSeen gives a fresh reading to the changes whose outcome is unknown
// (kit.Action.Effect): one the reading shows carried out says so in its
// dialog and in the log, and starts its Follow watch.
func (m *Model) effectSeen(data kit.DataMsg) tea.Cmd {
	var cmds []tea.Cmd
	for id, u := range m.actions.unknown {
		if u.found || u.action.Effect == nil || !slices.Contains(u.action.Refresh, data.Key) {
			continue
		}
		line := u.action.Effect(data)
		if line == "" {
			continue
		}
		u.found = true
		m.actions.unknown[id] = u
		if d := m.outcomeDialog(id); d != nil {
			d.Seen(line)
		}
		m.logFound(u.action, []string{line})
		cmds = append(cmds, m.follow(u.action),
			m.deliver(u.action.Origin, kit.ActionDoneMsg{Name: u.action.Name, Tag: u.action.Tag, Found: true}))
	}
	return tea.Batch(cmds...)
}

// logFound records in the log what a reading found of a change whose
// outcome was unknown: it was most likely carried out.
func (m *Model) logFound(a kit.Action, found []string) {
	found = slices.Sorted(slices.Values(found))
	m.msgs.add(logEntry{at: m.common.Wall(), level: kit.ToastInfo,
		text:   a.Name + ": most likely carried out; the list shows " + strings.Join(found, "; "),
		fields: []logField{{"outcome", "found: " + a.Name + " was most likely carried out"}}})
	m.relayoutLog()
}

// follow starts the watch a change carried out starts (kit.Action.Follow).
func (m *Model) follow(a kit.Action) tea.Cmd {
	w := a.Follow
	if w.Key == "" {
		return nil
	}
	if w.Origin == "" {
		w.Origin = a.Origin
	}
	return m.startWatch(w)
}
