package tui

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// The message log (L, :log): every toast, every change the action layer
// sent and how it ended (for an error: the API's status, message,
// solution, request and trace ID, each whole), in order, the newest last.
// It keeps the last logMax entries. A toast's line shows the start of a
// long text; the log shows it whole, wrapped to any width, and y copies
// an entry.

const logMax = 500

// logField is one labelled part of an entry: "trace ID" and its value.
type logField struct{ label, value string }

type logEntry struct {
	seq   int // 1, 2, … for the whole session
	at    time.Time
	level kit.ToastLevel
	sent  bool // a change handed to the API (the outcome is a later entry)
	text  string
	// fields are the outcome's details: outcome, status, message, …
	fields []logField
}

// word is the entry's kind as the log shows it.
func (e logEntry) word() string {
	if e.sent {
		return "sent"
	}
	switch e.level {
	case kit.ToastSuccess:
		return "ok"
	case kit.ToastWarn:
		return "warn"
	case kit.ToastError:
		return "error"
	}
	return "info"
}

// copyText is the entry whole, as y copies it and the filter matches it.
func (e logEntry) copyText() string {
	var b strings.Builder
	b.WriteString(e.at.Local().Format("2006-01-02 15:04:05") + " " + e.word() + " " + e.text)
	for _, f := range e.fields {
		b.WriteString("\n  " + f.label + ": " + f.value)
	}
	return b.String()
}

type msgLog struct {
	entries []logEntry
	seq     int
	// failing is the reason last logged of each resource whose refresh
	// fails (logRefresh)
	failing map[string]string
}

// add appends an entry; text from anywhere is cleaned here, once.
func (l *msgLog) add(e logEntry) {
	l.seq++
	e.seq = l.seq
	e.text = kit.CopyText(e.text)
	for i := range e.fields {
		e.fields[i].value = kit.CopyText(e.fields[i].value)
	}
	l.entries = append(l.entries, e)
	if len(l.entries) > logMax {
		l.entries = append([]logEntry(nil), l.entries[len(l.entries)-logMax:]...)
	}
}

// dropped counts the entries the bound has let go.
func (l *msgLog) dropped() int { return l.seq - len(l.entries) }

// logSent records a change handed to the API.
func (m *Model) logSent(a kit.Action) {
	m.msgs.add(logEntry{at: m.common.Wall(), level: kit.ToastInfo, sent: true, text: a.Name})
	m.relayoutLog()
}

// logRefresh records a polled resource's answer in the log when it
// tells something: a refresh that failed (the header has room for the
// start of its reason only; the log keeps the status, message and trace
// ID whole), once per resource and reason however often it is retried,
// and the refresh that works again after one. Answers the engine made
// up without asking (no API key) are not the API's and are not logged.
func (m *Model) logRefresh(key string, err error) {
	if _, ok := err.(notAskedError); ok {
		return
	}
	m.logSlot(key, "refresh of "+m.resourceTitle(key), err)
}

// logParts records the parts of a listing across services that failed
// while the rest was read (kit.DataMsg.Parts), as logRefresh records a
// refresh: each service's once per reason, and its listing once it
// works again. A part is kept apart from the whole listing's failure.
func (m *Model) logParts(key string, parts []error) {
	now := map[string]error{}
	for _, p := range parts {
		slot := key + " part"
		if se := (*api.ServiceError)(nil); errors.As(p, &se) {
			slot += " " + m.serviceTitle(se)
		}
		now[slot] = p
	}
	var slots []string
	for slot := range m.msgs.failing {
		if _, failing := now[slot]; strings.HasPrefix(slot, key+" part") && !failing {
			slots = append(slots, slot)
		}
	}
	for slot := range now {
		slots = append(slots, slot)
	}
	slices.Sort(slots)
	for _, slot := range slots {
		what := "refresh of " + m.resourceTitle(key)
		if title, ok := strings.CutPrefix(slot, key+" part "); ok && now[slot] == nil {
			// one service's part that works again
			what += ": listing of " + title
		}
		m.logSlot(slot, what, now[slot])
	}
}

