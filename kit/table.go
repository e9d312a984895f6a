package kit

import (
	"cmp"
	"sort"
	"strconv"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/theme"
)

// Column describes one table column.
type Column struct {
	Title string
	// Min and Max bound the width; Max 0 means the widest cell.
	Min, Max int
	// Priority orders what goes first when the terminal is narrow: columns
	// shrink towards Min, then the lowest priority columns are dropped.
	Priority int
	Right    bool // right-aligned (numbers)
	// Newest: a cell wider than the column keeps its end (a history whose
	// newest reading is last), not its start.
	Newest bool
}

// Row is one table row. Cells are plain text (no escape sequences).
type Row struct {
	ID    string
	Cells []string
	// Kinds colours cells by meaning (nil: none). Status cells use it;
	// the word is always in the cell too.
	Kinds []theme.Kind
}

// TableKeys are the table's bindings; they are also listed in help.
type TableKeys struct {
	Up, Down, PageUp, PageDown, Top, Bottom, Filter key.Binding
	// While the filter is typed: keep it and go back to the rows, or
	// clear it.
	FilterKeep, FilterClear key.Binding
}

// DefaultTableKeys are vi- and arrow-style bindings.
var DefaultTableKeys = TableKeys{
	Up:       BindHelp("up/k", "move up", "up", "k"),
	Down:     BindHelp("down/j", "move down", "down", "j"),
	PageUp:   Bind("pgup", "page up", "ctrl+b"),
	PageDown: BindHelp("pgdn", "page down", "pgdown", "ctrl+f"),
	Top:      BindHelp("g/home", "first row", "home", "g"),
	Bottom:   BindHelp("G/end", "last row", "end", "G"),
	Filter:   Bind("/", "filter"),

	FilterKeep:  Bind("enter", "keep filter"),
	FilterClear: Bind("esc", "clear filter"),
}

const gutter = 2 // "> " before each row

// Table is a fast list: it renders only the visible rows, fits column
// widths to the terminal, filters with "/" (cached), and keeps the cursor
// on the same row ID when rows are replaced. Sorting is the caller's: rows
// are shown in the order given.
type Table struct {
	common *Common
	Keys   TableKeys
	// Empty is shown when there are no rows at all.
	Empty string
	// TypeFilters: a typed character that is none of the table's keys,
	// or a paste, starts the filter (a choice to make: a picker, a
	// wizard's list of services), so a name typed or pasted without "/"
	// first is not lost. Only for
	// a table whose owner takes every key (a dialog, a CapturesKeys step):
	// elsewhere the global keys would take a name's first letter. The
	// owner matches its own keys before it hands the table the key.
	TypeFilters bool
	// Choosable, when set, says which rows may be chosen (a wizard's list
	// marks the others): when the filter changes, a cursor on a row it
	// refuses moves to the first shown row it allows (StartOn), so the
	// name typed lands on a row that enter takes.
	Choosable func(id string) bool

	cols    []Column
	rows    []Row
	hay     []string // lower-case text of each row, for the filter
	natural []int    // widest cell per column (capped), over all rows
	view    []int    // indices into rows, after the filter
	cursor  int      // index into view
	offset  int      // first visible index into view
	selID   string
	lost    string // the row a refresh dropped from under the cursor (SetRows)

	filter    string
	filtering bool
	input     Input

	width, height int
	widths        []int // per column; 0 = dropped
	header        string
	headerTheme   *theme.Theme // the theme header was rendered with
	sortCol       int
	sortDesc      bool
}

// NewTable returns an empty table.
func NewTable(c *Common, cols []Column) *Table {
	in := NewInput("/", "filter")
	t := &Table{common: c, Keys: DefaultTableKeys, cols: cols, input: in, sortCol: -1}
	t.natural = make([]int, len(cols))
	t.measure()
	return t
}

// SetSortIndicator marks column col (or -1: none) as the sort column.
func (t *Table) SetSortIndicator(col int, desc bool) {
	t.sortCol, t.sortDesc = col, desc
	t.relayout()
}

