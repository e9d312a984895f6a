package replsetup

import (
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/internal/testenv"
	"github.com/skytui/skytui/sandbox"
)

// busyCheck runs RefuseBusy on the pair orders-prod -> replica-west of
// eng with saved (and its error) as the pairs saved here; the Busy its
// fix was asked for (nil: none).
func busyCheck(e *env, eng *Engine, saved []Pair, err error) (Outcome, string, *Busy) {
	pri, sec := e.byName("orders-prod"), e.byName("replica-west")
	var got *Busy
	eng.Saved = func() ([]Pair, error) { return saved, err }
	eng.BusyFix = func(b Busy) string {
		got = &b
		return "the fix"
	}
	o, note := eng.RefuseBusy(bg, eng.CheckPair(bg, pri.ID, sec.ID))
	return o, note, got
}

// TestRefuseBusyWithoutSQL: when the secondary's threads cannot be read
// (no SQL answers here), a pair saved on this machine refuses it, with
// the pair's primary and the caller's fix; without one it is refused as
// not known (a restore is an erase), and a managed setup's replica
// passes with a note.
func TestRefuseBusyWithoutSQL(t *testing.T) {
	clk := sandbox.NewManualClock(testenv.T0)
	srv := sandbox.New(sandbox.Options{APIKey: testKey, Clock: clk, DemoData: true, Seed: 7}) // SQLNone
	e := &env{t: t, srv: srv, clk: clk, c: testenv.Serve(t, srv, testKey)}
	eng := &Engine{Client: e.c, Now: clk.Now, SQLTimeout: time.Second}
	pri, sec := e.byName("orders-prod"), e.byName("replica-west")

	o, note, b := busyCheck(e, eng, []Pair{{PrimaryID: pri.ID, PrimaryName: pri.Name, SecondaryID: sec.ID, SecondaryName: sec.Name}}, nil)
	if o.Verdict != Fail || b == nil || b.Saved == nil || o.Fix != "the fix" || note != "" ||
		o.Problem != "replica-west already replicates from orders-prod (set up with skytui, on the replication list): end that replication first" {
		t.Fatalf("a saved pair did not refuse: %+v, note %q", o, note)
	}

	// not knowing is no leave to erase: refused, saying what was not read
	for _, savedErr := range []error{nil, errors.New("state file unreadable")} {
		o, _, b = busyCheck(e, eng, nil, savedErr)
		if o.Verdict != Fail || b == nil || !strings.HasPrefix(o.Problem, "whether replica-west may be erased is not known: its replication threads could not be read over SQL: ") {
			t.Fatalf("threads not read (saved pairs' error %v): %+v", savedErr, o)
		}
	}
	// managed replication erases nothing: the reading's failure is a note
	eng.Saved = nil
	o, note = eng.RefuseReplica(bg, eng.CheckPair(bg, pri.ID, sec.ID))
	if o.Verdict != Pass || !strings.HasPrefix(note, "whether replica-west replicates now could not be read: ") {
		t.Fatalf("a managed replica's threads not read: %+v, note %q", o, note)
	}

	// a pair saved with the secondary as its primary: erasing it would
	// break what replicates from it, whatever its own threads
	o, _, b = busyCheck(e, eng, []Pair{{PrimaryID: sec.ID, PrimaryName: sec.Name, SecondaryID: "dbtother", SecondaryName: "replica-east"}}, nil)
	if o.Verdict != Fail || b == nil || b.FeedsName != "replica-east" ||
		o.Problem != "replica-west is the primary of replica-east: a restore would erase what replica-east replicates from" {
		t.Fatalf("the primary of a saved pair: %+v", o)
	}

	// a pair that failed its own check is left as it is: nothing is read
	eng.Saved = func() ([]Pair, error) {
		t.Fatal("the saved pairs were read for a failed check")
		return nil, nil
	}
	o, note = eng.RefuseBusy(bg, Outcome{Step: StepPair, Verdict: Fail, Problem: "other provider"})
	if o.Problem != "other provider" || note != "" {
		t.Fatalf("a failed check changed: %+v, note %q", o, note)
	}
}

