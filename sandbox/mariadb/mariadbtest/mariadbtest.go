// Package mariadbtest holds what tests against real MariaDB servers share:
// the rule that a missing MariaDB skips a test but fails it under CI=true,
// and small SQL helpers that fail the test on error.
package mariadbtest

import (
	"database/sql"
	"os"
	"testing"

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
