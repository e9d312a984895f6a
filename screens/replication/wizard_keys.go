package replication

import (
	"context"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/forms/restoreform"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
)

// The wizard's keys: what each does at each step, and the help of the
// step; then the pair step's chooser, the first step's table.

type wizardKeys struct {
	Run, Recheck, Prev, Copy, RanIt, Method, Managed, Up, Down, Back key.Binding
	// More and Less scroll the step's text when it does not fit (the
	// help names them as one: scroll).
	More, Less key.Binding
}

func newWizardKeys() wizardKeys {
	return wizardKeys{
		Run:     kit.Bind("enter", "run step"),
		Recheck: kit.Bind("c", "check again"),
		Prev:    kit.BindHelp("bksp", "previous step", "backspace"),
		Copy:    kit.Bind("y", "copy grant"),
		RanIt:   kit.Bind("m", "I ran the grant"),
		Method:  kit.Bind("b", "GTID / binlog position"),
		Managed: kit.Bind("m", "managed replication instead"),
		Up:      kit.DefaultTableKeys.Up,
		Down:    kit.DefaultTableKeys.Down,
		Back:    kit.Bind("esc", "leave (progress kept)"),
		More:    kit.BindHelp("J", "scroll down", "J", "ctrl+d"),
		Less:    kit.BindHelp("K", "scroll up", "K", "ctrl+u"),
	}
}

// scrollKey is the help of More and Less while the step's text is cut.
func (k wizardKeys) scrollKey() key.Binding { return kit.ScrollHelp(k.More, k.Less) }

// scroll is J (dir 1) or K (-1): the step's text moves by its window
// less a line (kept for context); layoutBody keeps it in range.
func (wz *wizard) scroll(dir int) {
	l := wz.bodyLayout()
	if !l.cut {
		return
	}
	wz.top = kit.PageTop(l.top, l.rows, len(l.text), dir)
}

// hidesWhatItRuns reports that the step's text is cut above its end on a
// step whose enter changes a service (the allow list, CHANGE PRIMARY, the
// grant's check, START): on a short terminal its statement is there.
func (wz *wizard) hidesWhatItRuns() bool {
	switch wz.w.Current() {
	case replsetup.StepAllowList, replsetup.StepChange, replsetup.StepGrant, replsetup.StepStart:
	default:
		return false
	}
	l := wz.bodyLayout()
	return l.cut && l.top+l.rows < len(l.text)
}

// stepKeys is a step's key map (see orderKeys): its esc leaves the
// wizard, "leave" in the footer (short enough for enter and esc at 60
// columns), "leave (progress kept)" in the help.
func (wz *wizard) stepKeys(run key.Binding, prev bool, rest []key.Binding, moves ...key.Binding) kit.Keys {
	return wz.orderKeys(run, withHelp(wz.keys.Back, "leave"), wz.keys.Back, prev, rest, moves)
}

// orderKeys is a key map in the order the footer keeps its entries: the
// step's enter (run, as the step names it), esc (escShort in the footer,
// escFull in the help), the step's own keys (rest: what the step asks
// for, y and m at the grant), then the generic ones: with prev, bksp
// (the previous step), the scroll while the step's text is cut, and a
// list's movement (moves) last. The footer says each in its own words
// (footWords); the help keeps the whole.
func (wz *wizard) orderKeys(run, escShort, escFull key.Binding, prev bool, rest, moves []key.Binding) kit.Keys {
	k := wz.keys
	full := []key.Binding{run, escFull}
	if prev {
		full = append(full, k.Prev)
	}
	if wz.w != nil && wz.bodyLayout().cut {
		full = append(full, k.scrollKey())
	}
	full = append(append(full, rest...), moves...)
	short := []key.Binding{run, escShort}
	short = append(short, rest...)
	if prev {
		short = append(short, k.Prev)
	}
	if wz.w != nil && wz.bodyLayout().cut {
		short = append(short, k.scrollKey())
	}
	short = append(short, moves...)
	for i, b := range short {
		short[i] = wz.footWords(b)
	}
	return kit.Keys{Short: short, Full: [][]key.Binding{full}}
}

