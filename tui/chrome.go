package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/kit"
)

type toast struct {
	id    int
	level kit.ToastLevel
	text  string
	shown int       // which showing of this toast its timer belongs to
	at    time.Time // when it came (Wall): one that waited too long goes
	// seen is when it first came to the front (zero: not yet): a warning
	// seen long enough gives way to a newer toast (seenWarn)
	seen time.Time
	// stays marks an error whose time is up: it shows again, with no
	// time, once the toasts waiting above it have shown, until dismissed.
	stays bool
	// holds, when set, is false once the text no longer says what is so
	// (kit.ToastMsg.Holds): the toast is then gone, shown or waiting. It
	// speaks of the screen that sent it (screen), its view or its keys:
	// it holds only while that screen is shown.
	holds  func() bool
	screen string
	// name, when set, is the name of what the text speaks of (an action's,
	// at its start: "add 203.0.113.9/32 to the allow list of NAME"): a
	// message line too narrow for the whole text shows its start, cut, so
	// the status, message and trace ID after it are read. The log keeps
	// the text whole.
	name string
	// supersedes is, on an action's failure, its Action.Supersedes: a
	// success with the same one retires it (dropFailures)
	supersedes string
}

// shortened is the text with its name, when that is longer than a line of
// w cells, cut after a third of the line (at least 24 cells: the verb and
// what it acts on come first) with ellipsis; else the text (a name that
// fits a line is said whole).
func (t toast) shortened(w int, ellipsis string) string {
	limit := max(24, (w-1)/3)
	if t.name == "" || ansi.StringWidth(t.name) < w || !strings.Contains(t.text, t.name) {
		return t.text
	}
	return strings.Replace(t.text, t.name, ansi.Truncate(t.name, limit, ellipsis), 1)
}

// Toasts queue: the newest shows; each shows for its whole time (6 s,
// errors 15 s) counted from when it comes to the front, so the ones a
// newer toast covered show in turn after it, newest first ("(+n)" says
// how many wait). An error stays: when its time is up it goes below the
// toasts still waiting (above older errors) and shows, with no time,
// until X dismisses it. The same message again replaces the one waiting,
// as a read-only refusal replaces an earlier one (each is the answer to a
// key), and an action that succeeds retires its earlier failure.
// At most 5 wait; the oldest go first, errors last. News (info, done) gives way to a newer toast and is not shown
// again (shown after newer news it reads as the present: "schedule 6
// created" after "schedule 6 deleted", a hint after the launch it was
// about), unless both came in one burst (newsBurst: a restore's end and
// its target ready): then it waits its turn, for staleNews at most. A
// warning shown for seenWarn gives way so too; one that waited longer than
// staleToast is dropped unshown. Every
// toast is in the message log (L), whole.

// staleToast is how long a warning may wait its turn, staleNews news;
// newsBurst, how close news and a newer toast come for the news to wait.
const (
	staleToast = 30 * time.Second
	staleNews  = 10 * time.Second
	newsBurst  = time.Second
	// seenWarn is how long a warning in front is read: one shown that
	// long gives way to a newer toast and is not shown again (it came
	// back later, where it read as the present: "cannot choose that" of
	// a scale already applied)
	seenWarn = 2 * time.Second
)

// stale reports that t waited too long to be shown (never an error), or
// no longer holds.
func (t toast) stale(now time.Time) bool {
	switch {
	case t.holds != nil && !t.holds():
		return true
	case t.news():
		return now.Sub(t.at) > staleNews
	case t.level == kit.ToastWarn:
		return now.Sub(t.at) > staleToast
	}
	return false
}

// news reports that t is news (info, done), which a newer toast replaces.
func (t toast) news() bool {
	return t.level == kit.ToastInfo || t.level == kit.ToastSuccess
}

func (m *Model) toast(level kit.ToastLevel, text string) tea.Cmd {
	return m.toastWith(level, text, nil)
}

