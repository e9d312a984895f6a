package cli

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/internal/testenv"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/sandbox/demosql"
	"github.com/skytui/skytui/sandbox/mariadb/mariadbtest"
	"github.com/skytui/skytui/tui/tuitest"
)

// replHarness is the demo sandbox with its SQL endpoints, on a fast
// clock, and a state directory of its own (the pairs setup saves).
func replHarness(t *testing.T, scale float64) (*harness, *sandbox.Server) {
	t.Helper()
	h, sb := serveHarness(t, sandbox.Options{DemoData: true, Seed: 7, SQL: sandbox.SQLDemo, TimeScale: scale}, goodKey)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	return h, sb
}

// setupArgs is replication setup of replica-west from orders-prod.
func setupArgs(h *harness, more ...string) []string {
	return h.live(append([]string{"replication", "setup", sandbox.DemoReplica, "--primary", sandbox.DemoOrders, "--poll-interval", "20ms"}, more...)...)
}

// stepLines are the PASS/FAIL/WAIT lines setup printed on stderr.
func stepLines(stderr string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, "PASS  ") || strings.HasPrefix(l, "FAIL  ") || strings.HasPrefix(l, "WAIT  ") {
			out = append(out, l)
		}
	}
	return out
}

func TestReplicationSetupRefusals(t *testing.T) {
	h, sb := replHarness(t, 6000)
	for _, c := range []struct {
		code int
		want string
		args []string
	}{
		{exitUsage, "skytui: replication setup needs --primary PRIMARY", h.live("replication", "setup", sandbox.DemoReplica, "--yes")},
		{exitUsage, "skytui: --primary replica-west: a service cannot replicate from itself", h.live("replication", "setup", sandbox.DemoReplica, "--primary", sandbox.DemoReplica)},
		{exitUsage, "skytui: invalid request: --mode (replication_type): \"sideways\" is not one of uni-directional, bi-directional", setupArgs(h, "--managed", "--mode", "sideways", "--yes")},
		{exitUsage, "skytui: invalid request: --mode (replication_type): is required", setupArgs(h, "--managed", "--yes")},
		{exitUsage, "skytui: --backup is for the sky procedures' setup", setupArgs(h, "--managed", "--mode", "uni-directional", "--backup", "abc", "--yes")},
		{exitUsage, "skytui: --mode is for --managed replication", setupArgs(h, "--mode", "uni-directional", "--yes")},
		{exitRefused, "skytui: replication setup is destructive: pass --yes", setupArgs(h, "--confirm", sandbox.DemoReplica)},
		{exitRefused, "skytui: replication setup needs --confirm with the target service's exact name: pass --confirm replica-west (nothing was sent)", setupArgs(h, "--yes")},
		{exitRefused, `skytui: replication setup: --confirm "replica" does not match the target service's name: pass --confirm replica-west`, setupArgs(h, "--yes", "--confirm", "replica")},
		{exitRefused, "skytui: replication setup --managed: replica-west and orders-prod start replicating from each other (bi-directional managed replication); nothing is erased; pass --yes to make that change (nothing was sent)", setupArgs(h, "--managed", "--mode", "bi-directional")},
		{exitRefused, "skytui: replication stop is destructive: pass --yes", h.live("replication", "stop", sandbox.DemoReplica)},
		{exitRefused, "skytui: replication stop --managed is destructive: pass --yes", h.live("replication", "stop", sandbox.DemoReplica, "--managed")},
		{exitRefused, "skytui: --read-only: replication start refused, nothing was sent", h.live("replication", "start", sandbox.DemoReplica, "--read-only")},
	} {
		h.fails(c.code, c.want, c.args...)
	}
	if n := tuitest.Changes(sb); n != 0 {
		t.Fatalf("%d changes sent by refused commands", n)
	}

	// a read-only profile refuses before anything is sent, reads included
	body := "[[profile]]\nname = \"audit\"\nbase_url = \"" + h.url + "\"\nbackup_prefix = \"/skybackup/v1\"\nread_only = true\n"
	if err := os.WriteFile(h.cfgPath, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	before := sb.Stats().Total
	for _, c := range [][]string{
		{"replication", "setup", sandbox.DemoReplica, "--primary", sandbox.DemoOrders, "--yes", "--confirm", sandbox.DemoReplica},
		{"replication", "setup", sandbox.DemoReplica, "--primary", sandbox.DemoOrders, "--managed", "--mode", "uni-directional", "--yes"},
		{"replication", "start", sandbox.DemoReplica},
		{"replication", "stop", sandbox.DemoReplica, "--yes"},
		{"replication", "stop", sandbox.DemoReplica, "--managed", "--yes"},
	} {
		what := strings.Join(c[:2], " ")
		if c[1] == "stop" && c[len(c)-2] == "--managed" {
			what += " --managed"
		}
		h.fails(exitRefused, "skytui: profile audit is read-only: "+what+" refused, nothing was sent\n", append(c, "--profile", "audit")...)
	}
	if after := sb.Stats().Total; after != before {
		t.Fatalf("a read-only profile sent %d requests", after-before)
	}
}

// The sky procedures' setup on the demo endpoints: it stops at the allow
// list with the fix, then, with --allow-list, runs every step to Yes/Yes;
// the pair is saved for replication status; stop and start call the
// procedures.
func TestReplicationSetupSkyDemo(t *testing.T) {
	h, sb := replHarness(t, 6000)
	stdout, stderr, code := h.script(setupArgs(h, "--yes", "--confirm", sandbox.DemoReplica)...)
	if code != exitFailed || stdout != "" {
		t.Fatalf("without --allow-list: exit %d, stdout %q\n%s", code, stdout, stderr)
	}
	lines := stepLines(stderr)
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "PASS  0 pair: orders-prod -> replica-west") || !strings.HasPrefix(lines[1], "FAIL  1 allow list: ") {
		t.Fatalf("steps: %q", lines)
	}
	them := "it" // one address missing; "them" for more
	if strings.Count(lines[1], "outbound IP ") != 1 || strings.Contains(lines[1], ", ") {
		them = "them"
	}
	if !strings.Contains(stderr, "skytui: replication setup stopped at step 1 (allow list): ") ||
		!strings.Contains(stderr, "fix: pass --allow-list to add "+them+", or run `skytui allowlist add orders-prod ") {
		t.Errorf("the failure and its fix:\n%s", stderr)
	}
	if n := sb.Stats().Count("POST", "/skybackup/v1/restores"); n != 0 {
		t.Fatalf("a restore was sent after a failed step")
	}

	stdout, stderr, code = h.script(setupArgs(h, "--yes", "--confirm", sandbox.DemoReplica, "--allow-list", "-o", "json")...)
	if code != 0 {
		t.Fatalf("setup: exit %d\n%s", code, stderr)
	}
	lines = stepLines(stderr)
	var names []string
	for _, l := range lines {
		names = append(names, strings.SplitN(l, ":", 2)[0])
	}
	if want := "PASS  0 pair,PASS  1 allow list,PASS  2 backup,WAIT  3 restore,PASS  3 restore,PASS  4 change primary,PASS  5 grant,PASS  6 start"; strings.Join(names, ",") != want {
		t.Fatalf("steps:\n%s", stderr)
	}
	if strings.Contains(stdout+stderr, "IDENTIFIED BY") {
		t.Fatal("the grant (with its password) was printed")
	}
	rep := decodeJSON[setupReport](t, stdout)
	if rep.Method != "gtid" || len(rep.Steps) != 7 || rep.Status == nil || !rep.Status.OK || rep.Status.IORunning != "Yes" || rep.Status.Primary != sandbox.DemoOrders {
		t.Fatalf("report: %+v", rep)
	}
	if n := sb.Stats().Count("POST", "/skybackup/v1/restores"); n != 1 {
		t.Errorf("%d restores sent, want 1", n)
	}

	// the pair is saved: status without arguments lists it
	out := h.ok(h.live("replication", "status", "--no-headers")...)
	if f := strings.Fields(out); len(f) < 6 || f[0] != sandbox.DemoOrders || f[1] != sandbox.DemoReplica || f[2] != "Yes" {
		t.Fatalf("status of the saved pair: %q", out)
	}

	// set up again, the restore would erase a working replica: refused at
	// step 0, nothing sent, the fix names the commands that free it
	_, stderr, code = h.script(setupArgs(h, "--yes", "--confirm", sandbox.DemoReplica, "--allow-list")...)
	if code != exitFailed || !strings.Contains(stderr, "FAIL  0 pair: replica-west replicates now (IO thread Yes, SQL thread Yes") ||
		!strings.Contains(stderr, "`"+h.sel("skytui replication stop replica-west --yes")+"`") {
		t.Fatalf("setup of a saved pair again: exit %d\n%s", code, stderr)
	}
	if n := sb.Stats().Count("POST", "/skybackup/v1/restores"); n != 1 {
		t.Fatalf("setup of a saved pair again sent a restore (%d in all)", n)
	}

	act := decodeJSON[replicationAction](t, h.ok(h.live("replication", "stop", sandbox.DemoReplica, "--yes", "-o", "json")...))
	if act.Message != "Replication stopped" || act.Action != "stop" || act.Primary != sandbox.DemoOrders {
		t.Errorf("stop: %+v", act)
	}
	rs := decodeJSON[[]pairReport](t, h.ok(h.live("replication", "status", sandbox.DemoReplica, "-o", "json")...))
	if rs[0].IORunning != "No" || rs[0].SQLRunning != "No" || rs[0].OK || rs[0].Fix != "start it (`"+h.sel("skytui replication start replica-west")+"`)" {
		t.Errorf("after stop: %+v", rs[0])
	}
	if out := h.ok(h.live("replication", "start", sandbox.DemoReplica)...); !strings.Contains(out, "Replication started") {
		t.Errorf("start: %q", out)
	}
	rs = decodeJSON[[]pairReport](t, h.ok(h.live("replication", "status", sandbox.DemoReplica, "-o", "json")...))
	if rs[0].IORunning != "Yes" || !rs[0].OK {
		t.Errorf("after start: %+v", rs[0])
	}
	// a stopped service cannot answer the procedures: the error and a fix
	h.fails(exitFailed, "skytui: replication start legacy-batch: legacy-batch is stopped", h.live("replication", "start", sandbox.DemoLegacy)...)
	// a service replication was never set up on: the fix is a setup, in
	// commands (it said "run step 4 first", a step of the TUI's wizard)
	stderr = h.fails(exitFailed, "skytui: replication start staging-eu: ", h.live("replication", "start", sandbox.DemoStaging)...)
	if strings.Contains(stderr, "step") || !strings.Contains(stderr, "fix: not set up from here; `"+h.sel("skytui replication setup staging-eu --primary PRIMARY --allow-list --yes --confirm staging-eu")+"` sets staging-eu up from a primary") {
		t.Errorf("start of a service never set up:\n%s", stderr)
	}

	// forget: asked with --yes, the saved pair only (replication runs on)
	h.fails(exitRefused, "skytui: replication forget: pass --yes to forget orders-prod -> replica-west", h.live("replication", "forget", sandbox.DemoReplica)...)
	// another secondary: the pairs saved are named (status mixes in the managed ones)
	h.fails(exitNotFound, "skytui: no pair saved for profile skysql on this machine has analytics-gcp as its secondary; saved: orders-prod -> replica-west", h.live("replication", "forget", sandbox.DemoAnalytics, "--yes")...)
	act = decodeJSON[replicationAction](t, h.ok(h.live("replication", "forget", sandbox.DemoReplica, "--yes", "-o", "json")...))
	if act.Action != "forget" || act.Primary != sandbox.DemoOrders || act.SecondaryID == "" {
		t.Errorf("forget: %+v", act)
	}
	h.fails(exitNotFound, "skytui: no replication was set up from profile", h.live("replication", "status")...)
	h.fails(exitNotFound, "skytui: no pair is saved for profile skysql on this machine: there is nothing to forget (a managed pair is ended with `"+h.sel("skytui replication stop SECONDARY --managed --yes")+"`)\n", h.live("replication", "forget", sandbox.DemoReplica, "--yes")...)
	if rs = decodeJSON[[]pairReport](t, h.ok(h.live("replication", "status", sandbox.DemoReplica, "-o", "json")...)); rs[0].IORunning != "Yes" {
		t.Errorf("forgetting touched replication: %+v", rs[0])
	}
	// forgotten here, it still replicates: its live state refuses a setup
	// (from this machine as from any other that never saved the pair)
	_, stderr, code = h.script(setupArgs(h, "--yes", "--confirm", sandbox.DemoReplica, "--allow-list")...)
	if code != exitFailed || !strings.Contains(stderr, "FAIL  0 pair: replica-west replicates now") {
		t.Fatalf("setup of a replicating secondary no pair is saved for: exit %d\n%s", code, stderr)
	}
	if n := sb.Stats().Count("POST", "/skybackup/v1/restores"); n != 1 {
		t.Fatalf("setup of a replicating secondary sent a restore (%d in all)", n)
	}
}