// logSlot logs what (a refresh, a listing's part) failing, once per
// reason however often it is retried, and working again after it did.
func (m *Model) logSlot(slot, what string, err error) {
	if err == nil {
		if _, ok := m.msgs.failing[slot]; ok {
			delete(m.msgs.failing, slot)
			m.msgs.add(logEntry{at: m.common.Wall(), level: kit.ToastSuccess, text: what + " works again"})
			m.relayoutLog()
		}
		return
	}
	why := reason(err)
	if se := (*api.ServiceError)(nil); errors.As(err, &se) {
		// one service's part of a view across services
		why = "listing of " + m.serviceTitle(se) + ": " + why
	}
	if last, ok := m.msgs.failing[slot]; ok && last == why {
		return
	}
	if m.msgs.failing == nil {
		m.msgs.failing = map[string]string{}
	}
	m.msgs.failing[slot] = why
	m.msgs.add(logEntry{at: m.common.Wall(), level: kit.ToastWarn,
		text: what + " failed: " + why + "; it is retried", fields: errorFields(err)})
	m.relayoutLog()
}

// serviceTitle names the service of a failed part: its name from the
// error, else from the last services listing, and its ID.
func (m *Model) serviceTitle(se *api.ServiceError) string {
	if se.ServiceName == "" {
		for _, s := range m.known {
			if s.ID == se.ServiceID && s.Name != "" {
				return s.Name + " (" + s.ID + ")"
			}
		}
	}
	return se.Service()
}

// resourceTitle is how the log names the polled resource key: its own
// title, else the shared key's words with the service's name from the
// last listing.
func (m *Model) resourceTitle(key string) string {
	if t := m.engine.title(key); t != "" {
		return t
	}
	return kit.ResourceTitle(key, func(id string) string {
		for _, s := range m.known {
			if s.ID == id {
				return s.Name
			}
		}
		return ""
	})
}

// errorFields are an error's parts, each whole: the HTTP status, the
// API's message and solution, the request and the trace ID.
func errorFields(err error) []logField {
	if err == nil {
		return nil
	}
	e := api.AsError(err)
	if e == nil {
		return []logField{{"error", err.Error()}}
	}
	var f []logField
	if e.Status > 0 {
		f = append(f, logField{"status", fmt.Sprintf("%d %s", e.Status, http.StatusText(e.Status))})
	}
	msg := e.Message
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	if msg != "" {
		f = append(f, logField{"message", msg})
	}
	if e.Solution != "" {
		f = append(f, logField{"solution", e.Solution})
	}
	if e.Location != "" {
		f = append(f, logField{"location", e.Location})
	}
	if e.RetryAfter > 0 {
		f = append(f, logField{"retry after", e.RetryAfter.Round(time.Second).String()})
	}
	if r := strings.TrimSpace(e.Method + " " + e.Path); r != "" {
		f = append(f, logField{"request", r})
	}
	if e.TraceID != "" {
		f = append(f, logField{"trace ID", e.TraceID})
	}
	return f
}

// ---- the log dialog ----

// logKeys are the log's bindings: the table's movement and filter keys
// (kit.DefaultTableKeys), copy and close. Its hint line, the footer and
// the help are generated from them.
type logKeys struct {
	kit.TableKeys
	Copy key.Binding
	// Close is q (and L, which opened it); CloseEsc is esc, which clears
	// a filter first (TableKeys.FilterClear).
	Close, CloseEsc key.Binding
	// Help (?) lists these keys in the entries' place; HelpBack goes back
	// to the entries.
	Help, HelpBack key.Binding
}

func newLogKeys() logKeys {
	return logKeys{
		TableKeys: kit.DefaultTableKeys,
		Copy:      kit.Bind("y", "copy entry"),
		Close:     kit.Bind("q", "close", "L"),
		CloseEsc:  kit.Bind("esc", "close"),
		Help:      kit.Bind("?", "keys"),
		HelpBack:  kit.BindHelp("esc/?", "back to the log", "esc", "?", "q"),
	}
}

// closeKey is the close binding the log shows: esc, unless esc clears a
// filter now.
func (d *logDialog) closeKey() key.Binding {
	if d.filter != "" {
		return d.keys.Close
	}
	return d.keys.CloseEsc
}

// logLine is one laid-out line of the log: its text (no styles), the
// entry it belongs to and how it is styled.
type logLine struct {
	text  string
	entry int // index into shown
	head  bool
	level kit.ToastLevel
	sent  bool
	field bool
}

