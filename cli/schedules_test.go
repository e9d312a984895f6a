package cli

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/skytui/skytui/sandbox"
)

// dailySchedule is the ID of orders-prod's daily cron schedule (demo data).
func dailySchedule(t *testing.T, h *harness) string {
	t.Helper()
	for _, s := range decodeJSON[[]map[string]any](t, h.ok(h.live("schedules", "list", "--service", sandbox.DemoOrders, "-o", "json")...)) {
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
	if !strings.Contains(stderr, "check with `skytui schedules get "+id+"` before sending it again") {
		t.Errorf("outcome unknown: %s", stderr)
	}

	// delete: --yes, then gone
	deletes := func() int { return sb.Stats().Count("DELETE", "/skybackup/v1/backups/schedules/{id}") }
	h.fails(exitRefused, "skytui: schedules delete is destructive: pass --yes to confirm it (nothing was sent)", h.live("schedules", "delete", id)...)
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
	before := changes(sb)
	h.fails(exitRefused, "skytui: profile audit is read-only: schedules edit refused, nothing was sent", "schedules", "edit", id, "--suspend", "--profile", "audit")
	h.fails(exitRefused, "skytui: profile audit is read-only: schedules delete refused, nothing was sent", "schedules", "delete", id, "--yes", "--profile", "audit")
	h.fails(exitRefused, "skytui: --read-only: schedules edit refused", h.live("schedules", "edit", id, "--resume", "--read-only")...)
	if n := changes(sb) - before; n != 0 {
		t.Fatalf("read-only sent %d changes", n)
	}
	if out := h.ok("schedules", "get", id, "--profile", "audit"); !strings.HasPrefix(out, "ID") {
		t.Errorf("schedules get on a read-only profile:\n%s", out)
	}
}
