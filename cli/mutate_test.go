package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/internal/testenv"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/tuitest"
)

// newChangeHarness serves the demo sandbox with a clock 6,000 times faster
// than real time (a five-minute launch takes 50 ms) and returns the
// server, for its request counters and armed faults.
func newChangeHarness(t *testing.T) (*harness, *sandbox.Server) {
	t.Helper()
	// the clock starts at the fixed moment the deterministic tests use
	// (noon UTC), not now: a sandbox running 6000 times faster that starts
	// shortly before 02:00 UTC takes the platform's nightly backups while a
	// test expects a service to have none
	h, sb := serveHarness(t, sandbox.Options{DemoData: true, Seed: 7, Clock: sandbox.NewScaledClock(testenv.T0, 6000)}, goodKey)
	cache := t.TempDir()
	old := completionCacheDir
	completionCacheDir = func() (string, error) { return cache, nil }
	t.Cleanup(func() { completionCacheDir = old })
	return h, sb
}

// live is the skysql profile (the live service's prefixes) on the sandbox,
// with a fast poll for --wait.
func (h *harness) live(more ...string) []string {
	return append(append([]string{}, more...), "--profile", "skysql", "--api-url", h.url)
}

// TestWaitForADeletedService: waiting for ready or stopped on a service
// being deleted ends at once, saying so (exit 1); one gone while waited
// for is not found (exit 4), never a bare 404 of its request.
func TestWaitForADeletedService(t *testing.T) {
	h, _ := serveHarness(t, sandbox.Options{DemoData: true, Seed: 7, Clock: sandbox.NewManualClock(testenv.T0)}, goodKey)
	h.ok(h.live("services", "delete", sandbox.DemoAnalytics, "--yes", "--confirm", sandbox.DemoAnalytics)...)
	for _, want := range []string{"ready", "stopped"} {
		h.fails(exitFailed, "skytui: analytics-gcp is pending_delete: it will not become "+want+"\n",
			h.live("wait", "service", sandbox.DemoAnalytics, "--for", want, "--timeout", "2s", "--poll-interval", "1h")...)
	}
	c, err := api.New(api.Config{BaseURL: h.url, APIKey: goodKey})
	if err != nil {
		t.Fatal(err)
	}
	w := &waiter{e: &env{stderr: io.Discard}, timeout: 2 * time.Second, poll: time.Hour, what: "dbtaf00000000"}
	_, err = w.waitService(context.Background(), c, "dbtaf00000000", forReady)
	if exitCode(err) != exitNotFound || err.Error() != "dbtaf00000000 was deleted: it will not become ready" {
		t.Fatalf("a service gone while waited for: %v (exit %d)", err, exitCode(err))
	}
}

// sel is a command as skytui suggests it to a run of live: with that
// run's --profile and --api-url.
func (h *harness) sel(cmd string) string {
	return cmd + " --profile skysql --api-url " + h.url
}

func serviceID(t *testing.T, h *harness, name string) string {
	t.Helper()
	s := decodeJSON[map[string]any](t, h.ok(h.live("services", "get", name, "-o", "json")...))
	id, _ := s["id"].(string)
	if id == "" {
		t.Fatalf("no ID for %s: %v", name, s)
	}
	return id
}

// newestBackupKey is the key of a service's newest succeeded backup.
func newestBackupKey(t *testing.T, h *harness, service string) string {
	t.Helper()
	bs := decodeJSON[[]map[string]any](t, h.ok(h.live("backups", "list", "--service", service, "--status", "succeeded", "-o", "json")...))
	best, bestStart := "", ""
	for _, b := range bs {
		if s, _ := b["start_time"].(string); s >= bestStart {
			best, bestStart = b["id"].(string), s
		}
	}
	if best == "" {
		t.Fatalf("%s has no succeeded backup", service)
	}
	return best
}

func TestChangeServicesCreate(t *testing.T) {
	h, sb := newChangeHarness(t)
	base := []string{"services", "create", "--provider", "aws", "--region", "us-east-1", "--topology", "es-single", "--size", "sky-2x8", "--storage", "100"}

	// the API's rules, before anything is sent: exit 2 naming flag, field and rule
	stderr := h.fails(exitUsage, "skytui: invalid request: ", h.live(append(base, "--name", "ab", "--allow", "10.0.0.1/8")...)...)
	for _, want := range []string{"--name (name): must be 4 to 24 characters (has 2)", `--allow (allow_list[0].ip): "10.0.0.1/8" has host bits set`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr %q lacks %q", stderr, want)
		}
	}
	h.fails(exitUsage, "skytui: invalid request: --size (size): is required", h.live("services", "create", "--name", "abcd", "--provider", "aws", "--region", "us-east-1", "--topology", "es-single", "--storage", "100")...)
	// an architecture the live description does not list: refused here, not
	// sent (the sizes' listing was called unreadable for its 400)
	if stderr := h.fails(exitUsage, `skytui: invalid request: --architecture (architecture): must be amd64 or arm64 (got "arm99")`, h.live(append(base, "--name", "abcd", "--architecture", "arm99")...)...); strings.Contains(stderr, "could not be read") {
		t.Errorf("a bad architecture: %s", stderr)
	}
	// a missing --storage is said as the other missing flags are
	h.fails(exitUsage, "skytui: invalid request: --storage (storage): is required: a size in GB (nothing was sent)", h.live("services", "create", "--name", "abcd", "--provider", "aws", "--region", "us-east-1", "--topology", "es-single", "--size", "sky-2x8")...)
	// the option listings, before anything is sent: exit 2 naming the flag
	// and the choices
	for _, c := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--region", "xx-1"}, "skytui: --region xx-1: not offered for aws; choose one of us-east-1, us-west-2, eu-west-1, ap-southeast-1 (nothing was sent)\n"},
		{[]string{"--size", "sky-99"}, "skytui: --size sky-99: not offered for es-single on aws (amd64); choose one of sky-2x8, sky-4x16, "},
		{[]string{"--storage", "7"}, "skytui: --storage 7: not offered for es-single; choose one of 100, 200, 300, 400, 500, 1000, 1500, 2000 GB (nothing was sent)\n"},
		{[]string{"--nodes", "3"}, "skytui: --nodes 3: topology es-single has one node (nothing was sent)\n"},
		{[]string{"--topology", "es-replica", "--nodes", "7"}, "skytui: --nodes 7: topology es-replica has 2 to 5 nodes (nothing was sent)\n"},
		{[]string{"--version", "9.9.9"}, "skytui: --version 9.9.9: not offered for es-single; choose one of 11.4.2-1, 10.11.8-1, 10.6.18-1 (nothing was sent)\n"},
		{[]string{"--topology", "es-nope"}, "skytui: --topology es-nope: not offered for service type transactional; choose one of es-single, es-replica, sa (nothing was sent)\n"},
		{[]string{"--type", "analytical"}, "skytui: --type analytical: not offered; choose one of transactional, transactional_serverless (nothing was sent)\n"},
	} {
		h.fails(exitUsage, c.want, h.live(append(append(base, "--name", "cli-checked"), c.flags...)...)...)
	}
	// a network wider than /16 (IPv6 /48) needs --yes, as allowlist add
	h.fails(exitRefused, "skytui: services create: 0.0.0.0/0 lets every address on the internet connect; pass --yes to create the service with it anyway (nothing was sent)\n",
		h.live(append(base, "--name", "cli-wide", "--allow", "0.0.0.0/0")...)...)
	h.fails(exitRefused, "skytui: services create: 10.0.0.0/8 is wider than /16: every address in it may connect; pass --yes",
		h.live(append(base, "--name", "cli-wide", "--allow", "203.0.113.7,10.0.0.0/8")...)...)
	h.fails(exitRefused, "skytui: services create: 2001:db8::/32 is wider than /48", h.live(append(base, "--name", "cli-wide", "--allow", "2001:db8::/32")...)...)
	if n := tuitest.Changes(sb); n != 0 {
		t.Fatalf("%d changes sent by refused requests", n)
	}

	// table: the new service, pending
	out := h.ok(h.live(append(base, "--name", "cli-made", "--allow", "203.0.113.7")...)...)
	if f := strings.Fields(strings.Split(out, "\n")[1]); len(f) < 3 || f[0] != "cli-made" || f[2] != "pending_create" {
		t.Errorf("create table:\n%s", out)
	}

	// --wait: followed until ready, the record as JSON
	s := decodeJSON[map[string]any](t, h.ok(h.live(append(base, "--name", "cli-waited", "--wait", "--poll-interval", "20ms", "-o", "json")...)...))
	if s["name"] != "cli-waited" || s["status"] != "ready" || s["fqdn"] == "" {
		t.Errorf("after --wait: %v", s)
	}
	// with --yes the wide network is sent as given
	wide := decodeJSON[map[string]any](t, h.ok(h.live(append(base, "--name", "cli-wide", "--allow", "10.0.0.0/8", "--yes", "-o", "json")...)...))
	if !strings.Contains(fmt.Sprint(wide["endpoints"]), "allow_list:[map[comment: ip:10.0.0.0/8]]") {
		t.Errorf("create --allow 10.0.0.0/8 --yes: %v", wide)
	}
	// es-replica without --nodes: its least, 2 (1, the flag's old default,
	// the API refuses)
	rep := decodeJSON[map[string]any](t, h.ok(h.live(append(base, "--name", "cli-replica", "--topology", "es-replica", "--storage", "1000", "-o", "json")...)...))
	if rep["nodes"] != float64(2) {
		t.Errorf("es-replica created without --nodes has %v nodes, want 2", rep["nodes"])
	}
	if n := sb.Stats().Count("POST", "/provisioning/v1/services"); n != 4 {
		t.Errorf("%d POSTs, want 4", n)
	}

	// wait service: the first one is ready by now too
	got := decodeJSON[map[string]any](t, h.ok(h.live("wait", "service", "cli-made", "--for", "ready", "--poll-interval", "20ms", "-o", "json")...))
	if got["status"] != "ready" {
		t.Errorf("wait service: %v", got)
	}
	h.fails(exitUsage, `skytui: --for "up"`, h.live("wait", "service", "cli-made", "--for", "up")...)
	h.fails(exitNotFound, `skytui: no service named "nope-nope"`, h.live("wait", "service", "nope-nope")...)
	// a ready service nobody is stopping fails at once, as a stopped one
	// does for --for ready, instead of waiting out --timeout
	h.fails(exitFailed, "skytui: orders-prod is ready and nothing is stopping it: stop it with `"+h.sel("skytui services stop orders-prod --yes")+"`\n",
		h.live("wait", "service", sandbox.DemoOrders, "--for", "stopped", "--timeout", "2s", "--poll-interval", "1h")...)
	h.fails(exitFailed, "skytui: orders-prod is ready and nothing is deleting it: delete it with `"+h.sel("skytui services delete orders-prod --yes --confirm orders-prod")+"`\n",
		h.live("wait", "service", sandbox.DemoOrders, "--for", "deleted", "--timeout", "2s", "--poll-interval", "1h")...)
	h.fails(exitFailed, "skytui: legacy-batch is stopped: it will not become ready until it is started: start it with `"+h.sel("skytui services start legacy-batch --wait")+"`\n",
		h.live("wait", "service", sandbox.DemoLegacy, "--for", "ready", "--timeout", "2s", "--poll-interval", "1h")...)
}