// logDialog shows the log on the dialog stack, the newest entry last and
// selected when it opens. The box starts on an entry's first line, never
// on a piece of one: it scrolls by whole entries, and through an entry
// taller than the box line by line under that entry's first line, kept
// on top. j/k move from entry to entry (through a tall one a line at a
// time); the last line says how many lines are below and above.
type logDialog struct {
	common *kit.Common
	log    *msgLog
	keys   logKeys
	input  kit.Input
	typing bool
	filter string
	// keysShown: ? lists the keys in the entries' place; keysTop is the
	// first line of them shown when they do not fit
	keysShown bool
	keysTop   int

	shown  []int // indices into log.entries that match the filter
	seqs   []int // the seq of each shown entry: the selection's anchor
	lines  []logLine
	starts []int // first line of each shown entry, and len(lines)
	sel    int   // index into shown
	// top is the entry on top of the box (index into shown); skip is how
	// many of its lines after its first are scrolled past, when it is the
	// selected entry and taller than the box (its first line stays)
	top, skip int

	width, height int
}

func newLogDialog(c *kit.Common, l *msgLog) *logDialog {
	d := &logDialog{common: c, log: l, keys: newLogKeys(), input: kit.NewInput("/", "filter")}
	d.sel = -1 // the newest, once laid out
	return d
}

// SetSize implements kit.Dialog.
func (d *logDialog) SetSize(w, h int) {
	d.width, d.height = w, h
	d.layout()
}

// inner is the text width inside the box.
func (d *logDialog) inner() int { return max(10, d.width-4) }

// rows is how many lines of entries the box shows: the box's borders, its
// title line and its hint line take four.
func (d *logDialog) rows() int {
	r := d.height - 4
	if d.typing || d.filter != "" {
		r-- // the filter's line
	}
	return max(1, r)
}

// layout wraps the entries that match the filter to the box's width and
// keeps the selection on the same entry (on the newest when it was there).
func (d *logDialog) layout() {
	// the selection is anchored by seq, not by index: once the log is
	// full, each new entry shifts the indices by one
	selSeq, topSeq, follow := -1, -1, d.sel < 0 || d.sel >= len(d.seqs)-1
	if !follow {
		selSeq = d.seqs[d.sel]
	}
	if d.top < len(d.seqs) {
		topSeq = d.seqs[d.top]
	}
	d.shown, d.seqs, d.lines, d.starts = d.shown[:0], d.seqs[:0], d.lines[:0], d.starts[:0]
	needle := strings.ToLower(d.filter)
	d.sel = -1
	top := -1
	for i, e := range d.log.entries {
		if needle != "" && !strings.Contains(strings.ToLower(e.copyText()), needle) {
			continue
		}
		if e.seq == selSeq {
			d.sel = len(d.shown)
		}
		if e.seq == topSeq {
			top = len(d.shown)
		}
		d.starts = append(d.starts, len(d.lines))
		d.lines = append(d.lines, d.entryLines(e, len(d.shown))...)
		d.shown = append(d.shown, i)
		d.seqs = append(d.seqs, e.seq)
	}
	d.starts = append(d.starts, len(d.lines))
	switch {
	case d.sel < 0 || follow:
		d.sel = len(d.shown) - 1
		d.top, d.skip = d.bottomTop(), 0
	case top < 0: // the entry on top was let go
		d.top, d.skip = 0, 0
	default:
		d.top = top
	}
	d.clamp()
	d.reveal()
}

// entryLines lays out one entry: "15:04:05 error  text" with the text
// wrapped under itself (below the time when the box is narrow), then its
// fields, labels aligned, values wrapped under themselves.
func (d *logDialog) entryLines(e logEntry, idx int) []logLine {
	w := d.inner() - 2 // the cursor's gutter
	head := fmt.Sprintf("%s %-5s ", e.at.Local().Format("15:04:05"), e.word())
	indent := ansi.StringWidth(head)
	var out []logLine
	add := func(s string, field bool) {
		out = append(out, logLine{text: s, entry: idx, head: len(out) == 0, level: e.level, sent: e.sent, field: field})
	}
	if w-indent < 20 {
		add(strings.TrimRight(head, " "), false)
		for _, l := range strings.Split(kit.Wrap(e.text, w-2), "\n") {
			add("  "+l, false)
		}
	} else {
		for i, l := range strings.Split(kit.Wrap(e.text, w-indent), "\n") {
			if i == 0 {
				add(head+l, false)
			} else {
				add(strings.Repeat(" ", indent)+l, false)
			}
		}
	}
	lw := 0
	for _, f := range e.fields {
		lw = max(lw, ansi.StringWidth(f.label))
	}
	const fieldIndent = 4
	vw := w - fieldIndent - lw - 2
	for _, f := range e.fields {
		label := strings.Repeat(" ", fieldIndent) + f.label + strings.Repeat(" ", lw-ansi.StringWidth(f.label)+2)
		if vw < 12 { // too narrow for a column: the value under its label
			add(strings.TrimRight(label, " "), true)
			for _, l := range strings.Split(kit.Wrap(f.value, w-fieldIndent-2, " ,/"), "\n") {
				add(strings.Repeat(" ", fieldIndent+2)+l, true)
			}
			continue
		}
		for i, l := range strings.Split(kit.Wrap(f.value, vw, " ,/"), "\n") {
			if i == 0 {
				add(label+l, true)
			} else {
				add(strings.Repeat(" ", ansi.StringWidth(label))+l, true)
			}
		}
	}
	return out
}

