package sandbox

import (
	"net/http"
	"time"

	"github.com/skytui/skytui/api"
)

// Point-in-time restore: the window each service can restore to, the two
// lookups of the live description, and the restore itself (POST /restores
// with id = the source service and point_in_time).
//
// The window is derived from the store: a point-in-time restore loads a
// completed full backup in managed storage and replays the binary logs
// written after it, up to the moment. So the window starts at the end of
// the earliest completed full (or snapshot) backup whose binary logs are
// still kept — the server keeps them for binlogRetention (the platform's
// expire_logs_days of 4 days), completed binary-log backups keep them from
// their start on — and ends pitrLag before now (the logs reach backup
// storage that late), or when the service stopped.

// pitrLag is how late binary logs reach backup storage (binlogRetention,
// replication.go, is how long a server keeps them).
const pitrLag = 5 * time.Minute

// pitrWindow is the window of s at now; ok is false when s cannot provide
// backups for a point-in-time restore (no usable full backup, not running
// long enough, or in a state without binary logs).
func (st *store) pitrWindow(s *service, now time.Time) (start, end time.Time, ok bool) {
	switch {
	case s.status == statusReady:
		end = now.Add(-pitrLag)
	case s.status == statusStopped:
		end = s.updated
	case s.restoring != 0, s.status == statusPendingCreate, s.status == statusFailed:
		return time.Time{}, time.Time{}, false
	case s.pending():
		end = now.Add(-pitrLag)
	default:
		return time.Time{}, time.Time{}, false
	}
	logsFrom := now.Add(-binlogRetention)
	for _, b := range st.backups {
		if b.serviceID == s.id && b.typ == api.BackupBinarylog && b.status == jobSucceeded && !b.external && b.start.Before(logsFrom) {
			logsFrom = b.start
		}
	}
	for _, b := range st.backups {
		if b.serviceID != s.id || b.status != jobSucceeded || b.external || (b.typ != api.BackupFull && b.typ != api.BackupSnapshot) {
			continue
		}
		if b.end.Before(logsFrom) || !b.end.Before(end) {
			continue
		}
		if start.IsZero() || b.end.Before(start) {
			start = b.end
		}
	}
	if start.IsZero() {
		return time.Time{}, time.Time{}, false
	}
	return start.Truncate(time.Second).Add(time.Second), end.Truncate(time.Second), true
}

type pitrServiceJSON struct {
	ServiceID   string `json:"service_id"`
	ServiceName string `json:"service_name"`
	StartTime   string `json:"start_time"`
	EndTime     string `json:"end_time"`
}

// GET /restores/pointintime/lookup: the services that can provide backups
// for a point-in-time restore, each with its window (UTC, the
// description's point_in_time format).
func hPITRLookup(st *store, c *reqCtx) (int, any, *apiError) {
	out := []pitrServiceJSON{}
	for _, s := range st.order {
		if start, end, ok := st.pitrWindow(s, c.now); ok {
			out = append(out, pitrServiceJSON{ServiceID: s.id, ServiceName: s.name,
				StartTime: start.UTC().Format(api.PITRTimeLayout), EndTime: end.UTC().Format(api.PITRTimeLayout)})
		}
	}
	return http.StatusOK, map[string]any{"services": out}, nil
}

type lookupServiceJSON struct {
	ServiceID   string `json:"service_id"`
	ServiceName string `json:"service_name"`
}

// POST /restores/lookup: the services a backup (backup_id), or a source
// service's backups (service_id), can be restored into: ready or stopped
// services on the same cloud provider, the source itself included.
func hRestoreLookup(st *store, c *reqCtx) (int, any, *apiError) {
	var req api.RestoreLookupRequest
	if err := decodeValid(c, &req); err != nil {
		return 0, nil, err
	}
	provider := ""
	if req.BackupID != "" {
		b := st.byKey[req.BackupID]
		if b == nil {
			return 0, nil, errf(http.StatusNotFound, "backup_id", "backup %s not found", req.BackupID)
		}
		if b.external {
			return http.StatusOK, map[string]any{"services": []lookupServiceJSON{}}, nil
		}
		provider = b.provider
	}
	if req.ServiceID != "" {
		src, err := st.service(req.ServiceID)
		if err != nil {
			return 0, nil, err
		}
		if provider != "" && provider != src.provider {
			return 0, nil, errf(http.StatusBadRequest, "backup_id", "backup %s is not a backup of service %s", req.BackupID, src.id)
		}
		provider = src.provider
	}
	out := []lookupServiceJSON{}
	for _, s := range st.order {
		if s.provider == provider && (s.status == statusReady || s.status == statusStopped) {
			out = append(out, lookupServiceJSON{ServiceID: s.id, ServiceName: s.name})
		}
	}
	return http.StatusOK, map[string]any{"services": out}, nil
}

// pitrRestore checks a point-in-time restore of target from the service
// req.ID at req.PointInTime and builds it: the source's data, write rate
// and credentials as they were at that moment.
func (st *store) pitrRestore(req api.RestoreRequest, target *service, now time.Time) (*restore, *apiError) {
	src, aerr := st.service(req.ID)
	if aerr != nil {
		aerr.location = "id"
		return nil, aerr
	}
	at, err := time.ParseInLocation(api.PITRTimeLayout, req.PointInTime, time.UTC)
	if err != nil {
		return nil, errf(http.StatusBadRequest, "point_in_time", "point_in_time: %q is not 'CCYY-MM-DD hh:mm:ss' (UTC)", req.PointInTime)
	}
	start, end, ok := st.pitrWindow(src, now)
	if !ok {
		e := errf(http.StatusBadRequest, "id", "service %s cannot provide backups for a point-in-time restore: it needs a completed full backup in managed storage and binary logs since then", src.id)
		e.solution = "Ask GET /restores/pointintime/lookup for the services that can, and their windows."
		return nil, e
	}
	if at.Before(start) || at.After(end) {
		e := errf(http.StatusBadRequest, "point_in_time", "point_in_time %s is outside the window of service %s: %s – %s UTC",
			req.PointInTime, src.id, start.UTC().Format(api.PITRTimeLayout), end.UTC().Format(api.PITRTimeLayout))
		e.solution = "Choose a moment inside the window (GET /restores/pointintime/lookup)."
		return nil, e
	}
	if src.provider != target.provider {
		e := errf(http.StatusBadRequest, "id", "service %s runs on %s and service %s on %s: restores from a backup are possible only within the same cloud provider",
			src.id, src.provider, target.id, target.provider)
		e.solution = "Back up the source service to your own bucket, copy it to a bucket on " + target.provider + ", and restore from that bucket."
		return nil, e
	}
	// the full backup the restore starts from: the latest one ending by the moment
	var base *backup
	for _, b := range st.backups {
		if b.serviceID == src.id && b.status == jobSucceeded && !b.external && (b.typ == api.BackupFull || b.typ == api.BackupSnapshot) && !b.end.After(at) {
			if base == nil || b.end.After(base.end) {
				base = b
			}
		}
	}
	r := &restore{
		bucket: managedBucket(src.provider, src.region, src.id), key: src.id + "@" + req.PointInTime, typ: "physical",
		dataBytes: src.sizeAt(at), gtidSeq: src.gtidSeqAt(at), username: src.username, password: src.password, txPerSec: src.txPerSec,
	}
	if base != nil {
		r.key = base.key
		r.username, r.password = base.username, base.password
	}
	return r, nil
}
