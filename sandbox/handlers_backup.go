package sandbox

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/skytui/skytui/api"
)

// ---- paging of the backup interface: page (from 1) and page_size ----

const (
	defaultBackupPageSize = 20
	maxBackupPageSize     = 1000
)

type paging struct{ page, size int }

func readPaging(c *reqCtx) (paging, *apiError) {
	q := c.r.URL.Query()
	p := paging{page: 1, size: defaultBackupPageSize}
	if v := q.Get("page"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			return p, errf(http.StatusBadRequest, "page", "page: must be an integer of at least 1 (got %q)", v)
		}
		p.page = n
	}
	if v := q.Get("page_size"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxBackupPageSize {
			return p, errf(http.StatusBadRequest, "page_size", "page_size: must be an integer from 1 to %d (got %q)", maxBackupPageSize, v)
		}
		p.size = n
	}
	return p, nil
}

// pageOf cuts one page and returns it with the page count.
func pageOf[T any](all []T, p paging) ([]T, int) {
	pages := (len(all) + p.size - 1) / p.size
	lo := (p.page - 1) * p.size
	if lo >= len(all) {
		return []T{}, pages
	}
	return all[lo:min(len(all), lo+p.size)], pages
}

// orderedPage answers a listing kept oldest first as the envelope {key,
// key_count, pages_count}: the request's page of it, in its order.
func orderedPage[T any](c *reqCtx, key string, list []T) (int, any, *apiError) {
	p, err := readPaging(c)
	if err != nil {
		return 0, nil, err
	}
	desc, err := readOrder(c)
	if err != nil {
		return 0, nil, err
	}
	if desc {
		slices.Reverse(list)
	}
	page, pages := pageOf(list, p)
	return http.StatusOK, map[string]any{key: page, key + "_count": len(list), "pages_count": pages}, nil
}

// readOrder reads order=asc|desc (default desc: newest first).
func readOrder(c *reqCtx) (bool, *apiError) {
	switch c.r.URL.Query().Get("order") {
	case "", "desc":
		return true, nil
	case "asc":
		return false, nil
	}
	return false, errf(http.StatusBadRequest, "order", "order: must be asc or desc")
}

// ---- backups ----

// GET /backups?service_id=&status=&page=&page_size=: the envelope
// {"backups","backups_count","pages_count"}. The interface document
// (/backup/v1) requires service_id; the live service (/skybackup/v1) takes
// service_id and status as optional filters, so one call without service_id
// lists the backups of every service. A service_id that names no service is
// 404 on both (the description documents 404 for this call).
func hListBackups(st *store, c *reqCtx) (int, any, *apiError) {
	q := c.r.URL.Query()
	id := q.Get("service_id")
	if id != "" || !c.live {
		if _, err := st.service(id); err != nil {
			return 0, nil, err
		}
	}
	status := q.Get("status")
	var list []backupJSON
	for _, b := range st.backups {
		if (id == "" || b.serviceID == id) && (status == "" || strings.EqualFold(status, b.status)) {
			list = append(list, b.render(c.live))
		}
	}
	// st.backups is in start order already.
	return orderedPage(c, "backups", list)
}

// GET|POST /backups/status: {"service_id", "backups":[{id,type,status,message}]}
// Routed under /backup/v1 only: the live description has no status call.
// with status in progress, completed or failed. service_id comes from the
// JSON body (as the interface document sends it with GET) or the query.
func hBackupStatus(st *store, c *reqCtx) (int, any, *apiError) {
	id := c.r.URL.Query().Get("service_id")
	raw, _ := io.ReadAll(http.MaxBytesReader(nil, c.r.Body, 1<<20))
	if len(strings.TrimSpace(string(raw))) > 0 {
		var body struct {
			ServiceID string `json:"service_id"`
		}
		if err := json.Unmarshal(raw, &body); err != nil {
			return 0, nil, errf(http.StatusBadRequest, "body", "the request body is not valid JSON: %v", err)
		}
		if body.ServiceID != "" {
			id = body.ServiceID
		}
	}
	s, err := st.service(id)
	if err != nil {
		return 0, nil, err
	}
	out := []api.BackupStatus{}
	for i := len(st.backups) - 1; i >= 0; i-- {
		b := st.backups[i]
		if b.serviceID != s.id {
			continue
		}
		out = append(out, api.BackupStatus{ID: b.key, Type: b.typ, Status: api.BackupState(b.status), Message: b.message})
	}
	return http.StatusOK, map[string]any{"service_id": s.id, "backups": out}, nil
}

