package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
	"github.com/skytui/skytui/api"
)

// Timing of the simulation, in sandbox time.
const (
	// LaunchDuration is how long a new service stays pending_create.
	LaunchDuration = 5 * time.Minute
	// backupBase and backupRate: a backup job takes backupBase plus the
	// bytes it copies at backupRate (logical dumps at half the rate).
	backupBase = 20 * time.Second
	backupRate = 100 << 20 // bytes per second
	// restoreBase and restoreRate: a restore takes restoreBase plus the
	// data size at restoreRate.
	restoreBase = 60 * time.Second
	restoreRate = 50 << 20
	// nightlyHour is the UTC hour of the platform's nightly full backup.
	nightlyHour = 2
	// maxCatchUp bounds how far back cron schedules and nightly backups are
	// caught up after a long jump of the clock.
	maxCatchUp = 8 * 24 * time.Hour
	// maxEvents bounds the work of one advance.
	maxEvents = 100000
)

// Service statuses used by the sandbox.
const (
	statusPendingCreate    = "pending_create"
	statusPendingModifying = "pending_modifying"
	statusReady            = "ready"
	statusStopped          = "stopped"
	statusFailed           = "failed"
)

// Backup and restore statuses (capitalised, as the backup interface has them).
const (
	jobRunning   = "Running"
	jobSucceeded = "Succeeded"
	jobFailed    = "Failed"
)

// service is the sandbox's record of a database service.
type service struct {
	id, name, status                                  string
	serviceType, topology, provider, region, arch, sz string
	nodes, storageGB                                  int
	version                                           string
	ssl                                               bool
	outbound                                          []string
	allow                                             []api.AllowListEntry
	created, updated                                  time.Time
	readyAt                                           time.Time // pending_create → ready
	launched                                          bool      // has been ready once: fqdn, ports, credentials exist
	ports                                             Ports
	username, password                                string
	errors                                            []string

	// simulated data: dataBytes at dataAt, growing by growthPerDay;
	// GTID sequence gtidBase at dataAt, growing by txPerSec.
	dataBytes    int64
	dataAt       time.Time
	growthPerDay int64
	gtidServer   int
	gtidBase     int64
	txPerSec     float64

	nextNightly time.Time  // zero: not armed
	failNext    int        // FailNextBackup
	restoring   int64      // id of the running restore
	lc          *lifecycle // stop, start, scale or delete under way
	prevStatus  string     // status to return to after the restore

	// replication (SQLDemo): the service as a secondary, the grants run
	// on it as a primary, and its gtid_slave_pos. A restore resets them.
	repl         *replica
	grants       map[string]string // lower(user)@lower(host) → password
	gtidSlavePos string
	// managed replication (handlers_managed.go): the primary it follows
	managed *managedLink
}

func (s *service) fqdn() string { return s.id + ".sandbox.localhost" }

func (s *service) sizeAt(t time.Time) int64 {
	el := t.Sub(s.dataAt)
	if el < 0 {
		el = 0
	}
	return s.dataBytes + int64(float64(s.growthPerDay)*el.Hours()/24)
}

func (s *service) gtidSeqAt(t time.Time) int64 {
	el := t.Sub(s.dataAt)
	if el < 0 {
		el = 0
	}
	return s.gtidBase + int64(el.Seconds()*s.txPerSec)
}

func (s *service) pending() bool { return api.IsPendingServiceStatus(s.status) }

// backup is one backup (job) of a service.
type backup struct {
	seq                          int64
	key                          string
	serviceID, serviceName       string
	typ, method, status, message string
	start, end                   time.Time // end is planned while running
	storageBytes, dataBytes      int64
	binlogFile                   string
	binlogPos                    int64
	gtidSeq                      int64
	gtid                         string
	provider                     string
	external                     bool
	bucket                       string
	fail                         bool
	username, password           string // the service's credentials in the backup
	scheduleID                   int64  // 0: platform nightly (or demo history)
	pod                          string
	txPerSec                     float64 // the service's write rate, carried to a restore
	dump                         string  // SQLMariaDB: the logical copy (a file), "" when none
}

// schedule is a backup job ("once") or a cron schedule.
type schedule struct {
	id                     int64
	serviceID, serviceName string
	typ, expr              string // expr: "once" or the cron expression
	cron                   cron.Schedule
	bucketPath             string // own bucket, or "" for managed storage
	created, next          time.Time
	lastRun                time.Time
	message                string
	backupKey              string    // once: the job's backup
	suspended              bool      // no runs while suspended (PATCH)
	updated                time.Time // last PATCH
}

