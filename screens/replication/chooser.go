package replication

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
)

// chooser is the wizard's pair step: a table of the services, first the
// primary is chosen, then the secondary; replsetup's rules refuse with
// the reason.
type chooser struct {
	table   *kit.Table
	primary *api.Service
	err     string
}

func (wz *wizard) openChooser() {
	t := kit.NewTable(wz.common, []kit.Column{
		{Title: "NAME", Min: 14, Max: 24, Priority: 10},
		{Title: "ID", Min: 13, Max: 16, Priority: 4},
		{Title: "STATUS", Min: 14, Max: 18, Priority: 9},
		{Title: "PROVIDER/REGION", Min: 15, Max: 24, Priority: 7},
		{Title: "OUTBOUND IP", Min: 13, Max: 32, Priority: 3},
		{Title: "CANNOT BE", Min: 20, Max: 26, Priority: 8},
	})
	t.Empty = "loading services" + wz.common.Theme.Glyphs.Ellipsis
	wz.chooser = &chooser{table: t}
	wz.rebuildChooser()
	wz.layoutChooser()
}

func (wz *wizard) rebuildChooser() {
	c := wz.chooser
	if wz.servicesLoaded {
		c.table.Empty = "no services: create two on the Services screen"
	}
	rows := make([]kit.Row, 0, len(wz.services))
	for _, v := range wz.services {
		note := c.refusal(&v)
		kinds := []theme.Kind{0, 0, theme.StatusKind(v.Status), 0, 0, theme.KindMuted}
		if note != "" {
			kinds[0] = theme.KindMuted
		}
		rows = append(rows, kit.Row{ID: v.ID,
			Cells: []string{v.Name, v.ID, v.Status, v.Where(), strings.Join(v.OutboundIPs, ", "), note},
			Kinds: kinds})
	}
	c.table.SetRows(rows)
}

// startOnChoosable moves the cursor, when the role to choose changes, off
// a service that cannot take it onto the first that can (a refresh of the
// listing leaves the cursor where the user put it).
func (wz *wizard) startOnChoosable() {
	c := wz.chooser
	if cur, ok := wz.service(c.table.SelectedID()); ok && c.refusal(&cur) == "" {
		return
	}
	for _, v := range wz.services {
		if c.refusal(&v) == "" && c.table.Select(v.ID) {
			return
		}
	}
}

// refusal is why v cannot be taken at this step of the chooser, in a few
// words (its CANNOT BE column; the rules' whole reason shows on enter),
// or "".
func (c *chooser) refusal(v *api.Service) string {
	if c.primary == nil {
		if !v.Ready() {
			return "primary: not ready"
		}
		return ""
	}
	if n := replsetup.PairNote(c.primary, v); n != "" {
		return "secondary: " + n
	}
	return ""
}

// layoutChooser gives the chooser's table the body's room under the
// lines above it.
func (wz *wizard) layoutChooser() {
	if wz.chooser == nil || wz.w == nil {
		return
	}
	above := len(wz.bodyHead(wz.width)) + len(wz.chooserHead(wz.width))
	wz.chooser.table.SetSize(wz.width, max(3, wz.height-stepsHeight-above))
}

// chooserHead is what the chooser shows above its table: whom to choose,
// and why the last choice was refused.
func (wz *wizard) chooserHead(w int) []string {
	th := wz.common.Theme
	c := wz.chooser
	lines := styled(" ", "Or m: managed replication, the service's own: one request, no backup, restore or grant; needs two ready services.", th.Muted.Render, w)
	if c.primary == nil {
		lines = append(lines, " "+th.Accent.Render("Choose the PRIMARY")+" (the service to replicate from):")
	} else {
		lines = append(lines, wrap(" ", "Primary: "+th.Bold.Render(replsetup.SvcName(c.primary))+" on "+c.primary.Provider+". "+th.Accent.Render("Choose the SECONDARY")+" (it will be erased by the restore):", w)...)
	}
	if c.err != "" {
		lines = append(lines, styled(" ", "refused: "+c.err, th.Error.Render, w)...)
	}
	return lines
}

func (wz *wizard) chooserView(w int) []string {
	return append(wz.chooserHead(w), wz.chooser.table.View())
}

// onChooserKey: esc clears the filter, then the primary, then leaves;
// enter chooses; the rest moves in the table.
func (wz *wizard) onChooserKey(msg tea.KeyPressMsg) tea.Cmd {
	c := wz.chooser
	if c.table.Filtering() {
		_, cmd := c.table.Update(msg)
		return cmd
	}
	k := wz.keys
	switch {
	case key.Matches(msg, k.Back):
		if c.table.Filter() != "" {
			c.table.SetFilter("")
			return nil
		}
		if c.primary != nil {
			c.primary, c.err = nil, ""
			wz.rebuildChooser()
			return nil
		}
		return wz.leave()
	case key.Matches(msg, k.Run):
		return wz.runStep()
	case key.Matches(msg, k.Managed):
		primary := c.primary
		if wz.w != nil && wz.w.Progress.PrimaryID == "" {
			wz.w = nil // nothing chosen yet: nothing to resume
		}
		wz.chooser = nil
		return wz.host.openManaged(primary)
	}
	c.err = ""
	_, cmd := c.table.Update(msg)
	return cmd
}

func (wz *wizard) chooserKeyMap() kit.Keys {
	c := wz.chooser
	if c != nil && c.table.Filtering() {
		return kit.FilterKeys()
	}
	role := "choose primary"
	if c != nil && c.primary != nil {
		role = "choose secondary"
	}
	t := kit.DefaultTableKeys
	if c != nil {
		t = c.table.Keys
	}
	b := []key.Binding{withHelp(wz.keys.Run, role), t.Up, t.Down, t.Filter, wz.keys.Managed, withHelp(wz.keys.Back, "back")}
	return kit.Keys{Short: b, Full: [][]key.Binding{b}}
}

// choose is enter in the pair chooser: first the primary, then the
// secondary; the pair's rules refuse with the reason.
func (wz *wizard) choose() tea.Cmd {
	c := wz.chooser
	if c == nil {
		wz.openChooser()
		return nil
	}
	v, ok := wz.service(c.table.SelectedID())
	if !ok {
		return nil
	}
	if c.primary == nil {
		if !v.Ready() {
			c.err = fmt.Sprintf("%s is %s: the primary must be ready", replsetup.SvcName(&v), api.OrID(v.Status, "unknown"))
			return nil
		}
		c.primary, c.err = &v, ""
		c.table.SetFilter("")
		wz.rebuildChooser() // the secondary's refusals
		wz.startOnChoosable()
		return nil
	}
	if err := replsetup.ValidatePair(c.primary, &v); err != nil {
		c.err = err.Error()
		return nil
	}
	c.err = ""
	eng, pid, sid := wz.host.engine(), c.primary.ID, v.ID
	return wz.check(replsetup.StepPair, "checking "+replsetup.SvcName(c.primary)+" and "+replsetup.SvcName(&v), func(ctx context.Context) replsetup.Outcome {
		return eng.CheckPair(ctx, pid, sid)
	})
}