// TestWaitDeadEnds: a stopped service nobody is deleting ends a wait for
// deleted at once, as a ready one does; the commands suggested name a
// service whose name is shared by its ID, and --confirm by its name (what
// the delete compares it with); a timeout names the last state and how to
// check.
func TestWaitDeadEnds(t *testing.T) {
	h, _ := serveHarness(t, sandbox.Options{DemoData: true, Seed: 7, Clock: sandbox.NewManualClock(testenv.T0)}, goodKey)
	h.fails(exitFailed, "skytui: legacy-batch is stopped and nothing is deleting it: delete it with `"+h.sel("skytui services delete legacy-batch --yes --confirm legacy-batch")+"`\n",
		h.live("wait", "service", sandbox.DemoLegacy, "--for", "deleted", "--timeout", "2s", "--poll-interval", "1h")...)
	// reporting-new is being created, and the clock stands still
	h.fails(exitFailed, "skytui: timed out after 1ms waiting for reporting-new to be stopped (last: pending_create); it goes on: check with `"+h.sel("skytui services get reporting-new")+"`",
		h.live("wait", "service", sandbox.DemoReporting, "--for", "stopped", "--timeout", "1ms", "--poll-interval", "1h")...)

	id := serviceID(t, h, sandbox.DemoOrders)
	h.ok(h.live("services", "create", "--provider", "aws", "--region", "us-east-1", "--topology", "es-single", "--size", "sky-2x8", "--storage", "100",
		"--name", sandbox.DemoOrders, "--allow-duplicate-name")...)
	h.fails(exitFailed, "skytui: orders-prod is ready and nothing is stopping it: stop it with `"+h.sel("skytui services stop "+id+" --yes")+"`\n",
		h.live("wait", "service", id, "--for", "stopped", "--timeout", "2s", "--poll-interval", "1h")...)
	h.fails(exitFailed, "skytui: orders-prod is ready and nothing is deleting it: delete it with `"+h.sel("skytui services delete "+id+" --yes --confirm orders-prod")+"`\n",
		h.live("wait", "service", id, "--for", "deleted", "--timeout", "2s", "--poll-interval", "1h")...)
}

