package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/sandbox"
)

// newScriptHarness serves the sandbox with its demo data on loopback and
// gives the commands the key through SKYSQL_API_KEY (never argv).
func newScriptHarness(t *testing.T) *harness {
	t.Helper()
	h, _ := serveHarness(t, sandbox.Options{DemoData: true, Seed: 7}, goodKey)
	return h
}

// prefixes are the two backup interfaces: the live one (the skysql preset,
// /skybackup/v1) and the interface document's (/backup/v1: profile lab).
func (h *harness) prefixes() map[string][]string {
	h.addProfile("lab")
	return map[string][]string{
		"live":      {"--profile", "skysql", "--api-url", h.url},
		"interface": {"--profile", "lab", "--api-url", h.url},
	}
}

// script runs a command as main does: the error printed on stderr as
// "skytui: …", and the exit status.
func (h *harness) script(args ...string) (stdout, stderr string, code int) {
	h.t.Helper()
	stdout, stderr, err := h.runSplit(args...)
	var eb bytes.Buffer
	code = reportError(&eb, err)
	stderr += eb.String()
	if strings.Contains(stdout+stderr, goodKey) {
		h.t.Fatalf("%v: the API key was printed", args)
	}
	return stdout, stderr, code
}

// ok runs a command that must succeed and returns its stdout.
func (h *harness) ok(args ...string) string {
	h.t.Helper()
	stdout, stderr, code := h.script(args...)
	if code != 0 || stderr != "" {
		h.t.Fatalf("%v: exit %d\nstderr: %s", args, code, stderr)
	}
	return stdout
}

// fails runs a command that must fail with code, one line on stderr
// starting with want, and nothing on stdout.
func (h *harness) fails(code int, want string, args ...string) string {
	h.t.Helper()
	stdout, stderr, got := h.script(args...)
	if got != code {
		h.t.Errorf("%v: exit %d, want %d\nstderr: %s", args, got, code, stderr)
	}
	if stdout != "" {
		h.t.Errorf("%v: stdout must be empty on an error, got:\n%s", args, stdout)
	}
	if !strings.HasPrefix(stderr, want) || strings.Count(stderr, "\n") != 1 {
		h.t.Errorf("%v: stderr %q, want one line starting %q", args, stderr, want)
	}
	return stderr
}

func decodeJSON[T any](t *testing.T, s string) T {
	t.Helper()
	var v T
	dec := json.NewDecoder(strings.NewReader(s))
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
	if dec.More() {
		t.Fatalf("more than one JSON document:\n%s", s)
	}
	return v
}

func args(base []string, more ...string) []string {
	return append(append([]string{}, more...), base...)
}

// listedOfOne decodes the JSON of a list with --service: it must list
// something, and all of it of one service.
func listedOfOne(t *testing.T, out string) []map[string]any {
	t.Helper()
	list := decodeJSON[[]map[string]any](t, out)
	if len(list) == 0 {
		t.Fatal("--service: nothing listed (the demo has some)")
	}
	for _, r := range list {
		if r["service_id"] != list[0]["service_id"] {
			t.Errorf("--service: a record of another service: %v", r)
		}
	}
	return list
}

func headerOf(out string) string { line, _, _ := strings.Cut(out, "\n"); return line }

