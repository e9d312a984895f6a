package cli

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/config"
	"github.com/skytui/skytui/internal/testenv"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/tuitest"
)

func TestChangeServicesStopStart(t *testing.T) {
	h, sb := newChangeHarness(t)
	// stop is destructive: --yes, or nothing is sent
	h.fails(exitRefused, "skytui: services stop is destructive: pass --yes", h.live("services", "stop", sandbox.DemoReplica)...)
	if n := tuitest.Changes(sb); n != 0 {
		t.Fatalf("%d changes sent without --yes", n)
	}
	s := decodeJSON[map[string]any](t, h.ok(h.live("services", "stop", sandbox.DemoReplica, "--yes", "--wait", "--poll-interval", "20ms", "-o", "json")...))
	if s["status"] != "stopped" {
		t.Fatalf("after stop --wait: %v", s)
	}
	s = decodeJSON[map[string]any](t, h.ok(h.live("services", "start", sandbox.DemoReplica, "--wait", "--poll-interval", "20ms", "-o", "json")...))
	if s["status"] != "ready" {
		t.Fatalf("after start --wait: %v", s)
	}
	if n := sb.Stats().Count("POST", "/provisioning/v1/services/{id}/stop"); n != 1 {
		t.Errorf("%d stops sent, want 1", n)
	}
	// the API's refusal: a ready service cannot be started
	h.fails(exitFailed, "skytui: ", h.live("services", "start", sandbox.DemoReplica)...)
}

// On a real-time clock the service stays pending: a second change is
// refused by the API with its message.
func TestChangeServicesRefusedWhilePending(t *testing.T) {
	h, _ := serveHarness(t, sandbox.Options{DemoData: true, Seed: 7}, goodKey)
	out := h.ok(h.live("services", "stop", sandbox.DemoReplica, "--yes")...)
	if !strings.Contains(out, "pending_stop") {
		t.Fatalf("stop without --wait shows the pending status:\n%s", out)
	}
	stderr := h.fails(exitFailed, "skytui: ", h.live("services", "start", sandbox.DemoReplica)...)
	if !strings.Contains(stderr, "pending state") {
		t.Errorf("start while pending_stop: %q", stderr)
	}
	// the target of a running restore cannot be deleted
	stderr = h.fails(exitFailed, "skytui: ", h.live("services", "delete", sandbox.DemoStaging, "--yes", "--confirm", sandbox.DemoStaging)...)
	if !strings.Contains(stderr, "target of restore") {
		t.Errorf("delete during a restore: %q", stderr)
	}
}

func TestChangeServicesDelete(t *testing.T) {
	h, sb := newChangeHarness(t)
	h.fails(exitRefused, "skytui: services delete needs --confirm with the target service's exact name: pass --confirm legacy-batch (nothing was sent)", h.live("services", "delete", sandbox.DemoLegacy, "--yes")...)
	h.fails(exitRefused, "skytui: services delete is destructive: pass --yes", h.live("services", "delete", sandbox.DemoLegacy, "--confirm", sandbox.DemoLegacy)...)
	h.fails(exitRefused, `skytui: services delete: --confirm "legacy" does not match the target service's name: pass --confirm legacy-batch`,
		h.live("services", "delete", sandbox.DemoLegacy, "--yes", "--confirm", "legacy")...)
	if n := tuitest.Changes(sb); n != 0 {
		t.Fatalf("%d changes sent by refused deletes", n)
	}
	s := decodeJSON[map[string]any](t, h.ok(h.live("services", "delete", sandbox.DemoLegacy, "--yes", "--confirm", sandbox.DemoLegacy, "--wait", "--poll-interval", "20ms", "-o", "json")...))
	if s["status"] != "deleted" {
		t.Fatalf("after delete --wait: %v", s)
	}
	h.fails(exitNotFound, `skytui: no service named "legacy-batch"`, h.live("services", "get", sandbox.DemoLegacy)...)
}