func TestChangeReadOnlyRefusesBeforeSending(t *testing.T) {
	h, sb := newChangeHarness(t)
	body := "[[profile]]\nname = \"audit\"\nbase_url = \"" + h.url + "\"\nbackup_prefix = \"/skybackup/v1\"\nread_only = true\n"
	if err := os.WriteFile(h.cfgPath, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cmds := [][]string{
		{"services", "create", "--name", "cli-made", "--provider", "aws", "--region", "us-east-1", "--topology", "es-single", "--size", "sky-2x8", "--storage", "100"},
		{"allowlist", "add", sandbox.DemoOrders, "203.0.113.7"},
		{"allowlist", "remove", sandbox.DemoOrders, "203.0.113.7", "--yes"},
		{"backups", "create", "--service", sandbox.DemoOrders, "--type", "full"},
		{"restores", "create", "--service", sandbox.DemoReplica, "--backup", "abc:def", "--yes", "--confirm", sandbox.DemoReplica},
		{"restores", "delete", "1", "--yes", "--confirm", sandbox.DemoReplica},
	}
	before := sb.Stats().Total
	for _, c := range cmds {
		h.fails(exitRefused, "skytui: profile audit is read-only: "+c[0]+" "+c[1]+" refused, nothing was sent\n", append(c, "--profile", "audit")...)
	}
	if after := sb.Stats().Total; after != before {
		t.Fatalf("a read-only profile sent %d requests", after-before)
	}
	// --read-only on any profile, before or after the noun
	h.fails(exitRefused, "skytui: --read-only: backups create refused", h.live("backups", "create", "--service", sandbox.DemoOrders, "--type", "full", "--read-only")...)
	h.fails(exitRefused, "skytui: --read-only: allowlist add refused", append([]string{"--read-only"}, h.live("allowlist", "add", sandbox.DemoOrders, "203.0.113.7")...)...)
	if after := sb.Stats().Total; after != before {
		t.Fatalf("--read-only sent %d requests", after-before)
	}
	// reading is fine on a read-only profile
	if out := h.ok("allowlist", "list", sandbox.DemoOrders, "--profile", "audit"); !strings.HasPrefix(out, "IP") {
		t.Errorf("allowlist list on a read-only profile:\n%s", out)
	}
}

func TestChangeCredentials(t *testing.T) {
	h, sb := newChangeHarness(t)
	id := serviceID(t, h, sandbox.DemoOrders)
	user, pass, ok := sb.Credentials(id)
	if !ok || pass == "" {
		t.Fatal("no demo credentials")
	}
	out := h.ok(h.live("services", "credentials", sandbox.DemoOrders)...)
	if strings.Contains(out, pass) || !strings.Contains(out, user) || !strings.Contains(out, "********") {
		t.Errorf("the table must mask the password:\n%s", out)
	}
	if hd := strings.Join(strings.Fields(headerOf(out)), " "); hd != "SERVICE HOST PORT USERNAME PASSWORD SSL" {
		t.Errorf("header %q", hd)
	}
	if out := h.ok(h.live("services", "credentials", sandbox.DemoOrders, "--show-password", "--no-headers")...); !strings.Contains(out, pass) {
		t.Errorf("--show-password:\n%s", out)
	}
	// JSON to a pipe carries the password; to a terminal only when asked
	c := decodeJSON[map[string]any](t, h.ok(h.live("services", "credentials", sandbox.DemoOrders, "-o", "json")...))
	if c["username"] != user || c["password"] != pass {
		t.Errorf("credentials JSON: %v", c)
	}
	old := isTerminal
	isTerminal = func(io.Writer) bool { return true }
	defer func() { isTerminal = old }()
	before := sb.Stats().Total
	h.fails(exitRefused, "skytui: -o json prints the password in clear: pipe it to a program, or pass --show-password", h.live("services", "credentials", sandbox.DemoOrders, "-o", "json")...)
	if sb.Stats().Total != before {
		t.Error("the refused credentials read sent a request")
	}
	if out := h.ok(h.live("services", "credentials", sandbox.DemoOrders, "-o", "json", "--show-password")...); !strings.Contains(out, pass) {
		t.Errorf("-o json --show-password on a terminal:\n%s", out)
	}
	isTerminal = old
	// not ready: no credentials yet (on a real-time clock: at 6000 times,
	// the demo's launch ends within milliseconds)
	slow, _ := serveHarness(t, sandbox.Options{DemoData: true, Seed: 7}, goodKey)
	slow.fails(exitFailed, "skytui: reporting-new is pending_create: its credentials exist once it is ready", slow.live("services", "credentials", sandbox.DemoReporting)...)
	// a failed service will not become ready: no wait to suggest (that
	// wait fails at once), its reason instead; a stopped one, once started
	h.fails(exitFailed, "skytui: broken-import is failed: launch failed: insufficient capacity for sky-2x8 in eastus; try another region or size; it has no credentials to read\n", h.live("services", "credentials", sandbox.DemoBroken)...)
	h.fails(exitFailed, "skytui: legacy-batch is stopped: its credentials can be read once it is started (`"+h.sel("skytui services start legacy-batch --wait")+"`)\n", h.live("services", "credentials", sandbox.DemoLegacy)...)
	// read-only, the start is not offered: this run would refuse it
	h.fails(exitFailed, "skytui: legacy-batch is stopped: its credentials can be read once it is started, from a profile that is not read-only\n",
		h.live("services", "credentials", sandbox.DemoLegacy, "--read-only")...)
}

func TestChangeAllowlist(t *testing.T) {
	h, sb := newChangeHarness(t)
	out := h.ok(h.live("allowlist", "add", sandbox.DemoOrders, "203.0.113.7")...)
	if !strings.Contains(out, "203.0.113.7/32") || !strings.HasPrefix(out, "IP") {
		t.Errorf("add:\n%s", out)
	}
	groups := decodeJSON[[]map[string]any](t, h.ok(h.live("allowlist", "list", sandbox.DemoOrders, "-o", "json")...))
	found := false
	for _, g := range groups {
		for _, a := range g["allow_list"].([]any) {
			if a.(map[string]any)["ip"] == "203.0.113.7/32" {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("list -o json lacks the new entry: %v", groups)
	}
	h.fails(exitUsage, `skytui: invalid request: CIDR (ip): "300.1.1.1" is not a valid IP address`, h.live("allowlist", "add", sandbox.DemoOrders, "300.1.1.1")...)

	deletes := func() int { return sb.Stats().Count("DELETE", "/provisioning/v1/services/{id}/security/allowlist") }
	h.fails(exitRefused, "skytui: allowlist remove is destructive: pass --yes to confirm it (nothing was sent)", h.live("allowlist", "remove", sandbox.DemoOrders, "203.0.113.7")...)
	if deletes() != 0 {
		t.Fatal("remove without --yes sent a DELETE")
	}
	out = h.ok(h.live("allowlist", "remove", sandbox.DemoOrders, "203.0.113.7/32", "--yes", "--no-headers")...)
	if strings.Contains(out, "203.0.113.7") || deletes() != 1 {
		t.Errorf("remove (%d DELETEs):\n%s", deletes(), out)
	}
	h.fails(exitNotFound, "skytui: 203.0.113.7/32 is not in the allow list of orders-prod", h.live("allowlist", "remove", sandbox.DemoOrders, "203.0.113.7", "--yes")...)
	h.fails(exitUsage, "skytui: accepts 2 arg(s), received 1", h.live("allowlist", "add", sandbox.DemoOrders)...)
}

func TestChangeBackupsCreate(t *testing.T) {
	h, sb := newChangeHarness(t)
	posts := func() int { return sb.Stats().Count("POST", "/skybackup/v1/backups/schedules") }

	out := h.ok(h.live("backups", "create", "--service", sandbox.DemoOrders, "--type", "full")...)
	if hd := strings.Join(strings.Fields(headerOf(out)), " "); hd != "ID TYPE SCHEDULE STATUS SUSPENDED" || !strings.Contains(out, "once") {
		t.Errorf("create table:\n%s", out)
	}
	b := decodeJSON[map[string]any](t, h.ok(h.live("backups", "create", "--service", sandbox.DemoOrders, "--type", "full", "--wait", "--poll-interval", "20ms", "-o", "json")...))
	if !strings.EqualFold(b["status"].(string), "succeeded") || b["type"] != "full" || b["id"] == "" {
		t.Errorf("after --wait: %v", b)
	}
	sc := decodeJSON[map[string]any](t, h.ok(h.live("backups", "create", "--service", sandbox.DemoOrders, "--type", "dump", "--schedule", "0 3 * * *", "-o", "json")...))
	if sc["type"] != "dump" {
		t.Errorf("schedule: %v", sc)
	}
	if posts() != 3 {
		t.Fatalf("%d POSTs, want 3", posts())
	}

	// own bucket with stored credentials: read from the keystore by name
	secret := addS3Creds(t, h, "archive")
	out = h.ok(h.live("backups", "create", "--service", sandbox.DemoOrders, "--type", "dump", "--bucket", "s3://acme-exports/orders", "--creds", "archive", "-o", "wide")...)
	if strings.Contains(out, secret) || strings.Contains(out, "AKIAIOSFODNN7EXAMPLE") {
		t.Fatalf("a secret in the output:\n%s", out)
	}
	if posts() != 4 {
		t.Fatalf("the bucket backup was not sent (%d POSTs)", posts())
	}

	// refused before sending: exit 2 naming the flag, the field and the rule
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--type", "differential"}, `skytui: invalid request: --type (backup_type): must be full, incremental, logical, physical or binarylog; on the live service full, incremental, binarylog, dump or snapshot (got "differential")`},
		{[]string{"--type", "full", "--schedule", "3am daily"}, "skytui: invalid request: --schedule (schedule): must be \"once\" or a 5-field cron expression"},
		{[]string{"--type", "full", "--bucket", "s3://acme-exports/orders"}, "skytui: invalid request: --creds (external_storage.bucket.credentials): is required with --bucket"},
		{[]string{"--type", "full", "--bucket", "ftp://x/y", "--creds", "archive"}, "skytui: invalid request: --bucket (external_storage.bucket.path): must start with s3:// or gs://"},
		{[]string{"--type", "full", "--bucket", "gs://acme-exports/orders", "--creds", "archive"}, "skytui: --creds (external_storage.bucket.credentials): archive is a S3 credential; gs:// needs GCS credentials"},
		{[]string{"--type", "full", "--schedule", "0 3 * * *", "--wait"}, "skytui: --wait follows a backup taken now"},
	} {
		h.fails(exitUsage, c.want, h.live(append([]string{"backups", "create", "--service", sandbox.DemoServerless}, c.args...)...)...)
	}
	// an unknown stored credential is not found, as an unknown service is
	h.fails(exitNotFound, "skytui: --creds nosuch: no stored bucket credentials of that name",
		h.live("backups", "create", "--service", sandbox.DemoServerless, "--type", "full", "--bucket", "s3://acme-exports/orders", "--creds", "nosuch")...)
	// the TUI's rule: incremental only once a full backup completed
	h.fails(exitUsage, "skytui: --type (backup_type): incremental needs a completed full backup of reporting-new; take one first with --type full",
		h.live("backups", "create", "--service", sandbox.DemoReporting, "--type", "incremental")...)
	if posts() != 4 {
		t.Fatalf("refused requests were sent (%d POSTs)", posts())
	}
	h.fails(exitUsage, "skytui: --service is required", h.live("backups", "create", "--type", "full")...)
	h.fails(exitNotFound, `skytui: no service named "nope-nope"`, h.live("backups", "create", "--service", "nope-nope", "--type", "full")...)
}

// addS3Creds stores S3 bucket credentials named name (access key ID
// AKIAIOSFODNN7EXAMPLE) and returns their secret.
func addS3Creds(t *testing.T, h *harness, name string) string {
	t.Helper()
	const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	if out, err := h.run(secret+"\n", "creds", "add", "s3", name, "--access-key-id", "AKIAIOSFODNN7EXAMPLE", "--region", "eu-west-1"); err != nil {
		t.Fatalf("creds add: %v %s", err, out)
	}
	return secret
}

// A schedule to the user's own bucket says where it writes under -o
// wide's TARGET: in the answer, the listing and the record, and in the
// stand-in for an answer that could not be read (where it was asked to
// go, never managed).
func TestScheduleToABucketShowsItsTarget(t *testing.T) {
	h, sb := newChangeHarness(t)
	addS3Creds(t, h, "nightly")
	const bucket = "s3://acme-exports/orders"
	create := h.live("backups", "create", "--service", sandbox.DemoOrders, "--type", "dump", "--schedule", "0 1 * * *", "--bucket", bucket, "--creds", "nightly", "-o", "wide")
	out := h.ok(create...)
	id := tableRows(out)[1][0]
	for _, out := range []string{
		out,
		h.ok(h.live("schedules", "list", "--service", sandbox.DemoOrders, "-o", "wide")...),
		h.ok(h.live("schedules", "get", id, "-o", "wide")...),
	} {
		if got := cellsUnder(t, out, "ID", "TARGET")[id]; got != bucket {
			t.Errorf("schedule %s TARGET %q, want %s:\n%s", id, got, bucket, out)
		}
	}
	h.fails(exitRefused, "skytui: schedules delete is destructive: pass --yes to delete schedule "+id+" of orders-prod (dump backups, 0 1 * * *, target "+bucket+"; the backups it took stay; nothing was sent)\n", h.live("schedules", "delete", id)...)
	if err := sb.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerUnreadable, Method: "POST", Path: "/skybackup/v1/backups/schedules"}); err != nil {
		t.Fatal(err)
	}
	out, stderr, code := h.script(create...)
	if got := cellsUnder(t, out, "ID", "TARGET")["-"]; code != 0 || got != bucket {
		t.Errorf("an unreadable answer's TARGET %q (exit %d), want %s:\n%s", got, code, bucket, out)
	}
	// stderr names the one check -o json names: a recurring schedule shows
	// in the schedules (it named the backups too)
	if !strings.Contains(stderr, "check with `"+h.sel("skytui schedules list --service orders-prod")+"`") || strings.Contains(stderr, "backups list") {
		t.Errorf("an unreadable answer's check:\n%s", stderr)
	}
}