// SetRows replaces the rows, keeping the cursor on the selected ID. A
// refresh that drops the row under the cursor moves it to a row that may
// be chosen (Choosable), and back to the row dropped when a refresh lists
// it again, unless the cursor was moved meanwhile: a service that leaves
// a wizard's list for a while (it is being restored) is not swapped for
// its neighbour under the user's cursor.
func (t *Table) SetRows(rows []Row) {
	prev := t.selID
	t.rows = rows
	t.hay = make([]string, len(rows))
	for i, r := range rows {
		t.hay[i] = strings.ToLower(strings.Join(r.Cells, "\x00"))
	}
	t.measure()
	t.refilter()
	if t.lost != "" && t.Select(t.lost) {
		return
	}
	if prev != "" && t.selID != prev {
		lost := cmp.Or(t.lost, prev)
		if t.Choosable != nil {
			t.StartOn(t.Choosable)
		}
		t.lost = lost
	}
}

// SetSize sets the area of the table, filter line included.
func (t *Table) SetSize(w, h int) {
	t.width, t.height = w, h
	t.relayout()
	t.clamp()
	t.fitInput()
}

// filterCount is what the filter line says after the filter: " 3 of 8".
func (t *Table) filterCount() string {
	return " " + strconv.Itoa(len(t.view)) + " of " + strconv.Itoa(len(t.rows))
}

// fitInput gives the filter input the width its line leaves it.
func (t *Table) fitInput() { t.input.SetWidth(max(1, t.width-len(t.filterCount())-3)) }

// Height is the table's area height.
func (t *Table) Height() int { return t.height }

// Len is the number of rows shown (after the filter); Total all rows.
func (t *Table) Len() int   { return len(t.view) }
func (t *Table) Total() int { return len(t.rows) }

// Shown reports whether column col has room at the table's width (which
// columns show depends on the width alone; see relayout).
func (t *Table) Shown(col int) bool { return col >= 0 && col < len(t.widths) && t.widths[col] > 0 }

// Selected returns the row under the cursor.
func (t *Table) Selected() (Row, bool) {
	if t.cursor < 0 || t.cursor >= len(t.view) {
		return Row{}, false
	}
	return t.rows[t.view[t.cursor]], true
}

// SelectedID is the ID of the row under the cursor, or "".
func (t *Table) SelectedID() string {
	r, ok := t.Selected()
	if !ok {
		return ""
	}
	return r.ID
}

// Select moves the cursor to the row with the ID, if it is shown.
func (t *Table) Select(id string) bool {
	for i, ri := range t.view {
		if t.rows[ri].ID == id {
			t.cursor = i
			t.selID, t.lost = id, ""
			t.clamp()
			return true
		}
	}
	return false
}

// StartOn moves the cursor onto the first shown row that ok allows,
// unless the row under it is allowed already; it reports whether the
// cursor is on an allowed row. Pickers call it when what may be chosen
// changes (the first listing, the next step), never on a refresh, so a
// row the user moved to stays under the cursor.
func (t *Table) StartOn(ok func(id string) bool) bool {
	if id := t.SelectedID(); id != "" && ok(id) {
		return true
	}
	for _, ri := range t.view {
		if id := t.rows[ri].ID; ok(id) {
			return t.Select(id)
		}
	}
	return false
}

// Cursor is the cursor's index among the shown rows.
func (t *Table) Cursor() int { return t.cursor }

