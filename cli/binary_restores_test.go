package cli

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/sandbox"
)

// newestFull is the newest succeeded full backup of a service in managed
// storage, from `backups list -o json`: its key and when it ended.
func (h *binSandbox) newestFull(service string) (key string, end time.Time) {
	h.t.Helper()
	start := ""
	for _, b := range jsonOf[[]map[string]any](h.t, first(h.run(0, "backups", "list", "--service", service, "--status", "succeeded", "-o", "json"))) {
		if s, _ := b["start_time"].(string); b["type"] == "full" && b["is_external_storage"] == false && s > start {
			start, key = s, b["id"].(string)
			end, _ = time.Parse(time.RFC3339, b["end_time"].(string))
		}
	}
	if key == "" {
		h.t.Fatalf("%s has no succeeded full backup", service)
	}
	return key, end
}

// TestBinaryRestores: restores list|get|create (a managed backup, a point
// in time) and wait restore as the built binary against `skytui sandbox`.
func TestBinaryRestores(t *testing.T) {
	h := startBinSandbox(t, "--time-scale", "3000")
	poll := []string{"--poll-interval", "50ms"}
	replicaID := jsonOf[map[string]any](t, first(h.run(0, "services", "get", sandbox.DemoReplica, "-o", "json")))["id"].(string)

	// list (the live prefix: one listing per service) and get
	so, _ := h.run(0, "restores", "list")
	if head := strings.Join(tableRows(so)[0], " "); head != "ID TARGET STATUS STARTED SOURCE" {
		t.Errorf("restores list header: %s", head)
	}
	if r := tableRow(so, "1"); len(r) != 5 || r[1] != sandbox.DemoReplica || r[2] != "Succeeded" {
		t.Errorf("restore 1: %v\n%s", r, so)
	}
	if tableRow(so, "2") == nil {
		t.Errorf("restore 2 (staging-eu) is not listed:\n%s", so)
	}
	rs := jsonOf[[]map[string]any](t, first(h.run(0, "restores", "list", "--service", sandbox.DemoReplica, "-o", "json")))
	if len(rs) != 1 || rs[0]["id"] != 1.0 || rs[0]["service_id"] != replicaID {
		t.Errorf("restores list --service replica-west: %v", rs)
	}
	if so, _ := h.run(0, "restores", "list", "--service", sandbox.DemoServerless, "-o", "json"); strings.TrimSpace(so) != "[]" {
		t.Errorf("no restores is [], not %q", so)
	}
	h.fails(exitNotFound, `no service named "no-such-db"`, "restores", "list", "--service", "no-such-db")
	if r := jsonOf[map[string]any](t, first(h.run(0, "restores", "get", "1", "-o", "json"))); r["id"] != 1.0 || r["status"] != "Succeeded" || r["service_id"] != replicaID {
		t.Errorf("restores get 1: %v", r)
	}
	if r := tableRow(first(h.run(0, "restores", "get", "1", "-o", "wide")), "1"); len(r) < 6 || r[1] != sandbox.DemoReplica || r[len(r)-1] != "physical" {
		t.Errorf("restores get 1 -o wide: %v", r)
	}
	h.fails(exitNotFound, "404", "restores", "get", "999")
	h.fails(exitUsage, `restore ID "abc": must be a positive number`, "restores", "get", "abc")
	h.fails(exitUsage, `restore ID "0": must be a positive number`, "wait", "restore", "0")
	h.fails(exitNotFound, "404", "wait", "restore", "999")

	// create: what is refused before anything is sent
	key, end := h.newestFull(sandbox.DemoOrders)
	create := func(more ...string) []string {
		return append([]string{"restores", "create", "--service", sandbox.DemoReplica}, more...)
	}
	confirmed := []string{"--yes", "--confirm", sandbox.DemoReplica}
	h.unsent(exitUsage, "--service is required: the service to restore into", "restores", "create", "--backup", key, "--yes", "--confirm", sandbox.DemoReplica)
	h.unsent(exitUsage, "give exactly one source", create(append([]string{"--backup", key, "--backup-id", "x"}, confirmed...)...)...)
	h.unsent(exitUsage, "give exactly one source", create(confirmed...)...)
	h.unsent(exitUsage, "--file goes with --bucket", create(append([]string{"--backup", key, "--file", "x.gz"}, confirmed...)...)...)
	h.unsent(exitUsage, "--bucket (external_source.bucket)", create(append([]string{"--bucket", "gs://b/nodir", "--file", "x.gz", "--method", "mysqldump", "--creds", "c"}, confirmed...)...)...)
	h.unsent(exitUsage, "--from and --at go together", create(append([]string{"--from", sandbox.DemoOrders}, confirmed...)...)...)
	h.unsent(exitUsage, `--at: "yesterday" is not a moment`, create(append([]string{"--from", sandbox.DemoOrders, "--at", "yesterday"}, confirmed...)...)...)
	h.unsent(exitUsage, "is outside the window of orders-prod", create(append([]string{"--from", sandbox.DemoOrders, "--at", "2001-01-01 00:00"}, confirmed...)...)...)
	h.unsent(exitNotFound, `no backup with the key "000000000000"`, create(append([]string{"--backup", "000000000000"}, confirmed...)...)...)
	h.unsent(exitNotFound, `no service named "no-such-db"`, "restores", "create", "--service", "no-such-db", "--backup", key, "--yes", "--confirm", "no-such-db")
	h.unsent(exitUsage, "Across providers", "restores", "create", "--service", sandbox.DemoStaging, "--backup", key, "--yes", "--confirm", sandbox.DemoStaging)
	h.refused("profile audit is read-only: restores create refused, nothing was sent", create(append([]string{"--backup", key, "--profile", "audit"}, confirmed...)...)...)
	h.refused("--read-only: restores create refused", create(append([]string{"--backup", key, "--read-only"}, confirmed...)...)...)
	h.refused("needs --confirm with the target service's exact name", create("--backup", key, "--yes")...)
	h.refused("pass --confirm replica-west", create("--backup", key, "--yes", "--confirm", "Replica-West")...)
	h.refused("pass --yes", create("--backup", key, "--confirm", sandbox.DemoReplica)...)

	// a managed backup by its short key; `wait restore` follows it
	so, _ = h.run(0, create(append([]string{"--backup", key[:12]}, confirmed...)...)...)
	row := tableRows(so)
	if len(row) != 2 || row[1][1] != sandbox.DemoReplica || row[1][4] != key[:12] {
		t.Fatalf("restores create:\n%s", so)
	}
	id := row[1][0]
	if r := jsonOf[map[string]any](t, first(h.run(0, append([]string{"wait", "restore", id, "-o", "json"}, poll...)...))); r["status"] != "Succeeded" || r["key"] != key {
		t.Errorf("wait restore %s: %v", id, r)
	}

	// a point in time a minute after that backup ended, --wait to the end
	at := end.Add(time.Minute).UTC()
	so, se := h.run(0, create(append(append([]string{"--from", sandbox.DemoOrders, "--at", at.Format("2006-01-02 15:04"), "--wait", "-o", "json"}, confirmed...), poll...)...)...)
	r := jsonOf[map[string]any](t, so)
	if r["status"] != "Succeeded" || r["service_id"] != replicaID || r["id"] == id {
		t.Errorf("restores create --at --wait: %v", r)
	}
	if !strings.Contains(se, "succeeded: its default username and password are now the source service's") {
		t.Errorf("--wait said: %s", se)
	}
	if n := h.sent("POST", "/skybackup/v1/restores"); n != 2 {
		t.Errorf("%d restores sent, want 2", n)
	}
	h.fails(exitFailed, "only a restore that has not finished can be deleted", "restores", "delete", id, "--yes", "--confirm", sandbox.DemoReplica)
}

