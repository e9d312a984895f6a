package restores

import (
	"errors"
	"regexp"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/forms/backupform"
	"github.com/skytui/skytui/forms/restoreform"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

func TestMain(m *testing.M) { tuitest.Main(m) }

var now = tuitest.T0

var (
	orders  = api.Service{ID: "dbtaf00000001", Name: "orders-prod", Status: "ready", Provider: "aws", Region: "us-east-1"}
	replica = api.Service{ID: "dbtaf00000002", Name: "replica-west", Status: "pending_modifying", Provider: "aws", Region: "us-west-2"}
	gcpSvc  = api.Service{ID: "dbtgf00000003", Name: "analytics-gcp", Status: "ready", Provider: "gcp", Region: "us-central1"}
)

const hash = "c79d7dd250e6aa702f00c9cd229c79ef"

func newScreen(w, h int) *Screen {
	client, _ := api.New(api.Config{BaseURL: "http://127.0.0.1:1", APIKey: "k"}) // never called
	c := tuitest.Common()
	c.Client = client
	s := New(c)
	s.SetSize(w, h)
	s.Update(kit.DataMsg{Key: kit.ServicesKey.String(), Data: []api.Service{orders, replica, gcpSvc}})
	return s
}

func listing() []api.Restore {
	return []api.Restore{
		{ID: 1, ServiceID: replica.ID, Key: hash + ":" + orders.ID + ":" + orders.ID + "-mdb-ms-0", Bucket: "s3://skysql-backups-us-east-1/" + orders.ID + "/",
			Type: "physical", Status: "Succeeded", Message: "Restore has succeeded!", CreatedAt: api.Time{Time: now.Add(-3 * 24 * time.Hour)}},
		{ID: 2, ServiceID: replica.ID, Bucket: "s3://acme-exports/", Key: "exports/orders.sql.gz", Type: "logical",
			Status: "Running", Message: "server is not-ready", CreatedAt: api.Time{Time: now.Add(-72 * time.Second)}},
		{ID: 3, ServiceID: gcpSvc.ID, Key: "some-backup-id", Status: "running"},
	}
}

func feed(s *Screen, rs []api.Restore) {
	s.Update(kit.DataMsg{Key: kit.RestoresKey.String(), Data: rs, At: now})
}

func press(s *Screen, k string) tea.Cmd { return tuitest.Press(s, k) }

func view(s *Screen) string { return tuitest.View(s) }

func row(t *testing.T, s *Screen, id string) string {
	t.Helper()
	for _, l := range strings.Split(view(s), "\n") {
		if regexp.MustCompile(`^[> ]\s*` + regexp.QuoteMeta(id) + `\s`).MatchString(l) {
			return l
		}
	}
	t.Fatalf("no row %s:\n%s", id, view(s))
	return ""
}

// TestRowsJoinServicesAndShowSources: the target's name comes from the
// services listing, the source is the shortened key with its service or
// the bucket and file, and running rows show their elapsed time.
func TestRowsJoinServicesAndShowSources(t *testing.T) {
	s := newScreen(160, 20)
	feed(s, listing())
	if r := row(t, s, "1"); !strings.Contains(r, "replica-west") || !strings.Contains(r, "c79d7dd250e6 of orders-prod") || !strings.Contains(r, "Succeeded") {
		t.Fatalf("managed row: %q", r)
	}
	if r := row(t, s, "2"); !strings.Contains(r, "s3://acme-exports/exports/orders.sql.gz") || !strings.Contains(r, "Running 1m12s") {
		t.Fatalf("bucket row: %q", r)
	}
	// no created_at: elapsed since first seen, growing with the clock
	if r := row(t, s, "3"); !strings.Contains(r, "running 0s") || !strings.Contains(r, "analytics-gcp") {
		t.Fatalf("row without a start: %q", r)
	}
	if !strings.Contains(view(s), "Restores 3 (2 running)") {
		t.Fatalf("count: %s", view(s))
	}
	// newest first
	if got := s.Table.SelectedID(); got != "3" {
		t.Fatalf("first row %s", got)
	}
	s.common.Now = func() time.Time { return now.Add(30 * time.Second) }
	s.Update(kit.ClockMsg{})
	if r := row(t, s, "3"); !strings.Contains(r, "running 30s") {
		t.Fatalf("elapsed not updated: %q", r)
	}
	// the detail pane has the whole record
	press(s, "j")
	press(s, "enter")
	for _, want := range []string{"Restore 2 into replica-west", "exports/orders.sql.gz", "your own bucket", "s3://acme-exports/", "logical", "pending_modifying"} {
		if !strings.Contains(view(s), want) {
			t.Errorf("detail lacks %q:\n%s", want, view(s))
		}
	}
}

// TestFilterByService: ":restores <name>" and the service picker show the
// restores into (or from) one service; esc shows all again.
func TestFilterByService(t *testing.T) {
	s := newScreen(160, 20)
	feed(s, listing())
	s.Open("orders-prod") // the name resolves to the ID; restore 1 used its backup
	if s.svcFilter != orders.ID || s.Table.Total() != 1 || s.Table.SelectedID() != "1" {
		t.Fatalf("filter %q rows %d", s.svcFilter, s.Table.Total())
	}
	if !strings.Contains(view(s), "service: orders-prod") {
		t.Fatalf("the filter is not shown:\n%s", view(s))
	}
	s.Open(replica.ID)
	if s.Table.Total() != 2 {
		t.Fatalf("replica-west has %d restores, want 2", s.Table.Total())
	}
	press(s, "esc")
	if s.svcFilter != "" || s.Table.Total() != 3 {
		t.Fatal("esc did not clear the service filter")
	}
	cmd := press(s, "f")
	if msg, ok := cmd().(kit.OpenDialogMsg); !ok {
		t.Fatalf("f opened %#v", msg)
	}
}

// TestOpenUnknownNameChangesNothing: ":restores NAME" with a name that is
// no service and no restore's target warns and keeps the view (it
// narrowed to nothing, "no restores yet"), the warning holding only while
// that view is shown; a deleted service's ID, still the target of restores
// listed, narrows to them.
func TestOpenUnknownNameChangesNothing(t *testing.T) {
	s := newScreen(160, 20)
	gone := api.Restore{ID: 4, ServiceID: "dbtaf00000009", ServiceName: "old-db", Key: "k4", Status: "Succeeded"}
	feed(s, append(listing(), gone))
	s.Open("orders-prod")
	cmd := s.Open("nosuch")
	if s.svcFilter != orders.ID {
		t.Fatalf("an unknown name changed the view to %q", s.svcFilter)
	}
	tm, ok := cmd().(kit.ToastMsg)
	if !ok || tm.Level != kit.ToastWarn || tm.Text != `no service named "nosuch"; still showing orders-prod's restores` || tm.Holds == nil || !tm.Holds() {
		t.Fatalf("an unknown name: %#v", tm)
	}
	s.Open(gone.ServiceID)
	if s.svcFilter != gone.ServiceID || s.Table.Total() != 1 || tm.Holds() {
		t.Fatalf("a deleted service's restores: filter %q, %d rows, the warning holds: %v", s.svcFilter, s.Table.Total(), tm.Holds())
	}
}

// TestDeleteOnlyUnfinished: d on a finished restore explains; on a
// running one it asks the action layer for the target's name typed (as
// the CLI's --confirm), saying the target may be left partly restored.
func TestDeleteOnlyUnfinished(t *testing.T) {
	s := newScreen(160, 20)
	feed(s, listing())
	s.Table.Select("1")
	msg := press(s, "d")()
	if tm, ok := msg.(kit.ToastMsg); !ok || !strings.Contains(tm.Text, "restore 1 has finished (Succeeded): only a restore that has not finished can be deleted") {
		t.Fatalf("d on a finished restore: %#v", msg)
	}
	s.Table.Select("2")
	msg = press(s, "d")()
	req, ok := msg.(kit.ActionRequestMsg)
	if !ok {
		t.Fatalf("d on a running restore: %#v", msg)
	}
	a := req.Action
	if !a.Mutating || a.Confirm.Kind != kit.ConfirmTypeName || a.Confirm.Name != "replica-west" || a.Name != "delete restore 2 into replica-west" ||
		!strings.Contains(a.Confirm.Detail, "Running 1m12s") ||
		!strings.Contains(a.Confirm.Detail, "Deleting cancels it and may leave replica-west partly restored: check its data or restore it again") {
		t.Fatalf("action %+v", a)
	}
	// once deleted, the row goes
	s.Update(kit.ActionDoneMsg{Tag: a.Tag})
	if _, ok := s.byRow["2"]; ok {
		t.Fatal("the deleted restore is still shown")
	}
}

// submitted is the screen on the listing after its wizard submitted a
// restore into orders-prod: the wizard, the "Submitting" row it handed
// over and the tag of its action.
func submitted() (*Screen, *restoreform.Wizard, *api.Restore, restoreform.Tag) {
	s := newScreen(160, 20)
	feed(s, listing())
	s.wizard = restoreform.New(s.common, restoreform.Options{Origin: ID})
	s.mode = modeWizard
	w := s.wizard
	pending := &api.Restore{ServiceID: orders.ID, Status: "Submitting", Message: "being submitted", CreatedAt: api.Time{Time: now}}
	s.Update(restoreform.DoneMsg{Wizard: w, Submitted: true, Pending: pending})
	return s, w, pending, restoreform.Tag{Wizard: w, Target: orders, SourceService: "orders-prod", SubmittedAt: now}
}

// TestSubmittedRestoreListedBeforeItsAnswer: when the listing shows the
// submitted restore before the submit's answer comes, the "Submitting"
// row gives way to it (never two rows for one restore) and the selection
// follows; the answer then leaves one row.
func TestSubmittedRestoreListedBeforeItsAnswer(t *testing.T) {
	s, _, _, tag := submitted()
	// a new restore on another service is not the submitted one, nor one
	// of the target that ended or began before the submit (the listing
	// had not come when it was sent)
	s.pendingKnown = nil
	feed(s, append(listing(), api.Restore{ID: 8, ServiceID: replica.ID, Status: "Running"},
		api.Restore{ID: 5, ServiceID: orders.ID, Status: "Succeeded", CreatedAt: api.Time{Time: now.Add(-72 * time.Hour)}},
		api.Restore{ID: 6, ServiceID: orders.ID, Status: "Running", CreatedAt: api.Time{Time: now.Add(-time.Hour)}},
		api.Restore{ID: 4, ServiceID: orders.ID, Status: "Succeeded", CreatedAt: api.Time{Time: now}}))
	if s.Table.SelectedID() != pendingRowID {
		t.Fatalf("selected %q while still submitting", s.Table.SelectedID())
	}
	feed(s, append(listing(), api.Restore{ID: 8, ServiceID: replica.ID, Status: "Running"},
		api.Restore{ID: 9, ServiceID: orders.ID, Status: "Running", CreatedAt: api.Time{Time: now}}))
	if _, ok := s.byRow[pendingRowID]; ok {
		t.Fatalf("the Submitting row stayed beside the listed restore:\n%s", view(s))
	}
	if s.Table.SelectedID() != "9" {
		t.Fatalf("selected %q, want the listed restore 9", s.Table.SelectedID())
	}
	s.Update(kit.ActionDoneMsg{Tag: tag, Result: &api.Restore{ID: 9, ServiceID: orders.ID, Status: "Running"}})
	n := 0
	for _, r := range s.visible {
		if r.ServiceID == orders.ID {
			n++
		}
	}
	if n != 1 || s.Table.SelectedID() != "9" {
		t.Fatalf("%d rows for the restore, selected %q:\n%s", n, s.Table.SelectedID(), view(s))
	}
}

// TestSubmittedRestoreAppearsAtOnce: the row appears when the wizard
// submits, becomes the API's record when it answers (and stays through a
// listing that predates it), is followed by a watch; a refusal brings
// the wizard back with everything kept.
func TestSubmittedRestoreAppearsAtOnce(t *testing.T) {
	s, w, pending, tag := submitted()
	if s.mode != modeList || s.Table.SelectedID() != pendingRowID {
		t.Fatalf("mode %d selected %q", s.mode, s.Table.SelectedID())
	}
	if r := row(t, s, "-"); !strings.Contains(r, "orders-prod") || !strings.Contains(r, "Submitting") {
		t.Fatalf("pending row %q", r)
	}
	_, cmd := s.Update(kit.ActionDoneMsg{Tag: tag, Result: &api.Restore{ID: 7, ServiceID: orders.ID, Status: "Running", Message: "server is not-ready"}})
	if cmd == nil {
		t.Fatal("no watch started")
	}
	if wm, ok := cmd().(kit.WatchMsg); !ok || wm.Watch.Key != "restore/7" || wm.Watch.Origin != ID {
		t.Fatalf("watch %#v", cmd())
	}
	if s.Table.SelectedID() != "7" || !strings.Contains(row(t, s, "7"), "Running 0s") {
		t.Fatalf("accepted row:\n%s", view(s))
	}
	if _, ok := s.byRow[pendingRowID]; ok {
		t.Fatal("the pending row stayed")
	}
	feed(s, listing()) // predates the restore
	if _, ok := s.byRow["7"]; !ok {
		t.Fatal("an older listing hid the accepted restore")
	}
	// a refusal: back to the wizard
	s.Update(restoreform.DoneMsg{Wizard: w, Submitted: true, Pending: pending})
	s.Update(kit.ActionDoneMsg{Tag: tag, Err: errors.New("409 Conflict: pending state")})
	if s.mode != modeWizard || s.wizard != w {
		t.Fatal("the wizard did not come back after a refusal")
	}
	if _, ok := s.byRow[pendingRowID]; ok {
		t.Fatal("the pending row stayed after a refusal")
	}
}

// TestWizardKeepsInputOnEsc: esc on the first step leaves the wizard; n
// brings it back as it was.
func TestWizardKeepsInputOnEsc(t *testing.T) {
	s := newScreen(120, 30)
	feed(s, listing())
	press(s, "n")
	if s.mode != modeWizard || !s.CapturesKeys() {
		t.Fatal("n did not open the wizard")
	}
	w := s.wizard
	press(s, "3") // backup ID
	cmd := press(s, "esc")
	cmd = press(s, "esc")
	s.Update(cmd())
	if s.mode != modeList || s.draft != w {
		t.Fatalf("mode %d draft %v", s.mode, s.draft)
	}
	press(s, "n")
	if s.wizard != w {
		t.Fatal("n did not bring back the wizard")
	}
}

func TestCopyCommand(t *testing.T) {
	for _, tc := range []struct{ src, dst, cmd, note string }{
		{"s3://a/orders", "s3://b/orders", "aws s3 cp --recursive s3://a/orders s3://b/orders", "AWS CLI"},
		{"gs://a/orders/", "gs://b/orders", "gsutil -m cp -r gs://a/orders gs://b/orders", "gsutil"},
		{"s3://a/orders", "gs://b/orders", "gsutil -m rsync -r s3://a/orders gs://b/orders", "boto credentials"},
		{"gs://a/orders", "s3://b/x", "gsutil -m rsync -r gs://a/orders s3://b/x", "boto credentials"},
	} {
		cmd, note := CopyCommand(tc.src, tc.dst)
		if cmd != tc.cmd || !strings.Contains(note, tc.note) {
			t.Errorf("%s -> %s: %q (%s)", tc.src, tc.dst, cmd, note)
		}
	}
}

// migrationOf is the migration flow alone, at 100x30, over svcs.
func migrationOf(svcs []api.Service, req *restoreform.MigrateRequest) *migration {
	m := newMigration(tuitest.Common(), svcs, req)
	m.SetSize(100, 30)
	return m
}

// migrationTargets is a migration of svcs at w x h with orders-prod
// chosen as the source: at its target list.
func migrationTargets(t *testing.T, svcs []api.Service, w, h int) *migration {
	t.Helper()
	m := migrationOf(svcs, nil)
	m.SetSize(w, h)
	m.table.Select(orders.ID)
	m.Update(tuitest.KeyMsg("enter"))
	if m.step != migTarget {
		t.Fatalf("step %d, want the target list", m.step)
	}
	return m
}

// TestMigrationPrefillsTheRestore: after the backup and the copy, the
// own-bucket restore opens into the target with every field filled.
func TestMigrationPrefillsTheRestore(t *testing.T) {
	m := migrationOf([]api.Service{orders, gcpSvc}, &restoreform.MigrateRequest{Source: orders, Target: gcpSvc})
	if m.step != migBackup {
		t.Fatalf("step %d", m.step)
	}
	m.request = api.ScheduleRequest{BackupType: api.BackupLogical, Schedule: "once", ServiceID: orders.ID,
		ExternalStorage: &api.ExternalStorage{Bucket: api.ExternalBucket{Path: "s3://acme-exports/orders-mig"}}}
	m.submittedAt = now
	m.step = migWait
	key := hash + ":" + orders.ID + ":pod"
	m.onData(kit.DataMsg{Key: m.backupsKey().String(), Data: []api.Backup{
		{Key: "old:" + orders.ID + ":pod", Bucket: "s3://acme-exports/orders-mig", Status: "Succeeded", StartTime: api.Time{Time: now.Add(-time.Hour)}},
		{Key: key, Bucket: "s3://acme-exports/orders-mig", Type: api.BackupLogical, Method: "mysqldump", Status: "Running", StartTime: api.Time{Time: now}},
	}})
	if m.step != migWait || m.backup == nil || m.backup.Key != key {
		t.Fatalf("waiting on %+v (step %d)", m.backup, m.step)
	}
	m.onData(kit.DataMsg{Key: m.backupsKey().String(), Data: []api.Backup{
		{Key: key, Bucket: "s3://acme-exports/orders-mig", Type: api.BackupLogical, Method: "mysqldump", Status: "Succeeded", StartTime: api.Time{Time: now}},
	}})
	if m.step != migCopy || !m.editing || m.dest.Value() != "" || m.dest.Placeholder != "gs://my-bucket/backups" {
		t.Fatalf("step %d dest %q", m.step, m.dest.Value())
	}
	m.dest.SetValue("gs://acme-gcp")
	m.Update(tuitest.KeyMsg("enter"))
	out := ansi.Strip(m.View())
	if !strings.Contains(out, "gsutil -m rsync -r s3://acme-exports/orders-mig gs://acme-gcp/orders-mig") || !strings.Contains(out, "boto") {
		t.Fatalf("copy step:\n%s", out)
	}
	// e edits the destination, esc stops editing, y copies the command;
	// the help lists those bindings
	if help := kit.HintLine(m.KeyMap().ShortHelp()...); help != "y copy command  enter restore from the copy  e edit destination  esc back to list  d discard migration" {
		t.Errorf("copy step help %q", help)
	}
	m.Update(tuitest.KeyMsg("e"))
	if !m.editing || kit.HintLine(m.KeyMap().ShortHelp()...) != "enter done  esc stop editing" {
		t.Fatalf("e did not edit the destination (help %q)", kit.HintLine(m.KeyMap().ShortHelp()...))
	}
	m.Update(tuitest.KeyMsg("esc"))
	if m.editing || m.step != migCopy {
		t.Fatalf("esc while editing: editing %v step %d", m.editing, m.step)
	}
	if m.Update(tuitest.KeyMsg("y")) == nil {
		t.Fatal("y copied nothing")
	}
	msg := m.Update(tuitest.KeyMsg("enter"))()
	exit, ok := msg.(migrationExitMsg)
	if !ok || exit.restore == nil {
		t.Fatalf("enter gave %#v", msg)
	}
	o := exit.restore
	if o.Source != restoreform.SourceBucket || o.TargetID != gcpSvc.ID || !o.LockTarget ||
		o.Bucket.Bucket != "gs://acme-gcp/" || o.Bucket.File != "orders-mig/"+hash+".sql.gz" ||
		o.Bucket.Method != api.MethodMysqldump || o.Bucket.SourceService != "orders-prod" ||
		!strings.Contains(o.Bucket.Note, "gsutil ls gs://acme-gcp/orders-mig/") {
		t.Fatalf("prefill %+v", o)
	}
	// the screen opens the wizard on the bucket step with those values
	s := newScreen(100, 30)
	s.migrate = m
	s.Update(exit)
	if s.mode != modeWizard || s.wizard.StepName() != "bucket" || s.wizard.TargetID() != gcpSvc.ID {
		t.Fatalf("mode %d", s.mode)
	}
}

// TestMigrationTargetMustBeAnotherProvider: same provider is a normal
// restore; the flow says so.
func TestMigrationTargetMustBeAnotherProvider(t *testing.T) {
	broken := api.Service{ID: "dbtzf00000004", Name: "broken-import", Status: "failed", Provider: "azure", Region: "eastus"}
	m := migrationOf([]api.Service{orders, replica, gcpSvc, broken}, nil)
	m.table.Select(orders.ID)
	m.Update(tuitest.KeyMsg("enter"))
	if m.step != migTarget {
		t.Fatalf("step %d", m.step)
	}
	// the target step starts on a service that can be the target, and
	// marks the others with why not
	if got := m.table.SelectedID(); got != gcpSvc.ID {
		t.Fatalf("the target step starts on %s, want the only possible target %s", got, gcpSvc.ID)
	}
	view := tuitest.View(m.table)
	for _, want := range []string{"target: the source", "target: same provider"} {
		if !strings.Contains(view, want) {
			t.Fatalf("the targets do not say %q:\n%s", want, view)
		}
	}
	// a failed service cannot take a restore: marked, and refused when
	// chosen (before a backup is taken for it)
	if !strings.Contains(tuitest.View(m.table), "target: failed") {
		t.Errorf("the failed service is not marked:\n%s", tuitest.View(m.table))
	}
	m.table.Select(broken.ID)
	m.Update(tuitest.KeyMsg("enter"))
	if m.step != migTarget || !strings.Contains(m.stepErr, "broken-import is failed: a restore needs a ready or stopped service") {
		t.Fatalf("a failed target was accepted: step %d %q", m.step, m.stepErr)
	}
	m.stepErr = ""
	// at 60 columns the title keeps its warning whole, on a second line
	m.SetSize(60, 12)
	if v := tuitest.View(m); !strings.Contains(v, "(provider B; its data will be erased)") {
		t.Errorf("the target step's title at 60 columns:\n%s", v)
	}
	m.SetSize(100, 30)
	m.table.Select(replica.ID)
	m.Update(tuitest.KeyMsg("enter"))
	if m.step != migTarget || !strings.Contains(m.stepErr, "no migration needed") {
		t.Fatalf("same provider accepted: %q", m.stepErr)
	}
}

// TestMigrationCopyHintWhileTyping: while the destination is typed, y is
// a letter of it; the copy step says to press enter first, and following
// what it says copies the command and leaves the destination as typed.
func TestMigrationCopyHintWhileTyping(t *testing.T) {
	m := migrationOf([]api.Service{orders, gcpSvc}, &restoreform.MigrateRequest{Source: orders, Target: gcpSvc})
	m.backup = &api.Backup{Key: hash + ":" + orders.ID + ":pod", Bucket: "s3://acme-exports/orders-mig", Status: "Succeeded"}
	m.toCopy()
	m.dest.SetValue("gs://acme-gcp")
	out := ansi.Strip(m.View())
	if !m.editing || strings.Contains(out, "(y copies it)") || !strings.Contains(out, "(enter, then y copies it)") {
		t.Fatalf("while typing the destination the copy step says:\n%s", out)
	}
	m.Update(tuitest.KeyMsg("enter"))
	if m.Update(tuitest.KeyMsg("y")) == nil || m.dest.Value() != "gs://acme-gcp" {
		t.Fatalf("enter, then y: copied nothing or typed into %q", m.dest.Value())
	}
	if out := ansi.Strip(m.View()); !strings.Contains(out, "(y copies it)") {
		t.Fatalf("after enter the copy step says:\n%s", out)
	}
}

// TestMigrationListsStartOnAChoosableService: each list of the migration
// starts on a service its step can take, when the listing arrives after
// the migration opened and when a step is entered again; a row the user
// moves to stays under the cursor through a refresh.
func TestMigrationListsStartOnAChoosableService(t *testing.T) {
	stopped := api.Service{ID: "dbtaf00000009", Name: "aa-archive", Status: "stopped", Provider: "aws"}
	m := migrationOf(nil, nil)
	m.common.Client, _ = api.New(api.Config{BaseURL: "http://127.0.0.1:1", APIKey: "k"}) // never called
	m.setServices([]api.Service{stopped, orders, replica, gcpSvc})
	if got := m.table.SelectedID(); got != gcpSvc.ID {
		t.Fatalf("the source list starts on %s, want the first ready service %s", got, gcpSvc.ID)
	}
	m.table.Select(stopped.ID)
	m.setServices([]api.Service{stopped, orders, replica, gcpSvc})
	if got := m.table.SelectedID(); got != stopped.ID {
		t.Fatalf("a refresh moved the cursor the user put on %s to %s", stopped.ID, got)
	}
	m.table.Select(orders.ID)
	m.Update(tuitest.KeyMsg("enter"))
	m.Update(tuitest.KeyMsg("enter")) // the target: analytics-gcp
	if m.step != migBackup || m.dstID != gcpSvc.ID {
		t.Fatalf("step %d, target %q", m.step, m.dstID)
	}
	// back to the target step after the target became pending
	m.Update(backupform.CancelMsg{Form: m.form, Draft: m.form.Draft()})
	pending := gcpSvc
	pending.Status = "pending_modifying"
	m.setServices([]api.Service{stopped, orders, replica, pending})
	m.Update(tuitest.KeyMsg("esc"))
	if m.step != migSource || m.table.SelectedID() != orders.ID {
		t.Fatalf("back to the source: step %d on %s, want %s", m.step, m.table.SelectedID(), orders.ID)
	}
	m.Update(tuitest.KeyMsg("enter"))
	if got := m.table.SelectedID(); m.step != migTarget || got == gcpSvc.ID {
		t.Fatalf("the target step starts on %s, which cannot be the target now", got)
	}
}

// TestMigrationLeftIsBroughtBack: a migration left before its backup (esc
// from its first list) is kept: m brings it back as it was, with the
// source chosen and the backup form's draft, instead of a new one.
func TestMigrationLeftIsBroughtBack(t *testing.T) {
	s := newScreen(120, 30)
	feed(s, listing())
	press(s, "m")
	m := s.migrate
	press(s, "enter") // the source under the cursor
	src := m.srcID
	if m.step != migTarget || src == "" {
		t.Fatalf("enter on a source: step %d, source %q", m.step, src)
	}
	press(s, "esc") // back to the sources
	exit := press(s, "esc")
	if exit == nil {
		t.Fatal("esc on the first list does not leave the migration")
	}
	_, cmd := s.Update(exit())
	if s.mode != modeList {
		t.Fatalf("after leaving, mode %v", s.mode)
	}
	if cmd == nil {
		t.Fatal("leaving the migration says nothing")
	}
	if msg, ok := cmd().(kit.ToastMsg); !ok || !strings.Contains(msg.Text, "m brings back what you chose") {
		t.Fatalf("leaving the migration says %#v", msg)
	}
	press(s, "m")
	if s.migrate != m || s.mode != modeMigrate || m.srcID != src {
		t.Fatalf("m after leaving: same migration %v, mode %v, source %q (was %q)", s.migrate == m, s.mode, m.srcID, src)
	}
}

// TestReadOnlyDeleteRefusedAtTheKey: d on a read-only profile says the
// profile is read-only, whatever the restore's state.
func TestReadOnlyDeleteRefusedAtTheKey(t *testing.T) {
	s := newScreen(120, 30)
	s.common.ReadOnly = true
	feed(s, listing())
	cmd := press(s, "d")
	if cmd == nil {
		t.Fatal("d on a read-only profile says nothing")
	}
	if msg, ok := cmd().(kit.ToastMsg); !ok || !strings.Contains(msg.Text, "read-only") {
		t.Fatalf("d on a read-only profile: %#v", msg)
	}
}

// atCopy is a screen showing a migration from orders to analytics-gcp at
// its copy step, the destination typed.
func atCopy(t *testing.T) (*Screen, *migration) {
	t.Helper()
	s := newScreen(120, 30)
	feed(s, listing())
	m := newMigration(s.common, s.svcList, &restoreform.MigrateRequest{Source: orders, Target: gcpSvc})
	m.backup = &api.Backup{Key: hash + ":" + orders.ID + ":pod", Bucket: "s3://acme-exports/orders-mig", Status: "Succeeded", Type: api.BackupLogical}
	m.toCopy()
	m.dest.SetValue("gs://acme-gcp")
	s.migrate, s.mode = m, modeMigrate
	m.SetSize(s.Size())
	press(s, "enter") // done typing
	return s, m
}

// run runs cmd and hands what it answers (batches and sequences too) to
// s, a few rounds deep.
func run(s *Screen, cmd tea.Cmd) {
	tuitest.RunCmds(func(msg tea.Msg) tea.Cmd { _, next := s.Update(msg); return next }, cmd, 4)
}

// TestEscFromTheMigrationsRestoreGoesBackToIt: the restore the migration
// opens is left with esc back to the migration's copy step (kept, with
// its wizard: enter reopens it as it was), never into n's draft; n then
// opens a wizard of its own, on its first step.
func TestEscFromTheMigrationsRestoreGoesBackToIt(t *testing.T) {
	s, m := atCopy(t)
	run(s, press(s, "enter"))
	if s.mode != modeWizard || s.wizard == nil || s.wizard.StepName() != "bucket" {
		t.Fatalf("enter at the copy step: mode %d", s.mode)
	}
	w := s.wizard
	for i := 0; i < 5 && s.mode == modeWizard; i++ {
		run(s, press(s, "esc"))
	}
	if s.mode != modeMigrate || s.migrate != m || m.step != migCopy {
		t.Fatalf("esc from the migration's restore: mode %d, migration kept %v", s.mode, s.migrate == m)
	}
	if s.draft != nil {
		t.Fatal("the migration's restore became n's draft")
	}
	run(s, press(s, "enter"))
	if s.mode != modeWizard || s.wizard != w {
		t.Fatalf("enter again at the copy step: mode %d, same wizard %v", s.mode, s.wizard == w)
	}
	for i := 0; i < 5 && s.mode == modeWizard; i++ {
		run(s, press(s, "esc"))
	}
	run(s, press(s, "esc")) // the copy step, back to the list
	if s.mode != modeList || s.migrate != m {
		t.Fatalf("esc at the copy step: mode %d, migration kept %v", s.mode, s.migrate == m)
	}
	press(s, "n")
	if s.mode != modeWizard || s.wizard == w || s.wizard.StepName() == "bucket" {
		t.Fatalf("n after the migration's restore: same wizard %v, step %q", s.wizard == w, s.wizard.StepName())
	}
	run(s, press(s, "esc"))
	press(s, "m")
	if s.mode != modeMigrate || s.migrate != m || m.step != migCopy {
		t.Fatalf("m after all that: mode %d, same migration %v", s.mode, s.migrate == m)
	}
}

// TestMigrationLeftFromItsFormComesBackDrawn: a migration from a restore's
// refusal left with esc in its backup form comes back with m drawn at
// once, the form's draft kept, and the first key acts in the form.
func TestMigrationLeftFromItsFormComesBackDrawn(t *testing.T) {
	s := newScreen(120, 30)
	feed(s, listing())
	run(s, s.openMigration(&restoreform.MigrateRequest{Source: orders, Target: gcpSvc}))
	m := s.migrate
	if m.form == nil {
		t.Fatal("the migration from a refusal does not open its form")
	}
	cmd := press(s, "esc")
	for i := 0; i < 3 && cmd != nil && s.mode == modeMigrate; i++ {
		msg := cmd()
		_, cmd = s.Update(msg)
		if _, ok := msg.(migrationExitMsg); ok {
			break
		}
	}
	if s.mode != modeList || s.migrate != m || m.form != nil {
		t.Fatalf("esc in the form: mode %d, kept %v", s.mode, s.migrate == m)
	}
	m.draft.Type = api.BackupPhysical // as if chosen before esc
	run(s, press(s, "m"))
	if m.form == nil || !strings.Contains(view(s), "Step 1 of 3: type") || !strings.Contains(view(s), "> physical") {
		t.Fatalf("m brings back an empty migration, or not its draft:\n%s", view(s))
	}
	press(s, "up")
	if strings.Contains(view(s), "> physical") {
		t.Fatalf("the first key after m did nothing in the form:\n%s", view(s))
	}
}

// TestMigrationDestinationPastedWhole: the copy step's destination holds
// no prefilled scheme (its placeholder shows it): a whole URL pasted is
// the destination, not "gs://gs://…".
func TestMigrationDestinationPastedWhole(t *testing.T) {
	m := migrationOf([]api.Service{orders, gcpSvc}, &restoreform.MigrateRequest{Source: orders, Target: gcpSvc})
	m.backup = &api.Backup{Key: hash + ":" + orders.ID + ":pod", Bucket: "s3://acme-exports/orders-mig", Status: "Succeeded"}
	m.toCopy()
	if !strings.Contains(ansi.Strip(m.View()), "gs://my-bucket/backups") {
		t.Errorf("the destination's placeholder does not show the target's scheme:\n%s", ansi.Strip(m.View()))
	}
	m.Update(tea.PasteMsg{Content: "gs://acme-gcp/orders"})
	if got := m.dest.Value(); got != "gs://acme-gcp/orders" {
		t.Fatalf("pasted gs://acme-gcp/orders, the destination is %q", got)
	}
}

// A name pasted on the Restores screen goes where typed text would: into
// the wizard's and the migration's lists (through the screen's Update,
// as the root hands a paste to the screen).

// TestPasteIntoTheWizardsTargets: n, managed storage, then a paste into
// the target list filters it at once.
func TestPasteIntoTheWizardsTargets(t *testing.T) {
	s := newScreen(120, 30)
	feed(s, listing())
	press(s, "n")
	press(s, "1")
	s.Update(tea.PasteMsg{Content: "replica"})
	if got := s.wizard.StepName(); got != "target" {
		t.Fatalf("step %s, want the target", got)
	}
	if v := view(s); !containsAll(v, "/replica", "1 of 3") {
		t.Fatalf("the paste is not the target list's filter:\n%s", v)
	}
}

// TestPasteIntoTheMigrationsLists: m, then a paste into the source list
// and one into the target list (after "/") filter them, and enter
// chooses the row each leaves.
func TestPasteIntoTheMigrationsLists(t *testing.T) {
	s := newScreen(120, 30)
	feed(s, listing())
	press(s, "m")
	if s.migrate == nil {
		t.Fatal("m did not open the migration")
	}
	m := s.migrate
	s.Update(tea.PasteMsg{Content: "orders"})
	if m.table.Filter() != "orders" || m.table.SelectedID() != orders.ID {
		t.Fatalf("pasted orders into the sources: filter %q, on %q\n%s", m.table.Filter(), m.table.SelectedID(), view(s))
	}
	press(s, "enter")
	if m.step != migTarget || m.srcID != orders.ID {
		t.Fatalf("enter after the paste: step %d, source %q", m.step, m.srcID)
	}
	press(s, "/")
	s.Update(tea.PasteMsg{Content: "gcp"})
	if m.table.Filter() != "gcp" || m.table.SelectedID() != gcpSvc.ID {
		t.Fatalf("pasted gcp into the targets: filter %q, on %q\n%s", m.table.Filter(), m.table.SelectedID(), view(s))
	}
}

// TestMigrationFilterLandsOnAChoosableService: at the target step, with
// the cursor moved onto a service that cannot be the target, a name
// typed that keeps it moves the cursor to the first one that can.
func TestMigrationFilterLandsOnAChoosableService(t *testing.T) {
	m := migrationOf([]api.Service{orders, replica, gcpSvc}, nil)
	m.table.Select(orders.ID)
	m.Update(tuitest.KeyMsg("enter"))
	if m.step != migTarget {
		t.Fatalf("step %d, want the target", m.step)
	}
	m.table.Select(replica.ID) // same provider as the source: cannot be the target
	for _, k := range tuitest.Typed("dbt") {
		m.Update(k)
	}
	if m.table.Filter() != "dbt" || m.table.Len() != 3 || m.table.SelectedID() != gcpSvc.ID {
		t.Fatalf("typed dbt: filter %q, %d rows, on %q, want %s", m.table.Filter(), m.table.Len(), m.table.SelectedID(), gcpSvc.ID)
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// TestMigrationBackupGoesToYourOwnBucket: the migration's backup form
// refuses managed storage at its review, saying why (a managed backup
// restores only within the source's provider), and enter sends nothing;
// the migration stays at its backup.
func TestMigrationBackupGoesToYourOwnBucket(t *testing.T) {
	s := newScreen(120, 40)
	feed(s, listing())
	run(s, s.openMigration(&restoreform.MigrateRequest{Source: orders, Target: gcpSvc}))
	m := s.migrate
	for i := 0; i < 3 && !strings.Contains(view(s), "Step 3 of 3: destination"); i++ {
		run(s, press(s, "enter"))
	}
	if !strings.Contains(view(s), "Step 3 of 3: destination") {
		t.Fatalf("not at the destination:\n%s", view(s))
	}
	run(s, press(s, "up")) // managed storage
	run(s, press(s, "enter"))
	out := strings.Join(strings.Fields(ansi.Strip(view(s))), " ")
	want := "destination: must be your own bucket: a backup in managed storage restores only within aws, and analytics-gcp runs on gcp"
	if !strings.Contains(out, want) || !strings.Contains(out, "e to edit destination") {
		t.Fatalf("managed storage not refused with why:\n%s", view(s))
	}
	// refused here: no enter offered, nothing promised to start
	if f := kit.HintLine(s.KeyMap().ShortHelp()...); strings.Contains(f, "submit") || strings.Contains(out, "Starts now") {
		t.Fatalf("a refused review offers enter or says it starts (footer %q):\n%s", f, view(s))
	}
	run(s, press(s, "enter"))
	if m.step != migBackup || m.submitting {
		t.Fatalf("enter sent the backup to managed storage: step %d", m.step)
	}
}

// TestMigrationCopyNeedsTheBackupsPath: a backup whose bucket path is not
// known gives no copy command (it had one with an empty source), and
// enter opens no restore from a bucket; the step says why.
func TestMigrationCopyNeedsTheBackupsPath(t *testing.T) {
	m := migrationOf([]api.Service{orders, gcpSvc}, &restoreform.MigrateRequest{Source: orders, Target: gcpSvc})
	m.backup = &api.Backup{Key: hash + ":" + orders.ID + ":pod", Status: "Succeeded"}
	m.toCopy()
	out := strings.Join(strings.Fields(ansi.Strip(m.View())), " ")
	if strings.Contains(out, "gsutil") || strings.Contains(out, "''") || !strings.Contains(out, "nothing to copy") {
		t.Fatalf("copy step without the backup's path:\n%s", m.View())
	}
	m.Update(tuitest.KeyMsg("e"))
	m.dest.SetValue("gs://acme-gcp")
	if cmd := m.Update(tuitest.KeyMsg("enter")); cmd != nil {
		t.Fatalf("enter without the backup's path gave %#v", cmd())
	}
	if cmd := m.Update(tuitest.KeyMsg("y")); cmd == nil {
		t.Fatal("y says nothing without the backup's path")
	} else if toast, ok := cmd().(kit.ToastMsg); !ok || !strings.Contains(toast.Text, "nothing to copy") {
		t.Fatalf("y without the backup's path: %#v", cmd())
	}
	if !strings.Contains(m.stepErr, "nothing to copy") {
		t.Fatalf("no reason said: %q", m.stepErr)
	}
	if help := kit.HintLine(m.KeyMap().ShortHelp()...); strings.Contains(help, "copy") || strings.Contains(help, "restore") {
		t.Errorf("the footer offers what cannot be done: %q", help)
	}
}

// TestMigrationKeysOutsideFields: where nothing is typed (the wait, the
// copy step) the migration leaves the root its keys — ? opens the help,
// and an error's hint gives L and X, not "out of the field" — while its
// lists (a name typed filters) and the destination being edited keep
// every key. A failed backup is taken again with b (r is refresh).
func TestMigrationKeysOutsideFields(t *testing.T) {
	s, m := atCopy(t)
	if s.CapturesKeys() {
		t.Error("the copy step takes every key: ? does not open the help")
	}
	press(s, "e")
	if !s.CapturesKeys() {
		t.Error("the destination being edited does not take every key")
	}
	press(s, "esc")
	m.step, m.backup = migWait, &api.Backup{Key: hash + ":" + orders.ID + ":pod", Bucket: "s3://acme-exports/orders-mig", Status: "Running"}
	if s.CapturesKeys() {
		t.Error("the wait step takes every key: its error line says out of the field")
	}
	m.onBackup(&api.Backup{Key: hash + ":" + orders.ID + ":pod", Bucket: "s3://acme-exports/orders-mig", Status: "Failed"})
	if help := kit.HintLine(m.KeyMap().ShortHelp()...); !strings.Contains(help, "b back up again") || !strings.Contains(m.stepErr, "b takes it again") {
		t.Errorf("after a failed backup: footer %q, said %q", help, m.stepErr)
	}
	press(s, "b")
	if m.step != migBackup {
		t.Errorf("b after a failed backup: step %d", m.step)
	}
	m.step = migSource
	if !s.CapturesKeys() {
		t.Error("the source list does not take every key: a name typed is not its filter")
	}
}

// TestMigrationDiscarded: d at the copy step asks yes/no, saying the
// backup stays in its bucket; after the yes the migration is forgotten
// (the list shows, m starts a new one), and a backup still followed is
// followed no more.
func TestMigrationDiscarded(t *testing.T) {
	s, m := atCopy(t)
	m.schedule = &api.Schedule{BackupID: hash + ":" + orders.ID + ":pod"}
	if help := kit.HintLine(s.KeyMap().ShortHelp()...); !strings.Contains(help, "d discard migration") {
		t.Errorf("the copy step's footer does not offer d: %q", help)
	}
	cmd := press(s, "d")
	if cmd == nil {
		t.Fatal("d at the copy step does nothing")
	}
	req, ok := cmd().(kit.ActionRequestMsg)
	if !ok {
		t.Fatalf("d gave %#v", cmd())
	}
	a := req.Action
	if a.Confirm.Kind != kit.ConfirmYesNo || !strings.Contains(a.Confirm.Detail, "its backup stays in s3://acme-exports/orders-mig") ||
		a.Mutating || a.Run != nil || len(a.Ends) != 1 || a.Ends[0] != migWatchKey(m.schedule.BackupID) {
		t.Fatalf("discard asks %+v", a)
	}
	if s.migrate != m {
		t.Fatal("the migration is gone before the yes")
	}
	s.Update(kit.ActionDoneMsg{Name: a.Name, Tag: a.Tag, Err: kit.ErrCancelled})
	if s.migrate != m || s.mode != modeMigrate {
		t.Fatal("a no discarded the migration")
	}
	s.Update(kit.ActionDoneMsg{Name: a.Name, Tag: a.Tag})
	if s.migrate != nil || s.mode != modeList {
		t.Fatalf("after the yes: migration kept %v, mode %d", s.migrate != nil, s.mode)
	}
	press(s, "m")
	if s.migrate == nil || s.migrate == m || s.migrate.step != migSource {
		t.Fatal("m after the discard does not start a new migration")
	}
}

// TestBucketRestoreDetailSaysTheBackupsCredentials: a restore from a
// file in your own bucket that succeeded says the target's username and
// password are now the backup's: it names no source service (it said
// "those of the source service").
func TestBucketRestoreDetailSaysTheBackupsCredentials(t *testing.T) {
	s := newScreen(160, 40)
	feed(s, []api.Restore{{ID: 4, ServiceID: replica.ID, Bucket: "s3://acme-exports/", Key: "exports/orders.sql.gz", Type: "logical",
		Status: "Succeeded", CreatedAt: api.Time{Time: now.Add(-time.Hour)}}})
	press(s, "enter")
	out := strings.Join(strings.Fields(view(s)), " ")
	if !strings.Contains(out, "are now the backup's.") || strings.Contains(out, "source service") {
		t.Fatalf("the detail names a source service:\n%s", view(s))
	}
}

// TestHelpListsAllServicesKey: ? lists a (every service's restores)
// whether or not one service is shown; the footer only while narrowed,
// and a pressed unnarrowed says the list shows every service already.
func TestHelpListsAllServicesKey(t *testing.T) {
	s := newScreen(160, 20)
	feed(s, listing())
	full := func() string { return fullHelp(s) }
	if !strings.Contains(full(), "a all services") {
		t.Errorf("? does not list a: %q", full())
	}
	if short := kit.HintLine(s.KeyMap().ShortHelp()...); strings.Contains(short, "a all services") {
		t.Errorf("the footer offers a while every service is shown: %q", short)
	}
	cmd := press(s, "a")
	if cmd == nil {
		t.Fatal("a with every service shown says nothing")
	}
	if msg, ok := cmd().(kit.ToastMsg); !ok || !strings.Contains(msg.Text, "every service's restores are shown already") {
		t.Fatalf("a unnarrowed: %#v", msg)
	}
	s.Open(gcpSvc.Name)
	if short := kit.HintLine(s.KeyMap().ShortHelp()...); !strings.Contains(short, "a all services") || !strings.Contains(full(), "a all services") {
		t.Errorf("narrowed: footer %q, help %q", short, full())
	}
}

// fullHelp is what ? lists of s's keys, as one hint line.
func fullHelp(s *Screen) string {
	var bs []key.Binding
	for _, col := range s.KeyMap().FullHelp() {
		bs = append(bs, col...)
	}
	return kit.HintLine(bs...)
}

// TestDeleteLeavesTheFooterOnAFinishedRestore: the footer offers d only
// on a restore that can be deleted (not finished); ? lists it always.
func TestDeleteLeavesTheFooterOnAFinishedRestore(t *testing.T) {
	s := newScreen(160, 20)
	feed(s, listing())
	for _, c := range []struct {
		id    string
		offer bool
	}{{"1", false}, {"2", true}} {
		s.Table.Select(c.id)
		if short := kit.HintLine(s.KeyMap().ShortHelp()...); strings.Contains(short, "d delete") != c.offer {
			t.Errorf("restore %s (offered: %v): footer %q", c.id, c.offer, short)
		}
		if !strings.Contains(fullHelp(s), "d delete") {
			t.Errorf("restore %s: ? does not list d: %q", c.id, fullHelp(s))
		}
	}
}

// TestDetailBackupKeyBreaksAtItsColons: the detail's backup key wider
// than its line breaks only after its colons, as the backups' detail and
// the wizard's confirmation do (it broke inside the service ID).
func TestDetailBackupKeyBreaksAtItsColons(t *testing.T) {
	s := newScreen(60, 50)
	feed(s, listing())
	for !strings.HasPrefix(row(t, s, "1"), ">") {
		press(s, "j")
	}
	press(s, "enter")
	var parts []string
	in := false
	for _, l := range strings.Split(view(s), "\n") {
		f := strings.Fields(strings.Trim(l, "│ "))
		switch {
		case len(f) == 3 && f[0] == "Backup" && f[1] == "key":
			in, parts = true, append(parts, f[2])
		case in && len(f) == 1:
			parts = append(parts, f[0])
		default:
			in = false
		}
	}
	key := listing()[0].Key
	if strings.Join(parts, "") != key || len(parts) < 2 {
		t.Fatalf("the backup key reads %q, want %q cut in lines:\n%s", parts, key, view(s))
	}
	for _, p := range parts[:len(parts)-1] {
		if !strings.HasSuffix(p, ":") {
			t.Errorf("the key breaks inside a part: %q", parts)
		}
	}
}

// TestPointInTimeLabelFollowsItsRestore: the "point in time (submitted
// here)" label belongs to the restore accepted under that ID, its target
// and backup: another restore listed later under the same ID (a server
// reset starts IDs again) is shown as what it is.
func TestPointInTimeLabelFollowsItsRestore(t *testing.T) {
	s := newScreen(120, 30)
	s.pointInTime[9] = pointInTime{at: "2026-11-24 11:00:00", of: "orders-prod", target: orders.ID}
	pit := api.Restore{ID: 9, ServiceID: orders.ID, Status: "Running"}
	if got := s.sourceText(&pit); got != "orders-prod at 2026-11-24 11:00:00 UTC" {
		t.Fatalf("the restore submitted here: %q", got)
	}
	other := api.Restore{ID: 9, ServiceID: replica.ID, Key: hash + ":" + orders.ID + ":pod", Status: "Running"}
	if got := s.sourceKind(&other); got != "managed storage" {
		t.Fatalf("another restore under the same ID is said to be %q", got)
	}
}

// TestSharedNameChoosesNothing: ":restores NAME" where two services have
// that name narrows to neither, saying their IDs.
func TestSharedNameChoosesNothing(t *testing.T) {
	s := newScreen(120, 30)
	twin := orders
	twin.ID = "dbtaf00000099"
	s.Update(kit.DataMsg{Key: kit.ServicesKey.String(), Data: []api.Service{orders, twin, replica, gcpSvc}})
	msg := s.Open(orders.Name)()
	if tm, ok := msg.(kit.ToastMsg); !ok || tm.Level != kit.ToastWarn || !strings.Contains(tm.Text, `2 services are named "orders-prod" (`+orders.ID+", "+twin.ID+`): give its ID`) {
		t.Fatalf(":restores orders-prod: %#v", msg)
	}
	if s.svcFilter != "" {
		t.Fatalf("a shared name narrowed to %s", s.svcFilter)
	}
	s.Open(twin.ID)
	if s.svcFilter != twin.ID || !strings.Contains(view(s), "service: orders-prod ("+twin.ID+")") {
		t.Fatalf("by ID: %q\n%s", s.svcFilter, view(s))
	}
}
