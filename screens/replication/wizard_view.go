package replication

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
)

// The guided setup's view: its steps, the current step's body and how the
// body is laid out in the room it has.

// stepsHeight is the wizard's title, its step list and the rule under it.
const stepsHeight = 1 + 7 + 1

// minBody is the fewest lines the step's body gets under the whole step
// list: on a shorter terminal (60x16) the list folds into the current
// step's line (compactHeight), so the list being chosen from and what
// happened keep their room.
const minBody = 9

// compactHeight is the title, the current step's line and the rule.
const compactHeight = 1 + 1 + 1

// compact reports that the step list is folded into the current step.
func (wz *wizard) compact() bool { return wz.height < stepsHeight+minBody }

// bodyHeight is the room of the step's body under the steps.
func (wz *wizard) bodyHeight() int {
	if wz.compact() {
		return max(0, wz.height-compactHeight)
	}
	return max(0, wz.height-stepsHeight)
}

func (wz *wizard) ellipsis() string { return wz.common.Theme.Glyphs.Ellipsis }

// View is the wizard: its title, the steps with their verdicts (only the
// current one on a short terminal), the current step's body; the
// restore's confirm in place of the steps.
func (wz *wizard) View() string {
	th := wz.common.Theme
	w := wz.width
	sw := wz.w
	if sw == nil {
		return ""
	}
	p := sw.Progress
	title := th.Bold.Render(" Set up replication")
	if p.PrimaryID != "" {
		title += "  " + p.PairText(th.Glyphs.Arrow)
		if p.Provider != "" {
			title += th.Muted.Render("  (" + p.Provider + ")")
		}
	}
	if wz.confirm != nil {
		head := wz.confirmHead(title)
		return fit(strings.Join(head, "\n")+"\n"+wz.confirm.View(), w, wz.height, wz.common.Theme)
	}
	lines := []string{ansi.Truncate(title, w, wz.ellipsis())}
	for st := replsetup.StepPair; st <= replsetup.StepStart; st++ {
		if !wz.compact() || st == sw.Current() {
			lines = append(lines, wz.stepLine(st, w))
		}
	}
	lines = append(lines, th.Muted.Render(strings.Repeat(th.Glyphs.HRule, w)))
	lines = append(lines, wz.bodyView()...)
	return fit(strings.Join(lines, "\n"), w, wz.height, wz.common.Theme)
}

// confirmHead is what the restore's confirm has above it.
func (wz *wizard) confirmHead(title string) []string {
	th := wz.common.Theme
	head := []string{ansi.Truncate(title, wz.width, wz.ellipsis()), th.Bold.Render(" Step 3 of 6: restore the backup into the secondary")}
	if wz.submitted {
		head = append(head, " "+th.Pending.Render("submitting the restore"+wz.ellipsis()))
	}
	return head
}

func verdictStyle(th *theme.Theme, v replsetup.Verdict) string {
	switch v {
	case replsetup.Pass:
		return th.OK.Render("PASS")
	case replsetup.Fail:
		return th.Error.Render("FAIL")
	case replsetup.Waiting:
		return th.Pending.Render("WAIT")
	}
	return "    "
}

func (wz *wizard) stepLine(st replsetup.Step, w int) string {
	th := wz.common.Theme
	sw := wz.w
	cur := "  "
	if sw.Current() == st {
		cur = th.Accent.Render(th.Glyphs.Cursor) + " "
	}
	num := "  "
	if st > replsetup.StepPair {
		num = strconv.Itoa(int(st)) + " "
	}
	label := num + st.Title()
	label += strings.Repeat(" ", max(0, 17-len(label)))
	v := sw.Verdict(st)
	if sw.Current() == st && wz.busy != "" {
		v = replsetup.Waiting
	}
	o := sw.Result(st)
	text := ""
	switch {
	case sw.Current() == st && wz.busy != "":
		text = wz.busy + wz.ellipsis()
	case v == replsetup.Fail && o.Problem != "":
		text = o.Problem
	case o.Summary != "":
		text = o.Summary
	case v == replsetup.Pass:
		text = wz.passedText(st)
	}
	line := cur + verdictStyle(th, v) + "  " + label + " " + th.Muted.Render(text)
	if sw.Current() == st {
		line = cur + verdictStyle(th, v) + "  " + th.Bold.Render(label) + " " + text
	}
	return ansi.Truncate(line, w, wz.ellipsis())
}

