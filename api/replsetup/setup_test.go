package replsetup

import (
	"context"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/internal/testenv"
	"github.com/skytui/skytui/sandbox"
)

func TestMain(m *testing.M) { testenv.Main(m) }

const testKey = "test-key-replication"

var bg = context.Background()

// env is a demo sandbox with SQL endpoints on a manual clock, reached
// over loopback HTTP like a real account.
type env struct {
	t   *testing.T
	srv *sandbox.Server
	clk *sandbox.ManualClock
	c   *api.Client
	eng *Engine
}

func newEnv(t *testing.T, demoData bool) *env {
	t.Helper()
	clk := sandbox.NewManualClock(testenv.T0)
	srv := sandbox.New(sandbox.Options{APIKey: testKey, Clock: clk, DemoData: demoData, SQL: sandbox.SQLDemo, Seed: 7})
	c := testenv.Serve(t, srv, testKey)
	return &env{t: t, srv: srv, clk: clk, c: c, eng: &Engine{Client: c, Now: clk.Now, SQLTimeout: 5 * time.Second}}
}

// launch creates a ready service and returns it.
func (e *env) launch(name, provider string) *api.Service {
	e.t.Helper()
	region := map[string]string{"aws": "us-east-1", "gcp": "us-central1", "azure": "westeurope"}[provider]
	s, err := e.c.CreateService(bg, api.CreateServiceRequest{ServiceType: "transactional", Topology: "es-single", Provider: provider,
		Region: region, Architecture: "amd64", Size: "sky-2x8", Storage: 100, Nodes: 1, Name: name, SSLEnabled: true})
	if err != nil {
		e.t.Fatal(err)
	}
	e.clk.Advance(sandbox.LaunchDuration + time.Second)
	return e.get(s.ID)
}

