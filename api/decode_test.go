package api

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func live(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "live", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// liveOne decodes the live example name as a listing under key: exactly
// one record, on pages pages (0 for a bare array).
func liveOne[T any](t *testing.T, name, key string, pages int) T {
	t.Helper()
	list, n, err := decodeList[T](live(t, name), key)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || n != pages {
		t.Fatalf("%s: got %d records, %d pages", name, len(list), n)
	}
	return list[0]
}

func TestDecodeRestoresDocsArray(t *testing.T) {
	r := liveOne[Restore](t, "restores-docs-array.json", "restores", 0)
	if r.ID != 12 || r.ServiceID != "dbtgf28216706" || r.Key != "eda3...:dbtgf28216706:tx-filip-mdb-ms-0" || r.Type != "physical" {
		t.Fatalf("decoded %+v", r)
	}
	if !r.Running() || r.Succeeded() {
		t.Fatalf("status %q should be running", r.Status)
	}
}

func TestDecodeRestoresSpecEnvelope(t *testing.T) {
	r := liveOne[Restore](t, "restores-spec-envelope.json", "restores", 1)
	if r.Key != "eda3...:dbtgf28216706:tx-filip-mdb-ms-0" {
		t.Fatalf("backup_id not taken as key: %+v", r)
	}
	if !r.Succeeded() || r.Running() {
		t.Fatalf("status %q should be succeeded", r.Status)
	}
	if r.CreatedAt.IsZero() {
		t.Fatal("created_at not decoded")
	}
}

func TestDecodeBackupsEnvelopeAndArray(t *testing.T) {
	b := liveOne[Backup](t, "backups-envelope.json", "backups", 1)
	if b.Key != "eda3b2c1:dbtgf28216706:tx-filip-mdb-ms-0" {
		t.Errorf("key from id: %q", b.Key)
	}
	if b.SizeBytes != 1<<30 {
		t.Errorf("backup_size: %d", b.SizeBytes)
	}
	if b.BinlogPosition != "1534" || b.BinlogGTIDPosition != "0-1-4521" || b.BinlogFile != "mariadb-bin.000042" {
		t.Errorf("binlog fields: %+v", b)
	}
	if got := b.StartTime.UTC(); !got.Equal(time.Date(2026, 8, 1, 2, 0, 0, 0, time.UTC)) {
		t.Errorf("start_time string: %v", got)
	}
	if b.EndTime.Unix() != 1785549900 {
		t.Errorf("end_time number: %v", b.EndTime)
	}
	if BackupState(b.Status) != BackupCompleted {
		t.Errorf("state of %q", b.Status)
	}

	a := liveOne[Backup](t, "backups-array.json", "backups", 0)
	if a.Key != "ab12:dbpgf00000001:svc-mdb-ms-0" || a.SizeBytes != 2048 || a.BinlogPosition != "1534" {
		t.Errorf("array shape: %+v", a)
	}
	if !StatusIs(a.Type, "full") || BackupState(a.Status) != BackupCompleted {
		t.Errorf("case-insensitive words: type %q status %q", a.Type, a.Status)
	}
	if a.StartTime.Unix() != 1785549600 {
		t.Errorf("numeric start_time: %v", a.StartTime)
	}
}

func TestDecodeServiceIgnoresUnknownFields(t *testing.T) {
	var s Service
	if err := json.Unmarshal(live(t, "service.json"), &s); err != nil {
		t.Fatal(err)
	}
	if s.ReadWritePort() != 3306 || s.Port("readonly") != 3307 {
		t.Errorf("ports: %+v", s.Endpoints)
	}
	if !s.Ready() || s.Pending() {
		t.Errorf("status %q", s.Status)
	}
	if len(s.AllowList()) != 1 || s.AllowList()[0].IP != "203.0.113.7/32" {
		t.Errorf("allow list %+v", s.AllowList())
	}
	if s.CreatedOn.Unix() != 1785549600 || s.StorageVolume == nil || s.StorageVolume.Size != 100 {
		t.Errorf("created_on/storage: %v %+v", s.CreatedOn, s.StorageVolume)
	}
	out, _ := json.Marshal(s)
	var back map[string]any
	_ = json.Unmarshal(out, &back)
	if back["created_on"] != float64(1785549600) {
		t.Errorf("created_on must encode as epoch seconds, got %v", back["created_on"])
	}
}

func TestDecodeScheduleAndRestoreCreate(t *testing.T) {
	var s Schedule
	if err := json.Unmarshal(live(t, "schedule-create.json"), &s); err != nil {
		t.Fatal(err)
	}
	if s.ID != 1341 || s.Expression() != "once" {
		t.Errorf("schedule %+v", s)
	}
	r, err := decodeOne[Restore](live(t, "restore-create.json"))
	if err != nil {
		t.Fatal(err)
	}
	if r.ID != 12 || !r.Running() {
		t.Errorf("restore %+v", r)
	}
	one, err := decodeOne[Restore](live(t, "restores-docs-array.json"))
	if err != nil || one.ID != 12 {
		t.Errorf("one-element array: %+v %v", one, err)
	}
}

func TestErrorBodies(t *testing.T) {
	e := ErrorFromResponse("POST", "/skybackup/v1/restores", 400, nil, live(t, "error-400.json"))
	if e.Message != "service is in pending state" || e.Solution == "" || e.TraceID != "4bf92f3577b34da6a3ce929d0e0e4736" || e.Location != "service_id" {
		t.Fatalf("decoded %+v", e)
	}
	if !IsConflict(e) {
		t.Error("400 pending state must count as conflict")
	}
	want := "400 Bad Request: service is in pending state — wait until the service is ready (POST /skybackup/v1/restores, trace 4bf92f3577b34da6a3ce929d0e0e4736)"
	if e.Error() != want {
		t.Errorf("message:\n got %s\nwant %s", e.Error(), want)
	}
	p := ErrorFromResponse("GET", "/x", 401, nil, live(t, "error-plain.json"))
	if p.Message != "invalid api key" || !IsUnauthorized(p) {
		t.Errorf("fallback to error field: %+v", p)
	}
	h := ErrorFromResponse("GET", "/x", 502, nil, []byte("<html>bad gateway</html>"))
	if h.Message != "" || h.Error() != "502 Bad Gateway (GET /x)" {
		t.Errorf("html body: %q", h.Error())
	}
}

func TestFlexTimeShapes(t *testing.T) {
	cases := map[string]int64{
		`1785549600`:             1785549600,
		`1785549600000`:          1785549600,
		`"1785549600"`:           1785549600,
		`"2026-08-01T02:00:00Z"`: 1785549600,
		`"2026-08-01 02:00:00"`:  1785549600,
	}
	for in, want := range cases {
		var tm Time
		if err := json.Unmarshal([]byte(in), &tm); err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if tm.Unix() != want {
			t.Errorf("%s: got %d want %d", in, tm.Unix(), want)
		}
	}
	var tm Time
	if err := json.Unmarshal([]byte(`null`), &tm); err != nil || !tm.IsZero() {
		t.Errorf("null: %v %v", tm, err)
	}
	// an unreadable time costs only itself: no error, zero time, raw text kept
	if err := json.Unmarshal([]byte(`"yesterday"`), &tm); err != nil || !tm.IsZero() || tm.Raw != "yesterday" || !tm.Unread() {
		t.Errorf("garbage time: %+v %v", tm, err)
	}
}

func TestStatusWords(t *testing.T) {
	if !StatusIs("In Progress", "in_progress") || !StatusIs("SUCCEEDED", "succeeded") {
		t.Error("status comparison must ignore case, spaces and underscores")
	}
	for in, want := range map[string]string{"Running": BackupInProgress, "in progress": BackupInProgress, "Succeeded": BackupCompleted, "completed": BackupCompleted, "FAILED": BackupFailed, "weird": ""} {
		if got := BackupState(in); got != want {
			t.Errorf("BackupState(%q) = %q, want %q", in, got, want)
		}
	}
	if !IsPendingServiceStatus("pending_create") || !IsPendingServiceStatus("PENDING_MODIFYING") || IsPendingServiceStatus("ready") {
		t.Error("pending statuses")
	}
}

// An error document's timestamp comes as a number (seconds or
// milliseconds) or a date string, and is kept as epoch seconds; one that
// is no time is left out.
func TestErrorBodyTimestampForms(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`1763900000`, `"timestamp":1763900000`},
		{`1763900000123`, `"timestamp":1763900000`},
		{`"1763900000"`, `"timestamp":1763900000`},
		{`"2025-11-23T12:13:20Z"`, `"timestamp":1763900000`},
		{`"2025-11-23 12:13:20"`, `"timestamp":1763900000`},
		{`"yesterday"`, ``},
		{`null`, ``},
	} {
		var eb ErrorBody
		if err := unmarshalLenient([]byte(`{"code":400,"errors":[{"message":"m"}],"timestamp":`+tc.in+`}`), &eb); err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		out, err := json.Marshal(eb)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(out); tc.want == "" && strings.Contains(got, "timestamp") || !strings.Contains(got, tc.want) || eb.Errors[0].Message != "m" {
			t.Errorf("%s: %s, want %s", tc.in, got, tc.want)
		}
	}
	out, _ := json.Marshal(NewErrorBody(400, "/x", "m", "", "", "t", time.Unix(1763900000, 5e8)))
	if !strings.Contains(string(out), `"timestamp":1763900000,`) {
		t.Errorf("NewErrorBody: %s", out)
	}
}