// footWide and footNarrow are the footer's shorter words for a key's help
// from 80 columns and below: with them the grant step's footer keeps y
// and m beside enter and esc at 60 columns, and the chooser's m at 80.
var (
	footWide = map[string]string{
		"run grant on primary":        "run grant",
		"GTID / binlog position":      "GTID/binlog",
		"managed replication instead": "managed replication",
		"previous step":               "back",
	}
	footNarrow = map[string]string{
		"run grant on primary":        "run it",
		"copy grant":                  "copy",
		"I ran the grant":             "I ran it",
		"GTID / binlog position":      "GTID/binlog",
		"call change primary":         "run it",
		"managed replication instead": "managed",
		"previous step":               "back",
	}
)

// footWords is b in the footer's words at the wizard's width.
func (wz *wizard) footWords(b key.Binding) key.Binding {
	words := footWide
	if wz.width < 80 {
		words = footNarrow
	}
	if d, ok := words[b.Help().Desc]; ok {
		return withHelp(b, d)
	}
	return b
}

// withHelp is b described otherwise (the same keys).
func withHelp(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// onKey is a key in the wizard: the restore's confirm while it is open,
// the chooser at the pair step, else the step's keys.
func (wz *wizard) onKey(msg tea.KeyPressMsg) tea.Cmd {
	w := wz.w
	if w == nil {
		return wz.host.leave()
	}
	if wz.confirm != nil {
		if wz.submitted {
			return nil // answer pending: keys wait
		}
		ans, cmd := wz.confirm.Update(msg)
		switch ans {
		case restoreform.ConfirmBack:
			wz.confirm = nil
			return nil
		case restoreform.ConfirmYes:
			return wz.submitRestore()
		}
		return cmd
	}
	if wz.chooser != nil && w.Current() == replsetup.StepPair {
		return wz.onChooserKey(msg)
	}
	k := wz.keys
	if d := kit.ScrollDir(msg, k.More, k.Less); d != 0 {
		wz.scroll(d)
		return nil
	}
	wz.setNotice("", false)
	switch {
	case key.Matches(msg, k.Back):
		return wz.leave()
	case key.Matches(msg, k.Run):
		if wz.hidesWhatItRuns() {
			// what enter would run is below the window: it is shown
			// first, and the next enter runs it
			// (the notice just cleared is no news to scroll back to)
			l := wz.bodyLayout()
			wz.top, wz.shown = len(l.text)-l.rows, l.said(wz.w.Current())
			return wz.whileAtStep("the rest of the step is shown now: read it, then enter runs it")
		}
		return wz.runStep()
	case key.Matches(msg, k.Recheck):
		return wz.recheck()
	case key.Matches(msg, k.Prev):
		if wz.restoreRunning() {
			// back at the backups, another one would drop the restore
			// followed and ask to erase the secondary again
			p := w.Progress
			wz.setNotice(fmt.Sprintf("restore %d into %s is running: going back is refused until it ends (it is followed here; esc leaves, progress kept)",
				p.RestoreID, api.OrID(p.SecondaryName, p.SecondaryID)), false)
			return nil
		}
		if w.Current() == replsetup.StepAllowList && wz.common.ReadOnly {
			// back at the pair's choice, another pair is a new setup
			return kit.RefuseReadOnly(wz.common, "choosing another pair (a new setup)")
		}
		if w.Current() > replsetup.StepPair && wz.busy == "" {
			w.GoTo(w.Current() - 1)
			// the allow list's check passes on its own: it is shown, not
			// passed through, until enter or c checks it again
			wz.held = w.Current() == replsetup.StepAllowList
			if w.Current() == replsetup.StepPair {
				wz.openChooser()
			}
			return tea.Batch(wz.host.save(), wz.enterStep())
		}
	case key.Matches(msg, k.Copy):
		if w.Grant != "" && (w.Current() == replsetup.StepGrant || w.Current() == replsetup.StepChange || w.Current() == replsetup.StepStart) {
			return kit.Copy(wz.common, "the grant", w.Grant)
		}
	case key.Matches(msg, k.RanIt):
		if w.Current() != replsetup.StepGrant || w.Grant == "" {
			return nil
		}
		pri := api.OrID(w.Progress.PrimaryName, w.Progress.PrimaryID)
		return kit.Do(kit.Action{
			Name: "mark the grant as run on " + pri,
			Confirm: kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Did you run the grant?",
				Detail: "Say yes only once the grant ran on " + pri + " (the primary). Without it the secondary's IO thread stays Connecting with error 1045."},
			Origin: ID, Tag: grantRanTag{wizID: wz.id},
			Success: func(any) string { return "grant marked as run on " + pri },
		})
	case key.Matches(msg, k.Method):
		if w.Current() != replsetup.StepChange && w.Current() != replsetup.StepBackup {
			return nil
		}
		var m string
		var err error
		if w.Current() == replsetup.StepBackup && wz.backupCur >= 0 && wz.backupCur < len(w.Backups) {
			// the backup under the cursor, chosen or not yet
			m, err = w.ToggleMethodFor(w.Backups[wz.backupCur].Backup.Key, wz.common.Time())
		} else {
			m, err = w.ToggleMethod(wz.common.Time())
		}
		if err != nil {
			wz.setNotice(err.Error(), true)
			return nil
		}
		wz.setNotice("replication will start from the backup's "+map[string]string{replsetup.MethodGTID: "GTID position", replsetup.MethodBinlog: "binlog file and position"}[m], false)
		return wz.host.save()
	case key.Matches(msg, k.Up):
		if w.Current() == replsetup.StepBackup && wz.backupCur > 0 {
			wz.backupCur--
		}
	case key.Matches(msg, k.Down):
		if w.Current() == replsetup.StepBackup && wz.backupCur < len(w.Backups)-1 {
			wz.backupCur++
		}
	}
	return nil
}

