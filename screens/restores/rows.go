package restores

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/forms/restoreform"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
)

// The restores as the list shows them: the listing kept up to date, its
// rows with the target joined from the services listing, and the detail
// pane of one restore.

// setRestores replaces the listing, keeping the restores just accepted
// that it does not show yet.
func (s *Screen) setRestores(rs []api.Restore) {
	s.Loaded(kit.Invite(s.common, "no restores yet", "press n to restore a backup into a service"))
	seen := make(map[int64]bool, len(rs))
	now := s.common.Time()
	for _, r := range rs {
		id := int64(r.ID)
		seen[id] = true
		if r.Running() && r.CreatedAt.IsZero() {
			if _, ok := s.firstSeen[id]; !ok {
				s.firstSeen[id] = now
			}
		}
	}
	for id, r := range s.accepted {
		if seen[id] {
			delete(s.accepted, id)
			continue
		}
		rs = append(rs, r)
	}
	s.restores = rs
	s.rebuildRows()
}

// replace updates one restore in place (a watch's final answer).
func (s *Screen) replace(r api.Restore) {
	for i := range s.restores {
		if s.restores[i].ID == r.ID {
			s.restores[i] = r
			s.rebuildRows()
			return
		}
	}
}

// anyRunning reports a restore being submitted or running (its elapsed
// time moves with the clock).
func (s *Screen) anyRunning() bool { return s.pending != nil || kit.AnyRestoreRunning(s.restores) }

func rowID(r *api.Restore) string {
	if r.ID == 0 {
		return pendingRowID
	}
	return strconv.FormatInt(int64(r.ID), 10)
}

// all is the restores shown: the one being submitted first, then the
// listing newest first.
func (s *Screen) all() []api.Restore {
	out := make([]api.Restore, 0, len(s.restores)+1)
	if s.pending != nil && s.submittedListed() == nil {
		out = append(out, *s.pending)
	}
	list := append([]api.Restore(nil), s.restores...)
	sort.SliceStable(list, func(i, j int) bool { return list[i].ID > list[j].ID })
	return append(out, list...)
}

// submittedListed is the restore being submitted as the listing shows
// it before the submit's answer came: the newest restore on its target
// that was not listed when it was sent, has not finished and did not
// start before it was sent (a minute's skew allowed); nil when there is
// none.
func (s *Screen) submittedListed() *api.Restore {
	if s.pending == nil {
		return nil
	}
	since := s.pending.CreatedAt.Add(-time.Minute)
	var found *api.Restore
	for i := range s.restores {
		r := &s.restores[i]
		switch {
		case r.ID <= 0 || r.ServiceID != s.pending.ServiceID || s.pendingKnown[int64(r.ID)]:
		case r.Finished() || !r.CreatedAt.IsZero() && r.CreatedAt.Before(since):
		case found == nil || r.ID > found.ID:
			found = r
		}
	}
	return found
}

func (s *Screen) rebuildRows() {
	now := s.common.Time()
	s.rowsAt = now
	onPending := s.Table.SelectedID() == pendingRowID
	all := s.all()
	rows := make([]kit.Row, 0, len(all))
	clear(s.byRow)
	shown := s.restoresShown(all)
	for i := range shown {
		r := &shown[i]
		id := rowID(r)
		idCell := id
		switch {
		case r.ID == 0 && s.pending != nil && i == 0 && r.Status == s.pending.Status:
			idCell = "-" // the restore being submitted
		case r.ID == 0:
			// listed without a readable id (null, odd): its own row, "?"
			id, idCell = "noid-"+strconv.Itoa(i), "?"
		}
		s.byRow[id] = i
		rows = append(rows, kit.Row{
			ID: id,
			Cells: []string{
				colID:      idCell,
				colTarget:  s.targetName(r),
				colService: r.ServiceID,
				colSource:  s.sourceText(r),
				colType:    r.Type,
				colStatus:  s.statusText(r, now) + s.staleMark(r.ServiceID),
				colStarted: kit.ShortTime(r.CreatedAt, now),
				colMessage: r.Message,
			},
			Kinds: []theme.Kind{colStatus: theme.StatusKind(r.Status)},
		})
	}
	s.visible = shown
	s.SetRows(rows)
	if r := s.submittedListed(); onPending && r != nil {
		// the placeholder gave way to the listed restore: the selection follows
		s.Table.Select(rowID(r))
		s.RefreshDetail()
	}
}

