// The backup and restore calls of Client: schedules, backups, their
// status, and restores.

package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
)

// CreateSchedule creates a backup job ("once") or schedule (cron). Never retried.
func (c *Client) CreateSchedule(ctx context.Context, req ScheduleRequest) (*Schedule, error) {
	if err := CheckBackupType(c.LiveBackup(), req.BackupType); err != nil {
		return nil, err
	}
	return create(ctx, c, c.backup("/backups/schedules"), &req, func(why string) *Schedule {
		s := &Schedule{ServiceID: req.ServiceID, Type: req.BackupType, Schedule: req.Schedule}
		s.Unreadable = why
		return s
	})
}

// LiveBackup reports whether the client speaks to the live service's backup
// interface (prefix /skybackup/v1), whose listing rules differ from the
// interface document's: restores and schedules are listed per service,
// backups of every service in one call, and there is no status call.
func (c *Client) LiveBackup() bool { return c.cfg.BackupPrefix == LiveBackupPrefix }

// LogicalBackupType is the name of a logical (SQL statements) backup on
// this client's backup interface: logical, or the live service's dump.
func (c *Client) LogicalBackupType() string {
	if c.LiveBackup() {
		return BackupDump
	}
	return BackupLogical
}

// CheckBackupType refuses, before anything is sent, a backup type that this
// client's backup interface does not take, naming the type to use instead.
func CheckBackupType(live bool, t string) error {
	if err := ValidateBackupType(t); err != nil {
		return err
	}
	if advice, ok := foreignBackupTypes[live][t]; ok {
		takes := "this interface takes full, incremental, logical, physical or binarylog"
		if live {
			takes = "the live service takes full, incremental, binarylog, dump or snapshot"
		}
		return rule("backup_type", "%s: %s", takes, advice)
	}
	return nil
}

// BackupTypeOn is the name the live service's backup interface (live) or
// the interface document's gives backup type t: dump for logical on the
// live service, full for physical (its mariabackup backup); logical for
// dump on the document's. A type with no counterpart is t as given.
func BackupTypeOn(live bool, t string) string {
	if n, ok := backupTypeNames[live][t]; ok {
		return n
	}
	return t
}

var backupTypeNames = map[bool]map[string]string{
	true:  {BackupLogical: BackupDump, BackupPhysical: BackupFull},
	false: {BackupDump: BackupLogical},
}

// foreignBackupTypes are, for the live service (true) and the interface
// document (false), the types of the other one, with what to use instead.
var foreignBackupTypes = map[bool]map[string]string{
	true: {
		BackupLogical:  "its logical (SQL) backup is dump",
		BackupPhysical: "its physical (mariabackup) backup is full",
	},
	false: {
		BackupDump:     "dump is the live service's name for logical",
		BackupSnapshot: "snapshot is the live service's only",
	},
}

// ErrServiceRequired is returned, before anything is sent, for a listing
// the server only answers per service.
var ErrServiceRequired = errors.New("this server lists it per service: a service is required")

// ListSchedules lists backup schedules of a service. On the interface
// document's prefix serviceID "" lists all; the live service requires one.
func (c *Client) ListSchedules(ctx context.Context, serviceID string) ([]Schedule, error) {
	if serviceID == "" && c.LiveBackup() {
		return nil, fmt.Errorf("list schedules: %w", ErrServiceRequired)
	}
	return pagedList[Schedule](ctx, c, c.backup("/backups/schedules"), optQuery("service_id", serviceID), "schedules")
}

// ListBackups lists every backup of a service, across pages.
func (c *Client) ListBackups(ctx context.Context, serviceID string) ([]Backup, error) {
	if err := ValidateServiceID(serviceID); err != nil {
		return nil, err
	}
	return pagedList[Backup](ctx, c, c.backup("/backups"), optQuery("service_id", serviceID), "backups")
}

// ListAllBackups lists the backups of every service: one listing on the
// live service (service_id is optional there), one per service of
// serviceIDs on the interface document's prefix, at most 4 at a time.
func (c *Client) ListAllBackups(ctx context.Context, serviceIDs []string) ([]Backup, error) {
	if c.LiveBackup() {
		return pagedList[Backup](ctx, c, c.backup("/backups"), nil, "backups")
	}
	return perService(ctx, serviceIDs, c.ListBackups)
}

