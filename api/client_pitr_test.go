package api_test

import (
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
)

// pitrMoment is the moment the request-validation test restores to.
var pitrMoment = time.Date(2026, 11, 23, 10, 15, 0, 0, time.UTC)

// TestParseMoment: the forms a user types, zoneless ones read as UTC; a
// wrong one is refused naming the accepted forms.
func TestParseMoment(t *testing.T) {
	want := time.Date(2026, 11, 23, 10, 15, 0, 0, time.UTC)
	for _, in := range []string{"2026-11-23 10:15", "2026-11-23 10:15:00", " 2026-11-23T10:15 ", "2026-11-23 10:15 UTC",
		"2026-11-23T10:15:00Z", "2026-11-23T11:15:00+01:00", "2026-11-23T05:15-05:00"} {
		got, err := api.ParseMoment(in)
		if err != nil || !got.Equal(want) {
			t.Errorf("ParseMoment(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"", "yesterday", "2026-11-23", "23/11/2026 10:15", "2026-13-01 10:00"} {
		_, err := api.ParseMoment(in)
		if err == nil || !strings.Contains(err.Error(), "point_in_time") || !strings.Contains(err.Error(), "RFC 3339") {
			t.Errorf("ParseMoment(%q) error %v: want the field and the accepted forms", in, err)
		}
	}
}

// TestPointInTimeRequest: the body carries the source service as id and
// the moment in the description's UTC format; a bad one is refused before
// sending.
func TestPointInTimeRequest(t *testing.T) {
	at := time.Date(2026, 11, 23, 11, 15, 30, 0, time.FixedZone("CET", 3600))
	req := api.PointInTimeRestore("dbtgf00000001", "dbtgf00000002", at)
	if req.ID != "dbtgf00000002" || req.PointInTime != "2026-11-23 10:15:30" || req.Key != "" {
		t.Fatalf("request %+v", req)
	}
	if err := req.Validate(); err != nil {
		t.Fatal(err)
	}
	bad := req
	bad.PointInTime = "2026-11-23T10:15:30Z"
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "point_in_time") {
		t.Errorf("a wrongly formatted point_in_time passed: %v", err)
	}
	bad = req
	bad.ID = "orders-prod"
	if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), "id:") {
		t.Errorf("a source that is not a service ID passed: %v", err)
	}
	if err := (&api.RestoreLookupRequest{}).Validate(); err == nil {
		t.Error("an empty lookup passed")
	}
}

// TestPITRWindowCheck: a moment outside the window is refused naming the
// window; the ends are inside.
func TestPITRWindowCheck(t *testing.T) {
	w := api.PITRWindow{ServiceID: "dbtgf00000001", ServiceName: "orders-prod",
		Start: api.Time{Time: time.Date(2026, 11, 20, 2, 10, 0, 0, time.UTC)}, End: api.Time{Time: time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)}}
	for _, in := range []time.Time{w.Start.Time, w.End.Time, time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)} {
		if err := w.Check(in); err != nil {
			t.Errorf("%v refused: %v", in, err)
		}
	}
	err := w.Check(time.Date(2026, 11, 20, 2, 9, 59, 0, time.UTC))
	if err == nil || !strings.Contains(err.Error(), "outside the window of orders-prod: 2026-11-20 02:10:00 to 2026-11-23 12:00:00 UTC") {
		t.Errorf("before the window: %v", err)
	}
	if err := w.Check(w.End.Add(time.Second)); err == nil {
		t.Error("a moment after the window passed")
	}
}
