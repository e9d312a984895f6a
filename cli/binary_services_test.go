package cli

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/sandbox"
)

// TestBinaryServices: services list|get|create|credentials|stop|start|
// scale|delete, wait service, allowlist list|add|remove and completion,
// run as the built binary against `skytui sandbox`.
func TestBinaryServices(t *testing.T) {
	h := startBinSandbox(t, "--time-scale", "3000")
	poll := []string{"--poll-interval", "50ms"}

	// list: the table, its wide form, without headers, JSON
	so, _ := h.run(0, "services", "list")
	if head := strings.Join(tableRows(so)[0], " "); head != "NAME ID STATUS PROVIDER/REGION SIZE NODES" {
		t.Errorf("services list header: %s", head)
	}
	if r := tableRow(so, sandbox.DemoOrders); len(r) != 6 || r[2] != "ready" || r[3] != "aws/us-east-1" || r[4] != "sky-4x16" || r[5] != "2" {
		t.Errorf("orders-prod's row: %v\n%s", r, so)
	}
	if r := tableRow(so, sandbox.DemoLegacy); len(r) < 3 || r[2] != "stopped" {
		t.Errorf("legacy-batch's row: %v", r)
	}
	so, _ = h.run(0, "services", "list", "--no-headers")
	if rows := tableRows(so); len(rows) != 8 || tableRow(so, "NAME") != nil {
		t.Errorf("--no-headers: %d rows\n%s", len(rows), so)
	}
	so, _ = h.run(0, "services", "list", "-o", "wide")
	if r := tableRow(so, sandbox.DemoOrders); len(r) != 10 || r[6] != "es-replica" || !strings.HasPrefix(r[8], r[1]) {
		t.Errorf("-o wide: %v\n%s", r, so)
	}
	list := jsonOf[[]map[string]any](t, first(h.run(0, "services", "list", "-o", "json")))
	byName := map[string]map[string]any{}
	for _, s := range list {
		byName[s["name"].(string)] = s
	}
	orders := byName[sandbox.DemoOrders]
	if len(list) != 8 || orders == nil || orders["status"] != "ready" || orders["provider"] != "aws" || orders["nodes"] != 2.0 {
		t.Fatalf("services list -o json: %d services, orders-prod %v", len(list), orders)
	}
	ordersID := orders["id"].(string)
	h.fails(exitUsage, `-o "yaml": must be table, wide or json`, "services", "list", "-o", "yaml")
	h.fails(exitUsage, `unknown command "lst"`, "services", "lst")
	h.fails(exitUsage, "unknown flag: --bogus", "services", "list", "--bogus")
	h.fails(exitUsage, `unknown command "extra"`, "services", "list", "extra")

	// get: by name and by ID, unknown, not a name at all
	so, _ = h.run(0, "services", "get", sandbox.DemoOrders)
	if rows := tableRows(so); len(rows) != 2 || rows[1][1] != ordersID {
		t.Errorf("services get: %v", rows)
	}
	if s := jsonOf[map[string]any](t, first(h.run(0, "services", "get", ordersID, "-o", "json"))); s["name"] != sandbox.DemoOrders {
		t.Errorf("services get ID -o json: %v", s)
	}
	h.fails(exitNotFound, `no service named "no-such-db"`, "services", "get", "no-such-db")
	h.fails(exitUsage, "is neither a service ID nor a service name", "services", "get", "x")
	h.fails(exitUsage, "accepts 1 arg(s)", "services", "get")

	// create: the rules before sending, the read-only refusals, then a
	// service that is pending until `wait service` sees it ready
	create := func(more ...string) []string {
		return append([]string{"services", "create", "--name", "bin-stage", "--provider", "aws", "--region", "us-east-1",
			"--topology", "es-single", "--size", "sky-2x8", "--storage", "100"}, more...)
	}
	h.unsent(exitUsage, "--provider (provider)", append(create(), "--provider", "ibm")...)
	h.unsent(exitUsage, "--name (name)", append(create(), "--name", "ab")...)
	h.unsent(exitUsage, "--allow (allow_list", create("--allow", "300.1.2.3")...)
	h.refused("profile audit is read-only: services create refused, nothing was sent", create("--profile", "audit")...)
	h.refused("--read-only: services create refused, nothing was sent", create("--read-only")...)
	so, _ = h.run(0, create("--allow", "203.0.113.7")...)
	if r := tableRow(so, "bin-stage"); len(r) < 3 || r[2] != "pending_create" {
		t.Errorf("services create: %v\n%s", r, so)
	}
	if s := jsonOf[map[string]any](t, first(h.run(0, append([]string{"wait", "service", "bin-stage", "--for", "ready", "-o", "json"}, poll...)...))); s["status"] != "ready" {
		t.Errorf("wait service --for ready: %v", s)
	}
	h.fails(exitUsage, `--for "up": must be ready, stopped or deleted`, "wait", "service", "bin-stage", "--for", "up")
	h.fails(exitNotFound, `no service named "no-such-db"`, "wait", "service", "no-such-db")
	h.fails(exitFailed, "broken-import is failed: launch failed", append([]string{"wait", "service", sandbox.DemoBroken, "--for", "ready"}, poll...)...)

	// credentials: masked in the table; in clear only in JSON to a pipe
	// (or with --show-password), which is where the test learns it
	cr := jsonOf[map[string]any](t, first(h.run(0, "services", "credentials", "bin-stage", "-o", "json")))
	pw, _ := cr["password"].(string)
	if pw == "" || cr["username"] == "" {
		t.Fatalf("credentials -o json: %v", cr)
	}
	h.secret(pw)
	so, _ = h.run(0, "services", "credentials", "bin-stage")
	if r := tableRow(so, "bin-stage"); len(r) != 6 || r[3] != cr["username"] || !regexp.MustCompile(`^\*{8,12}$`).MatchString(r[4]) || r[5] != "on" {
		t.Errorf("credentials table: %v\n%s", r, so)
	}
	if so, _ = h.exec("", 0, "services", "credentials", "bin-stage", "--show-password"); !strings.Contains(so, pw) {
		t.Errorf("--show-password:\n%s", so)
	}
	h.fails(exitFailed, "broken-import is failed: its credentials exist once it is ready", "services", "credentials", sandbox.DemoBroken)
	h.fails(exitNotFound, `no service named "no-such-db"`, "services", "credentials", "no-such-db")

	// stop: --yes, read-only, then --wait to stopped
	h.refused("services stop is destructive: pass --yes to confirm it (nothing was sent)", "services", "stop", "bin-stage")
	h.refused("profile audit is read-only: services stop refused", "services", "stop", "bin-stage", "--yes", "--profile", "audit")
	h.refused("--read-only: services stop refused", "services", "stop", "bin-stage", "--yes", "--read-only")
	h.fails(exitNotFound, `no service named "no-such-db"`, "services", "stop", "no-such-db", "--yes")
	if s := jsonOf[map[string]any](t, first(h.run(0, append([]string{"services", "stop", "bin-stage", "--yes", "--wait", "-o", "json"}, poll...)...))); s["status"] != "stopped" {
		t.Errorf("stop --wait: %v", s)
	}
	so, _ = h.run(0, "wait", "service", "bin-stage", "--for", "stopped")
	if r := tableRow(so, "bin-stage"); len(r) < 3 || r[2] != "stopped" {
		t.Errorf("wait --for stopped: %v", r)
	}
	h.fails(exitFailed, "bin-stage is stopped: it will not become ready until it is started", "wait", "service", "bin-stage", "--for", "ready")
	h.fails(exitFailed, "409", "services", "stop", "bin-stage", "--yes") // the API refuses: already stopped

	// start: --wait to ready; the API refuses a ready service
	h.refused("profile audit is read-only: services start refused", "services", "start", "bin-stage", "--profile", "audit")
	so, _ = h.run(0, append([]string{"services", "start", "bin-stage", "--wait"}, poll...)...)
	if r := tableRow(so, "bin-stage"); len(r) < 3 || r[2] != "ready" {
		t.Errorf("start --wait: %v\n%s", r, so)
	}
	h.fails(exitFailed, "409", "services", "start", "bin-stage")
	// the other output of each: stop as a table, start as JSON
	so, _ = h.run(0, append([]string{"services", "stop", "bin-stage", "--yes", "--wait"}, poll...)...)
	if r := tableRow(so, "bin-stage"); len(r) < 3 || r[2] != "stopped" {
		t.Errorf("stop --wait (table): %v\n%s", r, so)
	}
	if s := jsonOf[map[string]any](t, first(h.run(0, append([]string{"services", "start", "bin-stage", "--wait", "-o", "json"}, poll...)...))); s["status"] != "ready" || s["name"] != "bin-stage" {
		t.Errorf("start --wait -o json: %v", s)
	}

	// scale: one change at a time, the choices offered, --wait to ready
	h.unsent(exitUsage, "give exactly one of --nodes, --size or --storage", "services", "scale", "bin-stage", "--nodes", "2", "--size", "sky-4x16")
	h.unsent(exitUsage, "give exactly one of --nodes, --size or --storage", "services", "scale", "bin-stage")
	h.unsent(exitUsage, "--size sky-3x3: not offered for es-single on aws; choose one of", "services", "scale", "bin-stage", "--size", "sky-3x3")
	h.unsent(exitUsage, "--size sky-2x8: bin-stage is already sky-2x8", "services", "scale", "bin-stage", "--size", "sky-2x8")
	h.unsent(exitUsage, "--storage (storage)", "services", "scale", "bin-stage", "--storage", "50")
	h.refused("profile audit is read-only: services scale refused", "services", "scale", "bin-stage", "--size", "sky-4x16", "--profile", "audit")
	so, _ = h.run(0, append([]string{"services", "scale", "bin-stage", "--size", "sky-4x16", "--wait"}, poll...)...)
	if r := tableRow(so, "bin-stage"); len(r) < 5 || r[2] != "ready" || !slices.Contains(r, "sky-4x16") {
		t.Errorf("scale --size --wait (table): %v\n%s", r, so)
	}
	s := jsonOf[map[string]any](t, first(h.run(0, append([]string{"services", "scale", "bin-stage", "--storage", "200", "--wait", "-o", "json"}, poll...)...)))
	if vol, _ := s["storage_volume"].(map[string]any); s["status"] != "ready" || vol["size"] != 200.0 {
		t.Errorf("scale --storage --wait: %v", s)
	}

	// allow list: list, add (a bare address becomes /32), remove with --yes
	so, _ = h.run(0, "allowlist", "list", sandbox.DemoOrders)
	if r := tableRow(so, "203.0.113.10/32"); strings.Join(r, " ") != "203.0.113.10/32 office VPN" {
		t.Errorf("allowlist list: %v\n%s", r, so)
	}
	groups := jsonOf[[]map[string]any](t, first(h.run(0, "allowlist", "list", sandbox.DemoOrders, "-o", "json")))
	if len(groups) != 1 || len(groups[0]["allow_list"].([]any)) != 3 {
		t.Errorf("allowlist list -o json: %v", groups)
	}
	h.fails(exitNotFound, `no service named "no-such-db"`, "allowlist", "list", "no-such-db")
	h.unsent(exitUsage, "CIDR (ip)", "allowlist", "add", sandbox.DemoOrders, "300.1.2.3")
	h.unsent(exitUsage, "CIDR (ip)", "allowlist", "add", sandbox.DemoOrders, "10.0.0.1/8")
	h.refused("profile audit is read-only: allowlist add refused", "allowlist", "add", sandbox.DemoOrders, "192.0.2.55", "--profile", "audit")
	h.refused("allowlist add: 0.0.0.0/0 lets every address on the internet connect; pass --yes to add it anyway (nothing was sent)", "allowlist", "add", sandbox.DemoOrders, "0.0.0.0/0")
	h.refused("10.0.0.0/8 is wider than /16", "allowlist", "add", sandbox.DemoOrders, "10.0.0.0/8")
	if tableRow(first(h.run(0, "allowlist", "add", sandbox.DemoOrders, "10.0.0.0/8", "--yes")), "10.0.0.0/8") == nil {
		t.Error("allowlist add --yes of a wide network: not added")
	}
	h.run(0, "allowlist", "remove", sandbox.DemoOrders, "10.0.0.0/8", "--yes")
	so, _ = h.run(0, "allowlist", "add", sandbox.DemoOrders, "192.0.2.55")
	if tableRow(so, "192.0.2.55/32") == nil {
		t.Errorf("allowlist add:\n%s", so)
	}
	// a comment: the list read and put back whole (PUT), the comment shown
	so, _ = h.run(0, "allowlist", "add", sandbox.DemoOrders, "192.0.2.60", "--comment", "office VPN")
	if row := tableRow(so, "192.0.2.60/32"); row == nil || !strings.Contains(strings.Join(row, " "), "office VPN") {
		t.Errorf("allowlist add --comment:\n%s", so)
	}
	// the sandbox's log comes through a pipe: give its line a moment
	puts := func() int { return h.sent("PUT", `/provisioning/v1/services/[a-z0-9]+/security/allowlist`) }
	for end := time.Now().Add(5 * time.Second); puts() == 0 && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
	}
	if n := puts(); n != 1 {
		t.Errorf("%d allow-list replacements sent, want 1", n)
	}
	h.run(0, "allowlist", "remove", sandbox.DemoOrders, "192.0.2.60", "--yes")
	groups = jsonOf[[]map[string]any](t, first(h.run(0, "allowlist", "add", sandbox.DemoOrders, "192.0.2.0/28", "-o", "json")))
	if len(groups) != 1 || !strings.Contains(fmt.Sprint(groups[0]["allow_list"]), "ip:192.0.2.0/28") {
		t.Errorf("allowlist add -o json: %v", groups)
	}
	h.refused("allowlist remove is destructive: pass --yes", "allowlist", "remove", sandbox.DemoOrders, "192.0.2.55")
	h.refused("profile audit is read-only: allowlist remove refused", "allowlist", "remove", sandbox.DemoOrders, "192.0.2.55", "--yes", "--profile", "audit")
	h.unsent(exitNotFound, "192.0.2.56/32 is not in the allow list of orders-prod", "allowlist", "remove", sandbox.DemoOrders, "192.0.2.56", "--yes")
	groups = jsonOf[[]map[string]any](t, first(h.run(0, "allowlist", "remove", sandbox.DemoOrders, "192.0.2.55/32", "--yes", "-o", "json")))
	if len(groups) != 1 || strings.Contains(first(h.run(0, "allowlist", "list", sandbox.DemoOrders)), "192.0.2.55") {
		t.Errorf("allowlist remove: %v", groups)
	}

	// delete: the name typed as in the UI, --yes, read-only; --wait until gone
	h.refused("services delete needs --confirm with the target service's exact name", "services", "delete", "bin-stage", "--yes")
	h.refused(`--confirm "bin" does not match the target service's name: pass --confirm bin-stage`, "services", "delete", "bin-stage", "--yes", "--confirm", "bin")
	h.refused("services delete is destructive: pass --yes", "services", "delete", "bin-stage", "--confirm", "bin-stage")
	h.refused("profile audit is read-only: services delete refused", "services", "delete", "bin-stage", "--yes", "--confirm", "bin-stage", "--profile", "audit")
	if s := jsonOf[map[string]any](t, first(h.run(0, append([]string{"services", "delete", "bin-stage", "--yes", "--confirm", "bin-stage", "--wait", "-o", "json"}, poll...)...))); s["status"] != "deleted" || s["name"] != "bin-stage" {
		t.Errorf("delete --wait: %v", s)
	}
	h.fails(exitNotFound, `no service named "bin-stage"`, "services", "get", "bin-stage")
	if n := h.sent("DELETE", `/provisioning/v1/services/[a-z0-9]+`); n != 1 {
		t.Errorf("%d deletes sent, want 1", n)
	}

	// completion: the scripts, and service names from the API
	for shell, want := range map[string]string{"bash": "__start_skytui", "zsh": "#compdef skytui", "fish": "complete -c skytui"} {
		if so, _ := h.run(0, "completion", shell); !strings.Contains(so, want) {
			t.Errorf("completion %s:\n%.300s", shell, so)
		}
	}
	h.fails(exitUsage, `unknown command "bsh" for "skytui completion"`, "completion", "bsh")
	if so, _ := h.run(0, "completion"); !strings.Contains(so, "bash") {
		t.Errorf("completion without a shell lists the shells:\n%s", so)
	}
	so, _ = h.run(0, "__complete", "allowlist", "list", "")
	if !strings.Contains(so, sandbox.DemoOrders+"\n") || !strings.Contains(so, sandbox.DemoReplica+"\n") {
		t.Errorf("completion of a SERVICE:\n%s", so)
	}
	so, _ = h.run(0, "__complete", "restores", "create", "--service", "rep")
	if !strings.Contains(so, sandbox.DemoReplica+"\n") || strings.Contains(so, sandbox.DemoOrders) {
		t.Errorf("completion of --service rep:\n%s", so)
	}
}

