package restores

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// The migration's view: each step's lines within the pane, the service
// lists sized to the lines their step leaves, and the keys of each step.

// listRows is how many rows of the services the source and target steps
// keep on screen before the explanation over them gives way.
const listRows = 6

// layout gives the service list the lines its step leaves (under the
// title, the explanation, the target's prompt; over a refusal), so a
// row the cursor reaches and the filter line are on screen; on a short
// terminal the explanation is left out first. A list whose rows are cut
// gives its last line to the line counting the rows below and above
// (kit.Table.MoreRows, drawn by View).
func (m *migration) layout() {
	room := m.height - 2 - len(m.promptLines()) - len(m.errLines())
	intro := len(m.introLines())
	need := 1 + min(max(1, m.table.Total()), listRows)
	if m.table.Total() > listRows {
		need++ // the line saying what is cut
	}
	m.intro = room-intro >= need
	if m.intro {
		room -= intro
	}
	room = max(2, room)
	m.table.SetSize(m.width, room)
	if room > 3 && m.table.Cut() {
		m.table.SetSize(m.width, room-1)
	}
}

// wrapLines is s wrapped to the pane's width, for a line each after a
// space; at slashes too when paths may be longer than a line.
func (m *migration) wrapLines(s string, slashes bool) []string {
	bp := " "
	if slashes {
		bp = " /"
	}
	return strings.Split(kit.Wrap(s, max(10, m.width-2), bp), "\n")
}

// introLines explain the flow over the source and target lists.
func (m *migration) introLines() []string {
	return m.wrapLines("A backup can be restored only within its cloud provider. This flow backs up the source to your own bucket, has you copy the backup to a bucket on the target's provider, then restores the target from it.", true)
}

// promptLines name the source over the target list.
func (m *migration) promptLines() []string {
	if m.step != migTarget {
		return nil
	}
	return m.wrapLines("From "+m.src().NameOrID()+" ("+m.src().Provider+"). Choose a service on another provider:", true)
}

// errLines are the step's refusal under it, wrapped between words.
func (m *migration) errLines() []string {
	if m.stepErr == "" {
		return nil
	}
	return append([]string{""}, m.wrapLines("! "+m.stepErr, false)...)
}

func (m *migration) title() string {
	n := map[migStep]int{migSource: 1, migTarget: 1, migBackup: 2, migWait: 3, migCopy: 4}[m.step]
	what := map[migStep]string{
		migSource: "which service to copy from? (provider A)",
		migTarget: "which service to restore into? (provider B; its data will be erased)",
		migBackup: "back up " + m.src().NameOrID() + " to your own bucket",
		migWait:   "wait for the backup",
		migCopy:   "copy the backup to " + kit.Or(m.dst().Provider, "the other provider"),
	}[m.step]
	return fmt.Sprintf("Migrate across providers %d/5: %s", n, what)
}