// Managed replication from the command line: the pending refusal (exit 1
// with the fix, nothing posted), the setup, the replica reporting its
// primary, and its end, confirmed.
func TestReplicationSetupManaged(t *testing.T) {
	h, sb := replHarness(t, 1) // real time: a stop stays pending
	if out := h.ok(h.live("services", "stop", sandbox.DemoAnalytics, "--yes")...); !strings.Contains(out, "pending_stop") {
		t.Fatalf("stop: %s", out)
	}
	_, stderr, code := h.script(h.live("replication", "setup", sandbox.DemoAnalytics, "--primary", sandbox.DemoOrders, "--managed", "--mode", "uni-directional", "--yes")...)
	if code != exitFailed || !strings.Contains(stderr, "FAIL  0 pair: the replica analytics-gcp is pending_stop") || !strings.Contains(stderr, "fix: wait until both are ready") {
		t.Fatalf("pending replica: exit %d\n%s", code, stderr)
	}
	if n := sb.Stats().Count("POST", "/provisioning/v1/services/{id}/replication"); n != 0 {
		t.Fatalf("managed replication posted for a pending replica")
	}

	stdout, stderr, code := h.script(h.live("replication", "setup", sandbox.DemoReplica, "--primary", sandbox.DemoOrders, "--managed", "--mode", "bi-directional", "--yes", "-o", "json")...)
	if code != 0 {
		t.Fatalf("managed setup: exit %d\n%s", code, stderr)
	}
	if l := stepLines(stderr); len(l) != 2 || l[1] != "PASS  1 managed replication: replica-west replicates from orders-prod (bi-directional managed replication)" {
		t.Errorf("steps: %q", l)
	}
	rep := decodeJSON[setupReport](t, stdout)
	if rep.Method != "managed" || rep.ReplicationType != "bi-directional" || rep.Secondary != sandbox.DemoReplica {
		t.Errorf("report: %+v", rep)
	}
	ordersID := serviceID(t, h, sandbox.DemoOrders)
	s := decodeJSON[map[string]any](t, h.ok(h.live("services", "get", sandbox.DemoReplica, "-o", "json")...))
	if s["primary_host"] != ordersID || s["replication_enabled"] != true {
		t.Fatalf("the replica does not report its primary: %v", s)
	}
	// the demo endpoints answer the status of managed replication
	rs := decodeJSON[[]pairReport](t, h.ok(h.live("replication", "status", "-o", "json")...))
	if len(rs) != 1 || !rs[0].OK || rs[0].Primary != sandbox.DemoOrders {
		t.Fatalf("status of the managed pair: %+v", rs)
	}
	stdout, stderr, code = h.script(h.live("replication", "setup", sandbox.DemoReplica, "--primary", sandbox.DemoOrders, "--managed", "--mode", "uni-directional", "--yes")...)
	if code != exitFailed || stdout != "" || !strings.Contains(stderr, "skytui: replication setup stopped at step 0 (pair): replica-west already replicates from orders-prod ("+ordersID+"): end that replication first") {
		t.Errorf("set up twice: exit %d\n%s", code, stderr)
	}

	h.fails(exitRefused, "skytui: replication stop --managed is destructive: pass --yes", h.live("replication", "stop", sandbox.DemoReplica, "--managed")...)
	act := decodeJSON[replicationAction](t, h.ok(h.live("replication", "stop", sandbox.DemoReplica, "--managed", "--yes", "-o", "json")...))
	if act.Primary != sandbox.DemoOrders || !strings.Contains(act.Message, "no longer replicates from orders-prod") {
		t.Errorf("end: %+v", act)
	}
	if n := sb.Stats().Count("DELETE", "/provisioning/v1/services/{id}/replication"); n != 1 {
		t.Errorf("%d DELETEs, want 1", n)
	}
	s = decodeJSON[map[string]any](t, h.ok(h.live("services", "get", sandbox.DemoReplica, "-o", "json")...))
	if s["primary_host"] != "" {
		t.Errorf("ended, still a replica: %v", s)
	}
	// ended already: nothing to end, said; exit 0, so a runbook that ends
	// it twice goes on (it exited 2, as if mistyped)
	stdout, stderr, code = h.script(h.live("replication", "stop", sandbox.DemoReplica, "--managed", "--yes")...)
	if code != 0 || !strings.Contains(stderr, "skytui: replication stop --managed: replica-west is not a managed replica (it reports no primary): nothing to end, nothing was sent") ||
		!strings.Contains(stdout, "not a managed replica: nothing to end") {
		t.Errorf("end twice: exit %d\n%s%s", code, stdout, stderr)
	}
	if n := sb.Stats().Count("DELETE", "/provisioning/v1/services/{id}/replication"); n != 1 {
		t.Errorf("%d DELETEs after ending twice, want 1", n)
	}
}

