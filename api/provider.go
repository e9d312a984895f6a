package api

import (
	"fmt"
	"strings"
)

// CrossProvider is a restore from managed storage refused before any
// call: a backup can be restored only within the cloud provider it was
// taken on.
type CrossProvider struct {
	Backup         string // short description of the backup
	SourceService  Service
	Target         Service
	SourceProvider string
	TargetProvider string
	Record         *Backup // the refused backup
}

// Error says why, in one line.
func (e *CrossProvider) Error() string {
	return fmt.Sprintf("backup %s was taken on %s and %s runs on %s: a backup can be restored only within the same cloud provider",
		e.Backup, e.SourceProvider, e.Target.NameOrID(), e.TargetProvider)
}

// CheckSameProvider refuses a managed restore across cloud providers, from
// what the listings say (the backup's cloud_provider, else its service's
// provider). It returns nil when both providers are known and equal, or
// when either is unknown (the API then decides).
func CheckSameProvider(b Backup, source, target Service) *CrossProvider {
	sp := strings.ToLower(b.CloudProvider)
	if sp == "" {
		sp = strings.ToLower(source.Provider)
	}
	tp := strings.ToLower(target.Provider)
	if sp == "" || tp == "" || sp == tp {
		return nil
	}
	bb := b
	return &CrossProvider{Backup: ShortKey(b.Key), SourceService: source, Target: target, SourceProvider: sp, TargetProvider: tp, Record: &bb}
}

// ManagedRestoreRefusal says why backup b of a listing cannot be restored
// from managed storage ("" when it can): only a completed backup can be,
// and one written to the user's own bucket is restored from there. The
// restore wizard and the command line refuse it with this before anything
// is sent.
func ManagedRestoreRefusal(b Backup) string {
	switch BackupState(b.Status) {
	case BackupInProgress:
		return "backup " + ShortKey(b.Key) + " is still running; only a completed backup can be restored"
	case BackupFailed:
		return "backup " + ShortKey(b.Key) + " failed; only a completed backup can be restored"
	case "":
		return "backup " + ShortKey(b.Key) + " is " + b.Status + "; only a completed backup can be restored"
	}
	if b.IsExternalStorage {
		where := b.Bucket
		if where == "" {
			where = "your own bucket"
		}
		return "backup " + ShortKey(b.Key) + " was written to " + where + ", not to managed storage: restore it with the own-bucket source"
	}
	return ""
}

// HasCompletedFull reports a completed full backup in a listing (an
// incremental backup needs one).
func HasCompletedFull(list []Backup) bool {
	for _, x := range list {
		if strings.EqualFold(x.Type, BackupFull) && BackupState(x.Status) == BackupCompleted {
			return true
		}
	}
	return false
}