// ---- schedules ----

// GET /backups/schedules: the envelope {"schedules","schedules_count",
// "pages_count"}. Under /backup/v1 (the interface document) service_id is
// an optional filter; under /skybackup/v1 the live description requires it
// (see liveServiceID). An unknown service has no schedules: an empty page,
// as the description documents only 200, 400 and 500 here.
func hListSchedules(st *store, c *reqCtx) (int, any, *apiError) {
	id, err := serviceIDQuery(c)
	if err != nil {
		return 0, nil, err
	}
	q := c.r.URL.Query()
	if id != "" {
		if err := api.ValidateServiceID(id); err != nil {
			return 0, nil, validation(err)
		}
	}
	typ := q.Get("type")
	var list []scheduleJSON
	for _, sc := range st.schedules {
		if (id == "" || sc.serviceID == id) && (typ == "" || api.BackupTypeOn(c.live, sc.typ) == typ) {
			list = append(list, st.renderSchedule(sc, c.live))
		}
	}
	return orderedPage(c, "schedules", list)
}

// POST /backups/schedules: "once" starts a job now; a cron expression
// creates a schedule whose runs start on the sandbox clock.
func hCreateSchedule(st *store, c *reqCtx) (int, any, *apiError) {
	var req api.ScheduleRequest
	if err := decodeValid(c, &req); err != nil {
		return 0, nil, err
	}
	if err := checkBackupType(c, req.BackupType); err != nil {
		return 0, nil, err
	}
	s, err := st.service(req.ServiceID)
	if err != nil {
		return 0, nil, err
	}
	if err := requireReady(s); err != nil {
		return 0, nil, err
	}
	if req.BackupType == api.BackupIncremental && !st.hasFullBackup(s.id) {
		e := errf(http.StatusBadRequest, "backup_type", "backup_type: an incremental backup needs a full backup first; service %s has no completed full backup", s.id)
		e.solution = `Take a full backup first (backup_type "full", schedule "once"), then schedule incremental backups.`
		return 0, nil, e
	}
	sc, aerr := st.addSchedule(s, req, c.now)
	if aerr != nil {
		return 0, nil, aerr
	}
	return http.StatusOK, st.renderSchedule(sc, c.live), nil
}

// addSchedule records a valid schedule request for s at t; "once" starts
// its job at once.
func (st *store) addSchedule(s *service, req api.ScheduleRequest, t time.Time) (*schedule, *apiError) {
	sc := &schedule{id: st.nextSchedule, serviceID: s.id, serviceName: s.name, typ: req.BackupType, expr: req.Schedule, created: t}
	if req.ExternalStorage != nil {
		sc.bucketPath = req.ExternalStorage.Bucket.Path
	}
	if req.Schedule == "once" {
		b := st.startBackup(s, req.BackupType, t, sc.id, sc.bucketPath)
		sc.backupKey = b.key
		sc.lastRun = t
	} else {
		cs, err := api.ParseCron(req.Schedule)
		if err != nil { // Validate accepted it; keep the two in step
			return nil, validation(&api.FieldError{Field: "schedule", Rule: err.Error()})
		}
		sc.cron = cs
		sc.next = st.nextCron(cs, t)
		sc.message = "Backup schedule created"
	}
	st.nextSchedule++
	st.schedules = append(st.schedules, sc)
	return sc, nil
}

func (st *store) scheduleByParam(c *reqCtx) (int, *schedule, *apiError) {
	raw := c.params["id"]
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		return 0, nil, errf(http.StatusBadRequest, "id", "id: %q is not a schedule id (an integer)", raw)
	}
	for i, sc := range st.schedules {
		if sc.id == id {
			return i, sc, nil
		}
	}
	return 0, nil, errf(http.StatusNotFound, "id", "backup schedule %d not found", id)
}

func hGetSchedule(st *store, c *reqCtx) (int, any, *apiError) {
	_, sc, err := st.scheduleByParam(c)
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, st.renderSchedule(sc, c.live), nil
}

func hDeleteSchedule(st *store, c *reqCtx) (int, any, *apiError) {
	i, _, err := st.scheduleByParam(c)
	if err != nil {
		return 0, nil, err
	}
	st.schedules = slices.Delete(st.schedules, i, i+1)
	return http.StatusOK, struct{}{}, nil
}

// ---- restores ----

// serviceIDQuery is the service_id query of a restore or schedule listing,
// under the live prefix checked by liveServiceID.
func serviceIDQuery(c *reqCtx) (string, *apiError) {
	id := c.r.URL.Query().Get("service_id")
	if c.live {
		if err := liveServiceID(id); err != nil {
			return "", err
		}
	}
	return id, nil
}