// toastMsg shows a toast, from the screen from when a screen's command
// sent it. One with Holds speaks of that screen: it replaces the earlier
// such toast of the screen (each answers a key or a command), and is taken
// down once it no longer holds or the screen is left (retireToasts, after
// every message).
func (m *Model) toastMsg(msg kit.ToastMsg, from string) tea.Cmd {
	if from == kit.DialogAddress {
		from = "" // a dialog's: whatever screen is under it
	}
	if msg.Holds != nil {
		m.toasts = slices.DeleteFunc(m.toasts, func(t toast) bool { return t.holds != nil && t.screen == from })
	}
	cmd := m.toast(msg.Level, msg.Text)
	if msg.Holds != nil {
		for i := range m.toasts {
			if m.toasts[i].id == m.toastID {
				m.toasts[i].holds, m.toasts[i].screen = msg.Holds, from
			}
		}
	}
	return cmd
}

// holding reports that t, a toast with Holds, still holds: its screen is
// the one shown and what it says is still so.
func (m *Model) holding(t toast) bool {
	return (t.screen == "" || t.screen == m.screen().ID()) && t.holds()
}

// retireToasts takes down the toasts that no longer hold; when the one in
// front goes, the next shows.
func (m *Model) retireToasts() tea.Cmd {
	n := len(m.toasts)
	if n == 0 {
		return nil
	}
	front := m.toasts[n-1].id
	m.toasts = slices.DeleteFunc(m.toasts, func(t toast) bool { return t.holds != nil && !m.holding(t) })
	if n = len(m.toasts); n > 0 && m.toasts[n-1].id == front {
		return nil
	}
	return m.showToast()
}

// dropToasts forgets the toasts not yet gone that start with prefix: news
// that a newer toast replaces (paused, then resumed). The log keeps them.
func (m *Model) dropToasts(prefix string) {
	keep := m.toasts[:0]
	for _, t := range m.toasts {
		if !strings.HasPrefix(t.text, prefix) {
			keep = append(keep, t)
		}
	}
	m.toasts = keep
}

// dropFailures takes off the message line the failures an action with
// Supersedes sup retires, shown or waiting. The log keeps them.
func (m *Model) dropFailures(sup string) {
	m.toasts = slices.DeleteFunc(m.toasts, func(t toast) bool { return t.supersedes != "" && t.supersedes == sup })
}

// toastWith shows a toast whose log entry carries fields (an action's
// outcome: the API's status, message, trace ID).
func (m *Model) toastWith(level kit.ToastLevel, text string, fields []logField) tea.Cmd {
	return m.toastNamed(level, "", text, fields)
}

// toastNamed is toastWith for a text that speaks of name (see toast.name).
func (m *Model) toastNamed(level kit.ToastLevel, name, text string, fields []logField) tea.Cmd {
	m.msgs.add(logEntry{at: m.common.Wall(), level: level, text: text, fields: fields})
	m.relayoutLog()
	m.toastID++
	id := m.toastID
	now := m.common.Wall()
	refusal := strings.HasPrefix(text, kit.ReadOnlyPrefix)
	m.toasts = slices.DeleteFunc(m.toasts, func(t toast) bool {
		// news gives way; the same message again is shown once, now; a
		// read-only refusal is the answer to a key: the newer replaces it
		return t.news() && now.Sub(t.at) >= newsBurst || t.level == level && t.text == text ||
			refusal && strings.HasPrefix(t.text, kit.ReadOnlyPrefix) ||
			t.level == kit.ToastWarn && !t.seen.IsZero() && now.Sub(t.seen) >= seenWarn
	})
	m.toasts = append(m.toasts, toast{id: id, level: level, text: text, at: now, name: name})
	for len(m.toasts) > 5 {
		drop := 0
		for i, t := range m.toasts {
			if t.level != kit.ToastError {
				drop = i
				break
			}
		}
		m.toasts = append(m.toasts[:drop], m.toasts[drop+1:]...)
	}
	return m.showToast()
}