// passedText describes a step that passed before a restart.
func (wz *wizard) passedText(st replsetup.Step) string {
	p := wz.w.Progress
	switch st {
	case replsetup.StepPair:
		return p.PairText(wz.common.Theme.Glyphs.Arrow)
	case replsetup.StepAllowList:
		return "the secondary's outbound IP is allowed"
	case replsetup.StepBackup:
		return "backup " + api.ShortKey(p.BackupKey) + ", " + wz.w.PositionText()
	case replsetup.StepRestore:
		if p.RestoreID > 0 {
			return fmt.Sprintf("restore %d succeeded", p.RestoreID)
		}
		return "restored"
	case replsetup.StepChange:
		return "the secondary points at the primary"
	case replsetup.StepGrant:
		if p.GrantRunBy == replsetup.GrantByUser {
			return "you ran the grant"
		}
		return "the grant ran on the primary"
	case replsetup.StepStart:
		return "started"
	}
	return ""
}

var stepQuestions = [...]string{
	"Choose the primary (replicated from) and the secondary (replicates; it is erased by the restore): two different, ready services on the same cloud provider.",
	"The secondary's outbound IP must be in the primary's allow list, or the secondary cannot connect (error 2003).",
	"A backup of the primary with a GTID position, no older than 4 days (the primary keeps its binary logs 4 days). The newest is selected.",
	"Restore the backup into the secondary. It stops the secondary, ERASES ALL its data, and replaces its default username and password with the primary's.",
	"Point the secondary at the primary from the backup's position. It runs on the secondary with its current credentials (the primary's, since the restore) and returns a grant.",
	"Run the grant the procedure returned on the primary, with the primary's credentials, or run it yourself and say so (m).",
	"Start replication on the secondary; the status view follows it from then on.",
}

// bodyHead is the top of the step's body: the step's question, then what
// happened and how to fix it, what is running and the last notice (from
// line status on, -1: none; the layout keeps them in sight when they
// change).
func (wz *wizard) bodyHead(w int) (lines []string, status int) {
	th := wz.common.Theme
	st := wz.w.Current()
	if st <= replsetup.StepStart {
		head := "Step " + strconv.Itoa(int(st)) + " of 6: "
		if st == replsetup.StepPair {
			head = "Before step 1: "
		}
		lines = append(lines, wrap(" ", th.Bold.Render(head)+stepQuestions[st], w)...)
	}
	question := len(lines)
	add := func(prefix, text string, style func(...string) string) {
		lines = append(lines, styled(prefix, text, style, w)...)
	}
	if o := wz.w.Result(st); st != replsetup.StepPair {
		switch o.Verdict {
		case replsetup.Fail:
			add(" ", o.Problem, th.Error.Render)
			if fix := wz.fixText(o); fix != "" {
				add(" Fix: ", fix, th.Warn.Render)
			}
		case replsetup.Pass:
			add(" ", o.Summary, th.OK.Render)
		case replsetup.Waiting:
			add(" ", o.Summary, th.Pending.Render)
			if o.Problem != "" {
				add(" ", o.Problem, th.Pending.Render)
			}
		}
	}
	if wz.busy != "" {
		add(" ", wz.busy+wz.ellipsis(), th.Pending.Render)
	}
	if wz.notice != "" {
		style := th.Muted.Render
		if wz.noticeErr {
			style = th.Error.Render
		}
		add(" ", wz.notice, style)
	}
	if len(lines) == question {
		return lines, -1
	}
	return lines, question
}