// Update handles navigation and the filter. It reports whether it used the
// message.
func (t *Table) Update(msg tea.Msg) (bool, tea.Cmd) {
	kp, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if p, paste := msg.(tea.PasteMsg); paste && t.TypeFilters && !t.filtering {
			// a name pasted where one is typed: the filter starts with it
			return t.pasteToFilter(p)
		}
		if t.filtering {
			// the cursor's blink, or a paste: a pasted name filters at once
			return false, t.typed(msg)
		}
		return false, nil
	}
	if t.filtering {
		switch s := kp.String(); {
		case key.Matches(kp, t.Keys.FilterClear):
			t.filtering = false
			t.input.Blur()
			t.SetFilter("")
			return true, nil
		case key.Matches(kp, t.Keys.FilterKeep):
			t.filtering = false
			t.input.Blur()
			return true, nil
		case t.TypeFilters && key.Matches(kp, t.Keys.Filter):
			// "/" where a name is typed: the filter is already being
			// typed, and no name holds it
			return true, nil
		case s == "up" || s == "down" || s == "pgup" || s == "pgdown":
			// the arrows move in the rows while typing: they fall through
			// to Keys.Up/Down/PageUp/PageDown below. Picked out by name on
			// purpose: those bindings' other keys (j, k, ctrl+b, ctrl+f)
			// are text while the filter is typed.
		default:
			return true, t.typed(msg)
		}
	}
	page := max(1, t.rowsHeight()-1)
	switch {
	case key.Matches(kp, t.Keys.Up):
		t.move(-1)
	case key.Matches(kp, t.Keys.Down):
		t.move(1)
	case key.Matches(kp, t.Keys.PageUp):
		t.move(-page)
	case key.Matches(kp, t.Keys.PageDown):
		t.move(page)
	case key.Matches(kp, t.Keys.Top):
		t.move(-len(t.view))
	case key.Matches(kp, t.Keys.Bottom):
		t.move(len(t.view))
	case key.Matches(kp, t.Keys.Filter):
		t.filtering = true
		t.input.SetValue(t.filter)
		t.input.CursorEnd()
		return true, t.input.Focus()
	case key.Matches(kp, t.Keys.FilterClear) && t.filter != "":
		t.SetFilter("")
	case t.TypeFilters:
		return t.typeToFilter(kp)
	default:
		return false, nil
	}
	return true, nil
}

func (t *Table) move(d int) {
	t.cursor += d
	t.lost = ""
	t.clamp()
	if r, ok := t.Selected(); ok {
		t.selID = r.ID
	}
}

// Cut reports that t has more rows than its height shows.
func (t *Table) Cut() bool { return len(t.view) > t.rowsHeight() }

// MoreRows is the line under a table cut to its height (MoreOf): how many
// rows are below and above those shown and the keys that move there,
// "~ down/j: 5 more services, up/k: 2 services above"; "" when every row
// shows (or none can).
func (t *Table) MoreRows(one, many string) string {
	rh := t.rowsHeight()
	if !t.Cut() || rh == 0 {
		return ""
	}
	return MoreOf(t.common, t.Keys.Down, t.Keys.Up, t.offset, max(0, len(t.view)-t.offset-rh), one, many)
}

func (t *Table) rowsHeight() int {
	h := t.height - 1 // header
	if t.filtering || t.filter != "" {
		h--
	}
	return max(0, h)
}

func (t *Table) clamp() {
	if t.cursor >= len(t.view) {
		t.cursor = len(t.view) - 1
	}
	if t.cursor < 0 {
		t.cursor = 0
	}
	rh := t.rowsHeight()
	if t.cursor < t.offset {
		t.offset = t.cursor
	}
	if rh > 0 && t.cursor >= t.offset+rh {
		t.offset = t.cursor - rh + 1
	}
	if maxOff := len(t.view) - rh; t.offset > maxOff {
		t.offset = max(0, maxOff)
	}
}

func (t *Table) measure() {
	for i, c := range t.cols {
		w := cellWidth(c.Title)
		for _, r := range t.rows {
			if i < len(r.Cells) {
				w = max(w, cellWidth(r.Cells[i]))
			}
		}
		if c.Max > 0 && w > c.Max {
			w = c.Max
		}
		t.natural[i] = w
	}
	t.relayout()
}