// showToast starts the time of the toast in front (none for an error
// whose time is up).
func (m *Model) showToast() tea.Cmd {
	now := m.common.Wall()
	m.toasts = slices.DeleteFunc(m.toasts, func(t toast) bool { return t.stale(now) })
	n := len(m.toasts)
	if n == 0 || m.toasts[n-1].stays {
		return nil
	}
	t := &m.toasts[n-1]
	t.shown++
	if t.seen.IsZero() {
		t.seen = now
	}
	d := 6 * time.Second
	if t.level == kit.ToastError {
		d = 15 * time.Second
	}
	return m.after(d, toastExpireMsg{id: t.id, shown: t.shown})
}

// waitingToasts counts the toasts behind the front one that will still
// show (not those gone stale, which the next showToast drops).
func (m *Model) waitingToasts() int {
	now, k := m.common.Wall(), 0
	for _, t := range m.toasts[:max(0, len(m.toasts)-1)] {
		if !t.stale(now) {
			k++
		}
	}
	return k
}

// expireToast ends the front toast's time, if msg is its current one, and
// brings the next waiting toast to the front; an error stays, below them.
func (m *Model) expireToast(msg toastExpireMsg) tea.Cmd {
	n := len(m.toasts)
	if n == 0 || m.toasts[n-1].id != msg.id || m.toasts[n-1].shown != msg.shown {
		return nil // covered by a newer toast before its time was up: it shows again later
	}
	t := m.toasts[n-1]
	m.toasts = m.toasts[:n-1]
	if t.level == kit.ToastError {
		t.stays = true
		at := 0 // above the errors that stay already, below the rest
		for at < len(m.toasts) && m.toasts[at].stays {
			at++
		}
		m.toasts = append(m.toasts[:at], append([]toast{t}, m.toasts[at:]...)...)
	}
	return m.showToast()
}

// dismissToast removes the toast in front (X) and shows the next.
func (m *Model) dismissToast() tea.Cmd {
	n := len(m.toasts)
	if n == 0 {
		return nil
	}
	m.toasts = m.toasts[:n-1]
	return m.showToast()
}

// View renders the frame: header, tabs, the screen (or help), the message
// line and the footer; dialogs on top.
func (m *Model) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	if m.mouseOn() {
		v.MouseMode = tea.MouseModeCellMotion
	}
	v.WindowTitle = "skytui " + m.common.Profile
	return v
}

// Render returns the frame as a string (tests and benchmarks).
func (m *Model) Render() string { return m.render() }

func (m *Model) render() string {
	if m.quitting {
		return ""
	}
	w, h := m.width, m.height
	if w == 0 || h == 0 {
		return "starting..."
	}
	if w < MinWidth || h < MinHeight {
		msg := fmt.Sprintf("terminal too small (need %dx%d, have %dx%d)", MinWidth, MinHeight, w, h)
		lines := strings.Split(kit.Wrap(msg, w), "\n")
		lines = append(lines, "enlarge the window, or q to quit")
		if len(lines) > h {
			lines = lines[:h] // 1x1 still gets a frame that fits
		}
		for i, l := range lines {
			st := m.common.Theme.Warn
			if i == len(lines)-1 && len(lines) > 1 {
				st = m.common.Theme.Muted
			}
			lines[i] = st.Render(ansi.Truncate(l, w, ""))
		}
		return strings.Join(lines, "\n")
	}
	bh := m.bodyHeight()
	var body string
	if m.showHelp {
		body = m.helpView(w, bh)
	} else {
		body = m.screen().View()
	}
	body = fitLines(body, w, bh)
	if n := len(m.dialogs); n > 0 {
		body = overlay(body, m.dialogs[n-1].View(), w, bh)
	}
	var b strings.Builder
	b.WriteString(m.headerView(w))
	b.WriteByte('\n')
	b.WriteString(m.tabsView(w))
	b.WriteByte('\n')
	msg := m.messageView(w)
	if k := len(msg) - 1; k > 0 && k < bh {
		// a long error covers the bottom lines of the body
		lines := strings.Split(body, "\n")
		copy(lines[len(lines)-k:], msg[:k])
		body = strings.Join(lines, "\n")
	}
	b.WriteString(body)
	b.WriteByte('\n')
	b.WriteString(msg[len(msg)-1])
	b.WriteByte('\n')
	b.WriteString(m.footerView(w))
	return b.String()
}

