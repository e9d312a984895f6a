package restoreform

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// Record is the record to show at once after the API accepted a
// restore: the answer, completed with what the request said (the live
// service may answer with little more than an id).
func Record(result any, tag Tag) api.Restore {
	var rec api.Restore
	if r, ok := result.(*api.Restore); ok && r != nil {
		rec = *r
	}
	if rec.ServiceID == "" {
		rec.ServiceID = tag.Target.ID
	}
	if rec.ServiceName == "" {
		rec.ServiceName = tag.Target.Name
	}
	if rec.Status == "" {
		rec.Status = "Running"
	}
	if rec.CreatedAt.IsZero() {
		rec.CreatedAt = api.Time{Time: tag.SubmittedAt}
	}
	return rec
}

// WatchKey is the watch key of a restore.
func WatchKey(rec api.Restore) string {
	if rec.ID > 0 {
		return "restore/" + strconv.FormatInt(int64(rec.ID), 10)
	}
	return "restore/service/" + rec.ServiceID
}

// notListedFor is how long a restore accepted with an answer that named
// none may stay unlisted before its watch ends, the outcome unknown.
const notListedFor = time.Minute

// listedBefore holds the IDs of the target's restores listed just before
// a restore was sent (the action layer reads the action's Evidence then):
// an answer that names no restore is followed only to one not among them.
type listedBefore struct {
	mu    sync.Mutex
	tried bool // the reading before the send was made
	read  bool // and it succeeded: ids are those listed
	ids   map[int64]bool
}

// evidence wraps the action's Evidence: its first reading, the one
// before the send, is kept (a later one, after an unknown outcome, is not).
func (b *listedBefore) evidence(read func(context.Context) (map[string]string, error)) func(context.Context) (map[string]string, error) {
	return func(ctx context.Context) (map[string]string, error) {
		m, err := read(ctx)
		b.mu.Lock()
		defer b.mu.Unlock()
		if !b.tried {
			b.tried, b.read = true, err == nil
			b.ids = map[int64]bool{}
			for k := range m {
				if id, ok := strings.CutPrefix(k, "restore/"); ok {
					if n, err := strconv.ParseInt(id, 10, 64); err == nil {
						b.ids[n] = true
					}
				}
			}
		}
		return m, err
	}
}

// newest is the newest restore into serviceID in all that was not listed
// before the send; without that reading, one created at or after the
// submit (nil when there is none).
func (b *listedBefore) newest(all []api.Restore, serviceID string, submitted time.Time) *api.Restore {
	read, ids := false, map[int64]bool(nil)
	if b != nil {
		b.mu.Lock()
		read, ids = b.read, b.ids
		b.mu.Unlock()
	}
	var newest *api.Restore
	for i := range all {
		r := &all[i]
		switch {
		case r.ServiceID != serviceID,
			read && ids[int64(r.ID)],
			!read && (r.CreatedAt.IsZero() || r.CreatedAt.Before(submitted)):
			continue
		}
		if newest == nil || r.ID > newest.ID {
			newest = r
		}
	}
	return newest
}

// notListed is a watch's reading that found no new restore of the target.
type notListed struct{}

// Watch follows a restore to its end whatever screen is shown (see
// kit.Watch): the root toasts the outcome and rings the bell when the
// user is elsewhere. Without an id in the answer, the newest restore of
// the target that was not listed before the submit is followed, never
// one that existed before; when none appears for notListedFor, the watch
// ends saying so, the outcome unknown.
func Watch(c *kit.Common, origin string, rec api.Restore, tag Tag) tea.Cmd {
	client := c.Client
	if client == nil {
		return nil
	}
	id := int64(rec.ID)
	target := tag.Target.NameOrID()
	if target == "" {
		target = rec.ServiceID
	}
	name := "restore into " + target
	if id > 0 {
		name = fmt.Sprintf("restore %d into %s", id, target)
	}
	serviceID := rec.ServiceID
	fetch := func(ctx context.Context) (any, error) {
		if id > 0 {
			return client.GetRestore(ctx, id)
		}
		all, err := client.ListRestores(ctx, serviceID)
		if err != nil {
			return nil, err
		}
		if r := tag.before.newest(all, serviceID, tag.SubmittedAt); r != nil {
			return r, nil
		}
		return notListed{}, nil
	}
	started := c.Wall()
	unknown := fmt.Sprintf("%s: outcome unknown — accepted, but no new restore into %s is listed a minute later; check its restores (3) before sending it again", name, target)
	src := tag.SourceService + "'s"
	if tag.SourceService == "" {
		src = "the backup's" // a file in a bucket: no source service is known
	}
	return kit.StartWatch(kit.Watch{
		Key:    WatchKey(rec),
		Name:   name,
		Origin: origin,
		Fetch:  fetch,
		Outcome: func(data any) (bool, kit.ToastLevel, string) {
			if _, ok := data.(notListed); ok {
				if c.Wall().Sub(started) >= notListedFor {
					return true, kit.ToastWarn, unknown
				}
				return false, 0, ""
			}
			r, ok := data.(*api.Restore)
			if !ok || r == nil {
				return false, 0, ""
			}
			switch {
			case r.Succeeded():
				return true, kit.ToastSuccess, fmt.Sprintf("%s succeeded: its data, default username and password are now %s", name, src)
			case r.Failed():
				msg := r.Message
				if msg == "" {
					msg = r.Status
				}
				return true, kit.ToastError, name + " failed: " + msg
			}
			return false, 0, ""
		},
		Gone: name + " no longer exists (deleted)",
	})
}