// Selected is the text y copies (tests).
func (d *logDialog) Selected() string {
	if d.sel < 0 || d.sel >= len(d.shown) {
		return ""
	}
	return d.log.entries[d.shown[d.sel]].copyText()
}

// Update implements kit.Dialog.
func (d *logDialog) Update(msg tea.Msg) (kit.Dialog, tea.Cmd) {
	if wh, ok := msg.(tea.MouseWheelMsg); ok && !d.typing {
		// the wheel moves through the entries as j and k do (through the
		// keys while ? lists them)
		dir := 1
		if wh.Button == tea.MouseWheelUp {
			dir = -1
		}
		switch {
		case d.keysShown:
			d.keysLine(dir)
		case dir < 0:
			d.up()
		default:
			d.down()
		}
		return d, nil
	}
	kp, ok := msg.(tea.KeyPressMsg)
	k := d.keys
	if d.keysShown {
		if ok {
			d.keysKey(kp)
		}
		return d, nil
	}
	if d.typing {
		switch {
		case ok && key.Matches(kp, k.FilterClear):
			d.typing = false
			d.input.Blur()
			d.filter = ""
			d.input.SetValue("")
			d.layout()
			return d, nil
		case ok && key.Matches(kp, k.FilterKeep):
			d.typing = false
			d.input.Blur()
			d.layout()
			return d, nil
		}
		var cmd tea.Cmd
		d.input, cmd = d.input.Update(msg) // keys and pastes
		if v := d.input.Value(); v != d.filter {
			d.filter = v
			d.sel = -1 // the newest match
			d.layout()
		}
		return d, cmd
	}
	if !ok {
		return d, nil
	}
	switch {
	case key.Matches(kp, k.Down):
		d.down()
	case key.Matches(kp, k.Up):
		d.up()
	case key.Matches(kp, k.PageDown):
		d.page(1)
	case key.Matches(kp, k.PageUp):
		d.page(-1)
	case key.Matches(kp, k.Top):
		if len(d.shown) > 0 {
			d.sel, d.top, d.skip = 0, 0, 0
		}
	case key.Matches(kp, k.Bottom):
		if len(d.shown) > 0 {
			// the end: the last entry's last line at the bottom
			d.sel, d.top = len(d.shown)-1, d.bottomTop()
			d.skip = d.maxSkip(d.top)
			d.clamp()
		}
	case key.Matches(kp, k.Filter):
		d.typing = true
		d.input.SetValue(d.filter)
		d.input.CursorEnd()
		d.layout() // the filter's line takes a row
		return d, d.input.Focus()
	case key.Matches(kp, k.Copy):
		if t := d.Selected(); t != "" {
			return d, kit.Copy(d.common, "log entry", t)
		}
	case key.Matches(kp, k.FilterClear) && d.filter != "":
		d.filter = ""
		d.input.SetValue("")
		d.layout()
	case key.Matches(kp, k.Close), key.Matches(kp, k.CloseEsc):
		return d, kit.Send(kit.CloseDialogMsg{})
	case key.Matches(kp, k.Help):
		d.keysShown, d.keysTop = true, 0
	}
	return d, nil
}

// bindings are the keys the log answers in its current mode, in the
// order Update tries them (esc clears a filter before it closes).
func (d *logDialog) bindings() []key.Binding {
	k := d.keys
	switch {
	case d.keysShown:
		return d.keysBindings()
	case d.typing:
		return []key.Binding{k.FilterClear, k.FilterKeep}
	}
	return d.listBindings()
}

// listBindings are the keys the log answers while it lists its entries.
func (d *logDialog) listBindings() []key.Binding {
	k := d.keys
	clear := k.FilterClear
	clear.SetEnabled(d.filter != "")
	return []key.Binding{k.Down, k.Up, k.PageDown, k.PageUp, k.Top, k.Bottom, k.Filter, k.Copy, clear, k.Close, d.closeKey(), k.Help}
}

