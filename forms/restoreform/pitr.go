package restoreform

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
)

// The point-in-time step: which service's backups and binary logs (the
// services GET /restores/pointintime/lookup names, each with its window),
// and the moment, typed, shown in UTC and local time side by side as it is
// typed. A moment outside the chosen service's window is refused here,
// naming the window, before anything is sent; one inside is checked
// against POST /restores/lookup (can the target take this service's
// backups?) and goes to the typed-name confirmation.

type pitrStep struct {
	common  *kit.Common
	table   *kit.Table
	moment  kit.Input
	windows []api.PITRWindow
	loaded  bool
	err     error
	// checking: the targets lookup is in flight (enter waits for it)
	checking bool
	req      api.RestoreRequest
}

// pitrTargetsMsg is the answer of the targets lookup for a chosen source.
type pitrTargetsMsg struct {
	step     *pitrStep
	source   string
	at       time.Time
	services []api.LookupService
	err      error
}

func newPITRStep(c *kit.Common) *pitrStep {
	p := &pitrStep{common: c}
	p.table = kit.NewTable(c, []kit.Column{
		{Title: "SERVICE", Min: 14, Max: 24, Priority: 10},
		{Title: "ID", Min: 13, Max: 16, Priority: 5},
		{Title: "PROVIDER", Min: 8, Max: 8, Priority: 6},
		// at 60 columns FROM gives way (the line under the moment says
		// the chosen service's whole window)
		{Title: "FROM (UTC)", Min: 19, Max: 19, Priority: 7},
		{Title: "TO (UTC)", Min: 19, Max: 19, Priority: 8},
		// why a source cannot serve the target, in words (as the other
		// lists' CANNOT BE), not by its colour alone: it stays as long as
		// the name does
		{Title: "CANNOT BE", Min: 20, Max: 24, Priority: 9},
	})
	p.table.Empty = "asking which services can restore to a point in time" + c.Theme.Glyphs.Ellipsis
	// the arrows move in the list, letters are the moment's: the line
	// under a cut list names the arrows (MoreRows)
	p.table.Keys.Up = kit.Bind("up", "move up")
	p.table.Keys.Down = kit.Bind("down", "move down")
	p.moment = kit.NewInput("> ", "")
	return p
}

func (r *Wizard) pitrKey() string { return r.opts.ResourcePrefix + "pitr" }

// pitrResource asks for the windows while the step is shown.
func (r *Wizard) pitrResource() kit.Resource {
	client := r.common.Client
	return kit.Resource{Key: r.pitrKey(), Title: "the point-in-time windows", Fetch: func(ctx context.Context) (any, error) {
		if client == nil {
			return nil, errors.New("no API client")
		}
		return client.PointInTimeWindows(ctx)
	}}
}

func (p *pitrStep) onData(r *Wizard, msg kit.DataMsg) {
	if msg.Err != nil {
		p.err = msg.Err
		if !p.loaded {
			p.table.Empty = "could not ask for the point-in-time windows: " + msg.Err.Error()
		}
		return
	}
	p.err, p.loaded = nil, true
	p.windows, _ = msg.Data.([]api.PITRWindow)
	rows := make([]kit.Row, 0, len(p.windows))
	target := r.Target()
	for _, w := range p.windows {
		src := r.service(w.ServiceID)
		name := kit.Or(w.ServiceName, src.NameOrID())
		// another provider than the target's cannot serve it: shown up
		// front, muted and said in words, as enter would refuse it
		kind := theme.Kind(0)
		short, _ := pitrRefusal(src, target)
		if short != "" {
			kind = theme.KindMuted
		}
		rows = append(rows, kit.Row{ID: w.ServiceID, Cells: []string{name, w.ServiceID, kit.OrDash(src.Provider), utcText(w.Start), utcText(w.End), short},
			Kinds: []theme.Kind{kind, kind, kind, 0, 0, theme.KindMuted}})
	}
	p.table.Empty = "no service can restore to a point in time: it needs a completed full backup in managed storage and its binary logs"
	// a refresh that drops the service under the cursor (it is being
	// restored) moves it to one that can serve the target, and back when
	// it is listed again (kit.Table.SetRows)
	p.table.Choosable = func(id string) bool {
		short, _ := pitrRefusal(r.service(id), target)
		return short == ""
	}
	first := p.table.Total() == 0
	p.table.SetRows(rows)
	if first && !p.table.Select(r.targetID) { // restoring a service to its own past is the common case
		p.table.StartOn(p.table.Choosable)
	}
}

// pitrRefusal is why the backups of src cannot restore target: in a few
// words (the list's CANNOT BE) and whole (said on enter); "" when they can.
func pitrRefusal(src, target api.Service) (short, long string) {
	if src.Provider == "" || target.Provider == "" || strings.EqualFold(src.Provider, target.Provider) {
		return "", ""
	}
	// within the column's least width (20) at 60 columns: "other
	// provider (azure)" was cut there
	return "other cloud (" + src.Provider + ")",
		fmt.Sprintf("%s runs on %s and %s on %s: a restore from a service's backups is possible only within the same cloud provider",
			src.NameOrID(), src.Provider, target.NameOrID(), target.Provider)
}

func utcText(t api.Time) string {
	if t.IsZero() {
		return kit.Or(t.Raw, "?")
	}
	return t.UTC().Format(api.PITRTimeLayout)
}

func (p *pitrStep) selected() (api.PITRWindow, bool) {
	return api.WindowOf(p.windows, p.table.SelectedID())
}

// bothZones is the moment in UTC and in local time, side by side.
func bothZones(t time.Time) string {
	return t.UTC().Format(api.PITRTimeLayout) + " UTC   (" + t.Local().Format("2006-01-02 15:04:05 MST") + " local)"
}

