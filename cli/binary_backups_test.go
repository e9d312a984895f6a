package cli

import (
	"os"
	"strings"
	"testing"

	"github.com/skytui/skytui/sandbox"
)

// TestBinaryBackups: backups list|create and schedules list|get|edit|delete
// as the built binary against `skytui sandbox`.
func TestBinaryBackups(t *testing.T) {
	h := startBinSandbox(t, "--time-scale", "3000")
	poll := []string{"--poll-interval", "50ms"}
	ordersID := jsonOf[map[string]any](t, first(h.run(0, "services", "get", sandbox.DemoOrders, "-o", "json")))["id"].(string)

	// list: every service's, one service's, by status; table, wide, JSON
	so, _ := h.run(0, "backups", "list")
	if head := strings.Join(tableRows(so)[0], " "); head != "SERVICE KEY TYPE STATUS STARTED SIZE" {
		t.Errorf("backups list header: %s", head)
	}
	for _, name := range []string{sandbox.DemoOrders, sandbox.DemoAnalytics, sandbox.DemoLegacy} {
		if tableRow(so, name) == nil {
			t.Errorf("backups list has no backup of %s", name)
		}
	}
	all := jsonOf[[]map[string]any](t, first(h.run(0, "backups", "list", "--service", sandbox.DemoOrders, "-o", "json")))
	ok := jsonOf[[]map[string]any](t, first(h.run(0, "backups", "list", "--service", ordersID, "--status", "succeeded", "-o", "json")))
	if len(ok) == 0 || len(all) == 0 {
		t.Errorf("%d backups, %d succeeded", len(all), len(ok))
	}
	for _, b := range all {
		if b["service_id"] != ordersID || b["id"] == "" {
			t.Fatalf("a backup of another service, or without a key: %v", b)
		}
	}
	for _, b := range ok {
		if b["status"] != "Succeeded" {
			t.Fatalf("--status succeeded: %v", b)
		}
	}
	so, _ = h.run(0, "backups", "list", "--service", sandbox.DemoOrders, "--status", "Succeeded", "-o", "wide", "--no-headers")
	for _, r := range tableRows(so) { // the clock runs: more may be listed now; SIZE is two words
		if len(r) < 11 || r[0] != sandbox.DemoOrders || r[3] != "Succeeded" || !strings.HasPrefix(r[7], r[1]) || !strings.Contains(r[7], ":"+ordersID+":") {
			t.Fatalf("-o wide --no-headers: %v\n%s", r, so)
		}
	}
	h.fails(exitUsage, "--status: give a status", "backups", "list", "--status", "")
	h.fails(exitNotFound, `no service named "no-such-db"`, "backups", "list", "--service", "no-such-db")
	h.fails(exitUsage, "--service \"x\" is neither a service ID nor a service name", "backups", "list", "--service", "x")

	// create: the rules before sending, read-only, then a backup now
	// (followed until it completed) and a schedule
	h.unsent(exitUsage, "--service is required", "backups", "create", "--type", "full")
	h.unsent(exitUsage, "--type (backup_type): must be full, incremental, logical, physical or binarylog; on the live service full, incremental, binarylog, dump or snapshot", "backups", "create", "--service", sandbox.DemoReplica, "--type", "nightly")
	h.unsent(exitUsage, "--schedule (schedule)", "backups", "create", "--service", sandbox.DemoReplica, "--type", "full", "--schedule", "0 4 * *")
	h.unsent(exitUsage, "--wait follows a backup taken now", "backups", "create", "--service", sandbox.DemoReplica, "--type", "full", "--schedule", "0 4 * * *", "--wait")
	// the interface document's names, refused on the live service's prefix with the name to use
	h.unsent(exitUsage, "--type (backup_type): the live service takes full, incremental, binarylog, dump or snapshot: its logical (SQL) backup is dump", "backups", "create", "--service", sandbox.DemoReplica, "--type", "logical")
	h.unsent(exitUsage, "its physical (mariabackup) backup is full", "backups", "create", "--service", sandbox.DemoReplica, "--type", "physical")
	h.unsent(exitUsage, "--creds (external_storage.bucket.credentials): is required with --bucket", "backups", "create", "--service", sandbox.DemoReplica, "--type", "dump", "--bucket", "s3://bin-bucket/dumps")
	h.unsent(exitUsage, "--bucket (external_storage.bucket.path)", "backups", "create", "--service", sandbox.DemoReplica, "--type", "dump", "--bucket", "ftp://bin-bucket/dumps", "--creds", "x")
	h.unsent(exitUsage, "--creds nope: no stored bucket credentials of that name", "backups", "create", "--service", sandbox.DemoReplica, "--type", "dump", "--bucket", "s3://bin-bucket/dumps", "--creds", "nope")
	h.unsent(exitNotFound, `no service named "no-such-db"`, "backups", "create", "--service", "no-such-db", "--type", "full")
	h.refused("profile audit is read-only: backups create refused, nothing was sent", "backups", "create", "--service", sandbox.DemoReplica, "--type", "full", "--profile", "audit")
	h.refused("--read-only: backups create refused", "backups", "create", "--service", sandbox.DemoReplica, "--type", "full", "--read-only")

	b := jsonOf[map[string]any](t, first(h.run(0, append([]string{"backups", "create", "--service", sandbox.DemoReplica, "--type", "full", "--wait", "-o", "json"}, poll...)...)))
	key, _ := b["id"].(string)
	if b["status"] != "Succeeded" || b["type"] != "full" || key == "" {
		t.Fatalf("backups create --wait: %v", b)
	}
	if so, _ := h.run(0, "backups", "list", "--service", sandbox.DemoReplica, "-o", "wide"); !strings.Contains(so, key) {
		t.Errorf("the new backup %s is not listed:\n%s", key, so)
	}
	so, _ = h.run(0, "backups", "create", "--service", sandbox.DemoReplica, "--type", "incremental")
	if r := tableRows(so); len(r) != 2 || strings.Join(r[0], " ") != "ID TYPE SCHEDULE STATUS SUSPENDED" || r[1][1] != "incremental" || r[1][2] != "once" {
		t.Errorf("backups create (a job):\n%s", so)
	}
	sc := jsonOf[map[string]any](t, first(h.run(0, "backups", "create", "--service", sandbox.DemoReplica, "--type", "full", "--schedule", "0 4 * * *", "-o", "json")))
	if sc["cron"] != "0 4 * * *" || sc["type"] != "full" || sc["id"] == nil {
		t.Fatalf("backups create --schedule: %v", sc)
	}
	if n := h.sent("POST", `/skybackup/v1/backups/schedules`); n != 3 {
		t.Errorf("%d backups or schedules created, want 3", n)
	}

	// schedules: listed per service, read, edited, suspended, resumed, deleted
	h.fails(exitUsage, "--service is required: schedules are listed per service", "schedules", "list")
	so, _ = h.run(0, "schedules", "list", "--service", sandbox.DemoOrders)
	if r := tableRow(so, "1"); strings.Join(r, " ") != "1 full 0 3 * * * Active no" {
		t.Errorf("schedules list: %v\n%s", r, so)
	}
	scheds := jsonOf[[]map[string]any](t, first(h.run(0, "schedules", "list", "--service", sandbox.DemoReplica, "-o", "json")))
	found := false
	for _, s := range scheds {
		found = found || s["id"] == sc["id"] && s["cron"] == "0 4 * * *"
		if s["service_id"] == ordersID {
			t.Errorf("a schedule of orders-prod in replica-west's: %v", s)
		}
	}
	if !found {
		t.Errorf("the new schedule is not listed: %v", scheds)
	}
	if s := jsonOf[map[string]any](t, first(h.run(0, "schedules", "get", "1", "-o", "json"))); s["id"] != 1.0 || s["type"] != "full" || s["service_id"] != ordersID {
		t.Errorf("schedules get 1: %v", s)
	}
	if r := tableRow(first(h.run(0, "schedules", "get", "1")), "1"); len(r) < 2 || r[1] != "full" {
		t.Errorf("schedules get 1 (table): %v", r)
	}
	h.fails(exitNotFound, "404", "schedules", "get", "999")
	h.fails(exitUsage, `schedule ID "abc": must be a positive number`, "schedules", "get", "abc")

	h.unsent(exitUsage, "--cron (schedule)", "schedules", "edit", "1", "--cron", "61 * * * *")
	h.unsent(exitUsage, "nothing to change", "schedules", "edit", "1")
	h.unsent(exitUsage, "--suspend and --resume: give one of them", "schedules", "edit", "1", "--suspend", "--resume")
	h.refused("profile audit is read-only: schedules edit refused", "schedules", "edit", "1", "--suspend", "--profile", "audit")
	h.fails(exitNotFound, "404", "schedules", "edit", "999", "--suspend")
	if s := jsonOf[map[string]any](t, first(h.run(0, "schedules", "edit", "1", "--cron", "30 2 * * 1-5", "-o", "json"))); s["cron"] != "30 2 * * 1-5" {
		t.Errorf("edit --cron: %v", s)
	}
	if s := jsonOf[map[string]any](t, first(h.run(0, "schedules", "edit", "1", "--suspend", "-o", "json"))); s["suspended"] != true {
		t.Errorf("edit --suspend: %v", s)
	}
	if r := tableRow(first(h.run(0, "schedules", "get", "1")), "1"); len(r) != 9 || strings.Join(r[2:7], " ") != "30 2 * * 1-5" || r[8] != "yes" {
		t.Errorf("suspended, as read again: %v", r)
	}
	if r := tableRow(first(h.run(0, "schedules", "edit", "1", "--resume")), "1"); len(r) != 9 || r[8] != "no" {
		t.Errorf("edit --resume (table): %v", r)
	}

	h.refused("schedules delete is destructive: pass --yes", "schedules", "delete", "4")
	h.refused("profile audit is read-only: schedules delete refused", "schedules", "delete", "4", "--yes", "--profile", "audit")
	if d := jsonOf[map[string]any](t, first(h.run(0, "schedules", "delete", "4", "--yes", "-o", "json"))); d["id"] != 4.0 || d["deleted"] != true {
		t.Errorf("schedules delete: %v", d)
	}
	h.fails(exitNotFound, "404", "schedules", "get", "4")
	h.fails(exitNotFound, "404", "schedules", "delete", "4", "--yes")
	if r := tableRow(first(h.run(0, "schedules", "delete", "2", "--yes")), "2"); strings.Join(r, " ") != "2 deleted" {
		t.Errorf("schedules delete (table): %v", r)
	}
	h.fails(exitNotFound, "404", "schedules", "get", "2")
}