func TestScriptServices(t *testing.T) {
	h := newScriptHarness(t)
	p := h.prefixes()["interface"]

	out := h.ok(args(p, "services", "list")...)
	if hd := strings.Fields(headerOf(out)); strings.Join(hd, " ") != "NAME ID STATUS PROVIDER/REGION SIZE NODES" {
		t.Errorf("header %q", hd)
	}
	if !strings.Contains(out, "orders-prod") || !strings.Contains(out, "aws/us-east-1") {
		t.Errorf("table:\n%s", out)
	}

	wide := h.ok(args(p, "services", "list", "-o", "wide")...)
	if hd := headerOf(wide); !strings.HasSuffix(strings.Join(strings.Fields(hd), " "), "TOPOLOGY VERSION FQDN CREATED STORAGE") {
		t.Errorf("wide header %q", hd)
	}
	// STORAGE is the JSON's storage_volume.size, in GB
	for _, line := range strings.Split(strings.TrimSpace(wide), "\n")[1:] {
		if f := strings.Fields(line); f[0] == sandbox.DemoOrders {
			s := decodeJSON[map[string]any](t, h.ok(args(p, "services", "get", sandbox.DemoOrders, "-o", "json")...))
			vol, _ := s["storage_volume"].(map[string]any)
			if want := fmt.Sprintf("%vGB", vol["size"]); vol["size"] == nil || f[len(f)-1] != want {
				t.Errorf("-o wide STORAGE of %s %q, want %q (storage_volume %v)", sandbox.DemoOrders, f[len(f)-1], want, vol)
			}
		}
	}

	noHead := h.ok(args(p, "services", "list", "--no-headers")...)
	if strings.Contains(noHead, "NAME") || strings.Count(noHead, "\n") != strings.Count(out, "\n")-1 {
		t.Errorf("--no-headers:\n%s", noHead)
	}

	svcs := decodeJSON[[]map[string]any](t, h.ok(args(p, "services", "list", "-o", "json")...))
	var id string
	for _, s := range svcs {
		if s["name"] == sandbox.DemoOrders {
			id, _ = s["id"].(string)
		}
	}
	if id == "" {
		t.Fatalf("services list -o json lacks %s: %v", sandbox.DemoOrders, svcs)
	}

	// get by name and by ID: one object
	for _, ref := range []string{sandbox.DemoOrders, id} {
		s := decodeJSON[map[string]any](t, h.ok(args(p, "services", "get", ref, "-o", "json")...))
		if s["id"] != id || s["name"] != sandbox.DemoOrders {
			t.Errorf("get %s: %v", ref, s)
		}
	}
	got := h.ok(args(p, "services", "get", sandbox.DemoOrders, "--no-headers")...)
	if f := strings.Fields(got); len(f) < 2 || f[0] != sandbox.DemoOrders || f[1] != id || strings.Count(got, "\n") != 1 {
		t.Errorf("get table: %q", got)
	}
}

func TestScriptBackupsEveryService(t *testing.T) {
	h := newScriptHarness(t)
	for name, p := range h.prefixes() {
		t.Run(name, func(t *testing.T) {
			bs := decodeJSON[[]map[string]any](t, h.ok(args(p, "backups", "list", "-o", "json")...))
			services := map[any]bool{}
			for _, b := range bs {
				services[b["service_id"]] = true
				if _, ok := b["storage_bytes"].(float64); !ok {
					t.Fatalf("a backup without storage_bytes in bytes: %v", b)
				}
			}
			if len(services) < 2 {
				t.Fatalf("backups list without --service covers %d services", len(services))
			}

			out := h.ok(args(p, "backups", "list")...)
			if hd := strings.Join(strings.Fields(headerOf(out)), " "); hd != "SERVICE KEY TYPE STATUS STARTED SIZE" {
				t.Errorf("header %q", hd)
			}
			if strings.Count(out, "\n") != len(bs)+1 || !strings.Contains(out, "GiB") {
				t.Errorf("%d backups, table:\n%s", len(bs), out)
			}

			one := listedOfOne(t, h.ok(args(p, "backups", "list", "--service", sandbox.DemoOrders, "-o", "json")...))

			failed := decodeJSON[[]map[string]any](t, h.ok(args(p, "backups", "list", "--status", "FAILED", "-o", "json")...))
			if len(failed) == 0 {
				t.Error("the demo has a failed backup")
			}
			for _, b := range failed {
				if !strings.EqualFold(b["status"].(string), "failed") {
					t.Errorf("--status failed: %v", b["status"])
				}
			}

			wide := h.ok(args(p, "backups", "list", "--service", sandbox.DemoOrders, "-o", "wide", "--no-headers")...)
			if !strings.Contains(wide, one[0]["id"].(string)) || strings.Contains(wide, "FULL KEY") {
				t.Errorf("wide: the full key:\n%s", wide)
			}
		})
	}
}

func TestScriptSchedules(t *testing.T) {
	h := newScriptHarness(t)
	for name, p := range h.prefixes() {
		t.Run(name, func(t *testing.T) {
			out := h.ok(args(p, "schedules", "list", "--service", sandbox.DemoOrders)...)
			if hd := strings.Join(strings.Fields(headerOf(out)), " "); hd != "ID TYPE SCHEDULE STATUS SUSPENDED" {
				t.Errorf("header %q", hd)
			}
			if !strings.Contains(out, "0 3 * * *") {
				t.Errorf("the daily full at 03:00:\n%s", out)
			}
			ss := decodeJSON[[]map[string]any](t, h.ok(args(p, "schedules", "list", "--service", sandbox.DemoOrders, "-o", "json")...))
			if len(ss) == 0 || strings.Count(out, "\n") != len(ss)+1 {
				t.Errorf("%d schedules, table:\n%s", len(ss), out)
			}
			h.fails(exitUsage, "skytui: --service is required", args(p, "schedules", "list")...)
		})
	}
}

