package restoreform

import (
	"sort"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
)

// The wizard's lists sized to its body, and the managed backups' rows.

// fitLists gives the target list and the backups step's lists the
// wizard's body (the area under the title), less the lines over them and
// those of the step's refusal under them. A backup list cut to its room
// gives its last line to the line that says what is cut (MoreRows).
func (r *Wizard) fitLists() {
	room := r.height - 2
	if r.step == stageTarget && r.stepErr != "" {
		room -= 1 + len(r.errLines(r.width))
	}
	r.targets.SetSize(r.width, max(3, room))
	r.fitBackups()
}

// fitBackups sizes the backups step's lists (fitLists).
func (r *Wizard) fitBackups() {
	room := r.height - 2
	if r.step == stageBackup && r.stepErr != "" {
		room -= 1 + len(r.errLines(r.width))
	}
	r.sources.SetSize(r.width, max(3, room-len(r.backupHead(r.width, true))))
	room -= len(r.backupHead(r.width, false))
	r.backupTable.SetSize(r.width, max(3, room))
	if r.backupTable.Cut() {
		r.backupTable.SetSize(r.width, max(3, room-1))
	}
}

func (r *Wizard) rebuildBackups() {
	defer r.fitBackups()
	if r.backupsFor != r.sourceServiceID() {
		return
	}
	list := make([]api.Backup, 0, len(r.backups))
	for _, b := range r.backups {
		list = append(list, b)
	}
	sort.Slice(list, func(i, j int) bool {
		if !list[i].StartTime.Equal(list[j].StartTime.Time) {
			return list[i].StartTime.After(list[j].StartTime.Time)
		}
		return list[i].Key < list[j].Key
	})
	now := r.common.Time()
	src := r.service(r.sourceServiceID())
	rows := make([]kit.Row, 0, len(list))
	for _, b := range list {
		age := "-"
		if !b.StartTime.IsZero() {
			age = kit.Ago(now.Sub(b.StartTime.Time))
		}
		storage := "managed"
		if b.IsExternalStorage {
			storage = b.Bucket
			if storage == "" {
				storage = "own bucket"
			}
		}
		prov := b.CloudProvider
		if prov == "" {
			prov = src.Provider
		}
		if prov != "" && !b.IsExternalStorage {
			storage += " (" + prov + ")"
		}
		rows = append(rows, kit.Row{ID: b.Key,
			Cells: []string{api.ShortKey(b.Key), b.Type, api.BackupWord(b.Status), age, kit.HumanBytes(b.SizeBytes), storage, b.BinlogGTIDPosition},
			Kinds: []theme.Kind{0, 0, theme.StatusKind(b.Status)}})
	}
	switch {
	case r.backupsLoaded:
		r.backupTable.Empty = "no backups of " + src.NameOrID() + " yet"
	case r.backupsErr != nil:
		r.backupTable.Empty = "none listed: the listing failed" // its error is over the list
	}
	first := r.backupTable.Total() == 0
	r.backupTable.SetRows(rows)
	if first && len(rows) > 0 {
		// start on the preselected backup, else the newest restorable one
		if r.backupKey == "" || !r.backupTable.Select(r.backupKey) {
			for _, b := range list {
				if api.ManagedRestoreRefusal(b) == "" {
					r.backupTable.Select(b.Key)
					break
				}
			}
		}
	}
}
