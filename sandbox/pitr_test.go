package sandbox

import (
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
)

type pitrLookup struct {
	Services []api.PITRWindow `json:"services"`
}

func (h *harness) pitrWindows() pitrLookup {
	h.t.Helper()
	var l pitrLookup
	h.do("GET", "/skybackup/v1/restores/pointintime/lookup", nil).want(h.t, 200).decode(h.t, &l)
	return l
}

// TestPITRWindowFromBackups: a service is offered for point in time only
// once it has a completed full backup; the window runs from that backup's
// end to a few minutes before now, and moves on as old binary logs expire.
func TestPITRWindowFromBackups(t *testing.T) {
	h := newHarness(t, Options{})
	src := h.readyService("pitr-src", "aws")
	if w, ok := api.WindowOf(h.pitrWindows().Services, src); ok {
		t.Fatalf("a service without a backup offers a window: %v", w)
	}
	h.completedFull(src)
	var full api.Backup
	for _, b := range h.backups(src) {
		if b.Type == api.BackupFull && b.Status == "Succeeded" {
			full = b
		}
	}
	w, ok := api.WindowOf(h.pitrWindows().Services, src)
	if !ok || !w.Known() || w.ServiceName != "pitr-src" {
		t.Fatalf("no window after a full backup: %+v", w)
	}
	if w.Start.Before(full.EndTime.Time) || w.Start.Sub(full.EndTime.Time) > time.Second {
		t.Errorf("window starts %v, the full backup ended %v", w.Start, full.EndTime)
	}
	if now := h.clk.Now(); !w.End.Equal(now.Add(-pitrLag).Truncate(time.Second)) {
		t.Errorf("window ends %v, now is %v", w.End, now)
	}
	// Five days on, that first backup's binary logs are gone: the window
	// starts at a later full (the nightly ones), within the retention.
	h.clk.Advance(5 * 24 * time.Hour)
	w2, ok := api.WindowOf(h.pitrWindows().Services, src)
	if !ok || !w2.Start.After(full.EndTime.Time) || w2.Start.Before(h.clk.Now().Add(-binlogRetention)) {
		t.Errorf("after five days the window is %v (now %v)", w2, h.clk.Now())
	}
}

// TestPITRRestoreInsideAndOutsideTheWindow: a moment outside the window is
// refused with a 400 naming it, and nothing starts; one inside runs like
// any restore, Running then Succeeded on the sandbox clock; the lookup of
// targets lists the services on the source's provider.
func TestPITRRestoreInsideAndOutsideTheWindow(t *testing.T) {
	h := newHarness(t, Options{})
	src, dst := h.readyPair("pitr-src", "pitr-dst", 2<<30)
	gcp := h.readyService("pitr-gcp", "gcp")
	h.completedFull(src)
	h.clk.Advance(2 * time.Hour)
	w, ok := api.WindowOf(h.pitrWindows().Services, src)
	if !ok {
		t.Fatal("no window")
	}
	B := "/skybackup/v1/restores"
	for _, at := range []time.Time{w.Start.Add(-time.Second), w.End.Add(time.Minute)} {
		e := h.do("POST", B, api.PointInTimeRestore(dst, src, at)).errBody(t, 400)
		msg := e.Errors[0].Message
		if !strings.Contains(msg, "outside the window") || !strings.Contains(msg, w.Start.UTC().Format(api.PITRTimeLayout)) ||
			!strings.Contains(msg, w.End.UTC().Format(api.PITRTimeLayout)) {
			t.Errorf("refusal of %v: %q", at, msg)
		}
	}
	if st := h.service(dst).Status; st != "ready" {
		t.Fatalf("a refused restore left the target %s", st)
	}
	h.do("POST", B, api.PointInTimeRestore(gcp, src, w.End.Add(-time.Minute))).errBody(t, 400) // across providers
	h.do("POST", B, api.PointInTimeRestore(dst, "dbtaf99999999", w.End.Add(-time.Minute))).errBody(t, 404)
	h.do("POST", B, api.RestoreRequest{ServiceID: dst, ID: src, PointInTime: "yesterday"}).errBody(t, 400)

	var targets struct{ Services []api.LookupService }
	h.do("POST", B+"/lookup", api.RestoreLookupRequest{ServiceID: src}).want(t, 200).decode(t, &targets)
	ids := map[string]bool{}
	for _, s := range targets.Services {
		ids[s.ServiceID] = true
	}
	if !ids[src] || !ids[dst] || ids[gcp] {
		t.Errorf("targets of %s: %+v", src, targets.Services)
	}
	h.do("POST", B+"/lookup", api.RestoreLookupRequest{}).errBody(t, 400)

	var r api.Restore
	h.do("POST", B, api.PointInTimeRestore(dst, src, w.End.Add(-30*time.Minute))).want(t, 200).decode(t, &r)
	if r.Status != "Running" || r.ServiceID != dst || r.ID <= 0 {
		t.Fatalf("restore %+v", r)
	}
	if st := h.service(dst).Status; st != "pending_modifying" {
		t.Fatalf("target %s while restoring", st)
	}
	h.clk.Advance(time.Hour)
	var done api.Restore
	h.do("GET", B+"/"+jsonString(r.ID), nil).want(t, 200).decode(t, &done)
	if done.Status != "Succeeded" || h.service(dst).Status != "ready" {
		t.Fatalf("after an hour: %+v, target %s", done, h.service(dst).Status)
	}
	// the source's credentials went to the target, as with any restore
	if h.credentials(dst).Username != h.credentials(src).Username {
		t.Error("the target did not get the source's credentials")
	}
}
