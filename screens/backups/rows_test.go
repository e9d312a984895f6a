package backups

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
	"github.com/skytui/skytui/tui/tuitest"
)

var now = tuitest.T0

const sid = "dbtaf33737495"

func bk(key, typ, status string, age time.Duration) api.Backup {
	start := now.Add(-age)
	b := api.Backup{Key: key + ":" + sid + ":pod", ServiceID: sid, Type: typ, Status: status,
		StartTime: api.Time{Time: start}, SizeBytes: 3 << 30, BinlogGTIDPosition: "0-1-" + key,
		BinlogFile: "mariadb-bin.000042", BinlogPosition: "1234"}
	if api.BackupState(status) != api.BackupInProgress {
		b.EndTime = api.Time{Time: start.Add(5 * time.Minute)}
	}
	return b
}

func newScreen(t *testing.T, w, h int) *Screen {
	t.Helper()
	s := New(tuitest.Common())
	s.SetSize(w, h)
	s.Update(kit.DataMsg{Key: kit.ServicesKey.String(), Data: []api.Service{{ID: sid, Name: "orders-prod"}}, At: now})
	s.Open(sid)
	if s.ServiceID() != sid {
		t.Fatalf("Open(%q) shows %q", sid, s.ServiceID())
	}
	return s
}

func feed(s *Screen, d backupData) {
	s.Update(kit.DataMsg{Key: kit.BackupsKey(sid).String(), Data: d, At: now})
}

func find(s *Screen, key string) (item, bool) {
	for _, it := range s.items {
		if strings.HasPrefix(it.Key, key) {
			return it, true
		}
	}
	return item{}, false
}

func TestStatusCallMergedWithListing(t *testing.T) {
	s := newScreen(t, 140, 30)
	feed(s, backupData{
		Backups: []api.Backup{bk("aaa", "full", "Running", time.Minute), bk("bbb", "full", "Succeeded", time.Hour)},
		Statuses: []api.BackupStatus{
			{ID: "aaa:" + sid + ":pod", Status: "completed", Message: "Backup has succeeded!"},
			{ID: "ccc:" + sid + ":pod", Type: "logical", Status: "in progress"}, // not listed yet
		},
	})
	a, _ := find(s, "aaa")
	if a.Word != "completed" || a.Source != srcStatus || a.Message != "Backup has succeeded!" {
		t.Fatalf("the status call's state did not win over the listing: %+v", a)
	}
	b, _ := find(s, "bbb")
	if b.Word != "completed" || b.Source != srcListing {
		t.Fatalf("listing status: %+v", b)
	}
	c, ok := find(s, "ccc")
	if !ok || c.Word != "in progress" || c.Listed {
		t.Fatalf("a backup only the status call knows is missing: %+v", c)
	}
	// no status call on this server: the listing is the source
	feed(s, backupData{Backups: []api.Backup{bk("aaa", "full", "Running", time.Minute)}, StatusUnsupported: true})
	a, _ = find(s, "aaa")
	if a.Word != "in progress" || a.Source != srcListing {
		t.Fatalf("without the status call: %+v", a)
	}
	// a failing status call is said, and the listing still shows
	feed(s, backupData{Backups: []api.Backup{bk("aaa", "full", "Failed", time.Minute)}, StatusErr: errors.New("500")})
	if a, _ = find(s, "aaa"); a.Word != "failed" {
		t.Fatalf("failed: %+v", a)
	}
	if !strings.Contains(tuitest.View(s), "status call failed: showing the listing's status") {
		t.Fatalf("no word about the failed status call:\n%s", tuitest.View(s))
	}
}

