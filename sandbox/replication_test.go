package sandbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/skytui/skytui/api"
)

// The demo replication, end to end: the HTTP API for the setup, and the
// sky procedures and the grant over TCP through api.SQLClient, the code
// path the Replication screen uses.

// sqlClient connects to a service's fqdn and readwrite port.
func (h *harness) sqlClient(svc api.Service, c api.Credentials) *api.SQLClient {
	h.t.Helper()
	cl, err := api.OpenSQL(api.SQLTarget{Host: svc.FQDN, Port: svc.ReadWritePort(), User: c.Username, Password: c.Password, Timeout: 5 * time.Second})
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { cl.Close() })
	return cl
}

func (h *harness) allow(id, ip string) {
	h.t.Helper()
	h.do("POST", "/provisioning/v1/services/"+id+"/security/allowlist", map[string]string{"ip_address": ip}).want(h.t, 200)
}

func (h *harness) disallow(id, ip string) {
	h.t.Helper()
	h.do("DELETE", "/provisioning/v1/services/"+id+"/security/allowlist", map[string]string{"ip_address": ip}).want(h.t, 200)
}

// restoreInto restores a managed backup into a service and waits for it.
func (h *harness) restoreInto(id, key string) {
	h.t.Helper()
	var r api.Restore
	h.do("POST", "/skybackup/v1/restores", api.ManagedRestore(id, key)).want(h.t, 200).decode(h.t, &r)
	h.clk.Advance(2 * time.Hour)
	var one api.Restore
	h.do("GET", "/skybackup/v1/restores/"+jsonString(r.ID), nil).want(h.t, 200).decode(h.t, &one)
	if one.Status != "Succeeded" {
		h.t.Fatalf("restore %+v", one)
	}
}

func mustStatus(t *testing.T, c *api.SQLClient) *api.ReplicationStatus {
	t.Helper()
	st, err := c.ReplicationStatus(bg)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func restart(t *testing.T, c *api.SQLClient) {
	t.Helper()
	if msg, err := c.StopReplication(bg); err != nil || msg != "Replication stopped" {
		t.Fatalf("stop: %q %v", msg, err)
	}
	if msg, err := c.StartReplication(bg); err != nil || msg != "Replication started" {
		t.Fatalf("start: %q %v", msg, err)
	}
}

func sqlCode(err error) int {
	var se *api.SQLError
	if errors.As(err, &se) {
		return int(se.Code)
	}
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return int(me.Number)
	}
	return 0
}

func gtidSeq(t *testing.T, g string) int64 {
	t.Helper()
	f := strings.Split(g, "-")
	n, err := strconv.ParseInt(f[len(f)-1], 10, 64)
	if len(f) != 3 || err != nil {
		t.Fatalf("GTID %q", g)
	}
	return n
}

