package cli

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox"
)

// TestFullJSON: -o json writes every field whatever its value (omitempty
// and omitzero ignored): a nil list [], a nil map {}, a nil pointer and a
// zero time null; the types' own MarshalJSON as they write it; and a
// record with every field set exactly as encoding/json writes it.
func TestFullJSON(t *testing.T) {
	type inner struct {
		A string `json:"a,omitempty"`
	}
	type rec struct {
		api.Meta        // its fields are json:"-"
		ID       string `json:"id"`
		Opt      string `json:"opt,omitempty"`
		N        int    `json:"n,omitempty"`
		Flag     bool   `json:"flag,omitempty"`
		List     []string
		Entries  []inner          `json:"entries,omitempty"`
		Ptr      *inner           `json:"ptr,omitempty"`
		In       inner            `json:"in"`
		At       api.Time         `json:"at,omitzero"`
		Go       time.Time        `json:"go,omitzero"`
		Unix     api.UnixTime     `json:"unix,omitempty"`
		Pos      api.FlexString   `json:"pos,omitempty"`
		M        map[string]int   `json:"m,omitempty"`
		Q        int              `json:"q,string"`
		Any      any              `json:"any,omitempty"`
		Keyed    map[int]string   `json:"keyed,omitempty"`
		Raw      *json.RawMessage `json:"raw,omitempty"`
		hidden   string
		Skip     string `json:"-"`
	}
	empty, err := fullJSON([]rec{{hidden: "x", Skip: "y"}})
	want := `[{"id":"","opt":"","n":0,"flag":false,"List":[],"entries":[],"ptr":null,"in":{"a":""},"at":null,"go":null,"unix":0,"pos":"","m":{},"q":"0","any":null,"keyed":{},"raw":null}]`
	if err != nil || string(empty) != want {
		t.Errorf("empty record:\n got %s %v\nwant %s", empty, err, want)
	}

	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	raw := json.RawMessage(`{"x":1}`)
	full := rec{ID: "i<&>", Opt: "o", N: 3, Flag: true, List: []string{"l"}, Entries: []inner{{A: "a"}}, Ptr: &inner{A: "p"}, In: inner{A: "n"},
		At: api.Time{Time: at}, Go: at, Unix: api.UnixTime{Time: at}, Pos: "42", M: map[string]int{"b": 2, "a": 1}, Q: 7, Any: map[string]any{"k": []int{1}},
		Keyed: map[int]string{10: "ten", 9: "nine"}, Raw: &raw}
	got, err := fullJSON(full)
	var std bytes.Buffer
	enc := json.NewEncoder(&std)
	enc.SetEscapeHTML(false) // "a -> b" stays readable: not -\u003e
	_ = enc.Encode(full)
	if err != nil || string(got)+"\n" != std.String() || !strings.Contains(string(got), `"id":"i<&>"`) {
		t.Errorf("every field set:\n got %s %v\nwant %s", got, err, std.String())
	}

	// the API's records: every key of the record with its fields set
	for _, v := range []any{api.Service{}, api.Backup{}, api.Restore{}, api.Schedule{}, pairReport{}} {
		b, _ := fullJSON(v)
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%T: %v %s", v, err, b)
		}
		if len(m) < 6 {
			t.Errorf("%T: only %d keys: %s", v, len(m), b)
		}
	}
	b, _ := fullJSON(api.Service{Endpoints: []api.Endpoint{{}}})
	if !strings.Contains(string(b), `"endpoints":[{"name":"","ports":[],"allow_list":[]}]`) || !strings.Contains(string(b), `"errors":[]`) ||
		!strings.Contains(string(b), `"storage_volume":null`) {
		t.Errorf("a service with nothing known: %s", b)
	}
}

// keysOf is the sorted keys of a JSON object.
func keysOf(m map[string]any) string { return strings.Join(slices.Sorted(maps.Keys(m)), " ") }