// View implements kit.Pane.
func (m *migration) View() string {
	th := m.common.Theme
	w, h := m.width, m.height
	if m.step == migBackup && m.form != nil {
		// the form has the lines under two (SetSize): a title too long
		// for one line takes the second instead of being cut
		var head []string
		for _, l := range kit.TitleLines(m.title(), w-1) {
			head = append(head, ansi.Truncate(" "+th.Bold.Render(l), w, th.Glyphs.Ellipsis))
		}
		return strings.Join(head, "\n") + "\n" + m.form.View()
	}
	// a title too long for one line takes the blank line under it
	lines := []string{" " + th.Bold.Render(m.title()), ""}
	if tl := kit.TitleLines(m.title(), w-1); len(tl) > 1 {
		lines = []string{" " + th.Bold.Render(tl[0]), " " + th.Bold.Render(tl[1])}
	}
	wrap := func(s string, st func(...string) string) {
		for _, l := range strings.Split(kit.Wrap(s, max(10, w-2), " /"), "\n") {
			lines = append(lines, " "+st(l))
		}
	}
	plain := func(s ...string) string { return strings.Join(s, "") }
	switch m.step {
	case migSource, migTarget:
		if m.intro {
			for _, l := range m.introLines() {
				lines = append(lines, " "+th.Muted.Render(l))
			}
		}
		for _, l := range m.promptLines() {
			lines = append(lines, " "+l)
		}
		lines = append(lines, strings.Split(m.table.View(), "\n")...)
		if more := m.table.MoreRows("service", "services"); more != "" {
			lines = append(lines, " "+th.Muted.Render(" "+more))
		}
	case migWait:
		src := m.src()
		wrap(fmt.Sprintf("Backing up %s (%s) to %s.", src.NameOrID(), src.Provider, kit.Or(m.path(), "your bucket")), plain)
		lines = append(lines, "")
		switch {
		case m.submitting:
			lines = append(lines, " "+th.Pending.Render("submitting the backup job"+th.Glyphs.Ellipsis))
		case m.backup == nil:
			lines = append(lines, " "+th.Pending.Render("waiting for the backup to appear in the listing of "+src.NameOrID()+th.Glyphs.Ellipsis))
		default:
			b := m.backup
			el := ""
			if !b.StartTime.IsZero() {
				el = " " + kit.Elapsed(m.common.Time().Sub(b.StartTime.Time))
			}
			lines = append(lines, " backup "+api.ShortKey(b.Key)+"  "+th.Status(b.Status).Render(api.BackupWord(b.Status)+el)+"  "+kit.HumanBytes(b.SizeBytes))
		}
		if m.listErr != nil {
			lines = append(lines, " "+th.Warn.Render("listing failed: "+m.listErr.Error()+" (retrying)"))
		}
		lines = append(lines, "")
		wrap("You can leave this screen: the backup is followed and its end is told wherever you are. m on the Restores list comes back here.", th.Muted.Render)
	case migCopy:
		body := m.copyLines()
		first, rows, cut := m.copyWindow()
		lines = append(lines, body[first:first+rows]...)
		if cut {
			lines = append(lines, " "+th.Muted.Render(kit.MoreLine(m.common, m.keys.More, m.keys.Less, first, len(body)-first-rows)))
		}
	}
	for _, l := range m.errLines() {
		if l != "" {
			l = " " + th.Error.Render(l)
		}
		lines = append(lines, l)
	}
	if len(lines) > h && h > 0 {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, th.Glyphs.Ellipsis)
	}
	return strings.Join(lines, "\n")
}

// copyLines are the copy step's text under its title: where the backup
// is, the destination typed (and its refusal), the command and its note,
// what enter does. Its refusal (errLines) stays under it.
func (m *migration) copyLines() []string {
	th := m.common.Theme
	w := m.width
	var lines []string
	wrap := func(s string, slashes bool, st func(...string) string) {
		for _, l := range m.wrapLines(s, slashes) {
			lines = append(lines, " "+st(l))
		}
	}
	plain := func(s ...string) string { return strings.Join(s, "") }
	src := m.sourcePath()
	if err := m.sourceErr(); err != nil {
		// no command with an empty source: nothing to copy
		wrap(err.Error()+".", false, th.Warn.Render)
		return lines
	}
	wrap(fmt.Sprintf("The backup of %s is in %s (%s). Copy the folder to a bucket %s (%s) can read:", m.src().NameOrID(), src, m.src().Provider, m.dst().NameOrID(), m.dst().Provider), true, plain)
	lines = append(lines, "")
	label := th.Label.Render("   Destination  ")
	if m.editing {
		label = th.Accent.Render(" " + th.Glyphs.Cursor + " Destination  ")
	}
	lines = append(lines, label+m.dest.View())
	dst, err := m.destPath()
	switch {
	case err != nil && strings.TrimSpace(m.dest.Value()) == "":
		// nothing typed yet: the placeholder is the example; enter on it
		// says the destination is required (errLines)
	case err != nil && err.Error() == m.stepErr:
		// said once, under the step (errLines), where it stays in sight
	case err != nil:
		// under the value, wrapped between words (it names the forms expected)
		for _, l := range strings.Split(kit.Wrap(err.Error(), max(10, w-19)), "\n") {
			lines = append(lines, strings.Repeat(" ", 18)+th.Warn.Render(l))
		}
	default:
		lines = append(lines, "                  "+th.Muted.Render("copies to "+dst))
		lines = append(lines, "")
		cmd, note := CopyCommand(src, dst)
		// the copy key as it works now: while the destination is typed, y
		// is text; enter ends the typing first
		copies := m.keys.Copy.Help().Key + " copies it"
		if m.editing {
			copies = m.keys.Done.Help().Key + ", then " + copies
		}
		wrap("Run this where the storage tools are set up ("+copies+"):", false, plain)
		for _, l := range kit.CommandLines(cmd, max(10, w-4), true) {
			lines = append(lines, "   "+th.Code.Render(l))
		}
		wrap("note: "+note, false, th.Muted.Render) // "~/.boto" whole
	}
	lines = append(lines, "")
	switch {
	case m.editing:
		wrap("Type the destination (the bucket alone keeps the folder name), enter when done.", false, th.Muted.Render)
	case err != nil:
		verb := " edits"
		if strings.TrimSpace(m.dest.Value()) == "" {
			verb = " types"
		}
		wrap(m.keys.Edit.Help().Key+verb+" the destination; the command that copies the backup there then shows here.", false, th.Muted.Render)
	default:
		wrap("enter: the copy is done, restore "+m.dst().NameOrID()+" from that bucket (every field prefilled). e edits the destination.", true, th.Muted.Render)
	}
	return lines
}