func TestDemoReplicationEndToEnd(t *testing.T) {
	h := newHarness(t, Options{SQL: SQLDemo, Seed: 11})
	priID := h.readyService("orders-main", "aws")
	secID := h.readyService("orders-copy", "aws")
	pri, sec := h.service(priID), h.service(secID)
	if pri.FQDN != priID+".sandbox.localhost" || pri.ReadWritePort() == 0 || pri.ReadWritePort() == 3306 || pri.ReadWritePort() == sec.ReadWritePort() {
		t.Fatalf("endpoints: primary %s:%d, secondary %s:%d", pri.FQDN, pri.ReadWritePort(), sec.FQDN, sec.ReadWritePort())
	}
	egress := sec.OutboundIPs[0]
	priCreds, secCreds := h.credentials(priID), h.credentials(secID)

	// Step 1: the secondary's outbound IP in the primary's allow list.
	h.allow(priID, egress)

	// Step 2: a backup of the primary; its GTID is the primary's
	// position when it was taken.
	primary := h.sqlClient(pri, priCreds)
	before, err := primary.GTIDStatus(bg)
	if err != nil {
		t.Fatal(err)
	}
	key := h.completedFull(priID)
	b := findBackup(t, h.backups(priID), key)
	if b.BinlogGTIDPosition != before.BinlogPos || b.BinlogFile == "" {
		t.Fatalf("backup at GTID %q file %q; the primary was at %q when it started", b.BinlogGTIDPosition, b.BinlogFile, before.BinlogPos)
	}
	after, _ := primary.GTIDStatus(bg)
	if gtidSeq(t, after.BinlogPos) <= gtidSeq(t, before.BinlogPos) {
		t.Fatalf("the primary's GTID did not advance over an hour: %s → %s", before.BinlogPos, after.BinlogPos)
	}

	// Step 3: restore it into the secondary: its credentials are now the
	// primary's, and the old ones are refused.
	h.restoreInto(secID, key)
	if c := h.credentials(secID); c.Username != priCreds.Username || c.Password != priCreds.Password {
		t.Fatalf("secondary credentials %+v after the restore, want the primary's", c)
	}
	if err := h.sqlClient(sec, secCreds).Ping(bg); sqlCode(err) != api.ErAccessDenied {
		t.Fatalf("the secondary's old credentials: %v", err)
	}
	secondary := h.sqlClient(sec, priCreds)
	if st := mustStatus(t, secondary); st.Configured {
		t.Fatalf("replication configured before the change procedure: %+v", st)
	}

	// Step 4: point the secondary at the primary from the backup's GTID.
	grant, err := secondary.ChangeExternalPrimaryGTID(bg, pri.FQDN, pri.ReadWritePort(), b.BinlogGTIDPosition, false)
	if err != nil {
		t.Fatal(err)
	}
	grantRe := regexp.MustCompile(`^GRANT REPLICATION SLAVE ON \*\.\* TO 'skysql_replication_` + secID + `'@'` + regexp.QuoteMeta(egress) + `' IDENTIFIED BY '[0-9A-F]{24}';$`)
	if !grantRe.MatchString(grant) {
		t.Fatalf("grant %q", grant)
	}
	if again, err := secondary.ReplicationGrants(bg); err != nil || again != grant {
		t.Fatalf("replication_grants: %q %v", again, err)
	}
	if st := mustStatus(t, secondary); !st.Configured || st.IORunning != "No" || st.SQLRunning != "No" || st.SecondsBehindMaster != nil ||
		st.MasterHost != pri.FQDN || st.MasterPort != pri.ReadWritePort() || st.UsingGTID != "Slave_Pos" || st.GTIDIOPos != b.BinlogGTIDPosition {
		t.Fatalf("configured, not started: %+v", st)
	}

	// Started without the grant on the primary: Connecting, error 1045.
	if _, err := secondary.StartReplication(bg); err != nil {
		t.Fatal(err)
	}
	st := mustStatus(t, secondary)
	if st.IORunning != "Connecting" || st.SQLRunning != "Yes" || st.SecondsBehindMaster != nil || st.LastIOErrno != api.ErAccessDenied ||
		!strings.Contains(st.LastIOError, "Access denied for user 'skysql_replication_"+secID+"'@'"+egress+"' (using password: YES)") {
		t.Fatalf("without the grant: %+v", st)
	}

	// Step 5: the grant, run on the primary with the primary's
	// credentials; step 6: restart → Yes / Yes.
	if err := primary.RunGrant(bg, grant); err != nil {
		t.Fatal(err)
	}
	restart(t, secondary)
	st = mustStatus(t, secondary)
	if !st.Running() || st.SecondsBehindMaster == nil || *st.SecondsBehindMaster < 0 || st.LastIOErrno != 0 || st.LastIOError != "" {
		t.Fatalf("after the grant: %+v", st)
	}
	head, _ := primary.GTIDStatus(bg)
	if st.GTIDIOPos != head.BinlogPos {
		t.Fatalf("Gtid_IO_Pos %s, primary at %s", st.GTIDIOPos, head.BinlogPos)
	}

	// Over sandbox time the IO position follows the primary and the lag
	// varies (small, with the odd spike).
	lags := map[int64]bool{}
	for range 80 {
		h.clk.Advance(5 * time.Second)
		st = mustStatus(t, secondary)
		if !st.Running() || st.SecondsBehindMaster == nil || *st.SecondsBehindMaster > 90 {
			t.Fatalf("while replicating: %+v", st)
		}
		lags[*st.SecondsBehindMaster] = true
	}
	if len(lags) < 3 {
		t.Fatalf("Seconds_Behind_Master took only %v", lags)
	}
	head, _ = primary.GTIDStatus(bg)
	if st.GTIDIOPos != head.BinlogPos || gtidSeq(t, st.GTIDIOPos) <= gtidSeq(t, b.BinlogGTIDPosition) {
		t.Fatalf("Gtid_IO_Pos %s, primary at %s, started from %s", st.GTIDIOPos, head.BinlogPos, b.BinlogGTIDPosition)
	}
	g, err := secondary.GTIDStatus(bg)
	if err != nil || g.SlavePos == "" || gtidSeq(t, g.SlavePos) < gtidSeq(t, b.BinlogGTIDPosition) || gtidSeq(t, g.SlavePos) > gtidSeq(t, head.BinlogPos) {
		t.Fatalf("secondary gtid_status %+v %v", g, err)
	}

	// The allow list is checked on every connection: without the entry
	// the IO thread times out (2003), with it back it streams again.
	h.disallow(priID, egress+"/32")
	st = mustStatus(t, secondary)
	if st.IORunning != "Connecting" || st.LastIOErrno != 2003 || st.SecondsBehindMaster != nil ||
		!strings.Contains(st.LastIOError, `Can't connect to server on '`+pri.FQDN+`' (110 "Connection timed out")`) {
		t.Fatalf("outside the allow list: %+v", st)
	}
	h.allow(priID, egress)
	if st = mustStatus(t, secondary); !st.Running() {
		t.Fatalf("back in the allow list: %+v", st)
	}

	// The binlog file / position variant: a new replication password, so
	// the old grant no longer logs in until the new one is run.
	grant2, err := secondary.ChangeExternalPrimary(bg, pri.FQDN, pri.ReadWritePort(), b.BinlogFile, int64(mustAtoi(t, string(b.BinlogPosition))), false)
	if err != nil || grant2 == grant || !grantRe.MatchString(grant2) {
		t.Fatalf("change_external_primary: %q %v", grant2, err)
	}
	if _, err := secondary.StartReplication(bg); err != nil {
		t.Fatal(err)
	}
	if st = mustStatus(t, secondary); st.IORunning != "Connecting" || st.LastIOErrno != api.ErAccessDenied || st.UsingGTID != "No" {
		t.Fatalf("file/position with the old grant: %+v", st)
	}
	if err := primary.RunGrant(bg, grant2); err != nil {
		t.Fatal(err)
	}
	restart(t, secondary)
	h.clk.Advance(time.Minute)
	st = mustStatus(t, secondary)
	wantFile, _ := binlogCoords(gtidSeq(t, head.BinlogPos))
	if !st.Running() || st.SecondsBehindMaster == nil || st.UsingGTID != "No" || st.MasterLogFile < wantFile || st.ReadMasterLogPos < 4 {
		t.Fatalf("file/position after the grant: %+v", st)
	}

	// A restore into the secondary replaces its data: no replication.
	h.restoreInto(secID, key)
	if st := mustStatus(t, secondary); st.Configured {
		t.Fatalf("replication survived a restore: %+v", st)
	}
	if _, err := secondary.ReplicationGrants(bg); sqlCode(err) != 1200 {
		t.Fatalf("replication_grants after a restore: %v", err)
	}
	if _, err := secondary.StartReplication(bg); sqlCode(err) != 1200 {
		t.Fatalf("start_replication after a restore: %v", err)
	}

	// Close stops the endpoints.
	h.s.Close()
	conn, err := net.DialTimeout("tcp", fmt.Sprintf("127.0.0.1:%d", pri.ReadWritePort()), time.Second)
	if err == nil {
		conn.Close()
		t.Fatal("the primary's endpoint still accepts connections after Close")
	}
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return n
}