// restore is one restore.
type restore struct {
	id                     int64
	serviceID, serviceName string
	bucket, key, typ       string
	status, message        string
	created, end           time.Time
	dataBytes, gtidSeq     int64
	username, password     string
	txPerSec               float64
	dump                   string // SQLMariaDB: the backup's logical copy
	loading                bool   // SQLMariaDB: the copy is being loaded into the target
}

// store is the whole state. It is not safe for concurrent use; the Server
// serialises access with its mutex.
type store struct {
	rng   *rand.Rand
	ports PortAssigner
	// slow, when set (SQLMariaDB), does what takes real time outside the
	// store lock: starting a service's server, dumping a backup, loading a
	// restore. Each completes later through Server.complete.
	slow slowWork
	// loopbackEgress gives every service the outbound IP 127.0.0.1 (real
	// servers connect to each other from there).
	loopbackEgress bool

	now    time.Time // sandbox time of the last advance
	target time.Time // the time being advanced to

	services  map[string]*service
	order     []*service
	backups   []*backup
	byKey     map[string]*backup
	running   []*backup
	schedules []*schedule
	restores  []*restore

	nextSchedule int64
	nextRestore  int64
	backupSeq    int64
}

func newStore(now time.Time, seed int64, ports PortAssigner) *store {
	if ports == nil {
		ports = livePorts
	}
	return &store{
		rng:          rand.New(rand.NewPCG(uint64(seed), 0x5ca1ab1e)),
		ports:        ports,
		now:          now,
		target:       now,
		services:     map[string]*service{},
		byKey:        map[string]*backup{},
		nextSchedule: 1,
		nextRestore:  1,
	}
}

// ---- time ----

type event struct {
	at   time.Time
	rank int
	fire func(time.Time)
}

// advance runs every timed transition up to `to`, in sandbox-time order:
// launches finishing, restores and backup jobs ending, cron schedules and
// nightly backups firing. It is the only place state changes by itself;
// there is no goroutine per object.
func (st *store) advance(to time.Time) {
	if !to.After(st.now) {
		return
	}
	st.target = to
	for range maxEvents {
		ev := st.nextEvent(to)
		if ev.fire == nil {
			break
		}
		at := ev.at
		if at.After(st.now) {
			st.now = at
		}
		ev.fire(at)
	}
	st.now = to
}

func (st *store) nextEvent(to time.Time) event {
	var best event
	consider := func(at time.Time, rank int, fire func(time.Time)) {
		if at.IsZero() || at.After(to) {
			return
		}
		if best.fire == nil || at.Before(best.at) || (at.Equal(best.at) && rank < best.rank) {
			best = event{at, rank, fire}
		}
	}
	for _, s := range st.order {
		if s.status == statusPendingCreate && !s.readyAt.IsZero() {
			consider(s.readyAt, 0, func(t time.Time) { st.finishLaunch(s, t) })
		}
	}
	for _, s := range st.order {
		if s.lc != nil {
			consider(s.lc.at, 0, func(t time.Time) { st.finishLifecycle(s, t) })
		}
	}
	for _, r := range st.restores {
		if r.status == jobRunning && !r.loading {
			consider(r.end, 1, func(t time.Time) { st.finishRestore(r, t) })
		}
	}
	for _, b := range st.running {
		consider(b.end, 2, func(t time.Time) { st.finishBackup(b, t) })
	}
	for _, sc := range st.schedules {
		if sc.cron != nil && !sc.suspended {
			consider(sc.next, 3, func(t time.Time) { st.fireCron(sc, t) })
		}
	}
	for _, s := range st.order {
		consider(s.nextNightly, 4, func(t time.Time) { st.fireNightly(s, t) })
	}
	return best
}

// catchUpFloor is the earliest time a periodic run is still caught up.
func (st *store) catchUpFloor() time.Time { return st.target.Add(-maxCatchUp) }

func (st *store) nextCron(c cron.Schedule, after time.Time) time.Time {
	if floor := st.catchUpFloor(); after.Before(floor) {
		after = floor
	}
	return c.Next(after)
}

