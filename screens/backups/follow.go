package backups

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// A one-off backup taken here (n, once) is followed to its end whatever
// screen is shown (kit.Watch, as a restore is): the root says "backup KEY
// of SERVICE completed" (or failed, with the reason) in a toast and the
// log, with the bell when the user is elsewhere.

// followLimit is how long a job whose backup is not listed is looked for
// (the optimistic row's time too).
const followLimit = 10 * time.Minute

// followBackup watches the backup of the one-off job just accepted for
// service svcID (named name): key is the backup's key when the server
// said it, else "job N", found as settle finds it (the newest backup of
// its type started since the submit at at).
func followBackup(c *kit.Common, svcID, name, key, typ string, at time.Time) tea.Cmd {
	client := c.Client
	if client == nil {
		return nil
	}
	job := strings.HasPrefix(key, "job ")
	shown := key
	if !job {
		shown = api.ShortKey(key)
	}
	return kit.StartWatch(kit.Watch{
		Key:    "backup/" + svcID + "/" + key,
		Name:   "backup " + shown + " of " + name,
		Origin: ID,
		Fetch: func(ctx context.Context) (any, error) {
			d, err := fetchBackups(ctx, client, svcID)
			return merge(d, nil), err
		},
		Outcome: func(data any) (bool, kit.ToastLevel, string) {
			items, _ := data.([]item)
			it, ok := findJob(items, key, typ, at)
			switch {
			case !ok && c.Time().Sub(at) > followLimit:
				return true, kit.ToastWarn, "backup " + shown + " of " + name + " is not listed " + followLimit.String() + " after it was taken; the Backups screen (2) lists the service's backups"
			case !ok:
				return false, 0, ""
			}
			if job {
				key = it.Key // found: followed by its key from now on
				shown, job = api.ShortKey(it.Key), false
			}
			what := "backup " + shown + " of " + name
			switch it.State {
			case api.BackupCompleted:
				return true, kit.ToastSuccess, what + " completed"
			case api.BackupFailed:
				if it.Message != "" {
					return true, kit.ToastError, what + " failed: " + it.Message
				}
				return true, kit.ToastError, what + " failed"
			}
			return false, 0, ""
		},
	})
}

// findJob finds the backup followed in items: by key, or for a job the
// server named no backup of, the oldest backup of its type started since
// the submit (takenSince, as settle finds it).
func findJob(items []item, key, typ string, at time.Time) (item, bool) {
	var found item
	ok := false
	for _, it := range items {
		switch {
		case !strings.HasPrefix(key, "job "):
			if it.Key == key {
				return it, true
			}
		case takenSince(it.Backup, typ, at):
			if !ok || it.StartTime.Before(found.StartTime.Time) {
				found, ok = it, true
			}
		}
	}
	return found, ok
}

// seenBackup is the backup that the backups read again after a one-off
// backup's lost answer show started (its key, "" until then): the
// action's Effect finds it, the screen follows it when the action ends a
// second time (kit.ActionDoneMsg.Found).
type seenBackup struct{ key string }

// lostBackupEffect is the kit.Action.Effect of a one-off backup of type
// typ of service svcID submitted at at: a reading of its backups (as
// this screen reads them, as kit.Backups does, or every service's) shows
// it carried out when it lists a backup of that type started since the
// submit that was not listed then (known). What it finds goes to seen.
func lostBackupEffect(svcID, typ string, at time.Time, known map[string]bool, seen *seenBackup) func(kit.DataMsg) string {
	return func(msg kit.DataMsg) string {
		var list []api.Backup
		if d, err, ok := serviceBackupsKey(svcID).Of(msg); ok && err == nil {
			list = d.Backups
		} else if l, err, ok := kit.BackupsKey(svcID).Of(msg); ok && err == nil {
			list = l
		} else if l, err, ok := kit.AllBackupsKey.Of(msg); ok && err == nil {
			list = l
		}
		for _, b := range list {
			if known[b.Key] || !takenSince(b, typ, at) {
				continue
			}
			if id := itemService(&item{Backup: b}); id != "" && id != svcID {
				continue
			}
			seen.key = b.Key
			return fmt.Sprintf("backup %s: %s, %s", api.ShortKey(b.Key), kit.OrDash(b.Type), api.BackupWord(b.Status)) // the lists' word
		}
		return ""
	}
}

// knownBackups are the keys of the backups of service svcID listed now.
func (s *Screen) knownBackups(svcID string) map[string]bool {
	known := map[string]bool{}
	for _, b := range s.data.Backups {
		if id := itemService(&item{Backup: b}); id == "" || id == svcID {
			known[b.Key] = true
		}
	}
	return known
}