// The sky procedures' setup on real MariaDB servers: rows written on the
// primary arrive on the secondary; stop holds them back, start brings
// them.
func TestReplicationSetupMariaDB(t *testing.T) {
	// a short directory: the servers' socket paths must stay under 108 bytes
	dbDir, err := os.MkdirTemp("", "repl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dbDir) })
	opts := sandbox.Options{APIKey: goodKey, TimeScale: 3000, SQL: sandbox.SQLMariaDB, MariaDBDir: dbDir}
	sb, err := sandbox.Open(opts)
	if errors.Is(err, sandbox.ErrNoMariaDB) {
		mariadbtest.Missing(t, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	url, err := sb.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	h := &harness{t: t, url: url, secrets: filepath.Join(dir, "secrets.age"), cfgPath: filepath.Join(dir, "config.toml")}
	t.Setenv("SKYTUI_CONFIG", h.cfgPath)
	t.Setenv("SKYSQL_API_KEY", goodKey)
	t.Setenv("XDG_STATE_HOME", t.TempDir())

	poll := []string{"--poll-interval", "50ms"}
	for _, name := range []string{"real-main", "real-copy"} {
		mustOK(t, h, h.live(append([]string{"services", "create", "--name", name, "--provider", "aws", "--region", "us-east-1",
			"--topology", "es-single", "--size", "sky-2x8", "--storage", "100", "--wait", "--timeout", "2m"}, poll...)...))
	}
	priID := serviceID(t, h, "real-main")
	root := testenv.RootDB(t, sb, priID)
	mariadbtest.Exec(t, root, "CREATE DATABASE shop", "CREATE TABLE shop.orders (id INT PRIMARY KEY, item VARCHAR(20))",
		"INSERT INTO shop.orders VALUES (1,'kettle'),(2,'teapot')")
	h.ok(h.live(append([]string{"backups", "create", "--service", "real-main", "--type", "full", "--wait", "--timeout", "2m"}, poll...)...)...)

	stdout, stderr, code := h.script(h.live(append([]string{"replication", "setup", "real-copy", "--primary", "real-main", "--allow-list",
		"--yes", "--confirm", "real-copy", "--timeout", "2m", "-o", "json"}, poll...)...)...)
	if code != 0 {
		t.Fatalf("setup on real servers: exit %d\n%s", code, stderr)
	}
	rep := decodeJSON[setupReport](t, stdout)
	if rep.Status == nil || rep.Status.SQLRunning != "Yes" || rep.Status.IORunning == "No" {
		t.Fatalf("report: %+v\n%s", rep, stderr)
	}

	secDB := h.serviceDB("real-copy")
	wait := func(head string) string {
		return mariadbtest.QueryOne(t, secDB, "SELECT MASTER_GTID_WAIT('"+head+"', 10)")
	}
	mariadbtest.Exec(t, root, "INSERT INTO shop.orders VALUES (3,'mug')")
	if got := wait(mariadbtest.QueryOne(t, root, "SELECT @@gtid_binlog_pos")); got != "0" {
		t.Fatalf("MASTER_GTID_WAIT after setup = %s", got)
	}
	if n := mariadbtest.QueryOne(t, secDB, "SELECT COUNT(*) FROM shop.orders"); n != "3" {
		t.Fatalf("the secondary has %s rows, want 3", n)
	}

	// stop: a row written now stays on the primary; start: it arrives
	h.ok(h.live("replication", "stop", "real-copy", "--yes")...)
	mariadbtest.Exec(t, root, "INSERT INTO shop.orders VALUES (4,'spoon')")
	head := mariadbtest.QueryOne(t, root, "SELECT @@gtid_binlog_pos")
	time.Sleep(300 * time.Millisecond)
	if n := mariadbtest.QueryOne(t, secDB, "SELECT COUNT(*) FROM shop.orders"); n != "3" {
		t.Fatalf("stopped, yet the secondary has %s rows", n)
	}
	h.ok(h.live("replication", "start", "real-copy")...)
	if got := wait(head); got != "0" {
		t.Fatalf("MASTER_GTID_WAIT after start = %s", got)
	}
	if n := mariadbtest.QueryOne(t, secDB, "SELECT COUNT(*) FROM shop.orders"); n != "4" {
		t.Fatalf("started again: the secondary has %s rows, want 4", n)
	}
}

// mustOK runs a command that must exit 0 (what it says on stderr is
// shown when it does not).
func mustOK(t *testing.T, h *harness, args []string) string {
	t.Helper()
	stdout, stderr, code := h.script(args...)
	if code != 0 {
		t.Fatalf("%v: exit %d\n%s", args, code, stderr)
	}
	return stdout
}

// TestBinaryReplication: replication setup (both ways), status, start and
// stop, run as the built binary against `skytui sandbox`.
func TestBinaryReplication(t *testing.T) {
	h := startBinSandbox(t, "--time-scale", "3000")
	setup := []string{"replication", "setup", sandbox.DemoReplica, "--primary", sandbox.DemoOrders, "--poll-interval", "50ms"}
	h.refused("profile audit is read-only: replication setup refused, nothing was sent",
		append(setup, "--yes", "--confirm", sandbox.DemoReplica, "--profile", "audit")...)
	h.refused("replication setup is destructive: pass --yes", append(setup, "--confirm", sandbox.DemoReplica)...)
	h.refused("replication setup needs --confirm with the target service's exact name: pass --confirm replica-west (nothing was sent)", append(setup, "--yes")...)
	h.unsent(exitUsage, "--mode (replication_type)", append(setup, "--managed", "--mode", "both", "--yes")...)

	// without --allow-list it stops at step 1 with the fix, nothing restored
	se := h.fails(exitFailed, "replication setup stopped at step 1 (allow list)", append(setup, "--yes", "--confirm", sandbox.DemoReplica)...)
	if !strings.Contains(se, "PASS  0 pair:") || !strings.Contains(se, "fix: pass --allow-list") {
		t.Errorf("the failing step and its fix:\n%s", se)
	}
	if n := h.sent("POST", "/skybackup/v1/restores"); n != 0 {
		t.Fatalf("%d restores sent after a failed step", n)
	}
	so, se := h.run(0, append(setup, "--allow-list", "--yes", "--confirm", sandbox.DemoReplica, "-o", "json")...)
	if !strings.Contains(se, "PASS  6 start: replication runs: IO thread Yes, SQL thread Yes") {
		t.Errorf("steps:\n%s", se)
	}
	rep := jsonOf[setupReport](t, so)
	if rep.Status == nil || !rep.Status.OK || len(rep.Steps) != 7 {
		t.Fatalf("setup -o json: %s", so)
	}
	if n := h.sent("POST", "/skybackup/v1/restores"); n != 1 {
		t.Errorf("%d restores sent, want 1", n)
	}
	if rs := jsonOf[[]pairReport](t, first(h.run(0, "replication", "status", "-o", "json"))); len(rs) != 1 || !rs[0].OK {
		t.Errorf("status of the saved pair: %+v", rs)
	}
	h.refused("replication stop is destructive: pass --yes", "replication", "stop", sandbox.DemoReplica)
	if so, _ := h.run(0, "replication", "stop", sandbox.DemoReplica, "--yes"); !strings.Contains(so, "Replication stopped") {
		t.Errorf("stop: %s", so)
	}
	if rs := jsonOf[[]pairReport](t, first(h.run(0, "replication", "status", sandbox.DemoReplica, "-o", "json"))); rs[0].OK || rs[0].IORunning != "No" {
		t.Errorf("after stop: %+v", rs)
	}
	if so, _ := h.run(0, "replication", "start", sandbox.DemoReplica); !strings.Contains(so, "Replication started") {
		t.Errorf("start: %s", so)
	}

	// managed: one request, the replica reports its primary, ended with --yes
	managed := []string{"replication", "setup", sandbox.DemoAnalytics, "--primary", sandbox.DemoServerless, "--managed", "--mode", "uni-directional"}
	h.refused("profile audit is read-only: replication setup refused", append(managed, "--yes", "--profile", "audit")...)
	// it erases nothing: --yes confirms what it changes, and the refusal says what
	if se := h.fails(exitRefused, "replication setup --managed: analytics-gcp starts replicating from dev-serverless (uni-directional managed replication); nothing is erased; pass --yes to make that change (nothing was sent)", managed...); strings.Contains(se, "destructive") {
		t.Errorf("managed replication called destructive: %s", se)
	}
	so, _ = h.run(0, append(managed, "--yes")...)
	if r := tableRow(so, sandbox.DemoServerless); len(r) != 4 || r[1] != sandbox.DemoAnalytics || r[2] != "uni-directional" || r[3] != "managed" {
		t.Errorf("managed setup: %v\n%s", r, so)
	}
	// a second setup is refused naming the primary it replicates from
	serverlessID := h.serviceID(sandbox.DemoServerless)
	h.unsent(exitFailed, "replication setup stopped at step 0 (pair): analytics-gcp already replicates from dev-serverless ("+serverlessID+"): end that replication first", append(managed, "--yes")...)
	if n := h.sent("POST", "/provisioning/v1/services/[a-z0-9]+/replication"); n != 1 {
		t.Errorf("%d managed replication POSTs, want 1", n)
	}
	a := jsonOf[map[string]any](t, first(h.run(0, "services", "get", sandbox.DemoAnalytics, "-o", "json")))
	b := jsonOf[map[string]any](t, first(h.run(0, "services", "get", sandbox.DemoServerless, "-o", "json")))
	if a["primary_host"] != b["id"] || a["replication_enabled"] != true {
		t.Fatalf("the replica: %v", a)
	}
	h.refused("replication stop --managed is destructive: pass --yes", "replication", "stop", sandbox.DemoAnalytics, "--managed")
	h.refused("profile audit is read-only: replication stop --managed refused", "replication", "stop", sandbox.DemoAnalytics, "--managed", "--yes", "--profile", "audit")
	if so, _ := h.run(0, "replication", "stop", sandbox.DemoAnalytics, "--managed", "--yes"); !strings.Contains(so, "no longer replicates from dev-serverless") {
		t.Errorf("end: %s", so)
	}
	// ended already: nothing sent, said, exit 0
	n := h.changes()
	if _, se := h.run(0, "replication", "stop", sandbox.DemoAnalytics, "--managed", "--yes"); !strings.Contains(se, "is not a managed replica (it reports no primary): nothing to end, nothing was sent") {
		t.Errorf("end again: %s", se)
	}
	if d := h.changes() - n; d != 0 {
		t.Errorf("end again: %d changes sent", d)
	}
}

// laggingRestores fronts the sandbox at target: the first listing of
// restores after a restore is posted lists none, as a listing that lags
// behind the POST does. It returns the proxy's URL.
func laggingRestores(t *testing.T, target string) string {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(u)
	var mu sync.Mutex
	lag := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/skybackup/v1/restores" {
			mu.Lock()
			hide := lag && r.Method == http.MethodGet
			lag = r.Method == http.MethodPost || (lag && !hide)
			mu.Unlock()
			if hide {
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, "[]")
				return
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// An accepted restore whose answer could not be read, and which the
// listing does not show yet, is accepted, never a failure: it is found
// among the secondary's restores and followed, and the setup goes on.
func TestReplicationSetupRestoreAcceptedUnread(t *testing.T) {
	h, sb := replHarness(t, 6000)
	if err := sb.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerUnreadable, Method: "POST", Path: "/skybackup/v1/restores"}); err != nil {
		t.Fatal(err)
	}
	lagging := *h
	lagging.url = laggingRestores(t, h.url)
	_, stderr, code := lagging.script(setupArgs(&lagging, "--allow-list", "--yes", "--confirm", sandbox.DemoReplica)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "WAIT  3 restore: restore into replica-west accepted; the answer could not be read: ") || !strings.Contains(stderr, "PASS  3 restore: restore ") ||
		!strings.Contains(stderr, "PASS  6 start: ") {
		t.Errorf("steps:\n%s", stderr)
	}
	if strings.Contains(stderr, "FAIL") || strings.Contains(stderr, "Restores screen") {
		t.Errorf("an accepted restore reported as failed, or with the TUI's words:\n%s", stderr)
	}
	if n := sb.Stats().Count("POST", "/skybackup/v1/restores"); n != 1 {
		t.Errorf("%d restores sent, want 1", n)
	}
}

// stepsWith stands in front of the engine for the steps a test makes
// answer otherwise; every other step is the engine's.
type stepsWith struct {
	*replsetup.Engine
	checkAllowList func(context.Context, replsetup.Progress) replsetup.Outcome
	changePrimary  func(context.Context, replsetup.Progress) replsetup.Outcome
	runGrant       func(context.Context, replsetup.Progress, string) replsetup.Outcome
}

func (s *stepsWith) CheckAllowList(ctx context.Context, p replsetup.Progress) replsetup.Outcome {
	if s.checkAllowList != nil {
		return s.checkAllowList(ctx, p)
	}
	return s.Engine.CheckAllowList(ctx, p)
}

func (s *stepsWith) ChangePrimary(ctx context.Context, p replsetup.Progress) replsetup.Outcome {
	if s.changePrimary != nil {
		return s.changePrimary(ctx, p)
	}
	return s.Engine.ChangePrimary(ctx, p)
}

func (s *stepsWith) RunGrant(ctx context.Context, p replsetup.Progress, grant string) replsetup.Outcome {
	if s.runGrant != nil {
		return s.runGrant(ctx, p, grant)
	}
	return s.Engine.RunGrant(ctx, p, grant)
}

// A step that says WAIT does not go on to the next one: at step 4 (the
// secondary is being scaled, so not ready) setup waits until it is ready
// and points it at the primary then, as the wizard stays at the step.
func TestReplicationSetupWaitsAtAWaitingStep(t *testing.T) {
	h, _ := replHarness(t, 600)
	waited := 0
	h.setupSteps = func(eng *replsetup.Engine) setupSteps {
		s := &stepsWith{Engine: eng}
		s.changePrimary = func(ctx context.Context, p replsetup.Progress) replsetup.Outcome {
			if waited == 0 {
				sec, err := eng.Client.GetService(ctx, p.SecondaryID)
				if err != nil {
					t.Fatal(err)
				}
				if err := eng.Client.SetStorageSize(ctx, p.SecondaryID, sec.StorageVolume.Size*2); err != nil {
					t.Fatal(err)
				}
			}
			o := eng.ChangePrimary(ctx, p)
			if o.Verdict == replsetup.Waiting {
				waited++
			}
			return o
		}
		return s
	}
	_, stderr, code := h.script(setupArgs(h, "--allow-list", "--yes", "--confirm", sandbox.DemoReplica)...)
	if waited != 1 {
		t.Fatalf("step 4 said WAIT %d times, want once (the test's scale did not make the secondary pending)\n%s", waited, stderr)
	}
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var names []string
	for _, l := range stepLines(stderr) {
		names = append(names, strings.SplitN(l, ":", 2)[0])
	}
	if want := "PASS  0 pair,PASS  1 allow list,PASS  2 backup,WAIT  3 restore,PASS  3 restore,WAIT  4 change primary,PASS  4 change primary,PASS  5 grant,PASS  6 start"; strings.Join(names, ",") != want {
		t.Fatalf("steps:\n%s", stderr)
	}
}

// A failing step's error wraps the error under it: an API error keeps its
// status and trace ID (a 404 exits 4, as the other commands' do), and an
// outcome unknown stays one, never an invitation to send it again.
func TestReplicationSetupStepErrorsWrap(t *testing.T) {
	h, sb := replHarness(t, 6000)
	gone := &api.Error{Method: "GET", Path: "/provisioning/v1/services/x", Status: 404, Message: "service not found", TraceID: "trace-7f3a"}
	h.setupSteps = func(eng *replsetup.Engine) setupSteps {
		return &stepsWith{Engine: eng, checkAllowList: func(context.Context, replsetup.Progress) replsetup.Outcome {
			return replsetup.Outcome{Step: replsetup.StepAllowList, Verdict: replsetup.Fail, Err: gone, Problem: gone.Error()}
		}}
	}
	stdout, stderr, err := h.runSplit(setupArgs(h, "--yes", "--confirm", sandbox.DemoReplica)...)
	var ae *api.Error
	if !errors.As(err, &ae) || ae.TraceID != "trace-7f3a" || exitCode(err) != exitNotFound || stdout != "" {
		t.Fatalf("404 at step 1: %v (exit %d)\n%s", err, exitCode(err), stderr)
	}
	if !strings.Contains(err.Error(), "replication setup stopped at step 1 (allow list): 404 Not Found: service not found") || !strings.Contains(err.Error(), "trace trace-7f3a") {
		t.Errorf("the error: %v", err)
	}

	h.setupSteps = nil
	if err := sb.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerDropped, Method: "POST", Path: "/provisioning/v1/services/{id}/security/allowlist"}); err != nil {
		t.Fatal(err)
	}
	_, stderr, err = h.runSplit(setupArgs(h, "--allow-list", "--yes", "--confirm", sandbox.DemoReplica)...)
	if !api.IsOutcomeUnknown(err) || exitCode(err) != exitFailed {
		t.Fatalf("outcome unknown at step 1: %v (exit %d)\n%s", err, exitCode(err), stderr)
	}
	if msg := err.Error(); !strings.Contains(msg, "check with `"+h.sel("skytui allowlist list orders-prod")+"` before sending it again") ||
		strings.Contains(msg, "again (c)") || strings.Contains(msg, "run the command again") {
		t.Errorf("the error: %v", err)
	}
	if n := sb.Stats().Count("POST", "/skybackup/v1/restores"); n != 0 {
		t.Errorf("%d restores sent after an unknown outcome", n)
	}
}

