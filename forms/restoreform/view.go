package restoreform

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// The wizard's view of each step, the cross-provider refusal, and the
// keys and help of each step.

func (r *Wizard) stepTitle() string {
	n := 4
	cur := 1
	switch r.step {
	case stageTarget:
		cur = 2
	case stageBackup, stageBucket, stageBackupID, stageRefusal, stagePITR:
		cur = 3
	case stageConfirm:
		cur = 4
	}
	what := map[stage]string{
		stageSource:   "where is the backup?",
		stageTarget:   "which service to restore into? (its data will be erased)",
		stageBackup:   "which backup?",
		stageBucket:   "the backup file in your bucket",
		stageBackupID: "the backup ID",
		stageRefusal:  "refused",
		stageConfirm:  "confirm",
		stagePITR:     "which service's history, and what moment?",
	}[r.step]
	return fmt.Sprintf("New restore %d/%d: %s", cur, n, what)
}

// TargetGone reports that the chosen target is not in the last services
// listing (deleted since it was chosen).
func (r *Wizard) TargetGone() bool {
	_, listed := r.byID[r.targetID]
	return r.targetID != "" && r.services != nil && !listed
}

// targetName is the chosen target's name as the steps after the target
// say it: "(gone: no longer listed)" after it once the listing lost it.
func (r *Wizard) targetName() string {
	if r.TargetGone() {
		return r.Target().NameOrID() + " (" + goneWords + ")"
	}
	return r.Target().NameOrID()
}

// roomAboveErr is the height a step's body has above the refusal shown
// under it (a blank line and its lines), of bh.
func (r *Wizard) roomAboveErr(w, bh int) int {
	if r.stepErr == "" {
		return bh
	}
	return max(1, bh-1-len(r.errLines(w)))
}

// View renders the wizard within its size.
func (r *Wizard) View() string {
	th := r.common.Theme
	w, h := r.width, r.height
	head := " " + th.Bold.Render(r.stepTitle())
	var body string
	bh := max(1, h-2)
	switch r.step {
	case stageSource:
		body = r.sourceView(w, bh)
	case stageTarget:
		body = r.targets.View()
	case stageBackup:
		body = r.backupView(w)
	case stageBucket:
		// in the room the refusal leaves, so the focused field it names
		// is in view
		body = r.bucket.view(r, w, r.roomAboveErr(w, bh))
	case stageBackupID:
		// in the room the refusal leaves: the note under the field gives
		// way whole, then the words above it, never the field
		body = r.backupIDView(w, r.roomAboveErr(w, bh))
	case stagePITR:
		// in the room the refusal leaves: the blank line and the
		// window's give way before the moment's lines are cut
		body = r.pitrView(w, r.roomAboveErr(w, bh))
	case stageRefusal:
		back := "choose another backup"
		if r.prev == stageTarget {
			back = "choose another service to restore into"
		}
		body = RefusalView(r.common, r.refusal, back, w)
	case stageConfirm:
		body = r.confirm.View() // sized bh high (sizeConfirm)
	}
	// a title too long for one line (the target step's "its data will be
	// erased" at 60 columns) takes the blank line under it
	lines := []string{ansi.Truncate(head, w, th.Glyphs.Ellipsis), ""}
	if tl := kit.TitleLines(r.stepTitle(), w-1); len(tl) > 1 {
		lines = []string{" " + th.Bold.Render(tl[0]), " " + th.Bold.Render(tl[1])}
	}
	bl := strings.Split(body, "\n")
	if r.stepErr != "" {
		el := r.errLines(w)
		room := max(1, bh-1-len(el))
		if len(bl) > room {
			bl = bl[:room]
		}
		bl = append(bl, "")
		for i, l := range el {
			if i > 0 {
				l = "  " + l
			}
			bl = append(bl, " "+th.Error.Render(l))
		}
	}
	lines = append(lines, bl...)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, th.Glyphs.Ellipsis)
	}
	return strings.Join(lines, "\n")
}

// sourceView is the first step in h lines: on a short terminal each
// choice's description keeps to one line, so the warning under them is
// never the part cut.
func (r *Wizard) sourceView(w, h int) string {
	if v := r.sourceLines(w, false); len(v) <= h {
		return strings.Join(v, "\n")
	}
	return strings.Join(r.sourceLines(w, true), "\n")
}

