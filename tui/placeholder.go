package tui

import (
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/tui/kit"
)

// placeholder stands in for a screen that is not built yet, and says so.
type placeholder struct {
	common        *kit.Common
	id, title     string
	what          string
	arg           string
	width, height int
}

func newPlaceholder(c *kit.Common, id, title, what string) *placeholder {
	return &placeholder{common: c, id: id, title: title, what: what}
}

func (p *placeholder) ID() string                           { return p.id }
func (p *placeholder) Title() string                        { return p.title }
func (p *placeholder) KeyMap() help.KeyMap                  { return emptyKeys{} }
func (p *placeholder) SetSize(w, h int)                     { p.width, p.height = w, h }
func (p *placeholder) Init() tea.Cmd                        { return nil }
func (p *placeholder) Update(tea.Msg) (kit.Screen, tea.Cmd) { return p, nil }
func (p *placeholder) Resources() []kit.Resource            { return nil }
func (p *placeholder) CapturesKeys() bool                   { return false }

// Open remembers the argument of ":backups <service>".
func (p *placeholder) Open(arg string) tea.Cmd {
	p.arg = arg
	return nil
}

func (p *placeholder) View() string {
	th := p.common.Theme
	lines := []string{
		th.Title.Render(p.title),
		"",
		"The " + p.title + " screen is not built yet.",
		th.Muted.Render("It will " + p.what + "."),
	}
	if p.arg != "" {
		lines = append(lines, "", "Asked for service: "+th.Bold.Render(p.arg))
	}
	lines = append(lines, "", th.Muted.Render("Press 1 or :services for the Services screen."))
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, max(0, p.width-2), th.Glyphs.Ellipsis)
	}
	body := strings.Join(lines, "\n")
	return lipgloss.Place(p.width, p.height, lipgloss.Center, lipgloss.Center, body)
}

type emptyKeys struct{}

func (emptyKeys) ShortHelp() []key.Binding  { return nil }
func (emptyKeys) FullHelp() [][]key.Binding { return nil }