// Every flag is checked before the first change is sent: a --backup that
// is not among the primary's stops the setup before --allow-list adds
// anything; it exits 4 (not found), as restores create's does.
func TestReplicationSetupChecksFlagsBeforeChanges(t *testing.T) {
	h, sb := replHarness(t, 6000)
	_, stderr, code := h.script(setupArgs(h, "--allow-list", "--backup", "abcdefabcdef", "--yes", "--confirm", sandbox.DemoReplica)...)
	if code != exitNotFound || !strings.Contains(stderr, "skytui: replication setup stopped at step 2 (backup): --backup abcdefabcdef is not among orders-prod's backups") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if n := tuitest.Changes(sb); n != 0 {
		t.Errorf("%d changes sent before the flags were checked\n%s", n, stderr)
	}
	// step 1 is said too: what --allow-list would have added, not added
	if lines := stepLines(stderr); len(lines) != 3 || !strings.HasPrefix(lines[1], "WAIT  1 allow list: ") ||
		!strings.HasSuffix(lines[1], " not added: --allow-list adds them once step 2 passes") || !strings.HasPrefix(lines[2], "FAIL  2 backup: ") {
		t.Errorf("steps: %q", lines)
	}
}

// echoingServer is a MariaDB endpoint for one service whose GRANT fails
// as MariaDB's syntax errors do: the message quotes the statement from the
// error on, password included.
type echoingServer struct {
	sb *sandbox.Server
}

