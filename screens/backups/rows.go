package backups

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
)

// tooOldWord marks a backup older than ReplicationMaxAge in its row.
const tooOldWord = "too old"

// ReplicationMaxAge is the default binlog retention: a backup older than
// this cannot be used to start replication.
const ReplicationMaxAge = 4 * 24 * time.Hour

// backupData is what the backups resource fetches: the listing and the
// status call's answer (absent when the server has none).
type backupData struct {
	Backups           []api.Backup
	Statuses          []api.BackupStatus
	StatusErr         error // the status call failed (the listing's status is used)
	StatusUnsupported bool  // the server has no status call
}

// Where a row's status comes from.
const (
	srcStatus    = "status call"
	srcListing   = "listing"
	srcSubmitted = "submitted here"
)

// item is one backup as shown: the listing's record with the status call's
// state merged in.
type item struct {
	api.Backup
	State   string // api.BackupInProgress, BackupCompleted, BackupFailed or ""
	Word    string // the status as shown
	Message string
	Source  string
	Listed  bool // in the listing (else known from the status call or a submit)
	// Optimistic rows were submitted here and are not listed yet.
	Optimistic bool
	JobID      int64
}

func (it *item) inProgress() bool { return it.State == api.BackupInProgress }

// optimistic is a job submitted from this screen, shown until the
// listing has it.
type optimistic struct {
	item
	at time.Time
}

// merge joins the listing and the status call: the status call's state
// wins where it knows the backup (it is the call meant for initiated
// backups); backups it reports that the listing does not show yet are
// added.
func merge(d backupData, opt map[string]*optimistic) []item {
	byID := make(map[string]api.BackupStatus, len(d.Statuses))
	for _, s := range d.Statuses {
		if s.ID != "" {
			byID[s.ID] = s
		}
	}
	out := make([]item, 0, len(d.Backups)+len(d.Statuses))
	seen := make(map[string]bool, len(d.Backups))
	for _, b := range d.Backups {
		it := item{Backup: b, Listed: true, Source: srcListing, State: api.BackupState(b.Status)}
		if s, ok := byID[b.Key]; ok {
			if st := api.BackupState(s.Status); st != "" {
				it.State, it.Source = st, srcStatus
			}
			it.Message = s.Message
		}
		it.Word = word(it.State, b.Status)
		seen[b.Key] = true
		out = append(out, it)
	}
	for _, s := range d.Statuses {
		if s.ID == "" || seen[s.ID] {
			continue
		}
		seen[s.ID] = true
		st := api.BackupState(s.Status)
		out = append(out, item{
			Backup: api.Backup{Key: s.ID, ServiceID: s.ServiceID, Type: s.Type, Status: s.Status},
			State:  st, Word: word(st, s.Status), Message: s.Message, Source: srcStatus,
		})
	}
	for k, o := range opt {
		if seen[k] {
			continue
		}
		out = append(out, o.item)
	}
	return out
}

func word(state, raw string) string {
	if state != "" {
		return state
	}
	return api.BackupWord(raw)
}

// takenSince reports that b may be the backup a job of type typ
// submitted at at made: of that type, started since (2 minutes' leeway
// for the clocks).
func takenSince(b api.Backup, typ string, at time.Time) bool {
	return strings.EqualFold(b.Type, typ) && !b.StartTime.IsZero() && !b.StartTime.Before(at.Add(-2*time.Minute))
}

// settle drops optimistic rows the data now shows: by key, or (when the
// server did not say which backup a job produced) by a backup of the same
// type started since the submit. Rows older than ten minutes go anyway.
func settle(d backupData, opt map[string]*optimistic, now time.Time) {
	keys := make(map[string]bool, len(d.Backups)+len(d.Statuses))
	for _, b := range d.Backups {
		keys[b.Key] = true
	}
	for _, s := range d.Statuses {
		keys[s.ID] = true
	}
	for k, o := range opt {
		switch {
		case keys[k]:
			delete(opt, k)
		case o.JobID != 0 && strings.HasPrefix(k, "job "):
			for _, b := range d.Backups {
				if takenSince(b, o.Type, o.at) {
					delete(opt, k)
					break
				}
			}
		}
		if now.Sub(o.at) > followLimit {
			delete(opt, k)
		}
	}
}

// Sort orders (kit.ListView.SetSort): s cycles, started and size
// descending first.
type sortKey int

const (
	sortStarted sortKey = iota
	sortType
	sortStatus
	sortSize
)

