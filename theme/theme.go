// Package theme holds every style of the application under semantic names
// (OK, Warn, Error, Muted, Accent, …), the mapping from status words to
// styles, and the glyph sets. Colours are ANSI 256 palette indices, chosen in
// light and dark variants (lipgloss LightDark) from the detected terminal
// background; NO_COLOR removes every colour but keeps bold, faint and
// reverse, so selection and badges stay visible. Glyphs are plain ASCII
// unless the Unicode set is asked for: jump hosts rarely have good fonts.
//
// Of the application's packages it imports only internal/statusword.
package theme

import (
	"image/color"
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/skytui/skytui/internal/statusword"
)

// Options select a theme.
type Options struct {
	// Dark is the result of background detection (true when unknown).
	Dark bool
	// NoColor removes every colour (NO_COLOR).
	NoColor bool
	// Unicode selects the Unicode glyph set instead of ASCII.
	Unicode bool
	// Accessible is for screen readers and braille displays: no
	// animation (spinners show a fixed word), no box drawing (dialog
	// borders, pane separators and rules are blank: a reader reads no
	// line of dashes), every state in words (as everywhere).
	Accessible bool
	// UTF8 says the terminal's locale is UTF-8 (UTF8Env): the replication
	// lag sparkline uses block characters, which read far better than
	// ASCII levels, even with the ASCII glyph set.
	UTF8 bool
}

// UTF8Env reports a UTF-8 locale: the first of LC_ALL, LC_CTYPE and LANG
// that is set names UTF-8.
func UTF8Env(getenv func(string) string) bool {
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		if v := getenv(k); v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false
}

// Glyphs are the few symbols the UI draws.
type Glyphs struct {
	Cursor    string   // marks the selected row in lists without colour
	Sep       string   // vertical separator between panes
	HRule     string   // one cell of a horizontal rule
	Bullet    string   // list bullet
	Ellipsis  string   // truncation mark
	SortAsc   string   // ascending sort mark
	SortDesc  string   // descending sort mark
	Dash      string   // between a label and its reason ("stale since … - reason")
	Arrow     string   // "from -> to"
	Mask      string   // one masked secret character
	Check     string   // done
	Cross     string   // failed
	Spinner   []string // frames; one frame when accessible
	Ready     string   // prefix of a ready toast
	BoxCorner string   // dialog corners
	BoxH      string   // dialog horizontal border
	BoxV      string   // dialog vertical border
	Spark     []string // sparkline levels, lowest first
}

// ASCII is the default glyph set.
var ASCII = Glyphs{
	Cursor: ">", Sep: "|", HRule: "-", Bullet: "*", Ellipsis: "~",
	SortAsc: "^", SortDesc: "v", Dash: "-", Arrow: "->", Mask: "*",
	Check: "ok", Cross: "x", Spinner: []string{"|", "/", "-", "\\"},
	Ready: "ok", BoxCorner: "+", BoxH: "-", BoxV: "|",
	Spark: []string{"_", ".", "-", "=", "#"},
}

// Unicode is the optional glyph set for capable terminals and fonts.
var Unicode = Glyphs{
	Cursor: "›", Sep: "│", HRule: "─", Bullet: "•", Ellipsis: "…",
	SortAsc: "▲", SortDesc: "▼", Dash: "—", Arrow: "→", Mask: "•",
	Check: "✓", Cross: "✗", Spinner: []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"},
	Ready: "✓", BoxCorner: "+", BoxH: "─", BoxV: "│",
	Spark: []string{"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"},
}

// Kind is the semantic class of a status word or message.
type Kind int

// Kinds, from good to bad.
const (
	KindNeutral Kind = iota
	KindOK
	KindPending
	KindWarn
	KindError
	KindMuted
)

// Theme is the set of semantic styles.
type Theme struct {
	Dark       bool
	NoColor    bool
	Accessible bool
	Glyphs     Glyphs

	Base      lipgloss.Style // plain text
	OK        lipgloss.Style
	Pending   lipgloss.Style // in progress: pending_*, running
	Warn      lipgloss.Style
	Error     lipgloss.Style
	Muted     lipgloss.Style
	Accent    lipgloss.Style
	Bold      lipgloss.Style
	Title     lipgloss.Style // pane and dialog titles
	Header    lipgloss.Style // the header line
	Footer    lipgloss.Style // the footer (short help) line
	Key       lipgloss.Style // a key in help
	Desc      lipgloss.Style // a key's description in help
	Label     lipgloss.Style // a field label in a detail pane
	Selected  lipgloss.Style // the selected row
	TableHdr  lipgloss.Style // table column titles
	TabOn     lipgloss.Style // the active screen in the tab bar
	TabOff    lipgloss.Style
	Badge     lipgloss.Style // neutral badge (profile)
	BadgeRO   lipgloss.Style // READ-ONLY
	BadgeDemo lipgloss.Style // DEMO
	Dialog    lipgloss.Style // dialog box
	Button    lipgloss.Style
	ButtonOn  lipgloss.Style // focused button
	Input     lipgloss.Style
	Code      lipgloss.Style // commands and JSON to copy

	// Colours, for components that take colours rather than styles
	// (nil when NoColor).
	AccentColor, OKColor, WarnColor, ErrorColor, MutedColor color.Color
}

// NoColorEnv reports whether NO_COLOR asks for no colour: any non-empty
// value (https://no-color.org).
func NoColorEnv(getenv func(string) string) bool {
	return getenv("NO_COLOR") != ""
}

