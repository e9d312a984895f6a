package kit

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// ListView is the list part of every list screen (services, backups,
// restores, replication, the stored credentials): a table, a detail pane
// for the selected row, a status line above them, and the keys that work
// on them. A screen embeds one and adds only its columns, its rows, its
// detail sections and its own keys (gh-dash's sections embed one
// BaseModel the same way).
//
// The status line reads " Title  <count>  <the screen's notes>  showing
// last data": the count is "loading" until the first answer, "N" or "N of
// M" while a filter hides rows; "showing last data" appears once a
// refresh failed after data had arrived.
//
// Keys, in order: while the filter is typed, every key goes to the table;
// enter shows or hides the detail pane; esc hides the pane, then clears
// the filter; J/K scroll the pane; the rest moves in the table.
type ListView struct {
	common *Common
	Table  *Table
	Detail *Detail
	Keys   ListKeys
	title  string
	noun   string

	// DetailOf returns the detail pane's title and sections for the row
	// with the given ID (ok false: no such row). Nil: the screen fills
	// Detail itself.
	DetailOf func(id string) (title string, sections []Section, ok bool)
	// Scroll, when set, is what J/K scroll (by n lines, negative: up)
	// instead of Detail: the pane of a screen that draws its own.
	Scroll func(n int)

	// Rebuild, when set, makes the rows again from the screen's data: after
	// the user chooses another order (SetSort), and on the clock's tick
	// (ClockMsg) while Moving says the rows show times that move (a
	// running restore's elapsed time); nil Moving: on every tick.
	Rebuild func()
	Moving  func() bool

	// NoSelection is what the pane says when no row is selected.
	NoSelection string

	// PaneOf, when set, is the screen's one switch over its modes: the
	// sub-view that takes the body while it is open (a form, a wizard),
	// nil while the list shows. The list then sizes the open pane with
	// itself (SetSize), asks it CapturesKeys and hands it the messages
	// that are not the screen's (Update); the screen's View and KeyMap
	// give the pane's (OpenPane) before the list's.
	PaneOf func() Pane

	// Changes are the screen's keys that change the account (new, delete,
	// stop): on a read-only profile KeyMap leaves them out of the footer
	// and "?" marks them refused (ReadOnlyHelp).
	Changes []key.Binding
	// OnRow are the screen's keys that act on the selected row (copy its
	// key, delete it): with no row selected (an empty list, a filter
	// that matches nothing) they leave the footer, with enter.
	OnRow []key.Binding

	// sort is the order the user chooses (SetSort).
	sort *listSort

	showDetail    bool
	detailID      string // the record the pane shows (its scroll is from its top)
	pinned        bool
	width, height int
	loaded        bool
	loadErr       error
}

// ListKeys are the keys of a list; Sort and Reverse answer only in a list
// given orders (SetSort).
type ListKeys struct {
	Detail, Back, ScrollDown, ScrollUp key.Binding
	Sort, Reverse                      key.Binding
}

// Order is one of a list's sort orders: its name ("created") and the
// direction s first sorts it in.
type Order struct {
	Name      string
	DescFirst bool
}

// Asc is an order first sorted ascending (names, types).
func Asc(name string) Order { return Order{Name: name} }

// Desc is an order first sorted descending (times, sizes: newest or
// largest first).
func Desc(name string) Order { return Order{Name: name, DescFirst: true} }

// listSort is a list's order: one of orders, ascending or descending.
type listSort struct {
	orders []Order
	by     int
	desc   bool
}

// SetSort gives the list orders the user cycles through with s (each in
// its own first direction) and reverses with S; the list starts on
// orders[start] in its first direction. Rebuild re-sorts the rows.
func (l *ListView) SetSort(start int, orders ...Order) {
	l.sort = &listSort{orders: orders, by: start, desc: orders[start].DescFirst}
	names := make([]string, len(orders))
	for i, o := range orders {
		names[i] = o.Name
	}
	l.Keys.Sort = Bind("s", "sort: "+strings.Join(names, "/"))
	l.Keys.Reverse = Bind("S", "reverse sort")
}

// SortOrder is the order chosen: its index in SetSort's orders, and
// whether it is descending.
func (l *ListView) SortOrder() (by int, desc bool) {
	if l.sort == nil {
		return 0, false
	}
	return l.sort.by, l.sort.desc
}

// SortNote is the status line's note of the order: "sort: name ^".
func (l *ListView) SortNote() string {
	if l.sort == nil {
		return ""
	}
	arrow := l.common.Theme.Glyphs.SortAsc
	if l.sort.desc {
		arrow = l.common.Theme.Glyphs.SortDesc
	}
	return "sort: " + l.sort.orders[l.sort.by].Name + " " + arrow
}