func (r *Wizard) onPITRKey(msg tea.KeyPressMsg) tea.Cmd {
	p, k := r.pitr, r.keys
	switch {
	case key.Matches(msg, k.Back):
		return r.back()
	case key.Matches(msg, k.PITRMove):
		r.stepErr = ""
		_, cmd := p.table.Update(msg)
		return cmd
	case key.Matches(msg, k.Continue):
		return r.choosePITR()
	}
	return r.typeInto(&p.moment, msg)
}

// choosePITR checks the moment against the chosen window (nothing is sent
// when it is outside), then asks which services the source's backups can
// be restored into.
func (r *Wizard) choosePITR() tea.Cmd {
	p := r.pitr
	if p.checking {
		return nil
	}
	w, ok := p.selected()
	if !ok {
		r.stepErr = "no service chosen: the list names the services whose backups can restore to a point in time"
		return nil
	}
	at, err := api.ParseMoment(p.moment.Value())
	if err != nil {
		r.stepErr = err.Error()
		return nil
	}
	if err := w.Check(at); err != nil {
		r.stepErr = "nothing was sent: " + err.Error()
		return nil
	}
	if _, why := pitrRefusal(r.service(w.ServiceID), r.Target()); why != "" {
		r.stepErr = why
		return nil
	}
	client := r.common.Client
	if client == nil {
		r.stepErr = "no API client"
		return nil
	}
	p.checking = true
	id := w.ServiceID
	return func() tea.Msg {
		svcs, err := client.RestoreTargets(context.Background(), api.RestoreLookupRequest{ServiceID: id})
		return pitrTargetsMsg{step: p, source: id, at: at, services: svcs, err: err}
	}
}

// onPITRTargets takes the targets lookup: the target among them goes to
// the confirmation; a lookup that failed is said there and does not stop
// the restore (the API decides on the restore itself).
func (r *Wizard) onPITRTargets(msg pitrTargetsMsg) {
	p := r.pitr
	p.checking = false
	if r.step != stagePITR {
		return
	}
	w, _ := api.WindowOf(p.windows, msg.source)
	src, target := r.service(msg.source), r.Target()
	srcName := kit.Or(w.ServiceName, src.NameOrID())
	note := ""
	if msg.err != nil {
		note = " (the lookup of eligible targets failed: " + msg.err.Error() + ")"
	} else {
		ok := false
		var names []string
		for _, s := range msg.services {
			ok = ok || s.ServiceID == target.ID
			names = append(names, kit.Or(s.ServiceName, s.ServiceID))
		}
		if !ok {
			r.stepErr = fmt.Sprintf("%s cannot take a restore from %s's backups; the API names: %s", target.NameOrID(), srcName, kit.Or(strings.Join(names, ", "), "none"))
			return
		}
	}
	p.req = api.PointInTimeRestore(target.ID, msg.source, msg.at)
	r.prev = stagePITR
	desc := fmt.Sprintf("%s as it was at %s (%s local), from its backups and binary logs%s",
		srcName, msg.at.UTC().Format(api.PITRTimeLayout)+" UTC", msg.at.Local().Format("15:04:05 MST"), note)
	r.openConfirm(desc, srcName, requestJSON(p.req))
}

// pitrView is the step in h lines: the text under the moment's field is
// wrapped, never cut (an RFC 3339 example is as long as a line); a list
// cut to its height says how many services are below and above it; the
// blank line over the moment, then the window's line (which the table's
// FROM and TO columns say, when both show), give way when the lines do
// not fit.
func (r *Wizard) pitrView(w, h int) string {
	th := r.common.Theme
	p := r.pitr
	// without the target's ID when the line is too long for it
	head := fmt.Sprintf("Restore %s (%s) to a moment of (up/down):", r.targetName(), r.targetID)
	if ansi.StringWidth(head) > w-1 {
		head = fmt.Sprintf("Restore %s to a moment of (up/down):", r.targetName())
	}
	lines := []string{" " + th.Muted.Render(ansi.Truncate(head, w-1, th.Glyphs.Ellipsis))}
	if p.err != nil && p.loaded {
		lines = append(lines, " "+th.Warn.Render("showing the last answer: "+p.err.Error()))
	}
	lines = append(lines, strings.Split(p.table.View(), "\n")...)
	if more := p.table.MoreRows("service", "services"); more != "" {
		lines = append(lines, th.Muted.Render("  "+more))
	}
	gap := len(lines) // the blank line over the moment
	lines = append(lines, "", " Moment: "+p.moment.View())
	hint, style := "accepted: "+api.MomentForms, th.Muted.Render
	outside := ""
	if v := strings.TrimSpace(p.moment.Value()); v != "" {
		if at, err := api.ParseMoment(v); err != nil {
			hint, style = "not yet a moment: "+api.MomentForms, th.Warn.Render
		} else {
			hint, style = "= "+bothZones(at), plain
			if sel, ok := p.selected(); ok {
				if err := sel.Check(at); err != nil {
					outside = "outside the window: " + sel.String()
				}
			}
		}
	}
	lines = append(lines, momentLines(hint, w, style)...)
	if outside != "" {
		lines = append(lines, momentLines(outside, w, th.Warn.Render)...)
	}
	if sel, ok := p.selected(); ok {
		win := momentLines("window of "+kit.Or(sel.ServiceName, sel.ServiceID)+": "+sel.String(), w, th.Muted.Render)
		if len(lines)+len(win) == h+1 {
			lines, gap = slices.Delete(lines, gap, gap+1), -1
		}
		if len(lines)+len(win) <= h {
			lines = append(lines, win...)
		}
	}
	if len(lines) > h && gap >= 0 {
		lines = slices.Delete(lines, gap, gap+1)
	}
	return strings.Join(lines, "\n")
}