// TestBinaryBackupToOwnBucket: bucket credentials stored with `skytui
// creds add s3` (the secret on stdin) are named with --creds; the secret
// is in no output, argv or request log.
func TestBinaryBackupToOwnBucket(t *testing.T) {
	h := startBinSandbox(t, "--time-scale", "3000")
	h.env = append(h.env, "SKYTUI_SECRETS_BACKEND=keyctl")
	if _, err := os.Stat("/proc/keys"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no kernel keyring for the bucket credentials: %v", err)
		}
		t.Skipf("no kernel keyring: %v", err)
	}
	secret := "binS3secret/" + h.key[len(h.key)-20:]
	h.secret(secret)
	name := "bin-" + h.key[len(h.key)-8:]
	if so, _ := h.runIn(secret+"\n", 0, "creds", "add", "s3", name, "--access-key-id", "AKIABIN0000000000000", "--region", "us-east-1"); !strings.Contains(so, "Stored s3 credential "+name) {
		t.Fatalf("creds add s3: %s", so)
	}
	t.Cleanup(func() { h.exec("", 0, "creds", "remove", name) })
	h.unsent(exitUsage, "--creds (external_storage.bucket.credentials)", "backups", "create", "--service", sandbox.DemoOrders, "--type", "dump",
		"--bucket", "gs://bin-bucket/dumps", "--creds", name) // an S3 key for a GCS bucket
	b := jsonOf[map[string]any](t, first(h.run(0, "backups", "create", "--service", sandbox.DemoOrders, "--type", "dump",
		"--bucket", "s3://bin-bucket/dumps", "--creds", name, "--wait", "--poll-interval", "50ms", "-o", "json")))
	if b["status"] != "Succeeded" || b["is_external_storage"] != true {
		t.Errorf("a backup to the own bucket: %v", b)
	}
	n := 0
	for _, s := range jsonOf[[]map[string]any](t, first(h.run(0, "schedules", "list", "--service", sandbox.DemoOrders, "-o", "json"))) {
		if s["target"] == "s3://bin-bucket/dumps" && s["type"] == "dump" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d jobs write to s3://bin-bucket/dumps, want 1", n)
	}
}