func TestScriptRestores(t *testing.T) {
	h := newScriptHarness(t)
	for name, p := range h.prefixes() {
		t.Run(name, func(t *testing.T) {
			rs := decodeJSON[[]map[string]any](t, h.ok(args(p, "restores", "list", "-o", "json")...))
			if len(rs) < 2 {
				t.Fatalf("the demo's restores: %v", rs)
			}
			out := h.ok(args(p, "restores", "list")...)
			if hd := strings.Join(strings.Fields(headerOf(out)), " "); hd != "ID TARGET STATUS STARTED SOURCE" {
				t.Errorf("header %q", hd)
			}
			if !strings.Contains(out, sandbox.DemoReplica) {
				t.Errorf("restores list names the target:\n%s", out)
			}

			one := listedOfOne(t, h.ok(args(p, "restores", "list", "--service", sandbox.DemoReplica, "-o", "json")...))

			id := strconv.FormatFloat(one[0]["id"].(float64), 'f', 0, 64)
			r := decodeJSON[map[string]any](t, h.ok(args(p, "restores", "get", id, "-o", "json")...))
			if r["id"] != one[0]["id"] || r["service_id"] != one[0]["service_id"] {
				t.Errorf("restores get %s: %v", id, r)
			}
			row := h.ok(args(p, "restores", "get", id, "--no-headers", "-o", "wide")...)
			if f := strings.Fields(row); len(f) < 2 || f[0] != id || f[1] != sandbox.DemoReplica {
				t.Errorf("restores get table: %q", row)
			}
			h.fails(exitNotFound, "skytui: 404 Not Found", args(p, "restores", "get", "987654")...)
		})
	}
}

func TestScriptExitStatus(t *testing.T) {
	h := newScriptHarness(t)
	p := h.prefixes()["live"]

	// 4: not found
	h.fails(exitNotFound, `skytui: no service named "no-such-db"`+"\n", args(p, "services", "get", "no-such-db")...)
	h.fails(exitNotFound, `skytui: no service with the ID or name "dbzz00000000"`+"\n", args(p, "backups", "list", "--service", "dbzz00000000")...)
	h.fails(exitNotFound, `skytui: no service named "no-such-db"`+"\n", args(p, "schedules", "list", "--service", "no-such-db")...)

	// 2: usage
	h.fails(exitUsage, `skytui: -o "yaml": must be table, wide or json`, args(p, "services", "list", "-o", "yaml")...)
	h.fails(exitUsage, "skytui: unknown flag: --bogus", args(p, "backups", "list", "--bogus")...)
	h.fails(exitUsage, `skytui: service "ab"`, args(p, "services", "get", "ab")...)
	h.fails(exitUsage, `skytui: --service "`, args(p, "restores", "list", "--service", strings.Repeat("x", 40))...)
	h.fails(exitUsage, "skytui: accepts 1 arg(s), received 0", args(p, "services", "get")...)
	h.fails(exitUsage, `skytui: restore ID "abc"`, args(p, "restores", "get", "abc")...)
	h.fails(exitUsage, `skytui: unknown command "frob"`, args(p, "services", "frob")...)
	// the key is never taken from the command line
	h.fails(exitUsage, "skytui: unknown flag: --api-key", args(p, "services", "list", "--api-key", goodKey)...)

	// the flags go before the noun too, as with the TUI
	h.addProfile("lab")
	if out := h.ok("--profile", "lab", "--api-url", h.url, "services", "list", "--no-headers"); !strings.Contains(out, sandbox.DemoOrders) {
		t.Errorf("flags before the noun:\n%s", out)
	}
}

// TestScriptAPIError: a refused key is an API error: exit 1, the error's
// one line on stderr, nothing on stdout, and never the key.
func TestScriptAPIError(t *testing.T) {
	h := newScriptHarness(t)
	const wrong = "skysql.wrong.key.0000000000"
	t.Setenv(keystore.EnvAPIKey, wrong)
	for _, a := range [][]string{
		{"services", "list"},
		{"services", "get", sandbox.DemoOrders, "-o", "json"},
		{"backups", "list"},
		{"schedules", "list", "--service", sandbox.DemoOrders},
		{"restores", "list"},
		{"restores", "get", "1"},
	} {
		for _, p := range h.prefixes() {
			stderr := h.fails(exitFailed, "skytui: 401 Unauthorized: ", args(p, a...)...)
			if !strings.Contains(stderr, "trace ") || strings.Contains(stderr, wrong) {
				t.Errorf("%v: stderr %q", a, stderr)
			}
		}
	}
}