func TestPendingWhileInProgress(t *testing.T) {
	s := newScreen(t, 140, 30)
	var res kit.Resource
	for _, r := range s.Resources() {
		if r.Key == kit.BackupsKey(sid).String() {
			res = r
		}
	}
	if res.Pending == nil {
		t.Fatal("no pending predicate: in-progress rows would not be polled fast")
	}
	running := backupData{Backups: []api.Backup{bk("aaa", "full", "Succeeded", time.Hour)},
		Statuses: []api.BackupStatus{{ID: "zzz", Status: "in progress"}}}
	if !res.Pending(running) {
		t.Fatal("a backup in progress (from the status call) is not pending")
	}
	if res.Pending(backupData{Backups: []api.Backup{bk("aaa", "full", "Succeeded", time.Hour)}}) {
		t.Fatal("settled backups are pending")
	}
	if !res.Pending(backupData{Backups: []api.Backup{bk("aaa", "full", "Running", time.Minute)}}) {
		t.Fatal("a running backup (from the listing) is not pending")
	}
}

func TestAgeMarksBackupsTooOldForReplication(t *testing.T) {
	s := newScreen(t, 140, 30)
	feed(s, backupData{Backups: []api.Backup{
		bk("new", "full", "Succeeded", 3*24*time.Hour+23*time.Hour),
		bk("old", "full", "Succeeded", 4*24*time.Hour+time.Hour),
		bk("oldfail", "full", "Failed", 6*24*time.Hour),
	}})
	n, _ := find(s, "new")
	o, _ := find(s, "old")
	f, _ := find(s, "oldfail")
	if n.TooOld(now) || !o.TooOld(now) || f.TooOld(now) {
		t.Fatalf("too old: new %v, old %v, failed %v", n.TooOld(now), o.TooOld(now), f.TooOld(now))
	}
	if got := o.ageText(now); got != "4d too old" {
		t.Fatalf("age cell = %q (the words, not only a colour)", got)
	}
	if got := n.ageText(now); got != "3d" {
		t.Fatalf("age cell = %q", got)
	}
	txt, kind := o.replicationText(now)
	if kind != theme.KindWarn || !strings.Contains(txt, "older than the 4-day binlog retention (too old to start replication)") {
		t.Fatalf("replication = %q", txt)
	}
	txt, _ = n.replicationText(now)
	if !strings.HasPrefix(txt, "yes: 3d old") {
		t.Fatalf("replication = %q", txt)
	}
	v := tuitest.View(s)
	if !strings.Contains(v, "too old = over 4 days: cannot start replication") {
		t.Fatalf("no legend:\n%s", v)
	}
}

func TestSortAndFilter(t *testing.T) {
	s := newScreen(t, 140, 30)
	feed(s, backupData{Backups: []api.Backup{
		bk("a1", "incremental", "Succeeded", 1*time.Hour),
		bk("a2", "full", "Succeeded", 3*time.Hour),
		bk("a3", "logical", "Failed", 2*time.Hour),
	}})
	order := func() []string {
		var out []string
		for _, it := range s.items {
			out = append(out, api.ShortKey(it.Key))
		}
		return out
	}
	if got := order(); !reflect.DeepEqual(got, []string{"a1", "a3", "a2"}) {
		t.Fatalf("newest first: %v", got)
	}
	press(s, "s") // type
	if got := order(); !reflect.DeepEqual(got, []string{"a2", "a1", "a3"}) {
		t.Fatalf("by type: %v", got)
	}
	press(s, "s") // status
	if got := order(); !reflect.DeepEqual(got, []string{"a1", "a2", "a3"}) {
		t.Fatalf("by status: %v", got)
	}
	press(s, "S")
	if got := order(); !reflect.DeepEqual(got, []string{"a3", "a1", "a2"}) {
		t.Fatalf("by status reversed: %v", got)
	}
	if !strings.Contains(tuitest.View(s), "sort: status v") {
		t.Fatalf("sort not shown:\n%s", tuitest.View(s))
	}
	// the filter narrows, survives a refresh, esc clears it
	press(s, "/")
	for _, r := range "failed" {
		press(s, string(r))
	}
	press(s, "enter")
	if s.Table.Len() != 1 {
		t.Fatalf("filter 'failed' shows %d rows", s.Table.Len())
	}
	feed(s, s.data)
	if s.Table.Len() != 1 {
		t.Fatal("a refresh lost the filter")
	}
	press(s, "esc")
	if s.Table.Len() != 3 {
		t.Fatalf("esc did not clear the filter: %d rows", s.Table.Len())
	}
}

