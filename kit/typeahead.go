package kit

import (
	"reflect"
	"strings"
	"time"
	"unicode"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
)

// TypeAhead keeps keys typed right after enter or tab for the field they
// were typed for. A huh form moves to the next field through a command
// (its answer comes back as a message), so keys that arrive in the same
// burst as the enter (a paste, a fast typist over a slow SSH link) reach
// the field being left: the start of a secret would land, in clear, at
// the end of the name above it. While a move is under way the keys wait,
// and go to the form once the focus has moved (or after moveWait, when
// the key did not move it after all).
//
// A paste reaches the form as the key press of its text (pastedKey): huh
// gives a tea.PasteMsg to the focused field's text input but does not do
// what it does on a key (clear the field's error, filter a select's
// options by what its filter holds), so a pasted name left a select
// unfiltered and an old error shown until the next key. As a key, a
// paste made during a move waits for the field it was made for too.
//
// Keys wait too while the focused field is a select with no option yet:
// its options are read in a command (OptionsFunc), on the first visit to
// a step after the focus got there, and huh drops every key a select
// without options gets (tab does not leave it), so a burst of tabs and a
// name stopped at the first list still loading and the rest was lost.
// The keys go to the select once its options are there (or the focus
// left it), in order: a tab among them moves on and the rest wait for
// that move in turn. A select that stays empty lets them go after
// optionsWait (they do there what they did before: nothing).
//
// It also lets shift+tab leave a field whatever it holds (Back).
//
// The zero value is ready; a form's host keeps one next to the form and
// passes every message through Update.
type TypeAhead struct {
	moving bool
	from   huh.Field
	// loading is the focused select the keys wait on while it has no
	// option yet
	loading huh.Field
	seq     int
	queued  []tea.KeyPressMsg
	// leaving is the field the last key, a shift+tab, is leaving: its
	// rule lets it go (Back)
	leaving huh.Field
}

// moveWait is how long typed keys wait for a move that does not come;
// optionsWait, for the options of a select that does not get any (more
// than a listing is given before it is said unreadable).
const (
	moveWait    = 250 * time.Millisecond
	optionsWait = 30 * time.Second
)

// typeAheadDone ends a wait that no move ended.
type typeAheadDone struct {
	t   *TypeAhead
	seq int
}

// moveKeys are the keys that move a huh field (its Next and Prev);
// backKeys, its Prev.
var (
	moveKeys = key.NewBinding(key.WithKeys("enter", "tab", "shift+tab"))
	backKeys = key.NewBinding(key.WithKeys("shift+tab"))
)

// Back is rule, but for the field f while shift+tab leaves it: the form
// goes back from a field empty or refused, keeping what was typed in it
// for when the user comes back. huh (v2.0.3) checks a field when it is
// left either way (a select on the key, every field when it is blurred)
// and keeps the form on a group that then holds an error: the field was
// blurred and the form stayed on its step with no field focused, so
// what was typed next was lost, and the error under it belonged to no
// move the user asked for. Going on (enter, tab) is checked as before.
// t is the TypeAhead the form's messages go through: it sees every key
// the form gets, the keys held during a move too.
func Back[T any](t *TypeAhead, f huh.Field, rule func(T) error) func(T) error {
	return func(v T) error {
		if t.leaving != nil && t.leaving == f {
			return nil
		}
		return rule(v)
	}
}

// Update passes msg to form, holding keys while the focus moves; it
// returns the form (huh may return a new one) and what to run.
func (t *TypeAhead) Update(form *huh.Form, msg tea.Msg) (*huh.Form, tea.Cmd) {
	if p, ok := msg.(tea.PasteMsg); ok {
		if p.Content == "" {
			return form, nil
		}
		msg = pastedKey(p)
	}
	kp, isKey := msg.(tea.KeyPressMsg)
	if done, ok := msg.(typeAheadDone); ok {
		if done.t != t || done.seq != t.seq || !t.holding() {
			return form, nil
		}
		return t.release(form, nil)
	}
	if isKey && t.holding() {
		t.queued = append(t.queued, kp)
		return form, nil
	}
	from := form.GetFocusedField()
	if isKey && form.State == huh.StateNormal && noOptionYet(from) {
		t.loading = from
		t.queued = append(t.queued, kp)
		return form, t.wait(optionsWait)
	}
	if isKey && form.State == huh.StateNormal && pastEnd(from, kp) {
		return form, nil // the cursor stays at the list's end
	}
	if n := toLast(from, kp); isKey && form.State == huh.StateNormal && n > 0 {
		// huh's end moves the cursor, not the value: as many downs instead
		var cmds []tea.Cmd
		for range n {
			m, cmd := form.Update(tea.KeyPressMsg{Code: tea.KeyDown})
			if f, ok := m.(*huh.Form); ok {
				form = f
			}
			cmds = append(cmds, cmd)
		}
		return form, tea.Batch(cmds...)
	}
	if isKey {
		t.leaving = nil
		if key.Matches(kp, backKeys) {
			t.leaving = from
		}
	}
	m, cmd := form.Update(msg)
	if f, ok := m.(*huh.Form); ok {
		form = f
	}
	if isKey {
		if cmd != nil && key.Matches(kp, moveKeys) && form.State == huh.StateNormal && form.GetFocusedField() == from && from != nil && from.Error() == nil {
			t.moving, t.from = true, from
			return form, tea.Batch(cmd, t.wait(moveWait))
		}
		return form, cmd
	}
	if t.moving && (form.GetFocusedField() != t.from || form.State != huh.StateNormal) {
		return t.release(form, cmd)
	}
	if t.loading != nil && (form.GetFocusedField() != t.loading || form.State != huh.StateNormal || !noOptionYet(t.loading)) {
		return t.release(form, cmd)
	}
	return form, cmd
}

