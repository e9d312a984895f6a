package sandbox

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
)

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