// NewListKeys returns the list keys every list screen shares.
func NewListKeys() ListKeys {
	return ListKeys{
		Detail:     Bind("enter", "details"),
		Back:       Bind("esc", "back"),
		ScrollDown: Bind("J", "scroll details down", "ctrl+d"),
		ScrollUp:   Bind("K", "scroll details up", "ctrl+u"),
	}
}

// NewListView builds a list titled title of things called noun
// ("services": "loading services…", "could not load services: …").
func NewListView(c *Common, title, noun string, cols []Column) *ListView {
	l := &ListView{common: c, Table: NewTable(c, cols), Detail: NewDetail(c), Keys: NewListKeys(), title: title, noun: noun,
		NoSelection: "Nothing selected"}
	l.Table.Empty = "loading " + noun + c.Theme.Glyphs.Ellipsis
	return l
}

// SetSize gives the list its area: the status line, then the table and
// the pane (side by side from WideWidth, stacked below it).
func (l *ListView) SetSize(w, h int) {
	l.width, l.height = w, h
	l.layout()
	if p := l.OpenPane(); p != nil {
		p.SetSize(w, h)
	}
}

// OpenPane is the sub-view open instead of the list (PaneOf), or nil.
func (l *ListView) OpenPane() Pane {
	if l.PaneOf == nil {
		return nil
	}
	return l.PaneOf()
}

// CapturesKeys implements kit.Screen for a list screen: the open pane's
// answer, else whether the filter is being typed.
func (l *ListView) CapturesKeys() bool {
	if p := l.OpenPane(); p != nil {
		return p.CapturesKeys()
	}
	return l.Capturing()
}

func (l *ListView) layout() {
	if l.pinned {
		h := l.height - 1
		tableH := max(4, h/2)
		l.Table.SetSize(l.width, tableH)
		l.Detail.SetSize(l.width, h-tableH-1)
		return
	}
	LayoutSplit(l.Table, l.Detail, l.showDetail, l.width, l.height-1)
}

// PinPane keeps the pane open under the table, half and half, at any
// width: for a short list whose detail wants the width (a service's
// schedules and their next runs). enter does not toggle it and esc does
// not hide it.
func (l *ListView) PinPane() {
	l.pinned, l.showDetail = true, true
	l.layout()
	l.RefreshDetail()
}

// SetTitle changes the title of the status line (a screen whose title
// names what it shows: "Backups of orders-prod").
func (l *ListView) SetTitle(title string) { l.title = title }

// Size is the area last given by SetSize.
func (l *ListView) Size() (w, h int) { return l.width, l.height }

// DetailShown reports whether the detail pane is open.
func (l *ListView) DetailShown() bool { return l.showDetail }

// ShowDetail opens or closes the detail pane.
func (l *ListView) ShowDetail(show bool) {
	if l.showDetail == show || l.pinned {
		return
	}
	l.showDetail = show
	if show {
		l.detailID = "" // opened again: from the top
	}
	l.layout()
	l.RefreshDetail()
}

// SetRows hands the table its rows (the cursor stays on the same ID) and
// refreshes the pane.
func (l *ListView) SetRows(rows []Row) {
	l.Table.SetRows(rows)
	l.RefreshDetail()
}

// Loaded records an answer: data is shown, the error is cleared, and
// empty is what the table says when there are no rows.
func (l *ListView) Loaded(empty string) {
	l.loaded, l.loadErr = true, nil
	l.Table.Empty = empty
}

// Invite is what an empty list says: what ("no services yet"), then how
// to make one ("press n to create one"), unless the profile is read-only,
// where that key is refused.
func Invite(c *Common, what, how string) string {
	switch {
	case c.ReadOnly && c.ReadOnlyFlag:
		return what + " (read-only: --read-only)"
	case c.ReadOnly:
		return what + " (read-only profile)"
	}
	return what + ": " + how
}

// Failed records a refresh that failed. The last data stays; before any
// data the table says why.
func (l *ListView) Failed(err error) {
	l.loadErr = err
	if !l.loaded {
		l.Table.Empty = "could not load " + l.noun + ": " + err.Error()
	}
}

// IsLoaded reports that data has arrived at least once.
func (l *ListView) IsLoaded() bool { return l.loaded }

// Err is the last refresh's error (nil after a good one).
func (l *ListView) Err() error { return l.loadErr }

// Stale reports that the data shown is the last good data, not current.
func (l *ListView) Stale() bool { return l.loaded && l.loadErr != nil }

