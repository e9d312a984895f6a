package sandbox

import (
	"net/http"
	"strings"

	"github.com/skytui/skytui/api"
)

// PATCH /backups/schedules/{id}: a new cron expression, a new backup
// type, suspend or resume, validated as the client validates it (and as
// the create validates the expression). A suspended schedule takes no
// backups; resuming it runs from the next time after now (missed runs
// are not caught up). A one-time job cannot be edited.
func hUpdateSchedule(st *store, c *reqCtx) (int, any, *apiError) {
	_, sc, aerr := st.scheduleByParam(c)
	if aerr != nil {
		return 0, nil, aerr
	}
	var req api.ScheduleUpdate
	if err := decodeValid(c, &req); err != nil {
		return 0, nil, err
	}
	if req.BackupType != "" {
		if err := checkBackupType(c, req.BackupType); err != nil {
			return 0, nil, err
		}
	}
	if sc.cron == nil {
		e := errf(http.StatusBadRequest, "schedule", "backup schedule %d is a one-time job (schedule \"once\"): it cannot be edited", sc.id)
		e.solution = "Delete it, or create a new backup schedule with the cron expression."
		return 0, nil, e
	}
	if req.BackupType == api.BackupIncremental && sc.typ != api.BackupIncremental && !st.hasFullBackup(sc.serviceID) {
		return 0, nil, errf(http.StatusBadRequest, "backup_type", "backup_type: an incremental backup needs a full backup first; service %s has no completed full backup", sc.serviceID)
	}
	if expr := strings.TrimSpace(req.Schedule); expr != "" {
		cs, err := api.ParseCron(expr)
		if err != nil { // Validate accepted it; keep the two in step
			return 0, nil, validation(&api.FieldError{Field: "schedule", Rule: err.Error()})
		}
		sc.expr, sc.cron = expr, cs
		sc.next = st.nextCron(cs, c.now)
	}
	if req.BackupType != "" {
		sc.typ = req.BackupType
	}
	if req.Suspended != nil && *req.Suspended != sc.suspended {
		sc.suspended = *req.Suspended
		if sc.suspended {
			sc.message = "suspended: no backups are taken"
		} else {
			sc.next = st.nextCron(sc.cron, c.now)
			sc.message = "resumed"
		}
	}
	sc.updated = c.now
	return http.StatusOK, st.renderSchedule(sc, c.live), nil
}
