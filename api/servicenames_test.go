package api

import "testing"

// TestNameServiceIDs: a service an engine's text names by ID alone is
// named "name (ID)"; an ID inside a key or a host name, or already after
// its name, is left alone.
func TestNameServiceIDs(t *testing.T) {
	svcs := []Service{{ID: "dbtaf85489797", Name: "orders-prod"}, {ID: "dbtaf93155232", Name: "replica-west"}, {ID: "dbtgf00000001"}}
	for in, want := range map[string]string{
		"replica-west already replicates from dbtaf85489797: end that replication first": "replica-west already replicates from orders-prod (dbtaf85489797): end that replication first",
		"service dbtaf93155232 already replicates from dbtaf85489797":                    "service replica-west (dbtaf93155232) already replicates from orders-prod (dbtaf85489797)",
		"from dbtaf85489797.":                                     "from orders-prod (dbtaf85489797).",
		"orders-prod (dbtaf85489797) is ready":                    "orders-prod (dbtaf85489797) is ready",
		"host dbtaf85489797.sandbox.localhost":                    "host dbtaf85489797.sandbox.localhost",
		"backup cf29:dbtaf85489797:dbtaf85489797-mdb-ms-0":        "backup cf29:dbtaf85489797:dbtaf85489797-mdb-ms-0",
		"xdbtaf85489797 and dbtaf85489797x and dbtgf00000001 too": "xdbtaf85489797 and dbtaf85489797x and dbtgf00000001 too",
	} {
		if got := NameServiceIDs(in, svcs); got != want {
			t.Errorf("NameServiceIDs(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

// TestSharedName: a shared name is said with every ID, and with their
// statuses where asked ("?" for one not read), so the user can name one.
func TestSharedName(t *testing.T) {
	found := []*Service{{ID: "db1", Name: "x", Status: "ready"}, {ID: "db2", Name: "x"}}
	if got, want := SharedName("x", found, false), `2 services are named "x" (db1, db2)`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := SharedName("x", found, true), `2 services are named "x" (db1 ready, db2 ?)`; got != want {
		t.Errorf("with statuses: got %q, want %q", got, want)
	}
}