// New builds a theme.
func New(o Options) *Theme {
	ld := lipgloss.LightDark(o.Dark)
	c := func(light, dark int) color.Color {
		if o.NoColor {
			return nil
		}
		return ld(lipgloss.ANSIColor(light), lipgloss.ANSIColor(dark))
	}
	fg := func(col color.Color) lipgloss.Style {
		s := lipgloss.NewStyle()
		if col != nil {
			s = s.Foreground(col)
		}
		return s
	}
	t := &Theme{Dark: o.Dark, NoColor: o.NoColor, Accessible: o.Accessible, Glyphs: ASCII}
	if o.Unicode {
		t.Glyphs = Unicode
	}
	if o.UTF8 && !o.Accessible {
		t.Glyphs.Spark = Unicode.Spark
	}
	if o.Accessible {
		t.Glyphs.Spinner = []string{"…"}
		if !o.Unicode {
			t.Glyphs.Spinner = []string{"..."}
		}
		// the layout stays; what would be drawn is blank
		t.Glyphs.Sep, t.Glyphs.HRule = " ", " "
		t.Glyphs.BoxCorner, t.Glyphs.BoxH, t.Glyphs.BoxV = " ", " ", " "
	}
	t.AccentColor = c(25, 75)
	t.OKColor = c(28, 78)
	t.WarnColor = c(130, 214)
	t.ErrorColor = c(160, 203)
	t.MutedColor = c(243, 245)
	pending := c(30, 80)

	t.Base = lipgloss.NewStyle()
	t.OK = fg(t.OKColor)
	t.Pending = fg(pending)
	t.Warn = fg(t.WarnColor).Bold(true)
	t.Error = fg(t.ErrorColor).Bold(true)
	t.Muted = fg(t.MutedColor)
	if o.NoColor {
		t.Muted = t.Muted.Faint(true)
	}
	t.Accent = fg(t.AccentColor)
	t.Bold = lipgloss.NewStyle().Bold(true)
	t.Title = fg(t.AccentColor).Bold(true)
	t.Header = lipgloss.NewStyle().Bold(true)
	t.Footer = fg(t.MutedColor)
	t.Key = fg(t.AccentColor).Bold(true)
	t.Desc = fg(t.MutedColor)
	t.Label = fg(t.MutedColor)
	t.Selected = lipgloss.NewStyle().Reverse(true).Bold(true)
	t.TableHdr = lipgloss.NewStyle().Bold(true).Underline(true)
	t.TabOn = lipgloss.NewStyle().Reverse(true).Bold(true)
	t.TabOff = fg(t.MutedColor)
	t.Badge = lipgloss.NewStyle().Bold(true).Reverse(true)
	t.BadgeRO = lipgloss.NewStyle().Bold(true).Reverse(true)
	t.BadgeDemo = lipgloss.NewStyle().Bold(true).Reverse(true)
	if !o.NoColor {
		black := lipgloss.ANSIColor(16)
		t.BadgeRO = lipgloss.NewStyle().Bold(true).Foreground(black).Background(t.WarnColor)
		t.BadgeDemo = lipgloss.NewStyle().Bold(true).Foreground(black).Background(t.AccentColor)
		t.Badge = lipgloss.NewStyle().Bold(true).Foreground(black).Background(t.MutedColor)
	}
	t.Dialog = lipgloss.NewStyle().Padding(0, 1)
	t.Button = lipgloss.NewStyle().Padding(0, 1)
	t.ButtonOn = lipgloss.NewStyle().Padding(0, 1).Reverse(true).Bold(true)
	t.Input = lipgloss.NewStyle()
	t.Code = fg(t.AccentColor)
	return t
}

// Default is the dark, coloured, ASCII theme.
func Default() *Theme { return New(Options{Dark: true}) }

// StatusKind classifies a status word of any of the interfaces
// (provisioning snake_case, backup and restore capitalised words),
// case-insensitively and ignoring spaces, underscores and hyphens.
func StatusKind(status string) Kind {
	n := statusword.Norm(status)
	switch {
	case n == "":
		return KindMuted
	case n == "ready" || n == "succeeded" || n == "success" || n == "completed" ||
		n == "complete" || n == "done" || n == "healthy" || n == "ok" || n == "active":
		return KindOK
	case strings.HasPrefix(n, "pending") || n == "running" || n == "inprogress" ||
		n == "scheduled" || n == "queued" || n == "started" || n == "starting" ||
		n == "stopping" || n == "creating" || n == "submitting":
		return KindPending
	case n == "failed" || n == "failure" || n == "error" || n == "errored" ||
		n == "cancelled" || n == "canceled" || n == "unhealthy":
		return KindError
	case n == "stopped" || n == "retired" || n == "unknown" || n == "suspended" ||
		n == "deleted":
		return KindMuted
	}
	return KindNeutral
}

// Kind returns the style of a kind.
func (t *Theme) Kind(k Kind) lipgloss.Style {
	switch k {
	case KindOK:
		return t.OK
	case KindPending:
		return t.Pending
	case KindWarn:
		return t.Warn
	case KindError:
		return t.Error
	case KindMuted:
		return t.Muted
	}
	return t.Base
}

// Status returns the style of a status word. The word itself is always
// rendered too: colour only reinforces it.
func (t *Theme) Status(status string) lipgloss.Style { return t.Kind(StatusKind(status)) }

// Spinner returns the spinner frame for a counter.
func (t *Theme) Spinner(frame int) string {
	f := t.Glyphs.Spinner
	if len(f) == 0 {
		return ""
	}
	if frame < 0 {
		frame = -frame
	}
	return f[frame%len(f)]
}