// liveServiceID applies the live description's rule for the service_id
// query of GET /skybackup/v1/restores and /skybackup/v1/backups/schedules:
// required, at least 3 characters. There is no "all services" listing of
// restores or schedules on the live service.
func liveServiceID(id string) *apiError {
	const minLen = 3 // minLength in the description
	switch {
	case id == "":
		e := errf(http.StatusBadRequest, "service_id", "service_id is required: this listing is per service")
		e.solution = "Send the query parameter service_id=<service id>; to cover several services, ask once per service."
		return e
	case len(id) < minLen:
		return errf(http.StatusBadRequest, "service_id", "service_id: must be at least %d characters (got %q)", minLen, id)
	}
	return nil
}

// GET /restores: a bare array under /backup/v1 (the interface document), the
// paged envelope {"restores","restores_count","pages_count"} under
// /skybackup/v1 (the live spec).
//
// Under /backup/v1 the listing covers every restore of the account and
// service_id is an optional filter. Under /skybackup/v1 service_id is
// required (liveServiceID). An unknown (or foreign) service_id answers an
// empty page, not 404: the description documents only 200, 400 and 500 for
// this call, and a service with no restores looks the same to the caller.
// The optional type filter (physical, logical) is the description's.
func hListRestores(st *store, c *reqCtx) (int, any, *apiError) {
	id, err := serviceIDQuery(c)
	if err != nil {
		return 0, nil, err
	}
	q := c.r.URL.Query()
	typ := q.Get("type")
	desc, err := readOrder(c)
	if err != nil {
		return 0, nil, err
	}
	list := []restoreJSON{}
	for _, r := range st.restores {
		if (id == "" || r.serviceID == id) && (typ == "" || strings.EqualFold(typ, r.typ)) {
			list = append(list, r.render())
		}
	}
	if desc {
		slices.Reverse(list)
	}
	if !c.live {
		return http.StatusOK, list, nil
	}
	p, err := readPaging(c)
	if err != nil {
		return 0, nil, err
	}
	page, pages := pageOf(list, p)
	return http.StatusOK, map[string]any{"restores": page, "restores_count": len(list), "pages_count": pages}, nil
}

func (st *store) restoreByParam(c *reqCtx) (*restore, *apiError) {
	raw := c.params["id"]
	id, err := strconv.ParseInt(raw, 10, 64)
	if err != nil {
		return nil, errf(http.StatusBadRequest, "id", "id: %q is not a restore id (an integer)", raw)
	}
	r := st.restoreByID(id)
	if r == nil {
		return nil, errf(http.StatusNotFound, "id", "restore %d not found", id)
	}
	return r, nil
}

// GET /restores/{id}: a one-element array under /backup/v1 (the interface
// document), an object under /skybackup/v1 (the live spec).
func hGetRestore(st *store, c *reqCtx) (int, any, *apiError) {
	r, err := st.restoreByParam(c)
	if err != nil {
		return 0, nil, err
	}
	if c.live {
		return http.StatusOK, r.render(), nil
	}
	return http.StatusOK, []restoreJSON{r.render()}, nil
}

// DELETE /restores/{id} cancels a restore that has not finished.
func hDeleteRestore(st *store, c *reqCtx) (int, any, *apiError) {
	r, err := st.restoreByParam(c)
	if err != nil {
		return 0, nil, err
	}
	if r.status != jobRunning {
		return 0, nil, errf(http.StatusConflict, "id", "restore %d has already finished (%s); only a restore that has not finished can be deleted", r.id, r.status)
	}
	if r.loading {
		return 0, nil, errf(http.StatusConflict, "id", "restore %d is loading the backup into the service and can no longer be cancelled", r.id)
	}
	st.cancelRestore(r, c.now)
	return http.StatusOK, struct{}{}, nil
}