func (s echoingServer) Credentials(id string) (string, string, bool) { return s.sb.Credentials(id) }

func (echoingServer) Call(string, string, []any) (*demosql.Result, error) {
	return nil, demosql.Errorf(1305, "no procedures here")
}

func (echoingServer) Grant(_ string, g demosql.Grant) error {
	_, near, _ := strings.Cut(g.Statement, " TO ")
	return &demosql.Error{Code: 1064, State: "42000", Msg: "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use near 'TO " + near + "' at line 1"}
}

// A failing GRANT whose server error quotes the statement never puts the
// replication password in the output; the fix names the command line's
// ways, not the TUI's keys.
func TestReplicationSetupGrantErrorRedacted(t *testing.T) {
	h, sb := replHarness(t, 6000)
	var password string
	h.setupSteps = func(eng *replsetup.Engine) setupSteps {
		return &stepsWith{Engine: eng, runGrant: func(ctx context.Context, p replsetup.Progress, grant string) replsetup.Outcome {
			_, pw, _ := strings.Cut(grant, "IDENTIFIED BY '")
			password, _, _ = strings.Cut(pw, "'")
			ep, err := demosql.Listen(p.PrimaryID, 0, echoingServer{sb})
			if err != nil {
				t.Fatal(err)
			}
			defer ep.Close()
			echoing := *eng
			echoing.Open = func(tg api.SQLTarget) (*api.SQLClient, error) {
				tg.Host, tg.Port, tg.TLS = "127.0.0.1", ep.Port, false
				return api.OpenSQL(tg)
			}
			return echoing.RunGrant(ctx, p, grant)
		}}
	}
	for _, out := range [][]string{nil, {"-o", "json"}} {
		stdout, stderr, code := h.script(setupArgs(h, append([]string{"--allow-list", "--yes", "--confirm", sandbox.DemoReplica}, out...)...)...)
		if len(password) < 8 {
			t.Fatalf("no password in the grant (%q)\n%s", password, stderr)
		}
		if code != exitFailed || !strings.Contains(stderr, "skytui: replication setup stopped at step 5 (grant): grant on ") || !strings.Contains(stderr, "error 1064") {
			t.Fatalf("exit %d\n%s", code, stderr)
		}
		if strings.Contains(stdout+stderr, password) {
			t.Fatalf("the replication password was printed:\n%s%s", stdout, stderr)
		}
		if !strings.Contains(stderr, "IDENTIFIED BY '****'' at line 1") {
			t.Errorf("the server's message, redacted:\n%s", stderr)
		}
		for _, key := range []string{"press ", "(y)", "(c)", "screen"} {
			if strings.Contains(stderr, key) {
				t.Errorf("a fix names the TUI's %q:\n%s", key, stderr)
			}
		}
	}
}