func TestChangeRestores(t *testing.T) {
	h, sb := newChangeHarness(t)
	posts := func() int { return sb.Stats().Count("POST", "/skybackup/v1/restores") }
	key := newestBackupKey(t, h, sandbox.DemoOrders)
	base := []string{"restores", "create", "--service", sandbox.DemoReplica, "--backup", key}

	// confirmations: refused, nothing sent
	h.fails(exitRefused, "skytui: a restore (it stops the target and erases all its data) is destructive: pass --yes", h.live(base...)...)
	h.fails(exitRefused, "skytui: a restore needs --confirm with the target service's exact name: pass --confirm replica-west (nothing was sent)", h.live(append(base, "--yes")...)...)
	h.fails(exitRefused, `skytui: a restore: --confirm "orders-prod" does not match the target service's name: pass --confirm replica-west (nothing was sent)`,
		h.live(append(base, "--yes", "--confirm", sandbox.DemoOrders)...)...)
	h.fails(exitRefused, `skytui: a restore: --confirm "Replica-West" does not match`, h.live(append(base, "--yes", "--confirm", "Replica-West")...)...)
	// sources
	h.fails(exitUsage, "skytui: give exactly one source", h.live("restores", "create", "--service", sandbox.DemoReplica, "--yes", "--confirm", sandbox.DemoReplica)...)
	h.fails(exitUsage, "skytui: invalid request: --bucket (external_source.bucket): must end with a trailing slash", h.live("restores", "create", "--service", sandbox.DemoReplica,
		"--bucket", "gs://acme-exports", "--file", "b.gz", "--method", "mariabackup", "--creds", "x", "--yes", "--confirm", sandbox.DemoReplica)...)
	h.fails(exitNotFound, `skytui: no backup with the key "000000000000"`, h.live("restores", "create", "--service", sandbox.DemoReplica, "--backup", "000000000000", "--yes", "--confirm", sandbox.DemoReplica)...)
	// across providers: refused with the documented way
	gcpKey := newestBackupKey(t, h, sandbox.DemoAnalytics)
	stderr := h.fails(exitUsage, "skytui: --backup: backup ", h.live("restores", "create", "--service", sandbox.DemoReplica, "--backup", gcpKey, "--yes", "--confirm", sandbox.DemoReplica)...)
	if !strings.Contains(stderr, "only within the same cloud provider") || !strings.Contains(stderr, "copy the folder to an s3:// bucket, then restore") {
		t.Errorf("cross provider: %s", stderr)
	}
	// to Azure: a bucket kind --bucket takes, not "a bucket on azure"
	stderr = h.fails(exitUsage, "skytui: --backup: backup ", h.live("restores", "create", "--service", sandbox.DemoStaging, "--backup", key, "--yes", "--confirm", sandbox.DemoStaging)...)
	if !strings.Contains(stderr, "runs on azure") || !strings.Contains(stderr, "copy the folder to a gs:// or s3:// bucket (--bucket takes no other kind)") || strings.Contains(stderr, "bucket on azure") {
		t.Errorf("cross provider to azure: %s", stderr)
	}
	if posts() != 0 {
		t.Fatalf("%d restores sent by refused commands", posts())
	}

	// by the short key, followed to the end
	stdout, stderr, code := h.script(h.live(append(base[:4], "--backup", key[:12], "--yes", "--confirm", sandbox.DemoReplica, "--wait", "--poll-interval", "20ms", "-o", "json")...)...)
	if code != 0 || !strings.HasPrefix(stderr, "skytui: restore 3 into replica-west succeeded: its default username and password are now the source service's") {
		t.Fatalf("--wait: exit %d\n%s", code, stderr)
	}
	r := decodeJSON[map[string]any](t, stdout)
	if r["status"] != "Succeeded" || r["service_id"] != serviceID(t, h, sandbox.DemoReplica) {
		t.Errorf("after --wait: %v", r)
	}
	if posts() != 1 {
		t.Fatalf("%d POSTs, want 1", posts())
	}

	// started without waiting, then deleted
	out := h.ok(h.live(append(base, "--yes", "--confirm", sandbox.DemoReplica, "--no-headers")...)...)
	f := strings.Fields(out)
	if len(f) < 3 || f[1] != sandbox.DemoReplica || f[2] != "Running" {
		t.Fatalf("restore table: %q", out)
	}
	id := f[0]
	h.fails(exitRefused, "skytui: restores delete is destructive: pass --yes", h.live("restores", "delete", id)...)
	h.fails(exitRefused, "skytui: restores delete: --confirm \"staging-eu\" does not match the target service's name: pass --confirm replica-west", h.live("restores", "delete", id, "--yes", "--confirm", sandbox.DemoStaging)...)
	if n := sb.Stats().Count("DELETE", "/skybackup/v1/restores/{id}"); n != 0 {
		t.Fatalf("%d DELETEs before the confirmation matched", n)
	}
	del := decodeJSON[map[string]any](t, h.ok(h.live("restores", "delete", id, "--yes", "--confirm", sandbox.DemoReplica, "-o", "json")...))
	if del["deleted"] != true || strconv.FormatFloat(del["id"].(float64), 'f', 0, 64) != id {
		t.Errorf("delete: %v", del)
	}
	h.fails(exitNotFound, "skytui: 404 Not Found", h.live("restores", "delete", "987654", "--yes", "--confirm", sandbox.DemoReplica)...)
	h.fails(exitNotFound, "skytui: 404 Not Found", h.live("wait", "restore", "987654")...)
}

// TestRestoreRefusesUnrestorableBackup: a managed backup the listing says
// is still running, failed, or in the user's own bucket is refused before
// anything is sent (exit 2), naming the backup and why, as the TUI's
// wizard refuses it.
func TestRestoreRefusesUnrestorableBackup(t *testing.T) {
	// a clock that stands still: the running backup stays running
	h, sb := serveHarness(t, sandbox.Options{DemoData: true, Seed: 7, Clock: sandbox.NewManualClock(testenv.T0)}, goodKey)
	bs := decodeJSON[[]map[string]any](t, h.ok(h.live("backups", "list", "-o", "json")...))
	want := map[string]string{
		"Running": " is still running; only a completed backup can be restored (nothing was sent)\n",
		"Failed":  " failed; only a completed backup can be restored (nothing was sent)\n",
		"own":     ", not to managed storage: restore it with the own-bucket source (--bucket URI --file F --method M --creds NAME) (nothing was sent)\n",
	}
	tried := map[string]bool{}
	for _, b := range bs {
		kind, _ := b["status"].(string)
		if ext, _ := b["is_external_storage"].(bool); ext && kind != "Running" && kind != "Failed" {
			kind = "own"
		}
		if want[kind] == "" || tried[kind] {
			continue
		}
		tried[kind] = true
		// by its short key and by its full key alike
		for _, ref := range []string{b["id"].(string)[:12], b["id"].(string)} {
			stderr := h.fails(exitUsage, "skytui: --backup: backup "+b["id"].(string)[:12], h.live("restores", "create", "--service", sandbox.DemoReplica, "--backup", ref, "--yes", "--confirm", sandbox.DemoReplica)...)
			if !strings.HasSuffix(stderr, want[kind]) {
				t.Errorf("%s backup %s: stderr %q, want it to end %q", kind, ref, stderr, want[kind])
			}
		}
	}
	if len(tried) != len(want) {
		t.Fatalf("the demo has no backup of each kind: %v", tried)
	}
	if n := sb.Stats().Count("POST", "/skybackup/v1/restores"); n != 0 {
		t.Fatalf("%d restores sent for backups that cannot be restored", n)
	}
}