// TestRefuseBusyManaged: a secondary the API reports as a managed replica
// is refused as one (naming its primary), its threads stopped or not; its
// primary is refused as a secondary too, since the restore would erase
// what the replica replicates from. Before the restore StartRestore looks
// again and sends nothing.
func TestRefuseBusyManaged(t *testing.T) {
	e := newEnv(t, true)
	pri, rep := e.byName("orders-prod"), e.byName("replica-west")
	if _, err := e.c.StartManagedReplication(bg, rep.ID, pri.ID, "uni-directional"); err != nil {
		t.Fatal(err)
	}
	o, _, b := busyCheck(e, e.eng, nil, nil)
	if o.Verdict != Fail || b == nil || !b.Managed ||
		o.Problem != "the API reports replica-west as a replica of orders-prod ("+pri.ID+") (managed replication): it replicates already" {
		t.Fatalf("a managed replica: %+v", o)
	}
	e.eng.Saved, e.eng.BusyFix = nil, nil
	o, _ = e.eng.RefuseBusy(bg, e.eng.CheckPair(bg, e.launch("other-aws", "aws").ID, pri.ID))
	if o.Verdict != Fail || !strings.HasPrefix(o.Problem, "orders-prod is the primary of replica-west") {
		t.Fatalf("the primary of a managed replica as a secondary: %+v", o)
	}
	// the restore's own look: refused, nothing sent
	before := e.srv.Stats().Count("POST", "/backup/v1/restores")
	o = e.eng.StartRestore(bg, Progress{PrimaryID: pri.ID, SecondaryID: rep.ID, SecondaryName: rep.Name, BackupKey: "k"})
	if o.Verdict != Fail || !strings.HasSuffix(o.Problem, "(the restore was not sent)") || e.srv.Stats().Count("POST", "/backup/v1/restores") != before {
		t.Fatalf("the restore into a managed replica: %+v", o)
	}
}

// TestRefuseBusyReplicationEnabledAlone: replication_enabled without a
// primary host, and no service replicating from it, refuses nothing (what
// the flag means is not written down; a topology's own replicas may set
// it): its threads, read as not running, decide.
func TestRefuseBusyReplicationEnabledAlone(t *testing.T) {
	e := newEnv(t, true)
	sec := e.byName("replica-west")
	sec.ReplicationEnabled = true
	o, note := e.eng.RefuseBusy(bg, Outcome{Step: StepPair, Verdict: Pass, Secondary: sec})
	if o.Verdict != Pass || note != "" {
		t.Fatalf("replication_enabled alone refused: %+v, note %q", o, note)
	}
}

// TestRefuseBusyListingFails: when the services listing cannot be read,
// whether another service replicates from the secondary is not known:
// refused, at step 0 as before the restore (nothing sent).
func TestRefuseBusyListingFails(t *testing.T) {
	e := newEnv(t, true)
	listing := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/provisioning/v1/services" {
			http.Error(w, `{"errors":[{"message":"backend unavailable"}]}`, http.StatusServiceUnavailable)
			return
		}
		e.srv.ServeHTTP(w, r)
	})
	ts := httptest.NewServer(listing)
	t.Cleanup(ts.Close)
	c, err := api.New(api.Config{BaseURL: ts.URL, APIKey: testKey, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	eng := &Engine{Client: c, Now: e.clk.Now, SQLTimeout: 5 * time.Second}
	pri, sec := e.byName("orders-prod"), e.byName("replica-west")
	o, _ := eng.RefuseBusy(bg, eng.CheckPair(bg, pri.ID, sec.ID))
	if o.Verdict != Fail || !strings.HasPrefix(o.Problem, "whether replica-west may be erased is not known: whether another service replicates from it could not be read: ") {
		t.Fatalf("step 0 with the listing failing: %+v", o)
	}
	before := e.srv.Stats().Count("POST", "/backup/v1/restores")
	o = eng.StartRestore(bg, Progress{PrimaryID: pri.ID, SecondaryID: sec.ID, SecondaryName: sec.Name, BackupKey: "k"})
	if o.Verdict != Fail || !o.NotSent || e.srv.Stats().Count("POST", "/backup/v1/restores") != before {
		t.Fatalf("the restore with the listing failing: %+v", o)
	}
}

// TestRefuseBusyScanIsBounded: the other services are read within
// ScanTimeout, all together: one whose server accepts the connection and
// never answers is said to be unread once it has passed (not refused),
// however long SQLTimeout lets a single statement take.
func TestRefuseBusyScanIsBounded(t *testing.T) {
	e := newEnv(t, true)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() { // accepts, never speaks
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { c.Close() })
		}
	}()
	sec := e.byName("replica-west")
	mute := ln.Addr().(*net.TCPAddr).Port
	e.eng.SQLTimeout, e.eng.ScanTimeout = time.Hour, 200*time.Millisecond
	e.eng.Open = func(tg api.SQLTarget) (*api.SQLClient, error) {
		if tg.Host != sec.FQDN {
			tg.Host, tg.Port = "127.0.0.1", mute
		}
		return api.OpenSQL(tg)
	}
	done := make(chan struct{})
	var o Outcome
	var note string
	go func() {
		defer close(done)
		o, note = e.eng.RefuseBusy(bg, Outcome{Step: StepPair, Verdict: Pass, Secondary: sec})
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("RefuseBusy still waits for a server that never answers, a minute on")
	}
	if o.Verdict != Pass || note != "whether orders-prod replicates from replica-west could not be read over SQL" {
		t.Fatalf("a mute service: %+v, note %q", o, note)
	}
}
