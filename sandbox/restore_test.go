package sandbox

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
)

func TestCrossProviderRestoreRefusedWithWorkaround(t *testing.T) {
	h := newHarness(t, Options{})
	src := h.readyService("gcp-source", "gcp")
	dst := h.readyService("aws-target", "aws")
	key := h.completedFull(src)
	b := h.do("POST", "/backup/v1/restores", api.ManagedRestore(dst, key)).errBody(t, 400)
	d := b.Errors[0]
	if !strings.Contains(d.Message, "same cloud provider") || !strings.Contains(d.Message, "gcp") || !strings.Contains(d.Message, "aws") {
		t.Fatalf("message %q", d.Message)
	}
	if !strings.Contains(d.Solution, "own bucket") || !strings.Contains(d.Solution, "copy") || !strings.Contains(d.Solution, "external_source") {
		t.Fatalf("solution %q", d.Solution)
	}
	var list []api.Restore
	h.do("GET", "/backup/v1/restores", nil).want(t, 200).decode(t, &list)
	if len(list) != 0 || h.service(dst).Status != "ready" {
		t.Fatalf("refused restore left %v, target %s", list, h.service(dst).Status)
	}
	// The same backup restores fine within its provider.
	other := h.readyService("gcp-target", "gcp")
	h.do("POST", "/backup/v1/restores", api.ManagedRestore(other, key)).want(t, 200)
}

func TestRestoreRunsThenReplacesTargetCredentials(t *testing.T) {
	h := newHarness(t, Options{})
	src, dst := h.readyPair("restore-src", "restore-dst", 5<<30)
	key := h.completedFull(src)
	srcCreds, dstCreds := h.credentials(src), h.credentials(dst)
	if srcCreds.Password == dstCreds.Password || srcCreds.Username == dstCreds.Username {
		t.Fatal("services share credentials before the restore")
	}
	var r api.Restore
	h.do("POST", "/skybackup/v1/restores", api.ManagedRestore(dst, key)).want(t, 200).decode(t, &r)
	if r.ID <= 0 || r.ServiceID != dst || r.Key != key || r.Type != "physical" || r.Status != "Running" || r.Message != "server is not-ready" ||
		!strings.HasPrefix(r.Bucket, "s3://") || r.CreatedAt.IsZero() || r.ServiceName != "restore-dst" {
		t.Fatalf("restore %+v", r)
	}
	// While running the target is unavailable.
	if st := h.service(dst).Status; st != "pending_modifying" {
		t.Fatalf("target status %s while restoring", st)
	}
	h.do("GET", "/provisioning/v1/services/"+dst+"/security/credentials", nil).errBody(t, http.StatusConflict)
	get := func() api.Restore {
		var one api.Restore
		h.do("GET", "/skybackup/v1/restores/"+jsonString(r.ID), nil).want(t, 200).decode(t, &one)
		return one
	}
	h.clk.Advance(150 * time.Second) // 60 s + 5 GB at 50 MB/s = 162 s
	if got := get(); got.Status != "Running" {
		t.Fatalf("restore %s after 150 s", got.Status)
	}
	h.clk.Advance(15 * time.Second)
	if got := get(); got.Status != "Succeeded" || got.Message != "Restore has succeeded!" {
		t.Fatalf("restore %+v after 165 s", got)
	}
	if st := h.service(dst).Status; st != "ready" {
		t.Fatalf("target %s after restore", st)
	}
	after := h.credentials(dst)
	if after.Username != srcCreds.Username || after.Password != srcCreds.Password {
		t.Fatalf("target credentials %+v, want the source's %+v", after, srcCreds)
	}
	// The target now holds the source's data: its next backup is as big.
	tkey := h.completedFull(dst)
	if got, want := findBackup(t, h.backups(dst), tkey).SizeBytes, findBackup(t, h.backups(src), key).SizeBytes; got < want {
		t.Fatalf("target backup %d bytes, source backup %d", got, want)
	}

	// An own-bucket restore gets new credentials.
	var r2 api.Restore
	h.do("POST", "/backup/v1/restores", api.BucketRestore(dst, "exports/orders.sql.gz",
		api.ExternalSource{Bucket: "s3://acme-exports/", Method: "mysqldump", Credentials: s3Creds})).want(t, 200).decode(t, &r2)
	if r2.Type != "logical" || r2.Bucket != "s3://acme-exports/" || r2.Key != "exports/orders.sql.gz" {
		t.Fatalf("bucket restore %+v", r2)
	}
	h.clk.Advance(2 * time.Hour)
	if c := h.credentials(dst); c.Password == srcCreds.Password || c.Password == "" {
		t.Fatal("own-bucket restore kept the old credentials")
	}
}

