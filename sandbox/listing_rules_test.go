package sandbox

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
)

// listingFixture: three aws services; src and dstA have backups (one of
// src's still running), src and dstA have one cron schedule each, dstA and
// dstB each have one restore of src's backup.
type listingFixture struct {
	h                  *harness
	src, dstA, dstB    string
	srcKey, runningKey string
}

func newListingFixture(t *testing.T) *listingFixture {
	h := newHarness(t, Options{})
	f := &listingFixture{h: h}
	f.src = h.readyService("list-src", "aws")
	f.dstA = h.readyService("list-dst-a", "aws")
	f.dstB = h.readyService("list-dst-b", "aws")
	f.srcKey = h.completedFull(f.src)
	h.completedFull(f.dstA)
	for _, id := range []string{f.src, f.dstA} {
		h.do("POST", "/backup/v1/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "0 3 * * *", ServiceID: id}).want(t, 200)
	}
	h.do("POST", "/backup/v1/restores", api.ManagedRestore(f.dstA, f.srcKey)).want(t, 200)
	h.do("POST", "/skybackup/v1/restores", api.ManagedRestore(f.dstB, f.srcKey)).want(t, 200)
	h.clk.Advance(time.Hour) // both restores finish
	h.onceBackup(f.src, api.BackupFull)
	for _, b := range h.backups(f.src) {
		if b.Status == "Running" {
			f.runningKey = b.Key
		}
	}
	if f.runningKey == "" {
		t.Fatal("no running backup")
	}
	return f
}

type restoresPage struct {
	Restores      []api.Restore `json:"restores"`
	RestoresCount int           `json:"restores_count"`
	PagesCount    int           `json:"pages_count"`
}

type schedulesPage struct {
	Schedules      []api.Schedule `json:"schedules"`
	SchedulesCount int            `json:"schedules_count"`
}

type backupsPage struct {
	Backups      []api.Backup `json:"backups"`
	BackupsCount int          `json:"backups_count"`
}

// wantServiceIDRequired checks the 400 of a live listing without a usable
// service_id: the live error body, naming the parameter.
func wantServiceIDRequired(t *testing.T, r *resp) {
	t.Helper()
	b := r.errBody(t, http.StatusBadRequest)
	if b.Errors[0].Location != "service_id" || !strings.Contains(b.Errors[0].Message, "service_id") {
		t.Fatalf("location %q message %q, want service_id named", b.Errors[0].Location, b.Errors[0].Message)
	}
}

// wantLiveServiceIDRule checks the live listing path's service_id rule:
// required, without a query and with the paging query, and at least 3
// characters (shortID has 2).
func wantLiveServiceIDRule(t *testing.T, h *harness, path, paging, shortID string) {
	t.Helper()
	wantServiceIDRequired(t, h.do("GET", path, nil))
	wantServiceIDRequired(t, h.do("GET", path+"?"+paging, nil))
	b := h.do("GET", path+"?service_id="+shortID, nil).errBody(t, http.StatusBadRequest)
	if !strings.Contains(b.Errors[0].Message, "at least 3") {
		t.Fatalf("short service_id: %q", b.Errors[0].Message)
	}
}

// GET /skybackup/v1/restores requires service_id (at least 3 characters) and
// lists that service's restores; /backup/v1/restores lists all, with
// service_id an optional filter.
func TestRestoreListingServiceIDRule(t *testing.T) {
	f := newListingFixture(t)
	h := f.h
	wantLiveServiceIDRule(t, h, "/skybackup/v1/restores", "page=1&page_size=5", "db")
	h.do("GET", "/skybackup/v1/restores?service_id=dbt", nil).want(t, 200) // three characters are enough

	for _, id := range []string{f.dstA, f.dstB} {
		var p restoresPage
		h.do("GET", "/skybackup/v1/restores?service_id="+id, nil).want(t, 200).decode(t, &p)
		if p.RestoresCount != 1 || len(p.Restores) != 1 || p.Restores[0].ServiceID != id || p.PagesCount != 1 {
			t.Fatalf("restores of %s: %+v", id, p)
		}
	}
	var none restoresPage
	h.do("GET", "/skybackup/v1/restores?service_id="+f.src, nil).want(t, 200).decode(t, &none)
	if none.RestoresCount != 0 || len(none.Restores) != 0 {
		t.Fatalf("restores of the source: %+v", none)
	}
	// An unknown service: an empty page (the description has no 404 here).
	r := h.do("GET", "/skybackup/v1/restores?service_id=dbtaf99999999", nil).want(t, 200)
	r.decode(t, &none)
	if none.RestoresCount != 0 || none.Restores == nil {
		t.Fatalf("unknown service: %s", r.body)
	}
	// The type filter of the description.
	var typed restoresPage
	h.do("GET", "/skybackup/v1/restores?service_id="+f.dstA+"&type=logical", nil).want(t, 200).decode(t, &typed)
	if typed.RestoresCount != 0 {
		t.Fatalf("type=logical: %+v", typed)
	}
	h.do("GET", "/skybackup/v1/restores?service_id="+f.dstA+"&type=physical", nil).want(t, 200).decode(t, &typed)
	if typed.RestoresCount != 1 {
		t.Fatalf("type=physical: %+v", typed)
	}

	// The interface document: every restore, service_id optional.
	var all, one []api.Restore
	h.do("GET", "/backup/v1/restores", nil).want(t, 200).decode(t, &all)
	if len(all) != 2 {
		t.Fatalf("/backup/v1 lists %d restores, want 2", len(all))
	}
	h.do("GET", "/backup/v1/restores?service_id="+f.dstB, nil).want(t, 200).decode(t, &one)
	if len(one) != 1 || one[0].ServiceID != f.dstB {
		t.Fatalf("/backup/v1 filtered: %+v", one)
	}
	h.do("GET", "/backup/v1/restores?service_id=db", nil).want(t, 200) // no minimum there
}

// GET /skybackup/v1/backups/schedules requires service_id; /backup/v1
// lists every schedule, service_id optional.
func TestScheduleListingServiceIDRule(t *testing.T) {
	f := newListingFixture(t)
	h := f.h
	wantLiveServiceIDRule(t, h, "/skybackup/v1/backups/schedules", "page_size=100", "ab")
	var p schedulesPage
	h.do("GET", "/skybackup/v1/backups/schedules?service_id="+f.src, nil).want(t, 200).decode(t, &p)
	// src: two "once" jobs (completed and running) and its cron schedule.
	if p.SchedulesCount != 3 || len(p.Schedules) != 3 {
		t.Fatalf("schedules of src: %+v", p)
	}
	for _, sc := range p.Schedules {
		if sc.ServiceID != f.src {
			t.Fatalf("schedule of %s in the listing of %s", sc.ServiceID, f.src)
		}
	}
	h.do("GET", "/skybackup/v1/backups/schedules?service_id="+f.dstB, nil).want(t, 200).decode(t, &p)
	if p.SchedulesCount != 0 {
		t.Fatalf("schedules of dstB: %+v", p)
	}
	h.do("GET", "/skybackup/v1/backups/schedules?service_id=dbtaf99999999", nil).want(t, 200).decode(t, &p)
	if p.SchedulesCount != 0 || p.Schedules == nil {
		t.Fatalf("unknown service: %+v", p)
	}

	var all schedulesPage
	h.do("GET", "/backup/v1/backups/schedules?page_size=100", nil).want(t, 200).decode(t, &all)
	if all.SchedulesCount != 5 {
		t.Fatalf("/backup/v1 lists %d schedules, want 5", all.SchedulesCount)
	}
	h.do("GET", "/backup/v1/backups/schedules?service_id="+f.dstA, nil).want(t, 200).decode(t, &p)
	if p.SchedulesCount != 2 || p.Schedules[0].ServiceID != f.dstA || p.Schedules[1].ServiceID != f.dstA {
		t.Fatalf("/backup/v1 filtered: %+v", p)
	}
}

// GET /skybackup/v1/backups without service_id lists every service's
// backups (status an optional filter); /backup/v1/backups requires it.
func TestBackupListingServiceIDRule(t *testing.T) {
	f := newListingFixture(t)
	h := f.h
	per := map[string]int{}
	total := 0
	for _, id := range []string{f.src, f.dstA, f.dstB} {
		var p backupsPage
		h.do("GET", "/skybackup/v1/backups?page_size=1000&service_id="+id, nil).want(t, 200).decode(t, &p)
		for _, b := range p.Backups {
			if b.ServiceID != id {
				t.Fatalf("backup of %s in the listing of %s", b.ServiceID, id)
			}
		}
		per[id] = p.BackupsCount
		total += p.BackupsCount
	}
	if per[f.src] != 2 || per[f.dstA] != 1 {
		t.Fatalf("per service %v", per)
	}
	var all backupsPage
	h.do("GET", "/skybackup/v1/backups?page_size=1000", nil).want(t, 200).decode(t, &all)
	seen := map[string]int{}
	for _, b := range all.Backups {
		seen[b.ServiceID]++
	}
	if all.BackupsCount != total || len(all.Backups) != total || seen[f.src] != per[f.src] || seen[f.dstA] != per[f.dstA] {
		t.Fatalf("all services: count %d, by service %v, want %v", all.BackupsCount, seen, per)
	}
	var running backupsPage
	h.do("GET", "/skybackup/v1/backups?status=running", nil).want(t, 200).decode(t, &running)
	if running.BackupsCount != 1 || running.Backups[0].Key != f.runningKey {
		t.Fatalf("status filter across services: %+v", running)
	}
	h.do("GET", "/skybackup/v1/backups?service_id=dbtaf99999999", nil).errBody(t, http.StatusNotFound)

	// The interface document requires service_id.
	b := h.do("GET", "/backup/v1/backups", nil).errBody(t, http.StatusBadRequest)
	if b.Errors[0].Location != "service_id" {
		t.Fatalf("/backup/v1 without service_id: %+v", b.Errors[0])
	}
	var one backupsPage
	h.do("GET", "/backup/v1/backups?page_size=1000&service_id="+f.dstA, nil).want(t, 200).decode(t, &one)
	if one.BackupsCount != per[f.dstA] {
		t.Fatalf("/backup/v1 backups of dstA: %+v", one)
	}
}