func TestChangeServicesScale(t *testing.T) {
	h, sb := newChangeHarness(t)
	h.fails(exitUsage, "skytui: services scale: give exactly one of --nodes, --size or --storage", h.live("services", "scale", sandbox.DemoOrders)...)
	h.fails(exitUsage, "skytui: services scale: give exactly one", h.live("services", "scale", sandbox.DemoOrders, "--nodes", "3", "--size", "sky-4x16")...)
	h.fails(exitUsage, "skytui: invalid request: --nodes (nodes): must be at least 1", h.live("services", "scale", sandbox.DemoOrders, "--nodes", "0")...)
	h.fails(exitUsage, "skytui: --size sky-1x1: not offered for es-replica on aws; choose one of sky-2x8", h.live("services", "scale", sandbox.DemoOrders, "--size", "sky-1x1")...)
	stderr := h.fails(exitUsage, "skytui: invalid request: --storage (storage): can only grow", h.live("services", "scale", sandbox.DemoOrders, "--storage", "100")...)
	_ = stderr
	h.fails(exitUsage, "skytui: --storage 3000: not offered for es-replica; choose one of 1000, 1500, 2000 GB (nothing was sent)\n", h.live("services", "scale", sandbox.DemoOrders, "--storage", "3000")...)
	// a single-node topology has one node (the TUI's scale screen dims it)
	h.fails(exitUsage, "skytui: --nodes 3: topology es-single has one node (nothing was sent)\n", h.live("services", "scale", sandbox.DemoAnalytics, "--nodes", "3")...)
	h.fails(exitUsage, "skytui: --nodes 1: analytics-gcp already has 1 node (nothing was sent)\n", h.live("services", "scale", sandbox.DemoAnalytics, "--nodes", "1")...)
	h.fails(exitUsage, "skytui: --nodes 2: orders-prod already has 2 nodes (nothing was sent)\n", h.live("services", "scale", sandbox.DemoOrders, "--nodes", "2")...)
	if n := tuitest.Changes(sb); n != 0 {
		t.Fatalf("%d changes sent by refused scales", n)
	}
	s := decodeJSON[map[string]any](t, h.ok(h.live("services", "scale", sandbox.DemoOrders, "--size", "sky-16x64", "--wait", "--poll-interval", "20ms", "-o", "json")...))
	if s["status"] != "ready" || s["size"] != "sky-16x64" {
		t.Fatalf("after scale --size --wait: %v", s)
	}
	s = decodeJSON[map[string]any](t, h.ok(h.live("services", "scale", sandbox.DemoOrders, "--storage", "2000", "--wait", "--poll-interval", "20ms", "-o", "json")...))
	if sv, _ := s["storage_volume"].(map[string]any); sv["size"] != float64(2000) {
		t.Fatalf("after scale --storage --wait: %v", s)
	}
	h.fails(exitUsage, "skytui: --storage 3000: es-replica offers no storage size larger than the current 2000 GB (nothing was sent)\n", h.live("services", "scale", sandbox.DemoOrders, "--storage", "3000")...)
}

func TestChangeLifecycleReadOnly(t *testing.T) {
	h, sb := newChangeHarness(t)
	body := "[[profile]]\nname = \"audit\"\nbase_url = \"" + h.url + "\"\nbackup_prefix = \"/skybackup/v1\"\nread_only = true\n"
	if err := os.WriteFile(h.cfgPath, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	before := sb.Stats().Total
	for _, c := range [][]string{
		{"services", "stop", sandbox.DemoOrders, "--yes"},
		{"services", "start", sandbox.DemoLegacy},
		{"services", "scale", sandbox.DemoOrders, "--nodes", "3"},
		{"services", "delete", sandbox.DemoLegacy, "--yes", "--confirm", sandbox.DemoLegacy},
	} {
		h.fails(exitRefused, "skytui: profile audit is read-only: "+c[0]+" "+c[1]+" refused, nothing was sent\n", append(c, "--profile", "audit")...)
	}
	if after := sb.Stats().Total; after != before {
		t.Fatalf("a read-only profile sent %d requests", after-before)
	}
}

// A wait that follows a change just accepted does not call the status the
// change has not moved yet a dead end (the server's read may lag behind
// its write): a stop whose service still reads ready is waited for, and
// only a wait on its own fails at once.
func TestWaitAfterChangeGivesTheStatusTimeToMove(t *testing.T) {
	c := fixedService(t, "orders-prod", "ready")
	w := &waiter{timeout: 300 * time.Millisecond, poll: 20 * time.Millisecond, what: "orders-prod", check: "skytui services get orders-prod", afterChange: true}
	_, err := w.waitService(context.Background(), c, "dbtgf00000001", forStopped)
	if err == nil || !strings.Contains(err.Error(), "timed out after 300ms waiting for orders-prod to be stopped (last: ready)") {
		t.Fatalf("after a stop: %v, want it waited for until the timeout", err)
	}
	w.afterChange = false
	_, err = w.waitService(context.Background(), c, "dbtgf00000001", forStopped)
	if err == nil || !strings.Contains(err.Error(), "nothing is stopping it") {
		t.Fatalf("a wait on its own: %v, want the dead end said at once", err)
	}
}

// TestDeleteGoneWhenReadAgain: a delete accepted whose service reads 404
// at once (the delete was quick) is done: printed as deleted, exit 0, not
// "reading it again failed" with a check that exits 4.
func TestDeleteGoneWhenReadAgain(t *testing.T) {
	sb := sandbox.New(sandbox.Options{APIKey: goodKey, DemoData: true, Seed: 7, Clock: sandbox.NewManualClock(testenv.T0)})
	var deleted atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/provisioning/v1/services/db") && strings.Count(r.URL.Path, "/") == 4 {
			if r.Method == http.MethodDelete {
				deleted.Store(true)
			} else if r.Method == http.MethodGet && deleted.Load() {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotFound)
				_, _ = w.Write([]byte(`{"code":404,"message":"service not found"}`))
				return
			}
		}
		sb.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	h := &harness{t: t, url: srv.URL, secrets: filepath.Join(dir, "secrets.age"), cfgPath: filepath.Join(dir, "config.toml")}
	t.Setenv(config.EnvConfig, h.cfgPath)
	t.Setenv(keystore.EnvAPIKey, goodKey)
	out := decodeJSON[map[string]any](t, h.ok(h.live("services", "delete", sandbox.DemoLegacy, "--yes", "--confirm", sandbox.DemoLegacy, "-o", "json")...))
	if out["status"] != "deleted" || out["name"] != sandbox.DemoLegacy {
		t.Fatalf("a delete gone when read again: %v", out)
	}
}

