package replication

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
)

// View implements kit.Screen.
func (s *Screen) View() string {
	if p := s.pane(); p != nil {
		return p.View()
	}
	w, h := s.Size()
	return fit(s.statusView(), w, h, s.common.Theme)
}

// fit makes s at most h lines of at most w cells; a line cut at the
// right ends with the ellipsis glyph, so a cut never reads as whole (a
// token wider than the screen, a statement's host: the copy key copies
// it whole).
func fit(s string, w, h int, th *theme.Theme) string {
	lines := strings.Split(s, "\n")
	if h > 0 && len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		if ansi.StringWidth(l) > w {
			lines[i] = ansi.Truncate(l, w, th.Glyphs.Ellipsis)
		}
	}
	return strings.Join(lines, "\n")
}

// wrap wraps text to width w after a prefix, continuing under the text.
func wrap(prefix, text string, w int) []string {
	pw := ansi.StringWidth(prefix)
	lines := strings.Split(kit.Wrap(text, max(10, w-pw), " ,/"), "\n")
	out := make([]string, len(lines))
	for i, l := range lines {
		if i == 0 {
			out[i] = prefix + l
		} else {
			out[i] = strings.Repeat(" ", pw) + l
		}
	}
	return out
}

// ---- status view ----

// headLines are the lines above the table: the list's status line (the
// pairs counted), and warnings about the saved state.
func (s *Screen) headLines() []string {
	th := s.common.Theme
	w, _ := s.Size()
	lines := []string{s.StatusLine(s.countText())}
	if s.stateErr != nil {
		lines = append(lines, wrap(" ", th.Warn.Render("saved state unreadable: "+s.stateErr.Error()), w)...)
	}
	if st := s.state.Setup; st != nil {
		text := fmt.Sprintf("Unfinished setup: %s, at step %d (%s). c continues it, n starts a new one.",
			st.PairText(th.Glyphs.Arrow), int(st.Step), st.Step.Title())
		switch restore, running, followed := s.setupRestore(); {
		case restore == "":
		case running:
			text = fmt.Sprintf("Unfinished setup: %s, at step %d (%s): %s is running. c continues it; n is refused until the restore ends.",
				st.PairText(th.Glyphs.Arrow), int(st.Step), st.Step.Title(), restore)
		case followed:
			text = fmt.Sprintf("Unfinished setup: %s, at step %d (%s): %s, its end not read yet. c continues it; n is refused until the restore ends.",
				st.PairText(th.Glyphs.Arrow), int(st.Step), st.Step.Title(), restore)
		default:
			text = fmt.Sprintf("Unfinished setup: %s, at step %d (%s): %s, its end not read yet. c continues it and reads it; n is refused until the restore ends.",
				st.PairText(th.Glyphs.Arrow), int(st.Step), st.Step.Title(), restore)
		}
		if s.common.ReadOnly { // n is refused, and so is each change of the setup
			text = fmt.Sprintf("Unfinished setup: %s, at step %d (%s). c shows it; %s: its changes are refused.",
				st.PairText(th.Glyphs.Arrow), int(st.Step), st.Step.Title(), readOnlyWhy(s.common))
		}
		lines = append(lines, wrap(" ", th.Warn.Render(text), w)...)
	}
	return lines
}

// countText counts the saved pairs, and those the filter shows.
func (s *Screen) countText() string {
	var n string
	switch len(s.state.Pairs) {
	case 0:
		n = "no pairs yet"
	case 1:
		n = "1 pair"
	default:
		n = strconv.Itoa(len(s.state.Pairs)) + " pairs"
	}
	if !s.IsLoaded() {
		n = "loading saved pairs" + s.common.Theme.Glyphs.Ellipsis
	}
	if s.Table.Filter() != "" {
		n += fmt.Sprintf(" (%d shown)", s.Table.Len())
	}
	return n
}

// tableHeight is the table's height under above lines: 40% of the rest,
// no more rows than pairs, a line more for the filter.
func (s *Screen) tableHeight(above int) int {
	_, h := s.Size()
	n := max(2, min(len(s.state.Pairs)+1, (h-above)*40/100))
	if s.Table.Filtering() || s.Table.Filter() != "" {
		n++
	}
	return n
}