// fitLines makes s exactly h lines, none wider than w.
func fitLines(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, "")
		}
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}

// boxOrigin is where overlay puts a box of the given lines in an area of
// w x h, and the box's width.
func boxOrigin(bl []string, w, h int) (x, y, bw int) {
	for _, l := range bl {
		bw = max(bw, ansi.StringWidth(l))
	}
	return max(0, (w-bw)/2), max(0, (h-len(bl))/2), bw
}

// overlay draws box centred over bg (h lines of width w).
func overlay(bg, box string, w, h int) string {
	lines := strings.Split(bg, "\n")
	bl := strings.Split(box, "\n")
	x, y, bw := boxOrigin(bl, w, h)
	for i, l := range bl {
		row := y + i
		if row >= len(lines) {
			break
		}
		under := lines[row]
		left := ansi.Truncate(under, x, "")
		left += strings.Repeat(" ", max(0, x-ansi.StringWidth(left)))
		right := ansi.TruncateLeft(under, x+bw, "")
		lines[row] = left + l + strings.Repeat(" ", max(0, bw-ansi.StringWidth(l))) + right
	}
	return strings.Join(lines, "\n")
}

func (m *Model) tabsView(w int) string {
	th := m.common.Theme
	var b strings.Builder
	b.WriteString(" ")
	for i, label := range m.tabLabels(w) {
		if i == m.active {
			b.WriteString(th.TabOn.Render(label))
		} else {
			b.WriteString(th.TabOff.Render(label))
		}
	}
	line := b.String()
	if sub := m.actions.submitting(); len(sub) > 0 {
		note := th.Warn.Render(" submitting: " + strings.Join(sub, ", ") + th.Glyphs.Ellipsis)
		line += note
	}
	return ansi.Truncate(line, w, th.Glyphs.Ellipsis)
}

// tabLabels are the tabs as drawn in w columns (after one space), each
// with its padding: "  2 Backups  ", the shown one "[ 1 Services ]". When
// they do not all fit, the others show their number only ("  2  "), so the
// shown screen's tab is never cut off.
func (m *Model) tabLabels(w int) []string {
	out := make([]string, len(m.screens))
	for _, short := range []bool{false, true} {
		total := 1
		for i, s := range m.screens {
			switch {
			case i == m.active:
				out[i] = fmt.Sprintf("[ %d %s ]", i+1, s.Title())
			case short:
				out[i] = fmt.Sprintf("  %d  ", i+1)
			default:
				out[i] = fmt.Sprintf("  %d %s  ", i+1, s.Title())
			}
			total += ansi.StringWidth(out[i])
		}
		if total <= w {
			break
		}
	}
	return out
}

func (m *Model) footerView(w int) string {
	line, _ := m.footerLayout(w)
	return line
}

// footerKey is a key shown in the footer and the cells it takes (a click
// there presses it).
type footerKey struct {
	b      key.Binding
	x0, x1 int // [x0, x1)
}

