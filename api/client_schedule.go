// One backup schedule of Client: read, edit (cron expression, suspend or
// resume) and delete, the live service's calls beyond the interface
// document (GET, PATCH, DELETE /backups/schedules/{id}).

package api

import (
	"context"
	"net/http"
	"strconv"
	"strings"
)

// ScheduleUpdate is the body of PATCH /backups/schedules/{id}: what to
// change, nothing else. Schedule is a 5-field cron expression; Suspended
// suspends (true) or resumes (false) the schedule.
type ScheduleUpdate struct {
	BackupType string `json:"backup_type,omitempty"`
	Schedule   string `json:"schedule,omitempty"`
	Suspended  *bool  `json:"suspended,omitempty"`
}

// Validate checks an edit of a schedule: at least one change; a cron
// expression (a one-time job is not made by editing a schedule: it is a
// new backup); a known backup type.
func (u *ScheduleUpdate) Validate() error {
	var v ValidationErrors
	if u.BackupType == "" && u.Schedule == "" && u.Suspended == nil {
		v.add("schedule", rule("schedule", "nothing to change: give a cron expression, suspend or resume"))
		return v.Err()
	}
	if u.BackupType != "" {
		v.add("backup_type", ValidateBackupType(u.BackupType))
	}
	if u.Schedule != "" {
		v.add("schedule", ValidateScheduleEdit(u.Schedule))
	}
	return v.Err()
}

// ValidateScheduleEdit checks the cron expression of an edited schedule:
// 5 fields; "once" is refused (a one-time backup is a new backup, not an
// edit of a schedule).
func ValidateScheduleEdit(expr string) error {
	s := strings.TrimSpace(expr)
	switch {
	case s == "":
		return rule("schedule", "is required: a 5-field cron expression (minute hour day-of-month month day-of-week)")
	case s == "once":
		return rule("schedule", `must be a 5-field cron expression: "once" is a new one-time backup, not an edit of a schedule`)
	}
	if _, err := ParseCron(s); err != nil {
		return rule("schedule", "must be a 5-field cron expression: %v", err)
	}
	return nil
}

// ValidateScheduleID checks a schedule's id (a positive integer).
func ValidateScheduleID(id int64) error {
	if id <= 0 {
		return rule("id", "must be a schedule id, a positive integer (got %d)", id)
	}
	return nil
}

func (c *Client) schedulePath(id int64) string {
	return c.backup("/backups/schedules/" + strconv.FormatInt(id, 10))
}

// GetSchedule reads one backup schedule (an object, or a one-element array).
func (c *Client) GetSchedule(ctx context.Context, id int64) (*Schedule, error) {
	if err := ValidateScheduleID(id); err != nil {
		return nil, err
	}
	return getOne[Schedule](ctx, c, c.schedulePath(id))
}

// UpdateSchedule edits a schedule: its cron expression, suspended or
// resumed. Validated before anything is sent; never retried. An accepted
// answer that cannot be read (or is empty) gives the schedule as asked,
// with Unreadable saying why when there was something unreadable.
func (c *Client) UpdateSchedule(ctx context.Context, id int64, u ScheduleUpdate) (*Schedule, error) {
	if err := ValidateScheduleID(id); err != nil {
		return nil, err
	}
	u.Schedule = strings.TrimSpace(u.Schedule)
	if err := u.Validate(); err != nil {
		return nil, err
	}
	if u.BackupType != "" {
		if err := CheckBackupType(c.LiveBackup(), u.BackupType); err != nil {
			return nil, err
		}
	}
	var out Schedule
	why, err := c.change(ctx, http.MethodPatch, c.schedulePath(id), u, &out)
	if err != nil {
		return nil, err
	}
	if why != "" || out.ID == 0 {
		asked := Schedule{ID: FlexInt(id), Type: u.BackupType, Schedule: "cron", Cron: u.Schedule}
		if u.Suspended != nil {
			asked.Suspended = *u.Suspended
		}
		asked.Unreadable = why
		return &asked, nil
	}
	return &out, nil
}

// DeleteSchedule deletes a backup schedule: no more backups are taken by
// it; the backups it took stay.
func (c *Client) DeleteSchedule(ctx context.Context, id int64) error {
	if err := ValidateScheduleID(id); err != nil {
		return err
	}
	_, err := c.remove(ctx, c.schedulePath(id), nil, nil, func(ctx context.Context) (bool, error) {
		_, err := c.GetSchedule(ctx, id)
		return absent(err, func() bool { return false })
	})
	return err
}