// holding reports that typed keys wait: for a move, or for a select's
// options.
func (t *TypeAhead) holding() bool { return t.moving || t.loading != nil }

// wait starts a new wait, which ends by itself after d.
func (t *TypeAhead) wait(d time.Duration) tea.Cmd {
	t.seq++
	done := typeAheadDone{t: t, seq: t.seq}
	return tea.Tick(d, func(time.Time) tea.Msg { return done })
}

// selectPkg is huh's package path, where its Select is.
var selectPkg = reflect.TypeFor[huh.Select[string]]().PkgPath()

// noOptionYet reports that f is a huh select, its filter closed, with no
// option under its cursor: its options are not read yet. A select of any
// value type (huh.Select is generic: its Hovered is found by name).
func noOptionYet(f huh.Field) bool {
	if f == nil {
		return false
	}
	v := reflect.ValueOf(f)
	if !isSelect(v) {
		return false
	}
	if fl, ok := f.(interface{ GetFiltering() bool }); ok && fl.GetFiltering() {
		return false // what is typed is the filter's
	}
	m := v.MethodByName("Hovered")
	if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 2 || m.Type().Out(1).Kind() != reflect.Bool {
		return false
	}
	return !m.Call(nil)[1].Bool()
}

// isSelect reports that v is a huh select, of any value type.
func isSelect(v reflect.Value) bool {
	return v.Kind() == reflect.Pointer && v.Type().Elem().PkgPath() == selectPkg && strings.HasPrefix(v.Type().Elem().Name(), "Select[")
}

// selectMoves are the select's keys that move its cursor by one (NewForm's
// key map).
var selectMoves = formKeys().Select

// pastEnd reports that k would take the cursor of the select f past an
// end of its list (down on its last option, up on its first): huh (v2.0.3)
// takes it round to the other end, so a j held on the last region chose
// the first. The cursor stays, as in the app's own lists. huh keeps the
// cursor and the options shown unexported: they are read by name, and a
// huh without them lets every key through as before.
func pastEnd(f huh.Field, k tea.KeyPressMsg) bool {
	down, up := key.Matches(k, selectMoves.Down), key.Matches(k, selectMoves.Up)
	if f == nil || (!down && !up) {
		return false
	}
	if fl, ok := f.(interface{ GetFiltering() bool }); ok && fl.GetFiltering() && (k.String() == "j" || k.String() == "k") {
		return false // typed into the filter
	}
	i, n, ok := selectCursor(f)
	if !ok || n == 0 {
		return false
	}
	return (down && i >= n-1) || (up && i <= 0)
}

// selectCursor is the cursor of select f and how many options it shows.
// huh keeps them unexported: they are read by name, and a huh without
// them gives ok false (every key then passes as before).
func selectCursor(f huh.Field) (i, n int, ok bool) {
	v := reflect.ValueOf(f)
	if f == nil || !isSelect(v) {
		return 0, 0, false
	}
	cur, shown := v.Elem().FieldByName("selected"), v.Elem().FieldByName("filteredOptions")
	if cur.Kind() != reflect.Int || shown.Kind() != reflect.Slice {
		return 0, 0, false
	}
	return int(cur.Int()), shown.Len(), true
}

// toLast is how many options below the cursor the last of select f is
// when k is its "end" key (0 otherwise, or while its filter is typed).
// huh (v2.0.3) moves the cursor there and leaves the value where it was.
func toLast(f huh.Field, k tea.KeyPressMsg) int {
	if f == nil || !key.Matches(k, selectEnd) {
		return 0
	}
	if fl, ok := f.(interface{ GetFiltering() bool }); ok && fl.GetFiltering() {
		return 0
	}
	i, n, ok := selectCursor(f)
	if !ok {
		return 0
	}
	return max(n-1-i, 0)
}

// selectEnd is the select's "end" key (NewForm's key map).
var selectEnd = formKeys().Select.GotoBottom

// release gives the keys held to the form, where its focus is now.
func (t *TypeAhead) release(form *huh.Form, cmd tea.Cmd) (*huh.Form, tea.Cmd) {
	t.moving, t.loading = false, nil
	q := t.queued
	t.queued = nil
	cmds := []tea.Cmd{cmd}
	for i, k := range q {
		if t.holding() { // a key held was a move, or reached a select still loading: the rest wait for it
			t.queued = append(t.queued, q[i:]...)
			break
		}
		var c tea.Cmd
		form, c = t.Update(form, k)
		cmds = append(cmds, c)
	}
	return form, tea.Batch(cmds...)
}

// pastedKey is pasted text as the key press huh gets when it is typed:
// the bubbles text input inserts all of a key press's text (tabs and line
// breaks made spaces, as in a paste). Text of more than one character is
// a key of its own (tea.KeyExtended, as a terminal sends a grapheme of
// several runes), which no binding matches; one printable character is
// that character's key.
func pastedKey(p tea.PasteMsg) tea.KeyPressMsg {
	kp := tea.KeyPressMsg{Code: tea.KeyExtended, Text: p.Content}
	if r := []rune(p.Content); len(r) == 1 && unicode.IsPrint(r[0]) {
		kp.Code = r[0]
	}
	return kp
}
