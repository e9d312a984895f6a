package demosql_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox/demosql"
)

type fakeBackend struct {
	mu     sync.Mutex
	pw     string
	calls  []demosql.Call
	grants []demosql.Grant
}

func (f *fakeBackend) Credentials(id string) (string, string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return "dbtgf1", f.pw, id == "dbtgf1"
}

func (f *fakeBackend) Call(id, proc string, args []any) (*demosql.Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, demosql.Call{Proc: proc, Args: args})
	switch proc {
	case "change_external_primary_gtid", "replication_grants":
		return &demosql.Result{Columns: []string{api.GrantColumn}, Rows: [][]any{{"GRANT REPLICATION SLAVE ON *.* TO 'skysql_replication_dbtgf1'@'198.51.100.7' IDENTIFIED BY 'p;w''x';"}}}, nil
	case "replication_status":
		return &demosql.Result{Columns: []string{"Slave_IO_Running", "Slave_SQL_Running", "Seconds_Behind_Master", "Last_IO_Errno", "Last_IO_Error"},
			Rows: [][]any{{"Connecting", "Yes", nil, int64(1045), "Access denied"}}}, nil
	case "start_replication":
		return &demosql.Result{Columns: []string{"Message"}, Rows: [][]any{{"Replication started"}}}, nil
	}
	return nil, demosql.Errorf(1305, "PROCEDURE sky.%s does not exist", proc)
}

func (f *fakeBackend) Grant(id string, g demosql.Grant) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.grants = append(f.grants, g)
	return nil
}

// listen opens the endpoint of service dbtgf1 on a free port over b,
// closed when the test ends.
func listen(t *testing.T, b *fakeBackend) *demosql.Endpoint {
	t.Helper()
	ep, err := demosql.Listen("dbtgf1", 0, b)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ep.Close() })
	return ep
}

func TestEndpointSpeaksTheDriverProtocol(t *testing.T) {
	b := &fakeBackend{pw: "s3cret"}
	ep := listen(t, b)
	ctx := context.Background()
	c, err := api.OpenSQL(api.SQLTarget{Host: "dbtgf1.sandbox.localhost", Port: ep.Port, User: "dbtgf1", Password: "s3cret", Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	grant, err := c.ChangeExternalPrimaryGTID(ctx, "dbtgf2.sandbox.localhost", 3306, "0-1-42", true)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(grant, "GRANT REPLICATION SLAVE") {
		t.Errorf("grant %q", grant)
	}
	b.mu.Lock()
	got := b.calls[0]
	b.mu.Unlock()
	if got.Proc != "change_external_primary_gtid" || len(got.Args) != 4 || got.Args[0] != "dbtgf2.sandbox.localhost" || got.Args[1] != int64(3306) || got.Args[2] != "0-1-42" || got.Args[3] != int64(1) {
		t.Errorf("call arrived as %#v", got)
	}
	st, err := c.ReplicationStatus(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.IORunning != "Connecting" || st.SecondsBehindMaster != nil || st.LastIOErrno != 1045 {
		t.Errorf("status %+v", st)
	}
	if msg, err := c.StartReplication(ctx); err != nil || msg != "Replication started" {
		t.Errorf("start: %q %v", msg, err)
	}
	_, err = c.StopReplication(ctx)
	var se *api.SQLError
	if !errors.As(err, &se) || se.Code != 1305 {
		t.Errorf("unknown procedure: %v", err)
	}
	if err := c.RunGrant(ctx, grant); err != nil {
		t.Fatal(err)
	}
	b.mu.Lock()
	g := b.grants[0]
	b.mu.Unlock()
	if g.User != "skysql_replication_dbtgf1" || g.Host != "198.51.100.7" || g.Password != "p;w'x" {
		t.Errorf("grant parsed as %+v", g)
	}
}

func TestEndpointChecksCurrentCredentials(t *testing.T) {
	b := &fakeBackend{pw: "old"}
	ep := listen(t, b)
	open := func(pw string) error {
		c, err := api.OpenSQL(api.SQLTarget{Host: "127.0.0.1", Port: ep.Port, User: "dbtgf1", Password: pw, Timeout: 3 * time.Second})
		if err != nil {
			return err
		}
		defer c.Close()
		return c.Ping(context.Background())
	}
	if err := open("old"); err != nil {
		t.Fatal(err)
	}
	b.mu.Lock()
	b.pw = "new" // a restore replaced the credentials
	b.mu.Unlock()
	err := open("old")
	var se *api.SQLError
	if !errors.As(err, &se) || se.Code != api.ErAccessDenied {
		t.Fatalf("old password after a restore: %v", err)
	}
	if err := open("new"); err != nil {
		t.Fatal(err)
	}
}

func TestParse(t *testing.T) {
	cases := []struct {
		in   string
		want any
	}{
		{"CALL sky.start_replication()", demosql.Call{Proc: "start_replication"}},
		{"call `sky`.`replication_status`;", demosql.Call{Proc: "replication_status"}},
		{"CALL sky.change_external_primary('h', 3306, 'mariadb-bin.000042', 1534, FALSE)", demosql.Call{Proc: "change_external_primary", Args: []any{"h", int64(3306), "mariadb-bin.000042", int64(1534), false}}},
		{"CALL sky.x('it''s', \"d\\\"q\", NULL)", demosql.Call{Proc: "x", Args: []any{"it's", `d"q`, nil}}},
	}
	for _, tc := range cases {
		got, err := demosql.Parse(tc.in)
		if err != nil {
			t.Errorf("%s: %v", tc.in, err)
			continue
		}
		if !equal(got, tc.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", tc.in, got, tc.want)
		}
	}
	for _, bad := range []string{"DROP DATABASE x", "CALL other.start_replication()", "CALL sky.x('open", "CALL sky.x(1 2)", "CALL sky.x(abc)"} {
		if _, err := demosql.Parse(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func equal(a, b any) bool {
	ca, ok1 := a.(demosql.Call)
	cb, ok2 := b.(demosql.Call)
	if !ok1 || !ok2 || ca.Proc != cb.Proc || len(ca.Args) != len(cb.Args) {
		return false
	}
	for i := range ca.Args {
		if ca.Args[i] != cb.Args[i] {
			return false
		}
	}
	return true
}
