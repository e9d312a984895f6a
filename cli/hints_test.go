package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/skytui/skytui/sandbox"
)

// TestHintsRunWhereTheRunRan: a command skytui suggests carries the
// --profile and --api-url the run was given, once; one that names its own
// profile or URL, the demo or the sandbox is left as it is, and a run
// given neither suggests commands as they are.
func TestHintsRunWhereTheRunRan(t *testing.T) {
	e := &env{}
	msg := "check with `skytui services get orders` and `skytui auth login --profile lab --api-url https://x` or `skytui --demo`"
	if got := e.hinted(msg); got != msg {
		t.Errorf("no selection: %q", got)
	}
	e.noteSelection("staging", "")
	want := "check with `skytui services get orders --profile staging` and `skytui auth login --profile lab --api-url https://x` or `skytui --demo`"
	if got := e.hinted(msg); got != want {
		t.Errorf("--profile:\n%q\nwant\n%q", got, want)
	}
	e.noteSelection("my lab", "http://127.0.0.1:8080")
	if got := e.hinted("stop it (`skytui replication stop 'replica west' --yes`)"); got != "stop it (`skytui replication stop 'replica west' --yes --profile 'my lab' --api-url http://127.0.0.1:8080`)" {
		t.Errorf("--profile and --api-url: %q", got)
	}
	// a command naming its own profile keeps the run's URL: the key a
	// suggested auth login checks and stores is for the endpoint the run
	// was on (it went to the profile's, the live API's)
	e.noteSelection("skysql", "http://127.0.0.1:18189")
	if got := e.hinted("no API key: run `skytui auth login --profile skysql` (or set SKYSQL_API_KEY)"); got != "no API key: run `skytui auth login --profile skysql --api-url http://127.0.0.1:18189` (or set SKYSQL_API_KEY)" {
		t.Errorf("auth login's hint: %q", got)
	}
	// in the command tree: creds takes neither flag (its secrets are no
	// profile's), and is suggested as it is
	newRootCmd(e)
	e.noteSelection("staging", "")
	if got := e.hinted("see `skytui creds list`; or `skytui services get orders`"); got != "see `skytui creds list`; or `skytui services get orders --profile staging`" {
		t.Errorf("creds: %q", got)
	}
	f := &outputFlags{apiURL: "http://127.0.0.1:8080"}
	if got := f.suggest("skytui restores list --service orders"); got != "skytui restores list --service orders --api-url http://127.0.0.1:8080" {
		t.Errorf("a JSON answer's check: %q", got)
	}
}

// TestUsageErrorHintsRunWhereTheRunRan: a command refused before it
// reached the API (a usage error) suggests commands with the --profile
// and --api-url it was given too.
func TestUsageErrorHintsRunWhereTheRunRan(t *testing.T) {
	h, _ := newChangeHarness(t)
	_, stderr, err := h.runSplit(h.live("schedules", "edit", "abc", "--suspend")...)
	if exitCode(err) != exitUsage || !strings.Contains(err.Error(), "`"+h.sel("skytui schedules list --service SERVICE")+"`") {
		t.Fatalf("exit %d: %v\n%s", exitCode(err), err, stderr)
	}
}

// TestHintsNameASharedServiceByID: where two services have the same name,
// a suggested check names the service it means by its ID (by name it
// would read, or later change, the other one); a create whose answer was
// lost, with its name shared, is checked in the listing.
func TestHintsNameASharedServiceByID(t *testing.T) {
	h, sb := newChangeHarness(t)
	first := serviceID(t, h, sandbox.DemoReplica)
	if err := sb.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerDropped, Method: "POST", Path: "/provisioning/v1/services"}); err != nil {
		t.Fatal(err)
	}
	stderr := h.fails(exitFailed, "skytui: outcome unknown: ", h.live("services", "create", "--name", sandbox.DemoReplica, "--provider", "aws",
		"--region", "us-east-1", "--topology", "es-single", "--size", "sky-2x8", "--storage", "100", "--allow-duplicate-name")...)
	if !strings.Contains(stderr, "check with `"+h.sel("skytui services list")+"`") {
		t.Fatalf("the check of a create whose name is shared: %s", stderr)
	}
	var dup string
	for _, s := range decodeJSON[[]map[string]any](t, h.ok(h.live("services", "list", "-o", "json")...)) {
		if id, _ := s["id"].(string); s["name"] == sandbox.DemoReplica && id != first {
			dup = id
		}
	}
	if dup == "" {
		t.Fatal("no second replica-west was created")
	}
	h.ok(h.live("wait", "service", dup, "--for", "ready", "--poll-interval", "20ms")...)
	if err := sb.ArmFault(sandbox.ArmedFault{Kind: sandbox.AnswerDropped}); err != nil {
		t.Fatal(err)
	}
	stderr = h.fails(exitFailed, "skytui: outcome unknown: ", h.live("services", "stop", dup, "--yes")...)
	if !strings.Contains(stderr, "check with `"+h.sel("skytui services get "+dup)+"`") {
		t.Fatalf("the check of a shared name's service: %s", stderr)
	}
}

// TestAcceptedButNotReadAgain: a change accepted whose record cannot be
// read again after it exits 0, says so with the command to check it with,
// and under -o json prints the accepted object (never nothing).
func TestAcceptedButNotReadAgain(t *testing.T) {
	h, sb := newChangeHarness(t)
	// the reads after a change fail: a service's own record, an allow list
	var changed atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if changed.Load() && r.Method == http.MethodGet && r.URL.Path != "/provisioning/v1/services" {
			http.Error(w, `{"errors":[{"message":"backend unavailable"}]}`, http.StatusServiceUnavailable)
			return
		}
		if r.Method == http.MethodGet {
			sb.ServeHTTP(w, r)
			return
		}
		// a change: carried out, its answer unreadable
		rec := httptest.NewRecorder()
		sb.ServeHTTP(rec, r)
		w.WriteHeader(rec.Code)
		io.WriteString(w, "<html>gateway: ok</html>")
		changed.Store(true)
	}))
	t.Cleanup(srv.Close)
	h.url = srv.URL
	for _, c := range []struct {
		args  []string
		check string
	}{
		{[]string{"services", "stop", sandbox.DemoAnalytics, "--yes"}, "skytui services get analytics-gcp"},
		{[]string{"allowlist", "add", sandbox.DemoOrders, "203.0.113.99"}, "skytui allowlist list orders-prod"},
	} {
		stdout, stderr, code := h.script(h.live(append(c.args, "-o", "json")...)...)
		v := map[string]any{}
		if err := json.Unmarshal([]byte(stdout), &v); code != 0 || err != nil || v["accepted"] != true || v["answer"] != "not read again" || v["check"] != h.sel(c.check) ||
			!strings.Contains(stderr, "check with `"+h.sel(c.check)+"`") {
			t.Errorf("%v: exit %d\nstdout %s\nstderr %s", c.args, code, stdout, stderr)
		}
		changed.Store(false)
	}
	if s := decodeJSON[map[string]any](t, h.ok(h.live("services", "get", sandbox.DemoAnalytics, "-o", "json")...)); s["status"] == "ready" {
		t.Errorf("the stop was not made: %v", s["status"])
	}
}