// relayout fits the columns into the width. Which columns show depends on
// the width alone, never on the rows (a row turning pending must not make
// a column vanish): the lowest priority columns are dropped until the
// others fit at their Min. Those then get their natural widths if they
// fit, else shrink towards Min, lowest priority first.
func (t *Table) relayout() {
	n := len(t.cols)
	if len(t.widths) != n {
		t.widths = make([]int, n)
	}
	avail := t.width - gutter
	shown := make([]bool, n)
	for i := range shown {
		shown[i] = true
	}
	order := make([]int, n) // by priority ascending
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return t.cols[order[a]].Priority < t.cols[order[b]].Priority })
	for _, drop := range order {
		least, count := 0, 0
		for i, c := range t.cols {
			if shown[i] {
				least += c.Min
				if i == t.sortCol {
					least = least - c.Min + max(c.Min, cellWidth(c.Title)+2)
				}
				count++
			}
		}
		if count <= 1 || least+2*(count-1) <= avail {
			break
		}
		shown[drop] = false
	}
	for {
		total, count := 0, 0
		for i, c := range t.cols {
			t.widths[i] = 0
			if shown[i] {
				w := t.natural[i]
				if i == t.sortCol {
					w = max(w, cellWidth(c.Title)+2) // room for the sort mark
				}
				t.widths[i] = w
				total += w
				count++
			}
		}
		total += 2 * max(0, count-1)
		excess := total - avail
		for _, i := range order {
			if excess <= 0 {
				break
			}
			if !shown[i] {
				continue
			}
			give := min(excess, t.widths[i]-t.cols[i].Min)
			if give > 0 {
				t.widths[i] -= give
				excess -= give
			}
		}
		if excess <= 0 || count <= 1 {
			if excess > 0 {
				for i := range t.widths {
					if shown[i] {
						t.widths[i] = max(1, t.widths[i]-excess)
					}
				}
			}
			break
		}
		for _, i := range order {
			if shown[i] {
				shown[i] = false
				break
			}
		}
	}
	th := t.common.Theme
	t.header, t.headerTheme = t.headerLine(th), th
}

// headerLine renders the column titles, with the sort mark.
func (t *Table) headerLine(th *theme.Theme) string {
	line := strings.Repeat(" ", gutter) + t.joinCells(func(i int, c Column, w int) string {
		title := c.Title
		if i == t.sortCol {
			if t.sortDesc {
				title += " " + th.Glyphs.SortDesc
			} else {
				title += " " + th.Glyphs.SortAsc
			}
		}
		return fit(title, w, c.Right, th.Glyphs.Ellipsis)
	})
	return th.TableHdr.Render(strings.TrimRight(line, " "))
}

// joinCells joins the shown columns' cells, two spaces apart.
func (t *Table) joinCells(cell func(i int, c Column, w int) string) string {
	var b strings.Builder
	first := true
	for i, c := range t.cols {
		w := t.widths[i]
		if w == 0 {
			continue
		}
		if !first {
			b.WriteString("  ")
		}
		first = false
		b.WriteString(cell(i, c, w))
	}
	return b.String()
}