// Reset forgets the data: the list says it is loading again.
func (l *ListView) Reset() {
	l.loaded, l.loadErr = false, nil
	l.Table.Empty = "loading " + l.noun + l.common.Theme.Glyphs.Ellipsis
	l.Table.SetRows(nil)
	l.RefreshDetail()
}

// Capturing reports that the filter is being typed (every key is the
// list's).
func (l *ListView) Capturing() bool { return l.Table.Filtering() }

// SelectedID is the ID of the row under the cursor ("" when none).
func (l *ListView) SelectedID() string { return l.Table.SelectedID() }

// RefreshDetail fills the pane for the selected row.
func (l *ListView) RefreshDetail() {
	if !l.showDetail || l.DetailOf == nil {
		return
	}
	id := l.Table.SelectedID()
	if id != l.detailID {
		// another record (or the pane opened again): from its top, where
		// its name and status are
		l.Detail.Top()
		l.detailID = id
	}
	title, secs, ok := l.DetailOf(id)
	if !ok {
		l.Detail.SetContent(l.NoSelection, nil)
		return
	}
	l.Detail.SetContent(title, secs)
}

// BackUsed reports that esc (Keys.Back) has something to do on the list:
// a filter being typed or set, or a detail pane it can hide.
func (l *ListView) BackUsed() bool {
	return l.Table.Filtering() || l.Table.Filter() != "" || l.showDetail && !l.pinned
}

// HandleKey handles the list's own keys and reports whether it used the
// key. A screen calls it after its own keys, or first while Capturing.
func (l *ListView) HandleKey(msg tea.KeyPressMsg) (bool, tea.Cmd) {
	if l.Table.Filtering() {
		_, cmd := l.Table.Update(msg)
		l.RefreshDetail()
		return true, cmd
	}
	k := l.Keys
	switch {
	case key.Matches(msg, k.Detail) && !l.pinned:
		l.ShowDetail(!l.showDetail)
		return true, nil
	case key.Matches(msg, k.Back):
		// the last opened goes first: the pane (the footer says "esc
		// close" while it is open), then a kept filter
		if l.showDetail && !l.pinned {
			l.ShowDetail(false)
			return true, nil
		}
		if l.Table.Filter() != "" {
			l.Table.SetFilter("")
			l.RefreshDetail()
			return true, nil
		}
		return false, nil
	case l.sort != nil && key.Matches(msg, k.Sort):
		l.sort.by = (l.sort.by + 1) % len(l.sort.orders)
		l.sort.desc = l.sort.orders[l.sort.by].DescFirst
		l.rebuild()
		return true, nil
	case l.sort != nil && key.Matches(msg, k.Reverse):
		l.sort.desc = !l.sort.desc
		l.rebuild()
		return true, nil
	case ScrollDir(msg, k.ScrollDown, k.ScrollUp) != 0:
		l.scroll(3 * ScrollDir(msg, k.ScrollDown, k.ScrollUp))
		return true, nil
	}
	used, cmd := l.Table.Update(msg)
	if used {
		l.RefreshDetail()
	}
	return used, cmd
}

func (l *ListView) scroll(n int) {
	if l.Scroll != nil {
		l.Scroll(n)
		return
	}
	l.Detail.ScrollBy(n)
}

func (l *ListView) rebuild() {
	if l.Rebuild != nil {
		l.Rebuild()
	}
}

// Update rebuilds the rows on the clock's tick (Rebuild, Moving), and
// passes a message that is not the screen's own (a form's internals, the
// filter input's cursor) to the open pane when it takes messages
// (PaneUpdater), to nothing while a pane that takes none is open, else to
// the table.
func (l *ListView) Update(msg tea.Msg) tea.Cmd {
	if _, ok := msg.(ClockMsg); ok {
		if l.Moving == nil || l.Moving() {
			l.rebuild()
		}
		return nil
	}
	if p := l.OpenPane(); p != nil {
		if u, ok := p.(PaneUpdater); ok {
			return u.Update(msg)
		}
		return nil
	}
	_, cmd := l.Table.Update(msg)
	return cmd
}

// CountText is "loading", the number of rows, or "N of M" under a filter.
func (l *ListView) CountText() string {
	if !l.loaded && l.loadErr == nil {
		return "loading"
	}
	if l.Table.Filter() != "" {
		return fmt.Sprintf("%d of %d", l.Table.Len(), l.Table.Total())
	}
	return strconv.Itoa(l.Table.Total())
}

