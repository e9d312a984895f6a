package cli

// The commands for scripts of each noun (services, backups and schedules,
// restores) run as the built binary against `skytui sandbox`.

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
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

	// list: the table, its wide form, without headers, JSON
	so := h.table("NAME ID STATUS PROVIDER/REGION SIZE NODES", "services", "list")
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
	if r := tableRow(so, sandbox.DemoOrders); len(r) != 11 || r[6] != "es-replica" || !strings.HasPrefix(r[8], r[1]) {
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
	if s := jsonOf[map[string]any](t, first(h.run(0, append([]string{"wait", "service", "bin-stage", "--for", "ready", "-o", "json"}, binPoll...)...))); s["status"] != "ready" {
		t.Errorf("wait service --for ready: %v", s)
	}
	h.fails(exitUsage, `--for "up": must be ready, stopped or deleted`, "wait", "service", "bin-stage", "--for", "up")
	h.fails(exitNotFound, `no service named "no-such-db"`, "wait", "service", "no-such-db")
	h.fails(exitFailed, "broken-import is failed: launch failed", append([]string{"wait", "service", sandbox.DemoBroken, "--for", "ready"}, binPoll...)...)

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
	} else if cr["host"] != r[1] || fmt.Sprint(cr["port"]) != r[2] || cr["ssl_enabled"] != true || cr["service"] != "bin-stage" || cr["service_id"] == "" {
		t.Errorf("credentials -o json lacks what the table shows (host %s, port %s, SSL %s): %v", r[1], r[2], r[5], cr)
	}
	if so, _ = h.exec("", 0, "services", "credentials", "bin-stage", "--show-password"); !strings.Contains(so, pw) {
		t.Errorf("--show-password:\n%s", so)
	}
	h.fails(exitFailed, "broken-import is failed: launch failed", "services", "credentials", sandbox.DemoBroken)
	h.fails(exitNotFound, `no service named "no-such-db"`, "services", "credentials", "no-such-db")

	// stop: --yes, read-only, then --wait to stopped
	h.refused("services stop is destructive: pass --yes to confirm it (nothing was sent)", "services", "stop", "bin-stage")
	h.refused("profile audit is read-only: services stop refused", "services", "stop", "bin-stage", "--yes", "--profile", "audit")
	h.refused("--read-only: services stop refused", "services", "stop", "bin-stage", "--yes", "--read-only")
	h.fails(exitNotFound, `no service named "no-such-db"`, "services", "stop", "no-such-db", "--yes")
	if s := jsonOf[map[string]any](t, first(h.run(0, append([]string{"services", "stop", "bin-stage", "--yes", "--wait", "-o", "json"}, binPoll...)...))); s["status"] != "stopped" {
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
	so, _ = h.run(0, append([]string{"services", "start", "bin-stage", "--wait"}, binPoll...)...)
	if r := tableRow(so, "bin-stage"); len(r) < 3 || r[2] != "ready" {
		t.Errorf("start --wait: %v\n%s", r, so)
	}
	h.fails(exitFailed, "409", "services", "start", "bin-stage")
	// the other output of each: stop as a table, start as JSON
	so, _ = h.run(0, append([]string{"services", "stop", "bin-stage", "--yes", "--wait"}, binPoll...)...)
	if r := tableRow(so, "bin-stage"); len(r) < 3 || r[2] != "stopped" {
		t.Errorf("stop --wait (table): %v\n%s", r, so)
	}
	if s := jsonOf[map[string]any](t, first(h.run(0, append([]string{"services", "start", "bin-stage", "--wait", "-o", "json"}, binPoll...)...))); s["status"] != "ready" || s["name"] != "bin-stage" {
		t.Errorf("start --wait -o json: %v", s)
	}

	// scale: one change at a time, the choices offered, --wait to ready
	h.unsent(exitUsage, "give exactly one of --nodes, --size or --storage", "services", "scale", "bin-stage", "--nodes", "2", "--size", "sky-4x16")
	h.unsent(exitUsage, "give exactly one of --nodes, --size or --storage", "services", "scale", "bin-stage")
	h.unsent(exitUsage, "--size sky-3x3: not offered for es-single on aws; choose one of", "services", "scale", "bin-stage", "--size", "sky-3x3")
	h.unsent(exitUsage, "--size sky-2x8: bin-stage is already sky-2x8", "services", "scale", "bin-stage", "--size", "sky-2x8")
	h.unsent(exitUsage, "--storage (storage)", "services", "scale", "bin-stage", "--storage", "50")
	h.refused("profile audit is read-only: services scale refused", "services", "scale", "bin-stage", "--size", "sky-4x16", "--profile", "audit")
	so, _ = h.run(0, append([]string{"services", "scale", "bin-stage", "--size", "sky-4x16", "--wait"}, binPoll...)...)
	if r := tableRow(so, "bin-stage"); len(r) < 5 || r[2] != "ready" || !slices.Contains(r, "sky-4x16") {
		t.Errorf("scale --size --wait (table): %v\n%s", r, so)
	}
	s := jsonOf[map[string]any](t, first(h.run(0, append([]string{"services", "scale", "bin-stage", "--storage", "200", "--wait", "-o", "json"}, binPoll...)...)))
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
	// listed already: nothing sent (the API refuses it with 409), as the UI
	before := h.sent("PUT", `/provisioning/v1/services/[a-z0-9]+/security/allowlist`) + h.sent("POST", `/provisioning/v1/services/[a-z0-9]+/security/allowlist`)
	for _, again := range [][]string{{"192.0.2.60"}, {"192.0.2.60", "--comment", "office VPN"}} {
		so, se := h.run(0, append([]string{"allowlist", "add", sandbox.DemoOrders}, again...)...)
		if tableRow(so, "192.0.2.60/32") == nil || !strings.Contains(se, "192.0.2.60/32 is in the allow list of orders-prod already: nothing was sent") {
			t.Errorf("allowlist add %v of a listed address:\n%s%s", again, so, se)
		}
	}
	// another comment replaces the listed one only with --yes, as the UI asks
	h.refused(`allowlist add: 192.0.2.60/32 is listed with the comment "office VPN": pass --yes to replace it with "home" (nothing was sent)`,
		"allowlist", "add", sandbox.DemoOrders, "192.0.2.60", "--comment", "home")
	if n := h.sent("PUT", `/provisioning/v1/services/[a-z0-9]+/security/allowlist`) + h.sent("POST", `/provisioning/v1/services/[a-z0-9]+/security/allowlist`); n != before {
		t.Errorf("%d allow-list changes sent for an address listed already", n-before)
	}
	so, _ = h.run(0, "allowlist", "add", sandbox.DemoOrders, "192.0.2.60", "--comment", "home", "--yes")
	if row := tableRow(so, "192.0.2.60/32"); row == nil || !strings.Contains(strings.Join(row, " "), "home") {
		t.Errorf("allowlist add --comment --yes of a listed address:\n%s", so)
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
	h.refused("services delete needs --confirm with the target service's exact name: pass --confirm bin-stage (nothing was sent)", "services", "delete", "bin-stage", "--yes")
	h.refused("services delete needs --confirm with the target service's exact name: pass --confirm bin-stage (nothing was sent)", "services", "delete", h.serviceID("bin-stage"), "--yes")
	h.refused(`--confirm "bin" does not match the target service's name: pass --confirm bin-stage`, "services", "delete", "bin-stage", "--yes", "--confirm", "bin")
	h.refused("services delete is destructive: pass --yes", "services", "delete", "bin-stage", "--confirm", "bin-stage")
	// neither: one refusal names both, with the name
	h.refused("services delete is destructive: pass --yes --confirm bin-stage (the target service's exact name; nothing was sent)", "services", "delete", "bin-stage")
	h.refused("profile audit is read-only: services delete refused", "services", "delete", "bin-stage", "--yes", "--confirm", "bin-stage", "--profile", "audit")
	deleted := jsonOf[map[string]any](t, first(h.run(0, append([]string{"services", "delete", "bin-stage", "--yes", "--confirm", "bin-stage", "--wait", "-o", "json"}, binPoll...)...)))
	if deleted["status"] != "deleted" || deleted["name"] != "bin-stage" {
		t.Errorf("delete --wait: %v", deleted)
	}
	h.fails(exitNotFound, `no service named "bin-stage"`, "services", "get", "bin-stage")
	if n := h.sent("DELETE", `/provisioning/v1/services/[a-z0-9]+`); n != 1 {
		t.Errorf("%d deletes sent, want 1", n)
	}
	// waiting for a service already gone (a quick delete without --wait)
	// is done: deleted, exit 0, by name and by ID; a name never listed
	// says it may never have existed; any other state is still not found
	so, se := h.run(0, "wait", "service", "bin-stage", "--for", "deleted")
	if r := tableRow(so, "bin-stage"); len(r) < 3 || r[2] != "deleted" || se != "skytui: bin-stage: not in the listing: deleted, or never created under that name\n" {
		t.Errorf("wait --for deleted of a service already gone:\n%s%s", so, se)
	}
	id, _ := deleted["id"].(string)
	so, se = h.run(0, "wait", "service", id, "--for", "deleted", "-o", "json")
	if d := jsonOf[map[string]any](t, so); d["id"] != id || d["status"] != "deleted" || se != "skytui: "+id+": not in the listing, and reading it answers 404: deleted\n" {
		t.Errorf("wait --for deleted by ID: %v\n%s", d, se)
	}
	if _, se = h.run(0, "wait", "service", "never-was", "--for", "deleted"); !strings.Contains(se, "never-was: not in the listing: deleted, or never created under that name") {
		t.Errorf("wait --for deleted of a name never listed: %s", se)
	}
	h.fails(exitNotFound, `no service named "bin-stage"`, "wait", "service", "bin-stage", "--for", "ready")

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
	h.fails(exitFailed, "pending state", "services", "scale", sandbox.DemoReplica, "--size", "sky-4x16") // --nodes: replica-west has one node (es-single), refused before sending
	se := h.fails(exitFailed, "timed out after 300ms waiting for replica-west to be stopped (last: pending_stop); it goes on: check with `skytui services get replica-west`",
		"wait", "service", sandbox.DemoReplica, "--for", "stopped", "--timeout", "300ms", "--poll-interval", "50ms")
	if strings.Count(se, "\n") != 1 {
		t.Errorf("not one line: %q", se)
	}
	h.fails(exitFailed, "timed out", "services", "stop", sandbox.DemoOrders, "--yes", "--wait", "--timeout", "200ms", "--poll-interval", "50ms")
	if n := h.sent("POST", `/provisioning/v1/services/[a-z0-9]+/stop`); n != 2 {
		t.Errorf("%d stops sent, want 2", n)
	}
}

// TestBinaryBackups: backups list|create and schedules list|get|edit|delete
// as the built binary against `skytui sandbox`.
func TestBinaryBackups(t *testing.T) {
	h := startBinSandbox(t, "--time-scale", "3000")
	ordersID := h.serviceID(sandbox.DemoOrders)

	// list: every service's, one service's, by status; table, wide, JSON
	so := h.table("SERVICE KEY TYPE STATUS STARTED SIZE", "backups", "list")
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
	// the UI's word for the same state keeps the same backups
	done := jsonOf[[]map[string]any](t, first(h.run(0, "backups", "list", "--service", ordersID, "--status", "completed", "-o", "json")))
	if len(done) < len(ok) {
		t.Errorf("--status completed kept %d backups, --status succeeded %d", len(done), len(ok))
	}
	for _, b := range done {
		if b["status"] != "Succeeded" {
			t.Fatalf("--status completed: %v", b)
		}
	}
	// a word no backup has now: an empty list, exit 0, and a note
	if so, se := h.run(0, "backups", "list", "--status", "bogus", "-o", "json"); strings.TrimSpace(so) != "[]" ||
		!strings.Contains(se, "--status bogus: no backup has this status now; the states are completed (or succeeded), in progress (or running) and failed") {
		t.Errorf("--status bogus: %q\n%s", so, se)
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
	h.unsent(exitNotFound, "--creds nope: no stored bucket credentials of that name (see `skytui creds list`; store them with `skytui creds add s3 nope`)", "backups", "create", "--service", sandbox.DemoReplica, "--type", "dump", "--bucket", "s3://bin-bucket/dumps", "--creds", "nope")
	h.unsent(exitNotFound, `no service named "no-such-db"`, "backups", "create", "--service", "no-such-db", "--type", "full")
	h.refused("profile audit is read-only: backups create refused, nothing was sent", "backups", "create", "--service", sandbox.DemoReplica, "--type", "full", "--profile", "audit")
	h.refused("--read-only: backups create refused", "backups", "create", "--service", sandbox.DemoReplica, "--type", "full", "--read-only")

	b := jsonOf[map[string]any](t, first(h.run(0, append([]string{"backups", "create", "--service", sandbox.DemoReplica, "--type", "full", "--wait", "-o", "json"}, binPoll...)...)))
	key, _ := b["id"].(string)
	if b["status"] != "Succeeded" || b["type"] != "full" || key == "" {
		t.Fatalf("backups create --wait: %v", b)
	}
	if so, _ := h.run(0, "backups", "list", "--service", sandbox.DemoReplica, "-o", "wide"); !strings.Contains(so, key) {
		t.Errorf("the new backup %s is not listed:\n%s", key, so)
	}
	so, _ = h.run(0, "backups", "create", "--service", sandbox.DemoReplica, "--type", "incremental")
	job := ""
	if r := tableRows(so); len(r) != 2 || strings.Join(r[0], " ") != "ID TYPE SCHEDULE STATUS SUSPENDED" || r[1][1] != "incremental" || r[1][2] != "once" {
		t.Errorf("backups create (a job):\n%s", so)
	} else {
		job = r[1][0]
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
	// a one-time job has nothing to suspend or edit: refused, as in the UI
	h.unsent(exitUsage, "schedule "+job+" is a one-time job: it cannot be edited, suspended or resumed (nothing was sent); `skytui backups create --service replica-west --type incremental` takes a new backup", "schedules", "edit", job, "--suspend")
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
	h.useKeyring()
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

// newestFull is the newest succeeded full backup of a service in managed
// storage, from `backups list -o json`: its key and when it ended.
func (h *binSandbox) newestFull(service string) (key string, end time.Time) {
	h.t.Helper()
	if key, end = h.newestFullAt(service, time.Time{}); key == "" {
		h.t.Fatalf("%s has no succeeded full backup", service)
	}
	return key, end
}

// newestFullAt is the newest full backup in managed storage that had ended
// at the sandbox's moment at (zero: now): a test that checks what a
// command chose compares with what there was when it chose, not with a
// nightly the sandbox's fast clock has taken since. "" when there was none.
func (h *binSandbox) newestFullAt(service string, at time.Time) (key string, end time.Time) {
	h.t.Helper()
	start := ""
	for _, b := range jsonOf[[]map[string]any](h.t, first(h.run(0, "backups", "list", "--service", service, "--status", "succeeded", "-o", "json"))) {
		e, _ := time.Parse(time.RFC3339, fmt.Sprint(b["end_time"]))
		if !at.IsZero() && e.After(at) {
			continue
		}
		if s, _ := b["start_time"].(string); b["type"] == "full" && b["is_external_storage"] == false && s > start {
			start, key, end = s, b["id"].(string), e
		}
	}
	return key, end
}

// TestBinaryRestores: restores list|get|create (a managed backup, a point
// in time) and wait restore as the built binary against `skytui sandbox`.
func TestBinaryRestores(t *testing.T) {
	h := startBinSandbox(t, "--time-scale", "3000")
	replicaID := h.serviceID(sandbox.DemoReplica)

	// list (the live prefix: one listing per service) and get
	so := h.table("ID TARGET STATUS STARTED SOURCE", "restores", "list")
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
	h.unsent(exitUsage, "Across providers: back orders-prod up to your own bucket (`skytui backups create --service orders-prod --type dump --bucket BUCKET --creds NAME", "restores", "create", "--service", sandbox.DemoStaging, "--backup", key, "--yes", "--confirm", sandbox.DemoStaging)
	h.refused("profile audit is read-only: restores create refused, nothing was sent", create(append([]string{"--backup", key, "--profile", "audit"}, confirmed...)...)...)
	h.refused("--read-only: restores create refused", create(append([]string{"--backup", key, "--read-only"}, confirmed...)...)...)
	h.refused("a restore needs --confirm with the target service's exact name: pass --confirm replica-west (nothing was sent)", create("--backup", key, "--yes")...)
	h.refused("pass --confirm replica-west", create("--backup", key, "--yes", "--confirm", "Replica-West")...)
	h.refused("pass --yes", create("--backup", key, "--confirm", sandbox.DemoReplica)...)

	// a managed backup by its short key; `wait restore` follows it
	so, _ = h.run(0, create(append([]string{"--backup", key[:12]}, confirmed...)...)...)
	row := tableRows(so)
	if len(row) != 2 || row[1][1] != sandbox.DemoReplica || row[1][4] != key[:12] {
		t.Fatalf("restores create:\n%s", so)
	}
	id := row[1][0]
	if r := jsonOf[map[string]any](t, first(h.run(0, append([]string{"wait", "restore", id, "-o", "json"}, binPoll...)...))); r["status"] != "Succeeded" || r["key"] != key {
		t.Errorf("wait restore %s: %v", id, r)
	}

	// a point in time a minute after that backup ended, --wait to the end
	at := end.Add(time.Minute).UTC()
	so, se := h.run(0, create(append(append([]string{"--from", sandbox.DemoOrders, "--at", at.Format("2006-01-02 15:04"), "--wait", "-o", "json"}, confirmed...), binPoll...)...)...)
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
	// a finished restore is refused as the TUI's d refuses it: nothing sent
	h.unsent(exitUsage, "has finished (Succeeded): only a restore that has not finished can be deleted (nothing was sent)", "restores", "delete", id, "--yes", "--confirm", sandbox.DemoReplica)
	// every restore, by ID (the live service's listings come per service)
	var ids []int
	for _, l := range strings.Split(first(h.run(0, "restores", "list", "--no-headers")), "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			n, _ := strconv.Atoi(f[0])
			ids = append(ids, n)
		}
	}
	if len(ids) < 3 || !slices.IsSorted(ids) {
		t.Errorf("restores list is not in ID order: %v", ids)
	}
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
	h.fails(exitFailed, "timed out after 300ms waiting for restore "+id+" to finish (last: Running", "wait", "restore", id, "--timeout", "300ms", "--poll-interval", "50ms")
	h.fails(exitFailed, "409", "services", "delete", sandbox.DemoReplica, "--yes", "--confirm", sandbox.DemoReplica)

	h.refused("restores delete is destructive: pass --yes", "restores", "delete", id, "--confirm", sandbox.DemoReplica)
	h.refused("restores delete needs --confirm with the target service's exact name: pass --confirm replica-west (nothing was sent)", "restores", "delete", id, "--yes")
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