// The restore of step 3 is followed as `restores create --wait` follows
// one (waitRestore): a timeout names the restore and how to check on it.
func TestReplicationSetupFollowsTheRestore(t *testing.T) {
	h, _ := replHarness(t, 60) // a restore takes a while
	_, stderr, code := h.script(setupArgs(h, "--allow-list", "--yes", "--confirm", sandbox.DemoReplica, "--timeout", "1ms")...)
	re := regexp.MustCompile("skytui: timed out after 1ms waiting for restore ([0-9]+) into replica-west to finish \\(last: [^)]*Running.*; it goes on: check with `skytui restores get ([0-9]+)" + regexp.QuoteMeta(h.sel("")) + "`")
	m := re.FindStringSubmatch(stderr)
	if code != exitFailed || m == nil || m[1] != m[2] {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
}

// The commands the setup's texts name run on the pair's services: no
// SECONDARY or PRIMARY is left for a runbook to fill in.
func TestSetupTextNamesThePair(t *testing.T) {
	r := &setupRun{pri: &api.Service{ID: "dbtp", Name: "orders-prod"}, sec: &api.Service{ID: "dbts", Name: "replica west"}}
	rewrites(t, "setupRun.text", r.text, map[string]string{
		"no restore of it is listed yet. Look at the Restores screen (3) before restoring again": "no restore of it is listed yet. Look with `skytui restores list --service 'replica west'` before restoring again",
		"stopped (s, then S)":           "stopped (`skytui replication stop 'replica west' --yes`, then `skytui replication start 'replica west'`)",
		"a SECONDARY outside a command": "a SECONDARY outside a command",
		// a command the words name a service for runs on that service
		"take a full backup of orders-prod (Backups screen), then check again (c)":                          "take a full backup of orders-prod (`skytui backups create --service orders-prod --type full --wait`), then run the command again",
		"add it to orders-prod's allow list (Services screen, a)":                                           "add it to orders-prod's allow list (`skytui allowlist add orders-prod CIDR`)",
		"the secondary replica-west refused its default credentials: check them on the Services screen (c)": "the secondary replica-west refused its default credentials: check them with `skytui services credentials replica-west`",
	})
}

func TestRedactGrant(t *testing.T) {
	grant := "GRANT REPLICATION SLAVE ON *.* TO 'repl'@'198.51.100.98' IDENTIFIED BY 'E9D9C258AD67';"
	rewrites(t, "redactGrant", func(in string) string { return redactGrant(in, grant) }, map[string]string{
		"near 'IDENTIFIED BY 'E9D9C258AD67'' at line 1":   "near 'IDENTIFIED BY '****'' at line 1",
		"near 'identified by 'E9D9C2":                     "near 'identified by '****'",
		"near 'IDENTIFIED BY PASSWORD '*A4B6157319038724": "near 'IDENTIFIED BY PASSWORD '****'",
		"the password E9D9C258AD67, again":                "the password ****, again",
		"no grant here":                                   "no grant here",
	})
}

// Every engine text the command line rewords is still the engine's: a
// text changed there would reach a script naming the TUI's keys.
func TestCLIWordsAreTheEngines(t *testing.T) {
	files, err := filepath.Glob("../api/replsetup/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("the engine's sources: %v", err)
	}
	var src strings.Builder
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src.Write(b)
	}
	for i := 0; i < len(cliWordPairs); i += 2 {
		if !strings.Contains(src.String(), cliWordPairs[i]) {
			t.Errorf("the engine no longer says %q: reword its new text for the command line", cliWordPairs[i])
		}
	}
}

// serviceDB is a connection to the service named name's read-write port
// with its default credentials, as the commands read them; closed when the
// test ends.
func (h *harness) serviceDB(name string) *sql.DB {
	h.t.Helper()
	svc := decodeJSON[api.Service](h.t, h.ok(h.live("services", "get", name, "-o", "json")...))
	creds := decodeJSON[map[string]any](h.t, h.ok(h.live("services", "credentials", name, "--show-password", "-o", "json")...))
	db, err := sql.Open("mysql", fmt.Sprintf("%s:%s@tcp(127.0.0.1:%d)/", creds["username"], creds["password"], svc.ReadWritePort()))
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { db.Close() })
	return db
}

// TestReplicationStatusManagedInAPIOnly: a managed pair the API says
// replicates while SQL on the replica shows none (`skytui sandbox
// --mariadb` keeps managed replication in the API only) is said so, not
// ok, with no fix: not "ended", never "forget this pair".
func TestReplicationStatusManagedInAPIOnly(t *testing.T) {
	h, _ := replHarness(t, 6000)
	if _, stderr, code := h.script(setupArgs(h, "--managed", "--mode", "uni-directional", "--yes")...); code != 0 {
		t.Fatalf("managed setup: exit %d\n%s", code, stderr)
	}
	if _, err := h.serviceDB(sandbox.DemoReplica).Exec("CALL sky.reset_replication()"); err != nil {
		t.Fatal(err)
	}
	rs := decodeJSON[[]pairReport](t, h.ok(h.live("replication", "status", "-o", "json")...))
	if len(rs) != 1 || rs[0].OK || rs[0].Fix != "" ||
		rs[0].Problem != "the API says replica-west replicates from orders-prod; its threads cannot be read over SQL here (SQL on replica-west shows none)" {
		t.Fatalf("status: %+v", rs)
	}
}