// detailRoom is the height of the pair's status under the table.
func (s *Screen) detailRoom() int {
	_, h := s.Size()
	return h - len(s.headLines()) - s.Table.Height() - 1
}

// detailMax is how far the pair's status scrolls (with no pair: the
// text saying how to make one).
func (s *Screen) detailMax() int {
	w, h := s.Size()
	if len(s.state.Pairs) == 0 {
		text := s.emptyLines(w)
		room := h - len(s.headLines())
		if len(text) <= room {
			return 0
		}
		return max(0, len(text)-max(0, room-1))
	}
	p, ok := s.selectedPair()
	if !ok {
		return 0
	}
	return max(0, len(s.pairDetail(p, w))-s.detailRoom()+1)
}

// scroll is J/K (kit.ListView.Scroll): the pair's status scrolls.
func (s *Screen) scroll(n int) {
	s.detailOff = max(0, min(s.detailOff+n, s.detailMax()))
}

func (s *Screen) statusView() string {
	th := s.common.Theme
	w, h := s.Size()
	lines := s.headLines()
	if len(s.state.Pairs) == 0 {
		if !s.IsLoaded() {
			return strings.Join(lines, "\n")
		}
		text := s.emptyLines(w)
		room := max(0, h-len(lines))
		first, rows, cut := kit.TextWindow(len(text), room, s.detailOff)
		lines = append(lines, text[first:first+rows]...)
		if cut && room > 0 {
			lines = append(lines, th.Muted.Render("  "+kit.MoreLine(s.common, s.Keys.ScrollDown, s.Keys.ScrollUp, first, len(text)-first-rows)))
		}
		return strings.Join(lines, "\n")
	}
	lines = append(lines, kit.PadLines(s.Table.View(), s.Table.Height()))
	lines = append(lines, th.Muted.Render(strings.Repeat(th.Glyphs.HRule, w)))
	if p, ok := s.selectedPair(); ok {
		detail := s.pairDetail(p, w)
		// cut as every text taller than its room: what is below and
		// above, and the keys that scroll there
		first, rows, cut := kit.TextWindow(len(detail), s.detailRoom(), s.detailOff)
		lines = append(lines, detail[first:first+rows]...)
		if cut && s.detailRoom() > 0 {
			lines = append(lines, th.Muted.Render("  "+kit.MoreLine(s.common, s.Keys.ScrollDown, s.Keys.ScrollUp, first, len(detail)-first-rows)))
		}
	}
	return strings.Join(lines, "\n")
}

// field renders "label  value" with the value wrapped under itself.
func field(th *theme.Theme, label string, labelW int, value string, k theme.Kind, w int) []string {
	if value == "" {
		value = "-"
	}
	prefix := "  " + th.Label.Render(label+strings.Repeat(" ", max(0, labelW-len(label)))) + "  "
	if k != theme.KindNeutral {
		value = th.Kind(k).Render(value)
	}
	return wrap(prefix, value, w)
}