// KeyMap lists the log's bindings for the footer.
func (d *logDialog) KeyMap() help.KeyMap {
	k := d.keys
	switch {
	case d.keysShown:
		return kit.KeysOf(d.keysFooter()...)
	case d.typing:
		return kit.KeysOf(k.FilterKeep, k.FilterClear)
	}
	clear := k.FilterClear
	clear.SetEnabled(d.filter != "")
	return kit.KeysOf(d.closeKey(), clear, k.Copy, k.Filter, k.Help, k.Down, k.Up, k.PageDown, k.PageUp, k.Top, k.Bottom)
}

// hint is the box's last line: how many lines are below and above and
// their keys (kit.MoreLine), then as many of the keys as fit whole, the
// most needed first.
func (d *logDialog) hint() string {
	k := d.keys
	line := ""
	above, below := d.aboveBelow()
	if above > 0 || below > 0 {
		line = kit.MoreLine(d.common, k.Down, k.Up, above, below)
	}
	bs := []key.Binding{k.FilterKeep, k.FilterClear}
	if !d.typing {
		clear := k.FilterClear
		clear.SetEnabled(d.filter != "")
		bs = []key.Binding{d.closeKey(), k.Copy, k.Filter, clear}
		if line == "" {
			bs = slices.Insert(bs, 1, kit.BindHelp("j/k", "move", "j"))
		}
	}
	for _, b := range bs {
		h := kit.HintLine(b)
		if h == "" {
			continue
		}
		next := h
		if line != "" {
			next = line + "  " + h
		}
		if ansi.StringWidth(next) > d.inner() {
			break
		}
		line = next
	}
	return line
}

// View implements kit.Dialog: the box fills the dialog area.
func (d *logDialog) View() string {
	if d.keysShown {
		return d.keysView()
	}
	th := d.common.Theme
	inner := d.inner()
	title := "Message log"
	count := kit.Count(len(d.log.entries), "entry", "entries") + ", newest last"
	if d.filter != "" {
		count = fmt.Sprintf("%d of %s match", len(d.shown), kit.Count(len(d.log.entries), "entry", "entries"))
	}
	if n := d.log.dropped(); n > 0 {
		count += fmt.Sprintf(" (%d older let go)", n)
	}
	body := []string{ansi.Truncate(th.Title.Render(title)+"  "+th.Muted.Render(count), inner, th.Glyphs.Ellipsis)}
	if d.typing {
		in := d.input
		in.SetWidth(max(1, inner-2))
		body = append(body, ansi.Truncate(in.View(), inner, ""))
	} else if d.filter != "" {
		body = append(body, ansi.Truncate(th.Muted.Render("filter: ")+d.filter, inner, th.Glyphs.Ellipsis))
	}
	rows := d.rows()
	shown := d.visible()
	if len(shown) == 0 {
		empty := "nothing yet: toasts, changes and errors appear here"
		if d.filter != "" {
			empty = "no entry matches"
		}
		body = append(body, th.Muted.Render(ansi.Truncate(empty, inner, th.Glyphs.Ellipsis)))
		rows--
	}
	for _, i := range shown {
		l := d.lines[i]
		gutter := "  "
		if l.entry == d.sel && l.head {
			gutter = th.Accent.Render(th.Glyphs.Cursor) + " "
		}
		st := th.Base
		switch {
		case l.field:
			st = th.Muted
		case l.sent:
			st = th.Accent
		case l.level == kit.ToastError:
			st = th.Error
		case l.level == kit.ToastWarn:
			st = th.Warn
		case l.level == kit.ToastSuccess:
			st = th.OK
		}
		text := st.Render(l.text)
		if l.entry == d.sel {
			text = th.Selected.Render(l.text)
		}
		body = append(body, gutter+text)
	}
	for i := len(shown); i < rows; i++ {
		body = append(body, "")
	}
	body = append(body, th.Muted.Render(ansi.Truncate(d.hint(), inner, th.Glyphs.Ellipsis)))
	return kit.Box(th, "", strings.Join(body, "\n"), d.width)
}

// openLog shows the message log.
func (m *Model) openLog() tea.Cmd {
	m.pushDialog(newLogDialog(m.common, &m.msgs))
	return nil
}

// relayoutLog lays an open log out again after an entry was added.
func (m *Model) relayoutLog() {
	for _, d := range m.dialogs {
		if l, ok := d.(*logDialog); ok {
			l.layout()
		}
	}
}
