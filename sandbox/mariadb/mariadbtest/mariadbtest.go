// Package mariadbtest holds what tests against real MariaDB servers share:
// the rule that a missing MariaDB skips a test but fails it under CI=true,
// servers started for a test, a poll for what they do at their own pace
// (their replication status among it), and small SQL helpers that fail
// the test on error.
package mariadbtest

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox/mariadb"
)

// Require skips the test when mariadbd is not installed, and fails it
// when CI=true (where the project's files install it).
func Require(t testing.TB) {
	t.Helper()
	if _, _, err := mariadb.Binaries(); err != nil {
		Missing(t, err)
	}
}

// Missing reports err, a missing MariaDB, by the same rule as Require.
func Missing(t testing.TB, err error) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true and MariaDB is missing: %v", err)
	}
	t.Skipf("skipping real-MariaDB test: %v", err)
}

// Exec runs each statement, failing the test on the first error.
func Exec(t testing.TB, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

// QueryOne returns the first column of the first row ("" for NULL).
func QueryOne(t testing.TB, db *sql.DB, q string) string {
	t.Helper()
	var v sql.NullString
	if err := db.QueryRow(q).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v.String
}

// Start starts a server of each of opts (side by side, a minute at most)
// in a cluster of the test's own, closed when the test ends, and returns
// them in the order of opts. A missing MariaDB skips the test (Require).
func Start(t testing.TB, opts ...mariadb.Options) []*mariadb.Server {
	t.Helper()
	Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cl, err := mariadb.NewCluster(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	out := make([]*mariadb.Server, len(opts))
	errs := make(chan error, len(opts))
	for i, o := range opts {
		go func() {
			var err error
			out[i], err = cl.Start(ctx, o)
			errs <- err
		}()
	}
	for range opts {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// Eventually polls cond every 50 ms for up to a minute of wall time (real
// servers start, dump and load at their own pace); cond says whether it
// holds and, when not, what it saw, which the failure names.
func Eventually(t testing.TB, what string, cond func() (bool, string)) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		ok, last := cond()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s; last: %s", what, last)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// WaitStatus polls the replication status of c until ok holds (as
// Eventually does) and returns it.
func WaitStatus(t testing.TB, c *api.SQLClient, what string, ok func(*api.ReplicationStatus) bool) *api.ReplicationStatus {
	t.Helper()
	var st *api.ReplicationStatus
	Eventually(t, what, func() (bool, string) {
		var err error
		if st, err = c.ReplicationStatus(context.Background()); err != nil {
			t.Fatal(err)
		}
		return ok(st), fmt.Sprintf("%+v", st)
	})
	return st
}

// GrantAndRestart runs the replication grant on the primary, then stops
// and starts replication on the secondary so that it logs in again.
func GrantAndRestart(t testing.TB, primary, secondary *api.SQLClient, grant string) {
	t.Helper()
	ctx := context.Background()
	if err := primary.RunGrant(ctx, grant); err != nil {
		t.Fatal(err)
	}
	if _, err := secondary.StopReplication(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := secondary.StartReplication(ctx); err != nil {
		t.Fatal(err)
	}
}