// rawSQL runs one statement on a service's endpoint with go-sql-driver.
func (h *harness) rawSQL(svc api.Service, c api.Credentials, q string) error {
	h.t.Helper()
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.Addr = c.Username, c.Password, "tcp", fmt.Sprintf("127.0.0.1:%d", svc.ReadWritePort())
	cfg.Timeout = 5 * time.Second
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		h.t.Fatal(err)
	}
	db := sql.OpenDB(conn)
	defer db.Close()
	rows, err := db.QueryContext(context.Background(), q)
	if err != nil {
		return err
	}
	return rows.Close()
}

func TestDemoSQLRefusals(t *testing.T) {
	h := newHarness(t, Options{SQL: SQLDemo})
	priID := h.readyService("refusal-pri", "gcp")
	secID := h.readyService("refusal-sec", "gcp")
	pri, sec := h.service(priID), h.service(secID)
	secCreds := h.credentials(secID)
	c := h.sqlClient(sec, secCreds)

	for _, tc := range []struct {
		q    string
		code int
		msg  string
	}{
		{"CALL sky.make_coffee()", 1305, "PROCEDURE sky.make_coffee does not exist"},
		{"CALL sky.start_replication(1)", 1318, "Incorrect number of arguments for PROCEDURE sky.start_replication; expected 0, got 1"},
		{"CALL sky.change_external_primary_gtid('h', 3306, '0-1-1')", 1318, "expected 4, got 3"},
		{"CALL sky.change_external_primary_gtid('h', 'abc', '0-1-1', 0)", 1366, "Incorrect integer value: 'abc' for column ``.``.`port`"},
		{"CALL sky.change_external_primary_gtid('h', 3306, '0-1-1', 'true')", 1366, "`use_ssl_encryption`"},
		{"CALL sky.change_external_primary_gtid(NULL, 3306, '0-1-1', 0)", 1210, "host is NULL"},
		{"CALL sky.change_external_primary_gtid('h', 3306, 'not-a-gtid', 0)", 1941, "Could not parse GTID list"},
		{"CALL sky.change_external_primary('h', 3306, 'mariadb-bin.000001', 'x', 0)", 1366, "`logpos`"},
		{"CALL sky.replication_grants()", 1200, "No replication is configured"},
		{"CALL sky.start_replication()", 1200, "MASTER_HOST was not set"},
	} {
		err := h.rawSQL(sec, secCreds, tc.q)
		var me *mysql.MySQLError
		if !errors.As(err, &me) || int(me.Number) != tc.code || !strings.Contains(me.Message, tc.msg) {
			t.Errorf("%s: %v, want error %d %q", tc.q, err, tc.code, tc.msg)
		}
	}
	if _, err := c.StopReplication(bg); err != nil {
		t.Errorf("stop_replication without a configuration: %v", err)
	}

	// The IO thread's other failures, each with the real server's error.
	h.allow(priID, sec.OutboundIPs[0])
	priCreds := h.credentials(priID)
	primary := h.sqlClient(pri, priCreds)
	head, err := primary.GTIDStatus(bg)
	if err != nil {
		t.Fatal(err)
	}
	ioFailure := func(host string, port int, gtid string) *api.ReplicationStatus {
		t.Helper()
		replicateGTID(t, c, primary, host, port, gtid)
		return mustStatus(t, c)
	}
	if st := ioFailure("nowhere.example.com", 3306, head.BinlogPos); st.IORunning != "Connecting" || st.LastIOErrno != 2005 ||
		!strings.Contains(st.LastIOError, "Unknown server host 'nowhere.example.com'") {
		t.Errorf("unknown host: %+v", st)
	}
	if st := ioFailure(pri.FQDN, pri.ReadWritePort()+10000, head.BinlogPos); st.IORunning != "Connecting" || st.LastIOErrno != 2003 ||
		!strings.Contains(st.LastIOError, "Connection refused") {
		t.Errorf("wrong port: %+v", st)
	}
	if st := ioFailure("127.0.0.1", pri.ReadWritePort(), "0-1-999999999"); st.IORunning != "No" || st.SQLRunning != "Yes" || st.LastIOErrno != 1236 ||
		!strings.Contains(st.LastIOError, "which is not in the master's binlog") {
		t.Errorf("a GTID the primary never wrote: %+v", st)
	}
	// After five days the binary logs holding the start are purged.
	h.clk.Advance(5 * 24 * time.Hour)
	if st := ioFailure(pri.FQDN, pri.ReadWritePort(), head.BinlogPos); st.IORunning != "No" || st.LastIOErrno != 1236 ||
		!strings.Contains(st.LastIOError, "have been purged") {
		t.Errorf("a GTID older than the binlog retention: %+v", st)
	}
	// A fresh start position works over 127.0.0.1 and the port.
	now, _ := primary.GTIDStatus(bg)
	if st := ioFailure("127.0.0.1", pri.ReadWritePort(), now.BinlogPos); !st.Running() {
		t.Errorf("from the current position over loopback: %+v", st)
	}
	if _, err := c.StopReplication(bg); err != nil {
		t.Fatal(err)
	}
	if st := mustStatus(t, c); st.IORunning != "No" || st.SQLRunning != "No" || st.SecondsBehindMaster != nil {
		t.Errorf("stopped: %+v", st)
	}
	if msg, err := c.StopReplication(bg); err != nil || msg == "" { // stopping twice is fine
		t.Errorf("second stop: %q %v", msg, err)
	}
	if err := h.rawSQL(sec, secCreds, "CALL sky.reset_replication()"); err != nil {
		t.Fatal(err)
	}
	if st := mustStatus(t, c); st.Configured {
		t.Errorf("after reset_replication: %+v", st)
	}
}