// nextNightlyAfter is the first nightly backup time strictly after t.
func (st *store) nextNightlyAfter(t time.Time) time.Time {
	if floor := st.catchUpFloor(); t.Before(floor) {
		t = floor
	}
	t = t.UTC()
	n := time.Date(t.Year(), t.Month(), t.Day(), nightlyHour, 0, 0, 0, time.UTC)
	if !n.After(t) {
		n = n.AddDate(0, 0, 1)
	}
	return n
}

func (st *store) finishLaunch(s *service, t time.Time) {
	s.readyAt = time.Time{}
	if st.slow != nil {
		// The service stays pending_create until its server is up.
		st.slow.startServer(s)
		return
	}
	ports, err := st.ports.AssignPorts(ServiceInfo{ID: s.id, Name: s.name, FQDN: s.fqdn(), Provider: s.provider, Username: s.username, Password: s.password})
	st.completeLaunch(s, ports, err, t)
}

// completeLaunch makes a launching service ready on its ports, or failed.
func (st *store) completeLaunch(s *service, ports Ports, err error, t time.Time) {
	if err != nil {
		s.status = statusFailed
		s.errors = append(s.errors, "launch failed: "+err.Error())
		s.updated = t
		return
	}
	s.ports = ports
	s.launched = true
	s.status = statusReady
	s.updated = t
	s.nextNightly = st.nextNightlyAfter(t)
}

func (st *store) finishBackup(b *backup, t time.Time) {
	for i, x := range st.running {
		if x == b {
			st.running = append(st.running[:i], st.running[i+1:]...)
			break
		}
	}
	b.end = t
	if b.fail {
		b.status = jobFailed
		b.message = "Backup failed: " + b.method + " exited with status 1"
		b.storageBytes = 0
		return
	}
	if st.slow != nil {
		// Running until the real server's copy is taken.
		st.slow.dumpBackup(b)
		return
	}
	b.status = jobSucceeded
	b.message = "Backup has succeeded!"
}

func (st *store) fireCron(sc *schedule, t time.Time) {
	s := st.services[sc.serviceID]
	switch {
	case s == nil:
		sc.message = "service not found"
	case s.status != statusReady:
		sc.message = fmt.Sprintf("run at %s skipped: service is %s", t.UTC().Format(time.RFC3339), s.status)
	default:
		st.startBackup(s, sc.typ, t, sc.id, sc.bucketPath)
		sc.lastRun = t
		sc.message = "last run at " + t.UTC().Format(time.RFC3339)
	}
	sc.next = st.nextCron(sc.cron, t)
}

func (st *store) fireNightly(s *service, t time.Time) {
	s.nextNightly = st.nextNightlyAfter(t)
	if s.status == statusReady {
		st.startBackup(s, api.BackupFull, t, 0, "")
	}
}

func (st *store) finishRestore(r *restore, t time.Time) {
	s := st.services[r.serviceID]
	if st.slow != nil && s != nil && s.restoring == r.id {
		// Running until the copy is loaded into the real server.
		r.loading = true
		st.slow.loadRestore(r, s)
		return
	}
	st.applyRestore(r, t)
}

// applyRestore ends a restore successfully: the target's data, GTID
// position, credentials and replication state are the backup's.
func (st *store) applyRestore(r *restore, t time.Time) {
	r.status = jobSucceeded
	r.message = "Restore has succeeded!"
	r.end = t
	r.loading = false
	s := st.services[r.serviceID]
	if s == nil || s.restoring != r.id {
		return
	}
	// Its data was replaced: no replica configuration, no grants made on
	// it, no replica position.
	s.repl, s.grants, s.gtidSlavePos = nil, nil, ""
	// The target's data is replaced by the backup's, and its default
	// credentials by those the backup holds (the source service's).
	s.dataBytes = r.dataBytes
	s.dataAt = t
	s.gtidBase = r.gtidSeq
	s.txPerSec = r.txPerSec
	s.username, s.password = r.username, r.password
	s.status = s.prevStatus
	s.prevStatus = ""
	s.restoring = 0
	s.updated = t
}

// ---- services ----

var providerLetter = map[string]string{"aws": "a", "gcp": "g", "azure": "z"}

func (st *store) newServiceID(provider string) string {
	for {
		id := fmt.Sprintf("dbt%sf%08d", providerLetter[provider], st.rng.IntN(100_000_000))
		if _, dup := st.services[id]; !dup && api.ValidateServiceID(id) == nil {
			return id
		}
	}
}

const pwAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"

func (st *store) newPassword() string {
	b := make([]byte, 20)
	for i := range b {
		b[i] = pwAlphabet[st.rng.IntN(len(pwAlphabet))]
	}
	return string(b)
}