// fixText is what fixes a failed step: the engine's words, but on a
// read-only profile, where enter cannot add the allow list's entries,
// where else to add them.
func (wz *wizard) fixText(o replsetup.Outcome) string {
	if wz.common.ReadOnly && wz.addsAllowList() && o.Step == replsetup.StepAllowList {
		p := wz.w.Progress
		where := "from a writable profile"
		if wz.common.ReadOnlyFlag {
			where = "without --read-only"
		}
		return readOnlyWhy(wz.common) + ": add " + strings.Join(replsetup.HostCIDRs(o.Missing), ", ") + " to " +
			api.OrID(p.PrimaryName, p.PrimaryID) + "'s allow list " + where + ", then check again (c)"
	}
	return o.Fix
}

// styled wraps text after prefix, each line in style; nothing for "".
func styled(prefix, text string, style func(...string) string, w int) []string {
	if text == "" {
		return nil
	}
	lines := wrap(prefix, text, w)
	for i, l := range lines {
		lines[i] = style(l)
	}
	return lines
}

// bodyParts is the current step's body: text that scrolls (J/K) when the
// whole does not fit, the lines kept in sight above the list (whom the
// chooser chooses, why the last choice was refused), the list being
// chosen from (never cut below listMin lines: its header and the
// selected row), and the lines under the list.
type bodyParts struct {
	text []string
	// status..statusEnd are the lines of text saying what happened
	// (status -1: none)
	status, statusEnd int
	keep              []string
	// list renders the list in at most h lines (nil: no list).
	list    func(h int) []string
	listMin int
	below   []string
}

// bodyLayout is how the body shows in its room: text from line top,
// rows lines of it, with a line saying what is above and below when it
// is cut; the list in listH lines.
type bodyLayout struct {
	bodyParts
	top, rows, listH int
	cut              bool
}

