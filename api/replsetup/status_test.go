package replsetup

import (
	"strings"
	"testing"

	"github.com/skytui/skytui/api"
)

// A pair's service that is not ready: its state and the fix of that
// state, by status. A stopped one is started (it read "wait until it is
// ready (a restore or a change is running)", where nothing runs), a
// stopping one started once stopped, a failed one does not recover by
// itself, a pending one is waited for, a deleted one ends the pair.
func TestServiceState(t *testing.T) {
	for _, tc := range []struct {
		role, status string
		errors       []string
		problem, fix string
	}{
		{"secondary", "ready", nil, "", ""},
		{"replica", "stopped", nil, "the replica svc is stopped: it does not replicate",
			"start it: :start svc (or x on the Services screen)"},
		{"primary", "stopped", nil, "the primary svc is stopped: nothing replicates from it",
			"start it: :start svc (or x on the Services screen)"},
		{"secondary", "pending_stop", nil, "the secondary svc is pending_stop (stopping): it does not replicate once stopped",
			"once it is stopped, start it: :start svc (or x on the Services screen)"},
		{"secondary", "pending_start", nil, "the secondary svc is pending_start (starting)", "wait until it is ready"},
		{"secondary", "pending_scale", nil, "the secondary svc is pending_scale: a change is running on it", "wait until it is ready"},
		{"primary", "failed", []string{"disk full"}, "the primary svc is failed (disk full): nothing replicates from it",
			"a failed service does not become ready by itself"},
		{"secondary", "pending_delete", nil, "the secondary svc is pending_delete: replication ends with it", "nothing brings it back: d forgets this pair"},
	} {
		s := &api.Service{ID: "dbtx", Name: "svc", Status: tc.status, Errors: tc.errors}
		problem, fix := ServiceState(tc.role, s)
		if problem != tc.problem || !strings.HasPrefix(fix, tc.fix) || (tc.fix == "") != (fix == "") {
			t.Errorf("%s %s: %q, %q; want %q, %q…", tc.role, tc.status, problem, fix, tc.problem, tc.fix)
		}
	}
}

// The threads of a replica status: stopped (s has nothing to do) when
// both are No, running (S has nothing to do) when both run, the IO
// thread maybe connecting; anything else is neither.
func TestStoppedRunning(t *testing.T) {
	for _, tc := range []struct {
		io, sql          string
		configured       bool
		stopped, running bool
	}{
		{"No", "No", true, true, false},
		{"Yes", "Yes", true, false, true},
		{"Connecting", "Yes", true, false, true},
		{"No", "Yes", true, false, false},
		{"Yes", "No", true, false, false},
		{"No", "No", false, false, false},
	} {
		st := &api.ReplicationStatus{Configured: tc.configured, IORunning: tc.io, SQLRunning: tc.sql}
		if Stopped(st) != tc.stopped || Running(st) != tc.running {
			t.Errorf("%s/%s configured %v: stopped %v running %v", tc.io, tc.sql, tc.configured, Stopped(st), Running(st))
		}
	}
	if Stopped(nil) || Running(nil) {
		t.Error("no status is stopped or running")
	}
}

// A stopped secondary's status: PairStatus says so with NotReady (its
// state, not a failed read) and the secondary as read; the fix of that
// error is to start it.
func TestPairStatusOfStoppedSecondary(t *testing.T) {
	e := newEnv(t, true)
	pri, sec := e.byName("orders-prod"), e.byName("legacy-batch")
	ps, err := e.eng.PairStatus(bg, Pair{PrimaryID: pri.ID, SecondaryID: sec.ID}, nil)
	if !NotReady(err) || ps.Secondary.ID != sec.ID || ps.Secondary.Status != "stopped" || ps.Status != nil {
		t.Fatalf("%+v %v", ps, err)
	}
	if _, fix := SQLFixRetry(err, "secondary", "legacy-batch", StepStart, "r reads now"); fix != "start it: :start legacy-batch (or x on the Services screen)" {
		t.Fatalf("fix %q", fix)
	}
	if NotReady(&api.SQLError{Code: 2003}) {
		t.Fatal("an SQL error is not the service's state")
	}
}
