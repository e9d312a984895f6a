package sandbox

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
)

func unreadable(t *testing.T, r *resp) {
	t.Helper()
	var v any
	if len(r.body) > 0 && json.Unmarshal(r.body, &v) == nil {
		t.Fatalf("answer %d is readable JSON: %s", r.status, r.body)
	}
}

func liveRestores(t *testing.T, h *harness, serviceID string) []api.Restore {
	t.Helper()
	var p restoresPage
	h.do("GET", "/skybackup/v1/restores?service_id="+serviceID, nil).want(t, 200).decode(t, &p)
	return p.Restores
}

// An armed AnswerUnreadable lets the store carry out the change, then
// answers 200 with an unreadable body; only the armed route, only accepted
// changes, only as many times as armed.
func TestArmedUnreadableAnswerAfterChange(t *testing.T) {
	h := newHarness(t, Options{})
	src := h.readyService("unread-src", "aws")
	dst := h.readyService("unread-dst", "aws")
	key := h.completedFull(src)
	if err := h.s.ArmFault(ArmedFault{Kind: AnswerUnreadable, Method: "POST", Path: "/skybackup/v1/restores"}); err != nil {
		t.Fatal(err)
	}
	// Not spoiled: a GET of the route, another route, a refused change, the
	// same change under the other prefix.
	h.do("GET", "/skybackup/v1/restores?service_id="+dst, nil).want(t, 200)
	h.do("POST", "/provisioning/v1/services/"+dst+"/security/allowlist", map[string]string{"ip_address": "192.0.2.1/32"}).want(t, 200)
	h.do("POST", "/skybackup/v1/restores", api.ManagedRestore(dst, "no:such:key")).errBody(t, http.StatusNotFound)
	if n := h.s.ArmedLeft(); n != 1 {
		t.Fatalf("armed left %d before the accepted change", n)
	}

	r := h.do("POST", "/skybackup/v1/restores", api.ManagedRestore(dst, key)).want(t, 200)
	unreadable(t, r)
	if string(r.body) != DefaultUnreadableBody || !strings.HasPrefix(r.header.Get("Content-Type"), "text/html") {
		t.Fatalf("body %q, Content-Type %q", r.body, r.header.Get("Content-Type"))
	}
	// The change is in the store.
	list := liveRestores(t, h, dst)
	if len(list) != 1 || list[0].Key != key || list[0].Status != "Running" {
		t.Fatalf("restores after the spoiled answer: %+v", list)
	}
	if st := h.service(dst).Status; st != "pending_modifying" {
		t.Fatalf("target %s", st)
	}
	if n := h.s.ArmedLeft(); n != 0 {
		t.Fatalf("armed left %d", n)
	}
	if n := h.s.Stats().Faults["unreadable"]; n != 1 {
		t.Fatalf("unreadable counted %d times", n)
	}
	// Armed once: the next accepted change is answered normally.
	h.clk.Advance(time.Hour)
	var again api.Restore
	h.do("POST", "/skybackup/v1/restores", api.ManagedRestore(dst, key)).want(t, 200).decode(t, &again)
	if again.ID <= list[0].ID || len(liveRestores(t, h, dst)) != 2 {
		t.Fatalf("second restore %+v", again)
	}
}

