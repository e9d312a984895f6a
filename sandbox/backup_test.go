package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
)

func findBackup(t *testing.T, list []api.Backup, key string) api.Backup {
	t.Helper()
	for _, b := range list {
		if b.Key == key {
			return b
		}
	}
	t.Fatalf("backup %s not listed", key)
	return api.Backup{}
}

func TestIncrementalNeedsACompletedFullBackup(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("incr-svc", "aws")
	incr := api.ScheduleRequest{BackupType: api.BackupIncremental, Schedule: "once", ServiceID: id}
	b := h.do("POST", "/backup/v1/backups/schedules", incr).errBody(t, 400)
	if b.Errors[0].Location != "backup_type" || !strings.Contains(b.Errors[0].Message, "full backup first") {
		t.Fatalf("refusal %+v", b.Errors[0])
	}
	h.onceBackup(id, api.BackupFull)
	// A running full backup is not enough.
	h.do("POST", "/backup/v1/backups/schedules", incr).errBody(t, 400)
	h.clk.Advance(time.Minute)
	h.do("POST", "/backup/v1/backups/schedules", incr).want(t, 200)
	incr.Schedule = "0 * * * *"
	h.do("POST", "/skybackup/v1/backups/schedules", incr).want(t, 200)
}

func TestOnceJobRunsThenSucceedsInTimeGrowingWithSize(t *testing.T) {
	h := newHarness(t, Options{})
	small := h.readyService("small-db", "aws")
	big := h.readyService("big-db", "aws")
	if err := h.s.SetDataSize(small, 100<<20); err != nil {
		t.Fatal(err)
	}
	if err := h.s.SetDataSize(big, 10<<30); err != nil {
		t.Fatal(err)
	}
	sSmall := h.onceBackup(small, api.BackupFull)
	sBig := h.onceBackup(big, api.BackupFull)
	if sSmall.ID <= 0 || sSmall.Schedule != "once" || sSmall.Status != "Running" || sSmall.Suspended || sSmall.Type != "full" || sSmall.ServiceID != small {
		t.Fatalf("schedule answer %+v", sSmall)
	}
	status := func(id string) string {
		var st struct {
			ServiceID string             `json:"service_id"`
			Backups   []api.BackupStatus `json:"backups"`
		}
		h.do("GET", "/backup/v1/backups/status", map[string]string{"service_id": id}).want(t, 200).decode(t, &st)
		if st.ServiceID != id || len(st.Backups) != 1 {
			t.Fatalf("status %+v", st)
		}
		return st.Backups[0].Status
	}
	if status(small) != "in progress" || status(big) != "in progress" {
		t.Fatal("jobs not in progress at start")
	}
	bs := h.backups(small)
	if len(bs) != 1 || bs[0].Status != "Running" || !bs[0].EndTime.IsZero() {
		t.Fatalf("running backup %+v", bs)
	}
	h.clk.Advance(25 * time.Second) // small: 20 s + 1 s; big: 20 s + 102 s
	if status(small) != "completed" || status(big) != "in progress" {
		t.Fatalf("after 25 s: small %s, big %s", status(small), status(big))
	}
	h.clk.Advance(100 * time.Second)
	if status(big) != "completed" {
		t.Fatalf("big still %s", status(big))
	}
	a, b := h.backups(small)[0], h.backups(big)[0]
	da, db := a.EndTime.Sub(a.StartTime.Time), b.EndTime.Sub(b.StartTime.Time)
	if a.Status != "Succeeded" || b.Status != "Succeeded" || da < 20*time.Second || db < da+90*time.Second {
		t.Fatalf("durations small %v big %v (%s, %s)", da, db, a.Status, b.Status)
	}
	// The schedule record follows its job.
	var sc api.Schedule
	h.do("GET", "/skybackup/v1/backups/schedules/"+strings.TrimSpace(jsonString(sBig.ID)), nil).want(t, 200).decode(t, &sc)
	if sc.Status != "Succeeded" {
		t.Fatalf("once schedule status %s", sc.Status)
	}
}

func jsonString(v any) string { b, _ := json.Marshal(v); return string(b) }