func (r *Wizard) sourceLines(w int, short bool) []string {
	th := r.common.Theme
	opts := []struct{ name, desc string }{
		{"Managed storage", "a backup the platform took of a service (same cloud provider only)"},
		{"Your own bucket", "a gzip backup file in a gs:// or s3:// bucket you own"},
		{"Backup ID", "the identifier of a backup, typed or pasted"},
		{"Point in time", "a service as it was at a moment (backups + binary logs)"},
	}
	var lines []string
	const descAt = 23 // " > 1  Managed storage  ": the descriptions wrap under themselves
	for i, o := range opts {
		cur := "  "
		if i == r.sourceCursor {
			cur = th.Glyphs.Cursor + " "
		}
		descs := strings.Split(kit.Wrap(o.desc, max(10, w-descAt-1)), "\n")
		if short && len(descs) > 1 {
			descs = []string{ansi.Truncate(o.desc, max(10, w-descAt-1), th.Glyphs.Ellipsis)}
		}
		for j, d := range descs {
			line := fmt.Sprintf("%d  %-16s %s", i+1, o.name, d)
			if j > 0 {
				line = strings.Repeat(" ", descAt-3) + d
			}
			if i == r.sourceCursor {
				line = th.Selected.Render(line)
			}
			if j > 0 {
				lines = append(lines, "   "+line)
			} else {
				lines = append(lines, " "+cur+line)
			}
		}
	}
	lines = append(lines, "")
	warn := "A restore stops the target service, erases all its data and replaces its default username and password with the source service's. Nothing is sent before the last step, where you type the target's name."
	for _, l := range strings.Split(kit.Wrap(warn, max(10, w-2)), "\n") {
		lines = append(lines, " "+th.Warn.Render(l))
	}
	if r.common.ReadOnly {
		lines = append(lines, "", " "+th.Warn.Render("profile "+r.common.Profile+" is read-only: the restore will be refused"))
	}
	return lines
}

func (r *Wizard) backupView(w int) string {
	th := r.common.Theme
	lines := r.backupHead(w, r.pickingSource)
	if r.pickingSource {
		return strings.Join(lines, "\n") + "\n" + r.sources.View()
	}
	lines = append(lines, strings.Split(r.backupTable.View(), "\n")...)
	if more := r.backupTable.MoreRows("backup", "backups"); more != "" {
		lines = append(lines, " "+th.Muted.Render(" "+more))
	}
	return strings.Join(lines, "\n")
}

// backupHead is the lines of the backups step over its list: whose
// backups into what, and a failed listing's error, wrapped whole (its
// status, message and trace ID); with the source service's list, the
// line that asks for it (picking).
func (r *Wizard) backupHead(w int, picking bool) []string {
	th := r.common.Theme
	src := r.service(r.sourceServiceID())
	target := r.Target()
	muted := func(lines []string) []string {
		for i, l := range lines {
			lines[i] = " " + th.Muted.Render(l)
		}
		return lines
	}
	if picking {
		return muted(splitLine("Source service: whose backups?", " ", "(enter choose, type to filter, esc back)", w))
	}
	head := fmt.Sprintf("Backups of %s (%s, %s)", src.NameOrID(), src.ID, kit.Or(src.Provider, "?"))
	sep, tail := " ", fmt.Sprintf("into %s (%s)", target.NameOrID(), kit.Or(target.Provider, "?"))
	if r.TargetGone() {
		tail = "into " + r.targetName()
	}
	if src.ID == target.ID && !r.TargetGone() {
		sep, tail = ": ", "s restores another service's backup"
	}
	lines := muted(splitLine(head, sep, tail, w))
	if r.backupsErr != nil {
		said, style := "could not list backups: ", th.Error
		if r.backupsLoaded {
			said, style = "showing the last listing: ", th.Warn
		}
		for _, l := range strings.Split(kit.Wrap(said+r.backupsErr.Error(), max(10, w-2)), "\n") {
			lines = append(lines, " "+style.Render(l))
		}
	}
	return lines
}

// splitLine is head, sep and tail on one line of w cells (after a space)
// when they fit, else head and tail each on its own line, so no word of
// either is cut ("s restores another service's backup" at 80 and 60
// columns); a part longer than a line is wrapped at spaces. At 60 columns
// and more a service's name (24 characters at most), ID and provider fit
// on the first line, so the step's two lines over its table are enough.
func splitLine(head, sep, tail string, w int) []string {
	room := max(10, w-1)
	if ansi.StringWidth(head+sep+tail) <= room {
		return []string{head + sep + tail}
	}
	var lines []string
	for _, part := range []string{head, tail} {
		lines = append(lines, strings.Split(kit.Wrap(part, room), "\n")...)
	}
	return lines
}