func (st *store) newOutboundIPs() []string {
	ips := []string{fmt.Sprintf("198.51.100.%d", 1+st.rng.IntN(254))}
	if st.rng.IntN(2) == 1 {
		ips = append(ips, fmt.Sprintf("203.0.113.%d", 1+st.rng.IntN(254)))
	}
	return ips
}

// addService creates a service record launching at t.
func (st *store) addService(req api.CreateServiceRequest, t time.Time) *service {
	id := st.newServiceID(req.Provider)
	version := req.Version
	if version == "" {
		version = catalog.defaultVersion(req.Topology)
	}
	s := &service{
		id: id, name: req.Name, status: statusPendingCreate,
		serviceType: req.ServiceType, topology: req.Topology, provider: req.Provider, region: req.Region,
		arch: req.Architecture, sz: req.Size, nodes: req.Nodes, storageGB: req.Storage, version: version, ssl: req.SSLEnabled,
		outbound: st.newOutboundIPs(),
		created:  t, updated: t, readyAt: t.Add(LaunchDuration),
		username: "dbp" + strings.TrimPrefix(id, "dbt"), password: st.newPassword(),
		dataBytes: 24 << 20, dataAt: t, gtidServer: 1 + st.rng.IntN(4000), gtidBase: 12, txPerSec: 0.05,
	}
	if st.loopbackEgress {
		s.outbound = []string{"127.0.0.1"}
	}
	for _, e := range req.AllowList {
		s.allow = append(s.allow, api.AllowListEntry{IP: api.NormalizeAllowListIP(e.IP), Comment: e.Comment})
	}
	st.services[id] = s
	st.order = append(st.order, s)
	return s
}

func volumeType(provider string) string {
	switch provider {
	case "aws":
		return "gp3"
	case "gcp":
		return "pd-ssd"
	}
	return "StandardSSD_LRS"
}

// render is the service record as the provisioning interface shows it.
// The FQDN, ports and credentials exist only once the launch finished.
func (st *store) render(s *service) api.Service {
	ep := api.Endpoint{Name: "primary", Ports: []api.Port{}, AllowList: append([]api.AllowListEntry(nil), s.allow...)}
	fqdn := ""
	if s.launched {
		fqdn = s.fqdn()
		ep.Ports = []api.Port{{Name: "readwrite", Port: s.ports.ReadWrite, Purpose: "readwrite"}}
		if s.ports.ReadOnly > 0 {
			ep.Ports = append(ep.Ports, api.Port{Name: "readonly", Port: s.ports.ReadOnly, Purpose: "readonly"})
		}
	}
	sv := &api.StorageVolume{Size: s.storageGB, VolumeType: volumeType(s.provider)}
	if s.provider == "aws" {
		sv.IOPS, sv.Throughput = 3000, 125
	}
	out := api.Service{
		ID: s.id, Name: s.name, Status: s.status, ServiceType: s.serviceType, Topology: s.topology,
		Provider: s.provider, Region: s.region, Architecture: s.arch, Size: s.sz, Nodes: s.nodes, Version: s.version,
		FQDN: fqdn, SSLEnabled: s.ssl, OutboundIPs: append([]string(nil), s.outbound...),
		Endpoints: []api.Endpoint{ep}, StorageVolume: sv,
		CreatedOn: api.UnixTime{Time: s.created}, UpdatedOn: api.UnixTime{Time: s.updated},
		Errors: append([]string(nil), s.errors...),
	}
	st.managedFields(s, &out)
	return out
}

func (st *store) service(id string) (*service, *apiError) {
	if err := api.ValidateServiceID(id); err != nil {
		return nil, validation(err)
	}
	s, ok := st.services[id]
	if !ok {
		return nil, errf(http.StatusNotFound, "service_id", "service %s not found", id)
	}
	return s, nil
}

// pendingError is the live answer to a change of a service in a pending state.
func pendingError(s *service) *apiError {
	e := errf(http.StatusConflict, "service_id", "service %s is in a pending state (%s); try again once it is ready", s.id, s.status)
	e.solution = "Wait until the service status is ready, then retry."
	return e
}

// requireReady refuses a service that is not ready: 409.
func requireReady(s *service) *apiError {
	switch {
	case s.pending():
		return pendingError(s)
	case s.status != statusReady:
		return errf(http.StatusConflict, "service_id", "service %s is %s; it must be ready", s.id, s.status)
	}
	return nil
}

