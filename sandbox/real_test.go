package sandbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox/mariadb/mariadbtest"
)

func (h *harness) waitReady(id string) api.Service {
	h.t.Helper()
	var svc api.Service
	mariadbtest.Eventually(h.t, id+" ready", func() (bool, string) {
		svc = h.service(id)
		if svc.Status == "failed" {
			h.t.Fatalf("launch failed: %v", svc.Errors)
		}
		return svc.Status == "ready", svc.Status
	})
	return svc
}

// userDB connects to a service's real server as its default user.
func userDB(t *testing.T, svc api.Service, c api.Credentials) *sql.DB {
	t.Helper()
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net = c.Username, c.Password, "tcp"
	cfg.Addr = fmt.Sprintf("127.0.0.1:%d", svc.ReadWritePort())
	cfg.Timeout, cfg.ReadTimeout = 5*time.Second, 15*time.Second
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(conn)
	t.Cleanup(func() { db.Close() })
	return db
}

// Two services launched through the HTTP API get real servers; a backup
// of the primary really copies its rows into the secondary with the
// primary's credentials; the replication set up through api.SQLClient
// first fails with 1045 (grant not run), then streams, and rows written
// on the primary arrive on the secondary. Close leaves no process behind.
func TestMariaDBReplicationEndToEnd(t *testing.T) {
	mariadbtest.Require(t)
	t.Parallel()
	h := newHarness(t, Options{SQL: SQLMariaDB})
	priID := h.createService("real-primary", "aws")
	secID := h.createService("real-replica", "aws")
	h.clk.Advance(LaunchDuration + time.Second)
	// The launch is over in sandbox time, but a service stays
	// pending_create until its server is up.
	if svc := h.service(priID); svc.Status != "pending_create" || svc.FQDN != "" {
		t.Fatalf("before its server is up: %s %q", svc.Status, svc.FQDN)
	}
	pri, sec := h.waitReady(priID), h.waitReady(secID)
	if len(sec.OutboundIPs) != 1 || sec.OutboundIPs[0] != "127.0.0.1" || pri.ReadWritePort() == 3306 {
		t.Fatalf("secondary outbound %v, primary port %d", sec.OutboundIPs, pri.ReadWritePort())
	}
	priCreds, secCreds := h.credentials(priID), h.credentials(secID)
	priDB := userDB(t, pri, priCreds)
	mariadbtest.Exec(t, priDB, "CREATE DATABASE shop", "CREATE TABLE shop.orders (id INT PRIMARY KEY, item VARCHAR(20))",
		"INSERT INTO shop.orders VALUES (1,'kettle'),(2,'teapot'),(3,'mug')")
	mariadbtest.Exec(t, userDB(t, sec, secCreds), "CREATE DATABASE scratch") // replaced by the restore

	// The backup records the server's real position at its end.
	h.onceBackup(priID, api.BackupFull)
	if bs := h.backups(priID); len(bs) != 1 || bs[0].Status != "Running" || bs[0].BinlogGTIDPosition != "" || bs[0].BinlogFile != "" {
		t.Fatalf("a running backup of a real server shows a position: %+v", bs)
	}
	h.clk.Advance(time.Hour)
	var b api.Backup
	mariadbtest.Eventually(t, "the backup", func() (bool, string) {
		for _, x := range h.backups(priID) {
			if x.Type == api.BackupFull {
				b = x
			}
		}
		return b.Status == "Succeeded", b.Status
	})
	root, err := h.s.MariaDB(priID).DB()
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if want := mariadbtest.QueryOne(t, root, "SELECT @@gtid_binlog_pos"); b.BinlogGTIDPosition != want || want == "" {
		t.Fatalf("backup GTID %q, server at %q", b.BinlogGTIDPosition, want)
	}
	var file, pos string
	var x1, x2 any
	if err := root.QueryRow("SHOW MASTER STATUS").Scan(&file, &pos, &x1, &x2); err != nil {
		t.Fatal(err)
	}
	if b.BinlogFile != file || string(b.BinlogPosition) != pos {
		t.Fatalf("backup at %s:%s, server at %s:%s", b.BinlogFile, b.BinlogPosition, file, pos)
	}

	// The restore copies the rows and the primary's credentials.
	var r api.Restore
	h.do("POST", "/skybackup/v1/restores", api.ManagedRestore(secID, b.Key)).want(t, 200).decode(t, &r)
	h.clk.Advance(2 * time.Hour)
	mariadbtest.Eventually(t, "the restore", func() (bool, string) {
		var one api.Restore
		h.do("GET", "/skybackup/v1/restores/"+jsonString(r.ID), nil).want(t, 200).decode(t, &one)
		return one.Status == "Succeeded", one.Status + " " + one.Message
	})
	if c := h.credentials(secID); c.Username != priCreds.Username || c.Password != priCreds.Password {
		t.Fatalf("secondary credentials %+v, want the primary's %+v", c, priCreds)
	}
	if err := userDB(t, sec, secCreds).Ping(); sqlCode(err) != api.ErAccessDenied {
		t.Fatalf("the secondary's old credentials after the restore: %v", err)
	}
	secDB := userDB(t, sec, priCreds)
	if n := mariadbtest.QueryOne(t, secDB, "SELECT COUNT(*) FROM shop.orders"); n != "3" {
		t.Fatalf("secondary has %s rows after the restore, want 3", n)
	}
	if n := mariadbtest.QueryOne(t, secDB, "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'scratch'"); n != "0" {
		t.Fatal("the restore kept the secondary's own schema")
	}

	// Replication through the client the wizard uses.
	open := func(svc api.Service) *api.SQLClient {
		c, err := api.OpenSQL(api.SQLTarget{Host: svc.FQDN, Port: svc.ReadWritePort(), User: priCreds.Username, Password: priCreds.Password, Timeout: 10 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		return c
	}
	secondary, primary := open(sec), open(pri)
	ctx := context.Background()
	grant, err := secondary.ChangeExternalPrimaryGTID(ctx, pri.FQDN, pri.ReadWritePort(), b.BinlogGTIDPosition, false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(grant, "GRANT REPLICATION SLAVE ON *.* TO 'skysql_replication_"+secID+"'@'127.0.0.1' IDENTIFIED BY '") {
		t.Fatalf("grant %q", grant)
	}
	if _, err := secondary.StartReplication(ctx); err != nil {
		t.Fatal(err)
	}
	st := mariadbtest.WaitStatus(t, secondary, "error 1045", func(s *api.ReplicationStatus) bool { return s.LastIOErrno == api.ErAccessDenied })
	if st.IORunning != "Connecting" || st.SecondsBehindMaster != nil {
		t.Fatalf("without the grant: %+v", st)
	}
	mariadbtest.GrantAndRestart(t, primary, secondary, grant)
	st = mariadbtest.WaitStatus(t, secondary, "Yes/Yes", (*api.ReplicationStatus).Running)
	if st.SecondsBehindMaster == nil || st.MasterPort != pri.ReadWritePort() || st.UsingGTID != "Slave_Pos" {
		t.Fatalf("replicating: %+v", st)
	}

	mariadbtest.Exec(t, priDB, "INSERT INTO shop.orders VALUES (4,'spoon'),(5,'tray')")
	head := mariadbtest.QueryOne(t, priDB, "SELECT @@gtid_binlog_pos")
	if got := mariadbtest.QueryOne(t, secDB, "SELECT MASTER_GTID_WAIT('"+head+"', 10)"); got != "0" {
		t.Fatalf("MASTER_GTID_WAIT = %s", got)
	}
	if n := mariadbtest.QueryOne(t, secDB, "SELECT COUNT(*) FROM shop.orders"); n != "5" {
		t.Fatalf("secondary has %s rows, want 5", n)
	}
	if g, err := secondary.GTIDStatus(ctx); err != nil || g.SlavePos != head {
		t.Fatalf("gtid_status %+v %v, want slave pos %s", g, err, head)
	}

	// Close stops every server and leaves nothing behind.
	dir := h.s.sql.real.dir
	pids := []int{h.s.MariaDB(priID).Pid(), h.s.MariaDB(secID).Pid()}
	h.s.Close()
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("mariadbd %d still exists after Close: %v", pid, err)
		}
	}
	if procs := processesMentioning(dir); len(procs) > 0 {
		t.Errorf("processes left after Close: %v", procs)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("data directory %s left after Close: %v", dir, err)
	}
}

// Close while a server is still starting stops it too, and a launch after
// Close fails instead of starting one.
func TestMariaDBCloseWhileStarting(t *testing.T) {
	mariadbtest.Require(t)
	t.Parallel()
	h := newHarness(t, Options{SQL: SQLMariaDB})
	id := h.createService("short-lived", "gcp")
	h.clk.Advance(LaunchDuration - time.Second)
	late := h.createService("too-late", "gcp")
	h.clk.Advance(2 * time.Second)
	if svc := h.service(id); svc.Status != "pending_create" { // its server is starting now
		t.Fatalf("status %s %v", svc.Status, svc.Errors)
	}
	dir := h.s.sql.real.dir
	h.s.Close()
	if procs := processesMentioning(dir); len(procs) > 0 {
		t.Errorf("processes left after Close: %v", procs)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("data directory %s left after Close: %v", dir, err)
	}
	h.clk.Advance(LaunchDuration)
	if svc := h.service(late); svc.Status != "failed" || len(svc.Errors) == 0 || !strings.Contains(svc.Errors[0], "shutting down") {
		t.Errorf("a launch after Close: %s %v", svc.Status, svc.Errors)
	}
}

// processesMentioning lists the command lines that name dir.
func processesMentioning(dir string) []string {
	var out []string
	cmdlines, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range cmdlines {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), dir) {
			out = append(out, strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}
