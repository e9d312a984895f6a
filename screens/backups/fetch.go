package backups

import (
	"context"
	"errors"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// What the screen polls: the services listing always; the backups of
// every service, or of the one shown (with the status call); and one
// service's schedules while they are shown.

// Resources implements kit.Screen.
func (s *Screen) Resources() []kit.Resource {
	svcs := kit.Services(s.common)
	// the names and the picker only: a service being launched does not
	// make this screen poll fast
	svcs.Pending = nil
	res := []kit.Resource{svcs}
	client := s.common.Client
	if s.all() {
		res = append(res, kit.AllBackupsKey.Resource(func(ctx context.Context) ([]api.Backup, error) {
			if client == nil {
				return nil, errNoClient
			}
			return fetchAllBackups(ctx, client)
		}, func(list []api.Backup) bool {
			return len(s.optimistic) > 0 || kit.AnyBackupInProgress(list)
		}))
	} else {
		id := s.svcID
		res = append(res, serviceBackupsKey(id).Resource(func(ctx context.Context) (backupData, error) {
			if client == nil {
				return backupData{}, errNoClient
			}
			return fetchBackups(ctx, client, id)
		}, s.pending))
	}
	if (s.mode == modeSchedules || s.mode == modeSchedEdit) && s.sched.svcID != "" {
		res = append(res, s.sched.resource(client))
	}
	if s.mode == modeRestore && s.restore != nil {
		res = append(res, s.restore.Resources()...)
	}
	return res
}

var errNoClient = errors.New("no API client")

// serviceBackupsKey is one service's backups as this screen reads them:
// the listing with the status call's answer (backupData), under the name
// of kit.BackupsKey, which the backup action refreshes.
func serviceBackupsKey(id string) kit.Key[backupData] {
	return kit.Key[backupData](kit.BackupsKey(id))
}

// backupsOf reads msg when it answers the backups shown.
func (s *Screen) backupsOf(msg kit.DataMsg) (backupData, error, bool) {
	if s.all() {
		list, err, ok := kit.AllBackupsKey.Of(msg)
		return backupData{Backups: list}, err, ok
	}
	return serviceBackupsKey(s.svcID).Of(msg)
}

// pending reports a backup in progress (from the listing or the status
// call) or one submitted here and not listed yet: polled fast.
func (s *Screen) pending(d backupData) bool {
	if len(s.optimistic) > 0 {
		return true
	}
	for _, it := range merge(d, nil) {
		if it.inProgress() {
			return true
		}
	}
	return false
}

// fetchAllBackups lists the backups of every service. The live service lists
// them in one call; the interface document's prefix lists them per
// service, so the services are listed here first (the fetch runs in a
// goroutine and reads no screen state, and the first fetch does not wait
// for the screen's own services listing).
//
// The status call is not made in this view: it is one call per service
// (the live service has none at all), so polling it for every service
// would multiply the requests of every poll, fast ones included, by the
// number of services. The listing's status is used, and the detail pane
// says so ("from the listing"); narrowing to one service (p) merges the
// status call as before, and backups submitted here show at once anyway.
func fetchAllBackups(ctx context.Context, client *api.Client) ([]api.Backup, error) {
	var ids []string
	if !client.LiveBackup() {
		svcs, err := client.ListServices(ctx)
		if err != nil {
			return nil, err
		}
		for _, v := range svcs {
			if v.ID != "" {
				ids = append(ids, v.ID)
			}
		}
		if len(ids) == 0 {
			return nil, nil
		}
	}
	return client.ListAllBackups(ctx, ids)
}

// fetchBackups reads the listing, then the status of initiated backups.
// A failing status call does not hide the listing: its status is used.
func fetchBackups(ctx context.Context, client *api.Client, id string) (backupData, error) {
	list, err := client.ListBackups(ctx, id)
	if err != nil {
		return backupData{}, err
	}
	d := backupData{Backups: list}
	st, err := client.BackupStatus(ctx, id)
	switch {
	case errors.Is(err, api.ErrStatusUnsupported):
		d.StatusUnsupported = true
	case err != nil:
		d.StatusErr = err
	default:
		d.Statuses = st
	}
	return d, nil
}