// TestBinaryRestoreRunning: on a sandbox at real speed a restore runs for
// minutes: a wait runs out of time (exit 1), the target cannot be deleted
// meanwhile, and the restore is deleted with --yes and --confirm.
func TestBinaryRestoreRunning(t *testing.T) {
	h := startBinSandbox(t, "--time-scale", "1")
	key, _ := h.newestFull(sandbox.DemoOrders)
	r := jsonOf[map[string]any](t, first(h.run(0, "restores", "create", "--service", sandbox.DemoReplica, "--backup", key, "--yes", "--confirm", sandbox.DemoReplica, "-o", "json")))
	if r["status"] != "Running" || r["id"] == nil {
		t.Fatalf("restores create: %v", r)
	}
	id := strconv.Itoa(int(r["id"].(float64)))
	h.fails(exitFailed, "timed out after 300ms waiting for restore "+id+" (last: Running", "wait", "restore", id, "--timeout", "300ms", "--poll-interval", "50ms")
	h.fails(exitFailed, "409", "services", "delete", sandbox.DemoReplica, "--yes", "--confirm", sandbox.DemoReplica)

	h.refused("restores delete is destructive: pass --yes", "restores", "delete", id, "--confirm", sandbox.DemoReplica)
	h.refused("restores delete needs --confirm with the target service's exact name", "restores", "delete", id, "--yes")
	h.refused("pass --confirm replica-west", "restores", "delete", id, "--yes", "--confirm", sandbox.DemoOrders)
	h.refused("profile audit is read-only: restores delete refused", "restores", "delete", id, "--yes", "--confirm", sandbox.DemoReplica, "--profile", "audit")
	h.fails(exitNotFound, "404", "restores", "delete", "999", "--yes", "--confirm", sandbox.DemoReplica)
	so, _ := h.run(0, "restores", "delete", id, "--yes", "--confirm", sandbox.DemoReplica)
	if strings.Join(tableRow(so, id), " ") != id+" replica-west deleted" {
		t.Errorf("restores delete:\n%s", so)
	}
	if n := h.sent("DELETE", "/skybackup/v1/restores/"+id); n != 1 {
		t.Errorf("%d deletes of restore %s sent, want 1", n, id)
	}
	h.fails(exitNotFound, "404", "restores", "get", id)

	// once the target is free again, another restore into it deleted, as JSON
	r = jsonOf[map[string]any](t, first(h.run(0, "restores", "create", "--service", sandbox.DemoReplica, "--backup", key, "--yes", "--confirm", sandbox.DemoReplica, "-o", "json")))
	id = fmt.Sprint(r["id"])
	if d := jsonOf[map[string]any](t, first(h.run(0, "restores", "delete", id, "--yes", "--confirm", sandbox.DemoReplica, "-o", "json"))); fmt.Sprint(d["id"]) != id || d["deleted"] != true || d["service_id"] != r["service_id"] {
		t.Errorf("restores delete -o json: %v", d)
	}
}