func TestSubmittedBackupAppearsAtOnce(t *testing.T) {
	s := newScreen(t, 140, 30)
	feed(s, backupData{Backups: []api.Backup{bk("a1", "full", "Succeeded", time.Hour)}})
	req := api.ScheduleRequest{BackupType: "full", Schedule: "once", ServiceID: sid}
	s.Update(kit.ActionDoneMsg{Tag: submitTag{req: req, svcID: sid, at: now},
		Result: &api.Schedule{ID: 7, BackupID: "fresh:" + sid + ":pod"}})
	it, ok := find(s, "fresh")
	if !ok || it.Word != "in progress" || !it.Optimistic || s.Table.SelectedID() != it.Key {
		t.Fatalf("the submitted backup is not shown and selected: %+v (selected %q)", it, s.Table.SelectedID())
	}
	// polled fast until it is listed
	for _, r := range s.Resources() {
		if r.Key == kit.BackupsKey(sid).String() && !r.Pending(s.data) {
			t.Fatal("not pending while the submitted backup is not listed")
		}
	}
	// a listing that predates it does not hide it
	feed(s, backupData{Backups: []api.Backup{bk("a1", "full", "Succeeded", time.Hour)}})
	if _, ok := find(s, "fresh"); !ok {
		t.Fatal("the submitted backup vanished on an older listing")
	}
	// once listed, the API's record wins
	listed := bk("fresh", "full", "Running", 0)
	feed(s, backupData{Backups: []api.Backup{bk("a1", "full", "Succeeded", time.Hour), listed}})
	if it, _ := find(s, "fresh"); it.Optimistic || !it.Listed || len(s.optimistic) != 0 {
		t.Fatalf("after listing: %+v", it)
	}
	// a job whose backup the server did not name shows as "job N" and
	// goes when a backup of its type started since shows up
	s.Update(kit.ActionDoneMsg{Tag: submitTag{req: api.ScheduleRequest{BackupType: "logical", Schedule: "once", ServiceID: sid}, svcID: sid, at: now},
		Result: &api.Schedule{ID: 8}})
	if _, ok := find(s, "job 8"); !ok {
		t.Fatal("no row for a job without a backup key")
	}
	feed(s, backupData{Backups: []api.Backup{listed, bk("dump", "logical", "Running", 0)}})
	if _, ok := find(s, "job 8"); ok {
		t.Fatal("the job row stays after its backup is listed")
	}
}

func TestCreatedScheduleShownAtOnce(t *testing.T) {
	s := newScreen(t, 140, 30)
	req := api.ScheduleRequest{BackupType: "full", Schedule: "0 4 * * *", ServiceID: sid}
	s.Update(kit.ActionDoneMsg{Tag: submitTag{req: req, svcID: sid, at: now}, Result: &api.Schedule{ID: 9, Schedule: "cron", Cron: "0 4 * * *", Status: "Active"}})
	v := tuitest.View(s)
	if s.mode != modeSchedules || !strings.Contains(v, "daily at 04:00 UTC") || !strings.Contains(v, "Sun 2026-03-15 04:00 UTC") {
		t.Fatalf("the new schedule is not shown with its next runs:\n%s", v)
	}
}