// In --demo the wizard runs to the end on the demo data: a recent backup
// of orders-prod restored into replica-west (both on aws), whose outbound
// IP the app-servers network of orders-prod's allow list already covers.
func TestDemoDataReplicates(t *testing.T) {
	h := newHarness(t, Options{SQL: SQLDemo, DemoData: true, Seed: 7})
	var svcs []api.Service
	h.do("GET", "/provisioning/v1/services", nil).want(t, 200).decode(t, &svcs)
	var pri, sec api.Service
	for _, s := range svcs {
		switch s.Name {
		case DemoOrders:
			pri = s
		case DemoReplica:
			sec = s
		}
		if s.Status == "ready" && (s.ReadWritePort() == 0 || s.ReadWritePort() == 3306) {
			t.Fatalf("%s has no endpoint: %+v", s.Name, s.Endpoints)
		}
	}
	var key, gtid string
	for _, b := range h.backups(pri.ID) {
		if b.Type == api.BackupFull && b.Status == "Succeeded" && !b.IsExternalStorage && h.clk.Now().Sub(b.StartTime.Time) < 4*24*time.Hour {
			key, gtid = b.Key, b.BinlogGTIDPosition
			break
		}
	}
	if key == "" {
		t.Fatal("no recent full backup of orders-prod")
	}
	h.restoreInto(sec.ID, key)
	creds := h.credentials(pri.ID)
	secondary, primary := h.sqlClient(sec, creds), h.sqlClient(pri, creds)
	replicateGTID(t, secondary, primary, pri.FQDN, pri.ReadWritePort(), gtid)
	if st := mustStatus(t, secondary); !st.Running() || st.SecondsBehindMaster == nil {
		t.Fatalf("demo data replication: %+v", st)
	}
}