// whileAtStep is a hint about the current step: true, and shown, only
// while the setup is at that step with nothing running (once the step
// runs, a hint still waiting its turn would read as the present).
func (wz *wizard) whileAtStep(text string) tea.Cmd {
	w, id, st := wz.w, wz.id, wz.w.Current()
	return kit.ToastWhile(kit.ToastInfo, text, func() bool {
		return wz.w == w && wz.id == id && w.Current() == st && wz.busy == ""
	})
}

// KeyMap is the help of the current step.
func (wz *wizard) KeyMap() kit.Keys {
	k := wz.keys
	w := wz.w
	if wz.confirm != nil {
		return kit.KeysOf(wz.confirm.Keys()...)
	}
	if w == nil {
		return kit.KeysOf(k.Back)
	}
	switch w.Current() {
	case replsetup.StepPair:
		return wz.chooserKeyMap()
	case replsetup.StepAllowList:
		// bksp goes back to the pair's choice: a new setup
		back := []key.Binding{k.Prev, wz.footWords(k.Prev)}
		if wz.addsAllowList() {
			return wz.changeKeys(wz.stepKeys(withHelp(k.Run, "add to allow list"), true, []key.Binding{k.Recheck}), back...)
		}
		// enter checks again, as c does: one entry says it
		return kit.ReadOnlyHelp(wz.common, wz.stepKeys(withHelp(k.Run, "check again"), true, nil), back...)
	case replsetup.StepBackup:
		return wz.stepKeys(withHelp(k.Run, "use this backup"), true, []key.Binding{k.Method, k.Recheck}, k.Up, k.Down)
	case replsetup.StepRestore:
		run := withHelp(k.Run, "restore (type to confirm)")
		switch w.Verdict(replsetup.StepRestore) {
		case replsetup.Pass:
			run = withHelp(k.Run, "next step")
		case replsetup.Waiting:
			run = withHelp(k.Run, "(restore running)")
		}
		// bksp is refused while the restore runs
		keys := wz.stepKeys(run, !wz.restoreRunning(), []key.Binding{k.Recheck})
		if w.Verdict(replsetup.StepRestore) == replsetup.Pass || w.Verdict(replsetup.StepRestore) == replsetup.Waiting {
			return keys
		}
		return wz.changeKeys(keys)
	case replsetup.StepChange:
		return wz.changeKeys(wz.stepKeys(withHelp(k.Run, "call change primary"), true, []key.Binding{k.Method}))
	case replsetup.StepGrant:
		return wz.changeKeys(wz.stepKeys(withHelp(k.Run, "run grant on primary"), true, []key.Binding{k.Copy, k.RanIt, k.Recheck}))
	case replsetup.StepStart:
		return wz.changeKeys(wz.stepKeys(withHelp(k.Run, "start replication"), true, []key.Binding{k.Copy}))
	}
	return wz.stepKeys(withHelp(k.Run, "status view"), false, nil)
}

