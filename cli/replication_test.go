package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/tuitest"
)

// TestReplicationStatus: the status of a secondary read over SQL on the
// demo endpoints, before replication is configured and once it runs.
func TestReplicationStatus(t *testing.T) {
	h, sb := serveHarness(t, sandbox.Options{DemoData: true, Seed: 7, SQL: sandbox.SQLDemo}, goodKey)
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // no pairs saved by a wizard

	// nothing to check is not "all good": exit 4, nothing on stdout, so
	// that `-o json | jq -e 'all(.ok)'` fails
	for _, o := range []string{"table", "json"} {
		h.fails(exitNotFound, "skytui: no replication was set up from profile skysql on this machine; name the secondaries: `"+h.sel("skytui replication status SECONDARY...")+"`\n",
			h.live("replication", "status", "-o", o)...)
	}
	var rs []pairReport
	// a secondary set up from nowhere: its fix's command names it (the
	// primary is not known: PRIMARY is the one to fill in)
	if err := json.Unmarshal([]byte(h.ok(h.live("replication", "status", sandbox.DemoServerless, "-o", "json")...)), &rs); err != nil || len(rs) != 1 ||
		!strings.Contains(rs[0].Fix, "`"+h.sel("skytui replication setup dev-serverless --primary PRIMARY --allow-list --yes --confirm dev-serverless")+"`") {
		t.Fatalf("a secondary not set up: %+v %v", rs, err)
	}
	if err := json.Unmarshal([]byte(h.ok(h.live("replication", "status", sandbox.DemoReplica, "-o", "json")...)), &rs); err != nil || len(rs) != 1 {
		t.Fatalf("%v %v", rs, err)
	}
	if rs[0].OK || rs[0].Configured || !strings.Contains(rs[0].Problem, "not configured") {
		t.Errorf("before setup: %+v", rs[0])
	}

	// configure it as the wizard's steps 4 to 6 do (the engine's calls),
	// from the primary's current GTID position
	ctx := context.Background()
	c := tuitest.Client(t, sb, api.Config{APIKey: goodKey})
	prim, sec := tuitest.Service(t, c, sandbox.DemoOrders), tuitest.Service(t, c, sandbox.DemoReplica)
	user, pass, _ := sb.Credentials(prim.ID)
	pdb, err := api.OpenSQL(api.SQLTarget{Host: prim.FQDN, Port: prim.ReadWritePort(), User: user, Password: pass})
	if err != nil {
		t.Fatal(err)
	}
	defer pdb.Close()
	gtid, err := pdb.GTIDStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	eng := newEngine(c)
	p := replsetup.Progress{PrimaryID: prim.ID, SecondaryID: sec.ID, Method: replsetup.MethodGTID, GTID: gtid.BinlogPos}
	change := eng.ChangePrimary(ctx, p)
	for _, o := range []replsetup.Outcome{change, eng.RunGrant(ctx, p, change.Grant), eng.StartReplication(ctx, p)} {
		if o.Verdict != replsetup.Pass {
			t.Fatalf("step %d: %+v", o.Step, o)
		}
	}

	out := h.ok(h.live("replication", "status", sandbox.DemoReplica, "--no-headers")...)
	if f := strings.Fields(out); len(f) < 6 || f[0] != sandbox.DemoOrders || f[1] != sandbox.DemoReplica || f[5] != "ok" {
		t.Errorf("running: %q", out)
	}
	if err := json.Unmarshal([]byte(h.ok(h.live("replication", "status", sandbox.DemoReplica, "-o", "json")...)), &rs); err != nil || !rs[0].OK || rs[0].IORunning != "Yes" {
		t.Errorf("running JSON: %+v %v", rs, err)
	}
	user, pass, _ = sb.Credentials(sec.ID)
	if strings.Contains(out, pass) || strings.Contains(out, change.Grant) || user == "" {
		t.Error("a secret in the status")
	}
	// a primary that is stopping is why the IO thread cannot connect: its
	// state's fix, not the allow list's
	if err := c.StopService(ctx, prim.ID); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(h.ok(h.live("replication", "status", sandbox.DemoReplica, "-o", "json")...)), &rs); err != nil || len(rs) != 1 {
		t.Fatalf("primary stopping: %v %v", rs, err)
	}
	if r := rs[0]; r.OK || !strings.HasPrefix(r.Problem, "the primary orders-prod is pending_stop") ||
		r.Fix != "once it is stopped, start it: `"+h.sel("skytui services start orders-prod --wait")+"`" {
		t.Errorf("primary stopping: %+v", r)
	}

	// a stopped secondary is its state, with the command that mends it:
	// not a failed read (exit 0), and not ok for a health check
	if err := json.Unmarshal([]byte(h.ok(h.live("replication", "status", sandbox.DemoLegacy, "-o", "json")...)), &rs); err != nil || len(rs) != 1 {
		t.Fatalf("stopped: %v %v", rs, err)
	}
	if r := rs[0]; r.OK || r.Problem != "the secondary legacy-batch is stopped: it does not replicate" ||
		r.Fix != "start it: `"+h.sel("skytui services start legacy-batch --wait")+"`" {
		t.Errorf("stopped secondary: %+v", r)
	}
	// a failed one: the command that says why names it
	if err := json.Unmarshal([]byte(h.ok(h.live("replication", "status", sandbox.DemoBroken, "-o", "json")...)), &rs); err != nil || len(rs) != 1 {
		t.Fatalf("failed: %v %v", rs, err)
	}
	if r := rs[0]; r.OK || !strings.Contains(r.Fix, "`"+h.sel("skytui services get broken-import -o json")+"` says why") {
		t.Errorf("failed secondary: %+v", r)
	}
	h.fails(exitNotFound, `skytui: no service named "nope-nope"`, h.live("replication", "status", "nope-nope")...)
}