func (r *Wizard) backupIDView(w, h int) string {
	th := r.common.Theme
	var intro, notes []string
	for _, l := range strings.Split(kit.Wrap("Type or paste the identifier of a backup (its key, or the short key a list shows).", max(10, w-2)), "\n") {
		intro = append(intro, " "+l)
	}
	intro = append(intro, "")
	field := []string{" " + r.idInput.View()}
	note := "Restoring into " + r.targetName() + " (" + r.targetID + "). A backup of a service on another cloud provider cannot be restored."
	if r.id.checking != "" {
		what := r.id.checking
		if strings.Contains(what, ":") {
			what = "backup " + api.ShortKey(what) // a whole key is long; its short key is what lists show
		}
		note = "looking " + what + " up in the backups listed" + th.Glyphs.Ellipsis
	}
	notes = append(notes, "")
	for _, l := range strings.Split(kit.Wrap(note, max(10, w-2)), "\n") {
		notes = append(notes, " "+th.Muted.Render(l))
	}
	if len(intro)+len(field)+len(notes) > h {
		notes = nil
	}
	if len(intro)+len(field) > h {
		intro = nil
	}
	return strings.Join(slices.Concat(intro, field, notes), "\n")
}

// RefusalView explains a cross-provider refusal and the workaround; back
// says what esc does.
func RefusalView(c *kit.Common, ref *api.CrossProvider, back string, w int) string {
	th := c.Theme
	if ref == nil {
		return ""
	}
	src, tgt := ref.SourceService.NameOrID(), ref.Target.NameOrID()
	wrap := func(s string, indent int) []string {
		return strings.Split(kit.Wrap(s, max(10, w-indent), " ,/"), "\n")
	}
	var lines []string
	for _, l := range wrap("Not sent: a backup can be restored only within the same cloud provider.", 2) {
		lines = append(lines, " "+th.Error.Render(l))
	}
	for _, l := range wrap(fmt.Sprintf("Backup %s of %s was taken on %s; %s (%s) runs on %s. The API would refuse this restore, so nothing was sent.",
		ref.Backup, src, ref.SourceProvider, tgt, ref.Target.ID, ref.TargetProvider), 2) {
		lines = append(lines, " "+l)
	}
	lines = append(lines, "", " "+th.Bold.Render("The documented way across providers:"))
	steps := []string{
		fmt.Sprintf("back up %s to your own bucket on %s (a once backup with external storage)", src, ref.SourceProvider),
		fmt.Sprintf("copy the backup folder to a bucket %s can read on %s", tgt, ref.TargetProvider),
		fmt.Sprintf("restore %s from that bucket (source: your own bucket)", tgt),
	}
	for i, s := range steps {
		for j, l := range wrap(s, 6) {
			p := fmt.Sprintf("  %d. ", i+1)
			if j > 0 {
				p = "     "
			}
			lines = append(lines, p+l)
		}
	}
	lines = append(lines, "")
	for _, kd := range [][2]string{{"m", "start this migration now (guided, every step prefilled)"}, {"esc", back}} {
		for i, l := range wrap(kd[1], 8) {
			k := "   " + th.Key.Render(kd[0]) + strings.Repeat(" ", 5-len(kd[0]))
			if i > 0 {
				k = strings.Repeat(" ", 8)
			}
			lines = append(lines, k+th.Desc.Render(l))
		}
	}
	return strings.Join(lines, "\n")
}

// ---- keys ----

type wizardKeys struct {
	Up, Down, Next, Back, SourceService, Migrate key.Binding
	// Leave leaves the wizard from any step, keeping everything (n brings
	// it back); esc goes back one step
	Leave key.Binding
	// the source step: 1, 2 or 3 chooses at once
	Pick key.Binding
	// the bucket step; ToggleBack and ToggleOn are Toggle's left and
	// right (Toggle's help names them; its space goes round); Fix is tab
	// alone (NextField is tab or down)
	Fix, NextField, PrevField, Toggle, ToggleBack, ToggleOn, Proceed, Reload key.Binding
	// the backup ID step (Paste is the input's, listed for help)
	Continue, Paste key.Binding
	// the point-in-time step: arrows only (letters are typed into the moment)
	PITRMove key.Binding
	// Help opens the help on the steps where nothing is typed (the root's
	// ? is not reached: the wizard takes every key); elsewhere ? is typed
	Help key.Binding
}

// sourceCount is the number of sources the first step offers.
const sourceCount = 4