// View renders the header, the visible rows and the filter line.
func (t *Table) View() string {
	th := t.common.Theme
	header := t.header
	if th != t.headerTheme {
		header = t.headerLine(th) // the theme changed (background detected)
	}
	var b strings.Builder
	lines := 0
	b.WriteString(header)
	lines++
	rh := t.rowsHeight()
	if len(t.rows) == 0 && t.Empty != "" && rh > 0 {
		// wrapped whole, as far as the rows' lines go: a listing's error
		// (its status, message and trace ID) is read here
		for _, l := range t.emptyLines(rh) {
			b.WriteString("\n  ")
			b.WriteString(th.Muted.Render(l))
			lines++
		}
	} else if len(t.view) == 0 && rh > 0 {
		b.WriteString("\n  ")
		b.WriteString(th.Muted.Render("no rows match the filter"))
		lines++
	}
	end := min(len(t.view), t.offset+rh)
	var line strings.Builder
	for vi := t.offset; vi < end; vi++ {
		r := &t.rows[t.view[vi]]
		sel := vi == t.cursor
		line.Reset()
		if sel {
			line.WriteString(th.Glyphs.Cursor)
			line.WriteString(strings.Repeat(" ", max(0, gutter-len(th.Glyphs.Cursor))))
		} else {
			line.WriteString("  ")
		}
		line.WriteString(t.joinCells(func(i int, c Column, w int) string {
			cell := ""
			if i < len(r.Cells) {
				cell = r.Cells[i]
			}
			if c.Newest && cellWidth(cell) > w {
				cell = ansi.TruncateLeft(cell, cellWidth(cell)-w, "")
			}
			txt := fit(cell, w, c.Right, th.Glyphs.Ellipsis)
			if !sel && i < len(r.Kinds) && r.Kinds[i] != theme.KindNeutral {
				txt = kindRender(th, r.Kinds[i], txt)
			}
			return txt
		}))
		b.WriteByte('\n')
		if sel {
			b.WriteString(th.Selected.Render(padRight(line.String(), t.width)))
		} else {
			b.WriteString(strings.TrimRight(line.String(), " "))
		}
		lines++
	}
	if t.filtering || t.filter != "" {
		for ; lines < t.height-1; lines++ {
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
		count := t.filterCount()
		if t.filtering {
			b.WriteString(t.input.View())
		} else {
			b.WriteString(th.Accent.Render("/" + t.filter))
		}
		b.WriteString(th.Muted.Render(count))
	}
	return b.String()
}

// emptyLines is Empty wrapped to the table's width in at most n lines,
// the last cut (ellipsis) when it needs more.
func (t *Table) emptyLines(n int) []string {
	w := max(1, t.width-gutter)
	ls := strings.Split(Wrap(t.Empty, w), "\n")
	if len(ls) > n {
		ls = ls[:n]
		ls[n-1] = ansi.Truncate(ls[n-1]+" "+t.common.Theme.Glyphs.Ellipsis, w, t.common.Theme.Glyphs.Ellipsis)
	}
	for i, l := range ls {
		ls[i] = ansi.Truncate(l, w, t.common.Theme.Glyphs.Ellipsis)
	}
	return ls
}

// kindRender colours a cell. Styles are cached per theme: rendering only
// visible rows keeps a frame cheap, and this keeps each cell cheap.
func kindRender(th *theme.Theme, k theme.Kind, s string) string {
	pre, post := kindSeq(th, k)
	if pre == "" {
		return s
	}
	// keep trailing padding outside the colour
	trim := strings.TrimRight(s, " ")
	return pre + trim + post + s[len(trim):]
}

type seqKey struct {
	th *theme.Theme
	k  theme.Kind
}

var (
	seqMu    sync.Mutex
	seqCache = map[seqKey][2]string{}
)

func kindSeq(th *theme.Theme, k theme.Kind) (string, string) {
	key := seqKey{th, k}
	seqMu.Lock()
	defer seqMu.Unlock()
	if v, ok := seqCache[key]; ok {
		return v[0], v[1]
	}
	const probe = "\x01"
	r := th.Kind(k).Render(probe)
	pre, post, ok := strings.Cut(r, probe)
	if !ok {
		pre, post = "", ""
	}
	if len(seqCache) > 64 {
		clear(seqCache)
	}
	seqCache[key] = [2]string{pre, post}
	return pre, post
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 || s[i] < 0x20 {
			return false
		}
	}
	return true
}

func cellWidth(s string) int {
	if isASCII(s) {
		return len(s)
	}
	return ansi.StringWidth(s)
}

const spaces = "                                                                                                                                "

func pad(n int) string {
	if n <= 0 {
		return ""
	}
	if n <= len(spaces) {
		return spaces[:n]
	}
	return strings.Repeat(" ", n)
}

// fit truncates or pads s to exactly w cells.
func fit(s string, w int, right bool, tail string) string {
	if w <= 0 {
		return ""
	}
	cw := cellWidth(s)
	if cw > w {
		if isASCII(s) && isASCII(tail) && len(tail) < w {
			return s[:w-len(tail)] + tail
		}
		s = ansi.Truncate(s, w, tail)
		cw = ansi.StringWidth(s)
	}
	if right {
		return pad(w-cw) + s
	}
	return s + pad(w-cw)
}

// padRight pads a rendered line to w cells.
func padRight(s string, w int) string {
	return s + pad(w-lipgloss.Width(s))
}