// sameKeys fails unless every record has the keys of the first and each
// of want.
func sameKeys(t *testing.T, what string, recs []map[string]any, want ...string) {
	t.Helper()
	if len(recs) < 2 {
		t.Fatalf("%s: %d records, want at least 2", what, len(recs))
	}
	first := keysOf(recs[0])
	for i, r := range recs {
		if k := keysOf(r); k != first {
			t.Errorf("%s: record %d has keys\n  %s\nrecord 0 has\n  %s", what, i, k, first)
		}
	}
	for _, k := range want {
		if _, ok := recs[0][k]; !ok {
			t.Errorf("%s: no key %q in %s", what, k, first)
		}
	}
}

// TestJSONRecordsKeepTheirKeys: -o json gives a script the same keys in
// every record, whatever it holds: a backup that runs has end_time null,
// one in the platform's storage bucket "" and cloud_provider; a service
// without errors "errors": [], an endpoint with an empty allow list
// "allow_list": []; the status of a pair not configured has primary,
// primary_id, master_host, problem and fix.
func TestJSONRecordsKeepTheirKeys(t *testing.T) {
	h, _ := serveHarness(t, sandbox.Options{DemoData: true, Seed: 7, SQL: sandbox.SQLDemo}, goodKey)
	t.Setenv("XDG_STATE_HOME", t.TempDir()) // no pairs saved by a wizard

	// a backup that runs next to the demo's finished ones
	h.ok(h.live("backups", "create", "--service", sandbox.DemoOrders, "--type", "full")...)
	backups := decodeJSON[[]map[string]any](t, h.ok(h.live("backups", "list", "-o", "json")...))
	sameKeys(t, "backups list", backups, "end_time", "bucket", "cloud_provider", "start_time", "binlog_position")
	running := 0
	for _, b := range backups {
		if b["end_time"] == nil {
			running++
		}
	}
	if running == 0 {
		t.Errorf("no backup runs (end_time null): %v", backups)
	}

	svcs := decodeJSON[[]map[string]any](t, h.ok(h.live("services", "list", "-o", "json")...))
	sameKeys(t, "services list", svcs, "errors", "endpoints", "storage_volume", "primary_host", "outbound_ips")
	var endpoints []map[string]any
	for _, s := range svcs {
		if _, ok := s["errors"].([]any); !ok {
			t.Errorf("%v: errors is %#v, want a list", s["name"], s["errors"])
		}
		for _, e := range s["endpoints"].([]any) {
			endpoints = append(endpoints, e.(map[string]any))
		}
	}
	sameKeys(t, "services list endpoints", endpoints, "allow_list", "ports", "name")
	for _, e := range endpoints {
		if _, ok := e["allow_list"].([]any); !ok {
			t.Errorf("endpoint allow_list is %#v, want a list", e["allow_list"])
		}
	}
	one := decodeJSON[map[string]any](t, h.ok(h.live("services", "get", sandbox.DemoOrders, "-o", "json")...))
	if keysOf(one) != keysOf(svcs[0]) {
		t.Errorf("services get has keys %s, services list %s", keysOf(one), keysOf(svcs[0]))
	}

	// a service gone before the wait: the keys id, name and status, by
	// name or by ID
	for _, arg := range []string{"never-was", "dbtaf00000000"} {
		stdout, _, code := h.script(h.live("wait", "service", arg, "--for", "deleted", "-o", "json")...)
		if gone := decodeJSON[map[string]any](t, stdout); code != 0 || keysOf(gone) != "id name status" || gone["status"] != "deleted" {
			t.Errorf("wait service %s --for deleted: %v", arg, gone)
		}
	}

	// a pair not configured, next to a stopped secondary's
	reports := decodeJSON[[]map[string]any](t, h.ok(h.live("replication", "status", sandbox.DemoReplica, sandbox.DemoLegacy, "-o", "json")...))
	sameKeys(t, "replication status", reports, "primary", "primary_id", "master_host", "problem", "fix", "seconds_behind_master", "ok")
	if reports[0]["primary"] != "" || reports[0]["ok"] != false {
		t.Errorf("not configured: %v", reports[0])
	}
}