// TestReplicationStatusOfDeletedServices: a managed pair whose primary, then
// whose replica, was deleted is its state with the pair's own fix (exit
// 0, not ok), in the command line's words with the replica named: not a
// failed read, never a wizard step.
func TestReplicationStatusOfDeletedServices(t *testing.T) {
	h, _ := replHarness(t, 6000)
	if _, stderr, code := h.script(setupArgs(h, "--managed", "--mode", "uni-directional", "--yes")...); code != 0 {
		t.Fatalf("managed setup: exit %d\n%s", code, stderr)
	}
	status := func() pairReport {
		t.Helper()
		rs := decodeJSON[[]pairReport](t, h.ok(h.live("replication", "status", "-o", "json")...))
		if len(rs) != 1 || rs[0].OK {
			t.Fatalf("status: %+v", rs)
		}
		if strings.Contains(rs[0].Fix, "step") {
			t.Errorf("a managed pair's fix names a wizard step: %q", rs[0].Fix)
		}
		return rs[0]
	}
	h.ok(h.live("services", "delete", sandbox.DemoOrders, "--yes", "--confirm", sandbox.DemoOrders, "--wait", "--poll-interval", "20ms")...)
	r := status()
	if !strings.HasPrefix(r.Problem, "the primary orders-prod is ") || !strings.HasPrefix(r.Fix, "nothing brings it back: `"+h.sel("skytui replication stop replica-west --managed --yes")+"` ends managed replication on replica-west") {
		t.Errorf("primary deleted: %q / %q", r.Problem, r.Fix)
	}
	h.ok(h.live("services", "delete", sandbox.DemoReplica, "--yes", "--confirm", sandbox.DemoReplica, "--wait", "--poll-interval", "20ms")...)
	r = status()
	if !strings.Contains(r.Problem, "replica-west is") || !strings.Contains(r.Fix, "`"+h.sel("skytui replication forget replica-west --yes")+"` forgets this pair") {
		t.Errorf("replica deleted: %q / %q", r.Problem, r.Fix)
	}
}

// TestReplicationSetupRefusesAManagedReplica: a secondary the API reports
// as a managed replica is refused at step 0 even with its threads stopped
// (the sky procedures' stop does not end managed replication), and the
// fix is the managed stop; its primary is refused as a secondary too.
func TestReplicationSetupRefusesAManagedReplica(t *testing.T) {
	h, sb := replHarness(t, 1)
	if _, stderr, code := h.script(h.live("replication", "setup", sandbox.DemoReplica, "--primary", sandbox.DemoOrders, "--managed", "--mode", "uni-directional", "--yes")...); code != 0 {
		t.Fatalf("managed setup: exit %d\n%s", code, stderr)
	}
	h.ok(h.live("replication", "stop", sandbox.DemoReplica, "--yes")...) // its threads only
	_, stderr, code := h.script(setupArgs(h, "--yes", "--confirm", sandbox.DemoReplica, "--allow-list")...)
	if code != exitFailed || !strings.Contains(stderr, "FAIL  0 pair: the API reports replica-west as a replica of orders-prod (") ||
		!strings.Contains(stderr, "`"+h.sel("skytui replication stop replica-west --managed --yes")+"`") {
		t.Fatalf("setup over a managed replica: exit %d\n%s", code, stderr)
	}
	_, stderr, code = h.script(h.live("replication", "setup", sandbox.DemoOrders, "--primary", sandbox.DemoReplica, "--yes", "--confirm", sandbox.DemoOrders, "--allow-list", "--poll-interval", "20ms")...)
	if code != exitFailed || !strings.Contains(stderr, "orders-prod is the primary of replica-west") ||
		!strings.Contains(stderr, "`"+h.sel("skytui replication stop replica-west --managed --yes")+"`") {
		t.Fatalf("setup over a managed primary: exit %d\n%s", code, stderr)
	}
	if n := sb.Stats().Count("POST", "/skybackup/v1/restores"); n != 0 {
		t.Fatalf("%d restores sent", n)
	}
}

// TestReplicationSetupStoppedPrimary: a stopped primary's fix is to start
// it, not "choose two ready services".
func TestReplicationSetupStoppedPrimary(t *testing.T) {
	h, _ := replHarness(t, 1)
	_, stderr, code := h.script(h.live("replication", "setup", sandbox.DemoReplica, "--primary", sandbox.DemoLegacy, "--yes", "--confirm", sandbox.DemoReplica)...)
	if code != exitFailed || !strings.Contains(stderr, "fix: start it: `"+h.sel("skytui services start legacy-batch --wait")+"`, or choose another service") {
		t.Fatalf("a stopped primary: exit %d\n%s", code, stderr)
	}
}

// TestReplicationSetupRefusesAPrimaryReadOverSQL: the primary of a
// replication set up with the sky procedures that no pair here names (it
// was forgotten, or set up elsewhere) is refused as a secondary: its
// replica is found by reading the provider's other services over SQL.
func TestReplicationSetupRefusesAPrimaryReadOverSQL(t *testing.T) {
	h, sb := replHarness(t, 6000)
	if _, stderr, code := h.script(setupArgs(h, "--yes", "--confirm", sandbox.DemoReplica, "--allow-list")...); code != 0 {
		t.Fatalf("setup: exit %d\n%s", code, stderr)
	}
	h.ok(h.live("replication", "forget", sandbox.DemoReplica, "--yes")...)
	h.ok(h.live("services", "create", "--name", "aws-other", "--provider", "aws", "--region", "us-east-1", "--topology", "es-single",
		"--size", "sky-2x8", "--storage", "100", "--wait", "--poll-interval", "20ms")...)
	restores := sb.Stats().Count("POST", "/skybackup/v1/restores")
	_, stderr, code := h.script(h.live("replication", "setup", sandbox.DemoOrders, "--primary", "aws-other", "--allow-list",
		"--yes", "--confirm", sandbox.DemoOrders, "--poll-interval", "20ms")...)
	if code != exitFailed || !strings.Contains(stderr, "FAIL  0 pair: orders-prod is the primary of replica-west") {
		t.Fatalf("setup over a primary no pair names: exit %d\n%s", code, stderr)
	}
	if n := sb.Stats().Count("POST", "/skybackup/v1/restores"); n != restores {
		t.Fatalf("%d restores sent", n-restores)
	}
}

// TestReplicationSetupUnknownBackupWithoutUsable: a --backup that is not
// among the primary's backups is not found (exit 4) also when the primary
// has no usable backup (it exited 1, the key ignored).
func TestReplicationSetupUnknownBackupWithoutUsable(t *testing.T) {
	h, _ := replHarness(t, 6000)
	h.ok(h.live("wait", "service", sandbox.DemoReporting, "--for", "ready", "--poll-interval", "20ms")...)
	_, stderr, code := h.script(h.live("replication", "setup", sandbox.DemoServerless, "--primary", sandbox.DemoReporting, "--allow-list",
		"--yes", "--confirm", sandbox.DemoServerless, "--backup", "nosuchkey")...)
	if code != exitNotFound || !strings.Contains(stderr, "--backup nosuchkey is not among reporting-new's backups") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
}