// StatusLine is the line above the table: the title in bold, then count
// (CountText when ""), then each note as given (already styled), then
// "showing last data" when the data is stale. It is cut to the width.
func (l *ListView) StatusLine(count string, notes ...string) string {
	th := l.common.Theme
	if count == "" {
		count = l.CountText()
	}
	status := th.Bold.Render(" "+l.title) + " " + th.Muted.Render(count)
	for _, n := range notes {
		if n != "" {
			status += "  " + n
		}
	}
	if l.Stale() {
		status += "  " + th.Warn.Render("showing last data")
	}
	return ansi.Truncate(status, l.width, th.Glyphs.Ellipsis)
}

// View renders the status line (see StatusLine) and the table with its
// pane.
func (l *ListView) View(count string, notes ...string) string {
	th := l.common.Theme
	if l.pinned {
		return l.StatusLine(count, notes...) + "\n" + Stacked(th, l.Table.View(), l.Table.Height(), l.Detail.View(), l.width)
	}
	return l.StatusLine(count, notes...) + "\n" + ViewSplit(th, l.Table, l.Detail, l.showDetail, l.width)
}

// KeyMap is the help of a list: while the filter is typed, its two keys;
// otherwise short for the footer, and for "?" the detail key, the
// screen's keys and the pane's scroll keys, then the table's movement,
// the filter and back.
func (l *ListView) KeyMap(short []key.Binding, screen ...key.Binding) Keys {
	if l.Table.Filtering() {
		return filterKeys(l.Table.Keys)
	}
	k := l.Keys
	if l.Table.SelectedID() == "" && len(short) > 0 {
		noRow := append([]key.Binding{k.Detail}, l.OnRow...)
		short = slices.DeleteFunc(slices.Clone(short), func(b key.Binding) bool {
			return slices.ContainsFunc(noRow, func(r key.Binding) bool { return r.Help() == b.Help() })
		})
	}
	if l.sort != nil {
		screen = append(slices.Clip(screen), k.Sort, k.Reverse)
	}
	first := append(append([]key.Binding{k.Detail}, screen...), k.ScrollDown, k.ScrollUp)
	if l.showDetail && len(short) > 0 {
		// the pane is open: how to scroll it and close it come first
		// named by the bindings' own keys (J/K unless a screen changed them)
		scroll := BindHelp(k.ScrollDown.Help().Key+"/"+k.ScrollUp.Help().Key, "scroll",
			slices.Concat(k.ScrollDown.Keys(), k.ScrollUp.Keys())...)
		back := k.Back
		if !l.pinned {
			back = BindHelp(k.Back.Help().Key, "close", k.Back.Keys()...)
		}
		short = append([]key.Binding{short[0], scroll, back}, short[1:]...)
	} else if l.Table.Filter() != "" && len(short) > 0 {
		// a kept filter: esc clears it, as the footer says
		clearF := BindHelp(k.Back.Help().Key, "clear filter", k.Back.Keys()...)
		short = append([]key.Binding{short[0], clearF}, short[1:]...)
	}
	return ReadOnlyHelp(l.common, Keys{Short: short, Full: [][]key.Binding{first, l.NavKeys()}}, l.Changes...)
}

// ReadOnlyHelp is the help k on a read-only profile: the keys among
// changes (those that change the account) leave the footer, and "?"
// lists them as refused ("n new service (read-only)"), so the keys the
// footer shows are keys that work. Elsewhere it is k.
func ReadOnlyHelp(c *Common, k Keys, changes ...key.Binding) Keys {
	if !c.ReadOnly || len(changes) == 0 {
		return k
	}
	change := func(b key.Binding) bool {
		return slices.ContainsFunc(changes, func(ch key.Binding) bool { return ch.Help() == b.Help() })
	}
	out := Keys{Short: slices.DeleteFunc(slices.Clone(k.Short), change), Title: k.Title}
	for _, col := range k.FullHelp() {
		marked := make([]key.Binding, len(col))
		for i, b := range col {
			if change(b) && b.Enabled() {
				b = BindHelp(b.Help().Key, b.Help().Desc+" (read-only)", b.Keys()...)
			}
			marked[i] = b
		}
		out.Full = append(out.Full, marked)
	}
	return out
}

// NavKeys are the table's movement keys, the filter and back.
func (l *ListView) NavKeys() []key.Binding {
	t := l.Table.Keys
	return []key.Binding{t.Up, t.Down, t.PageUp, t.PageDown, t.Top, t.Bottom, t.Filter, l.Keys.Back}
}

// FilterKeys is the help while a filter is typed (the default table keys).
func FilterKeys() Keys { return filterKeys(DefaultTableKeys) }

func filterKeys(t TableKeys) Keys {
	b := []key.Binding{t.FilterKeep, t.FilterClear}
	return KeysOf(b...)
}

// Notes joins non-empty status notes with two spaces.
func Notes(notes ...string) string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "  ")
}