// stepParts is the current step's body, laid out for width w and h lines.
func (wz *wizard) stepParts(w, h int) bodyParts {
	th := wz.common.Theme
	sw := wz.w
	st := sw.Current()
	p := sw.Progress
	o := sw.Result(st)
	lines, status := wz.bodyHead(w)
	parts := bodyParts{status: status, statusEnd: len(lines)}
	add := func(prefix, text string, style func(...string) string) {
		lines = append(lines, styled(prefix, text, style, w)...)
	}
	plain := func(s ...string) string { return strings.Join(s, "") }
	pri, sec := api.OrID(p.PrimaryName, p.PrimaryID), api.OrID(p.SecondaryName, p.SecondaryID)
	priSvc, hasPri := wz.service(p.PrimaryID)
	secSvc, hasSec := wz.service(p.SecondaryID)

	switch st {
	case replsetup.StepPair:
		if c := wz.chooser; c != nil {
			lines = append(lines, wz.managedNote(w)...)
			parts.keep = wz.chooserHead(w)
			parts.list = func(int) []string { return listLines(wz.common, c.table) }
			parts.listMin = listMin(c.table)
		}
	case replsetup.StepAllowList:
		if hasSec {
			add("   ", "Outbound IP of "+sec+": "+api.OrID(strings.Join(secSvc.OutboundIPs, ", "), "none reported"), plain)
		}
		if hasPri {
			var entries []string
			for _, e := range priSvc.AllowList() {
				entries = append(entries, e.IP)
			}
			add("   ", "Allow list of "+pri+": "+api.OrID(strings.Join(entries, ", "), "empty"), plain)
		}
	case replsetup.StepBackup:
		if o.Verdict == replsetup.Unchecked && o.Summary != "" {
			add(" ", o.Summary+"; enter uses the one under the cursor.", th.Muted.Render)
		}
		parts.list = func(h int) []string { return wz.backupLines(w, h) }
		// the header, the selected row, the line saying what is cut and
		// the row's GTID or reason whole when the row cuts it
		parts.listMin = min(3, 1+max(1, len(sw.Backups))) + len(wz.backupWhole(w))
		if sw.Hidden > 0 {
			parts.below = styled("   ", fmt.Sprintf("%d incremental / binary log backups not listed: they cannot seed a replica on their own", sw.Hidden), th.Muted.Render, w)
		}
	case replsetup.StepRestore:
		switch sw.Verdict(replsetup.StepRestore) {
		case replsetup.Pass:
			add("   ", replsetup.CredentialsNote(p)+".", th.Warn.Render)
		case replsetup.Waiting:
		default:
			how := " enter asks you to type " + sec + "'s name."
			if wz.common.ReadOnly {
				how = " " + upperFirst(readOnlyWhy(wz.common)) + ": the restore is refused."
			}
			add("   ", "Backup "+api.ShortKey(p.BackupKey)+" of "+pri+" ("+sw.PositionText()+") into "+sec+"."+how, plain)
		}
		if hasSec && secSvc.Pending() {
			add("   ", sec+" is "+secSvc.Status, th.Pending.Render)
		}
	case replsetup.StepChange:
		if p.HasPassed(replsetup.StepRestore) {
			add("   ", "Since the restore, "+replsetup.CredentialsNote(p)+".", th.Warn.Render)
		}
		var priPtr *api.Service
		if hasPri {
			priPtr = &priSvc
		}
		for _, l := range kit.CommandLines(replsetup.ChangeCall(p, priPtr), max(10, w-4), false) {
			lines = append(lines, "  "+th.Code.Render(l))
		}
		tls := "without TLS"
		if hasSec && secSvc.SSLEnabled {
			tls = "with TLS"
		}
		add("   ", "on "+sec+", as its current default user ("+pri+"'s since the restore), "+tls+".", th.Muted.Render)
		if p.GTID != "" && p.BinlogFile != "" {
			add("   ", "b switches to the "+map[string]string{replsetup.MethodGTID: "binlog file and position", replsetup.MethodBinlog: "GTID position"}[p.Method]+" variant.", th.Muted.Render)
		}
		if hasSec && !secSvc.Ready() {
			add("   ", sec+" is "+secSvc.Status+": wait until it is ready", th.Pending.Render)
		}
	case replsetup.StepGrant:
		if sw.Grant != "" {
			add(" ", "The grant to run on "+pri+", verbatim (y copies it):", plain)
			lines = append(lines, grantLines(wz.common, sw.Grant, w)...)
		}
	case replsetup.StepStart:
		add("   ", "CALL sky.start_replication() on "+sec+".", th.Code.Render)
		if o.Status != nil {
			stt := o.Status
			add("   ", "IO thread "+api.OrID(stt.IORunning, "-")+", SQL thread "+api.OrID(stt.SQLRunning, "-"), plain)
		}
		if sw.Grant != "" && h-len(lines) > 4 {
			add(" ", "The grant (y copies it):", plain)
			lines = append(lines, grantLines(wz.common, sw.Grant, w)...)
		}
	}
	parts.text = lines
	return parts
}

// bodyLayout lays the current step's body out in its room (layParts).
func (wz *wizard) bodyLayout() bodyLayout {
	w, h := wz.width, wz.bodyHeight()
	return layParts(wz.stepParts(w, h), h, wz.top)
}

