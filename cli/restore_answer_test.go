package cli

import (
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/skytui/skytui/sandbox"
)

// TestUnreadableRestoreAnswerTable: a restore accepted whose answer could
// not be read prints, as a table, only what the request named: no ID and
// the status unknown (not a status the client made up), and the command
// that shows the restore.
func TestUnreadableRestoreAnswerTable(t *testing.T) {
	h, sb := newChangeHarness(t)
	key := newestBackupKey(t, h, sandbox.DemoOrders)
	if err := sb.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerUnreadable, Method: "POST", Path: "/skybackup/v1/restores"}); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := h.script(h.live("restores", "create", "--service", sandbox.DemoLegacy, "--backup", key, "--yes", "--confirm", sandbox.DemoLegacy)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	rows := tableRows(stdout)
	if len(rows) != 2 || strings.Join(rows[1], " ") != "- "+sandbox.DemoLegacy+" unknown - "+key[:12] {
		t.Errorf("table:\n%s", stdout)
	}
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "skytui: accepted; the answer could not be read: ") ||
		lines[1] != "skytui: the restore's ID and status are unknown: check with `"+h.sel("skytui restores list --service legacy-batch")+"`" {
		t.Errorf("stderr:\n%s", stderr)
	}
}

// TestRestoreAnswerWithoutRecordJSON: an accepted answer that names no
// restore ({}) prints under -o json no stand-in record with a made-up
// status and ID 0, but that it was accepted, what the request named and
// the command that shows it.
func TestRestoreAnswerWithoutRecordJSON(t *testing.T) {
	h, sb := newChangeHarness(t)
	key := newestBackupKey(t, h, sandbox.DemoOrders)
	if err := sb.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerUnreadable, Method: "POST", Path: "/skybackup/v1/restores", Body: "{}"}); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := h.script(h.live("restores", "create", "--service", sandbox.DemoLegacy, "--backup", key, "--yes", "--confirm", sandbox.DemoLegacy, "-o", "json")...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	v := decodeJSON[map[string]any](t, stdout)
	if v["accepted"] != true || v["answer"] != "no record" || v["check"] != h.sel("skytui restores list --service legacy-batch") || v["status"] != nil || v["id"] != nil {
		t.Errorf("-o json: %s", stdout)
	}
}

// TestUnreadableRestoreAnswerNamesItsTarget: the stand-in row names the
// target by its name even when the services cannot be read again for the
// table (it showed the target's ID).
func TestUnreadableRestoreAnswerNamesItsTarget(t *testing.T) {
	h, sb := newChangeHarness(t)
	key := newestBackupKey(t, h, sandbox.DemoOrders)
	if err := sb.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerUnreadable, Method: "POST", Path: "/skybackup/v1/restores"}); err != nil {
		t.Fatal(err)
	}
	var sent atomic.Bool
	h.front(func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if r.Method == http.MethodPost {
			sent.Store(true)
		} else if sent.Load() && r.URL.Path == "/provisioning/v1/services" {
			http.Error(w, `{"detail":"down"}`, http.StatusServiceUnavailable)
			return
		}
		next.ServeHTTP(w, r)
	})
	stdout, stderr, code := h.script(h.live("restores", "create", "--service", sandbox.DemoLegacy, "--backup", key, "--yes", "--confirm", sandbox.DemoLegacy)...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if rows := tableRows(stdout); len(rows) != 2 || strings.Join(rows[1], " ") != "- "+sandbox.DemoLegacy+" unknown - "+key[:12] {
		t.Errorf("table:\n%s", stdout)
	}
}