// staleFor is why the restores of service id are not fresh: its listing
// failed in the last sweep (nil: they are fresh).
func (s *Screen) staleFor(id string) *api.SweepFailure {
	for i := range s.stale {
		if s.stale[i].ServiceID == id {
			return &s.stale[i]
		}
	}
	return nil
}

// staleMark marks the status of a restore whose service's listing failed
// (the status is from its last listing that did not fail).
func (s *Screen) staleMark(id string) string {
	if s.staleFor(id) == nil {
		return ""
	}
	return " (stale)"
}

// staleNote says, on the status line, which services' restores are not
// fresh, by name, since when and why (the first; the others counted):
// the other services' rows are.
func (s *Screen) staleNote() string {
	var shown []api.SweepFailure
	for _, f := range s.stale {
		if s.svcFilter == "" || f.ServiceID == s.svcFilter {
			shown = append(shown, f)
		}
	}
	if len(shown) == 0 {
		return ""
	}
	f := shown[0]
	name := s.serviceName(f.ServiceID)
	if name == f.ServiceID && f.ServiceName != "" {
		name = f.ServiceName
	}
	text := "restores of " + name + " not read"
	if !f.Since.IsZero() {
		text += " since " + f.Since.Local().Format("15:04:05")
	}
	text += ": " + f.Err.Error()
	if len(shown) > 1 {
		text += fmt.Sprintf(" (+%d services)", len(shown)-1)
	}
	return s.common.Theme.Warn.Render(text)
}

func (s *Screen) restoresShown(all []api.Restore) []api.Restore {
	if s.svcFilter == "" {
		return all
	}
	var out []api.Restore
	for _, r := range all {
		if r.ServiceID == s.svcFilter || s.sourceService(&r) == s.svcFilter {
			out = append(out, r)
		}
	}
	return out
}

func (s *Screen) targetName(r *api.Restore) string {
	if v, ok := s.services[r.ServiceID]; ok && v.Name != "" {
		return v.Name
	}
	if r.ServiceName != "" {
		return r.ServiceName
	}
	return r.ServiceID
}

func (s *Screen) serviceName(id string) string {
	if v, ok := s.services[id]; ok && v.Name != "" {
		return v.Name
	}
	return id
}

// sourceService is the service whose backup a managed restore used.
func (s *Screen) sourceService(r *api.Restore) string { return restoreform.KeyService(r.Key) }

// pointInTime is a point-in-time restore as it was sent: the moment (UTC)
// and the service whose backups and binary logs it replays.
type pointInTime struct {
	at, of string
	// target and key are the accepted record's (key "" when it had none):
	// a restore listed under the same ID with another target or backup is
	// not this one (IDs start again when a server is reset)
	target, key string
}

// pitOf is the point in time r was submitted here for, if r is that
// restore.
func (s *Screen) pitOf(r *api.Restore) (pointInTime, bool) {
	p, ok := s.pointInTime[int64(r.ID)]
	if !ok || p.target != "" && r.ServiceID != "" && r.ServiceID != p.target || p.key != "" && r.Key != "" && r.Key != p.key {
		return pointInTime{}, false
	}
	return p, true
}

// text says it as the SOURCE column does.
func (p pointInTime) text() string { return p.of + " at " + p.at + " UTC" }

// sourceText is the backup key shortened with its service, or the bucket
// and file of an own-bucket restore; a point-in-time restore submitted
// here, its source service and moment.
func (s *Screen) sourceText(r *api.Restore) string {
	if p, ok := s.pitOf(r); ok {
		return p.text()
	}
	if sid := s.sourceService(r); sid != "" {
		return api.ShortKey(r.Key) + " of " + s.serviceName(sid)
	}
	switch {
	case r.Bucket != "" && r.Key != "":
		return strings.TrimSuffix(r.Bucket, "/") + "/" + strings.TrimPrefix(r.Key, "/")
	case r.Bucket != "":
		return r.Bucket
	}
	return r.Key
}

// sourceKind says where the backup came from.
func (s *Screen) sourceKind(r *api.Restore) string {
	if _, ok := s.pitOf(r); ok {
		return "point in time (submitted here): backups and binary logs"
	}
	if s.sourceService(r) != "" {
		return "managed storage"
	}
	if strings.HasPrefix(r.Bucket, "gs://") || strings.HasPrefix(r.Bucket, "s3://") {
		return "your own bucket"
	}
	if r.Key != "" {
		return "backup ID"
	}
	return "-"
}

// started is when a restore started: its created_at, else when this
// screen first saw it running.
func (s *Screen) started(r *api.Restore) time.Time {
	if !r.CreatedAt.IsZero() {
		return r.CreatedAt.Time
	}
	return s.firstSeen[int64(r.ID)]
}

