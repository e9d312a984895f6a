package backups

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
)

// The backups list: the rows (merged, sorted), the detail pane and the
// status line of the kit.ListView the screen embeds.

// emptyText is what the table says when it has no rows.
func (s *Screen) emptyText() string {
	switch {
	case !s.all():
		return kit.Invite(s.common, "no backups yet", "n takes one (the platform also takes a nightly full backup)")
	case s.svcsOK && len(s.services) == 0:
		return kit.Invite(s.common, "no services in this account yet", "create one on the Services screen (1, then n)")
	}
	return kit.Invite(s.common, "no backups of any service yet", s.keys.Pick.Help().Key+" picks a service, then n takes one")
}

// itemService is the service of a backup: its service_id, else the one in
// its key ("<hash>:<service_id>:<pod>").
func itemService(it *item) string {
	if it.ServiceID != "" {
		return it.ServiceID
	}
	if _, rest, ok := strings.Cut(it.Key, ":"); ok {
		id, _, _ := strings.Cut(rest, ":")
		return id
	}
	return ""
}

// rebuild merges, sorts and hands the table its rows; the table keeps
// the cursor on the same backup.
func (s *Screen) rebuild() {
	items := merge(s.data, s.optimistic)
	by, desc := s.SortOrder()
	sortItems(items, sortKey(by), desc)
	s.items = items
	col := colStarted
	switch sortKey(by) {
	case sortType:
		col = colType
	case sortStatus:
		col = colStatus
	case sortSize:
		col = colSize
	}
	// first: the sort mark's room may change which columns show
	s.Table.SetSortIndicator(s.col(col), desc)
	now := s.common.Time()
	ageShown := s.Table.Shown(s.col(colAge))
	rows := make([]kit.Row, len(items))
	clear(s.byKey)
	for i := range items {
		s.byKey[items[i].Key] = i
		rows[i] = items[i].row(now, ageShown)
		if s.all() {
			r := &rows[i]
			r.Cells = append([]string{s.nameOf(itemService(&items[i]), items[i].ServiceName)}, r.Cells...)
			r.Kinds = append([]theme.Kind{theme.KindNeutral}, r.Kinds...)
		}
	}
	s.SetRows(rows)
}

func (s *Screen) backup(key string) (item, bool) {
	i, ok := s.byKey[key]
	if !ok {
		return item{}, false
	}
	return s.items[i], true
}

func (s *Screen) selected() (item, bool) { return s.backup(s.SelectedID()) }

// detailOf is the detail pane of a backup (kit.ListView.DetailOf).
func (s *Screen) detailOf(key string) (string, []kit.Section, bool) {
	it, ok := s.backup(key)
	if !ok {
		return "", nil, false
	}
	return "Backup " + api.ShortKey(it.Key), it.detailSections(s.common.Time(), s.nameOf(itemService(&it), it.ServiceName)), true
}

// hasFull reports a completed full backup of service id in what is
// shown, for the form's incremental rule; nil while the listing is not
// loaded (the form then finds out itself).
func (s *Screen) hasFull(id string) *bool {
	if !s.IsLoaded() || !s.shows(id) {
		return nil
	}
	has := false
	for _, it := range merge(s.data, nil) {
		if itemService(&it) != id {
			continue
		}
		if api.HasCompletedFull([]api.Backup{it.Backup}) ||
			strings.EqualFold(it.Type, api.BackupFull) && it.State == api.BackupCompleted {
			has = true
		}
	}
	return &has
}

// listView is the list: the status line (count, sort, the too-old note,
// the screen's notes, a failed status call) over the table and its pane.
func (s *Screen) listView() string {
	th := s.common.Theme
	notes := s.notes()
	if s.submitting == "" && !s.Stale() && s.data.StatusErr != nil {
		notes = append(notes, th.Warn.Render("status call failed: showing the listing's status"))
	}
	// two spaces between the title and the count, as this screen always
	// had (the list puts one)
	count := " " + s.countText()
	return s.ListView.View(count, append(s.sortNotes(count, notes), notes...)...)
}

// tooOldNotes are the forms of the note that says what "too old" in the
// AGE column means, longest first.
var tooOldNotes = []string{
	"too old = over 4 days: cannot start replication",
	"too old: >4 days",
}

// staleNote is what kit.ListView.StatusLine adds at the end of the line
// when the data is stale; measured here so that it is not the part cut.
const staleNote = "showing last data"

// sortNotes are the sort note and, when a backup is too old, the too-old
// note, as the status line has room for them whole after the title, the
// count and the notes that follow (which come first): the longest form of
// the too-old note that fits beside the sort note; else the sort note
// gives way to it (the sort is the table header's arrow, and the default,
// newest first, is the AGE column's order); else the sort note alone.
// What does not fit whole is left out, never cut inside a word (the AGE
// cells still say "too old", or STATUS where AGE has no room, and the
// detail pane says why).
func (s *Screen) sortNotes(count string, after []string) []string {
	th := s.common.Theme
	w, _ := s.Size()
	used := ansi.StringWidth(" "+s.heading(s.svcID, false)) + 1 + ansi.StringWidth(count)
	for _, n := range after {
		if n != "" {
			used += 2 + ansi.StringWidth(n)
		}
	}
	if s.Stale() {
		used += 2 + ansi.StringWidth(staleNote)
	}
	fits := func(notes ...string) bool {
		n := used
		for _, x := range notes {
			n += 2 + ansi.StringWidth(x)
		}
		return n <= w
	}
	sortNote := th.Muted.Render(s.SortNote())
	if s.anyTooOld() {
		for _, n := range tooOldNotes {
			if n := th.Muted.Render(n); fits(sortNote, n) {
				return []string{sortNote, n}
			}
		}
		for _, n := range tooOldNotes {
			if n := th.Muted.Render(n); fits(n) {
				return []string{n}
			}
		}
	}
	if fits(sortNote) {
		return []string{sortNote}
	}
	return nil
}

func (s *Screen) anyTooOld() bool {
	now := s.common.Time()
	for i := range s.items {
		if s.items[i].TooOld(now) {
			return true
		}
	}
	return false
}

// countText is "loading", "N backups" ("N of M backups" under a filter),
// with how many are in progress.
func (s *Screen) countText() string {
	if !s.IsLoaded() && s.Err() == nil {
		return "loading"
	}
	n := s.Table.Total()
	word := "backups"
	if n == 1 {
		word = "backup"
	}
	if s.Table.Filter() != "" {
		return fmt.Sprintf("%d of %d %s", s.Table.Len(), n, word)
	}
	running := 0
	for i := range s.items {
		if s.items[i].inProgress() {
			running++
		}
	}
	if running > 0 {
		return fmt.Sprintf("%d %s, %d in progress", n, word, running)
	}
	return fmt.Sprintf("%d %s", n, word)
}
