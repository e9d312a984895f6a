package tui

import (
	"slices"
	"sort"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// Watches: the second half of the polling engine. Resources are polled
// only while their screen is visible; a long operation the user started (a
// restore, a backup job) must still be noticed when it ends while the user
// is elsewhere. A screen (or a shared form) returns kit.StartWatch(w) once
// the operation exists; the root then polls w.Fetch here, whatever screen
// is shown, with the same rules as the engine (one request in flight per
// watch, the next tick armed only after the reply, the fast interval,
// exponential backoff on errors up to MaxBackoff) until w.Outcome reports
// the end. Then, in this one place:
//   - the outcome becomes a toast;
//   - the terminal bell rings (tea.Raw("\a"), written by the program
//     between frames, so it never tears a frame) when Options.Bell is set
//     and the origin screen is not the visible one;
//   - the origin screen receives a kit.WatchDoneMsg (same profile only).
//
// A 404 ends a watch too (the operation was deleted). Watches survive
// screen and profile switches: their Fetch closes over the client they
// started with, so an outcome under the previous profile still toasts.

type watchTickMsg struct {
	key    string
	serial uint64
}

type watchResultMsg struct {
	key    string
	serial uint64
	data   any
	err    error
}

type watchState struct {
	w          kit.Watch
	serial     uint64
	inFlight   bool
	backoff    time.Duration
	profileGen int
}

type watcher struct {
	serial uint64
	items  map[string]*watchState
	// requests counts fetches started, for tests.
	requests int
}

func (m *Model) watcher() *watcher {
	if m.watches == nil {
		m.watches = &watcher{items: map[string]*watchState{}}
	}
	return m.watches
}

// Watching lists the names of the operations being watched (tests, and
// the quit question of a future change).
func (m *Model) Watching() []string {
	var out []string
	for _, st := range m.watcher().items {
		out = append(out, st.w.Name)
	}
	sort.Strings(out)
	return out
}

// startWatch registers a watch; its first fetch comes after the fast
// interval (the operation was just created; the screen that started it
// already shows it).
func (m *Model) startWatch(w kit.Watch) tea.Cmd {
	if w.Key == "" || w.Fetch == nil || w.Outcome == nil {
		return nil
	}
	ws := m.watcher()
	ws.serial++
	st := &watchState{w: w, serial: ws.serial, profileGen: m.profileGen}
	ws.items[w.Key] = st
	return m.after(m.engine.fast, watchTickMsg{key: w.Key, serial: st.serial})
}

func (m *Model) onWatchTick(msg watchTickMsg) tea.Cmd {
	st, ok := m.watcher().items[msg.key]
	if !ok || st.serial != msg.serial || st.inFlight {
		return nil
	}
	st.inFlight = true
	m.watcher().requests++
	fetch, ctx, key, serial := st.w.Fetch, m.ctx, msg.key, st.serial
	return func() tea.Msg {
		data, err := fetch(ctx)
		return watchResultMsg{key: key, serial: serial, data: data, err: err}
	}
}

func (m *Model) onWatchResult(msg watchResultMsg) tea.Cmd {
	ws := m.watcher()
	st, ok := ws.items[msg.key]
	if !ok || st.serial != msg.serial {
		return nil // replaced or ended meanwhile
	}
	st.inFlight = false
	if msg.err != nil {
		if api.IsNotFound(msg.err) {
			if m.endedByChange(st.w.Key) {
				return m.endWatch(st, kit.ToastInfo, "", nil, true) // the change's toast says it
			}
			text := st.w.Gone
			if text == "" {
				text = st.w.Name + ": no longer exists"
			}
			return m.endWatch(st, kit.ToastWarn, text, nil, true)
		}
		if st.backoff == 0 {
			st.backoff = m.engine.fast
		} else {
			st.backoff = min(2*st.backoff, MaxBackoff)
		}
		return m.after(st.backoff, watchTickMsg{key: msg.key, serial: st.serial})
	}
	st.backoff = 0
	done, level, text := st.w.Outcome(msg.data)
	if done {
		return m.endWatch(st, level, text, msg.data, false)
	}
	return m.after(m.engine.fast, watchTickMsg{key: msg.key, serial: st.serial})
}

func (m *Model) endWatch(st *watchState, level kit.ToastLevel, text string, data any, gone bool) tea.Cmd {
	delete(m.watcher().items, st.w.Key)
	var cmds []tea.Cmd
	if text != "" {
		cmds = append(cmds, m.toast(level, text))
	}
	if text != "" && m.opts.Bell && st.w.Origin != m.screen().ID() {
		cmds = append(cmds, tea.Raw("\a"))
	}
	if st.profileGen == m.profileGen && st.w.Origin != "" {
		cmds = append(cmds, m.deliver(st.w.Origin, kit.WatchDoneMsg{Key: st.w.Key, Data: data, Gone: gone}))
	}
	return tea.Batch(cmds...)
}

// endedByChange reports that a change being sent ends the watch key
// (kit.Action.Ends): the operation is gone because the user deleted it.
func (m *Model) endedByChange(key string) bool {
	for _, a := range m.actions.running {
		if slices.Contains(a.Ends, key) {
			return true
		}
	}
	return false
}

// endWatches stops, without a word, the watches a change that succeeded
// ends (kit.Action.Ends): its own toast says what happened.
func (m *Model) endWatches(a kit.Action) tea.Cmd {
	var cmds []tea.Cmd
	for _, k := range a.Ends {
		if st, ok := m.watcher().items[k]; ok {
			cmds = append(cmds, m.endWatch(st, kit.ToastInfo, "", nil, true))
		}
	}
	return tea.Batch(cmds...)
}
