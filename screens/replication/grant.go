package replication

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/kit"
)

// The grant of a saved pair, read again on its secondary (the status
// list's g).

// grantView shows the replication grant of a saved pair, read again on
// its secondary (it is never saved): y copies it, c reads it again, esc
// goes back to the status list.
type grantView struct {
	common  *kit.Common
	engine  func() *replsetup.Engine
	keys    grantKeys
	pair    replsetup.Pair
	grant   string
	err     error
	loading bool
	seq     uint64 // the latest read: older answers are dropped
	width   int
	height  int
}

// grantLoadedMsg answers a grant view's read.
type grantLoadedMsg struct {
	from  *grantView
	seq   uint64
	grant string
	err   error
}

type grantKeys struct {
	Copy, Reload, Back key.Binding
}

func newGrantView(c *kit.Common, engine func() *replsetup.Engine, p replsetup.Pair) *grantView {
	return &grantView{common: c, engine: engine, pair: p, keys: grantKeys{
		Copy:   kit.Bind("y", "copy grant"),
		Reload: kit.Bind("c", "read again"),
		Back:   kit.Bind("esc", "back"),
	}}
}

// SetSize implements kit.Pane.
func (g *grantView) SetSize(w, h int) { g.width, g.height = w, h }

// read reads the grant on the secondary in a command.
func (g *grantView) read() tea.Cmd {
	g.seq++
	g.loading, g.grant, g.err = true, "", nil
	eng, ctx, id, seq := g.engine(), g.common.Ctx(), g.pair.SecondaryID, g.seq
	return func() tea.Msg {
		grant, err := eng.FetchGrant(ctx, id)
		return grantLoadedMsg{from: g, seq: seq, grant: grant, err: err}
	}
}

// onLoaded takes the answer of the latest read.
func (g *grantView) onLoaded(msg grantLoadedMsg) {
	if msg.from == g && msg.seq == g.seq {
		g.loading, g.grant, g.err = false, msg.grant, msg.err
	}
}

// onKey handles a key; back reports esc (the screen closes the view).
func (g *grantView) onKey(msg tea.KeyPressMsg) (cmd tea.Cmd, back bool) {
	k := g.keys
	switch {
	case key.Matches(msg, k.Back):
		return nil, true
	case key.Matches(msg, k.Copy):
		if g.grant != "" {
			return kit.Copy(g.common, "the grant", g.grant), false
		}
	case key.Matches(msg, k.Reload):
		return g.read(), false
	}
	return nil, false
}

// CapturesKeys implements kit.Pane: the grant takes no typing.
func (g *grantView) CapturesKeys() bool { return false }

// KeyMap is the grant's keys.
func (g *grantView) KeyMap() kit.Keys {
	b := []key.Binding{g.keys.Copy, g.keys.Reload, g.keys.Back}
	return kit.KeysOf(b...)
}

func (g *grantView) View() string {
	th := g.common.Theme
	w := g.width
	pri, sec := api.OrID(g.pair.PrimaryName, g.pair.PrimaryID), api.OrID(g.pair.SecondaryName, g.pair.SecondaryID)
	lines := []string{th.Bold.Render(" The replication grant") + " " + th.Muted.Render(g.pair.Text(th.Glyphs.Arrow)), ""}
	switch {
	case g.loading:
		lines = append(lines, "  "+th.Muted.Render("CALL sky.replication_grants() on "+sec+th.Glyphs.Ellipsis))
	case g.err != nil:
		// a saved pair's: the list's keys, never a wizard step
		prob, fix := replsetup.PairSQLFix(g.pair, g.err, "c reads it again")
		lines = append(lines, wrap("  ", th.Error.Render(prob), w)...)
		if fix != "" {
			lines = append(lines, wrap("  Fix: ", th.Warn.Render(fix), w)...)
		}
	default:
		lines = append(lines, wrap("  ", "Run this on "+pri+" (the primary), exactly as shown; y copies it:", w)...)
		lines = append(lines, "")
		lines = append(lines, grantLines(g.common, g.grant, w)...)
		lines = append(lines, "")
		lines = append(lines, wrap("  ", th.Muted.Render("It holds the replication user's password: it is never saved by skytui."), w)...)
	}
	return fit(strings.Join(lines, "\n"), g.width, g.height, g.common.Theme)
}

// grantLines shows a grant verbatim, wrapped between its tokens only.
func grantLines(c *kit.Common, grant string, w int) []string {
	th := c.Theme
	var out []string
	// shown cleaned; run on the primary as the procedure returned it
	for _, l := range kit.CommandLines(api.CleanText(grant), max(10, w-4), false) {
		out = append(out, "  "+th.Code.Render(l))
	}
	return out
}