func newWizardKeys() wizardKeys {
	return wizardKeys{
		Up:            kit.DefaultTableKeys.Up,
		Down:          kit.DefaultTableKeys.Down,
		Next:          kit.Bind("enter", "choose"),
		Back:          kit.Bind("esc", "back (keeps input)"),
		Leave:         kit.Bind("ctrl+x", "leave (keeps input)"),
		SourceService: kit.Bind("s", "other source service"),
		Migrate:       kit.Bind("m", "migrate across providers"),
		Fix:           kit.Bind("tab", "apply the suggested fix"),
		NextField:     kit.BindHelp("tab/down", "next field", "tab", "down"),
		PrevField:     kit.BindHelp("shift+tab/up", "previous field", "shift+tab", "up"),
		Toggle:        kit.BindHelp("left/right/space", "change choice", "left", "right", "space"),
		ToggleBack:    key.NewBinding(key.WithKeys("left")),
		ToggleOn:      key.NewBinding(key.WithKeys("right")),
		Proceed:       kit.Bind("enter", "next / continue"),
		Reload:        kit.Bind("ctrl+r", "read the stored credentials again"),
		Pick:          kit.BindHelp("1-4", "choose", "1", "2", "3", "4"),
		Continue:      kit.Bind("enter", "continue", "tab"), // tab on the step's last input goes on as enter does
		Paste:         kit.Bind("ctrl+v", "paste"),
		PITRMove:      kit.BindHelp("up/down", "service", "up", "down"),
		Help:          kit.Bind("?", "help"),
	}
}

// KeyMap lists the bindings of the current step.
func (r *Wizard) KeyMap() kit.Keys {
	k := r.keys
	// the lists' names are typed: every letter filters, the arrows move
	filter, move := kit.TypedFilterHint, kit.TypedMoveHint
	var b, more []key.Binding
	switch r.step {
	case stageSource:
		b = []key.Binding{k.Pick, k.Next, k.Up, k.Down, k.Back}
	case stageTarget:
		b = []key.Binding{k.Next, filter, move, k.Back}
	case stageBackup:
		if r.pickingSource {
			b = []key.Binding{k.Next, filter, k.Back}
		} else if r.backupTable.Total() == 0 {
			// nothing to choose, filter or move over (enter says why)
			b = []key.Binding{k.SourceService, k.Back}
		} else {
			b = []key.Binding{k.Next, k.SourceService, filter, move, k.Back}
		}
	case stageBucket:
		// the way on before the long entries: a narrow footer (esc kept
		// first) keeps enter, and the fix the field's hint names after it
		b = []key.Binding{k.Proceed}
		if r.bucket.fixable() != "" {
			b = append(b, k.Fix)
		}
		b = append(b, k.NextField, k.PrevField, k.Toggle, k.Back)
		more = []key.Binding{k.Reload} // "?" only: the footer stays as it was
	case stageBackupID:
		b = []key.Binding{k.Continue, k.Paste, k.Back}
	case stagePITR:
		b = []key.Binding{k.Continue, k.PITRMove, k.Back, k.Paste}
	case stageRefusal:
		b = []key.Binding{k.Migrate, k.Back}
	case stageConfirm:
		if r.confirm != nil {
			b = r.confirm.Keys()
		}
	}
	if r.step != stageSource {
		// from the first step esc leaves already: there ctrl+x is in the
		// help only (it leaves from any step)
		b = append(b, k.Leave)
	} else {
		more = append(more, k.Leave)
	}
	if r.step == stageSource || r.step == stageRefusal {
		// nothing is typed there: ? is the help (last, the step's own
		// keys before it in a narrow footer)
		b = append(b, k.Help)
	}
	return kit.Keys{Short: b, Full: [][]key.Binding{append(b[:len(b):len(b)], more...)}}
}

// momentRe is what momentLines keeps on one line: a date and time with
// its zone ("2026-11-23 10:15:30 UTC", "2026-11-23 07:15:30 -03 local)")
// and "RFC 3339".
var momentRe = regexp.MustCompile(`\d{4}-\d\d-\d\d \d\d:\d\d(:\d\d)?(( [A-Z]{2,5}| [+-]\d{2,4})\b( local\)?)?)?|RFC 3339`)

// nbsp is a space no line breaks at.
const nbsp = "\u00a0"

// momentLines is text in lines of w cells, each styled: wrapped at spaces
// (a quoted example, an RFC 3339 time and a window's ends stay whole),
// the lines after the first indented under it.
func momentLines(text string, w int, style func(...string) string) []string {
	kept := momentRe.ReplaceAllStringFunc(text, func(m string) string { return strings.ReplaceAll(m, " ", nbsp) })
	lines := strings.Split(kit.Wrap(kept, max(10, w-3)), "\n")
	for i, l := range lines {
		indent := " "
		if i > 0 {
			indent = "   "
		}
		lines[i] = indent + style(strings.TrimRight(strings.ReplaceAll(l, nbsp, " "), " "))
	}
	return lines
}

// plain is a style that styles nothing.
func plain(s ...string) string { return strings.Join(s, " ") }