func (e *env) get(id string) *api.Service {
	e.t.Helper()
	s, err := e.c.GetService(bg, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return s
}

func (e *env) byName(name string) *api.Service {
	e.t.Helper()
	svcs, err := e.c.ListServices(bg)
	if err != nil {
		e.t.Fatal(err)
	}
	for i := range svcs {
		if svcs[i].Name == name {
			return &svcs[i]
		}
	}
	e.t.Fatalf("no service %s", name)
	return nil
}

// fullBackup takes a full backup of id and waits it out.
func (e *env) fullBackup(id string) {
	e.t.Helper()
	if _, err := e.c.CreateSchedule(bg, api.ScheduleRequest{BackupType: api.BackupFull, Schedule: "once", ServiceID: id}); err != nil {
		e.t.Fatal(err)
	}
	e.clk.Advance(time.Hour)
}

// backedUpPair launches name-main and name-copy on aws and takes a full
// backup of name-main, the primary.
func (e *env) backedUpPair(name string) (pri, sec *api.Service) {
	e.t.Helper()
	pri, sec = e.launch(name+"-main", "aws"), e.launch(name+"-copy", "aws")
	e.fullBackup(pri.ID)
	return pri, sec
}

func (e *env) posts(route string) int { return e.srv.Stats().Count("POST", route) }

const allowRoute = "/provisioning/v1/services/{id}/security/allowlist"

func want(t *testing.T, o Outcome, v Verdict) {
	t.Helper()
	if o.Verdict != v {
		t.Fatalf("%s: verdict %s, want %s: summary %q problem %q fix %q err %v", o.Step, o.Verdict, v, o.Summary, o.Problem, o.Fix, o.Err)
	}
}

// runToGrant takes a wizard through steps 0–4 for the pair, adding the
// allow-list entry only when addIP.
func (e *env) runToGrant(w *Wizard, pri, sec *api.Service, addIP bool) {
	t := e.t
	t.Helper()
	now := e.clk.Now
	o := e.eng.CheckPair(bg, pri.ID, sec.ID)
	want(t, o, Pass)
	w.Apply(o, now())
	if w.Current() != StepAllowList {
		t.Fatalf("after the pair: step %s", w.Current())
	}
	o = e.eng.CheckAllowList(bg, w.Progress)
	if addIP && o.Verdict == Fail {
		o = e.eng.AddAllowList(bg, w.Progress, o.Missing)
		want(t, o, Pass)
	}
	w.Apply(o, now())
	if !addIP {
		w.Progress.Step = StepBackup // skipped on purpose
	}
	o = e.eng.ListBackups(bg, w.Progress)
	w.Apply(o, now())
	if o.Backup == nil {
		t.Fatalf("no default backup: %+v", o)
	}
	if err := w.ChooseBackup(o.Backup.Backup.Key, now()); err != nil {
		t.Fatal(err)
	}
	o = e.eng.StartRestore(bg, w.Progress)
	want(t, o, Waiting)
	w.Apply(o, now())
	e.clk.Advance(2 * time.Hour)
	o = e.eng.CheckRestore(bg, w.Progress)
	want(t, o, Pass)
	w.Apply(o, now())
	o = e.eng.ChangePrimary(bg, w.Progress)
	want(t, o, Pass)
	w.Apply(o, now())
	if w.Current() != StepGrant || w.Grant == "" {
		t.Fatalf("after the change: step %s grant %q", w.Current(), w.Grant)
	}
}

// The whole setup through the engine, as the screen runs it: the allow
// list gets the secondary's IP (one POST per missing address), the newest
// backup is the default, the restore gives the secondary the primary's
// credentials, the change procedure's grant is kept verbatim, starting
// before the grant fails with 1045 and names step 5 as the fix, and after
// the grant replication runs Yes / Yes.
func TestWizardFullRunToYesYes(t *testing.T) {
	e := newEnv(t, false)
	pri, sec := e.backedUpPair("shop")
	w := NewWizard(e.clk.Now())
	now := e.clk.Now

	o := e.eng.CheckPair(bg, pri.ID, sec.ID)
	want(t, o, Pass)
	w.Apply(o, now())

	// Step 1: the new primary's allow list is empty.
	o = e.eng.CheckAllowList(bg, w.Progress)
	want(t, o, Fail)
	if strings.Join(o.Missing, ",") != strings.Join(sec.OutboundIPs, ",") || !strings.Contains(o.Fix, "press enter to add") {
		t.Fatalf("missing %v (outbound %v), fix %q", o.Missing, sec.OutboundIPs, o.Fix)
	}
	w.Apply(o, now())
	if w.Current() != StepAllowList || w.Verdict(StepAllowList) != Fail {
		t.Fatalf("a failed step moved on: %s %s", w.Current(), w.Verdict(StepAllowList))
	}
	before := e.posts(allowRoute)
	o = e.eng.AddAllowList(bg, w.Progress, o.Missing)
	want(t, o, Pass)
	if n := e.posts(allowRoute) - before; n != len(sec.OutboundIPs) {
		t.Fatalf("%d allow-list POSTs for %d missing addresses", n, len(sec.OutboundIPs))
	}
	for _, ip := range sec.OutboundIPs {
		if AllowedBy(ip, e.get(pri.ID).AllowList()) == "" {
			t.Fatalf("%s not in the primary's allow list after the add", ip)
		}
	}
	w.Apply(o, now())
	if w.Current() != StepBackup {
		t.Fatalf("step %s after the allow list passed", w.Current())
	}

	// Step 2: the newest usable backup is the default.
	o = e.eng.ListBackups(bg, w.Progress)
	w.Apply(o, now())
	if o.Backup == nil || o.Backup.Backup.BinlogGTIDPosition == "" || o.Backup != ChooseDefault(o.Backups) {
		t.Fatalf("default backup %+v", o.Backup)
	}
	if err := w.ChooseBackup(o.Backup.Backup.Key, now()); err != nil {
		t.Fatal(err)
	}
	if w.Current() != StepRestore || w.Progress.GTID != o.Backup.Backup.BinlogGTIDPosition || w.Progress.Method != MethodGTID {
		t.Fatalf("after choosing: %+v", w.Progress)
	}

	// Step 3: restore; running until the sandbox clock passes its end.
	priCreds, _ := e.c.GetCredentials(bg, pri.ID)
	o = e.eng.StartRestore(bg, w.Progress)
	want(t, o, Waiting)
	w.Apply(o, now())
	if w.Progress.RestoreID == 0 {
		t.Fatal("no restore ID kept")
	}
	want(t, e.eng.CheckRestore(bg, w.Progress), Waiting)
	e.clk.Advance(time.Hour)
	o = e.eng.CheckRestore(bg, w.Progress)
	want(t, o, Pass)
	if !strings.Contains(o.Summary, "shop-copy's default username and password are now those of shop-main") {
		t.Fatalf("the restore's summary does not say the credentials changed: %q", o.Summary)
	}
	if c, _ := e.c.GetCredentials(bg, sec.ID); c.Username != priCreds.Username {
		t.Fatalf("secondary user %s, primary %s", c.Username, priCreds.Username)
	}
	w.Apply(o, now())

	// Step 4: the grant, verbatim.
	o = e.eng.ChangePrimary(bg, w.Progress)
	want(t, o, Pass)
	grantRe := regexp.MustCompile(`^GRANT REPLICATION SLAVE ON \*\.\* TO 'skysql_replication_` + sec.ID + `'@'` + regexp.QuoteMeta(sec.OutboundIPs[0]) + `' IDENTIFIED BY '[0-9A-F]{24}';$`)
	if !grantRe.MatchString(o.Grant) || !strings.HasPrefix(o.Call, "CALL sky.change_external_primary_gtid('"+pri.FQDN+"', ") {
		t.Fatalf("grant %q call %q", o.Grant, o.Call)
	}
	w.Apply(o, now())
	if again, err := e.eng.FetchGrant(bg, sec.ID); err != nil || again != w.Grant {
		t.Fatalf("replication_grants %q %v, want %q", again, err, w.Grant)
	}

	// Started before the grant ran: 1045, and the fix is step 5.
	o = e.eng.StartReplication(bg, w.Progress)
	want(t, o, Fail)
	if !strings.Contains(o.Problem, "error 1045") || o.Fix != "run the grant on the primary (step 5)" {
		t.Fatalf("1045: problem %q fix %q", o.Problem, o.Fix)
	}

	// Step 5 and 6.
	o = e.eng.RunGrant(bg, w.Progress, w.Grant)
	want(t, o, Pass)
	w.Apply(o, now())
	if w.Current() != StepStart || w.Progress.GrantRunBy != GrantBySkytui {
		t.Fatalf("after the grant: %s %q", w.Current(), w.Progress.GrantRunBy)
	}
	o = e.eng.StartReplication(bg, w.Progress)
	want(t, o, Pass)
	w.Apply(o, now())
	if w.Current() != StepDone || !o.Status.Running() {
		t.Fatalf("after start: %s %+v", w.Current(), o.Status)
	}
	ps, err := e.eng.PairStatus(bg, PairOf(w.Progress, now()), NewCredCache())
	if err != nil || !ps.Status.Running() || ps.Status.SecondsBehindMaster == nil || ps.GTID == nil || ps.GTID.SlavePos == "" {
		t.Fatalf("pair status %+v %+v %v", ps.Status, ps.GTID, err)
	}
}

// Without the allow-list entry the secondary times out on the primary:
// error 2003, and the fix is step 1.
func TestWizard2003WithoutAllowList(t *testing.T) {
	e := newEnv(t, false)
	pri, sec := e.backedUpPair("noallow")
	w := NewWizard(e.clk.Now())
	e.runToGrant(w, pri, sec, false)
	want(t, e.eng.RunGrant(bg, w.Progress, w.Grant), Pass)
	o := e.eng.StartReplication(bg, w.Progress)
	want(t, o, Fail)
	if !strings.Contains(o.Problem, "error 2003") || o.Fix != "add the secondary's outbound IP to the primary's allow list (step 1)" {
		t.Fatalf("2003: problem %q fix %q", o.Problem, o.Fix)
	}
	// fixed: step 1 adds it, step 6 again restarts the stuck IO thread
	w.GoTo(StepAllowList)
	o = e.eng.CheckAllowList(bg, w.Progress)
	o = e.eng.AddAllowList(bg, w.Progress, o.Missing)
	want(t, o, Pass)
	want(t, e.eng.StartReplication(bg, w.Progress), Pass)
}

// The pair's rules and the backup's, refused with the reason.
func TestWizardRefusals(t *testing.T) {
	e := newEnv(t, true)
	orders, analytics := e.byName(sandbox.DemoOrders), e.byName(sandbox.DemoAnalytics)
	replica, legacy := e.byName(sandbox.DemoReplica), e.byName(sandbox.DemoLegacy)
	reporting, broken := e.byName(sandbox.DemoReporting), e.byName(sandbox.DemoBroken)
	cases := []struct {
		name, pri, sec, want string
	}{
		{"different providers", orders.ID, analytics.ID, "orders-prod runs on aws and analytics-gcp on gcp: a backup can be restored only within the same cloud provider"},
		{"same service", orders.ID, orders.ID, "same service"},
		{"secondary stopped", orders.ID, legacy.ID, "the secondary legacy-batch is stopped: both services must be ready"},
		{"primary pending", reporting.ID, analytics.ID, "the primary reporting-new is pending_create: both services must be ready"},
		{"secondary failed", orders.ID, broken.ID, "is failed: both services must be ready"},
	}
	for _, tc := range cases {
		o := e.eng.CheckPair(bg, tc.pri, tc.sec)
		if o.Verdict != Fail || !strings.Contains(o.Problem, tc.want) {
			t.Errorf("%s: %s %q, want a refusal containing %q", tc.name, o.Verdict, o.Problem, tc.want)
		}
		w := NewWizard(e.clk.Now())
		if w.Apply(o, e.clk.Now()); w.Current() != StepPair || w.Progress.PrimaryID != "" {
			t.Errorf("%s: a refused pair was taken: %+v", tc.name, w.Progress)
		}
	}
	want(t, e.eng.CheckPair(bg, orders.ID, replica.ID), Pass)

	// Backups: the week-old nightlies are shown but refused; the newest
	// recent full one is the default; choosing an old one says why.
	w := NewWizard(e.clk.Now())
	w.Apply(e.eng.CheckPair(bg, orders.ID, replica.ID), e.clk.Now())
	o := e.eng.ListBackups(bg, w.Progress)
	w.Apply(o, e.clk.Now())
	var old *BackupChoice
	for i := range o.Backups {
		c := &o.Backups[i]
		if e.clk.Now().Sub(c.Time) > BinlogRetention && api.BackupState(c.Backup.Status) == api.BackupCompleted && !c.Backup.IsExternalStorage {
			old = c
		}
		if i > 0 && o.Backups[i-1].Time.Before(c.Time) {
			t.Fatal("backups not newest first")
		}
	}
	if old == nil || old.Usable || !strings.Contains(old.Reason, "older than the 4-day binlog retention") {
		t.Fatalf("too-old backup: %+v", old)
	}
	if err := w.ChooseBackup(old.Backup.Key, e.clk.Now()); err == nil || !strings.Contains(err.Error(), "older than the 4-day") {
		t.Fatalf("choosing a too-old backup: %v", err)
	}
	if w.Progress.HasPassed(StepBackup) || w.Progress.BackupKey != "" {
		t.Fatalf("a refused backup was taken: %+v", w.Progress)
	}
	if o.Backup == nil || !o.Backup.Usable || e.clk.Now().Sub(o.Backup.Time) > 24*time.Hour || o.Hidden == 0 {
		t.Fatalf("default %+v, hidden incrementals %d", o.Backup, o.Hidden)
	}
	for _, c := range o.Backups {
		if c.Backup.IsExternalStorage && c.Usable {
			t.Fatalf("an own-bucket backup is offered: %+v", c)
		}
	}
	// a running backup (analytics-gcp's one-off full) is refused too
	lb := e.eng.ListBackups(bg, Progress{PrimaryID: analytics.ID})
	running := false
	for _, c := range lb.Backups {
		if api.BackupState(c.Backup.Status) == api.BackupInProgress {
			running = true
			if c.Usable || !strings.Contains(c.Reason, "still running") {
				t.Fatalf("running backup: %+v", c)
			}
		}
	}
	if !running {
		t.Fatal("no running backup of analytics-gcp in the demo")
	}
}

func TestAllowListContainment(t *testing.T) {
	list := []api.AllowListEntry{{IP: "198.51.100.0/24"}, {IP: "203.0.113.10/32"}, {IP: "192.0.2.7"}}
	for ip, wantBy := range map[string]string{
		"198.51.100.23": "198.51.100.0/24", "203.0.113.10": "203.0.113.10/32", "203.0.113.11": "",
		"192.0.2.7": "192.0.2.7", "192.0.2.8": "", "10.0.0.1": "", "198.51.100.9/32": "198.51.100.0/24",
	} {
		if got := AllowedBy(ip, list); got != wantBy {
			t.Errorf("AllowedBy(%s) = %q, want %q", ip, got, wantBy)
		}
	}
	if m := MissingFromAllowList([]string{"198.51.100.5", "203.0.113.99"}, list); len(m) != 1 || m[0] != "203.0.113.99" {
		t.Fatalf("missing %v", m)
	}
}

func TestDiagnose(t *testing.T) {
	lag := int64(3)
	for _, tc := range []struct {
		st      api.ReplicationStatus
		ok      bool
		problem string
		fix     string
	}{
		{api.ReplicationStatus{Configured: true, IORunning: "Yes", SQLRunning: "Yes", SecondsBehindMaster: &lag}, true, "", ""},
		{api.ReplicationStatus{Configured: true, IORunning: "Connecting", SQLRunning: "Yes", LastIOErrno: 1045}, false, "error 1045", "run the grant on the primary (step 5)"},
		{api.ReplicationStatus{Configured: true, IORunning: "Connecting", SQLRunning: "Yes", LastIOErrno: 2003}, false, "error 2003", "add the secondary's outbound IP to the primary's allow list (step 1)"},
		{api.ReplicationStatus{Configured: true, IORunning: "No", SQLRunning: "Yes", LastIOErrno: 1236}, false, "binary logs", "take a new backup"},
		{api.ReplicationStatus{Configured: true, IORunning: "No", SQLRunning: "No"}, false, "stopped", "start it (S)"},
		{api.ReplicationStatus{Configured: true, IORunning: "Yes", SQLRunning: "No", LastSQLErrno: 1062}, false, "error 1062", "fix the data"},
		{api.ReplicationStatus{}, false, "not configured", "step 4"},
	} {
		d := Diagnose(&tc.st)
		if d.OK != tc.ok || !strings.Contains(d.Problem, tc.problem) || !strings.Contains(d.Fix, tc.fix) {
			t.Errorf("%+v: %+v", tc.st, d)
		}
	}
}

// The binlog file / position variant: chosen with b (ToggleMethod), it
// calls change_external_primary with the backup's coordinates, and
// replication runs without GTID.
func TestWizardBinlogVariant(t *testing.T) {
	e := newEnv(t, false)
	pri, sec := e.backedUpPair("binlog")
	w := NewWizard(e.clk.Now())
	e.runToGrant(w, pri, sec, true)
	gtidGrant := w.Grant
	m, err := w.ToggleMethod(e.clk.Now())
	if err != nil || m != MethodBinlog {
		t.Fatalf("toggle: %s %v", m, err)
	}
	if w.Current() != StepChange || w.Grant != "" || w.Progress.HasPassed(StepChange) {
		t.Fatalf("a new method must redo step 4: %s %q", w.Current(), w.Grant)
	}
	o := e.eng.ChangePrimary(bg, w.Progress)
	want(t, o, Pass)
	wantCall := "CALL sky.change_external_primary('" + pri.FQDN + "', " + strconv.Itoa(pri.ReadWritePort()) + ", '" + w.Progress.BinlogFile + "', " +
		strconv.FormatInt(w.Progress.BinlogPos, 10) + ", true)"
	if o.Call != wantCall || o.Grant == gtidGrant || w.Progress.BinlogFile == "" || w.Progress.BinlogPos <= 0 {
		t.Fatalf("call %q want %q; grant %q (GTID one %q)", o.Call, wantCall, o.Grant, gtidGrant)
	}
	w.Apply(o, e.clk.Now())
	want(t, e.eng.RunGrant(bg, w.Progress, w.Grant), Pass)
	o = e.eng.StartReplication(bg, w.Progress)
	want(t, o, Pass)
	if o.Status.UsingGTID != "No" || o.Status.MasterLogFile == "" {
		t.Fatalf("binlog replication: %+v", o.Status)
	}
	// a backup without binlog coordinates cannot switch
	w2 := Resume(Progress{GTID: "0-1-2", Method: MethodGTID})
	if _, err := w2.ToggleMethod(e.clk.Now()); err == nil {
		t.Fatal("switched to binlog without coordinates")
	}
}

// garbleRestores carries POST .../restores to the server, then hands the
// client a body nobody can read in place of the 200 answer.
type garbleRestores struct{ next http.RoundTripper }

func (g garbleRestores) RoundTrip(r *http.Request) (*http.Response, error) {
	res, err := g.next.RoundTrip(r)
	if err != nil || r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/restores") || res.StatusCode/100 != 2 {
		return res, err
	}
	res.Body.Close()
	res.Body = io.NopCloser(strings.NewReader("<html>gateway: OK</html>"))
	res.ContentLength = -1
	return res, nil
}