// ErrStatusUnsupported means the server has no backup status call; the
// per-backup status of the listing is then the source of truth.
var ErrStatusUnsupported = errors.New("backup status call not offered by this server; using the listing's status")

// BackupStatus reports the state of initiated backups of a service, with a
// GET carrying a JSON body as the interface document says. The live
// service has no such call, so on its prefix nothing is sent. A server that
// answers the call with any 4xx is asked once: the client remembers, and
// from then on returns ErrStatusUnsupported without asking.
func (c *Client) BackupStatus(ctx context.Context, serviceID string) ([]BackupStatus, error) {
	if c.LiveBackup() || c.statusUnsupported.Load() {
		return nil, ErrStatusUnsupported
	}
	path := c.backup("/backups/status")
	body := map[string]string{"service_id": serviceID}
	r, err := c.do(ctx, http.MethodGet, path, url.Values{"service_id": {serviceID}}, body)
	if st := StatusOf(err); st >= 400 && st < 500 && st != http.StatusUnauthorized && st != http.StatusTooManyRequests {
		c.statusUnsupported.Store(true)
		return nil, ErrStatusUnsupported
	}
	if err != nil {
		return nil, err
	}
	out, _, err := decodeList[BackupStatus](r.body, "backups", "statuses", "status")
	if err != nil {
		return nil, malformed(http.MethodGet, path, r, err)
	}
	return out, nil
}

// CreateRestore starts a restore. It stops the target service and erases its
// data. Never retried.
func (c *Client) CreateRestore(ctx context.Context, req RestoreRequest) (*Restore, error) {
	path := c.backup("/restores")
	r, err := c.post(ctx, path, &req)
	if err != nil {
		return nil, err
	}
	if r.unreadable == "" && noRecord(r.body) {
		return &Restore{ServiceID: req.ServiceID, Status: "Running"}, nil
	}
	out, err := decodeOne[Restore](r.body)
	if r.unreadable != "" {
		err = errors.New(r.unreadable)
	}
	if err != nil {
		c.cfg.Logger.Debug("unreadable answer to an accepted change", "method", http.MethodPost, "path", path, "status", r.status, "err", err)
		out = &Restore{ServiceID: req.ServiceID, Status: "Running"}
		out.Unreadable = r.answerText(http.MethodPost, path, err)
		return out, nil
	}
	if out.ID == 0 {
		// a record without an ID names no restore to follow
		return &Restore{ServiceID: req.ServiceID, Status: "Running"}, nil
	}
	if out.ServiceID == "" {
		out.ServiceID = req.ServiceID
	}
	return out, nil
}

// ListRestores lists the restores of a service (bare array or envelope).
// On the interface document's prefix serviceID "" lists every restore of
// the account; the live service requires a service.
func (c *Client) ListRestores(ctx context.Context, serviceID string) ([]Restore, error) {
	if serviceID == "" && c.LiveBackup() {
		return nil, fmt.Errorf("list restores: %w", ErrServiceRequired)
	}
	return pagedList[Restore](ctx, c, c.backup("/restores"), optQuery("service_id", serviceID), "restores")
}

// GetRestore reads one restore (an object, or a one-element array).
func (c *Client) GetRestore(ctx context.Context, id int64) (*Restore, error) {
	return getOne[Restore](ctx, c, c.backup("/restores/"+strconv.FormatInt(id, 10)))
}

// DeleteRestore deletes a restore that has not finished. Sent again only
// when the restore, read again, is still there and not cancelled.
func (c *Client) DeleteRestore(ctx context.Context, id int64) error {
	_, err := c.remove(ctx, c.backup("/restores/"+strconv.FormatInt(id, 10)), nil, nil, func(ctx context.Context) (bool, error) {
		r, err := c.GetRestore(ctx, id)
		return absent(err, func() bool { return StatusIs(r.Status, "cancelled", "canceled", "deleted") })
	})
	return err
}