// TestChangeOutcomes: a change whose answer was lost is "outcome unknown"
// with the command to check, exit 1; a 2xx answer nobody can read is an
// accepted change, exit 0.
func TestChangeOutcomes(t *testing.T) {
	h, sb := newChangeHarness(t)
	key := newestBackupKey(t, h, sandbox.DemoOrders)
	restore := h.live("restores", "create", "--service", sandbox.DemoReplica, "--backup", key, "--yes", "--confirm", sandbox.DemoReplica)

	if err := sb.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerDropped, Method: "POST", Path: "/skybackup/v1/restores"}); err != nil {
		t.Fatal(err)
	}
	stderr := h.fails(exitFailed, "skytui: outcome unknown: ", restore...)
	if !strings.Contains(stderr, "check with `"+h.sel("skytui restores list --service replica-west")+"` before sending it again") {
		t.Errorf("outcome unknown: %s", stderr)
	}
	for _, bad := range []string{"retry", "try again", "refused"} {
		if strings.Contains(strings.ToLower(stderr), bad) {
			t.Errorf("outcome unknown says %q: %s", bad, stderr)
		}
	}
	if n := sb.Stats().Count("POST", "/skybackup/v1/restores"); n != 1 {
		t.Fatalf("the POST was sent %d times", n)
	}
	// it was carried out: follow it to its end before the next one
	rs := decodeJSON[[]map[string]any](t, h.ok(h.live("restores", "list", "--service", sandbox.DemoReplica, "-o", "json")...))
	var newest float64
	for _, r := range rs {
		newest = max(newest, r["id"].(float64))
	}
	h.ok(h.live("wait", "restore", strconv.FormatFloat(newest, 'f', 0, 64), "--poll-interval", "20ms")...)

	if err := sb.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerUnreadable, Method: "POST", Path: "/skybackup/v1/restores"}); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := h.script(append(restore, "--wait", "--poll-interval", "20ms", "-o", "json")...)
	if code != 0 || !strings.HasPrefix(stderr, "skytui: accepted; the answer could not be read: ") {
		t.Fatalf("unreadable: exit %d\n%s", code, stderr)
	}
	if r := decodeJSON[map[string]any](t, stdout); r["status"] != "Succeeded" {
		t.Errorf("followed after an unreadable answer: %v", r)
	}

	if err := sb.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerDropped, Method: "POST", Path: "/provisioning/v1/services/{id}/security/allowlist"}); err != nil {
		t.Fatal(err)
	}
	stderr = h.fails(exitFailed, "skytui: outcome unknown: ", h.live("allowlist", "add", sandbox.DemoOrders, "192.0.2.0/24")...)
	if !strings.Contains(stderr, "check with `"+h.sel("skytui allowlist list orders-prod")+"`") {
		t.Errorf("allowlist outcome unknown: %s", stderr)
	}
}

func TestChangeCompletion(t *testing.T) {
	h, sb := newChangeHarness(t)
	complete := func(args ...string) string {
		t.Helper()
		stdout, _, code := h.script(args...)
		if code != 0 {
			t.Fatalf("%v: exit %d", args, code)
		}
		return stdout
	}
	flags := []string{"--profile", "skysql", "--api-url", h.url}
	out := complete(append(append([]string{"__complete", "services", "get"}, flags...), "orders")...)
	if !strings.Contains(out, sandbox.DemoOrders+"\n") || strings.Contains(out, sandbox.DemoAnalytics) {
		t.Errorf("complete services get:\n%s", out)
	}
	listed := sb.Stats().Count("GET", "/provisioning/v1/services")
	out = complete(append(append([]string{"__complete", "backups", "create"}, flags...), "--service", "")...)
	if !strings.Contains(out, sandbox.DemoAnalytics) || !strings.Contains(out, sandbox.DemoOrders) {
		t.Errorf("complete --service:\n%s", out)
	}
	if n := sb.Stats().Count("GET", "/provisioning/v1/services"); n != listed {
		t.Errorf("the second completion asked the API again (%d listings)", n-listed)
	}
	for _, sh := range []string{"bash", "zsh", "fish"} {
		if out := h.ok("completion", sh); !strings.Contains(out, "skytui") {
			t.Errorf("completion %s:\n%.200s", sh, out)
		}
	}
}

// dailySchedule is the ID of orders-prod's daily cron schedule (demo
// data), read through the skysql profile.
func dailySchedule(t *testing.T, h *harness) string {
	t.Helper()
	return dailyScheduleOf(t, h, h.live())
}

// dailyScheduleOf is dailySchedule read through profile p (prefixes).
func dailyScheduleOf(t *testing.T, h *harness, p []string) string {
	t.Helper()
	for _, s := range decodeJSON[[]map[string]any](t, h.ok(args(p, "schedules", "list", "--service", sandbox.DemoOrders, "-o", "json")...)) {
		if s["cron"] == "0 3 * * *" {
			return strconv.FormatFloat(s["id"].(float64), 'f', 0, 64)
		}
	}
	t.Fatal("orders-prod has no daily schedule at 03:00")
	return ""
}

func TestChangeSchedules(t *testing.T) {
	h, sb := newChangeHarness(t)
	id := dailySchedule(t, h)
	patches := func() int { return sb.Stats().Count("PATCH", "/skybackup/v1/backups/schedules/{id}") }

	got := decodeJSON[map[string]any](t, h.ok(h.live("schedules", "get", id, "-o", "json")...))
	if got["cron"] != "0 3 * * *" || got["suspended"] != false {
		t.Fatalf("get: %v", got)
	}
	h.fails(exitNotFound, "skytui: 404 Not Found", h.live("schedules", "get", "987654")...)
	h.fails(exitUsage, `skytui: schedule ID "x": must be a positive number`, h.live("schedules", "get", "x")...)

	// the rules, before anything is sent: exit 2 naming flag, field and rule
	h.fails(exitUsage, "skytui: invalid request: --cron (schedule): must be a 5-field cron expression: a cron expression has 5 fields", h.live("schedules", "edit", id, "--cron", "0 3 * *")...)
	h.fails(exitUsage, "skytui: invalid request: --cron (schedule): must be a 5-field cron expression: invalid cron expression", h.live("schedules", "edit", id, "--cron", "0 24 * * *")...)
	h.fails(exitUsage, "skytui: nothing to change: give --cron, --type, --suspend or --resume", h.live("schedules", "edit", id)...)
	h.fails(exitUsage, "skytui: --suspend and --resume: give one of them", h.live("schedules", "edit", id, "--suspend", "--resume")...)
	if patches() != 0 {
		t.Fatalf("%d PATCHes sent by refused edits", patches())
	}

	// a new time, then suspended and resumed
	out := h.ok(h.live("schedules", "edit", id, "--cron", "30 4 * * 1-5", "--no-headers")...)
	if f := strings.Fields(out); len(f) < 3 || f[0] != id || f[2] != "30" {
		t.Errorf("edit table: %q", out)
	}
	if got := decodeJSON[map[string]any](t, h.ok(h.live("schedules", "get", id, "-o", "json")...)); got["cron"] != "30 4 * * 1-5" {
		t.Errorf("after edit: %v", got)
	}
	if got := decodeJSON[map[string]any](t, h.ok(h.live("schedules", "edit", id, "--suspend", "-o", "json")...)); got["suspended"] != true {
		t.Errorf("after --suspend: %v", got)
	}
	if got := decodeJSON[map[string]any](t, h.ok(h.live("schedules", "edit", id, "--resume", "-o", "json")...)); got["suspended"] != false {
		t.Errorf("after --resume: %v", got)
	}
	if patches() != 3 {
		t.Errorf("%d PATCHes, want 3", patches())
	}

	// a lost answer: outcome unknown, with the command that shows it
	if err := sb.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerDropped, Method: "PATCH", Path: "/skybackup/v1/backups/schedules/{id}"}); err != nil {
		t.Fatal(err)
	}
	stderr := h.fails(exitFailed, "skytui: outcome unknown: ", h.live("schedules", "edit", id, "--suspend")...)
	if !strings.Contains(stderr, "check with `"+h.sel("skytui schedules get "+id)+"` before sending it again") {
		t.Errorf("outcome unknown: %s", stderr)
	}

	// delete: --yes, then gone
	deletes := func() int { return sb.Stats().Count("DELETE", "/skybackup/v1/backups/schedules/{id}") }
	// without --yes the refusal names what would be deleted; an unknown
	// schedule is not found
	h.fails(exitRefused, "skytui: schedules delete is destructive: pass --yes to delete schedule "+id+" of orders-prod (full backups, 30 4 * * 1-5, target managed; the backups it took stay; nothing was sent)\n", h.live("schedules", "delete", id)...)
	h.fails(exitNotFound, "skytui: 404 Not Found", h.live("schedules", "delete", "987654")...)
	if deletes() != 0 {
		t.Fatalf("%d DELETEs without --yes", deletes())
	}
	del := decodeJSON[map[string]any](t, h.ok(h.live("schedules", "delete", id, "--yes", "-o", "json")...))
	if del["deleted"] != true {
		t.Errorf("delete: %v", del)
	}
	h.fails(exitNotFound, "skytui: 404 Not Found", h.live("schedules", "get", id)...)
	h.fails(exitNotFound, "skytui: 404 Not Found", h.live("schedules", "delete", id, "--yes")...)
}