func TestScriptHelpers(t *testing.T) {
	if got := kit.HumanBytes(3 << 30); got != "3.0 GiB" {
		t.Errorf("humanBytes = %q", got)
	}
	if got := kit.HumanBytes(0); got != "-" {
		t.Errorf("kit.HumanBytes(0) = %q", got)
	}
	tb := &table{head: []string{"A", "B"}, wideHead: []string{"C"}}
	tb.add("x\ty\x1b[31m", "", "wide")
	var b bytes.Buffer
	if err := tb.write(&b, false, false); err != nil {
		t.Fatal(err)
	}
	if b.String() != "A    B\nx y  -\n" {
		t.Errorf("table:\n%q", b.String())
	}
	if exitCode(nil) != 0 || exitCode(usageErrf("x")) != 2 || exitCode(notFoundErrf("x")) != 4 || exitCode(bytes.ErrTooLarge) != 1 {
		t.Error("exitCode")
	}
}

// TestScriptHelpNamesEveryExitStatus: the help of every noun and verb of
// the commands for scripts lists the exit statuses as the README does,
// with 3 (refused) and what 4 covers.
func TestScriptHelpNamesEveryExitStatus(t *testing.T) {
	h := newScriptHarness(t)
	var walk func(c *cobra.Command) int
	walk = func(c *cobra.Command) int {
		n := 0
		if strings.Contains(c.Long, "Exit status:") {
			n++
			long := strings.Join(strings.Fields(c.Long), " ")
			for _, want := range []string{
				"3 refused (read-only profile, --yes or --confirm missing or different)",
				"4 not found (an unknown service, restore, schedule, backup key or allow-list entry)",
			} {
				if !strings.Contains(long, want) {
					t.Errorf("%s --help lacks %q", c.CommandPath(), want)
				}
			}
		}
		for _, sub := range c.Commands() {
			n += walk(sub)
		}
		return n
	}
	if n := walk(newRootCmd(h.newEnv("", io.Discard, io.Discard))); n < 20 {
		t.Errorf("only %d commands list the exit statuses", n)
	}
}

// TestRestoreSourceText: the SOURCE cell of a restore: a managed backup by
// its short key, a file in your own bucket whole, anything else as given,
// in the table and its wide form.
func TestRestoreSourceText(t *testing.T) {
	managed := "93b2de1fa976e6e2f3338ae61943d363:dbtzf07546771:dbtzf07546771-mdb-ms-0"
	for _, c := range []struct {
		r    api.Restore
		want string
	}{
		{api.Restore{Bucket: "https://skysqlbackupswesteurope.blob.core.windows.net/dbtzf07546771/", Key: managed}, "93b2de1fa976"},
		{api.Restore{Bucket: "gs://acme-exports/", Key: "orders/dump.sql.gz"}, "gs://acme-exports/orders/dump.sql.gz"},
		{api.Restore{Bucket: "s3://acme-exports", Key: "/nightly/2026-11-23/orders-prod.sql.gz"}, "s3://acme-exports/nightly/2026-11-23/orders-prod.sql.gz"},
		{api.Restore{Bucket: "gs://acme-exports/"}, "gs://acme-exports/"},
		{api.Restore{Key: "backup-7f3e9a21c4d8b6e0"}, "backup-7f3e9a21c4d8b6e0"},
	} {
		for _, wide := range []bool{false, true} {
			c.r.ID, c.r.ServiceID, c.r.Status = 3, "dbtzf07546771", "Running"
			var b bytes.Buffer
			if err := restoresTable([]api.Restore{c.r}, map[string]string{"dbtzf07546771": "staging-eu"}).write(&b, wide, true); err != nil {
				t.Fatal(err)
			}
			if f := strings.Fields(b.String()); len(f) < 5 || f[4] != c.want {
				t.Errorf("bucket %q key %q (wide %v): SOURCE %v, want %s", c.r.Bucket, c.r.Key, wide, f, c.want)
			}
		}
	}
}

// rewrites checks that f, a rewording of a text, turns each text of cases
// into its value.
func rewrites(t *testing.T, name string, f func(string) string, cases map[string]string) {
	t.Helper()
	for in, want := range cases {
		if got := f(in); got != want {
			t.Errorf("%s(%q)\n got %q\nwant %q", name, in, got, want)
		}
	}
}