// TestWizardRestoreAcceptedWithUnreadableAnswer: the server starts the
// restore and its answer cannot be read. The step waits on the restore it
// finds on the secondary; it never reports a failure.
func TestWizardRestoreAcceptedWithUnreadableAnswer(t *testing.T) {
	e := newEnv(t, false)
	pri, sec := e.backedUpPair("shop")
	garbled, err := api.New(api.Config{BaseURL: e.c.BaseURL(), APIKey: testKey, MaxRetries: -1,
		HTTPClient: &http.Client{Transport: garbleRestores{http.DefaultTransport}}})
	if err != nil {
		t.Fatal(err)
	}
	eng := &Engine{Client: garbled, Now: e.clk.Now, SQLTimeout: 5 * time.Second}
	w := NewWizard(e.clk.Now())
	w.Apply(eng.CheckPair(bg, pri.ID, sec.ID), e.clk.Now())
	w.Progress.Step = StepBackup
	o := eng.ListBackups(bg, w.Progress)
	w.Apply(o, e.clk.Now())
	if err := w.ChooseBackup(o.Backup.Backup.Key, e.clk.Now()); err != nil {
		t.Fatal(err)
	}
	o = eng.StartRestore(bg, w.Progress)
	want(t, o, Waiting)
	if o.Restore == nil || o.Restore.ID <= 0 || o.Restore.ServiceID != sec.ID {
		t.Fatalf("the accepted restore was not found on the secondary: %+v", o)
	}
	if n := e.posts("/backup/v1/restores"); n != 1 {
		t.Fatalf("%d restore POSTs, want 1", n)
	}
	w.Apply(o, e.clk.Now())
	e.clk.Advance(time.Hour)
	want(t, eng.CheckRestore(bg, w.Progress), Pass)
}