// addsAllowList reports that enter at the allow list's step adds the
// entries missing (else it checks again).
func (wz *wizard) addsAllowList() bool {
	o := wz.w.Result(replsetup.StepAllowList)
	return wz.w.Current() == replsetup.StepAllowList && o.Verdict == replsetup.Fail && len(o.Missing) > 0
}

// changeKeys is a step's keys whose enter changes a service: on a
// read-only profile enter (and also, other keys refused there) leaves
// the footer and the help marks it "(read-only)" (kit.ReadOnlyHelp), as
// the action layer refuses it.
func (wz *wizard) changeKeys(keys kit.Keys, also ...key.Binding) kit.Keys {
	changes := append([]key.Binding(nil), also...)
	for _, b := range keys.FullHelp()[0] {
		if b.Help().Key == wz.keys.Run.Help().Key {
			changes = append(changes, b, wz.footWords(b))
		}
	}
	return kit.ReadOnlyHelp(wz.common, keys, changes...)
}

// chooser is the wizard's pair step: a table of the services, first the
// primary is chosen, then the secondary; replsetup's rules refuse with
// the reason.
type chooser struct {
	table   *kit.Table
	primary *api.Service
	err     string
	// pairs are the saved pairs (their secondaries replicate already)
	pairs savedPairs
	// all is the services listing the rows come from: a service another
	// names as its primary host is a primary already
	all []api.Service
}

// chooserColumns are the columns of a list of services to choose from
// (the guided setup's, the managed setup's): what tells them apart, one
// column of the setup's own (what), and why one cannot be chosen, in
// words.
func chooserColumns(what kit.Column) []kit.Column {
	return []kit.Column{
		{Title: "NAME", Min: 14, Max: 24, Priority: 10},
		{Title: "ID", Min: 13, Max: 16, Priority: 4},
		{Title: "STATUS", Min: 14, Max: 18, Priority: 9},
		{Title: "PROVIDER/REGION", Min: 15, Max: 24, Priority: 7},
		what,
		{Title: "CANNOT BE", Min: 20, Max: 30, Priority: 8},
	}
}

func (wz *wizard) openChooser() {
	t := kit.NewTable(wz.common, chooserColumns(kit.Column{Title: "OUTBOUND IP", Min: 13, Max: 32, Priority: 3}))
	wz.chooser = &chooser{table: t, pairs: wz.host.pairs}
	wz.servicesEmpty()
	wz.rebuildChooser()
	wz.startOnChoosable()
	wz.layoutBody()
}