// TestResolveServiceNamesAnIDAsOne: an unknown argument that reads as a
// service ID is not called a name ("no service named \"dbtaf72309916\""
// for a deleted service's ID).
func TestResolveServiceNamesAnIDAsOne(t *testing.T) {
	svcs := []api.Service{{ID: "dbtaf85489797", Name: "orders-prod"}}
	for arg, want := range map[string]string{
		"dbtaf72309916": `no service with the ID or name "dbtaf72309916"`,
		"no-such-db":    `no service named "no-such-db"`,
	} {
		if _, err := resolveService(svcs, arg); err == nil || err.Error() != want {
			t.Errorf("%s: %v, want %s", arg, err, want)
		}
	}
}

// cellsUnder reads an aligned table by its header: each row's cell under
// the column headed key mapped to its cell under the one headed title
// (cells may hold single spaces; columns are two or more apart).
func cellsUnder(t *testing.T, out, key, title string) map[string]string {
	t.Helper()
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	cellAt := func(l, title string) string {
		at := strings.Index(" "+lines[0]+" ", " "+title+" ")
		if at < 0 || len(l) <= at {
			t.Fatalf("no %s column in %q:\n%s", title, l, out)
		}
		c, _, _ := strings.Cut(l[at:], "  ")
		return strings.TrimSpace(c)
	}
	cells := map[string]string{}
	for _, l := range lines[1:] {
		cells[cellAt(l, key)] = cellAt(l, title)
	}
	return cells
}

// -o wide says where a schedule writes (TARGET) and where a backup is
// kept (STORED), as the Backups screen's columns do: an own-bucket export
// does not look like a managed one.
func TestScriptWideSaysWhereBackupsGo(t *testing.T) {
	h := newScriptHarness(t)
	for name, p := range h.prefixes() {
		t.Run(name, func(t *testing.T) {
			// analytics-gcp: a weekly dump to gs://acme-analytics-dumps/weekly
			var id string
			for _, s := range decodeJSON[[]map[string]any](t, h.ok(args(p, "schedules", "list", "--service", sandbox.DemoAnalytics, "-o", "json")...)) {
				if s["cron"] == "30 1 * * 0" {
					id = strconv.FormatFloat(s["id"].(float64), 'f', 0, 64)
				}
			}
			if id == "" {
				t.Fatal("analytics-gcp has no weekly schedule (demo data)")
			}
			for _, out := range []string{
				h.ok(args(p, "schedules", "list", "--service", sandbox.DemoAnalytics, "-o", "wide")...),
				h.ok(args(p, "schedules", "get", id, "-o", "wide")...),
			} {
				if got := cellsUnder(t, out, "ID", "TARGET")[id]; got != "gs://acme-analytics-dumps/weekly" {
					t.Errorf("schedule %s TARGET %q, want the bucket:\n%s", id, got, out)
				}
			}
			// orders-prod: the daily full to managed storage, a one-off
			// dump to s3://acme-db-exports/orders
			targets := cellsUnder(t, h.ok(args(p, "schedules", "list", "--service", sandbox.DemoOrders, "-o", "wide")...), "ID", "TARGET")
			if id := dailyScheduleOf(t, h, p); targets[id] != "managed" {
				t.Errorf("the daily full's TARGET %q, want managed (%v)", targets[id], targets)
			}
			if !slices.Contains(slices.Collect(maps.Values(targets)), "s3://acme-db-exports/orders") {
				t.Errorf("the one-off dump's TARGET is not its bucket: %v", targets)
			}

			out := h.ok(args(p, "backups", "list", "--service", sandbox.DemoOrders, "-o", "wide")...)
			stored := cellsUnder(t, out, "KEY", "STORED")
			var inBucket int
			for _, b := range decodeJSON[[]map[string]any](t, h.ok(args(p, "backups", "list", "--service", sandbox.DemoOrders, "-o", "json")...)) {
				want := "managed"
				if b["bucket"] != "" {
					want, inBucket = "s3://acme-db-exports/orders", inBucket+1
				}
				if k := api.ShortKey(b["id"].(string)); stored[k] != want {
					t.Errorf("backup %s STORED %q, want %q:\n%s", k, stored[k], want, out)
				}
			}
			if inBucket != 1 {
				t.Errorf("%d backups of orders-prod in a bucket, the demo has one", inBucket)
			}
		})
	}
}