// ---- backups ----

func backupMethod(typ string) string {
	switch typ {
	case api.BackupLogical, api.BackupDump:
		return "mysqldump"
	case api.BackupBinarylog:
		return "binlog"
	case api.BackupSnapshot:
		return "snapshot"
	}
	return "mariabackup"
}

// copiedBytes is what a backup of the type copies from data bytes.
func copiedBytes(typ string, data int64) int64 {
	switch typ {
	case api.BackupIncremental:
		return data / 20
	case api.BackupBinarylog:
		return data / 100
	case api.BackupLogical, api.BackupDump:
		return data * 6 / 10
	}
	return data
}

// backupDuration grows with the database size.
func backupDuration(typ string, data int64) time.Duration {
	rate := float64(backupRate)
	if typ == api.BackupLogical || typ == api.BackupDump {
		rate /= 2
	}
	return backupBase + time.Duration(float64(copiedBytes(typ, data))/rate*float64(time.Second))
}

func restoreDuration(data int64) time.Duration {
	return restoreBase + time.Duration(float64(data)/restoreRate*float64(time.Second))
}

func managedBucket(provider, region, serviceID string) string {
	switch provider {
	case "gcp":
		return "gs://skysql-backups-" + region + "/" + serviceID + "/"
	case "azure":
		return "https://skysqlbackups" + region + ".blob.core.windows.net/" + serviceID + "/"
	}
	return "s3://skysql-backups-" + region + "/" + serviceID + "/"
}

// startBackup starts a backup job of s at t. bucketPath "" is managed storage.
func (st *store) startBackup(s *service, typ string, t time.Time, scheduleID int64, bucketPath string) *backup {
	st.backupSeq++
	data := s.sizeAt(t)
	h := sha256.Sum256(fmt.Appendf(nil, "%s|%d|%d", s.id, t.UnixNano(), st.backupSeq))
	pod := s.id + "-mdb-ms-0"
	seq := s.gtidSeqAt(t)
	file, pos := binlogCoords(seq)
	b := &backup{
		seq: st.backupSeq, key: hex.EncodeToString(h[:16]) + ":" + s.id + ":" + pod, pod: pod,
		serviceID: s.id, serviceName: s.name, typ: typ, method: backupMethod(typ), status: jobRunning,
		message: "Backup is in progress", start: t, end: t.Add(backupDuration(typ, data)),
		storageBytes: copiedBytes(typ, data), dataBytes: data,
		binlogFile: file, binlogPos: pos,
		gtidSeq: seq, gtid: fmt.Sprintf("0-%d-%d", s.gtidServer, seq),
		provider: s.provider, external: bucketPath != "", bucket: bucketPath,
		username: s.username, password: s.password, scheduleID: scheduleID,
		txPerSec: s.txPerSec,
	}
	if st.slow != nil {
		// A real server's position is known when its dump is taken.
		b.binlogFile, b.binlogPos, b.gtid = "", 0, ""
	}
	if s.failNext > 0 {
		s.failNext--
		b.fail = true
	}
	st.backups = append(st.backups, b)
	st.byKey[b.key] = b
	st.running = append(st.running, b)
	return b
}

// hasFullBackup reports a completed full backup of the service.
func (st *store) hasFullBackup(serviceID string) bool {
	for _, b := range st.backups {
		if b.serviceID == serviceID && b.typ == api.BackupFull && b.status == jobSucceeded {
			return true
		}
	}
	return false
}

// backupJSON is a backup as the listing shows it: api's wire type plus the
// fields the sandbox adds (key = id, backup_size = storage_bytes, pod).
type backupJSON struct {
	api.Backup
	KeyAlias   string `json:"key"`
	BackupSize int64  `json:"backup_size"`
	ServerPod  string `json:"server_pod,omitempty"`
}