func (wz *wizard) rebuildChooser() {
	c := wz.chooser
	if wz.servicesLoaded {
		c.table.Empty = "no services: create two on the Services screen"
	}
	rows := make([]kit.Row, 0, len(wz.services))
	c.all = wz.services
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

// startOnChoosable moves the cursor, when what may be chosen changes (the
// first listing, the role), off a service that cannot take the role onto
// the first that can; a refresh of the listing leaves the cursor where
// the user put it.
func (wz *wizard) startOnChoosable() {
	c := wz.chooser
	c.table.StartOn(func(id string) bool {
		v, ok := wz.service(id)
		return ok && c.refusal(&v) == ""
	})
}

// refusal is why v cannot be taken at this step of the chooser, in a few
// words (its CANNOT BE column; the rules' whole reason shows on enter),
// or "".
func (c *chooser) refusal(v *api.Service) string {
	if c.primary == nil {
		return replsetup.NoteOf(replsetup.CheckPrimary(v))
	}
	if note := replsetup.PairNote(c.primary, v); note != "" {
		return note
	}
	// what the API says of managed replication (the whole reason shows
	// on enter, from the engine's look)
	if v.PrimaryHost != "" {
		return "secondary: a replica"
	}
	for _, x := range c.all {
		if x.ID != v.ID && x.PrimaryHost == v.ID {
			return "secondary: a primary"
		}
	}
	return replsetup.NoteOf(c.pairs.known("secondary", v))
}

// chooserHead is what the chooser keeps in sight above its table: whom
// to choose (the primary chosen named), and why the last choice was
// refused.
func (wz *wizard) chooserHead(w int) []string {
	th := wz.common.Theme
	c := wz.chooser
	var lines []string
	if c.primary == nil {
		lines = append(lines, wrap(" ", th.Accent.Render("Choose the PRIMARY")+" (the service to replicate from):", w)...)
	} else {
		lines = append(lines, wrap(" ", "Primary: "+th.Bold.Render(replsetup.SvcName(c.primary))+" on "+c.primary.Provider+". "+th.Accent.Render("Choose the SECONDARY")+" (it will be erased by the restore):", w)...)
	}
	if c.err != "" {
		lines = append(lines, styled(" ", "refused: "+c.err, th.Error.Render, w)...)
	}
	return lines
}

// managedNote is the chooser's word on managed replication (m), above
// whom to choose; on a read-only profile, where choosing a pair and m
// are refused (either is a new setup), that only esc goes on.
func (wz *wizard) managedNote(w int) []string {
	if wz.common.ReadOnly {
		return styled(" ", upperFirst(readOnlyWhy(wz.common))+": a new setup is refused, guided or managed; esc leaves.", wz.common.Theme.Warn.Render, w)
	}
	return styled(" ", "Or m: managed replication, the service's own: one request, no backup, restore or grant; needs two ready services.", wz.common.Theme.Muted.Render, w)
}

// onChooserKey: esc clears the filter, then the primary, then leaves;
// enter chooses; the rest moves in the table.
func (wz *wizard) onChooserKey(msg tea.KeyPressMsg) tea.Cmd {
	c, k := wz.chooser, wz.keys
	if used, cmd := c.table.FilterFirst(msg, k.Back); used {
		return cmd
	}
	switch {
	case key.Matches(msg, k.Back):
		if c.primary != nil {
			// back to the primary's step, on the primary chosen
			id := c.primary.ID
			c.primary, c.err = nil, ""
			wz.rebuildChooser()
			c.table.Select(id)
			wz.startOnChoosable()
			return nil
		}
		return wz.leave()
	case wz.common.ReadOnly && (key.Matches(msg, k.Run) || key.Matches(msg, k.Managed)):
		// at the key, as n: a pair chosen, or managed replication, is
		// a new setup, whose every change would be refused
		return kit.RefuseReadOnly(wz.common, "setting up replication")
	case key.Matches(msg, k.Run):
		return wz.runStep()
	case kit.ScrollDir(msg, k.More, k.Less) != 0:
		wz.scroll(kit.ScrollDir(msg, k.More, k.Less))
		return nil
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
	k := wz.keys
	back := withHelp(k.Back, "back") // to the primary's choice, then out
	run := withHelp(k.Run, role)
	keys := wz.orderKeys(run, back, back, false, []key.Binding{t.Filter, k.Managed}, []key.Binding{t.Up, t.Down})
	return kit.ReadOnlyHelp(wz.common, keys, run, k.Managed, wz.footWords(k.Managed))
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
		if err := replsetup.CheckPrimary(&v); err != nil {
			c.err = err.Error()
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
	if err := c.pairs.known("secondary", &v); err != nil {
		c.err = err.Error() + "; esc to the status list: " + savedPairEnd(c.pairs, v.ID)
		return nil
	}
	c.err = ""
	eng, pid, sid := wz.host.engine(), c.primary.ID, v.ID
	return wz.check(replsetup.StepPair, "checking "+replsetup.SvcName(c.primary)+" and "+replsetup.SvcName(&v), func(ctx context.Context) replsetup.Outcome {
		o, note := eng.RefuseBusy(ctx, eng.CheckPair(ctx, pid, sid))
		if note != "" {
			o.Summary += "; " + note
		}
		return o
	})
}

// savedPairEnd is how a pair on the status list whose secondary is id is
// ended there: E for managed replication, else s then d.
func savedPairEnd(pairs savedPairs, id string) string {
	if pairs != nil {
		for _, p := range pairs() {
			if p.SecondaryID == id && p.Managed() {
				return "E ends it"
			}
		}
	}
	return "s stops it, d forgets the pair"
}
