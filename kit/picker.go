package kit

import (
	"slices"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/theme"
)

// PickedMsg is the choice of a Picker: ID is the chosen row's ("" when
// cancelled), Service the chosen service (nil when cancelled, or for a
// picker of other things).
type PickedMsg struct {
	Purpose string
	ID      string
	Service *api.Service
}

// Picker is a dialog to choose a service (for ":backups" without an
// argument, the restore target, a replication primary…). It filters with
// "/" like every list, or as soon as a name is typed (Table.TypeFilters):
// every printable key is the name's, q, j, k, g and G too (a name such as
// "qa4-svc" or "gcp-eu" is typed, not a key); the arrows, pgup/pgdn and
// home/end move and esc cancels.
type Picker struct {
	common  *Common
	title   string
	purpose string
	table   *Table
	byID    map[string]api.Service
	done    bool
	width   int
	keys    pickerKeys
	// one and many name the rows in the line under a cut list ("down:
	// 5 more services").
	one, many string
	// tight: the area is too short for every row, so the line under the
	// title is a row too (SetSize).
	tight bool
}

// pickerKeys are the picker's own bindings; "/" and the movement are the
// table's. The hint line is generated from them.
type pickerKeys struct {
	Choose, Cancel key.Binding
}

func newPickerKeys() pickerKeys {
	return pickerKeys{
		Choose: Bind("enter", "choose"),
		Cancel: Bind("esc", "cancel"),
	}
}

// TypedTableKeys are the keys of a table whose name is just typed
// (TypeFilters): DefaultTableKeys without the letters, which are the
// name's. "/" is no hint there (typing filters); it starts the filter
// as elsewhere and is not typed into a name.
var TypedTableKeys = TableKeys{
	Up:       Bind("up", "move up"),
	Down:     Bind("down", "move down"),
	PageUp:   DefaultTableKeys.PageUp,
	PageDown: DefaultTableKeys.PageDown,
	Top:      Bind("home", "first row"),
	Bottom:   Bind("end", "last row"),
	Filter:   key.NewBinding(key.WithKeys("/")),

	FilterKeep:  DefaultTableKeys.FilterKeep,
	FilterClear: DefaultTableKeys.FilterClear,
}

// TypedFilterHint is what a footer says of a typed table's filter: the
// name is just typed ("/" starts it too, as elsewhere).
var TypedFilterHint = BindHelp("type", "to filter", "/")

// TypedMoveHint is what a footer says of a typed table's movement: one
// entry, so a narrow footer keeps both arrows or neither.
var TypedMoveHint = BindHelp("up/down", "move", "up", "down")

// NewPicker builds a service picker over the given services.
func NewPicker(c *Common, title, purpose string, services []api.Service) *Picker {
	p := &Picker{common: c, title: title, purpose: purpose, byID: map[string]api.Service{}, keys: newPickerKeys(),
		one: "service", many: "services"}
	p.table = NewTable(c, []Column{
		{Title: "NAME", Min: 8, Max: 24, Priority: 9},
		{Title: "ID", Min: 8, Max: 16, Priority: 8},
		{Title: "STATUS", Min: 6, Max: 16, Priority: 7},
	})
	p.table.Empty = "no services known yet"
	p.table.TypeFilters, p.table.Keys = true, TypedTableKeys
	// by name, whatever order the listing came in (a copy: the caller's
	// slice may be shared)
	services = slices.Clone(services)
	sort.SliceStable(services, func(i, j int) bool {
		return strings.ToLower(services[i].Name) < strings.ToLower(services[j].Name)
	})
	rows := make([]Row, 0, len(services))
	for _, s := range services {
		p.byID[s.ID] = s
		rows = append(rows, Row{ID: s.ID, Cells: []string{s.Name, s.ID, s.Status},
			Kinds: []theme.Kind{0, 0, theme.StatusKind(s.Status)}})
	}
	p.table.SetRows(rows)
	return p
}