// statusText is the status word, with the elapsed time while running.
func (s *Screen) statusText(r *api.Restore, now time.Time) string {
	st := r.Status
	if st == "" {
		st = "unknown"
	}
	if r.Running() {
		if t := s.started(r); !t.IsZero() {
			return st + " " + kit.Elapsed(now.Sub(t))
		}
	}
	return st
}

// listed is the restore with that ID as the listing shows it now (the
// restores just accepted included).
func (s *Screen) listed(id int64) (api.Restore, bool) {
	for _, r := range s.restores {
		if int64(r.ID) == id {
			return r, true
		}
	}
	return api.Restore{}, false
}

// restore is the restore of a row.
func (s *Screen) restore(id string) (api.Restore, bool) {
	i, ok := s.byRow[id]
	if !ok || i >= len(s.visible) {
		return api.Restore{}, false
	}
	return s.visible[i], true
}

func (s *Screen) selected() (api.Restore, bool) { return s.restore(s.SelectedID()) }

// detailOf is the detail pane of a row (kit.ListView.DetailOf).
func (s *Screen) detailOf(id string) (string, []kit.Section, bool) {
	r, ok := s.restore(id)
	if !ok {
		return "", nil, false
	}
	title := "Restore " + rowID(&r) + " into " + s.targetName(&r)
	if r.ID == 0 {
		title = "Restore into " + s.targetName(&r) + " (being submitted)"
	}
	return title, s.detailSections(&r), true
}

// detailSections is the whole restore record, the target as the services
// listing shows it, and the source.
func (s *Screen) detailSections(r *api.Restore) []kit.Section {
	now := s.common.Time()
	opt := func(v string) string {
		if v == "" {
			return "-"
		}
		return v
	}
	created := "-"
	if t := s.started(r); !t.IsZero() {
		created = t.Local().Format("2006-01-02 15:04:05") + " (" + kit.Ago(now.Sub(t)) + " ago)"
		if r.CreatedAt.IsZero() {
			created += ", first seen"
		}
	}
	rec := kit.Section{Fields: []kit.Field{
		{Label: "Status", Value: s.statusText(r, now), Kind: theme.StatusKind(r.Status)},
		{Label: "Message", Value: opt(r.Message)},
		{Label: "ID", Value: opt(rowID(r))},
		{Label: "Type", Value: opt(r.Type)},
		{Label: "Started", Value: created},
	}}
	tgt := kit.Section{Title: "Target", Fields: []kit.Field{
		{Label: "Name", Value: s.targetName(r)},
		{Label: "Service ID", Value: r.ServiceID},
	}}
	if v, ok := s.services[r.ServiceID]; ok {
		tgt.Fields = append(tgt.Fields,
			kit.Field{Label: "Provider", Value: opt(v.Where())},
			kit.Field{Label: "Status now", Value: opt(v.Status), Kind: theme.StatusKind(v.Status)})
	}
	src := kit.Section{Title: "Source", Fields: []kit.Field{
		{Label: "From", Value: s.sourceKind(r)},
	}}
	if p, ok := s.pitOf(r); ok {
		src.Fields = append(src.Fields, kit.Field{Label: "Moment", Value: p.text()})
	}
	if sid := s.sourceService(r); sid != "" {
		src.Fields = append(src.Fields, kit.Field{Label: "Backup of", Value: s.serviceName(sid) + " (" + sid + ")"})
	}
	src.Fields = append(src.Fields,
		kit.Field{Label: "Backup key", Value: opt(r.Key), Breaks: ":"}, // between its parts only
		kit.Field{Label: "Bucket", Value: opt(r.Bucket)})
	var note string
	switch {
	case r.ID == 0:
		note = "Being submitted: the row becomes the API's record when it answers."
	case r.Running():
		note = "While it runs the target is stopped and its data replaced. d deletes it (only before it finishes)."
	case r.Succeeded():
		// a file in a bucket names no service: they are the backup's
		from := "the backup's"
		if sid := s.sourceService(r); sid != "" {
			from = "those of " + s.serviceName(sid)
		}
		note = "The target's data and its default username and password are now " + from + "."
	case r.Failed():
		note = "The restore failed; the message says why."
	}
	secs := []kit.Section{rec, tgt, src}
	if note != "" {
		secs = append(secs, kit.Section{Title: "What it means", Fields: []kit.Field{{Label: "Note", Value: note}}})
	}
	return secs
}