func TestChangeSchedulesReadOnly(t *testing.T) {
	h, sb := newChangeHarness(t)
	id := dailySchedule(t, h)
	body := "[[profile]]\nname = \"audit\"\nbase_url = \"" + h.url + "\"\nbackup_prefix = \"/skybackup/v1\"\nread_only = true\n"
	if err := os.WriteFile(h.cfgPath, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	before := tuitest.Changes(sb)
	h.fails(exitRefused, "skytui: profile audit is read-only: schedules edit refused, nothing was sent", "schedules", "edit", id, "--suspend", "--profile", "audit")
	h.fails(exitRefused, "skytui: profile audit is read-only: schedules delete refused, nothing was sent", "schedules", "delete", id, "--yes", "--profile", "audit")
	h.fails(exitRefused, "skytui: --read-only: schedules edit refused", h.live("schedules", "edit", id, "--resume", "--read-only")...)
	if n := tuitest.Changes(sb) - before; n != 0 {
		t.Fatalf("read-only sent %d changes", n)
	}
	if out := h.ok("schedules", "get", id, "--profile", "audit"); !strings.HasPrefix(out, "ID") {
		t.Errorf("schedules get on a read-only profile:\n%s", out)
	}
}

// The restore an accepted but unread answer started is looked for among
// the target's running restores: of the backup restored when the listing
// names backups, never a restore of another one.
func TestNewestRunningRestoreOfTheBackup(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `[{"id":5,"service_id":"dbtgf00000001","key":"other-backup","status":"Running"},`+
			`{"id":4,"service_id":"dbtgf00000001","key":"the-backup","status":"Running"},`+
			`{"id":3,"service_id":"dbtgf00000001","status":"Running"}]`)
	}))
	t.Cleanup(srv.Close)
	c, err := api.New(api.Config{BaseURL: srv.URL, APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	for key, want := range map[string]int64{"the-backup": 4, "": 5, "unlisted-backup": 3} {
		if id, err := newestRunningRestore(context.Background(), c, "dbtgf00000001", key, "skytui restores list"); err != nil || id != want {
			t.Errorf("key %q: restore %d (%v), want %d", key, id, err, want)
		}
	}
}

// TestNegativeTimeoutIsUsage: a --timeout that is not positive is refused
// as the flag is parsed (exit 2, naming --timeout and the rule, nothing
// sent), never taken as "no timeout".
func TestNegativeTimeoutIsUsage(t *testing.T) {
	h, sb := newChangeHarness(t)
	for _, a := range [][]string{
		{"wait", "restore", "1", "--timeout", "-5s"},
		{"wait", "service", sandbox.DemoOrders, "--timeout=-1s"},
		{"services", "stop", sandbox.DemoOrders, "--yes", "--wait", "--timeout", "0"},
		{"replication", "setup", sandbox.DemoReplica, "--primary", sandbox.DemoOrders, "--yes", "--confirm", sandbox.DemoReplica, "--timeout", "-1m"},
	} {
		stderr := h.fails(exitUsage, "skytui: invalid argument ", h.live(a...)...)
		if !strings.Contains(stderr, `for "--timeout" flag: must be positive, such as 30m, 2h or 90s`) {
			t.Errorf("%v: %s", a, stderr)
		}
	}
	h.fails(exitUsage, "skytui: invalid argument \"soon\" for \"--timeout\" flag: must be a duration such as 30m, 2h or 90s\n", h.live("wait", "restore", "1", "--timeout", "soon")...)
	if n := tuitest.Changes(sb); n != 0 {
		t.Fatalf("%d changes sent", n)
	}
}

// An allow-list comment on a service whose endpoints list different
// addresses is refused before the change is sent: exit 3, no PUT.
func TestAllowListCommentRefusedWhenEndpointsDiffer(t *testing.T) {
	h, sb := newChangeHarness(t)
	h.front(func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/security/allowlist") {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `[{"name":"primary","allow_list":[{"ip":"203.0.113.10/32"}]},{"name":"replica","allow_list":[]}]`)
			return
		}
		next.ServeHTTP(w, r)
	})
	h.fails(exitRefused, "skytui: the service's endpoints have different allow lists",
		h.live("allowlist", "add", sandbox.DemoOrders, "192.0.2.61", "--comment", "vpn")...)
	if n := sb.Stats().Count("PUT", "/provisioning/v1/services/{id}/security/allowlist"); n != 0 {
		t.Fatalf("%d PUTs sent", n)
	}
}

