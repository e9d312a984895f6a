package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
)

// TestReplicationStatus: the status of a secondary read over SQL on the
// demo endpoints, before replication is configured and once it runs.
func TestReplicationStatus(t *testing.T) {
	h, sb := serveHarness(t, sandbox.Options{DemoData: true, Seed: 7, SQL: sandbox.SQLDemo}, goodKey)
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // no pairs saved by a wizard

	if _, stderr, code := h.script(h.live("replication", "status")...); code != 0 || !strings.Contains(stderr, "no replication was set up from profile skysql") {
		t.Errorf("no pairs: exit %d, %s", code, stderr)
	}
	var rs []pairReport
	if err := json.Unmarshal([]byte(h.ok(h.live("replication", "status", sandbox.DemoReplica, "-o", "json")...)), &rs); err != nil || len(rs) != 1 {
		t.Fatalf("%v %v", rs, err)
	}
	if rs[0].OK || rs[0].Configured || !strings.Contains(rs[0].Problem, "not configured") {
		t.Errorf("before setup: %+v", rs[0])
	}

	// configure it as the wizard's steps 4 to 6 do
	ctx := context.Background()
	svc := func(name string) map[string]any {
		return decodeJSON[map[string]any](t, h.ok(h.live("services", "get", name, "-o", "json")...))
	}
	prim, sec := svc(sandbox.DemoOrders), svc(sandbox.DemoReplica)
	rwPort := func(s map[string]any) int {
		for _, ep := range s["endpoints"].([]any) {
			for _, p := range ep.(map[string]any)["ports"].([]any) {
				if p.(map[string]any)["name"] == "readwrite" {
					return int(p.(map[string]any)["port"].(float64))
				}
			}
		}
		t.Fatalf("no readwrite port: %v", s)
		return 0
	}
	open := func(s map[string]any) *api.SQLClient {
		user, pass, _ := sb.Credentials(s["id"].(string))
		db, err := api.OpenSQL(api.SQLTarget{Host: s["fqdn"].(string), Port: rwPort(s), User: user, Password: pass})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	pdb, sdb := open(prim), open(sec)
	gtid, err := pdb.GTIDStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	grant, err := sdb.ChangeExternalPrimaryGTID(ctx, prim["fqdn"].(string), rwPort(prim), gtid.BinlogPos, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := pdb.RunGrant(ctx, grant); err != nil {
		t.Fatal(err)
	}
	if _, err := sdb.StartReplication(ctx); err != nil {
		t.Fatal(err)
	}

	out := h.ok(h.live("replication", "status", sandbox.DemoReplica, "--no-headers")...)
	if f := strings.Fields(out); len(f) < 6 || f[0] != sandbox.DemoOrders || f[1] != sandbox.DemoReplica || f[5] != "ok" {
		t.Errorf("running: %q", out)
	}
	if err := json.Unmarshal([]byte(h.ok(h.live("replication", "status", sandbox.DemoReplica, "-o", "json")...)), &rs); err != nil || !rs[0].OK || rs[0].IORunning != "Yes" {
		t.Errorf("running JSON: %+v %v", rs, err)
	}
	user, pass, _ := sb.Credentials(sec["id"].(string))
	if strings.Contains(out, pass) || strings.Contains(out, grant) || user == "" {
		t.Error("a secret in the status")
	}
	h.fails(exitFailed, "skytui: replication status of legacy-batch: legacy-batch is stopped", h.live("replication", "status", sandbox.DemoLegacy)...)
	h.fails(exitNotFound, `skytui: no service named "nope-nope"`, h.live("replication", "status", "nope-nope")...)
}