// TestScaleGoesOnWhenItsChoicesCannotBeRead: a scale whose sizes or
// storage sizes cannot be read says so on stderr and is sent, the API
// left to judge it (as services create does), not ended before sending
// with the listing's error.
func TestScaleGoesOnWhenItsChoicesCannotBeRead(t *testing.T) {
	h, sb := newChangeHarness(t)
	h.front(func(w http.ResponseWriter, r *http.Request, next http.Handler) {
		if r.Method == http.MethodGet && (r.URL.Path == "/provisioning/v1/sizes" || strings.HasSuffix(r.URL.Path, "/storage-sizes")) {
			http.Error(w, `{"detail":"not here"}`, http.StatusForbidden)
			return
		}
		next.ServeHTTP(w, r)
	})
	for _, c := range []struct{ flag, value, said, path string }{
		{"--size", "sky-16x64", "skytui: services scale: the sizes of es-replica on aws could not be read (403 Forbidden", "/provisioning/v1/services/{id}/size"},
		{"--storage", "2000", "skytui: services scale: the storage sizes of es-replica could not be read (403 Forbidden", "/provisioning/v1/services/{id}/storage/size"},
	} {
		_, stderr, code := h.script(h.live("services", "scale", sandbox.DemoOrders, c.flag, c.value, "--wait", "--poll-interval", "20ms")...)
		if code != 0 || !strings.Contains(stderr, c.said) || !strings.Contains(stderr, c.flag+" is not checked here: the API judges it\n") {
			t.Errorf("scale %s with its choices unread: exit %d\n%s", c.flag, code, stderr)
		}
		method := "POST"
		if c.flag == "--storage" {
			method = "PATCH"
		}
		if n := sb.Stats().Count(method, c.path); n != 1 {
			t.Errorf("scale %s: %d requests sent, want 1", c.flag, n)
		}
	}
}

// TestWaitProgressNamesTheGoal: on a terminal the progress line says the
// state read and the one waited for ("pending_stop, until stopped").
func TestWaitProgressNamesTheGoal(t *testing.T) {
	c := fixedService(t, "orders-stage", "pending_stop")
	var stderr strings.Builder
	w := &waiter{e: &env{stderr: &stderr}, timeout: 100 * time.Millisecond, poll: 20 * time.Millisecond, what: "orders-stage", check: "skytui services get orders-stage", progress: true}
	if _, err := w.waitService(context.Background(), c, "dbtgf00000001", forStopped); err == nil {
		t.Fatal("a service pending_stop for ever was waited for to its end")
	}
	if !strings.Contains(stderr.String(), "orders-stage: pending_stop, until stopped  0s") {
		t.Errorf("progress line: %q", stderr.String())
	}
}

// fixedService is a client of a server whose every answer is service
// dbtgf00000001, named name, in status: a status that never moves.
func fixedService(t *testing.T, name, status string) *api.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"id":"dbtgf00000001","name":%q,"status":%q}`, name, status)
	}))
	t.Cleanup(srv.Close)
	c, err := api.New(api.Config{BaseURL: srv.URL, APIKey: "k", MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