// POST /restores in its four forms: managed key (key and/or id), own
// bucket (id + external_source), backup id (id), point in time (id = the
// source service + point_in_time, handlers_pitr.go).
func hCreateRestore(st *store, c *reqCtx) (int, any, *apiError) {
	var req api.RestoreRequest
	if err := decodeValid(c, &req); err != nil {
		return 0, nil, err
	}
	var file, fileField string
	if req.ExternalSource != nil {
		file, fileField = req.ID, "id"
		if file == "" {
			file, fileField = req.Key, "key"
		}
		if !strings.HasSuffix(strings.ToLower(file), ".gz") {
			e := errf(http.StatusBadRequest, fileField, "%s: the backup file must be gzip-compressed (name ending in .gz), got %q", fileField, file)
			e.solution = "Compress the backup with gzip and upload the .gz file to the bucket."
			return 0, nil, e
		}
	}
	target, err := st.service(req.ServiceID)
	if err != nil {
		return 0, nil, err
	}
	switch {
	case target.pending():
		return 0, nil, pendingError(target)
	case target.status != statusReady && target.status != statusStopped:
		return 0, nil, errf(http.StatusConflict, "service_id", "service %s is %s; only a ready or stopped service can be restored", target.id, target.status)
	}
	var r *restore
	if req.ExternalSource != nil {
		r = st.bucketRestore(req.ExternalSource, file)
	} else if req.PointInTime != "" {
		var aerr *apiError
		if r, aerr = st.pitrRestore(req, target, c.now); aerr != nil {
			return 0, nil, aerr
		}
	} else {
		var aerr *apiError
		if r, aerr = st.managedRestore(req, target); aerr != nil {
			return 0, nil, aerr
		}
	}
	st.startRestore(target, r, c.now)
	return http.StatusOK, r.render(), nil
}

// managedRestore checks a restore from managed storage (key or backup id).
func (st *store) managedRestore(req api.RestoreRequest, target *service) (*restore, *apiError) {
	ref, field := req.Key, "key"
	if ref == "" {
		ref, field = req.ID, "id"
	} else if req.ID != "" && req.ID != req.Key {
		return nil, errf(http.StatusBadRequest, "id", "key and id name different backups (%q, %q); send one, or the same in both", req.Key, req.ID)
	}
	b := st.byKey[ref]
	if b == nil {
		e := errf(http.StatusNotFound, field, "backup %s not found", ref)
		e.solution = "Use the id (key) of a backup from GET /backups?service_id=<source service>."
		return nil, e
	}
	switch b.status {
	case jobSucceeded:
	case jobRunning:
		return nil, errf(http.StatusConflict, field, "backup %s is still running; only a completed backup can be restored", ref)
	default:
		return nil, errf(http.StatusBadRequest, field, "backup %s is %s; only a completed backup can be restored", ref, b.status)
	}
	if b.external {
		e := errf(http.StatusBadRequest, field, "backup %s was written to your own bucket %s, not to managed storage", ref, b.bucket)
		e.solution = "Restore it from the bucket: send id (the backup file) with external_source {bucket, method, credentials}."
		return nil, e
	}
	if b.provider != target.provider {
		e := errf(http.StatusBadRequest, field, "backup %s was taken on %s and service %s runs on %s: restores from a backup are possible only within the same cloud provider",
			ref, b.provider, target.id, target.provider)
		e.solution = "Back up the source service to your own bucket (external_storage), copy the backup folder to a bucket on " +
			target.provider + ", and restore from that bucket (external_source)."
		return nil, e
	}
	typ := "physical"
	if b.method == "mysqldump" {
		typ = "logical"
	}
	src := st.services[b.serviceID]
	region := ""
	if src != nil {
		region = src.region
	}
	return &restore{
		bucket: managedBucket(b.provider, region, b.serviceID), key: b.key, typ: typ,
		dataBytes: b.dataBytes, gtidSeq: b.gtidSeq, username: b.username, password: b.password, txPerSec: b.txPerSec,
		dump: b.dump,
	}, nil
}

// bucketRestore builds a restore from a file in the user's bucket: its size
// is derived from the file name, its credentials are new.
func (st *store) bucketRestore(es *api.ExternalSource, file string) *restore {
	h := sha256.Sum256([]byte(es.Bucket + file))
	n := binary.BigEndian.Uint64(h[:8])
	typ := "physical"
	if es.Method == api.MethodMysqldump {
		typ = "logical"
	}
	return &restore{
		bucket: es.Bucket, key: file, typ: typ,
		dataBytes: int64(200<<20) + int64(n%(20<<30)), gtidSeq: int64(n % 1_000_000),
		username: "dbpuser" + strconv.Itoa(int(n%100000)), password: st.newPassword(), txPerSec: 0.2,
	}
}

// checkBackupType applies each prefix's backup types: the interface
// document's under /backup/v1, the live description's enum under
// /skybackup/v1 (where logical and physical are refused with a 400).
func checkBackupType(c *reqCtx, typ string) *apiError {
	if fe, ok := api.CheckBackupType(c.live, typ).(*api.FieldError); ok {
		return validation(fe)
	}
	return nil
}
