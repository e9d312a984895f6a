package api_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox/mariadb"
	"github.com/skytui/skytui/sandbox/mariadb/mariadbtest"
)

// startPair starts a primary and a secondary MariaDB with the sky schema.
// A missing MariaDB skips the test, and fails it under CI=true.
func startPair(t *testing.T) (primary, secondary *mariadb.Server) {
	t.Helper()
	s := mariadbtest.Start(t, mariadb.Options{Name: "primary", ServiceID: "dbtgf1"},
		mariadb.Options{Name: "secondary", ServiceID: "dbtgf2", OutboundIP: "127.0.0.1"})
	return s[0], s[1]
}

func sqlClient(t *testing.T, s *mariadb.Server, user string) *api.SQLClient {
	t.Helper()
	c, err := api.OpenSQL(api.SQLTarget{Host: "127.0.0.1", Port: s.Port, User: user, Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func execAll(t *testing.T, s *mariadb.Server, noBinlog bool, stmts ...string) {
	t.Helper()
	db, err := s.DB()
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if noBinlog {
		stmts = append([]string{"SET SESSION sql_log_bin = 0"}, stmts...)
	}
	for _, st := range stmts {
		if _, err := conn.ExecContext(ctx, st); err != nil {
			t.Fatalf("%s: %v", st, err)
		}
	}
}

func queryString(t *testing.T, s *mariadb.Server, q string) string {
	t.Helper()
	db, err := s.DB()
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var v string
	if err := db.QueryRow(q).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v
}

// The whole replication setup against real servers, through the SQL client
// the wizard uses: the failure path without the grant, then the grant,
// then rows written on the primary arrive on the secondary.
func TestReplicationOnRealMariaDB(t *testing.T) {
	primary, secondary := startPair(t)
	ctx := context.Background()
	seed := []string{"CREATE DATABASE app", "CREATE TABLE app.orders (id INT PRIMARY KEY, item VARCHAR(20))", "INSERT INTO app.orders VALUES (1,'a'),(2,'b')"}
	execAll(t, primary, false, seed...)
	gtid := queryString(t, primary, "SELECT @@gtid_binlog_pos")
	if gtid == "" {
		t.Fatal("primary has no GTID position")
	}
	// the restore of the primary's backup into the secondary
	execAll(t, secondary, true, seed...)

	sec := sqlClient(t, secondary, "root")
	pri := sqlClient(t, primary, "root")
	grant, err := sec.ChangeExternalPrimaryGTID(ctx, "127.0.0.1", primary.Port, gtid, false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(grant, "GRANT REPLICATION SLAVE ON *.* TO 'skysql_replication_dbtgf2'@'127.0.0.1' IDENTIFIED BY '") {
		t.Fatalf("grant %q", grant)
	}
	again, err := sec.ReplicationGrants(ctx)
	if err != nil || again != grant {
		t.Fatalf("replication_grants: %q %v", again, err)
	}

	// without the grant on the primary the IO thread cannot log in
	if msg, err := sec.StartReplication(ctx); err != nil || msg == "" {
		t.Fatalf("start: %q %v", msg, err)
	}
	st := mariadbtest.WaitStatus(t, sec, "error 1045", func(s *api.ReplicationStatus) bool { return s.LastIOErrno == api.ErAccessDenied })
	if st.Running() || !strings.EqualFold(st.IORunning, "Connecting") {
		t.Errorf("IO thread should be Connecting, got %q", st.IORunning)
	}

	mariadbtest.GrantAndRestart(t, pri, sec, grant)
	st = mariadbtest.WaitStatus(t, sec, "Yes/Yes", (*api.ReplicationStatus).Running)
	if st.MasterPort != primary.Port || st.SecondsBehindMaster == nil || st.UsingGTID == "" {
		t.Errorf("status %+v", st)
	}

	execAll(t, primary, false, "INSERT INTO app.orders VALUES (3,'c'),(4,'d')")
	pos := queryString(t, primary, "SELECT @@gtid_binlog_pos")
	if got := queryString(t, secondary, "SELECT MASTER_GTID_WAIT('"+pos+"', 10)"); got != "0" {
		t.Fatalf("MASTER_GTID_WAIT = %s", got)
	}
	if n := queryString(t, secondary, "SELECT COUNT(*) FROM app.orders"); n != "4" {
		t.Fatalf("secondary has %s rows, want 4", n)
	}
	g, err := sec.GTIDStatus(ctx)
	if err != nil || g.SlavePos != pos {
		t.Errorf("gtid_status %+v %v (want slave pos %s)", g, err, pos)
	}

	if _, err := sec.StopReplication(ctx); err != nil {
		t.Fatal(err)
	}
	st = mariadbtest.WaitStatus(t, sec, "stopped", func(s *api.ReplicationStatus) bool { return strings.EqualFold(s.IORunning, "No") })
	if st.SecondsBehindMaster != nil {
		t.Errorf("Seconds_Behind_Master should be NULL while stopped, got %d", *st.SecondsBehindMaster)
	}
}

func TestSQLErrorsAreExplained(t *testing.T) {
	primary, _ := startPair(t)
	ctx := context.Background()
	var se *api.SQLError

	denied := sqlClient(t, primary, "nobody")
	_, err := denied.ReplicationStatus(ctx)
	if !errors.As(err, &se) || se.Code != api.ErAccessDenied || !strings.Contains(err.Error(), "access denied") {
		t.Errorf("access denied: %v", err)
	}

	noSchema, err := api.OpenSQL(api.SQLTarget{Host: "127.0.0.1", Port: primary.Port, User: "root", Schema: "mysql"})
	if err != nil {
		t.Fatal(err)
	}
	defer noSchema.Close()
	_, err = noSchema.StartReplication(ctx)
	if !errors.As(err, &se) || se.Code != api.ErSPDoesNotExist || !strings.Contains(err.Error(), "unknown procedure") {
		t.Errorf("unknown procedure: %v", err)
	}

	// a loopback name with the service ID as first label reaches 127.0.0.1
	byName, err := api.OpenSQL(api.SQLTarget{Host: "dbtgf1.sandbox.localhost", Port: primary.Port, User: "root"})
	if err != nil {
		t.Fatal(err)
	}
	defer byName.Close()
	if err := byName.Ping(ctx); err != nil {
		t.Errorf("*.localhost should dial loopback: %v", err)
	}

	pri := sqlClient(t, primary, "root")
	for _, bad := range []string{"DROP DATABASE app", "GRANT ALL ON *.* TO 'x'@'%'; DROP DATABASE mysql"} {
		if err := pri.RunGrant(ctx, bad); err == nil {
			t.Errorf("RunGrant accepted %q", bad)
		}
	}
}

func TestSQLUnreachable(t *testing.T) {
	c, err := api.OpenSQL(api.SQLTarget{Host: "127.0.0.1", Port: 1, User: "root", Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	err = c.Ping(context.Background())
	if err == nil || !strings.Contains(err.Error(), "unreachable") {
		t.Fatalf("want unreachable, got %v", err)
	}
}