// Update handles keys.
func (p *Picker) Update(msg tea.Msg) (Dialog, tea.Cmd) {
	if p.done {
		return p, nil
	}
	switch ms := msg.(type) {
	case tea.MouseClickMsg:
		// the table starts under the box's border, title and blank line
		if i, ok := p.table.RowAt(ms.Y - p.bodyTop()); ok {
			if i != p.table.Cursor() {
				p.table.SelectIndex(i)
				return p, nil
			}
			msg = tea.KeyPressMsg{Code: tea.KeyEnter} // the selected row again: choose it
		}
	case tea.MouseWheelMsg:
		if ms.Button == tea.MouseWheelUp {
			p.table.Scroll(-1)
		} else {
			p.table.Scroll(1)
		}
		return p, nil
	}
	if kp, ok := msg.(tea.KeyPressMsg); ok && p.table.Filtering() && key.Matches(kp, p.keys.Choose) {
		p.table.Update(kp) // the name typed is kept; enter chooses at once
	}
	if kp, ok := msg.(tea.KeyPressMsg); ok && !p.table.Filtering() {
		switch {
		case key.Matches(kp, p.keys.Cancel):
			if p.table.Filter() == "" {
				p.done = true
				return p, p.reply("", nil)
			}
		case key.Matches(kp, p.keys.Choose):
			if r, ok := p.table.Selected(); ok {
				p.done = true
				if s, ok := p.byID[r.ID]; ok {
					return p, p.reply(r.ID, &s)
				}
				return p, p.reply(r.ID, nil)
			}
			return p, nil
		}
	}
	_, cmd := p.table.Update(msg)
	return p, cmd
}

func (p *Picker) reply(id string, s *api.Service) tea.Cmd {
	purpose := p.purpose
	return tea.Sequence(
		func() tea.Msg { return CloseDialogMsg{} },
		func() tea.Msg { return PickedMsg{Purpose: purpose, ID: id, Service: s} },
	)
}

// NewChoicePicker builds a picker over rows that are not services (the
// profiles of ":profile"), with the given columns; its answer carries the
// chosen row's ID. The row whose ID is current starts selected.
func NewChoicePicker(c *Common, title, purpose string, cols []Column, rows []Row, current string) *Picker {
	p := &Picker{common: c, title: title, purpose: purpose, byID: map[string]api.Service{}, keys: newPickerKeys(),
		one: "choice", many: "choices"}
	p.table = NewTable(c, cols)
	p.table.Empty = "nothing to choose from"
	p.table.TypeFilters, p.table.Keys = true, TypedTableKeys
	p.table.SetRows(rows)
	p.table.Select(current)
	return p
}

// The lines of a picker's box around its list: the borders, the title
// and the keys under the list.
const pickerChrome = 4

// SetSize implements Dialog. The list has what the area leaves, up to
// 12 lines, between a blank line under the title and one over the keys,
// which says how many rows are below and above when the list is cut. When
// the area is too short for every row, the line under the title is a row
// too: no blank line is left inside while rows are hidden.
func (p *Picker) SetSize(width, height int) {
	p.width = min(width, 64)
	room := height - pickerChrome
	h := min(12, room-2)
	p.tight = h < 12 && p.table.Total()+1 > h // +1: the header
	if p.tight {
		h = min(12, room-1)
	}
	p.table.SetSize(p.width-4, max(3, h))
}

// bodyTop is the box's line where the list starts.
func (p *Picker) bodyTop() int {
	if p.tight {
		return boxBodyTop - 1
	}
	return boxBodyTop
}

// View renders the picker.
func (p *Picker) View() string {
	th := p.common.Theme
	inner := max(10, p.width-4)
	below := ""
	if more := p.table.MoreRows(p.one, p.many); more != "" {
		below = th.Muted.Render(ansi.Truncate(more, inner, th.Glyphs.Ellipsis))
	}
	// the title, as Box draws it, then its blank line unless tight
	lines := []string{th.Title.Render(ansi.Truncate(p.title, inner, th.Glyphs.Ellipsis))}
	if !p.tight {
		lines = append(lines, "")
	}
	lines = append(lines, p.table.View(), below, th.Muted.Render(HintLine(p.keys.Choose, p.table.Keys.Filter, p.keys.Cancel)))
	return Box(th, "", strings.Join(lines, "\n"), p.width)
}