func TestRestoreRules(t *testing.T) {
	h := newHarness(t, Options{})
	src, dst := h.readyPair("rules-src", "rules-dst", 50<<30)
	b := h.do("POST", "/backup/v1/restores", api.ManagedRestore(dst, "abc:"+src+":pod")).errBody(t, 404)
	if !strings.Contains(b.Errors[0].Message, "abc:"+src+":pod") {
		t.Fatalf("not found message %q", b.Errors[0].Message)
	}
	h.do("POST", "/backup/v1/restores", api.ManagedRestore("dbtaf12345678", "k")).errBody(t, 404)
	// A running backup cannot be restored yet; a failed one never.
	running := h.onceBackup(src, api.BackupFull)
	var key string
	for _, bk := range h.backups(src) {
		key = bk.Key
	}
	_ = running
	h.do("POST", "/backup/v1/restores", api.BackupIDRestore(dst, key)).errBody(t, http.StatusConflict)
	h.clk.Advance(time.Hour)
	h.s.FailNextBackup(src)
	h.onceBackup(src, api.BackupFull)
	h.clk.Advance(time.Hour)
	failed := h.backups(src)[0]
	if failed.Status != "Failed" {
		t.Fatalf("%+v", failed)
	}
	h.do("POST", "/backup/v1/restores", api.ManagedRestore(dst, failed.Key)).errBody(t, 400)
	// key and id naming different backups.
	h.do("POST", "/backup/v1/restores", api.RestoreRequest{ServiceID: dst, Key: key, ID: failed.Key}).errBody(t, 400)
	// An own-bucket backup is restored from the bucket, not by key.
	h.do("POST", "/backup/v1/backups/schedules", api.ScheduleRequest{BackupType: "logical", Schedule: "once", ServiceID: src,
		ExternalStorage: &api.ExternalStorage{Bucket: api.ExternalBucket{Path: "s3://acme/dumps", Credentials: s3Creds}}}).want(t, 200)
	h.clk.Advance(2 * time.Hour)
	own := h.backups(src)[0]
	if !own.IsExternalStorage {
		t.Fatalf("%+v", own)
	}
	h.do("POST", "/backup/v1/restores", api.ManagedRestore(dst, own.Key)).errBody(t, 400)
	// The backup-id form works like the key form.
	h.do("POST", "/backup/v1/restores", api.BackupIDRestore(dst, key)).want(t, 200)
	// A restoring target is pending: a second restore is refused.
	b = h.do("POST", "/backup/v1/restores", api.ManagedRestore(dst, key)).errBody(t, http.StatusConflict)
	if !strings.Contains(b.Errors[0].Message, "pending state") {
		t.Fatalf("%q", b.Errors[0].Message)
	}
}

