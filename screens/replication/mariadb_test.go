package replication_test

import (
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/internal/testenv"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/sandbox/mariadb/mariadbtest"
	"github.com/skytui/skytui/screens/replication"
	"github.com/skytui/skytui/tui/tuitest"
)

// openMariaDB starts a sandbox whose ready services are real mariadbd
// servers; without MariaDB it skips, and fails under CI=true.
func openMariaDB(t *testing.T) (*sandbox.Server, *sandbox.ManualClock, *api.Client) {
	t.Helper()
	clk := sandbox.NewManualClock(tuitest.T0)
	srv, err := sandbox.Open(sandbox.Options{APIKey: tuitest.TestKey, Clock: clk, SQL: sandbox.SQLMariaDB, MariaDBDir: t.TempDir()})
	if errors.Is(err, sandbox.ErrNoMariaDB) {
		mariadbtest.Missing(t, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return srv, clk, testenv.Serve(t, srv, tuitest.TestKey)
}

// statusScreen is the Replication screen on the saved pairs, outside the
// root: its poll is its own Resource's Fetch, fed back as the engine does.
type statusScreen struct {
	t *testing.T
	s *replication.Screen
}

func newStatusScreen(t *testing.T, c *api.Client, clk *sandbox.ManualClock, store *replsetup.Store) *statusScreen {
	common := tuitest.Common()
	common.Client, common.Profile, common.Now = c, "real", clk.Now
	s := replication.NewWithOptions(common, replication.Options{Store: store, SQLTimeout: 10 * time.Second})
	s.SetSize(140, 36)
	s.Update(s.Init()())
	return &statusScreen{t: t, s: s}
}

// poll runs the status resources' fetches and hands the replies over.
func (ss *statusScreen) poll() string {
	for _, r := range ss.s.Resources() {
		if !strings.HasPrefix(r.Key, "replication/status/") {
			continue
		}
		data, err := r.Fetch(bg)
		ss.s.Update(kit.DataMsg{Key: r.Key, Data: data, Err: err, At: time.Now()})
	}
	return tuitest.View(ss.s)
}

// The end-to-end test on real servers, through the wizard's
// logic: rows inserted on the primary, the setup run step by step, first
// without the grant (the IO thread stays Connecting and the status view
// shows error 1045), then with it (Yes / Yes), and the rows, old and new,
// found on the secondary after MASTER_GTID_WAIT.
func TestMariaDBWizardEndToEnd(t *testing.T) {
	srv, clk, c := openMariaDB(t)
	eng := &replsetup.Engine{Client: c, Now: clk.Now, SQLTimeout: 10 * time.Second}
	launch := func(name string) string {
		s, err := c.CreateService(bg, api.CreateServiceRequest{ServiceType: "transactional", Topology: "es-single", Provider: "aws",
			Region: "us-east-1", Architecture: "amd64", Size: "sky-2x8", Storage: 100, Nodes: 1, Name: name, SSLEnabled: true})
		if err != nil {
			t.Fatal(err)
		}
		return s.ID
	}
	priID, secID := launch("real-orders"), launch("real-orders-copy")
	clk.Advance(sandbox.LaunchDuration + time.Second)
	for _, id := range []string{priID, secID} {
		mariadbtest.Eventually(t, id+" ready", func() (bool, string) {
			s, err := c.GetService(bg, id)
			if err != nil {
				return false, err.Error()
			}
			if s.Status == "failed" {
				t.Fatalf("launch failed: %v", s.Errors)
			}
			return s.Ready(), s.Status
		})
	}
	root := testenv.RootDB(t, srv, priID)
	mariadbtest.Exec(t, root, "CREATE DATABASE shop", "CREATE TABLE shop.orders (id INT PRIMARY KEY, item VARCHAR(20))",
		"INSERT INTO shop.orders VALUES (1,'kettle'),(2,'teapot'),(3,'mug')")

	now := clk.Now
	w := replsetup.NewWizard(now())
	o := eng.CheckPair(bg, priID, secID)
	if o.Verdict != replsetup.Pass {
		t.Fatalf("pair: %+v", o)
	}
	w.Apply(o, now())
	if o = eng.CheckAllowList(bg, w.Progress); o.Verdict == replsetup.Fail {
		o = eng.AddAllowList(bg, w.Progress, o.Missing)
	}
	if o.Verdict != replsetup.Pass {
		t.Fatalf("allow list: %+v", o)
	}
	w.Apply(o, now())

	// a backup of the primary with its real position
	if _, err := c.CreateSchedule(bg, api.ScheduleRequest{BackupType: api.BackupFull, Schedule: "once", ServiceID: priID}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Hour)
	mariadbtest.Eventually(t, "the backup", func() (bool, string) {
		o = eng.ListBackups(bg, w.Progress)
		return o.Backup != nil, fmt.Sprintf("%+v", o.Backups)
	})
	w.Apply(o, now())
	if want := mariadbtest.QueryOne(t, root, "SELECT @@gtid_binlog_pos"); o.Backup.Backup.BinlogGTIDPosition != want {
		t.Fatalf("backup GTID %q, server at %q", o.Backup.Backup.BinlogGTIDPosition, want)
	}
	if err := w.ChooseBackup(o.Backup.Backup.Key, now()); err != nil {
		t.Fatal(err)
	}
	o = eng.StartRestore(bg, w.Progress)
	if o.Verdict != replsetup.Waiting {
		t.Fatalf("restore: %+v", o)
	}
	w.Apply(o, now())
	clk.Advance(2 * time.Hour)
	mariadbtest.Eventually(t, "the restore", func() (bool, string) {
		o = eng.CheckRestore(bg, w.Progress)
		if o.Verdict == replsetup.Fail {
			t.Fatalf("restore failed: %+v", o)
		}
		return o.Verdict == replsetup.Pass, o.Summary
	})
	w.Apply(o, now())
	mariadbtest.Eventually(t, "the secondary ready again", func() (bool, string) {
		s, err := c.GetService(bg, secID)
		return err == nil && s.Ready(), fmt.Sprint(s, err)
	})
	o = eng.ChangePrimary(bg, w.Progress)
	if o.Verdict != replsetup.Pass || !strings.HasPrefix(o.Grant, "GRANT REPLICATION SLAVE ON *.* TO 'skysql_replication_") {
		t.Fatalf("change primary: %+v", o)
	}
	w.Apply(o, now())

	// The failure path: the user says the grant ran; it did not.
	w.GrantRanByUser(now())
	o = eng.StartReplication(bg, w.Progress)
	if o.Verdict == replsetup.Pass {
		t.Fatalf("replication runs without the grant: %+v", o.Status)
	}
	w.Apply(o, now())
	store := &replsetup.Store{Path: filepath.Join(t.TempDir(), replsetup.StateFileName)}
	pair := replsetup.PairOf(w.Progress, now())
	if err := store.Save("real", replsetup.ProfileState{Pairs: []replsetup.Pair{pair}}, 0); err != nil {
		t.Fatal(err)
	}
	ss := newStatusScreen(t, c, clk, store)
	var view string
	mariadbtest.Eventually(t, "error 1045 in the status view", func() (bool, string) {
		view = ss.poll()
		return strings.Contains(view, "Last IO err   1045:"), view
	})
	for _, want := range []string{"IO thread     Connecting", "Access denied for user 'skysql_replication_", "Fix           run the grant on the primary real-orders (g shows it)"} {
		if !strings.Contains(view, want) {
			t.Fatalf("the status view lacks %q:\n%s", want, view)
		}
	}

	// Now run the grant (step 5) and start again (step 6): Yes / Yes.
	w.GoTo(replsetup.StepGrant)
	o = eng.RunGrant(bg, w.Progress, w.Grant)
	if o.Verdict != replsetup.Pass {
		t.Fatalf("grant: %+v", o)
	}
	w.Apply(o, now())
	o = eng.StartReplication(bg, w.Progress)
	if o.Verdict == replsetup.Fail {
		t.Fatalf("start after the grant: %+v", o)
	}
	w.Apply(o, now())
	if w.Current() != replsetup.StepDone {
		t.Fatalf("wizard at %s", w.Current())
	}
	mariadbtest.Eventually(t, "Yes / Yes in the status view", func() (bool, string) {
		view = ss.poll()
		return strings.Contains(view, "IO thread     Yes") && strings.Contains(view, "SQL thread    Yes"), view
	})
	if !strings.Contains(view, "Last IO err   none") || !strings.Contains(view, "Using GTID    Slave_Pos") {
		t.Fatalf("status view:\n%s", view)
	}

	// rows written now arrive on the secondary
	mariadbtest.Exec(t, root, "INSERT INTO shop.orders VALUES (4,'spoon'),(5,'tray')")
	head := mariadbtest.QueryOne(t, root, "SELECT @@gtid_binlog_pos")
	creds, err := c.GetCredentials(bg, secID)
	if err != nil {
		t.Fatal(err)
	}
	sec, _ := c.GetService(bg, secID)
	secDB, err := sql.Open("mysql", fmt.Sprintf("%s:%s@tcp(127.0.0.1:%d)/", creds.Username, creds.Password, sec.ReadWritePort()))
	if err != nil {
		t.Fatal(err)
	}
	defer secDB.Close()
	if got := mariadbtest.QueryOne(t, secDB, "SELECT MASTER_GTID_WAIT('"+head+"', 10)"); got != "0" {
		t.Fatalf("MASTER_GTID_WAIT = %s", got)
	}
	if n := mariadbtest.QueryOne(t, secDB, "SELECT COUNT(*) FROM shop.orders"); n != "5" {
		t.Fatalf("the secondary has %s rows, want 5", n)
	}
	if g := mariadbtest.QueryOne(t, secDB, "SELECT @@gtid_slave_pos"); g != head {
		t.Fatalf("gtid_slave_pos %s, primary at %s", g, head)
	}
}