// TestTimeoutHelpNamesWaitOnlyWithWait: --timeout's help says "with
// --wait" only on the commands that have --wait; on wait service|restore
// and replication setup it applies by itself.
func TestTimeoutHelpNamesWaitOnlyWithWait(t *testing.T) {
	h := newScriptHarness(t)
	n := 0
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if f := c.Flags().Lookup("timeout"); f != nil {
			n++
			hasWait := c.Flags().Lookup("wait") != nil
			if mentions := strings.Contains(f.Usage, "--wait"); mentions != hasWait {
				t.Errorf("%s: --timeout says %q (has --wait: %v)", c.CommandPath(), f.Usage, hasWait)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(h.newEnv("", io.Discard, io.Discard)))
	if n < 10 {
		t.Errorf("only %d commands take --timeout", n)
	}
}

// TestCreateNameTakenAndListingsUnread: a name another service has is
// refused (exit 2, naming its ID) unless --allow-duplicate-name; a listing
// that cannot be read does not stop the create: it is said on stderr and
// the API judges that choice.
func TestCreateNameTakenAndListingsUnread(t *testing.T) {
	h, sb := newChangeHarness(t)
	posts := func() int { return sb.Stats().Count("POST", "/provisioning/v1/services") }
	base := []string{"services", "create", "--provider", "aws", "--region", "us-east-1", "--topology", "es-single", "--size", "sky-2x8", "--storage", "100"}
	id := serviceID(t, h, sandbox.DemoAnalytics)
	h.fails(exitUsage, "skytui: --name "+sandbox.DemoAnalytics+": service "+id+" is named "+sandbox.DemoAnalytics+" already, and commands that take a name would then need the ID; pass --allow-duplicate-name to create another (nothing was sent)\n",
		h.live(append(base, "--name", sandbox.DemoAnalytics)...)...)
	if posts() != 0 {
		t.Fatalf("%d POSTs for a name taken", posts())
	}
	h.ok(h.live(append(base, "--name", sandbox.DemoAnalytics, "--allow-duplicate-name")...)...)
	if posts() != 1 {
		t.Fatalf("%d POSTs with --allow-duplicate-name, want 1", posts())
	}
	// a third of that name whose answer cannot be read: --wait follows the
	// one that was not there before, not one of the two that were
	olds := map[string]bool{}
	for _, s := range decodeJSON[[]map[string]any](t, h.ok(h.live("services", "list", "-o", "json")...)) {
		if s["name"] == sandbox.DemoAnalytics {
			olds[s["id"].(string)] = true
		}
	}
	if err := sb.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerUnreadable, Method: "POST", Path: "/provisioning/v1/services"}); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := h.script(h.live(append(base, "--name", sandbox.DemoAnalytics, "--allow-duplicate-name", "--wait", "--poll-interval", "20ms", "-o", "json")...)...)
	if code != 0 || !strings.HasPrefix(stderr, "skytui: accepted; the answer could not be read: ") {
		t.Fatalf("unreadable create --wait: exit %d\n%s", code, stderr)
	}
	if got := decodeJSON[map[string]any](t, stdout); len(olds) != 2 || olds[fmt.Sprint(got["id"])] || got["status"] != "ready" {
		t.Fatalf("followed %v (the services named so before: %v)", got, olds)
	}

	// the regions and the services cannot be read: said, and sent anyway;
	// the API refuses the region itself (exit 1)
	h.front(func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if r.Method == http.MethodGet && (r.URL.Path == "/provisioning/v1/regions" || r.URL.Path == "/provisioning/v1/services") {
			http.Error(w, `{"detail":"not here"}`, http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
	stdout, stderr, code = h.script(h.live(append(base, "--name", "cli-unread")...)...)
	for _, want := range []string{
		"skytui: services create: the regions of aws could not be read (403 Forbidden",
		"--region is not checked here: the API judges it\n",
		"skytui: services create: the services could not be read (403 Forbidden",
		"--name is not checked against them\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if code != 0 || !strings.Contains(stdout, "cli-unread") || posts() != 3 {
		t.Errorf("exit %d, %d POSTs\n%s", code, posts(), stdout)
	}
	_, stderr, code = h.script(h.live(append(base, "--name", "cli-unread2", "--region", "xx-1")...)...)
	if code != exitFailed || !strings.Contains(stderr, "the API judges it") || !strings.Contains(stderr, `unknown region "xx-1"`) || posts() != 4 {
		t.Errorf("unchecked bad region: exit %d, %d POSTs\n%s", code, posts(), stderr)
	}
}

// TestChangeAnswerReported: the four changes that answer a record
// (services create, backups create, restores create, schedules edit)
// report that answer alike: an answer that never came is "outcome
// unknown" naming the command that shows what happened (exit 1); an
// accepted answer that could not be read is said on stderr and the change
// stands (exit 0; under -o json not a record made up from the request but
// an object that says it was accepted and what the request named); a request rule the client refuses
// names the flag (exit 2, nothing sent).
func TestChangeAnswerReported(t *testing.T) {
	h, sb := newChangeHarness(t)
	sched := dailySchedule(t, h)
	key := newestBackupKey(t, h, sandbox.DemoOrders)
	create := []string{"services", "create", "--provider", "aws", "--region", "us-east-1", "--topology", "es-single", "--size", "sky-2x8", "--storage", "100"}
	const (
		unread  = " (trace T): invalid character '<' looking for beginning of value"
		dropped = "skytui: outcome unknown: the request was sent and no answer came back: EOF "
	)
	for _, c := range []struct {
		name         string
		fault        sandbox.AfterFault
		method, path string
		args         []string
		code         int
		stderr       string
		json         map[string]any // fields of -o json's record
	}{
		{"services create, unreadable", sandbox.AnswerUnreadable, "POST", "/provisioning/v1/services",
			append(create, "--name", "cli-unread", "-o", "json"), 0,
			"skytui: accepted; the answer could not be read: 202 answer to POST /provisioning/v1/services" + unread,
			map[string]any{"accepted": true, "answer": "unreadable", "name": "cli-unread", "check": h.sel("skytui services get cli-unread")}},
		{"services create, unreadable, table", sandbox.AnswerUnreadable, "POST", "/provisioning/v1/services",
			append(create, "--name", "cli-unread-t"), 0,
			"skytui: accepted; the answer could not be read: 202 answer to POST /provisioning/v1/services" + unread + "; check with `" + h.sel("skytui services get cli-unread-t") + "`\n", nil},
		{"services create, dropped", sandbox.AnswerDropped, "POST", "/provisioning/v1/services",
			append(create, "--name", "cli-dropped", "-o", "json"), exitFailed,
			dropped + "(POST /provisioning/v1/services); it may have been carried out: check with `" + h.sel("skytui services get cli-dropped") + "` before sending it again\n", nil},
		{"backups create, unreadable", sandbox.AnswerUnreadable, "POST", "/skybackup/v1/backups/schedules",
			[]string{"backups", "create", "--service", sandbox.DemoOrders, "--type", "dump", "-o", "json"}, 0,
			"skytui: accepted; the answer could not be read: 200 answer to POST /skybackup/v1/backups/schedules" + unread,
			map[string]any{"accepted": true, "answer": "unreadable", "service": "orders-prod", "type": "dump", "schedule": "once", "check": h.sel("skytui backups list --service orders-prod")}},
		{"backups create --schedule CRON, unreadable", sandbox.AnswerUnreadable, "POST", "/skybackup/v1/backups/schedules",
			[]string{"backups", "create", "--service", sandbox.DemoOrders, "--type", "dump", "--schedule", "0 1 * * *", "-o", "json"}, 0,
			"skytui: accepted; the answer could not be read: 200 answer to POST /skybackup/v1/backups/schedules" + unread,
			// a recurring schedule shows in the schedules, not yet in the backups
			map[string]any{"accepted": true, "answer": "unreadable", "service": "orders-prod", "schedule": "0 1 * * *", "check": h.sel("skytui schedules list --service orders-prod")}},
		{"backups create, unreadable, table", sandbox.AnswerUnreadable, "POST", "/skybackup/v1/backups/schedules",
			[]string{"backups", "create", "--service", sandbox.DemoOrders, "--type", "dump"}, 0,
			"skytui: accepted; the answer could not be read: 200 answer to POST /skybackup/v1/backups/schedules" + unread, nil},
		{"backups create, dropped", sandbox.AnswerDropped, "POST", "/skybackup/v1/backups/schedules",
			[]string{"backups", "create", "--service", sandbox.DemoOrders, "--type", "dump", "-o", "json"}, exitFailed,
			dropped + "(POST /skybackup/v1/backups/schedules); it may have been carried out: check with `" + h.sel("skytui backups list --service orders-prod") + "` and `" + h.sel("skytui schedules list --service orders-prod") + "` before sending it again\n", nil},
		{"restores create, unreadable", sandbox.AnswerUnreadable, "POST", "/skybackup/v1/restores",
			[]string{"restores", "create", "--service", sandbox.DemoReplica, "--backup", key, "--yes", "--confirm", sandbox.DemoReplica, "-o", "json"}, 0,
			"skytui: accepted; the answer could not be read: ",
			map[string]any{"accepted": true, "answer": "unreadable", "service": "replica-west", "backup": key, "check": h.sel("skytui restores list --service replica-west")}},
		{"schedules edit, unreadable", sandbox.AnswerUnreadable, "PATCH", "/skybackup/v1/backups/schedules/{id}",
			[]string{"schedules", "edit", sched, "--cron", "0 4 * * *", "-o", "json"}, 0,
			"skytui: accepted; the answer could not be read: 200 answer to PATCH /skybackup/v1/backups/schedules/" + sched + unread,
			map[string]any{"accepted": true, "answer": "unreadable", "cron": "0 4 * * *"}},
		{"schedules edit, unreadable, a table", sandbox.AnswerUnreadable, "PATCH", "/skybackup/v1/backups/schedules/{id}",
			[]string{"schedules", "edit", sched, "--cron", "0 6 * * *"}, 0,
			"skytui: accepted; the answer could not be read: 200 answer to PATCH /skybackup/v1/backups/schedules/" + sched + unread + "; check with `" + h.sel("skytui schedules get "+sched) + "`\n", nil},
		{"schedules edit, dropped", sandbox.AnswerDropped, "PATCH", "/skybackup/v1/backups/schedules/{id}",
			[]string{"schedules", "edit", sched, "--cron", "0 5 * * *"}, exitFailed,
			dropped + "(PATCH /skybackup/v1/backups/schedules/" + sched + "); it may have been carried out: check with `" + h.sel("skytui schedules get "+sched) + "` before sending it again\n", nil},
		{"schedules edit, a type the live service does not take", "", "", "",
			[]string{"schedules", "edit", sched, "--type", "logical"}, exitUsage,
			"skytui: invalid request: --type (backup_type): the live service takes full, incremental, binarylog, dump or snapshot: its logical (SQL) backup is dump (nothing was sent)\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.fault != "" {
				if err := sb.ArmFault(sandbox.ArmedFault{Kind: c.fault, Method: c.method, Path: c.path}); err != nil {
					t.Fatal(err)
				}
			}
			patches := sb.Stats().Count("PATCH", "/skybackup/v1/backups/schedules/{id}")
			stdout, stderr, code := h.script(h.live(c.args...)...)
			// the answer's trace ID, whatever the sandbox made it
			stderr = regexp.MustCompile(`\(trace [0-9a-f]+\)`).ReplaceAllString(stderr, "(trace T)")
			switch {
			case code != c.code:
				t.Errorf("exit %d, want %d\n%s", code, c.code, stderr)
			case c.code != 0 && stdout != "":
				t.Errorf("stdout on an error:\n%s", stdout)
			case !strings.HasPrefix(stderr, c.stderr) || strings.Count(stderr, "\n") != 1:
				t.Errorf("stderr\n%q, want\n%q", stderr, c.stderr)
			}
			if c.code == 0 && c.json == nil {
				// a table: the status the client cannot know is unknown,
				// not its stand-in's
				if rows := tableRows(stdout); len(rows) != 2 || !slices.Contains(rows[1], "unknown") {
					t.Errorf("table of an unreadable answer:\n%s", stdout)
				}
				// a service's table says what the request named (it said
				// "-" for the provider, region, size and nodes)
				if c.args[0] == "services" && !strings.Contains(strings.Join(tableRows(stdout)[1], " "), "aws/us-east-1") {
					t.Errorf("service table of an unreadable answer:\n%s", stdout)
				}
				// a schedule's table says what was sent, the rest unknown
				if c.args[0] == "schedules" && strings.Join(tableRow(stdout, sched), " ") != sched+" unknown 0 6 * * * unknown unknown" {
					t.Errorf("schedule table of an unreadable answer:\n%s", stdout)
				}
			}
			if c.code == 0 && c.json != nil {
				got := decodeJSON[map[string]any](t, stdout)
				for k, v := range c.json {
					if got[k] != v {
						t.Errorf("-o json %s = %v, want %v (%v)", k, got[k], v, got)
					}
				}
				// an unread answer is no record: nothing a script could
				// take for the server's ID or status
				for _, k := range []string{"id", "status"} {
					if _, has := got[k]; has && c.json["accepted"] == true {
						t.Errorf("-o json of an unreadable answer has %q: %v", k, got)
					}
				}
			}
			if sent := sb.Stats().Count("PATCH", "/skybackup/v1/backups/schedules/{id}") - patches; c.fault == "" && sent != 0 {
				t.Errorf("%d PATCHes sent by a refused request", sent)
			}
		})
	}
}

