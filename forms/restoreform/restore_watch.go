package restoreform

import (
	"context"
	"errors"
	"fmt"
	"strconv"

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

// Watch follows a restore to its end whatever screen is shown (see
// kit.Watch): the root toasts the outcome and rings the bell when the
// user is elsewhere. Without an id in the answer, the newest restore of
// the target is followed.
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
		var newest *api.Restore
		for i := range all {
			if all[i].ServiceID == serviceID && (newest == nil || all[i].ID > newest.ID) {
				newest = &all[i]
			}
		}
		if newest == nil {
			return nil, errors.New("the restore is not listed yet")
		}
		return newest, nil
	}
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