func (s *Screen) pairDetail(p replsetup.Pair, w int) []string {
	th := s.common.Theme
	pv := s.view(p.SecondaryID)
	arrow := th.Glyphs.Arrow
	title := api.OrID(p.PrimaryName, p.PrimaryID) + " (" + p.PrimaryID + ") " + arrow + " " + api.OrID(p.SecondaryName, p.SecondaryID) + " (" + p.SecondaryID + ")"
	lines := wrap(" ", th.Title.Render(title), w)
	const lw = 12
	f := func(label, value string, k theme.Kind) { lines = append(lines, field(th, label, lw, value, k, w)...) }
	now := s.readNow // the READ column's clock reading: the same ages
	// what is wrong and what to do come first, so that a short terminal
	// shows them: the secondary's state or why its status could not be
	// read, then the primary's state (a stopped primary is why the IO
	// thread cannot connect); the managed pair's lines and the status
	// read under them
	var priProblem, priFix string
	priKind := theme.KindWarn // stopped or pending: it comes back once started or done
	if pri := s.primary(p); pri != nil {
		priProblem, priFix = replsetup.PairServiceState(p, "primary", pri)
		if theme.StatusKind(pri.Status) == theme.KindError || replsetup.IsGone(pri) {
			priKind = theme.KindError
		}
	}
	primary := func() {
		if priProblem != "" {
			f("Problem", priProblem, priKind)
			f("Fix", priFix, theme.KindWarn)
		}
	}
	managed := func() {
		if p.Managed() {
			lines = append(lines, s.managedDetail(p, w)...)
		}
	}
	if pv == nil || (pv.last == nil && pv.err == nil && pv.notReady == nil) {
		primary()
		managed()
		lines = append(lines, "  "+th.Muted.Render("reading the replica status"+s.common.Theme.Glyphs.Ellipsis))
		return lines
	}
	if pv.busy != "" {
		lines = append(lines, "  "+th.Pending.Render(pv.busy+s.common.Theme.Glyphs.Ellipsis))
	}
	switch sec := pv.down(); {
	case pv.err != nil:
		prob, fix := replsetup.PairSQLFix(p, pv.err, "it is read again at every poll (r reads now)")
		f("Status", "could not be read: "+prob, theme.KindError)
		if fix != "" {
			f("Fix", fix, theme.KindWarn)
		}
		primary()
		managed()
		if !pv.at.IsZero() {
			f("Last read", pv.at.Local().Format("15:04:05")+" ("+kit.Ago(now.Sub(pv.at))+" ago); shown below", theme.KindMuted)
		}
		if pv.last == nil || pv.last.Status == nil {
			return lines
		}
	case sec != nil:
		prob, fix := replsetup.PairServiceState(p, p.SecondaryRole(), sec)
		k := theme.KindWarn // stopped or pending: it comes back once started or done
		if theme.StatusKind(sec.Status) == theme.KindError || replsetup.IsGone(sec) {
			k = theme.KindError
		}
		f("Status", prob, k)
		f("Fix", fix, theme.KindWarn)
		primary()
		managed()
		if pv.last == nil || pv.last.Status == nil || pv.at.IsZero() {
			f("Read", pv.notReadyAt.Local().Format("15:04:05")+" ("+kit.Ago(now.Sub(pv.notReadyAt))+" ago)", theme.KindMuted)
			return lines
		}
		f("Last read", pv.at.Local().Format("15:04:05")+" ("+kit.Ago(now.Sub(pv.at))+" ago); shown below", theme.KindMuted)
	default:
		primary()
		managed()
	}
	st := pv.last.Status
	if st == nil {
		return lines
	}
	// a managed pair the API says replicates, its SQL showing nothing:
	// the API's word, not an ended replication to forget
	inAPI := replsetup.ManagedInAPI(p, &pv.last.Secondary, st)
	switch {
	case inAPI:
		f("Replication", replsetup.ManagedInAPIText(p), theme.KindNeutral)
	case !st.Configured:
		f("Replication", "not configured on "+api.OrID(p.SecondaryName, p.SecondaryID), theme.KindError)
	default:
		f("IO thread", st.IORunning, ioKind(st.IORunning))
		f("SQL thread", st.SQLRunning, ioKind(st.SQLRunning))
		behind := "- (NULL: not replicating)"
		if st.SecondsBehindMaster != nil {
			behind = fmt.Sprintf("%ds", *st.SecondsBehindMaster)
		}
		if pv.hist.reads() > 1 {
			behind += "   " + pv.hist.maxText()
		}
		f("Behind", behind, theme.KindNeutral)
		spark := Sparkline(th.Glyphs, pv.hist.samples, max(10, min(HistoryLen, w-lw-6)))
		f("History", "["+spark+"]", theme.KindNeutral)
	}
	// what is wrong with the threads and how to fix it, before the
	// details (a stopped primary's state, above, is why)
	if d := replsetup.DiagnosePair(p, st); priProblem == "" && !inAPI && !d.OK && d.Problem != "" {
		k := theme.KindError
		if d.Waiting {
			k = theme.KindWarn
		}
		f("Problem", d.Problem, k)
		if d.Fix != "" {
			f("Fix", d.Fix, theme.KindWarn)
		}
	}
	if st.Configured {
		ioErr, sqlErr := "none", "none"
		ioK, sqlK := theme.KindMuted, theme.KindMuted
		if st.LastIOErrno != 0 || st.LastIOError != "" {
			ioErr, ioK = fmt.Sprintf("%d: %s", st.LastIOErrno, st.LastIOError), theme.KindError
		}
		if st.LastSQLErrno != 0 || st.LastSQLError != "" {
			sqlErr, sqlK = fmt.Sprintf("%d: %s", st.LastSQLErrno, st.LastSQLError), theme.KindError
		}
		f("Last IO err", ioErr, ioK)
		f("Last SQL err", sqlErr, sqlK)
		master := st.MasterHost
		if st.MasterPort > 0 {
			master += ":" + strconv.Itoa(st.MasterPort)
		}
		using := st.UsingGTID
		if using == "" || strings.EqualFold(using, "No") {
			using = "no (binlog file " + api.OrID(st.MasterLogFile, "?") + " position " + strconv.FormatInt(st.ReadMasterLogPos, 10) + ")"
		}
		f("Primary", master, theme.KindNeutral)
		f("Using GTID", using, theme.KindNeutral)
		f("Gtid_IO_Pos", st.GTIDIOPos, theme.KindNeutral)
	}
	if g := pv.last.GTID; g != nil {
		f("gtid_slave", g.SlavePos, theme.KindNeutral)
		f("gtid_current", g.CurrentPos, theme.KindNeutral)
		f("gtid_binlog", g.BinlogPos, theme.KindNeutral)
	}
	if !pv.at.IsZero() && pv.err == nil && pv.notReady == nil {
		f("Read", pv.at.Local().Format("15:04:05")+" ("+kit.Ago(now.Sub(pv.at))+" ago)", theme.KindMuted)
	}
	return lines
}