func TestFailNextBackupEndsFailed(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("flaky-db", "gcp")
	h.s.FailNextBackup(id)
	h.onceBackup(id, api.BackupFull)
	h.clk.Advance(time.Minute)
	h.onceBackup(id, api.BackupFull)
	h.clk.Advance(time.Minute)
	list := h.backups(id) // newest first
	if len(list) != 2 || list[1].Status != "Failed" || list[0].Status != "Succeeded" {
		t.Fatalf("backups %+v", list)
	}
	var st struct{ Backups []api.BackupStatus }
	h.do("POST", "/backup/v1/backups/status", map[string]string{"service_id": id}).want(t, 200).decode(t, &st)
	if st.Backups[1].Status != "failed" || st.Backups[1].Message == "" {
		t.Fatalf("status %+v", st.Backups)
	}
	// A failed full backup does not count as the full backup an incremental needs.
	h2 := newHarness(t, Options{})
	id2 := h2.readyService("flaky-two", "aws")
	h2.s.FailNextBackup(id2)
	h2.onceBackup(id2, api.BackupFull)
	h2.clk.Advance(time.Minute)
	h2.do("POST", "/backup/v1/backups/schedules", api.ScheduleRequest{BackupType: "incremental", Schedule: "once", ServiceID: id2}).errBody(t, 400)
}