func TestSQLModeOptions(t *testing.T) {
	for _, s := range []string{"none", "demo", "mariadb"} {
		m, err := ParseSQLMode(s)
		if err != nil || m.String() != s {
			t.Errorf("%s: %v %v", s, m, err)
		}
	}
	if _, err := ParseSQLMode("postgres"); err == nil {
		t.Error("postgres accepted")
	}
	if _, err := Open(Options{SQL: SQLDemo, Ports: livePorts}); err == nil {
		t.Error("Ports with SQLDemo accepted")
	}
	if _, err := Open(Options{SQL: SQLMariaDB, DemoData: true}); err == nil || !strings.Contains(err.Error(), "--no-demo-data") {
		t.Errorf("demo data with mariadb: %v", err)
	}

	// Without mariadbd: Open says to install it; New serves, and launches fail with the reason.
	saved := lookMariaDB
	lookMariaDB = func() error { return errors.New("mariadbd not found") }
	defer func() { lookMariaDB = saved }()
	_, err := Open(Options{SQL: SQLMariaDB})
	if !errors.Is(err, ErrNoMariaDB) || !strings.Contains(err.Error(), "--mariadb needs mariadbd: install mariadb-server") {
		t.Fatalf("Open without mariadbd: %v", err)
	}
	h := newHarness(t, Options{SQL: SQLMariaDB})
	id := h.readyService("no-server", "aws")
	if svc := h.service(id); svc.Status != "failed" || len(svc.Errors) == 0 || !strings.Contains(svc.Errors[0], "install mariadb-server") {
		t.Fatalf("launch without mariadbd: %+v", svc)
	}
}