// render is b as the live service's backup interface (live) or the
// document's shows it, with that interface's name for its type.
func (b *backup) render(live bool) backupJSON {
	out := backupJSON{
		Backup: api.Backup{
			Key: b.key, ServiceID: b.serviceID, ServiceName: b.serviceName, Type: api.BackupTypeOn(live, b.typ), Method: b.method, Status: b.status,
			StartTime: api.Time{Time: b.start}, SizeBytes: b.storageBytes,
			BinlogFile: b.binlogFile, BinlogPosition: api.FlexString(binlogPosText(b)), BinlogGTIDPosition: b.gtid,
			IsExternalStorage: b.external, Bucket: b.bucket,
		},
		KeyAlias: b.key, BackupSize: b.storageBytes, ServerPod: b.pod,
	}
	// The live spec's cloud_provider enum is gcp, aws, onpred: azure backups
	// leave the field out rather than break it.
	if b.provider != "azure" {
		out.CloudProvider = b.provider
	}
	if b.status != jobRunning {
		out.EndTime = api.Time{Time: b.end}
	}
	return out
}

// binlogPosText is the backup's binlog position, "" while unknown.
func binlogPosText(b *backup) string {
	if b.binlogFile == "" {
		return ""
	}
	return fmt.Sprint(b.binlogPos)
}

// scheduleJSON is a schedule as created and listed: api's wire type with the
// live kind ("once" or "cron") in schedule, the expression in cron.
type scheduleJSON struct {
	api.Schedule
	BackupID  string `json:"backup_id,omitempty"`
	UpdatedAt string `json:"updated_at,omitempty"`
}

// renderSchedule is sc as the live service's backup interface (live) or
// the document's shows it, with that interface's name for its type.
func (st *store) renderSchedule(sc *schedule, live bool) scheduleJSON {
	out := scheduleJSON{Schedule: api.Schedule{
		ID: api.FlexInt(sc.id), ServiceID: sc.serviceID, ServiceName: sc.serviceName, Type: api.BackupTypeOn(live, sc.typ),
		Schedule: "cron", Cron: sc.expr, Status: "Active", Message: sc.message, Target: "managed",
		CreatedAt: api.Time{Time: sc.created}, Suspended: sc.suspended,
	}}
	if sc.suspended {
		out.Status = "Suspended"
	}
	if !sc.updated.IsZero() {
		out.UpdatedAt = sc.updated.UTC().Format(time.RFC3339)
	}
	if sc.bucketPath != "" {
		out.Target = sc.bucketPath
	}
	if sc.cron == nil {
		out.Schedule.Schedule, out.Cron = "once", ""
		out.ScheduledAt = api.Time{Time: sc.created}
		out.BackupID = sc.backupKey
		if b := st.byKey[sc.backupKey]; b != nil {
			out.Status = b.status
			out.Message = b.message
		}
	} else if !sc.next.IsZero() && !sc.suspended {
		out.ScheduledAt = api.Time{Time: sc.next}
	}
	return out
}

// ---- restores ----

// restoreJSON is a restore record: api's wire type plus the live backup_id.
type restoreJSON struct {
	api.Restore
	BackupID string `json:"backup_id,omitempty"`
}

func (r *restore) render() restoreJSON {
	return restoreJSON{Restore: api.Restore{
		ID: api.FlexInt(r.id), ServiceID: r.serviceID, ServiceName: r.serviceName, Bucket: r.bucket, Key: r.key,
		Type: r.typ, Status: r.status, Message: r.message, CreatedAt: api.Time{Time: r.created},
	}, BackupID: r.key}
}

// startRestore starts a restore into s at t. While it runs, the target shows
// pending_modifying: the interface document lists that status, a restore
// stops the service and erases its data, and every pending_* status makes
// clients treat the service as busy and the API refuse changes with 409.
func (st *store) startRestore(s *service, r *restore, t time.Time) {
	r.id = st.nextRestore
	st.nextRestore++
	r.serviceID, r.serviceName = s.id, s.name
	r.status, r.message = jobRunning, "server is not-ready"
	r.created = t
	r.end = t.Add(restoreDuration(r.dataBytes))
	st.restores = append(st.restores, r)
	s.prevStatus = s.status
	s.status = statusPendingModifying
	s.restoring = r.id
	s.updated = t
}

// cancelRestore removes a running restore; the target returns to its
// previous status with its data untouched.
func (st *store) cancelRestore(r *restore, t time.Time) {
	for i, x := range st.restores {
		if x == r {
			st.restores = append(st.restores[:i], st.restores[i+1:]...)
			break
		}
	}
	if s := st.services[r.serviceID]; s != nil && s.restoring == r.id {
		s.status = s.prevStatus
		s.prevStatus = ""
		s.restoring = 0
		s.updated = t
	}
}

func (st *store) restoreByID(id int64) *restore {
	for _, r := range st.restores {
		if r.id == id {
			return r
		}
	}
	return nil
}
