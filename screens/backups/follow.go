package backups

import (
	"context"
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