// footerLayout is the footer line and where each key in it is: the
// screen's (or the dialog's, the command line's, the help's) keys as far
// as they fit, and always "? help" and "q quit".
func (m *Model) footerLayout(w int) (string, []footerKey) {
	th := m.common.Theme
	usable := func(b key.Binding) bool { return b.Enabled() && b.Help().Key != "" }
	render := func(b key.Binding) string {
		return th.Key.Render(b.Help().Key) + " " + th.Desc.Render(b.Help().Desc)
	}
	var items, globals []key.Binding
	switch {
	case m.showHelp:
		items = append(items, m.keys.HelpView.Close, m.keys.HelpView.Down, m.keys.HelpView.PageDown, m.keys.HelpView.Top)
	case len(m.dialogs) > 0:
		if d, ok := m.dialogs[len(m.dialogs)-1].(interface{ KeyMap() help.KeyMap }); ok {
			items = append(items, d.KeyMap().ShortHelp()...)
			break
		}
		items = append(items, kit.Bind("enter", "choose"),
			kit.Bind("esc", "cancel"))
	case m.cmdline.active:
		items = append(items, m.cmdline.keys.list()...)
	default:
		items = append(items, m.screen().KeyMap().ShortHelp()...)
		if !m.screen().CapturesKeys() {
			globals = []key.Binding{m.keys.Help, m.keys.Quit}
			if m.canGoBack() {
				globals = append([]key.Binding{m.backBinding()}, globals...)
			}
		}
	}
	globals = slices.DeleteFunc(globals, func(b key.Binding) bool { return !usable(b) })
	tailW := 0
	for i, b := range globals {
		if i > 0 {
			tailW += 2
		}
		tailW += ansi.StringWidth(render(b))
	}
	room := w - 1
	if tailW > 0 {
		room -= tailW + 2
	}
	var keys []footerKey
	line := " "
	at := 1
	add := func(b key.Binding) {
		if at > 1 {
			line += "  "
			at += 2
		}
		it := render(b)
		keys = append(keys, footerKey{b: b, x0: at, x1: at + ansi.StringWidth(it)})
		line += it
		at += ansi.StringWidth(it)
	}
	items = slices.DeleteFunc(slices.Clone(items), func(b key.Binding) bool { return !usable(b) })
	// what does not fit is left out whole, the least needed first (see
	// footerUnits); what stays keeps its place
	keep, used := make([]bool, len(items)), 0
	for _, u := range footerUnits(items, len(globals) == 0) {
		uw := 0
		for _, i := range u {
			if used+uw > 0 {
				uw += 2
			}
			uw += ansi.StringWidth(render(items[i]))
		}
		if used+uw > room {
			break
		}
		for _, i := range u {
			keep[i] = true
		}
		used += uw
	}
	for i, b := range items {
		if keep[i] {
			add(b)
		}
	}
	for _, b := range globals {
		add(b)
	}
	return ansi.Truncate(line, w, th.Glyphs.Ellipsis), keys
}

// footerUnits are the footer's entries (indices into items) in the order
// they are kept when not all fit, each unit kept whole or not at all: esc
// first, the way back out of a view, a form, a wizard, a dialog; then
// their own order. Without "? help" in the footer (a field, a dialog, the
// command line or the help has the keys: ? is typed, or not theirs, and
// the footer is all there is to read) a list's movement keys go last,
// together (every list has them, and half of them says nothing).
func footerUnits(items []key.Binding, noHelp bool) [][]int {
	var first, units [][]int
	var moves []int
	for i, b := range items {
		switch {
		case slices.Contains(b.Keys(), "esc"):
			first = append(first, []int{i})
		case noHelp && isMovement(b):
			moves = append(moves, i)
		default:
			units = append(units, []int{i})
		}
	}
	units = append(first, units...)
	if len(moves) > 0 {
		units = append(units, moves)
	}
	return units
}

// isMovement reports that b is one of a list's movement keys.
func isMovement(b key.Binding) bool {
	t := kit.DefaultTableKeys
	for _, m := range []key.Binding{t.Up, t.Down, t.PageUp, t.PageDown, t.Top, t.Bottom} {
		if slices.Equal(b.Keys(), m.Keys()) {
			return true
		}
	}
	return false
}