// A primary the rules refuse on its own (ready but without an endpoint
// yet) is refused as the primary, by the chooser's first step too: no
// secondary is blamed for it.
func TestPairRefusalNamesTheServiceAtFault(t *testing.T) {
	ep := []api.Endpoint{{Ports: []api.Port{{Name: "readwrite", Port: 3306}}}}
	pri := &api.Service{ID: "p", Name: "pri", Status: "ready", Provider: "aws"}
	sec := &api.Service{ID: "s", Name: "sec", Status: "ready", Provider: "aws", FQDN: "s.example", Endpoints: ep}
	if err := CheckPrimary(pri); err == nil || !strings.Contains(err.Error(), "the primary pri has no fqdn or readwrite port yet") {
		t.Fatalf("CheckPrimary without an endpoint: %v", err)
	}
	if n := PairNote(pri, sec); n != "primary: no endpoint yet" {
		t.Fatalf("a primary without an endpoint: the secondary's note is %q, want the primary named", n)
	}
	pri.FQDN, pri.Endpoints = "p.example", ep
	if err := CheckPrimary(pri); err != nil {
		t.Fatalf("a ready primary with an endpoint refused: %v", err)
	}
	for _, tc := range []struct {
		change func(s *api.Service)
		want   string
	}{
		{func(s *api.Service) { s.Status = "stopped" }, "secondary: not ready"},
		{func(s *api.Service) { s.FQDN = "" }, "secondary: no endpoint yet"},
		{func(s *api.Service) { s.Provider = "gcp" }, "secondary: other provider"},
		{func(s *api.Service) { s.ID = "p" }, "secondary: the primary"},
		{func(s *api.Service) {}, ""},
	} {
		s := *sec
		tc.change(&s)
		if n := PairNote(pri, &s); n != tc.want {
			t.Errorf("PairNote = %q, want %q", n, tc.want)
		}
	}
}

// A grant that passes (run by skytui or by the user) voids the start's
// last outcome: its error 1045 was the grant missing.
func TestGrantPassForgetsTheStartsFailure(t *testing.T) {
	for _, byUser := range []bool{false, true} {
		w := Resume(Progress{PrimaryID: "dbtaaaa1", SecondaryID: "dbtaaaa2", Step: StepGrant})
		w.Results = map[Step]Outcome{StepStart: {Step: StepStart, Verdict: Fail, Problem: "refused (error 1045)"}}
		if byUser {
			w.GrantRanByUser(time.Time{})
		} else {
			w.Apply(Outcome{Step: StepGrant, Verdict: Pass}, time.Time{})
		}
		if v := w.Verdict(StepStart); v != Unchecked || w.Current() != StepStart {
			t.Fatalf("by user %v: the start shows %v at %v", byUser, v, w.Current())
		}
	}
}