func TestCronScheduleCreatesBackupsAtItsTimes(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("cron-db", "aws") // ready at 10:05
	var sc api.Schedule
	h.do("POST", "/backup/v1/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "0 */6 * * *", ServiceID: id}).want(t, 200).decode(t, &sc)
	if sc.Schedule != "cron" || sc.Expression() != "0 */6 * * *" || sc.Target != "managed" || !sc.ScheduledAt.Equal(time.Date(2026, 8, 20, 12, 0, 0, 0, time.UTC)) {
		t.Fatalf("schedule %+v", sc)
	}
	if len(h.backups(id)) != 0 {
		t.Fatal("a cron schedule ran at creation")
	}
	h.clk.Advance(9 * time.Hour) // 19:05
	list := h.backups(id)
	if len(list) != 2 {
		t.Fatalf("%d backups, want runs at 12:00 and 18:00", len(list))
	}
	for i, want := range []int{18, 12} {
		b := list[i]
		if !b.StartTime.Equal(time.Date(2026, 8, 20, want, 0, 0, 0, time.UTC)) || b.Type != "full" || b.Status != "Succeeded" {
			t.Fatalf("backup %d: %+v", i, b)
		}
	}
	// An own-bucket schedule writes to its bucket and the listing says so.
	bucket := "gs://acme-bucket/hourly"
	h.do("POST", "/skybackup/v1/backups/schedules", api.ScheduleRequest{BackupType: "dump", Schedule: "30 * * * *", ServiceID: id,
		ExternalStorage: &api.ExternalStorage{Bucket: api.ExternalBucket{Path: bucket, Credentials: gcsCreds}}}).want(t, 200)
	h.clk.Advance(time.Hour) // 20:05: the 19:30 dump ran
	var own []api.Backup
	for _, b := range h.backups(id) {
		if b.IsExternalStorage {
			own = append(own, b)
		}
	}
	// the document's interface names the live service's dump logical
	if len(own) != 1 || own[0].Bucket != bucket || own[0].Type != "logical" || own[0].Method != "mysqldump" {
		t.Fatalf("own-bucket backups %+v", own)
	}
	// and the live one names it dump
	var live struct {
		Backups []api.Backup `json:"backups"`
	}
	h.do("GET", "/skybackup/v1/backups?page_size=1000&service_id="+id, nil).want(t, 200).decode(t, &live)
	for _, b := range live.Backups {
		if b.IsExternalStorage && b.Type != "dump" {
			t.Fatalf("live listing: own-bucket backup %s is %q, want dump", b.Key, b.Type)
		}
	}
	var scheds struct {
		Schedules      []api.Schedule `json:"schedules"`
		SchedulesCount int            `json:"schedules_count"`
		PagesCount     int            `json:"pages_count"`
	}
	h.do("GET", "/backup/v1/backups/schedules?service_id="+id, nil).want(t, 200).decode(t, &scheds)
	if scheds.SchedulesCount != 2 || scheds.PagesCount != 1 || scheds.Schedules[0].Target != bucket || scheds.Schedules[1].Expression() != "0 */6 * * *" {
		t.Fatalf("schedules %+v", scheds)
	}
	// Deleting a schedule stops its runs.
	h.do("DELETE", "/backup/v1/backups/schedules/"+jsonString(sc.ID), nil).want(t, 200)
	before := len(h.backups(id))
	h.clk.Advance(5 * time.Hour) // past midnight, before the nightly
	if got := len(h.backups(id)); got != before+5 {
		t.Fatalf("%d backups after deleting the 6-hourly schedule, want %d (hourly dumps only)", got, before+5)
	}
}

func TestCronCatchUpIsBounded(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("busy-db", "aws")
	h.do("POST", "/backup/v1/backups/schedules", api.ScheduleRequest{BackupType: "binarylog", Schedule: "*/5 * * * *", ServiceID: id}).want(t, 200)
	h.clk.Advance(60 * 24 * time.Hour)
	n := len(h.backups(id))
	if n == 0 || n > int(maxCatchUp/(5*time.Minute))+20 {
		t.Fatalf("%d backups after a 60-day jump", n)
	}
}

func TestNightlyFullBackupAtTwo(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("nightly-db", "azure")
	pending := h.createService("not-yet", "azure")
	h.clk.Advance(17 * time.Hour) // 03:05 next day
	list := h.backups(id)
	if len(list) != 1 || list[0].Type != "full" || !list[0].StartTime.Equal(time.Date(2026, 8, 21, 2, 0, 0, 0, time.UTC)) {
		t.Fatalf("backups %+v", list)
	}
	var scheds struct{ Schedules []api.Schedule }
	h.do("GET", "/backup/v1/backups/schedules", nil).want(t, 200).decode(t, &scheds)
	if len(scheds.Schedules) != 0 {
		t.Fatal("the platform's nightly backup is not a user schedule")
	}
	h.clk.Advance(48 * time.Hour)
	if n := len(h.backups(id)); n != 3 {
		t.Fatalf("%d nightly backups after three nights", n)
	}
	// The service that was still launching at creation gets its nightlies too.
	if n := len(h.backups(pending)); n != 3 {
		t.Fatalf("%d nightly backups of the later service", n)
	}
}

func TestBackupListingPagination(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("paged-db", "gcp")
	h.do("POST", "/backup/v1/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "0 * * * *", ServiceID: id}).want(t, 200)
	h.clk.Advance(120 * time.Hour) // 120 hourly + 5 nightly
	type page struct {
		Backups      []api.Backup `json:"backups"`
		BackupsCount int          `json:"backups_count"`
		PagesCount   int          `json:"pages_count"`
	}
	get := func(q string) page {
		var p page
		h.do("GET", "/skybackup/v1/backups?service_id="+id+q, nil).want(t, 200).decode(t, &p)
		return p
	}
	p1, p2, p3 := get("&page=1&page_size=100"), get("&page=2&page_size=100"), get("&page=3&page_size=100")
	if p1.BackupsCount != 125 || p1.PagesCount != 2 || len(p1.Backups) != 100 || len(p2.Backups) != 25 || len(p3.Backups) != 0 {
		t.Fatalf("pages: count %d pages %d sizes %d %d %d", p1.BackupsCount, p1.PagesCount, len(p1.Backups), len(p2.Backups), len(p3.Backups))
	}
	if d := get(""); d.PagesCount != 7 || len(d.Backups) != defaultBackupPageSize {
		t.Fatalf("default page: %d pages, %d items", d.PagesCount, len(d.Backups))
	}
	if !p1.Backups[0].StartTime.After(p2.Backups[0].StartTime.Time) {
		t.Fatal("not newest first")
	}
	all, err := h.client("").ListBackups(bg, id)
	if err != nil || len(all) != 125 {
		t.Fatalf("client listed %d: %v", len(all), err)
	}
	keys := map[string]bool{}
	for _, b := range all {
		keys[b.Key] = true
	}
	if len(keys) != 125 {
		t.Fatalf("%d distinct keys", len(keys))
	}
	h.do("GET", "/backup/v1/backups", nil).errBody(t, 400) // service_id required by the interface document
	h.do("GET", "/backup/v1/backups?service_id=dbtgf00000001", nil).errBody(t, 404)
	h.do("GET", "/skybackup/v1/backups?page=0", nil).errBody(t, 400)
}

func TestBackupRecordShape(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("shape-db", "aws")
	key := h.completedFull(id)
	if !regexp.MustCompile(`^[0-9a-f]{32}:` + id + `:` + id + `-mdb-ms-0$`).MatchString(key) {
		t.Fatalf("key %s", key)
	}
	var raw struct {
		Backups []map[string]any `json:"backups"`
	}
	h.do("GET", "/skybackup/v1/backups?service_id="+id, nil).want(t, 200).decode(t, &raw)
	b := raw.Backups[0]
	if b["id"] != key || b["key"] != key || b["service_name"] != "shape-db" || b["cloud_provider"] != "aws" || b["is_external_storage"] != false || b["method"] != "mariabackup" {
		t.Fatalf("backup %v", b)
	}
	if _, ok := b["binlog_position"].(string); !ok {
		t.Fatalf("binlog_position %T", b["binlog_position"])
	}
	if !regexp.MustCompile(`^0-\d+-\d+$`).MatchString(b["binlog_gtid_position"].(string)) || !strings.HasPrefix(b["binlog_file"].(string), "mariadb-bin.") {
		t.Fatalf("binlog fields %v", b)
	}
	if b["storage_bytes"].(float64) <= 0 || b["storage_bytes"] != b["backup_size"] {
		t.Fatalf("sizes %v", b)
	}
	for _, f := range []string{"start_time", "end_time"} {
		if _, err := time.Parse(time.RFC3339, b[f].(string)); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
}

func TestBackupStatusCallForms(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("status-db", "aws")
	h.onceBackup(id, api.BackupFull)
	for _, prefix := range []string{"/backup/v1"} {
		for _, c := range []struct {
			method, query string
			body          any
		}{{"GET", "", map[string]string{"service_id": id}}, {"GET", "?service_id=" + id, nil}, {"POST", "", map[string]string{"service_id": id}}} {
			var st struct {
				ServiceID string             `json:"service_id"`
				Backups   []api.BackupStatus `json:"backups"`
			}
			h.do(c.method, prefix+"/backups/status"+c.query, c.body).want(t, 200).decode(t, &st)
			if st.ServiceID != id || len(st.Backups) != 1 || st.Backups[0].Status != api.BackupInProgress {
				t.Fatalf("%s %s: %+v", c.method, prefix, st)
			}
		}
	}
	sts, err := h.client("").BackupStatus(bg, id)
	if err != nil || len(sts) != 1 {
		t.Fatalf("client: %+v %v", sts, err)
	}
	h.do("GET", "/backup/v1/backups/status", nil).errBody(t, 400)
	// The live service has no status call: not routed under /skybackup/v1.
	for _, m := range []string{"GET", "POST"} {
		b := h.do(m, "/skybackup/v1/backups/status?service_id="+id, map[string]string{"service_id": id}).errBody(t, http.StatusNotFound)
		if !strings.Contains(b.Errors[0].Message, "no such route") {
			t.Fatalf("%s /skybackup/v1/backups/status: %q", m, b.Errors[0].Message)
		}
	}
	if n := h.s.Stats().Count("GET", "/skybackup/v1/backups/status"); n != 0 {
		t.Fatalf("a /skybackup/v1 status route was matched %d times", n)
	}
}

// refusal checks the status and the live error body, whose first message
// says want.
func (r *resp) refusal(t *testing.T, status int, want string) {
	t.Helper()
	if msg := r.errBody(t, status).Errors[0].Message; !strings.Contains(msg, want) {
		t.Fatalf("%d %q, want it to say %q", status, msg, want)
	}
}

func TestScheduleRefusals(t *testing.T) {
	h := newHarness(t, Options{})
	h.do("POST", "/backup/v1/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "once", ServiceID: "dbtaf99999999"}).refusal(t, http.StatusNotFound, "dbtaf99999999")
	h.do("GET", "/backup/v1/backups/schedules/77", nil).errBody(t, 404)
	h.do("GET", "/backup/v1/backups/schedules/x", nil).errBody(t, 400)
}

func TestSuspendedScheduleTakesNoBackupsUntilResumed(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("susp-db", "aws") // ready at 10:05
	var sc api.Schedule
	h.do("POST", "/skybackup/v1/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "0 * * * *", ServiceID: id}).want(t, 200).decode(t, &sc)
	path := "/skybackup/v1/backups/schedules/" + jsonString(sc.ID)
	h.clk.Advance(2 * time.Hour) // 12:05: runs at 11:00 and 12:00
	if n := len(h.backups(id)); n != 2 {
		t.Fatalf("%d backups before suspending, want 2", n)
	}
	yes, no := true, false
	var got api.Schedule
	h.do("PATCH", path, api.ScheduleUpdate{Suspended: &yes}).want(t, 200).decode(t, &got)
	if !got.Suspended || got.Status != "Suspended" {
		t.Fatalf("suspend answered %+v", got)
	}
	h.clk.Advance(5 * time.Hour) // 17:05, before the nightly at 02:00
	if n := len(h.backups(id)); n != 2 {
		t.Fatalf("%d backups after 5 hours suspended, want still 2", n)
	}
	h.do("GET", path, nil).want(t, 200).decode(t, &got)
	if !got.Suspended {
		t.Fatalf("read back %+v, want suspended", got)
	}
	// Resumed: from the next hour on, the missed runs are not caught up.
	h.do("PATCH", path, api.ScheduleUpdate{Suspended: &no}).want(t, 200).decode(t, &got)
	if got.Suspended || !got.ScheduledAt.Equal(time.Date(2026, 8, 20, 18, 0, 0, 0, time.UTC)) {
		t.Fatalf("resume answered %+v, want next run at 18:00", got)
	}
	h.clk.Advance(2 * time.Hour) // 19:05: 18:00 and 19:00
	if n := len(h.backups(id)); n != 4 {
		t.Fatalf("%d backups after resuming for 2 hours, want 4", n)
	}
	// Deleted: no more runs.
	h.do("DELETE", path, nil).want(t, 200)
	h.clk.Advance(3 * time.Hour) // 22:05
	if n := len(h.backups(id)); n != 4 {
		t.Fatalf("%d backups after deleting the schedule, want still 4", n)
	}
	h.do("PATCH", path, api.ScheduleUpdate{Suspended: &yes}).errBody(t, 404)
}

func TestScheduleEditChangesItsTimes(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("edit-db", "gcp")
	var sc api.Schedule
	h.do("POST", "/skybackup/v1/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "0 3 * * *", ServiceID: id}).want(t, 200).decode(t, &sc)
	path := "/skybackup/v1/backups/schedules/" + jsonString(sc.ID)
	var got api.Schedule
	h.do("PATCH", path, api.ScheduleUpdate{Schedule: "30 11 * * *"}).want(t, 200).decode(t, &got)
	if got.Expression() != "30 11 * * *" || !got.ScheduledAt.Equal(time.Date(2026, 8, 20, 11, 30, 0, 0, time.UTC)) {
		t.Fatalf("edit answered %+v, want 30 11 * * * next at 11:30", got)
	}
	h.clk.Advance(2 * time.Hour) // 12:05
	list := h.backups(id)
	if len(list) != 1 || !list[0].StartTime.Equal(time.Date(2026, 8, 20, 11, 30, 0, 0, time.UTC)) {
		t.Fatalf("backups %+v, want one at 11:30", list)
	}
}

// The edit is validated like the create, naming the field.
func TestScheduleEditRefusals(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("refuse-db", "aws")
	var sc, once api.Schedule
	h.do("POST", "/skybackup/v1/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "0 3 * * *", ServiceID: id}).want(t, 200).decode(t, &sc)
	h.do("POST", "/skybackup/v1/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "once", ServiceID: id}).want(t, 200).decode(t, &once)
	path := "/skybackup/v1/backups/schedules/" + jsonString(sc.ID)
	for _, tc := range []struct {
		path string
		body any
		want string
	}{
		{path, api.ScheduleUpdate{Schedule: "0 25 * * *"}, "schedule"},
		{path, api.ScheduleUpdate{Schedule: "0 3 * *"}, "5 fields"},
		{path, api.ScheduleUpdate{Schedule: "once"}, "one-time"},
		{path, map[string]any{}, "nothing to change"},
		{path, api.ScheduleUpdate{BackupType: "weekly"}, "backup_type"},
		{"/skybackup/v1/backups/schedules/" + jsonString(once.ID), api.ScheduleUpdate{Schedule: "0 4 * * *"}, "one-time job"},
	} {
		b := h.do("PATCH", tc.path, tc.body).errBody(t, 400)
		if msg := fmt.Sprint(b.Errors); !strings.Contains(msg, tc.want) {
			t.Errorf("PATCH %v: %s, want it to say %q", tc.body, msg, tc.want)
		}
	}
	var got api.Schedule
	h.do("GET", path, nil).want(t, 200).decode(t, &got)
	if got.Expression() != "0 3 * * *" || got.Suspended {
		t.Fatalf("after refused edits %+v, want unchanged", got)
	}
}