// TestAnswered: what the four changes share, on answers the sandbox does
// not give them: a refusal naming a field (one the command's own checks
// missed) is that flag's usage error; a refused field no flag sets keeps
// its name; a 404 is exit 4.
func TestAnswered(t *testing.T) {
	var stderr strings.Builder
	e := &env{stderr: &stderr}
	flags := map[string]string{"backup_type": "--type"}
	for _, c := range []struct {
		err  error
		code int
		want string
	}{
		{&api.FieldError{Field: "backup_type", Rule: "is not taken here"}, exitUsage, "invalid request: --type (backup_type): is not taken here (nothing was sent)"},
		{api.ValidationErrors{{Field: "backup_type", Rule: "a"}, {Field: "service_id", Rule: "b"}}, exitUsage, "invalid request: --type (backup_type): a; service_id: b (nothing was sent)"},
		{&api.Error{Method: "PATCH", Path: "/x", Status: 404, Message: "gone"}, exitNotFound, "404 Not Found: gone (PATCH /x)"},
		{&api.Error{Method: "PATCH", Path: "/x", Status: 409, Message: "busy"}, exitFailed, "409 Conflict: busy (PATCH /x)"},
		{&api.Error{Method: "PATCH", Path: "/x", Unknown: true}, exitFailed, "outcome unknown: the request was sent and no answer came back (PATCH /x); it may have been carried out: check with `skytui schedules get 1` before sending it again"},
	} {
		err := e.answered((*api.Schedule)(nil), c.err, flags, "skytui schedules get 1")
		var eb strings.Builder
		if code := reportError(&eb, err); code != c.code || eb.String() != "skytui: "+c.want+"\n" {
			t.Errorf("%v: exit %d %q, want %d %q", c.err, code, eb.String(), c.code, c.want)
		}
	}
	if err := e.answered(&api.Schedule{}, nil, flags, ""); err != nil || stderr.Len() != 0 {
		t.Errorf("a read answer: %v, stderr %q", err, stderr.String())
	}
	sc := &api.Schedule{}
	sc.Unreadable = "200 answer to PATCH /x: not JSON\x1b[2J"
	if err := e.answered(sc, nil, flags, ""); err != nil || stderr.String() != "skytui: accepted; the answer could not be read: 200 answer to PATCH /x: not JSON\n" {
		t.Errorf("an unreadable answer: %v, stderr %q", err, stderr.String())
	}
}

// TestConfirmRefusedOnce: a change that needs --yes and --confirm, given
// neither, is refused once, naming both (exit 3, nothing sent), as services
// delete and restores create are; not first --yes, then --confirm.
func TestConfirmRefusedOnce(t *testing.T) {
	// the clock stands still: a restore running when listed is still
	// running when the delete asks (one finished is refused as such first)
	h, sb := serveHarness(t, sandbox.Options{DemoData: true, Seed: 7, Clock: sandbox.NewManualClock(testenv.T0)}, goodKey)
	rs := decodeJSON[[]map[string]any](t, h.ok(h.live("restores", "list", "--service", sandbox.DemoStaging, "-o", "json")...))
	i := slices.IndexFunc(rs, func(r map[string]any) bool { return r["status"] != "Succeeded" && r["status"] != "Failed" })
	if i < 0 {
		t.Fatalf("staging-eu has no running restore: %v", rs)
	}
	restore := strconv.FormatFloat(rs[i]["id"].(float64), 'f', 0, 64)
	for _, c := range []struct {
		what   string
		target string
		args   []string
	}{
		{"restores delete", sandbox.DemoStaging, []string{"restores", "delete", restore}},
		{"replication setup", sandbox.DemoReplica, []string{"replication", "setup", sandbox.DemoReplica, "--primary", sandbox.DemoOrders}},
		{"services delete", sandbox.DemoStaging, []string{"services", "delete", sandbox.DemoStaging}},
	} {
		h.fails(exitRefused, "skytui: "+c.what+" is destructive: pass --yes --confirm "+c.target+" (the target service's exact name; nothing was sent)\n", h.live(c.args...)...)
	}
	if n := tuitest.Changes(sb); n != 0 {
		t.Fatalf("%d changes sent by refused commands", n)
	}
}

// TestOneTimeJobHintOnTheLiveService: a one-time job's refusal suggests a
// new backup of the type the live service takes (dump, where the demo's
// job was a logical one) and names a service whose name is shared by its
// ID.
func TestOneTimeJobHintOnTheLiveService(t *testing.T) {
	h, _ := serveHarness(t, sandbox.Options{DemoData: true, Seed: 7, Clock: sandbox.NewManualClock(testenv.T0)}, goodKey)
	var job string
	for _, s := range decodeJSON[[]map[string]any](t, h.ok(h.live("schedules", "list", "--service", sandbox.DemoOrders, "-o", "json")...)) {
		if s["schedule"] == "once" {
			if s["type"] != "dump" {
				t.Errorf("the live service's listing names the one-time job %v, want dump", s["type"])
			}
			job = fmt.Sprint(s["id"])
		}
	}
	if job == "" {
		t.Fatal("no one-time job of orders-prod")
	}
	h.fails(exitUsage, "skytui: schedule "+job+" is a one-time job: it cannot be edited, suspended or resumed (nothing was sent); `"+h.sel("skytui backups create --service orders-prod --type dump")+"` takes a new backup",
		h.live("schedules", "edit", job, "--suspend")...)
	id := serviceID(t, h, sandbox.DemoOrders)
	h.ok(h.live("services", "create", "--provider", "aws", "--region", "us-east-1", "--topology", "es-single", "--size", "sky-2x8", "--storage", "100",
		"--name", sandbox.DemoOrders, "--allow-duplicate-name")...)
	h.fails(exitUsage, "skytui: schedule "+job+" is a one-time job: it cannot be edited, suspended or resumed (nothing was sent); `"+h.sel("skytui backups create --service "+id+" --type dump")+"` takes a new backup",
		h.live("schedules", "edit", job, "--suspend")...)
}

// TestAllowListIPv6Spellings: an IPv6 network is found in the allow list
// however it is spelled (capitals, zeros written out): a remove of another
// spelling removes it, and an add of one is "listed already", nothing
// sent. A revoke that exited 4 ("not in the allow list") left it open.
func TestAllowListIPv6Spellings(t *testing.T) {
	h, sb := serveHarness(t, sandbox.Options{DemoData: true, Seed: 7, Clock: sandbox.NewManualClock(testenv.T0)}, goodKey)
	posts := func() int { return sb.Stats().Count("POST", "/provisioning/v1/services/{id}/security/allowlist") }
	h.ok(h.live("allowlist", "add", sandbox.DemoOrders, "2001:db8::/64")...)
	h.ok(h.live("allowlist", "add", sandbox.DemoOrders, "2001:DB8::2")...)
	before := posts()
	if before != 2 {
		t.Fatalf("%d POSTs for two adds", before)
	}
	_, stderr, code := h.script(h.live("allowlist", "add", sandbox.DemoOrders, "2001:0DB8:0000::/64")...)
	if code != 0 || !strings.Contains(stderr, "2001:db8::/64 is in the allow list of orders-prod already: nothing was sent") || posts() != before {
		t.Fatalf("an add of another spelling: exit %d, %q, %d POSTs", code, stderr, posts()-before)
	}
	h.ok(h.live("allowlist", "remove", sandbox.DemoOrders, "2001:DB8:0::/64", "--yes")...)
	h.ok(h.live("allowlist", "remove", sandbox.DemoOrders, "2001:db8:0:0::2/128", "--yes")...)
	if list := string(h.ok(h.live("allowlist", "list", sandbox.DemoOrders)...)); strings.Contains(list, "2001:") {
		t.Fatalf("still listed after the removes:\n%s", list)
	}
}

// TestAcrossProvidersHintNamesTheInterfacesType: the cross-provider
// refusal suggests the logical backup by the name the profile's backup
// interface takes: logical under /backup/v1 (dump, which it suggested,
// that interface refuses), dump on the live service's.
func TestAcrossProvidersHintNamesTheInterfacesType(t *testing.T) {
	h, _ := newChangeHarness(t)
	body := "[[profile]]\nname = \"lab\"\nbase_url = \"" + h.url + "\"\nbackup_prefix = \"/backup/v1\"\n"
	if err := os.WriteFile(h.cfgPath, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	key := newestBackupKey(t, h, sandbox.DemoOrders)
	for profile, typ := range map[string]string{"lab": "logical", "skysql": "dump"} {
		h.fails(exitUsage, "", "restores", "create", "--service", sandbox.DemoStaging, "--backup", key, "--yes", "--confirm", sandbox.DemoStaging, "--profile", profile, "--api-url", h.url)
		_, stderr, _ := h.script("restores", "create", "--service", sandbox.DemoStaging, "--backup", key, "--yes", "--confirm", sandbox.DemoStaging, "--profile", profile, "--api-url", h.url)
		if !strings.Contains(stderr, "--type "+typ+" --bucket BUCKET --creds NAME") {
			t.Errorf("profile %s: %s", profile, stderr)
		}
	}
}

// TestCreateAllowTwiceRefused: one network given twice to --allow, however
// spelled, is refused before sending (exit 2); the API answered 400.
func TestCreateAllowTwiceRefused(t *testing.T) {
	h, sb := newChangeHarness(t)
	_, stderr, code := h.script(h.live("services", "create", "--provider", "aws", "--region", "us-east-1", "--topology", "es-single", "--size", "sky-2x8",
		"--storage", "100", "--name", "cli-twice", "--allow", "10.1.1.1,10.1.1.1/32")...)
	if code != exitUsage || !strings.Contains(stderr, "10.1.1.1/32 is listed twice") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := sb.Stats().Count("POST", "/provisioning/v1/services"); n != 0 {
		t.Fatalf("%d POSTs", n)
	}
}