// layParts lays a body out in h lines from the text's line top.
// Everything fits: the text, then the list in the rest. Else the list
// keeps listMin lines with what is kept above it, the lines under the
// list join the text, and the text shows from top in what is left, its
// last line saying what J and K scroll to.
func layParts(parts bodyParts, h, top int) bodyLayout {
	l := bodyLayout{bodyParts: parts}
	fixed := len(l.keep) + len(l.below)
	if l.list != nil {
		fixed += l.listMin
	}
	if len(l.text)+fixed <= h {
		l.rows = len(l.text)
		l.listH = h - len(l.text) - len(l.keep) - len(l.below)
		return l
	}
	l.cut = true
	l.text = append(l.text[:len(l.text):len(l.text)], l.below...)
	l.below = nil
	if l.list != nil && h-len(l.keep)-l.listMin < 2 {
		// the lines kept (a long refusal) and the list's least leave no
		// two lines for the text and the line saying what J and K show:
		// the kept lines join the text, last, and the window starts on
		// them; the list keeps its least (its filter's line too)
		at := len(l.text)
		l.text = append(l.text, l.keep...)
		l.keep = nil
		l.status, l.statusEnd = at, len(l.text) // layoutBody moves the window there
	}
	room := h - len(l.keep)
	if l.list != nil {
		room -= l.listMin
		l.listH = l.listMin
		if room < 2 {
			// not even one line of the text shows beside the list: the
			// text gives the list its room and is not said
			l.cut = false
			l.listH += max(0, room)
			return l
		}
	}
	l.top, l.rows, _ = kit.TextWindow(len(l.text), room, top) // one line says what is above and below
	return l
}

// bodyView is the current step's body as laid out.
func (wz *wizard) bodyView() []string {
	return wz.bodyLayout().view(wz.common, wz.keys.More, wz.keys.Less)
}

// view is the body as laid out: the text's window (cut, with the line
// saying what more and less, its scroll keys, show), the lines kept, the
// list and the lines under it.
func (l bodyLayout) view(c *kit.Common, more, less key.Binding) []string {
	lines := append([]string{}, l.text[l.top:l.top+l.rows]...)
	if l.cut {
		lines = append(lines, c.Theme.Muted.Render(" "+kit.MoreLine(c, more, less, l.top, len(l.text)-l.top-l.rows)))
	}
	lines = append(lines, l.keep...)
	if l.list != nil && l.listH > 0 {
		lines = append(lines, l.list(l.listH)...)
	}
	return append(lines, l.below...)
}

// layoutBody sizes the chooser's table to its room and keeps the text's
// window in range; when what happened changes (a new step, a check's
// answer, a notice) the window moves to show it whole, with as much of
// the question above it as fits.
func (wz *wizard) layoutBody() {
	if wz.w == nil || wz.confirm != nil {
		return
	}
	l := wz.bodyLayout()
	if wz.chooser != nil && wz.w.Current() == replsetup.StepPair {
		sizeList(wz.chooser.table, wz.width, max(1, l.listH))
	}
	sig := l.said(wz.w.Current())
	if !l.cut {
		wz.top, wz.shown = 0, sig
		return
	}
	if sig != wz.shown {
		wz.shown = sig
		wz.top = 0
		if l.status >= 0 {
			wz.top = max(0, min(l.status, l.statusEnd-l.rows))
		}
	}
	wz.top = max(0, min(wz.top, len(l.text)-l.rows))
}

// said is what the layout says happened at step st (the step and its
// status lines): layoutBody moves the window to it when it changes.
func (l bodyLayout) said(st replsetup.Step) string {
	sig := strconv.Itoa(int(st))
	if l.status >= 0 {
		sig += "\x00" + strings.Join(l.text[l.status:l.statusEnd], "\x00")
	}
	return sig
}