// TestBinaryServicesPending: on a sandbox at real speed a stop stays
// pending: a change then is the API's refusal (exit 1), and a wait that
// runs out of time exits 1 naming the command that shows how it goes on.
func TestBinaryServicesPending(t *testing.T) {
	h := startBinSandbox(t, "--time-scale", "1")
	so, _ := h.run(0, "services", "stop", sandbox.DemoReplica, "--yes")
	if r := tableRow(so, sandbox.DemoReplica); len(r) < 3 || r[2] != "pending_stop" {
		t.Fatalf("stop: %v\n%s", r, so)
	}
	h.fails(exitFailed, "409 Conflict", "services", "start", sandbox.DemoReplica)
	h.fails(exitFailed, "pending state", "services", "scale", sandbox.DemoReplica, "--nodes", "2")
	se := h.fails(exitFailed, "timed out after 300ms waiting for replica-west (last: pending_stop); it goes on: check with `skytui services get replica-west`",
		"wait", "service", sandbox.DemoReplica, "--for", "stopped", "--timeout", "300ms", "--poll-interval", "50ms")
	if strings.Count(se, "\n") != 1 {
		t.Errorf("not one line: %q", se)
	}
	h.fails(exitFailed, "timed out", "services", "stop", sandbox.DemoOrders, "--yes", "--wait", "--timeout", "200ms", "--poll-interval", "50ms")
	if n := h.sent("POST", `/provisioning/v1/services/[a-z0-9]+/stop`); n != 2 {
		t.Errorf("%d stops sent, want 2", n)
	}
}
