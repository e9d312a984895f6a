package kit

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/theme"
)

// Field is one labelled value of a detail pane. A value with line breaks
// shows one item per line.
type Field struct {
	Label string
	Value string
	Kind  theme.Kind // colour of the value (the word is always there)
	// Breaks, when set, are the only runes the value breaks after (a
	// backup key's colons): its parts stay whole, and only a part wider
	// than the line is broken inside.
	Breaks string
}

// Section is a titled group of fields.
type Section struct {
	Title  string
	Fields []Field
}

// Detail is a scrollable pane of labelled fields.
type Detail struct {
	common   *Common
	title    string
	sections []Section
	offset   int
	width    int
	height   int
	lines    []string // rendered, cached until content, width or theme changes
	theme    *theme.Theme

	// Down and Up are the keys that scroll the pane (a list's J and K
	// unless set otherwise): the line under a pane cut to its height
	// names them with what is below and above, as a cut text's does
	// (MoreLine).
	Down, Up key.Binding
}

// NewDetail returns an empty pane, scrolled with a list's keys (J, K).
func NewDetail(c *Common) *Detail {
	k := NewListKeys()
	return &Detail{common: c, Down: k.ScrollDown, Up: k.ScrollUp}
}

// SetContent replaces what the pane shows, keeping the scroll position.
func (d *Detail) SetContent(title string, sections []Section) {
	d.title, d.sections = title, sections
	d.lines = nil
}

// SetSize sets the pane's area.
func (d *Detail) SetSize(w, h int) {
	if w != d.width {
		d.lines = nil
	}
	d.width, d.height = w, h
}

// Top scrolls back to the first line (another record is shown).
func (d *Detail) Top() { d.offset = 0 }

// ScrollBy scrolls by n lines (negative: up).
func (d *Detail) ScrollBy(n int) {
	d.offset += n
	d.render()
	d.offset = min(d.offset, max(0, len(d.lines)-d.rows()))
	d.offset = max(0, d.offset)
}

// rows is how many of the pane's lines show: all its height, or, when
// they do not all fit, one less, for the line saying what is below and
// above.
func (d *Detail) rows() int {
	if len(d.lines) > d.height {
		return max(0, d.height-1)
	}
	return d.height
}

func (d *Detail) render() {
	th := d.common.Theme
	if d.lines != nil && d.theme == th {
		return
	}
	d.theme = th
	w := max(10, d.width)
	var out []string
	if d.title != "" {
		out = append(out, th.Title.Render(ansi.Truncate(d.title, w, th.Glyphs.Ellipsis)))
	}
	labelW := 0
	for _, s := range d.sections {
		for _, f := range s.Fields {
			labelW = max(labelW, lipgloss.Width(f.Label))
		}
	}
	labelW = min(labelW, w/2)
	valW := max(4, w-labelW-4)
	for si, s := range d.sections {
		if si > 0 || d.title != "" {
			out = append(out, "")
		}
		if s.Title != "" {
			out = append(out, th.Bold.Render(s.Title))
		}
		for _, f := range s.Fields {
			label := ansi.Truncate(f.Label, labelW, th.Glyphs.Ellipsis)
			label = label + pad(labelW-lipgloss.Width(label))
			vals := strings.Split(f.Value, "\n")
			if f.Value == "" {
				vals = []string{"-"}
			}
			firstLine := true
			for _, v := range vals {
				wrapped := Wrap(v, valW, " ,/")
				if f.Breaks != "" {
					wrapped = WrapAfter(v, valW, f.Breaks)
				}
				for _, wl := range strings.Split(wrapped, "\n") {
					if f.Kind != theme.KindNeutral {
						wl = th.Kind(f.Kind).Render(wl)
					}
					if firstLine {
						out = append(out, "  "+th.Label.Render(label)+"  "+wl)
						firstLine = false
					} else {
						out = append(out, "  "+pad(labelW)+"  "+wl)
					}
				}
			}
		}
	}
	d.lines = out
}

// View renders the visible part of the pane.
func (d *Detail) View() string {
	d.render()
	if d.height <= 0 {
		return ""
	}
	rows := d.rows()
	start := max(0, min(d.offset, len(d.lines)-rows))
	end := min(len(d.lines), start+rows)
	lines := d.lines[start:end]
	if rows < d.height {
		// cut: what is below and above, and the keys that go there
		lines = append(slices.Clip(lines), d.common.Theme.Muted.Render("  "+MoreLine(d.common, d.Down, d.Up, start, len(d.lines)-end)))
	}
	return strings.Join(lines, "\n")
}

// Ago formats a duration coarsely: 4s, 3m, 2h, 5d (api.Ago).
func Ago(d time.Duration) string { return api.Ago(d) }

// APITime is a time read from an answer (api.Time, api.UnixTime).
type APITime interface {
	Unread() bool
	IsZero() bool
	Local() time.Time
}

// ShortTime is a time in a list's column, local, as Stamp words it; "?"
// for one the API sent unreadable (never a made-up time), "-" for none.
func ShortTime(t APITime, now time.Time) string {
	if t.Unread() {
		return "?"
	}
	if t.IsZero() {
		return "-"
	}
	return Stamp(t.Local(), now)
}

// Stamp is a moment as the lists word it, local: "Mar 14 11:15" within
// about six months of now, "Mar 14  2025" further off (as ls -l does): a
// date a year away must not read as one of this year's. Twelve columns
// either way.
func Stamp(t, now time.Time) string {
	t = t.Local()
	if d := now.Sub(t); d > 182*24*time.Hour || d < -182*24*time.Hour {
		return t.Format("Jan 02  2006")
	}
	return t.Format("Jan 02 15:04")
}

// Elapsed formats a running time precisely: 45s, 1m12s, 1h02m.
func Elapsed(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	d = d.Truncate(time.Second)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

// boxBodyTop is the line of a titled Box where its body starts: the
// border, the title, a blank line.
const boxBodyTop = 3

// Box draws a bordered box with a title, in the theme's glyphs.
func Box(th *theme.Theme, title, body string, width int) string {
	g := th.Glyphs
	b := lipgloss.Border{
		Top: g.BoxH, Bottom: g.BoxH, Left: g.BoxV, Right: g.BoxV,
		TopLeft: g.BoxCorner, TopRight: g.BoxCorner, BottomLeft: g.BoxCorner, BottomRight: g.BoxCorner,
	}
	inner := max(10, width-4)
	var lines []string
	if title != "" {
		lines = append(lines, th.Title.Render(ansi.Truncate(title, inner, g.Ellipsis)), "")
	}
	lines = append(lines, body)
	st := lipgloss.NewStyle().Border(b).Padding(0, 1).Width(width)
	if th.AccentColor != nil {
		st = st.BorderForeground(th.AccentColor)
	}
	return st.Render(lipgloss.NewStyle().Width(inner).Render(strings.Join(lines, "\n")))
}

// HumanBytes shows a size in binary units: 512 B, 2.4 GiB, 48 GiB.
func HumanBytes(n int64) string {
	if n <= 0 {
		return "-"
	}
	const unit = 1024
	if n < unit {
		return strconv.FormatInt(n, 10) + " B"
	}
	units := []string{"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v := float64(n) / unit
	i := 0
	for v >= unit && i < len(units)-1 {
		v /= unit
		i++
	}
	if v < 10 {
		return strconv.FormatFloat(v, 'f', 1, 64) + " " + units[i]
	}
	return strconv.FormatFloat(v, 'f', 0, 64) + " " + units[i]
}