// emptyLines is what the screen says with no pair: none yet, how to make
// one, where the progress is kept (under a blank line).
func (s *Screen) emptyLines(w int) []string {
	kept := "Progress is kept (without secrets) in the user state directory: leave and come back, the setup resumes."
	if s.common.Demo {
		kept = "Progress is kept (without secrets) while this demo runs: leave the screen and come back, the setup resumes; the next demo starts clean."
	}
	how := "Press n to make"
	if s.newRefused() != "" { // the line above says why
		how = "Once the unfinished setup's restore ends, n makes"
	}
	if s.common.ReadOnly {
		how = upperFirst(readOnlyWhy(s.common)) + ": setting up replication is refused. On a writable profile, n makes"
		if s.common.ReadOnlyFlag {
			how = upperFirst(readOnlyWhy(s.common)) + ": setting up replication is refused. Without it, n makes"
		}
	}
	lines := []string{""}
	for _, p := range []string{
		"No replication set up with skytui yet.",
		"",
		how + " one service (the secondary) replicate from another (the primary). The wizard checks the allow list, restores a recent backup of the primary into the secondary (erasing it), points the secondary at the primary, has the grant run on the primary and starts replication; each step says pass or fail and how to fix it. Its first step offers managed replication instead (m): the service's own, one request.",
		"",
		kept,
	} {
		if p == "" {
			lines = append(lines, "")
			continue
		}
		lines = append(lines, wrap("  ", p, w)...)
	}
	return lines
}

// readOnlyWhy says why changes are refused, for a sentence that goes on
// after a colon: the profile's read_only, or the run's --read-only (the
// profile itself may be writable: another profile would not help).
func readOnlyWhy(c *kit.Common) string {
	if c.ReadOnlyFlag {
		return "this run is read-only (--read-only)"
	}
	return "this profile is read-only"
}

// upperFirst is s with its first letter upper case: s starts a sentence.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