func TestHumanBytes(t *testing.T) {
	for _, c := range []struct {
		n    int64
		want string
	}{{0, "-"}, {512, "512 B"}, {1536, "1.5 KiB"}, {24 << 20, "24 MiB"}, {2631784857, "2.5 GiB"}, {49 << 30, "49 GiB"}, {3 << 40, "3.0 TiB"}} {
		if got := kit.HumanBytes(c.n); got != c.want {
			t.Errorf("kit.HumanBytes(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestDetailHasEveryField(t *testing.T) {
	s := newScreen(t, 140, 40)
	b := bk("ext", "logical", "Succeeded", 2*time.Hour)
	b.Bucket, b.IsExternalStorage, b.Method, b.CloudProvider, b.PointInTime = "s3://acme-exports/orders", true, "mysqldump", "aws", "2026-03-14T10:00:00Z"
	feed(s, backupData{Backups: []api.Backup{b}})
	press(s, "enter")
	v := tuitest.View(s)
	for _, want := range []string{"ext:" + sid + ":pod", "logical", "mysqldump", "completed  (from the listing)",
		"2026-03-14 10:00:00 UTC", "2026-03-14 10:05:00 UTC", "5m00s", "3.0 GiB (3221225472 bytes)",
		"your own bucket (offloaded", "Bucket path            s3://acme-exports/orders", "2026-03-14T10:00:00Z", "0-1-ext", "mariadb-bin.000042", "1234",
		"yes: 2h old", "aws"} {
		if !strings.Contains(v, want) {
			t.Errorf("detail lacks %q", want)
		}
	}
	if t.Failed() {
		t.Log(v)
	}
}

func TestCopyKeyAndGTID(t *testing.T) {
	s := newScreen(t, 140, 30)
	feed(s, backupData{Backups: []api.Backup{bk("aaa", "full", "Succeeded", time.Hour)}})
	raw := func(cmd tea.Cmd) string {
		t.Helper()
		if cmd == nil {
			t.Fatal("no command")
		}
		seq, ok := tuitest.Sequence(cmd())
		if !ok {
			t.Fatal("the copy is not a sequence")
		}
		return seq[0]().(tea.RawMsg).Msg.(string)
	}
	if got := raw(press(s, "y")); !strings.Contains(got, "52;c;") || !strings.Contains(got, b64("aaa:"+sid+":pod")) {
		t.Fatalf("y sent %q", got)
	}
	if got := raw(press(s, "Y")); !strings.Contains(got, b64("0-1-aaa")) {
		t.Fatalf("Y sent %q", got)
	}
	feed(s, backupData{Backups: []api.Backup{{Key: "nogtid:" + sid + ":p", Type: "full", Status: "Running", StartTime: api.Time{Time: now}}}})
	msg := press(s, "Y")()
	if tm, ok := msg.(kit.ToastMsg); !ok || !strings.Contains(tm.Text, "has no GTID position") {
		t.Fatalf("Y without a GTID = %#v", msg)
	}
}

func TestViewFitsArea(t *testing.T) {
	for _, size := range [][2]int{{60, 12}, {80, 20}, {140, 36}} {
		s := newScreen(t, size[0], size[1])
		var list []api.Backup
		for i := range 200 {
			list = append(list, bk(strings.Repeat("f", i%7+1)+string(rune('a'+i%26)), "full", "Succeeded", time.Duration(i)*time.Hour))
		}
		feed(s, backupData{Backups: list})
		for _, k := range []string{"", "enter", "t"} {
			if k != "" {
				press(s, k)
			}
			tuitest.CheckFits(t, fmt.Sprintf("%dx%d after %q", size[0], size[1], k), tuitest.View(s), size[0], size[1])
		}
	}
}

func press(s *Screen, k string) tea.Cmd { return tuitest.Press(s, k) }

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func TestItemServiceFromKey(t *testing.T) {
	for _, c := range []struct {
		it   item
		want string
	}{
		{item{Backup: api.Backup{Key: "abc:" + sid + ":pod", ServiceID: "dbtother"}}, "dbtother"},
		{item{Backup: api.Backup{Key: "abc:" + sid + ":pod"}}, sid},
		{item{Backup: api.Backup{Key: "job 7"}}, ""},
	} {
		if got := itemService(&c.it); got != c.want {
			t.Errorf("itemService(%q) = %q, want %q", c.it.Key, got, c.want)
		}
	}
}

// TestAllServicesWithoutSelection: in the all-services view with no
// backup listed, t and n say how to choose a service (f, the picker; p
// pauses the refresh) instead of guessing, and the footer does not offer
// them (a key it offers does something); f is there.
func TestAllServicesWithoutSelection(t *testing.T) {
	s := newScreen(t, 140, 30)
	s.Open(AllArg)
	if s.ServiceID() != "" {
		t.Fatalf(":backups all shows %q", s.ServiceID())
	}
	s.Update(kit.DataMsg{Key: kit.AllBackupsKey.String(), Data: []api.Backup{}, At: now})
	for _, k := range []string{"t", "n"} {
		msg, ok := press(s, k)().(kit.ToastMsg)
		if !ok || !strings.Contains(msg.Text, "f picks") || s.mode != modeList {
			t.Errorf("%s with nothing selected: %#v, mode %v", k, msg, s.mode)
		}
	}
	if v := tuitest.View(s); !strings.Contains(v, "Backups of all services") || !strings.Contains(v, "no backups of any service yet: f picks a service") {
		t.Errorf("empty all-services view:\n%s", v)
	}
	var footer []string
	for _, b := range s.KeyMap().ShortHelp() {
		footer = append(footer, b.Help().Key+" "+b.Help().Desc)
	}
	if slices.Contains(footer, "n new backup") || slices.Contains(footer, "t schedules/backups") || !slices.Contains(footer, "f for one service") {
		t.Errorf("the empty all-services view's footer offers %q", footer)
	}
}

// A field the API sent but nobody can read shows as "?" in the table and as
// it came in the detail — never as a made-up value.
func TestUnreadableFieldsShowAsUnknown(t *testing.T) {
	var b api.Backup
	if err := json.Unmarshal([]byte(`{"id":"k1:dbt1:p","service_id":"dbt1","status":"Succeeded","start_time":"last tuesday","backup_size":"huge"}`), &b); err != nil {
		t.Fatal(err)
	}
	it := &item{Backup: b}
	if got := kit.ShortTime(it.StartTime, now); got != "?" {
		t.Errorf("STARTED = %q", got)
	}
	if got := it.ageText(now); got != "?" {
		t.Errorf("AGE = %q", got)
	}
	if got := it.sizeText(); got != "?" {
		t.Errorf("SIZE = %q", got)
	}
	if got := fullTime(it.StartTime); !strings.HasPrefix(got, "last tuesday") {
		t.Errorf("detail Started = %q", got)
	}
	ok := &item{Backup: api.Backup{SizeBytes: 2048}}
	if got := ok.sizeText(); got != "2.0 KiB" {
		t.Errorf("a readable size = %q", got)
	}
}

// A one-off job the server named no backup of is followed by the backup
// of its type started since the submit (the first of them), as its row
// settles; one named is followed by its key alone.
func TestFollowedJobFound(t *testing.T) {
	at := now
	items := []item{
		{Backup: api.Backup{Key: "old:db1:p", Type: "full", StartTime: api.Time{Time: at.Add(-time.Hour)}}},
		{Backup: api.Backup{Key: "inc:db1:p", Type: "incremental", StartTime: api.Time{Time: at.Add(time.Second)}}},
		{Backup: api.Backup{Key: "new:db1:p", Type: "full", StartTime: api.Time{Time: at.Add(20 * time.Second)}}},
		{Backup: api.Backup{Key: "mine:db1:p", Type: "full", StartTime: api.Time{Time: at.Add(5 * time.Second)}}},
	}
	if it, ok := findJob(items, "job 7", "full", at); !ok || it.Key != "mine:db1:p" {
		t.Errorf("job 7 (full): %q, %v", it.Key, ok)
	}
	if it, ok := findJob(items, "old:db1:p", "full", at); !ok || it.Key != "old:db1:p" {
		t.Errorf("by key: %q, %v", it.Key, ok)
	}
	if _, ok := findJob(items, "job 8", "logical", at); ok {
		t.Error("a job of a type not listed was found")
	}
}

// TestOpenGivesWayToANewerName: a name still looked for (the listing read
// again) gives way to a newer :backups, and says so instead of being
// dropped unsaid (two commands typed in a burst).
func TestOpenGivesWayToANewerName(t *testing.T) {
	s := newScreen(t, 100, 30)
	if cmd := s.Open("zzz1"); cmd == nil {
		t.Fatal("an unknown name is not looked for again")
	}
	var said []string
	var collect func(tea.Cmd)
	collect = func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		switch m := cmd().(type) {
		case tea.BatchMsg:
			for _, c := range m {
				collect(c)
			}
		case kit.ToastMsg:
			said = append(said, m.Text)
		}
	}
	collect(s.Open("zzz2"))
	if len(said) != 1 || said[0] != `"zzz1" is no longer looked for: "zzz2" was asked after it` {
		t.Fatalf("the name given way to says %q", said)
	}
}

// keyLines are the lines of the Key field in the detail pane: the value
// from the label to the next field's label.
func keyLines(t *testing.T, s *Screen) []string {
	t.Helper()
	v := tuitest.View(s)
	var out []string
	in := false
	for _, l := range strings.Split(v, "\n") {
		f := strings.Fields(l)
		switch {
		case len(f) == 2 && f[0] == "Key":
			in = true
			out = append(out, f[1])
		case in && len(f) == 1 && !strings.HasPrefix(l, "  Type"):
			out = append(out, f[0])
		case in:
			return out
		}
	}
	t.Fatalf("no Key field:\n%s", v)
	return nil
}

// TestDetailKeyBreaksAtItsColons: a backup's key longer than the pane's
// line breaks only after its colons (README: a key breaks only at its
// colons), at 60 columns as at 50, where its first part alone is wider
// than the line and only then is broken inside.
func TestDetailKeyBreaksAtItsColons(t *testing.T) {
	key := "501c553258fc4f700cd9995e19933309:" + sid + ":" + sid + "-mdb-ms-0"
	for _, w := range []int{60, 50} {
		s := newScreen(t, w, 16)
		b := bk("x", "full", "Succeeded", time.Hour)
		b.Key = key
		feed(s, backupData{Backups: []api.Backup{b}})
		press(s, "enter")
		lines := keyLines(t, s)
		if strings.Join(lines, "") != key {
			t.Fatalf("%d columns: the key reads %q", w, lines)
		}
		// each break is after a colon, or inside a part wider than a line
		line := 0
		for _, l := range lines {
			line = max(line, len(l))
		}
		at := 0
		for _, l := range lines[:len(lines)-1] {
			at += len(l)
			start := strings.LastIndex(key[:at], ":") + 1
			end := at + strings.Index(key[at:]+":", ":") + 1
			if key[at-1] != ':' && end-start <= line {
				t.Errorf("%d columns: the key breaks inside %q: %q", w, key[start:min(end, len(key))], lines)
				t.Log(tuitest.View(s))
			}
		}
	}
}

// TestSharedNameChoosesNothing: ":backups NAME" where two services have
// that name shows neither, saying their IDs; by ID one is shown, and its
// title carries the ID ("Backups of orders-prod, no backups yet" read as
// production's).
func TestSharedNameChoosesNothing(t *testing.T) {
	s := newScreen(t, 100, 30)
	const twin = "dbtgf00000099"
	s.Update(kit.DataMsg{Key: kit.ServicesKey.String(), Data: []api.Service{{ID: sid, Name: "orders-prod"}, {ID: twin, Name: "orders-prod"}}, At: now})
	s.Open(AllArg)
	msg := s.Open("orders-prod")()
	if tm, ok := msg.(kit.ToastMsg); !ok || tm.Level != kit.ToastWarn || !strings.Contains(tm.Text, `2 services are named "orders-prod" (`+sid+", "+twin+`): give its ID`) {
		t.Fatalf(":backups orders-prod: %#v", msg)
	}
	if s.ServiceID() != "" {
		t.Fatalf("a shared name chose %s", s.ServiceID())
	}
	s.Open(twin)
	if s.ServiceID() != twin || s.serviceName() != "orders-prod ("+twin+")" {
		t.Fatalf("by ID: %s, named %q", s.ServiceID(), s.serviceName())
	}
}
