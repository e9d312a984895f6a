// Package testenv holds what the tests of several packages share: the
// fixed moment deterministic tests start at, the time zone their
// snapshots are taken in, a sandbox served on loopback with a client of
// it, reached over HTTP like a real account, and a root connection to a
// sandbox service's real server.
package testenv

import (
	"database/sql"
	"os"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
)

// T0 is the fixed start of the deterministic tests (the manual clock's
// first reading).
var T0 = time.Date(2026, 3, 14, 12, 0, 0, 0, time.UTC)

// Main runs a package's tests in UTC, so that snapshots showing times read
// the same everywhere. Call it from TestMain.
func Main(m *testing.M) {
	time.Local = time.UTC
	os.Exit(m.Run())
}

// Serve starts srv on a loopback port, closes it when the test ends, and
// returns a client of it with key that does not retry.
func Serve(t testing.TB, srv *sandbox.Server, key string) *api.Client {
	t.Helper()
	t.Cleanup(func() { srv.Close() })
	base, err := srv.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c, err := api.New(api.Config{BaseURL: base, APIKey: key, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// RootDB connects as root to the real server (sandbox.SQLMariaDB) of the
// sandbox service id, and closes the connection when the test ends.
func RootDB(t testing.TB, srv *sandbox.Server, id string) *sql.DB {
	t.Helper()
	db, err := srv.MariaDB(id).DB()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}