// TestReplicationSetupGoesOnAfterATimeout: a setup whose wait for its
// restore timed out is saved; the same command run again follows that
// restore (no second restore, which would erase the secondary again) and
// sets replication up; then nothing is left saved. Before, the run left
// nothing saved and a rerun restored again.
func TestReplicationSetupGoesOnAfterATimeout(t *testing.T) {
	clk := sandbox.NewManualClock(testenv.T0)
	h, sb := serveHarness(t, sandbox.Options{DemoData: true, Seed: 7, SQL: sandbox.SQLDemo, Clock: clk}, goodKey)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	args := setupArgs(h, "--allow-list", "--yes", "--confirm", sandbox.DemoReplica, "--timeout", "50ms")
	_, stderr, code := h.script(args...)
	m := regexp.MustCompile(`restore ([0-9]+) into replica-west to finish`).FindStringSubmatch(stderr)
	if code != exitFailed || m == nil || !strings.Contains(stderr, "; replication is not set up yet; the setup is saved: run this command again to go on from restore "+m[1]+" (it is not started again)\n") {
		t.Fatalf("a timed-out restore: exit %d\n%s", code, stderr)
	}
	if ps, err := replsetup.DefaultStore().Load("skysql"); err != nil || ps.Setup == nil || fmt.Sprint(ps.Setup.RestoreID) != m[1] {
		t.Fatalf("the setup saved: %+v %v", ps.Setup, err)
	}

	// again while the restore runs (the secondary is not ready, which
	// step 0 refuses): followed again, not refused, nothing sent
	_, stderr, code = h.script(args...)
	if code != exitFailed || !strings.Contains(stderr, "going on with the setup") || strings.Contains(stderr, "FAIL  0") ||
		!strings.Contains(stderr, "restore "+m[1]+" into replica-west to finish") {
		t.Fatalf("run again while the restore runs: exit %d\n%s", code, stderr)
	}

	clk.Advance(time.Hour) // the restore ends
	// --binlog now: the start this run asks for (step 4 has not run)
	stdout, stderr, code := h.script(append(args, "--binlog")...)
	if code != 0 || !strings.Contains(stderr, "skytui: going on with the setup of orders-prod -> replica-west saved when it stopped: restore "+m[1]) ||
		!strings.Contains(stderr, "PASS  4 change primary: pointed replica-west at orders-prod (binlog ") || !strings.Contains(stdout, "replica-west") {
		t.Fatalf("run again: exit %d\n%s\n%s", code, stderr, stdout)
	}
	if n := sb.Stats().Count("POST", "/skybackup/v1/restores"); n != 1 {
		t.Errorf("%d restores sent in all, want the first run's only", n)
	}
	if ps, err := replsetup.DefaultStore().Load("skysql"); err != nil || ps.Setup != nil || len(ps.Pairs) != 1 {
		t.Errorf("after the setup: %+v %v", ps, err)
	}
}

// TestReplicationStatusOfADeletedSecondary: a saved pair's secondary
// deleted since is shown by its saved name as the list without arguments
// shows it (it said "no service named", exit 4, of the row status listed).
func TestReplicationStatusOfADeletedSecondary(t *testing.T) {
	h, _ := replHarness(t, 1)
	ordersID := serviceID(t, h, sandbox.DemoOrders)
	gone := replsetup.Pair{PrimaryID: ordersID, PrimaryName: sandbox.DemoOrders, SecondaryID: "dbtaf00000999", SecondaryName: "old-replica", Method: replsetup.MethodGTID}
	if err := replsetup.DefaultStore().Save("skysql", replsetup.ProfileState{Pairs: []replsetup.Pair{gone}}, 0); err != nil {
		t.Fatal(err)
	}
	all := h.ok(h.live("replication", "status", "--no-headers")...)
	for _, arg := range []string{"old-replica", "dbtaf00000999"} {
		if one := h.ok(h.live("replication", "status", arg, "--no-headers")...); one != all || !strings.Contains(one, "old-replica") {
			t.Errorf("status %s: %q, want the list's row %q", arg, one, all)
		}
	}
	h.fails(exitNotFound, `skytui: no service named "never-was"`, h.live("replication", "status", "never-was")...)
}

// TestReplicationSetupSavesNothingBeforeItsRestore: a run whose restore
// the API refuses says nothing is saved and saves nothing (it would have
// saved a setup with no restore to go on from); the rerun is a new one.
func TestReplicationSetupSavesNothingBeforeItsRestore(t *testing.T) {
	h, _ := replHarness(t, 60)
	h.front(func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/restores") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusConflict)
			_, _ = io.WriteString(w, `{"code":409,"message":"the service is busy"}`)
			return
		}
		next.ServeHTTP(w, r)
	})
	_, stderr, code := h.script(setupArgs(h, "--allow-list", "--yes", "--confirm", sandbox.DemoReplica)...)
	if code != exitFailed || !strings.Contains(stderr, "stopped at step 3 (restore)") || strings.Contains(stderr, "the setup is saved") {
		t.Fatalf("a refused restore: exit %d\n%s", code, stderr)
	}
	if ps, err := replsetup.DefaultStore().Load("skysql"); err != nil || ps.Setup != nil {
		t.Errorf("saved after a refused restore: %+v %v", ps.Setup, err)
	}
}

// TestReplicationSetupKeepsAnotherPairsSetup: one unfinished setup is
// kept a profile. Another pair's with its restore started is not replaced:
// the run stops before its own restore (which, stopped, could not be taken
// up again: a run again erased the secondary again), naming the command
// that goes on with the other. Another pair's that erased nothing yet is
// replaced, said.
func TestReplicationSetupKeepsAnotherPairsSetup(t *testing.T) {
	clk := sandbox.NewManualClock(testenv.T0)
	h, sb := serveHarness(t, sandbox.Options{DemoData: true, Seed: 7, SQL: sandbox.SQLDemo, Clock: clk}, goodKey)
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	other := replsetup.Progress{PrimaryID: serviceID(t, h, sandbox.DemoOrders), PrimaryName: sandbox.DemoOrders,
		SecondaryID: serviceID(t, h, sandbox.DemoLegacy), SecondaryName: sandbox.DemoLegacy, RestoreID: 9, Step: replsetup.StepRestore}
	if err := replsetup.DefaultStore().Save("skysql", replsetup.ProfileState{Setup: &other}, 0); err != nil {
		t.Fatal(err)
	}
	args := setupArgs(h, "--allow-list", "--yes", "--confirm", sandbox.DemoReplica, "--timeout", "50ms")
	_, stderr, code := h.script(args...)
	if code != exitFailed || !strings.Contains(stderr, "FAIL  0 pair: the unfinished setup of orders-prod -> legacy-batch (restore 9 started) is saved for this profile") ||
		strings.Contains(stderr, "PASS  1") ||
		!strings.Contains(stderr, "`"+h.sel("skytui replication setup legacy-batch --primary orders-prod --yes --confirm legacy-batch")+"` goes on with it") {
		t.Fatalf("another pair's restore started: exit %d\n%s", code, stderr)
	}
	if n := tuitest.Changes(sb); n != 0 {
		t.Fatalf("a run that could not go on sent %d changes (it added to the allow list)", n)
	}
	if n := sb.Stats().Count("POST", "/skybackup/v1/restores"); n != 0 {
		t.Fatalf("%d restores sent", n)
	}

	other.RestoreID, other.Step = 0, replsetup.StepBackup
	if err := replsetup.DefaultStore().Save("skysql", replsetup.ProfileState{Setup: &other}, 0); err != nil {
		t.Fatal(err)
	}
	_, stderr, _ = h.script(args...)
	if !strings.Contains(stderr, "skytui: the unfinished setup of orders-prod -> legacy-batch (at step 2, nothing erased yet) is replaced by this one") ||
		!strings.Contains(stderr, "the setup is saved: run this command again") {
		t.Fatalf("another pair's setup before its restore:\n%s", stderr)
	}
	if ps, err := replsetup.DefaultStore().Load("skysql"); err != nil || ps.Setup == nil || ps.Setup.SecondaryName != sandbox.DemoReplica {
		t.Errorf("the setup saved: %+v %v", ps.Setup, err)
	}
}