// copyWindow is how the copy step's text shows under its title and over
// its refusal: from line first, rows lines, and whether it is cut (one
// more line then says what is above or below).
func (m *migration) copyWindow() (first, rows int, cut bool) {
	return kit.TextWindow(len(m.copyLines()), m.height-2-len(m.errLines()), m.top)
}

// scroll moves the copy step's text by a page (less one line, to keep
// context).
func (m *migration) scroll(dir int) {
	first, rows, cut := m.copyWindow()
	if !cut {
		return
	}
	m.top = kit.PageTop(first, rows, len(m.copyLines()), dir)
}

// CapturesKeys implements kit.Pane: the migration takes every key where
// text is typed (a name typed into its lists filters them, the backup
// form's fields, the copy's destination being edited); elsewhere (the
// wait, the copy step, the backup's review) the root's keys work too:
// ? help, q, the screens, and the message line's L and X. esc is the
// migration's everywhere (the screen UsesEsc).
func (m *migration) CapturesKeys() bool {
	switch m.step {
	case migSource, migTarget:
		return true
	case migBackup:
		return m.form == nil || m.form.CapturesKeys()
	case migCopy:
		return m.editing
	}
	return false
}

// KeyMap implements kit.Pane: the keys of the current step.
func (m *migration) KeyMap() kit.Keys {
	k := m.keys
	var keys []key.Binding
	switch m.step {
	case migSource, migTarget:
		keys = []key.Binding{k.Choose, m.table.Keys.Filter, k.Back}
	case migBackup:
		if m.form != nil {
			keys = m.form.Keys()
		}
	case migWait:
		keys = []key.Binding{k.Leave}
		if !m.submitting {
			keys = append(keys, k.Discard)
		}
		if m.stepErr != "" {
			keys = append([]key.Binding{k.Retry}, keys...)
		}
	case migCopy:
		way := 2
		switch {
		case m.sourceErr() != nil:
			keys = []key.Binding{k.CopyBack, k.Discard}
		case m.editing:
			keys = []key.Binding{k.Done, k.StopEditing}
		case m.noCommand() != "":
			// no destination: y has nothing to copy (pressed, it says so),
			// and e is what is needed; d before enter, which can only say
			// that the destination is required (the footer keeps esc first)
			keys = []key.Binding{k.Edit, k.CopyBack, k.Discard, k.Restore}
			way = 1
		default:
			keys = []key.Binding{k.Copy, k.Restore, k.Edit, k.CopyBack, k.Discard}
		}
		if _, _, cut := m.copyWindow(); cut {
			// after the way on (y, enter; e), so a narrow footer keeps both
			at := min(way, len(keys)-1)
			keys = append(keys[:at:at], append([]key.Binding{kit.ScrollHelp(k.More, k.Less)}, keys[at:]...)...)
		}
	}
	return kit.KeysOf(keys...)
}