func TestDeleteRestoreOnlyWhileRunning(t *testing.T) {
	h := newHarness(t, Options{})
	src := h.readyService("del-src", "gcp")
	dst := h.readyService("del-dst", "gcp")
	key := h.completedFull(src)
	before := h.credentials(dst)
	var r api.Restore
	h.do("POST", "/backup/v1/restores", api.ManagedRestore(dst, key)).want(t, 200).decode(t, &r)
	id := jsonString(r.ID)
	r2 := h.do("DELETE", "/backup/v1/restores/"+id, nil).want(t, 200)
	if strings.TrimSpace(string(r2.body)) != "{}" {
		t.Fatalf("delete answer %s", r2.body)
	}
	h.do("GET", "/backup/v1/restores/"+id, nil).errBody(t, 404)
	if h.service(dst).Status != "ready" || h.credentials(dst) != before {
		t.Fatal("cancelled restore changed the target")
	}
	h.clk.Advance(time.Hour)
	if h.credentials(dst) != before {
		t.Fatal("cancelled restore completed later")
	}
	// A finished restore cannot be deleted.
	h.do("POST", "/skybackup/v1/restores", api.ManagedRestore(dst, key)).want(t, 200).decode(t, &r)
	h.clk.Advance(time.Hour)
	h.do("DELETE", "/skybackup/v1/restores/"+jsonString(r.ID), nil).refusal(t, http.StatusConflict, "finished")
	h.do("DELETE", "/skybackup/v1/restores/999", nil).errBody(t, 404)
	h.do("DELETE", "/skybackup/v1/restores/abc", nil).errBody(t, 400)
}

// /backup/v1 answers the interface document's shapes, /skybackup/v1 the
// live spec's; api.Client reads both.
func TestRestoreShapesPerPrefix(t *testing.T) {
	h := newHarness(t, Options{})
	src := h.readyService("shape-src", "aws")
	dst := h.readyService("shape-dst", "aws")
	key := h.completedFull(src)
	var r api.Restore
	h.do("POST", "/backup/v1/restores", api.ManagedRestore(dst, key)).want(t, 200).decode(t, &r)
	id := jsonString(r.ID)
	first := func(path string) byte {
		return strings.TrimSpace(string(h.do("GET", path, nil).want(t, 200).body))[0]
	}
	if first("/backup/v1/restores") != '[' || first("/backup/v1/restores/"+id) != '[' {
		t.Fatal("/backup/v1 must answer arrays")
	}
	if first("/skybackup/v1/restores?service_id="+dst) != '{' || first("/skybackup/v1/restores/"+id) != '{' {
		t.Fatal("/skybackup/v1 must answer objects")
	}
	var one []api.Restore
	h.do("GET", "/backup/v1/restores/"+id, nil).decode(t, &one)
	var env struct {
		Restores      []api.Restore `json:"restores"`
		RestoresCount int           `json:"restores_count"`
		PagesCount    int           `json:"pages_count"`
	}
	h.do("GET", "/skybackup/v1/restores?service_id="+dst, nil).want(t, 200).decode(t, &env)
	if len(one) != 1 || one[0].ID != r.ID || env.RestoresCount != 1 || env.PagesCount != 1 || env.Restores[0].ID != r.ID {
		t.Fatalf("one %+v env %+v", one, env)
	}
	for _, prefix := range []string{"/backup/v1", "/skybackup/v1"} {
		c := h.client(prefix)
		list, err := c.ListRestores(bg, r.ServiceID)
		if err != nil || len(list) != 1 {
			t.Fatalf("%s list %v %v", prefix, list, err)
		}
		got, err := c.GetRestore(bg, int64(r.ID))
		if err != nil || got.Key != key {
			t.Fatalf("%s get %+v %v", prefix, got, err)
		}
	}
}

// Stats counts every POST once, refused or not: the base of the "no
// duplicated POST" tests of the client.
func TestStatsCountRequestsPerRoute(t *testing.T) {
	h := newHarness(t, Options{})
	dst := h.readyService("stats-dst", "aws")
	h.do("POST", "/backup/v1/restores", api.ManagedRestore(dst, "nope")).errBody(t, 404)
	h.s.SetFaults(Faults{ErrorRate: 1})
	if _, err := h.client("/skybackup/v1").CreateRestore(bg, api.ManagedRestore(dst, "nope")); api.StatusOf(err) < 500 {
		t.Fatalf("err %v", err)
	}
	st := h.s.Stats()
	if st.Count("POST", "/backup/v1/restores") != 1 || st.Count("POST", "/skybackup/v1/restores") != 1 || st.Count("POST", "/provisioning/v1/services") != 1 {
		t.Fatalf("stats %+v", st.Requests)
	}
	if st.Count("GET", "/provisioning/v1/services/{id}") != 0 || st.Faults["error"] != 1 || st.Total < 3 {
		t.Fatalf("stats %+v", st)
	}
}

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