// backupLines is the backup chooser in at most h lines: newest first,
// the cursor on the selected one, refused ones with their reason; when
// the rows are cut, a line says how many are below and above; when the
// selected row's GTID or reason is cut, it shows whole under the list.
func (wz *wizard) backupLines(w, h int) []string {
	th := wz.common.Theme
	sw := wz.w
	if len(sw.Backups) == 0 {
		if wz.busy != "" {
			return nil
		}
		return []string{"   " + th.Muted.Render("no full backups listed")}
	}
	cur := min(max(0, wz.backupCur), len(sw.Backups)-1)
	hdr := fmt.Sprintf("     %-16s %-5s %-8s %9s  %s", "TAKEN", "AGE", "TYPE", "SIZE", "GTID / WHY NOT")
	lines := []string{th.TableHdr.Render(ansi.Truncate(hdr, w, wz.ellipsis()))}
	// the line saying what is cut, when the rows do not all fit
	more := 0
	if len(sw.Backups) > h-1 && h > 2 {
		more = 1
	}
	// the selected row's GTID or reason, whole, when its row cuts it; at
	// most what leaves the header, the selected row and that line
	whole := wz.backupWhole(w)
	if room := max(0, h-2-more); len(whole) > room {
		whole = whole[:room]
		if room > 0 {
			whole[room-1] = ansi.Truncate(whole[room-1], w-1, "") + wz.ellipsis()
		}
	}
	rows := max(1, h-1-len(whole)-more)
	if more == 1 && len(sw.Backups) <= rows+1 {
		rows, more = rows+1, 0 // all fit without the line
	}
	off := 0
	if cur >= rows {
		off = cur - rows + 1
	}
	for i := off; i < len(sw.Backups) && i < off+rows; i++ {
		text, _ := wz.backupRow(i)
		text = ansi.Truncate(text, w-2, wz.ellipsis())
		switch {
		case i == cur:
			lines = append(lines, th.Selected.Render(th.Glyphs.Cursor+" "+text+strings.Repeat(" ", max(0, w-2-ansi.StringWidth(text)))))
		case !sw.Backups[i].Usable:
			lines = append(lines, "  "+th.Muted.Render(text))
		default:
			lines = append(lines, "  "+text)
		}
	}
	if below := len(sw.Backups) - off - rows; more == 1 {
		lines = append(lines, wz.common.Theme.Muted.Render("  "+kit.MoreOf(wz.common, wz.keys.Down, wz.keys.Up, off, below, "backup", "backups")))
	}
	return append(lines, whole...)
}

// backupRow is backup i's row (uncut) and its GTID or reason.
func (wz *wizard) backupRow(i int) (text, info string) {
	th := wz.common.Theme
	sw := wz.w
	c := sw.Backups[i]
	mark := "  "
	if p := sw.Progress; p.BackupKey == c.Backup.Key && p.HasPassed(replsetup.StepBackup) {
		mark = th.Glyphs.Check
		if len(mark) < 2 {
			mark += " "
		}
	}
	taken := "-"
	if !c.Time.IsZero() {
		taken = c.Time.Local().Format("2006-01-02 15:04")
	}
	info = c.Backup.BinlogGTIDPosition
	if info == "" && c.HasBinlog() {
		info = fmt.Sprintf("%s:%d", c.Backup.BinlogFile, c.BinlogPos)
	}
	if !c.Usable {
		info = "refused: " + c.Reason
	} else if c.Note != "" {
		info += "  (" + c.Note + ")"
	}
	now := wz.common.Time()
	return fmt.Sprintf("%s %-16s %-5s %-8s %9s  %s", mark, taken, replsetup.Ago(now.Sub(c.Time)), ansi.Truncate(c.Backup.Type, 8, ""), kit.HumanBytes(c.Backup.SizeBytes), info), info
}

// backupWhole is the selected backup's GTID or reason, whole, when its
// row (w wide) cuts it; nothing else.
func (wz *wizard) backupWhole(w int) []string {
	th := wz.common.Theme
	sw := wz.w
	if len(sw.Backups) == 0 {
		return nil
	}
	cur := min(max(0, wz.backupCur), len(sw.Backups)-1)
	text, info := wz.backupRow(cur)
	if ansi.StringWidth(text) <= w-2 || info == "" {
		return nil
	}
	style := th.Muted.Render
	if !sw.Backups[cur].Usable {
		style = th.Warn.Render
	}
	return styled("   ", info, style, w)
}