func sortItems(items []item, by sortKey, desc bool) {
	sort.SliceStable(items, func(i, j int) bool {
		a, b := &items[i], &items[j]
		c := 0
		switch by {
		case sortStarted:
			c = a.StartTime.Compare(b.StartTime.Time)
		case sortType:
			c = strings.Compare(strings.ToLower(a.Type), strings.ToLower(b.Type))
		case sortStatus:
			c = strings.Compare(a.Word, b.Word)
		case sortSize:
			c = cmpInt(a.SizeBytes, b.SizeBytes)
		}
		if desc {
			c = -c
		}
		if c != 0 {
			return c < 0
		}
		// ties: newest first, then by key
		if t := b.StartTime.Compare(a.StartTime.Time); t != 0 {
			return t < 0
		}
		return a.Key < b.Key
	})
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// age is how old a backup is: from its start (the replication position is
// the backup's, so the binlogs since then must still exist).
func (it *item) age(now time.Time) (time.Duration, bool) {
	if it.StartTime.IsZero() {
		return 0, false
	}
	return now.Sub(it.StartTime.Time), true
}

// TooOld reports a completed backup older than the binlog retention.
func (it *item) TooOld(now time.Time) bool {
	a, ok := it.age(now)
	return ok && it.State == api.BackupCompleted && a > ReplicationMaxAge
}

func (it *item) ageText(now time.Time) string {
	a, ok := it.age(now)
	if !ok {
		if it.StartTime.Unread() {
			return "?"
		}
		return "-"
	}
	if it.TooOld(now) {
		return kit.Ago(a) + " " + tooOldWord
	}
	return kit.Ago(a)
}

func (it *item) durationText(now time.Time) string {
	if it.StartTime.IsZero() {
		return "-"
	}
	if it.inProgress() {
		return kit.Elapsed(now.Sub(it.StartTime.Time)) + " so far"
	}
	if it.EndTime.IsZero() || it.EndTime.Before(it.StartTime.Time) {
		return "-"
	}
	return kit.Elapsed(it.EndTime.Sub(it.StartTime.Time))
}

func fullTime(t api.Time) string {
	if t.Unread() {
		return t.Raw + "  (as the API sent it; not a time skytui can read)"
	}
	if t.IsZero() {
		return "-"
	}
	l := t.Local().Format("2006-01-02 15:04:05 MST")
	u := t.UTC().Format("2006-01-02 15:04:05 UTC")
	if l == u {
		return u
	}
	return l + "  (" + u + ")"
}

// sizeText is the backup's size, "?" when the answer's size was unreadable.
func (it *item) sizeText() string {
	if it.SizeBytes <= 0 && !(it.Known("backup_size") && it.Known("storage_bytes")) {
		return "?"
	}
	return kit.HumanBytes(it.SizeBytes)
}

func (it *item) binlogText() string {
	if it.BinlogFile == "" {
		return "-"
	}
	if it.BinlogPosition == "" {
		return it.BinlogFile
	}
	return it.BinlogFile + ":" + string(it.BinlogPosition)
}

// Column indices of the backups table.
const (
	colKey = iota
	colType
	colStatus
	colAge
	colStarted
	colDuration
	colSize
	colStored
	colGTID
	colBinlog
)

// tableColumns are the backups table's columns; with service, SERVICE
// comes first (the all-services view). The Mins keep the service's name
// and the key whole: at 80 columns the table shows SERVICE, KEY, TYPE,
// STATUS, AGE and SIZE (STARTED is AGE's time; where it is stored is in
// the detail), whatever the rows say. When it ended is STARTED and
// DURATION (and in the detail): no column repeats it.
func tableColumns(service bool) []kit.Column {
	cols := []kit.Column{
		colKey:      {Title: "KEY", Min: 12, Max: 12, Priority: 10},
		colType:     {Title: "TYPE", Min: 11, Max: 11, Priority: 9},
		colStatus:   {Title: "STATUS", Min: 11, Max: 11, Priority: 10},
		colAge:      {Title: "AGE", Min: 8, Max: 12, Priority: 8},
		colStarted:  {Title: "STARTED", Min: 12, Max: 12, Priority: 5},
		colDuration: {Title: "DURATION", Min: 8, Max: 15, Priority: 4},
		colSize:     {Title: "SIZE", Min: 7, Max: 9, Priority: 7, Right: true},
		colStored:   {Title: "STORED", Min: 7, Max: 24, Priority: 6},
		colGTID:     {Title: "GTID", Min: 14, Max: 26, Priority: 3},
		colBinlog:   {Title: "BINLOG FILE:POS", Min: 10, Max: 26, Priority: 2},
	}
	if service {
		cols = append([]kit.Column{{Title: "SERVICE", Min: 14, Max: 24, Priority: 9}}, cols...)
	}
	return cols
}

// row is the backup's row. ageShown says whether the AGE column has room:
// where it has none, the STATUS of a backup too old to start replication
// says "too old" (it is completed), so the word stays in view.
func (it *item) row(now time.Time, ageShown bool) kit.Row {
	ageKind := theme.KindNeutral
	status, statusKind := it.Word, theme.StatusKind(it.Word)
	if it.TooOld(now) {
		ageKind = theme.KindWarn
		if !ageShown {
			status, statusKind = tooOldWord, theme.KindWarn
		}
	}
	key := api.ShortKey(it.Key)
	if it.Optimistic && strings.HasPrefix(it.Key, "job ") {
		key = it.Key
	}
	return kit.Row{
		ID: it.Key,
		Cells: []string{
			colKey:      key,
			colType:     it.Type,
			colStatus:   status,
			colAge:      it.ageText(now),
			colStarted:  kit.ShortTime(it.StartTime, now),
			colDuration: it.durationText(now),
			colSize:     it.sizeText(),
			colStored:   it.Stored(),
			colGTID:     kit.OrDash(it.BinlogGTIDPosition),
			colBinlog:   it.binlogText(),
		},
		Kinds: []theme.Kind{colStatus: statusKind, colAge: ageKind, colBinlog: 0},
	}
}

// replicationText says whether the backup can start replication.
func (it *item) replicationText(now time.Time) (string, theme.Kind) {
	a, ok := it.age(now)
	switch {
	case it.State == api.BackupFailed:
		return "no: the backup failed", theme.KindMuted
	case it.inProgress():
		return "not yet: the backup is still in progress", theme.KindPending
	case !ok:
		return "unknown: no start time", theme.KindMuted
	case it.TooOld(now):
		return fmt.Sprintf("no: %s old, older than the 4-day binlog retention (too old to start replication)", kit.Ago(a)), theme.KindWarn
	case it.BinlogGTIDPosition == "" && it.BinlogFile == "":
		return "no: the backup has no GTID or binlog position", theme.KindMuted
	}
	left := ReplicationMaxAge - a
	return fmt.Sprintf("yes: %s old, within the 4-day binlog retention for %s more", kit.Ago(a), kit.Ago(left)), theme.KindOK
}

// detailSections lists every field of the backup.
func (it *item) detailSections(now time.Time, svcName string) []kit.Section {
	status := it.Word + "  (from the " + it.Source + ")"
	if it.Message != "" {
		status += "\n" + it.Message
	}
	size := "-"
	if it.SizeBytes > 0 {
		size = fmt.Sprintf("%s (%d bytes)", kit.HumanBytes(it.SizeBytes), it.SizeBytes)
	}
	stored := "managed storage (the service's default backup storage)"
	if it.CloudProvider != "" {
		stored = "managed storage on " + it.CloudProvider
	}
	bucket := ""
	if it.External() {
		stored = "your own bucket (offloaded: not in managed storage)"
		bucket = it.Stored()
	}
	age := "-"
	if a, ok := it.age(now); ok {
		age = kit.Ago(a) + " (since the start)"
		if it.TooOld(now) {
			age = kit.Ago(a) + ": older than 4 days, too old to start replication"
		}
	}
	ageKind := theme.KindNeutral
	if it.TooOld(now) {
		ageKind = theme.KindWarn
	}
	repl, replKind := it.replicationText(now)
	main := kit.Section{Fields: []kit.Field{
		{Label: "Key", Value: it.Key, Breaks: ":"}, // between its parts only
		{Label: "Type", Value: kit.OrDash(it.Type)},
		{Label: "Method", Value: kit.OrDash(it.Method)},
		{Label: "Status", Value: status, Kind: theme.StatusKind(it.Word)},
		{Label: "Started", Value: fullTime(it.StartTime)},
		{Label: "Ended", Value: fullTime(it.EndTime)},
		{Label: "Duration", Value: it.durationText(now)},
		{Label: "Age", Value: age, Kind: ageKind},
		{Label: "Size", Value: size},
		{Label: "Stored in", Value: stored},
	}}
	if bucket != "" {
		main.Fields = append(main.Fields, kit.Field{Label: "Bucket path", Value: bucket})
	}
	main.Fields = append(main.Fields, kit.Field{Label: "Point in time", Value: kit.OrDash(it.PointInTime)})
	if it.Optimistic {
		main.Fields = append(main.Fields, kit.Field{Label: "Note", Value: "submitted from this screen; not listed by the API yet"})
	}
	pos := string(it.BinlogPosition)
	rep := kit.Section{Title: "Replication", Fields: []kit.Field{
		{Label: "GTID position", Value: kit.OrDash(it.BinlogGTIDPosition)},
		{Label: "Binlog file", Value: kit.OrDash(it.BinlogFile)},
		{Label: "Binlog position", Value: kit.OrDash(pos)},
		{Label: "Can start replication", Value: repl, Kind: replKind},
	}}
	svc := kit.Section{Title: "Service", Fields: []kit.Field{
		{Label: "Service", Value: serviceText(svcName, it.ServiceID)},
		{Label: "Cloud provider", Value: kit.OrDash(it.CloudProvider)},
	}}
	return []kit.Section{main, rep, svc}
}

func serviceText(name, id string) string {
	if name == "" || name == id {
		return kit.OrDash(id)
	}
	return name + " (" + kit.OrDash(id) + ")"
}
