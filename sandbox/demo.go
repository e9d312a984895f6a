package sandbox

import (
	"time"

	"github.com/skytui/skytui/api"
)

const (
	mb = int64(1) << 20
	gb = int64(1) << 30
)

// Demo service names (stable, for tests and screenshots).
const (
	DemoOrders     = "orders-prod"    // aws, ready, es-replica, big, own-bucket dump, daily + hourly schedules
	DemoAnalytics  = "analytics-gcp"  // gcp, ready, very big, one failed nightly, weekly own-bucket schedule, a running backup
	DemoStaging    = "staging-eu"     // azure, restoring (pending_modifying) at the start
	DemoReplica    = "replica-west"   // aws, ready, restored from an orders-prod backup
	DemoReporting  = "reporting-new"  // gcp, pending_create, ready three sandbox minutes after the start
	DemoLegacy     = "legacy-batch"   // aws, stopped
	DemoBroken     = "broken-import"  // azure, failed launch
	DemoServerless = "dev-serverless" // gcp, serverless, ready, small
)

// loadDemo fills the store by simulating the last week with the store's
// own machinery (nightly backups, cron schedules, jobs, restores), so the
// history obeys the same rules as live requests. Deterministic given the
// seed and now.
func loadDemo(st *store, now time.Time) {
	t0 := now.Add(-7 * 24 * time.Hour).Truncate(time.Hour)
	st.now, st.target = t0, t0
	step := func(t time.Time) { st.advance(t) }

	type spec struct {
		name, provider, region, topology, size, arch string
		nodes, storage                               int
		age                                          time.Duration
		data, growthPerDay                           int64
		tx                                           float64
		allow                                        []api.AllowListEntry
	}
	mk := func(sp spec, launched bool) *service {
		st.target = st.now
		stype := "transactional"
		if sp.topology == "serverless-standalone" {
			stype = "transactional_serverless"
		}
		created := now.Add(-sp.age)
		s := st.addService(api.CreateServiceRequest{ServiceType: stype, Topology: sp.topology, Provider: sp.provider, Region: sp.region,
			Architecture: sp.arch, Size: sp.size, Storage: sp.storage, Nodes: sp.nodes, Name: sp.name, SSLEnabled: true, AllowList: sp.allow}, created)
		s.dataBytes, s.growthPerDay, s.txPerSec = sp.data, sp.growthPerDay, sp.tx
		s.gtidBase = int64(sp.age.Seconds() * sp.tx)
		s.dataAt = st.now
		if launched {
			st.finishLaunch(s, created.Add(LaunchDuration))
			s.nextNightly = st.nextNightlyAfter(st.now)
		}
		return s
	}

	orders := mk(spec{name: DemoOrders, provider: "aws", region: "us-east-1", topology: "es-replica", size: "sky-4x16", arch: "amd64", nodes: 2, storage: 500,
		age: 210 * 24 * time.Hour, data: 48 * gb, growthPerDay: 150 * mb, tx: 3.5,
		allow: []api.AllowListEntry{{IP: "203.0.113.10/32", Comment: "office VPN"}, {IP: "198.51.100.0/24", Comment: "app servers"}, {IP: "192.0.2.44/32", Comment: "bastion"}}}, true)
	analytics := mk(spec{name: DemoAnalytics, provider: "gcp", region: "us-central1", topology: "es-single", size: "sky-8x32", arch: "amd64", nodes: 1, storage: 1000,
		age: 95 * 24 * time.Hour, data: 180 * gb, growthPerDay: 1 * gb, tx: 1.2,
		allow: []api.AllowListEntry{{IP: "203.0.113.0/24", Comment: "BI cluster"}}}, true)
	staging := mk(spec{name: DemoStaging, provider: "azure", region: "westeurope", topology: "es-single", size: "sky-2x8", arch: "amd64", nodes: 1, storage: 100,
		age: 40 * 24 * time.Hour, data: 3*gb + 200*mb, growthPerDay: 5 * mb, tx: 0.3,
		allow: []api.AllowListEntry{{IP: "192.0.2.0/28", Comment: "CI runners"}}}, true)
	replica := mk(spec{name: DemoReplica, provider: "aws", region: "us-west-2", topology: "es-single", size: "sky-2x8", arch: "arm64", nodes: 1, storage: 200,
		age: 12 * 24 * time.Hour, data: 900 * mb, tx: 0.1}, true)
	legacy := mk(spec{name: DemoLegacy, provider: "aws", region: "eu-west-1", topology: "sa", size: "sky-4x16", arch: "amd64", nodes: 1, storage: 300,
		age: 400 * 24 * time.Hour, data: 12 * gb, growthPerDay: 20 * mb, tx: 0.4,
		allow: []api.AllowListEntry{{IP: "198.51.100.77/32", Comment: "batch host"}}}, true)
	mk(spec{name: DemoServerless, provider: "gcp", region: "us-east4", topology: "serverless-standalone", size: "sky-2x8", arch: "amd64", nodes: 1, storage: 100,
		age: 20 * 24 * time.Hour, data: 400 * mb, tx: 0.05}, true)

	// Day 1: the legacy service is stopped (its older backups remain).
	step(t0.Add(30 * time.Hour))
	legacy.status = statusStopped
	legacy.updated = st.now

	// Schedules: a daily full of orders-prod at 03:00 and a weekly logical
	// dump of analytics-gcp to its own bucket.
	st.addSchedule(orders, api.ScheduleRequest{BackupType: api.BackupFull, Schedule: "0 3 * * *", ServiceID: orders.id}, st.now)
	st.addSchedule(analytics, api.ScheduleRequest{BackupType: api.BackupLogical, Schedule: "30 1 * * 0", ServiceID: analytics.id,
		ExternalStorage: &api.ExternalStorage{Bucket: api.ExternalBucket{Path: "gs://acme-analytics-dumps/weekly", Credentials: "(demo)"}}}, st.now)

	// Day 2: analytics-gcp's next nightly fails; orders-prod gets a one-off
	// logical dump to its own bucket.
	step(t0.Add(2*24*time.Hour + 10*time.Hour))
	analytics.failNext++
	st.addSchedule(orders, api.ScheduleRequest{BackupType: api.BackupLogical, Schedule: "once", ServiceID: orders.id,
		ExternalStorage: &api.ExternalStorage{Bucket: api.ExternalBucket{Path: "s3://acme-db-exports/orders", Credentials: "(demo)"}}}, st.now)

	// Day 3: replica-west is restored from orders-prod's latest nightly.
	step(t0.Add(3*24*time.Hour + 9*time.Hour))
	if b := latestBackup(st, orders.id, api.BackupFull); b != nil {
		if r, err := st.managedRestore(api.ManagedRestore(replica.id, b.key), replica); err == nil {
			st.startRestore(replica, r, st.now)
		}
	}

	// Yesterday: hourly incremental backups of orders-prod.
	step(now.Add(-30 * time.Hour))
	st.addSchedule(orders, api.ScheduleRequest{BackupType: api.BackupIncremental, Schedule: "15 * * * *", ServiceID: orders.id}, st.now)

	// A failed launch.
	step(now.Add(-24 * time.Hour))
	broken := mk(spec{name: DemoBroken, provider: "azure", region: "eastus", topology: "es-single", size: "sky-2x8", arch: "amd64", nodes: 1, storage: 100,
		age: 24 * time.Hour, data: 0}, false)
	broken.status, broken.readyAt = statusFailed, time.Time{}
	broken.errors = []string{"launch failed: insufficient capacity for sky-2x8 in eastus; try another region or size"}
	broken.updated = st.now.Add(4 * time.Minute)

	// Ten minutes ago: a one-off full backup of analytics-gcp, still running.
	step(now.Add(-10 * time.Minute))
	st.addSchedule(analytics, api.ScheduleRequest{BackupType: api.BackupFull, Schedule: "once", ServiceID: analytics.id}, st.now)

	// Two minutes ago: a new service, ready three minutes from now.
	step(now.Add(-2 * time.Minute))
	mk(spec{name: DemoReporting, provider: "gcp", region: "europe-west1", topology: "es-single", size: "sky-2x8", arch: "arm64", nodes: 1, storage: 100,
		age: 2 * time.Minute, data: 24 * mb, tx: 0.05, allow: []api.AllowListEntry{{IP: "203.0.113.99/32", Comment: "analyst laptop"}}}, false)

	// A minute ago: staging-eu is being restored from its own latest backup.
	step(now.Add(-time.Minute))
	if b := latestBackup(st, staging.id, api.BackupFull); b != nil {
		if r, err := st.managedRestore(api.ManagedRestore(staging.id, b.key), staging); err == nil {
			st.startRestore(staging, r, st.now)
		}
	}
	step(now)
}

func latestBackup(st *store, serviceID, typ string) *backup {
	for i := len(st.backups) - 1; i >= 0; i-- {
		b := st.backups[i]
		if b.serviceID == serviceID && b.typ == typ && b.status == jobSucceeded && !b.external {
			return b
		}
	}
	return nil
}