// Times, a truncated real answer, a custom body and status, a concrete path.
func TestArmedUnreadableTimesTruncateAndBody(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("unread-sched", "gcp")
	if err := h.s.ArmFault(ArmedFault{Kind: AnswerUnreadable, Path: "/backup/v1/backups/schedules", Times: 2, Truncate: true}); err != nil {
		t.Fatal(err)
	}
	post := func() *resp {
		return h.do("POST", "/backup/v1/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "0 3 * * *", ServiceID: id}).want(t, 200)
	}
	for i := range 2 {
		r := post()
		unreadable(t, r)
		if !strings.HasPrefix(string(r.body), `{"`) || r.header.Get("Content-Type") != "application/json" {
			t.Fatalf("answer %d: %q (%s)", i, r.body, r.header.Get("Content-Type"))
		}
	}
	var sc api.Schedule
	post().decode(t, &sc)
	var p schedulesPage
	h.do("GET", "/backup/v1/backups/schedules?service_id="+id, nil).want(t, 200).decode(t, &p)
	if p.SchedulesCount != 3 {
		t.Fatalf("%d schedules after two spoiled answers and one plain", p.SchedulesCount)
	}

	// A custom body and status, armed on a request path, for DELETE only.
	al := "/provisioning/v1/services/" + id + "/security/allowlist"
	h.do("POST", al, map[string]string{"ip_address": "192.0.2.7/32"}).want(t, 200)
	if err := h.s.ArmFault(ArmedFault{Kind: AnswerUnreadable, Method: "DELETE", Path: al, Status: 202, Body: `{"id": 4`}); err != nil {
		t.Fatal(err)
	}
	h.do("POST", al, map[string]string{"ip_address": "192.0.2.8/32"}).want(t, 200) // POST not armed
	r := h.do("DELETE", al, map[string]string{"ip_address": "192.0.2.7/32"}).want(t, 202)
	unreadable(t, r)
	if string(r.body) != `{"id": 4` {
		t.Fatalf("body %q", r.body)
	}
	svc := h.service(id)
	for _, e := range svc.AllowList() {
		if e.IP == "192.0.2.7/32" {
			t.Fatal("the DELETE behind the spoiled answer was not carried out")
		}
	}
}

// An armed AnswerDropped carries out the change, then closes the
// connection without an answer.
func TestArmedDropAfterChange(t *testing.T) {
	h := newHarness(t, Options{})
	if err := h.s.ArmFault(ArmedFault{Kind: AnswerDropped, Method: "POST", Path: "/provisioning/v1/services"}); err != nil {
		t.Fatal(err)
	}
	h.do("GET", "/provisioning/v1/services", nil).want(t, 200)
	r, err := h.try("POST", "/provisioning/v1/services", serviceReq("dropped-answer", "aws"), testKey)
	if err == nil {
		t.Fatalf("answer %d: %s", r.status, r.body)
	}
	ids := h.s.ServiceIDs()
	if len(ids) != 1 || h.service(ids[0]).Name != "dropped-answer" {
		t.Fatalf("services after the dropped answer: %v", ids)
	}
	if n := h.s.Stats().Faults["drop-after"]; n != 1 {
		t.Fatalf("drop-after counted %d times", n)
	}
	h.do("POST", "/provisioning/v1/services", serviceReq("answered", "aws")).want(t, http.StatusAccepted)
	if n := len(h.s.ServiceIDs()); n != 2 {
		t.Fatalf("%d services", n)
	}
	// DisarmFaults removes what is still armed.
	if err := h.s.ArmFault(ArmedFault{Kind: AnswerDropped, Times: 5}); err != nil {
		t.Fatal(err)
	}
	if h.s.ArmedLeft() != 5 {
		t.Fatalf("armed left %d", h.s.ArmedLeft())
	}
	h.s.DisarmFaults()
	h.do("POST", "/provisioning/v1/services", serviceReq("after-disarm", "aws")).want(t, http.StatusAccepted)
}

func TestArmFaultRefusesWhatCannotMatch(t *testing.T) {
	h := newHarness(t, Options{})
	for _, c := range []struct {
		f       ArmedFault
		mention string
	}{
		{ArmedFault{Kind: "garbled"}, "garbled"},
		{ArmedFault{Kind: AnswerUnreadable, Method: "GET"}, "GET"},
		{ArmedFault{Kind: AnswerUnreadable, Status: 500}, "500"},
		{ArmedFault{Kind: AnswerUnreadable, Times: -1}, "-1"},
		{ArmedFault{Kind: AnswerDropped, Path: "/skybackup/v1/nothing"}, "/skybackup/v1/nothing"},
		{ArmedFault{Kind: AnswerDropped, Method: "PATCH", Path: "/skybackup/v1/restores"}, "PATCH"},
		{ArmedFault{Kind: AnswerDropped, Path: "/skybackup/v1/backups/status"}, "no route"},
	} {
		if err := h.s.ArmFault(c.f); err == nil || !strings.Contains(err.Error(), c.mention) {
			t.Errorf("ArmFault(%+v) = %v, want an error mentioning %s", c.f, err, c.mention)
		}
	}
	if h.s.ArmedLeft() != 0 {
		t.Fatal("a refused arm was kept")
	}
}

// The drawn forms (Faults.UnreadableRate, DropAfterRate; --faults
// unreadable=, drop-after=) spoil accepted changes, never GETs.
func TestDrawnUnreadableAndDropAfter(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("drawn-db", "azure")
	sched := api.ScheduleRequest{BackupType: "full", Schedule: "once", ServiceID: id}
	h.s.SetFaults(Faults{UnreadableRate: 1})
	var svcs []api.Service
	h.do("GET", "/provisioning/v1/services", nil).want(t, 200).decode(t, &svcs)
	unreadable(t, h.do("POST", "/skybackup/v1/backups/schedules", sched).want(t, 200))
	h.do("POST", "/skybackup/v1/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "once", ServiceID: "dbtaf99999999"}).errBody(t, 404)
	h.s.SetFaults(Faults{DropAfterRate: 1})
	h.do("GET", "/provisioning/v1/services", nil).want(t, 200).decode(t, &svcs)
	if r, err := h.try("POST", "/skybackup/v1/backups/schedules", sched, testKey); err == nil {
		t.Fatalf("answer %d: %s", r.status, r.body)
	}
	h.s.SetFaults(Faults{})
	if n := len(h.backups(id)); n != 2 {
		t.Fatalf("%d backups, want the two whose answers were spoiled", n)
	}
	if f := h.s.Stats().Faults; f["unreadable"] != 1 || f["drop-after"] != 1 {
		t.Fatalf("faults %v", f)
	}
}
