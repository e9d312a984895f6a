package kit

import (
	"context"
	"strings"

	"github.com/skytui/skytui/api"
)

// The resources more than one screen polls, declared once: their keys, the
// type of their data, how to fetch them and when they are pending. A
// screen asks for one with its constructor (Services(c)) and reads its
// answer with the key's Of; nothing else spells a key or asserts a type.

// Key names a polled resource whose data is a T.
type Key[T any] string

// Of reads msg when it answers this key: its data (zero when the fetch
// failed or the data is not a T), its error, and whether msg is this
// key's at all.
func (k Key[T]) Of(msg DataMsg) (data T, err error, ok bool) {
	if msg.Key != string(k) {
		return data, nil, false
	}
	if msg.Err != nil {
		return data, msg.Err, true
	}
	data, _ = msg.Data.(T)
	return data, nil, true
}

// Resource describes this key's resource: fetch reads it (in a tea.Cmd),
// pending (nil: never) says the data shows something in progress.
func (k Key[T]) Resource(fetch func(ctx context.Context) (T, error), pending func(T) bool) Resource {
	r := Resource{Key: string(k), Fetch: func(ctx context.Context) (any, error) { return fetch(ctx) }}
	if pending != nil {
		r.Pending = func(d any) bool {
			v, ok := d.(T)
			return ok && pending(v)
		}
	}
	return r
}

// String is the key as the engine knows it.
func (k Key[T]) String() string { return string(k) }

// The keys of the shared resources.
const (
	ServicesKey   Key[[]api.Service] = "services"
	RestoresKey   Key[[]api.Restore] = "restores"
	AllBackupsKey Key[[]api.Backup]  = "backups/*"
	backupsPrefix                    = "backups/"
	schedulesPref                    = "schedules/"
	allowListPref                    = "allowlist/"
)

// BackupsKey is the key of one service's backups.
func BackupsKey(serviceID string) Key[[]api.Backup] {
	return Key[[]api.Backup](backupsPrefix + serviceID)
}

// SchedulesKey is the key of one service's backup schedules.
func SchedulesKey(serviceID string) Key[[]api.Schedule] {
	return Key[[]api.Schedule](schedulesPref + serviceID)
}

// AllowListKey is the key of one service's allow list.
func AllowListKey(serviceID string) Key[[]api.AllowListGroup] {
	return Key[[]api.AllowListGroup](allowListPref + serviceID)
}

// ResourceTitle is how the message log names a shared resource (key),
// a service by name (name: its name from an ID, "" when not known); any
// other key as it is.
func ResourceTitle(key string, name func(id string) string) string {
	switch key {
	case ServicesKey.String():
		return "the services listing"
	case RestoresKey.String():
		return "the restores listing"
	case AllBackupsKey.String():
		return "the backups of every service"
	}
	for _, p := range []struct{ prefix, what string }{
		{backupsPrefix, "the backups of "}, {schedulesPref, "the backup schedules of "}, {allowListPref, "the allow list of "},
	} {
		if id, ok := strings.CutPrefix(key, p.prefix); ok {
			if n := name(id); n != "" {
				return p.what + n + " (" + id + ")"
			}
			return p.what + id
		}
	}
	return key
}

// client is c's API client, or an error saying there is none.
func client(c *Common) (*api.Client, error) {
	if c == nil || c.Client == nil {
		return nil, errNoClient
	}
	return c.Client, nil
}

// Services is the listing of services, pending while any service is.
// The client is read at fetch time, so a profile switch takes effect.
func Services(c *Common) Resource {
	return ServicesKey.Resource(func(ctx context.Context) ([]api.Service, error) {
		cl, err := client(c)
		if err != nil {
			return nil, err
		}
		return cl.ListServices(ctx)
	}, AnyPendingService)
}

// AnyPendingService reports a service in a pending state.
func AnyPendingService(svcs []api.Service) bool {
	for i := range svcs {
		if svcs[i].Pending() {
			return true
		}
	}
	return false
}

// Backups is one service's backups, pending while one is in progress.
func Backups(c *Common, serviceID string) Resource {
	return BackupsKey(serviceID).Resource(func(ctx context.Context) ([]api.Backup, error) {
		cl, err := client(c)
		if err != nil {
			return nil, err
		}
		return cl.ListBackups(ctx, serviceID)
	}, AnyBackupInProgress)
}

// AnyBackupInProgress reports a backup in progress.
func AnyBackupInProgress(list []api.Backup) bool {
	for i := range list {
		if api.BackupState(list[i].Status) == api.BackupInProgress {
			return true
		}
	}
	return false
}

// AnyRestoreRunning reports a restore still running.
func AnyRestoreRunning(list []api.Restore) bool {
	for i := range list {
		if list[i].Running() {
			return true
		}
	}
	return false
}
