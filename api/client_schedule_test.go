package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
)

// An edit the service would refuse is refused before anything is sent,
// naming the field and the rule.
func TestUpdateScheduleRefusedBeforeSending(t *testing.T) {
	var sent atomic.Int32
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sent.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	yes := true
	for _, tc := range []struct {
		name string
		id   int64
		u    ScheduleUpdate
		want string
	}{
		{"nothing to change", 3, ScheduleUpdate{}, "nothing to change"},
		{"four fields", 3, ScheduleUpdate{Schedule: "0 2 * *"}, "5 fields"},
		{"bad hour", 3, ScheduleUpdate{Schedule: "0 25 * * *"}, "schedule"},
		{"once", 3, ScheduleUpdate{Schedule: "once"}, "new one-time backup"},
		{"no id", 0, ScheduleUpdate{Suspended: &yes}, "id"},
	} {
		_, err := c.UpdateSchedule(context.Background(), tc.id, tc.u)
		var fe ValidationErrors
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error about %q", tc.name, err, tc.want)
		}
		if tc.id > 0 && !errors.As(err, &fe) {
			t.Errorf("%s: %T is not a field error", tc.name, err)
		}
	}
	if err := c.DeleteSchedule(context.Background(), -1); err == nil {
		t.Error("delete of schedule -1 accepted")
	}
	if n := sent.Load(); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
}

// An accepted edit whose answer is empty is the schedule as asked.
func TestUpdateScheduleEmptyAnswer(t *testing.T) {
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusOK) }))
	no := false
	sc, err := c.UpdateSchedule(context.Background(), 9, ScheduleUpdate{Schedule: " 0 4 * * * ", Suspended: &no})
	if err != nil {
		t.Fatal(err)
	}
	if sc.ID != 9 || sc.Expression() != "0 4 * * *" || sc.Suspended {
		t.Errorf("got %+v, want schedule 9 at 0 4 * * *, not suspended", sc)
	}
}