// replicateGTID points sec at host:port from gtid (with SSL), runs the
// grant it returns on pri, and starts replication.
func replicateGTID(t *testing.T, sec, pri *api.SQLClient, host string, port int, gtid string) {
	t.Helper()
	grant, err := sec.ChangeExternalPrimaryGTID(bg, host, port, gtid, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := pri.RunGrant(bg, grant); err != nil {
		t.Fatal(err)
	}
	if _, err := sec.StartReplication(bg); err != nil {
		t.Fatal(err)
	}
}

// Managed replication: the replica reports its primary, the primary lists
// it, its sky.replication_status() answers for it over SQL, and the
// refusals (pending, not ready, itself, twice, not a replica) say why.
func TestManagedReplication(t *testing.T) {
	h := newHarness(t, Options{SQL: SQLDemo, Seed: 11})
	P := "/provisioning/v1/services/"
	priID := h.readyService("orders-main", "aws")
	secID := h.readyService("orders-copy", "aws")
	pendingID := h.createService("orders-late", "aws")

	// refusals, nothing changed
	msg := func(b api.ErrorBody) string { return b.Errors[0].Message }
	if m := msg(h.do("POST", P+secID+"/replication", api.ManagedReplication{PrimaryHost: priID, ReplicationType: "sideways"}).errBody(t, 400)); !strings.Contains(m, "replication_type") {
		t.Errorf("bad type: %s", m)
	}
	if m := msg(h.do("POST", P+secID+"/replication", api.ManagedReplication{PrimaryHost: secID, ReplicationType: api.ReplicationUni}).errBody(t, 400)); !strings.Contains(m, "itself") {
		t.Errorf("itself: %s", m)
	}
	if m := msg(h.do("POST", P+pendingID+"/replication", api.ManagedReplication{PrimaryHost: priID, ReplicationType: api.ReplicationUni}).errBody(t, 409)); !strings.Contains(m, "pending state") {
		t.Errorf("pending replica: %s", m)
	}
	if m := msg(h.do("POST", P+secID+"/replication", api.ManagedReplication{PrimaryHost: pendingID, ReplicationType: api.ReplicationUni}).errBody(t, 409)); !strings.Contains(m, "pending state") {
		t.Errorf("pending primary: %s", m)
	}
	h.do("POST", P+secID+"/replication", api.ManagedReplication{PrimaryHost: "dbtaf09999999", ReplicationType: api.ReplicationUni}).errBody(t, 404)
	if s := h.service(secID); s.PrimaryHost != "" || s.ReplicationEnabled {
		t.Fatalf("a refused request changed the replica: %+v", s)
	}

	var got api.ManagedReplication
	h.do("POST", P+secID+"/replication", api.ManagedReplication{PrimaryHost: priID, ReplicationType: api.ReplicationUni}).want(t, 202).decode(t, &got)
	if got.PrimaryHost != priID || got.ReplicationType != api.ReplicationUni {
		t.Fatalf("answer %+v", got)
	}
	if s := h.service(secID); s.PrimaryHost != priID || !s.ReplicationEnabled {
		t.Fatalf("the replica does not report its primary: %+v", s)
	}
	if s := h.service(priID); s.PrimaryHost != "" || !s.ReplicationEnabled {
		t.Fatalf("the primary: %+v", s)
	}
	var reps []api.Service
	h.do("GET", P+priID+"/replicas", nil).want(t, 200).decode(t, &reps)
	if len(reps) != 1 || reps[0].ID != secID {
		t.Fatalf("replicas of the primary: %+v", reps)
	}
	h.do("GET", P+secID+"/replicas", nil).want(t, 200).decode(t, &reps)
	if len(reps) != 0 {
		t.Fatalf("a uni-directional replica has no replicas: %+v", reps)
	}
	if m := msg(h.do("POST", P+secID+"/replication", api.ManagedReplication{PrimaryHost: priID, ReplicationType: api.ReplicationBi}).errBody(t, 409)); !strings.Contains(m, "already replicates from "+priID) {
		t.Errorf("twice: %s", m)
	}

	// the replica's SQL endpoint answers for it: streaming from the
	// primary, no allow list entry or grant needed on the user's side
	pri, sec := h.service(priID), h.service(secID)
	db := h.sqlClient(sec, h.credentials(secID))
	h.clk.Advance(30 * time.Second)
	st := mustStatus(t, db)
	if !st.Configured || st.IORunning != "Yes" || st.SQLRunning != "Yes" || st.MasterHost != pri.FQDN || st.SecondsBehindMaster == nil {
		t.Fatalf("managed replica status: %+v", st)
	}
	if _, err := db.ReplicationGrants(bg); sqlCode(err) != 1200 {
		t.Errorf("replication_grants on a managed replica: %v, want 1200 (no grant to run)", err)
	}

	// ending it: the primary's path is refused with the replica to use
	if m := msg(h.do("DELETE", P+priID+"/replication", nil).errBody(t, 400)); !strings.Contains(m, secID) {
		t.Errorf("end on the primary: %s", m)
	}
	h.do("DELETE", P+secID+"/replication", nil).want(t, 200)
	if s := h.service(secID); s.PrimaryHost != "" || s.ReplicationEnabled {
		t.Fatalf("ended, still a replica: %+v", s)
	}
	if st := mustStatus(t, db); st.Configured {
		t.Fatalf("ended, SQL still reports replication: %+v", st)
	}
	h.do("DELETE", P+secID+"/replication", nil).errBody(t, 400)

	// bi-directional: each lists the other, both stream
	h.do("POST", P+secID+"/replication", api.ManagedReplication{PrimaryHost: priID, ReplicationType: api.ReplicationBi}).want(t, 202)
	h.do("GET", P+secID+"/replicas", nil).want(t, 200).decode(t, &reps)
	if len(reps) != 1 || reps[0].ID != priID {
		t.Fatalf("bi-directional: the replica's replicas %+v, want the primary", reps)
	}
	h.clk.Advance(10 * time.Second)
	if st := mustStatus(t, h.sqlClient(pri, h.credentials(priID))); st.IORunning != "Yes" || st.MasterHost != sec.FQDN {
		t.Fatalf("bi-directional: the primary's status %+v", st)
	}

	// a pending replica cannot end it
	h.do("POST", P+secID+"/stop", nil).want(t, 200)
	if m := msg(h.do("DELETE", P+secID+"/replication", nil).errBody(t, 409)); !strings.Contains(m, "pending state") {
		t.Errorf("end while pending: %s", m)
	}
}

// A new managed link never replaces one a service has already (refused
// with 409 naming it), and ending a uni-directional link leaves its
// primary's own replication alone.
func TestManagedReplicationKeepsOtherLinks(t *testing.T) {
	h := newHarness(t, Options{SQL: SQLDemo, Seed: 11})
	P := "/provisioning/v1/services/"
	msg := func(b api.ErrorBody) string { return b.Errors[0].Message }
	priID := h.readyService("orders-main", "aws")
	peerID := h.readyService("orders-peer", "aws")
	repID := h.readyService("orders-copy", "aws")
	skyID := h.readyService("orders-sky", "aws")
	pri, peer := h.service(priID), h.service(peerID)
	priDB := h.sqlClient(pri, h.credentials(priID))
	streamsFromPeer := func(when string) {
		t.Helper()
		h.clk.Advance(10 * time.Second)
		if st := mustStatus(t, priDB); !st.Configured || st.IORunning != "Yes" || st.MasterHost != peer.FQDN {
			t.Fatalf("%s: the primary's replication from %s: %+v", when, peerID, st)
		}
	}

	// orders-main and orders-peer replicate both ways
	h.do("POST", P+peerID+"/replication", api.ManagedReplication{PrimaryHost: priID, ReplicationType: api.ReplicationBi}).want(t, 202)
	streamsFromPeer("bi-directional")

	// a second bi-directional link would make orders-main follow another
	m := msg(h.do("POST", P+repID+"/replication", api.ManagedReplication{PrimaryHost: priID, ReplicationType: api.ReplicationBi}).errBody(t, 409))
	if !strings.Contains(m, priID) || !strings.Contains(m, peerID) {
		t.Errorf("a bi-directional link over an existing one: %q, want it refused naming %s and %s", m, priID, peerID)
	}
	if s := h.service(repID); s.PrimaryHost != "" || s.ReplicationEnabled {
		t.Fatalf("a refused request changed the replica: %+v", s)
	}
	streamsFromPeer("after the refusal")

	// a uni-directional replica of orders-main, then its end
	h.do("POST", P+repID+"/replication", api.ManagedReplication{PrimaryHost: priID, ReplicationType: api.ReplicationUni}).want(t, 202)
	h.do("DELETE", P+repID+"/replication", nil).want(t, 200)
	streamsFromPeer("a uni-directional replica ended")

	// a service that replicates already by the sky procedures
	sky := h.service(skyID)
	skyDB := h.sqlClient(sky, h.credentials(skyID))
	if _, err := skyDB.ChangeExternalPrimaryGTID(bg, "db.example.com", 3306, "0-1-100", true); err != nil {
		t.Fatal(err)
	}
	m = msg(h.do("POST", P+skyID+"/replication", api.ManagedReplication{PrimaryHost: priID, ReplicationType: api.ReplicationUni}).errBody(t, 409))
	if !strings.Contains(m, "db.example.com") {
		t.Errorf("a managed link over the sky procedures' replication: %q, want it refused naming db.example.com", m)
	}
	if st := mustStatus(t, skyDB); st.MasterHost != "db.example.com" {
		t.Fatalf("a refused request changed the replication: %+v", st)
	}

	// orders-peer deleted: orders-main's side of the bi-directional link
	// goes with it, so orders-main can replicate again
	h.do("DELETE", P+peerID, nil).want(t, 200)
	h.clk.Advance(DeleteDuration + time.Second)
	h.do("GET", P+peerID, nil).errBody(t, 404)
	h.do("POST", P+priID+"/replication", api.ManagedReplication{PrimaryHost: repID, ReplicationType: api.ReplicationUni}).want(t, 202)
}
