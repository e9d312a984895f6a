package restoreform

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/tuitest"
)

// The restore wizard and its confirmation, driven key by key against the
// sandbox (demo data on a manual clock).

type rtEnv struct {
	srv    *sandbox.Server
	client *api.Client
	common *kit.Common
	byName map[string]api.Service
}

func rtSetup(t *testing.T, withSecrets bool) *rtEnv {
	t.Helper()
	srv, _, c := tuitest.SandboxWith(t, sandbox.Options{APIKey: "k", DemoData: true, Seed: 7})
	e := &rtEnv{srv: srv, client: c, byName: map[string]api.Service{}}
	e.common = tuitest.Common()
	e.common.Client = c
	if withSecrets {
		e.common.Secrets = tuitest.Secrets(t, "rt")
	}
	svcs, err := c.ListServices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range svcs {
		e.byName[s.Name] = s
	}
	return e
}

func (e *rtEnv) services() []api.Service {
	out := make([]api.Service, 0, len(e.byName))
	for _, s := range e.byName {
		out = append(out, s)
	}
	return out
}

func (e *rtEnv) wizard(t *testing.T, o Options) *Wizard {
	t.Helper()
	o.Services = e.services()
	o.Origin = "restores"
	w := New(e.common, o)
	w.SetSize(120, 40)
	rtRun(w, w.Init())
	return w
}

// rtRun executes a command like the program would: batches and sequences
// flattened, the wizard's own messages fed back, the rest returned.
func rtRun(w *Wizard, cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	switch m := msg.(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		// a batch's commands run concurrently, in no order: last first
		// here, so a test cannot lean on the order they are written in
		var out []tea.Msg
		for _, c := range slices.Backward(m) {
			out = append(out, rtRun(w, c)...)
		}
		return out
	case secretsMsg, backupIDMsg:
		return rtRun(w, w.Update(m))
	}
	if cmds, ok := tuitest.Sequence(msg); ok {
		var out []tea.Msg
		for _, c := range cmds {
			out = append(out, rtRun(w, c)...)
		}
		return out
	}
	if strings.Contains(reflect.TypeOf(msg).PkgPath(), "bubbles") {
		return nil // cursor blinks
	}
	return []tea.Msg{msg}
}

func rtPress(w *Wizard, keys ...string) []tea.Msg {
	var out []tea.Msg
	for _, k := range keys {
		out = append(out, rtRun(w, w.Update(tuitest.KeyMsg(k)))...)
	}
	return out
}

func rtType(w *Wizard, s string) {
	for _, k := range tuitest.Typed(s) {
		rtRun(w, w.Update(k))
	}
}

// rtFeedBackups answers the wizard's backup listing like the engine would.
func (e *rtEnv) feedBackups(t *testing.T, w *Wizard) {
	t.Helper()
	res := w.Resources()
	if len(res) != 1 {
		t.Fatalf("the backup step asks for %d resources", len(res))
	}
	data, err := res[0].Fetch(context.Background())
	if !w.OnData(kit.DataMsg{Key: res[0].Key, Data: data, Err: err}) {
		t.Fatal("the wizard did not take its listing")
	}
}

func rtView(w *Wizard) string { return tuitest.View(w) }

func rtAction(t *testing.T, msgs []tea.Msg) (kit.Action, DoneMsg) {
	t.Helper()
	var a *kit.Action
	var done *DoneMsg
	for _, m := range msgs {
		switch m := m.(type) {
		case kit.ActionRequestMsg:
			a = &m.Action
		case DoneMsg:
			if a != nil {
				// the host would take an answer that came first for
				// no submit at all, and keep the Submitting row after it
				t.Fatal("the action is requested before its host hears of the submit")
			}
			done = &m
		}
	}
	if a == nil || done == nil {
		t.Fatalf("submit produced %#v", msgs)
	}
	return *a, *done
}

// TestRestoreConfirmTypeName: the Restore button is disabled until the
// target's exact name is typed; focus starts in the input and tab reaches
// Back first, so the cursor is never on Restore without a choice.
func TestRestoreConfirmTypeName(t *testing.T) {
	c := tuitest.Common()
	target := api.Service{ID: "dbtaf00000001", Name: "orders-prod", Status: "ready", Provider: "aws"}
	cf := NewConfirm(c, target, "backup x", "orders-prod", "{}")
	cf.SetSize(80, 30)
	if cf.OnRestore() {
		t.Fatal("the cursor starts on Restore")
	}
	upd := func(k string) ConfirmAnswer {
		a, _ := cf.Update(tuitest.KeyMsg(k))
		return a
	}
	typeText := func(s string) {
		for _, k := range tuitest.Typed(s) {
			cf.Update(k)
		}
	}
	// a wrong name: enter does not confirm, tab never lands on Restore
	typeText("orders-pro")
	if cf.Matches() || upd("enter") != ConfirmPending {
		t.Fatal("a partial name confirmed")
	}
	if !strings.Contains(tuitest.View(cf), "does not match: type the name exactly (orders-prod)") {
		t.Fatalf("no mismatch message:\n%s", tuitest.View(cf))
	}
	for range 5 {
		upd("tab")
		if cf.OnRestore() {
			t.Fatal("tab reached the disabled Restore button")
		}
	}
	if !strings.Contains(tuitest.View(cf), "[ Restore: type the name first ]") {
		t.Fatal("the disabled button does not say why")
	}
	// back to the input (the focus cycles input -> Back -> input)
	for cf.focus != confirmFocusInput {
		upd("tab")
	}
	// the same name in other case is not the name
	cf.Reset()
	typeText("ORDERS-PROD")
	if cf.Matches() {
		t.Fatal("the name matched in another case")
	}
	cf.Reset()
	typeText("orders-prod")
	if !cf.Matches() || !strings.Contains(tuitest.View(cf), "[ Restore and erase orders-prod ]") {
		t.Fatal("the right name did not enable Restore")
	}
	if cf.OnRestore() {
		t.Fatal("typing moved the cursor to Restore")
	}
	upd("tab")
	if cf.OnRestore() {
		t.Fatal("the first tab went to Restore, not Back")
	}
	upd("tab")
	if !cf.OnRestore() {
		t.Fatal("tab does not reach the enabled Restore")
	}
	// editing is not possible from the buttons; enter on Restore confirms
	if upd("enter") != ConfirmYes {
		t.Fatal("enter on the enabled Restore did not confirm")
	}
	// enter in the input with the right name confirms; esc goes back
	cf.Reset()
	typeText("orders-prod")
	if upd("enter") != ConfirmYes {
		t.Fatal("enter with the name typed did not confirm")
	}
	if upd("esc") != ConfirmBack {
		t.Fatal("esc does not go back")
	}
	// paste works in the input
	cf.Reset()
	cf.Update(tea.PasteMsg{Content: "orders-prod"})
	if !cf.Matches() {
		t.Fatal("a pasted name does not count")
	}
}

// TestRestoreConfirmSaysWhatHappens: the confirmation names the target
// with its status, and says the three effects of the interface document.
func TestRestoreConfirmSaysWhatHappens(t *testing.T) {
	c := tuitest.Common()
	target := api.Service{ID: "dbtgf00000002", Name: "dev-db", Status: "pending_modifying", Provider: "gcp", Region: "us-east4"}
	cf := NewConfirm(c, target, "backup abc of prod-db", "prod-db", `{"service_id":"dbtgf00000002"}`)
	cf.SetSize(100, 40)
	out := tuitest.View(cf)
	for _, want := range []string{
		"This erases ALL data in dev-db.",
		"dev-db (dbtgf00000002)  gcp/us-east4  status: pending_modifying",
		"! dev-db is pending_modifying: the API may refuse",
		"dev-db is stopped if it is running",
		"all data in dev-db is erased and replaced by the backup's",
		"its default username and password are replaced by those of prod-db",
		`POST /backup/v1/restores {"service_id":"dbtgf00000002"}`,
		"Type dev-db to confirm:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("confirmation lacks %q:\n%s", want, out)
		}
	}
	// on a short terminal the input and the buttons stay
	cf = NewConfirm(c, target, "backup abc of prod-db", "prod-db", strings.Repeat(`{"x":1}`, 40))
	cf.SetSize(60, 14)
	short := tuitest.View(cf)
	if !strings.Contains(short, "Type dev-db to confirm:") || !strings.Contains(short, "[ Back ]") {
		t.Fatalf("a short terminal lost the input:\n%s", short)
	}
}

// TestRestoreConfirmRequestWrapsBetweenMembers: at 60 columns the
// request shown by the confirmation breaks between its members, never
// inside a string: the point-in-time restore's moment "2026-11-24
// 10:00:00" stays whole; a backup restore's key, longer than a line,
// breaks only at the colons between its parts.
func TestRestoreConfirmRequestWrapsBetweenMembers(t *testing.T) {
	c := tuitest.Common()
	target := api.Service{ID: "dbtaf65932198", Name: "legacy-batch", Status: "stopped", Provider: "aws", Region: "eu-west-1"}
	key := "40338a2852e1e4494db86220225f466c:dbtgf08521099:dbtgf08521099-mdb-ms-0"
	for _, tc := range []struct {
		what, req string
		want      []string
	}{
		{"point in time", `{"service_id":"dbtaf65932198","id":"dbtaf85489797","point_in_time":"2026-11-24 10:00:00"}`, []string{
			`POST /backup/v1/restores {"service_id":"dbtaf65932198",`,
			`"id":"dbtaf85489797",`,
			`"point_in_time":"2026-11-24 10:00:00"}`,
		}},
		{"backup", `{"service_id":"dbtaf65932198","key":"` + key + `"}`, []string{
			`POST /backup/v1/restores {"service_id":"dbtaf65932198",`,
			`"key":"40338a2852e1e4494db86220225f466c:dbtgf08521099:`,
			`dbtgf08521099-mdb-ms-0"}`,
		}},
	} {
		got := requestShown(c, target, tc.req, 60)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: the request reads\n%s\nwant\n%s", tc.what, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// requestShown is the request as the confirmation of req into target
// shows it w columns wide, tall enough for all of it: its lines, trimmed.
func requestShown(c *kit.Common, target api.Service, req string, w int) []string {
	cf := NewConfirm(c, target, "orders-prod as it was", "orders-prod", req)
	cf.SetSize(w, 60)
	var got []string
	for _, l := range strings.Split(tuitest.View(cf), "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "POST ") || len(got) > 0 && l != "" {
			got = append(got, l)
		} else if len(got) > 0 {
			break
		}
	}
	return got
}

// TestRestoreConfirmKeyBreaksOnlyAtColons: at every width from 40 to 90
// columns the backup's key in the request breaks only after its colons
// (README), never at the hyphens of its last part (at 68 it read
// "…:dbtgf08521099-" then "mdb-ms-0").
func TestRestoreConfirmKeyBreaksOnlyAtColons(t *testing.T) {
	c := tuitest.Common()
	target := api.Service{ID: "dbtaf65932198", Name: "legacy-batch", Status: "stopped", Provider: "aws"}
	key := "40338a2852e1e4494db86220225f466c:dbtgf08521099:dbtgf08521099-mdb-ms-0"
	for w := 40; w <= 90; w++ {
		got := requestShown(c, target, `{"service_id":"dbtaf65932198","key":"`+key+`"}`, w)
		text, line := strings.Join(got, ""), 0
		for _, l := range got {
			line = max(line, len(l))
		}
		// each break inside the key is after a colon, or inside a part
		// wider than a line
		from, at := strings.Index(text, key), 0
		for _, l := range got[:len(got)-1] {
			at += len(l)
			if in := at - from; in > 0 && in < len(key) && key[in-1] != ':' {
				start := strings.LastIndex(key[:in], ":") + 1
				end := in + strings.Index(key[in:]+":", ":")
				if end-start < line {
					t.Errorf("%d columns: the key breaks inside %q:\n%s", w, key[start:end], strings.Join(got, "\n"))
				}
			}
		}
	}
}

// TestRestoreConfirmScrollsOnAShortTerminal: at 60x16 the whole
// explanation does not fit between the warning and the name to type; the
// line under it says how much is below, pgdown shows what happens and the
// request, pgup goes back, what was typed stays, and a refusal of the
// previous attempt opens the explanation (a long one scrolls with it:
// TestConfirmLongRefusalScrollsTheNameStays).
func TestRestoreConfirmScrollsOnAShortTerminal(t *testing.T) {
	c := tuitest.Common()
	target := api.Service{ID: "dbtaf85489797", Name: "orders-prod", Status: "ready", Provider: "aws", Region: "us-east-1"}
	cf := NewConfirm(c, target, "backup eae63e254f91 of orders-prod (incremental, 27m ago, 2.5 GiB) from managed storage",
		"orders-prod", `{"service_id":"dbtaf85489797","key":"eae63e254f91"}`)
	cf.SetSize(60, 12) // the wizard's body at 60x16
	for _, k := range tuitest.Typed("orders") {
		cf.Update(k)
	}
	view := func() string { return tuitest.View(cf) }
	first := view()
	if n := strings.Count(first, "\n") + 1; n > 12 {
		t.Fatalf("%d lines in a 12-line area:\n%s", n, first)
	}
	for _, want := range []string{"This erases ALL data in orders-prod.", "status: ready", "more lines", "Type orders-prod to confirm:", "> orders", "[ Back ]"} {
		if !strings.Contains(first, want) {
			t.Errorf("the short confirmation lacks %q:\n%s", want, first)
		}
	}
	if strings.Contains(first, "is erased and replaced") {
		t.Fatalf("the test needs an explanation that does not fit:\n%s", first)
	}
	if keys := fmt.Sprint(cf.Keys()); !cf.Cut() || !strings.Contains(keys, "pgdn/pgup") {
		t.Errorf("the help does not offer the scroll: %s", keys)
	}
	// pgdown until the end: every effect and the request were shown
	seen := first
	for range 6 {
		cf.Update(tuitest.KeyMsg("pgdown"))
		seen += view()
	}
	last := view()
	for _, want := range []string{
		"orders-prod is stopped if it is running",
		"all data in orders-prod is erased and replaced by the",
		"its default username and password are replaced by",
		`POST /backup/v1/restores`,
	} {
		if !strings.Contains(seen, want) {
			t.Errorf("pgdown never showed %q; last:\n%s", want, last)
		}
	}
	if !strings.Contains(last, "pgup:") || strings.Contains(last, "pgdn:") {
		t.Errorf("at the end the line does not say what is above (only):\n%s", last)
	}
	for _, want := range []string{"This erases ALL data in orders-prod.", "> orders"} {
		if !strings.Contains(last, want) {
			t.Errorf("scrolled, the confirmation lost %q:\n%s", want, last)
		}
	}
	for range 6 {
		cf.Update(tuitest.KeyMsg("pgup"))
	}
	if view() != first {
		t.Errorf("pgup does not come back to the top:\n%s\nwant:\n%s", view(), first)
	}
	// a refusal stays in sight with the name to type
	cf.Err, cf.Local = "400 Bad Request: the service is busy (trace 4bf92f3577b34da6)", false
	if v := view(); !strings.Contains(v, "the service is busy") || !strings.Contains(v, "(trace 4bf92f3577b34da6)") || !strings.Contains(v, "Type orders-prod") {
		t.Errorf("the refusal or the input is cut:\n%s", v)
	}
	// a tall terminal: nothing to scroll, nothing offered
	cf.SetSize(100, 40)
	if cf.Cut() || strings.Contains(view(), "pgdn") || strings.Contains(fmt.Sprint(cf.Keys()), "pgdn") {
		t.Errorf("a confirmation that fits offers a scroll:\n%s", view())
	}
}

// TestRestoreManagedStorage goes through the managed-storage source: the
// target, another source service's backups (type, age, size), the
// confirmation, and a submit handed to the action layer that sends
// api.ManagedRestore once.
func TestRestoreManagedStorage(t *testing.T) {
	e := rtSetup(t, false)
	dev, analytics := e.byName["dev-serverless"], e.byName["analytics-gcp"]
	w := e.wizard(t, Options{})
	rtPress(w, "1")
	if w.StepName() != "target" {
		t.Fatalf("step %s", w.StepName())
	}
	// a pending service cannot be chosen
	w.targets.Select(e.byName["reporting-new"].ID)
	rtPress(w, "enter")
	if w.StepName() != "target" || !strings.Contains(rtView(w), "reporting-new is pending_create: a restore needs a ready or stopped service") {
		t.Fatalf("a pending target was accepted:\n%s", rtView(w))
	}
	w.targets.Select(dev.ID)
	rtPress(w, "enter")
	if w.StepName() != "backup" || w.Resources()[0].Key != "restore-wizard/backups/"+dev.ID {
		t.Fatalf("not on the target's backups: %s %v", w.StepName(), w.Resources())
	}
	// s: another source service
	rtPress(w, "s")
	w.sources.Select(analytics.ID)
	rtPress(w, "enter")
	e.feedBackups(t, w)
	out := rtView(w)
	if !strings.Contains(out, "Backups of analytics-gcp") || !strings.Contains(out, "187 GiB") || !strings.Contains(out, "10h") {
		t.Fatalf("backups not shown with type, age and size:\n%s", out)
	}
	// the running backup first in the list is not restorable: the cursor
	// starts on the newest completed one
	b := w.backups[w.backupTable.SelectedID()]
	if api.BackupState(b.Status) != api.BackupCompleted {
		t.Fatalf("cursor on a %s backup", b.Status)
	}
	w.backupTable.Select(w.backupTable.SelectedID())
	rtPress(w, "up") // the running one (a letter would be typed)
	rtPress(w, "enter")
	if w.StepName() != "backup" || !strings.Contains(rtView(w), "is still running; only a completed backup can be restored") {
		t.Fatalf("a running backup was accepted:\n%s", rtView(w))
	}
	rtPress(w, "down", "enter")
	if w.StepName() != "confirm" {
		t.Fatalf("step %s:\n%s", w.StepName(), rtView(w))
	}
	if got := w.Confirm().SourceService; got != "analytics-gcp" {
		t.Fatalf("source service %q", got)
	}
	rtType(w, "dev-serverless")
	a, done := rtAction(t, rtPress(w, "enter"))
	if !a.Mutating || a.Origin != "restores" || a.Confirm.Kind != kit.ConfirmNone {
		t.Fatalf("action %+v", a)
	}
	if !done.Submitted || done.Pending == nil || done.Pending.ServiceID != dev.ID || done.Pending.Key != b.Key {
		t.Fatalf("no optimistic record: %+v", done)
	}
	if n := e.srv.Stats().Count("POST", "/backup/v1/restores"); n != 0 {
		t.Fatalf("the wizard sent by itself (%d)", n)
	}
	res, err := a.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	rec := Record(res, a.Tag.(Tag))
	if rec.ID == 0 || rec.ServiceID != dev.ID || !rec.Running() || rec.Key != b.Key {
		t.Fatalf("record %+v", rec)
	}
	if n := e.srv.Stats().Count("POST", "/backup/v1/restores"); n != 1 {
		t.Fatalf("POST sent %d times", n)
	}
}

// TestRestoreCrossProviderRefused: a backup of an aws service for a gcp
// target is refused in the wizard; m asks for the migration flow.
// refused is the wizard after enter on a backup of orders-prod (aws) for
// analytics-gcp (gcp), and what that enter answered.
func (e *rtEnv) refused(t *testing.T) (*Wizard, []tea.Msg) {
	t.Helper()
	w := e.wizard(t, Options{Source: SourceManaged, TargetID: e.byName["analytics-gcp"].ID, SourceServiceID: e.byName["orders-prod"].ID})
	rtPress(w, "enter") // the target step, preselected
	e.feedBackups(t, w)
	return w, rtPress(w, "enter")
}

func TestRestoreCrossProviderRefused(t *testing.T) {
	e := rtSetup(t, false)
	orders, analytics := e.byName["orders-prod"], e.byName["analytics-gcp"]
	w, msgs := e.refused(t)
	ref := w.Refusal()
	if ref == nil || len(msgs) != 0 {
		t.Fatalf("not refused: %s %v", w.StepName(), msgs)
	}
	if ref.SourceProvider != "aws" || ref.TargetProvider != "gcp" || !strings.Contains(ref.Error(), "only within the same cloud provider") {
		t.Fatalf("refusal %+v", ref)
	}
	// no way to submit from the refusal
	if msgs := rtPress(w, "enter", "y"); len(msgs) != 0 {
		t.Fatalf("keys on the refusal produced %v", msgs)
	}
	msgs = rtPress(w, "m")
	if len(msgs) != 1 {
		t.Fatalf("m produced %v", msgs)
	}
	done := msgs[0].(DoneMsg)
	if done.Migrate == nil || done.Migrate.Source.ID != orders.ID || done.Migrate.Target.ID != analytics.ID || done.Migrate.Backup == nil {
		t.Fatalf("migration request %+v", done.Migrate)
	}
	if n := e.srv.Stats().Count("POST", "/backup/v1/restores"); n != 0 {
		t.Fatalf("POST sent %d times", n)
	}
	// api.CheckSameProvider trusts the backup's own cloud_provider first
	if api.CheckSameProvider(api.Backup{CloudProvider: "gcp"}, orders, analytics) != nil {
		t.Fatal("a gcp backup refused for a gcp target")
	}
	if api.CheckSameProvider(api.Backup{}, api.Service{}, analytics) != nil {
		t.Fatal("an unknown provider was refused (the API decides)")
	}
}

// TestRestoreBackupID: a pasted ID becomes api.BackupIDRestore; a key of
// a service on another provider is refused before any call.
func TestRestoreBackupID(t *testing.T) {
	e := rtSetup(t, false)
	dev := e.byName["dev-serverless"]
	w := e.wizard(t, Options{Source: SourceBackupID, TargetID: dev.ID, LockTarget: true})
	if w.StepName() != "backup-id" {
		t.Fatalf("step %s", w.StepName())
	}
	rtPress(w, "enter")
	if !strings.Contains(rtView(w), "id: is required") {
		t.Fatalf("an empty ID went on:\n%s", rtView(w))
	}
	list, err := e.client.ListBackups(context.Background(), e.byName["analytics-gcp"].ID)
	if err != nil {
		t.Fatal(err)
	}
	var key string
	for _, b := range list {
		if api.BackupState(b.Status) == api.BackupCompleted {
			key = b.Key
			break
		}
	}
	rtRun(w, w.Update(tea.PasteMsg{Content: "  " + key + "\n"}))
	rtPress(w, "enter")
	cf := w.Confirm()
	if cf == nil || !strings.Contains(cf.Request, `"id":"`+key+`"`) || strings.Contains(cf.Request, `"key"`) {
		t.Fatalf("request %v", cf)
	}
	rtType(w, "dev-serverless")
	a, _ := rtAction(t, rtPress(w, "enter"))
	if _, err := a.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	// a backup of orders-prod (aws) for dev-serverless (gcp)
	orders, _ := e.client.ListBackups(context.Background(), e.byName["orders-prod"].ID)
	w2 := e.wizard(t, Options{Source: SourceBackupID, TargetID: dev.ID, LockTarget: true})
	rtRun(w2, w2.Update(tea.PasteMsg{Content: orders[0].Key}))
	if msgs := rtPress(w2, "enter"); w2.Refusal() == nil || len(msgs) != 0 {
		t.Fatalf("a cross-provider backup ID was not refused: %s", w2.StepName())
	}
	if n := e.srv.Stats().Count("POST", "/backup/v1/restores"); n != 1 {
		t.Fatalf("POST sent %d times, want 1", n)
	}
}

// TestRestoreBucketFixes: the trailing slash and a whole path typed as the
// bucket are fixed with one key (tab), with the API's rule as the message.
func TestRestoreBucketFixes(t *testing.T) {
	b := newBucketStep(tuitest.Common(), BucketPrefill{})
	for _, tc := range []struct {
		bucket, file         string
		fix                  string
		wantBucket, wantFile string
	}{
		{"gs://acme", "", "tab adds the slash", "gs://acme/", ""},
		{"s3://acme-dumps", "x.gz", "tab adds the slash", "s3://acme-dumps/", "x.gz"},
		{"gs://acme/exports/orders.sql.gz", "", "tab splits it: gs://acme/ and the file exports/orders.sql.gz", "gs://acme/", "exports/orders.sql.gz"},
		{"gs://acme/", "", "", "gs://acme/", ""},
		{"ftp://acme", "", "", "ftp://acme", ""},
		{"gs://acme/exports/a.gz", "other.gz", "", "gs://acme/exports/a.gz", "other.gz"},
	} {
		b.bucket.SetValue(tc.bucket)
		b.file.SetValue(tc.file)
		if got := b.fixable(); got != tc.fix {
			t.Errorf("%s: fix %q, want %q", tc.bucket, got, tc.fix)
		}
		b.applyFix()
		if b.bucket.Value() != tc.wantBucket || b.file.Value() != tc.wantFile {
			t.Errorf("%s: after the fix %q %q", tc.bucket, b.bucket.Value(), b.file.Value())
		}
	}
	// the message is the API's rule, naming the field
	b.bucket.SetValue("gs://acme")
	if h, ok := b.hint(fieldBucket); ok || !strings.Contains(h, api.ValidateRestoreBucket("gs://acme").Error()) {
		t.Fatalf("hint %q", h)
	}
	// a file path typed as the bucket: the message says what tab does,
	// not the API's "trailing slash" rule, whose fix would be the path
	// with a slash after it
	for _, v := range []string{"s3://qa-b/dumps/full.gz", "s3://qa-b/dumps/full.gz/"} {
		b.bucket.SetValue(v)
		b.file.SetValue("")
		h, ok := b.hint(fieldBucket)
		if ok || !strings.Contains(h, "external_source.bucket") || !strings.Contains(h, "tab splits it: s3://qa-b/ and the file dumps/full.gz") ||
			strings.Contains(h, "trailing slash") {
			t.Errorf("%s: hint %q", v, h)
		}
	}
	b.bucket.SetValue("s3://qa-b/dumps/full.gz")
	b.file.SetValue("other.gz") // tab would not split: the bucket alone is named
	if h, _ := b.hint(fieldBucket); !strings.Contains(h, "the bucket is s3://qa-b/ alone") || strings.Contains(h, "tab") {
		t.Errorf("with another file: hint %q", h)
	}
	b.bucket.SetValue("gs://acme")
	b.file.SetValue("dump.sql")
	if h, ok := b.hint(fieldFile); ok || !strings.Contains(h, "does not end in .gz") {
		t.Fatalf("no .gz warning: %q", h)
	}
}

// TestRestoreBucketCredentials: only stored credentials of the bucket's
// kind are offered; without any, the form says how to add one.
func TestRestoreBucketCredentials(t *testing.T) {
	e := rtSetup(t, true)
	dev := e.byName["dev-serverless"]
	w := e.wizard(t, Options{Source: SourceBucket, TargetID: dev.ID, LockTarget: true})
	b := w.bucket
	rtType(w, "gs://acme/")
	if got := b.matching(); len(got) != 1 || got[0].Name != "rt-gcs" || b.cred != "rt-gcs" {
		t.Fatalf("gs:// offers %v (chosen %q)", got, b.cred)
	}
	b.bucket.SetValue("s3://acme/")
	b.fitCred()
	if got := b.matching(); len(got) != 1 || got[0].Name != "rt-s3" || b.cred != "rt-s3" {
		t.Fatalf("s3:// offers %v (chosen %q)", got, b.cred)
	}
	// no credential of the kind: how to add one
	b.creds = b.creds[:1] // rt-gcs only
	b.fitCred()
	if _, msg := b.problem(); msg == "" {
		b.file.SetValue("x.gz")
	}
	b.file.SetValue("x.gz")
	if f, msg := b.problem(); f != fieldCred || !strings.Contains(msg, "skytui creds add s3 NAME") {
		t.Fatalf("problem %v %q", f, msg)
	}
	// no keystore at all
	e.common.Secrets = nil
	w2 := e.wizard(t, Options{Source: SourceBucket, TargetID: dev.ID, LockTarget: true})
	rtType(w2, "gs://acme/")
	if h, _ := w2.bucket.hint(fieldCred); !strings.Contains(h, "no keystore is open") {
		t.Fatalf("hint %q", h)
	}
}

// rtBucketToConfirm fills the own-bucket step with an encryption key.
func rtBucketToConfirm(t *testing.T, w *Wizard, keep bool) {
	t.Helper()
	rtType(w, "s3://acme-dumps/")
	rtPress(w, "tab")
	rtType(w, "orders/dump.sql.gz")
	rtPress(w, "tab", "right", "tab", "tab", "right", "right", "right") // mysqldump, rt-s3, new key (the last: right stops there)
	rtPress(w, "tab")
	rtType(w, "k3y-s3cr3t")
	if keep {
		rtPress(w, "tab", "space", "tab") // keep, as the bucket's name by default
	} else {
		rtPress(w, "enter") // to "keep", the last field
	}
	rtPress(w, "enter")
	if w.StepName() != "confirm" {
		t.Fatalf("step %s:\n%s", w.StepName(), rtView(w))
	}
	out := rtView(w)
	for _, secret := range []string{"k3y-s3cr3t", "s3cr3t-never-shown", "AKIATEST"} {
		if strings.Contains(out, secret) {
			t.Fatalf("the confirmation shows a secret:\n%s", out)
		}
	}
}

// TestRestoreBucketSecrets: the credential is encoded only in the
// action's Run (the sandbox checks it); the typed encryption key leaves
// the form on submit and is kept in the keystore only when ticked.
func TestRestoreBucketSecrets(t *testing.T) {
	for _, keep := range []bool{false, true} {
		e := rtSetup(t, true)
		dev := e.byName["dev-serverless"]
		w := e.wizard(t, Options{Source: SourceBucket, TargetID: dev.ID, LockTarget: true})
		rtBucketToConfirm(t, w, keep)
		rtType(w, "dev-serverless")
		a, _ := rtAction(t, rtPress(w, "enter"))
		if w.bucket.encInput.Value() != "" {
			t.Fatalf("keep=%v: the typed key stayed in the form", keep)
		}
		if strings.Contains(ansi.Strip(w.bucket.view(w, 120, 40)), "k3y") {
			t.Fatal("the key is shown")
		}
		if _, err := a.Run(context.Background()); err != nil {
			t.Fatalf("keep=%v: %v", keep, err)
		}
		keys, _ := e.common.Secrets.ListEncryptionKeys()
		if keep {
			if k, err := e.common.Secrets.EncryptionKey("acme-dumps"); err != nil || k != "k3y-s3cr3t" {
				t.Fatalf("the key was not kept: %q %v", k, err)
			}
			// a refusal after the key was kept: a retry uses the stored key
			w.Failed(&api.Error{Status: 409, Message: "service is in a pending state"})
			if w.bucket.encMode != encStored || w.bucket.encStored != "acme-dumps" || w.bucket.encInput.Value() != "" {
				t.Fatal("a retry would not use the kept key")
			}
		} else if len(keys) != 0 {
			t.Fatalf("the key was kept without asking: %v", keys)
		}
		rs, _ := e.client.ListRestores(context.Background(), "")
		if rs[0].Bucket != "s3://acme-dumps/" || rs[0].Key != "orders/dump.sql.gz" || rs[0].Type != "logical" {
			t.Fatalf("restore %+v", rs[0])
		}
	}
}

// TestRestoreFromABucketSaysTheBackupsCredentials: a restore from a file
// in your own bucket knows no source service: the confirmation says the
// target's username and password become the backup's (it said "those of
// the source service"), and so does the toast when it succeeds.
func TestRestoreFromABucketSaysTheBackupsCredentials(t *testing.T) {
	e := rtSetup(t, true)
	dev := e.byName["dev-serverless"]
	w := e.wizard(t, Options{Source: SourceBucket, TargetID: dev.ID, LockTarget: true})
	rtBucketToConfirm(t, w, false)
	out := strings.Join(strings.Fields(rtView(w)), " ")
	if !strings.Contains(out, "its default username and password are replaced by the backup's") || strings.Contains(out, "source service") {
		t.Fatalf("the confirmation names a source service:\n%s", rtView(w))
	}
	rtType(w, "dev-serverless")
	a, _ := rtAction(t, rtPress(w, "enter"))
	tag, _ := a.Tag.(Tag)
	c := tuitest.Common()
	c.Client = &api.Client{}
	cmd := Watch(c, "restores", api.Restore{ID: 9, ServiceID: dev.ID}, tag)
	_, _, text := cmd().(kit.WatchMsg).Watch.Outcome(&api.Restore{Status: "Succeeded"})
	if text != "restore 9 into dev-serverless succeeded: its data, default username and password are now the backup's" {
		t.Fatalf("success toast %q", text)
	}
}

// rtSubmittedBucket is a restore of dev-serverless from an own bucket,
// confirmed and submitted.
func rtSubmittedBucket(t *testing.T) *Wizard {
	t.Helper()
	e := rtSetup(t, true)
	w := e.wizard(t, Options{Source: SourceBucket, TargetID: e.byName["dev-serverless"].ID, LockTarget: true})
	rtBucketToConfirm(t, w, false)
	rtType(w, "dev-serverless")
	rtPress(w, "enter")
	return w
}

// TestRestoreFailedKeepsEverything: a refusal of the API brings the
// confirmation back with the error and everything chosen; only the typed
// name is asked again.
func TestRestoreFailedKeepsEverything(t *testing.T) {
	w := rtSubmittedBucket(t)
	w.Failed(&api.Error{Status: 409, Message: "service is in a pending state", TraceID: "tr-1"})
	out := rtView(w)
	if w.StepName() != "confirm" || !strings.Contains(out, "the API refused it: 409 Conflict: service is in a pending state") ||
		!strings.Contains(out, "trace tr-1") || !strings.Contains(out, "type it again") {
		t.Fatalf("after a refusal:\n%s", out)
	}
	if w.Confirm().Typed() != "" || w.Confirm().Matches() {
		t.Fatal("the typed name survived the refusal")
	}
	if w.bucket.bucket.Value() != "s3://acme-dumps/" || w.bucket.file.Value() != "orders/dump.sql.gz" || w.bucket.method != api.MethodMysqldump {
		t.Fatal("a field was lost")
	}
	// submitting again without the key is stopped before any call
	rtType(w, "dev-serverless")
	msgs := rtPress(w, "enter")
	for _, m := range msgs {
		if _, ok := m.(kit.ActionRequestMsg); ok {
			t.Fatal("submitted again without the encryption key")
		}
	}
	if !strings.Contains(rtView(w), "encryption_key: type the key") {
		t.Fatalf("no reason given:\n%s", rtView(w))
	}
}

// TestWatchRestoreOutcome: the watch's outcome says success (with whose
// credentials) or failure (with the message), and keeps going otherwise.
func TestWatchRestoreOutcome(t *testing.T) {
	c := tuitest.Common()
	c.Client = &api.Client{}
	tag := Tag{Target: api.Service{ID: "dbtaf1", Name: "dst"}, SourceService: "src"}
	cmd := Watch(c, "restores", api.Restore{ID: 9, ServiceID: "dbtaf1"}, tag)
	w := cmd().(kit.WatchMsg).Watch
	if w.Key != "restore/9" || w.Origin != "restores" || w.Name != "restore 9 into dst" {
		t.Fatalf("watch %+v", w)
	}
	for _, tc := range []struct {
		r     api.Restore
		done  bool
		level kit.ToastLevel
		text  string
	}{
		{api.Restore{Status: "Running"}, false, 0, ""},
		{api.Restore{Status: "Succeeded"}, true, kit.ToastSuccess, "restore 9 into dst succeeded: its data, default username and password are now src's"},
		{api.Restore{Status: "Failed", Message: "backup file unreadable"}, true, kit.ToastError, "restore 9 into dst failed: backup file unreadable"},
	} {
		r := tc.r
		done, level, text := w.Outcome(&r)
		if done != tc.done || level != tc.level || text != tc.text {
			t.Errorf("%s: %v %v %q", tc.r.Status, done, level, text)
		}
	}
	if w.Gone != "restore 9 into dst no longer exists (deleted)" {
		t.Fatalf("gone text %q", w.Gone)
	}
}

// rtLeave checks that ctrl+x is in the keys of where the wizard is (the
// step, the confirmation) and that it leaves the wizard at once: one
// DoneMsg, cancelled, of this wizard.
func rtLeave(t *testing.T, w *Wizard, where string) {
	t.Helper()
	found := false
	for _, b := range w.KeyMap().ShortHelp() {
		found = found || b.Help().Key == "ctrl+x"
	}
	if !found {
		t.Fatalf("the %s's keys do not show ctrl+x", where)
	}
	msgs := rtPress(w, "ctrl+x")
	if len(msgs) != 1 {
		t.Fatalf("ctrl+x gave %d messages", len(msgs))
	}
	if done, ok := msgs[0].(DoneMsg); !ok || !done.Cancelled || done.Wizard != w {
		t.Fatalf("ctrl+x = %#v", msgs[0])
	}
}

// TestRestoreLeaveFromAnyStep: ctrl+x leaves the wizard from a later step
// at once, keeping what was typed (the screen keeps the wizard as its
// draft), and it is in the step's keys.
func TestRestoreLeaveFromAnyStep(t *testing.T) {
	e := rtSetup(t, false)
	dev := e.byName["dev-serverless"]
	w := e.wizard(t, Options{Source: SourceBackupID, TargetID: dev.ID, LockTarget: true})
	rtRun(w, w.Update(tea.PasteMsg{Content: "abc123"}))
	rtLeave(t, w, "step")
	if w.StepName() != "backup-id" || !strings.Contains(rtView(w), "abc123") {
		t.Fatalf("what was typed is not kept: step %s\n%s", w.StepName(), rtView(w))
	}
}

// TestRestoreRefusalNamingAFieldGoesToIt: a refusal that names a field of
// the bucket step (the file) returns there with that field focused, the
// refusal shown whole and everything kept.
func TestRestoreRefusalNamingAFieldGoesToIt(t *testing.T) {
	w := rtSubmittedBucket(t)
	w.Failed(&api.Error{Method: "POST", Path: "/backup/v1/restores", Status: 400,
		Message: "external_source.file must be a gzip file", TraceID: "8ff56da608436616"})
	out := rtView(w)
	if w.StepName() != "bucket" || w.bucket.focus != fieldFile {
		t.Fatalf("step %s, focus %d; want the bucket step on the file:\n%s", w.StepName(), w.bucket.focus, out)
	}
	if !strings.Contains(out, "the API refused it: 400 Bad Request: external_source.file must be a gzip file") || !strings.Contains(out, "8ff56da608436616") {
		t.Fatalf("the refusal is not shown whole:\n%s", out)
	}
	if w.bucket.bucket.Value() != "s3://acme-dumps/" || w.bucket.file.Value() != "orders/dump.sql.gz" {
		t.Fatal("a field was lost")
	}
}

// The target and backup steps take a name typed without "/" first as
// their filter (no letter lost); the step's own keys still come first.
func TestRestoreStepsTypeToFilter(t *testing.T) {
	e := rtSetup(t, false)
	w := e.wizard(t, Options{})
	rtPress(w, "1")
	rtType(w, "dev-s")
	if w.targets.Filter() != "dev-s" || w.targets.Len() != 1 {
		t.Fatalf("typed dev-s: filter %q, %d rows", w.targets.Filter(), w.targets.Len())
	}
	rtPress(w, "enter", "enter") // keep the filter, choose dev-serverless
	if w.StepName() != "backup" {
		t.Fatalf("step %s, want backup", w.StepName())
	}
	rtPress(w, "s") // the step's key: another source service, not a filter
	if !w.pickingSource || w.backupTable.Filter() != "" {
		t.Fatalf("s filtered (%q) instead of picking another source", w.backupTable.Filter())
	}
}

// TestRestoreKeepNameRefusedBeforeSending: a "Keep as" name the keystore
// would refuse is refused next to the field with the keystore's own rule;
// nothing typed is lost and nothing is sent or stored.
func TestRestoreKeepNameRefusedBeforeSending(t *testing.T) {
	e := rtSetup(t, true)
	w := e.wizard(t, Options{Source: SourceBucket, TargetID: e.byName["dev-serverless"].ID, LockTarget: true})
	rtType(w, "s3://acme-dumps/")
	rtPress(w, "tab")
	rtType(w, "orders/dump.sql.gz")
	rtPress(w, "tab", "tab", "tab", "right", "right", "right", "tab") // rt-s3, new key (the last)
	rtType(w, "k3y-s3cr3t")
	rtPress(w, "tab", "space", "tab") // keep; Keep as
	w.bucket.keepName.SetValue("")
	rtType(w, "my key/../x")
	msgs := rtPress(w, "enter")
	rule := e.common.Secrets.PutEncryptionKey("my key/../x", "k3y-s3cr3t") // the keystore's own answer
	if rule == nil {
		t.Fatal("the keystore took the name")
	}
	out := rtView(w)
	if w.StepName() != "bucket" || w.bucket.focus != fieldKeepName || len(msgs) != 0 {
		t.Fatalf("step %s, focus %d, %v; want the bucket step on Keep as:\n%s", w.StepName(), w.bucket.focus, msgs, out)
	}
	if _, msg := w.bucket.problem(); msg != "name: "+rule.Error() {
		t.Fatalf("problem %q, want the keystore's rule %q", msg, rule)
	}
	if !strings.Contains(out, "use letters, digits and . _ @ -") || strings.Contains(out, "the API refused it") {
		t.Fatalf("the rule is not shown as the form's own:\n%s", out)
	}
	if w.bucket.encInput.Value() != "k3y-s3cr3t" || !w.bucket.keep || w.bucket.encMode != encNew || contains(w.bucket.encChoices(), "my key/../x") {
		t.Fatal("something typed was lost, or a key not stored is offered")
	}
	if keys, _ := e.common.Secrets.ListEncryptionKeys(); len(keys) != 0 {
		t.Fatalf("keys stored: %v", keys)
	}
	// a name the keystore takes goes on
	w.bucket.keepName.SetValue("acme.dumps-2")
	rtPress(w, "enter")
	if w.StepName() != "confirm" {
		t.Fatalf("a valid name was refused: %s\n%s", w.StepName(), rtView(w))
	}
	if n := e.srv.Stats().Count("POST", "/backup/v1/restores"); n != 0 {
		t.Fatalf("POST sent %d times", n)
	}
}

// TestRestoreKeepFailureKeepsTheKey: when the keystore does not take the
// key to keep, nothing is sent, the key is back in its input with keep
// ticked, no stored key of that name is offered, and the failure is the
// keystore's, not called a refusal of the API.
func TestRestoreKeepFailureKeepsTheKey(t *testing.T) {
	e := rtSetup(t, true)
	w := e.wizard(t, Options{Source: SourceBucket, TargetID: e.byName["dev-serverless"].ID, LockTarget: true})
	rtBucketToConfirm(t, w, true)
	big := strings.Repeat("k", keystore.LimitFile+1) // more than the backend keeps
	w.bucket.encInput.SetValue(big)
	rtType(w, "dev-serverless")
	a, _ := rtAction(t, rtPress(w, "enter"))
	_, err := a.Run(context.Background())
	if err == nil || !errors.Is(err, keystore.ErrTooLarge) {
		t.Fatalf("run: %v", err)
	}
	w.Failed(err)
	b, out := w.bucket, rtView(w)
	if w.StepName() != "bucket" || b.focus != fieldKeepName {
		t.Fatalf("step %s, focus %d; want the bucket step on Keep as:\n%s", w.StepName(), b.focus, out)
	}
	if strings.Contains(out, "the API refused it") || !strings.Contains(out, "keeping the encryption key as acme-dumps") ||
		!strings.Contains(out, "nothing was sent") {
		t.Fatalf("the keystore's failure is not shown as it is:\n%s", out)
	}
	if b.encInput.Value() != big || !b.keep || b.encMode != encNew || strings.TrimSpace(b.keepName.Value()) != "acme-dumps" {
		t.Fatalf("the typed key or keep was lost: mode %v keep %v", b.encMode, b.keep)
	}
	if contains(b.encChoices(), "acme-dumps") {
		t.Fatalf("a key that was not stored is offered: %v", b.encChoices())
	}
	if n := e.srv.Stats().Count("POST", "/backup/v1/restores"); n != 0 {
		t.Fatalf("POST sent %d times", n)
	}
}

// TestRestoreLocalFailureNotCalledRefusal: at the confirmation, only an
// answer of the API reads "the API refused it"; a failure of this side
// (nothing sent) or an unanswered submit is shown as it is.
func TestRestoreLocalFailureNotCalledRefusal(t *testing.T) {
	w := rtSubmittedBucket(t)
	w.Failed(kit.ErrBusy)
	if out := rtView(w); strings.Contains(out, "the API refused it") || !strings.Contains(out, "! "+kit.ErrBusy.Error()) {
		t.Fatalf("a local failure called a refusal:\n%s", out)
	}
	w.Unknown()
	if out := rtView(w); strings.Contains(out, "the API refused it") || !strings.Contains(out, "! the last submit got no answer") {
		t.Fatalf("an unanswered submit called a refusal:\n%s", out)
	}
	w.Failed(&api.Error{Status: 409, Message: "service is in a pending state"})
	if out := rtView(w); !strings.Contains(out, "! the API refused it: 409 Conflict") {
		t.Fatalf("the API's refusal is not called one:\n%s", out)
	}
}

// TestRestoreLeaveFromConfirm: ctrl+x leaves the confirmation too (the
// name input does not take it), keeping what was typed there.
func TestRestoreLeaveFromConfirm(t *testing.T) {
	e := rtSetup(t, false)
	dev := e.byName["dev-serverless"]
	list, err := e.client.ListBackups(context.Background(), e.byName["analytics-gcp"].ID)
	if err != nil || len(list) == 0 {
		t.Fatal(err)
	}
	w := e.wizard(t, Options{Source: SourceBackupID, TargetID: dev.ID, LockTarget: true, BackupID: list[len(list)-1].Key})
	rtPress(w, "enter")
	if w.StepName() != "confirm" {
		t.Fatalf("step %s:\n%s", w.StepName(), rtView(w))
	}
	rtType(w, "dev-s")
	rtLeave(t, w, "confirmation")
	if w.StepName() != "confirm" || w.Confirm().Typed() != "dev-s" {
		t.Fatalf("what was typed is not kept: step %s, typed %q", w.StepName(), w.Confirm().Typed())
	}
}

// TestRestoreGivenBackup: a wizard opened on a backup (R on the Backups
// screen) asks the target, then goes to the confirmation with that
// backup, never to the list; esc there returns to the target; the backup
// sent is the one given.
func TestRestoreGivenBackup(t *testing.T) {
	e := rtSetup(t, false)
	orders, replica := e.byName["orders-prod"], e.byName["replica-west"]
	list, err := e.client.ListBackups(context.Background(), orders.ID)
	if err != nil {
		t.Fatal(err)
	}
	var given *api.Backup
	for i := len(list) - 1; i >= 0; i-- { // the oldest completed: not the one the list would start on
		if api.ManagedRestoreRefusal(list[i]) == "" {
			given = &list[i]
			break
		}
	}
	if given == nil {
		t.Fatal("no completed backup of orders-prod")
	}
	w := e.wizard(t, Options{Source: SourceManaged, SourceServiceID: orders.ID, Backup: given})
	if w.StepName() != "target" {
		t.Fatalf("step %s", w.StepName())
	}
	w.targets.Select(replica.ID)
	rtPress(w, "enter")
	cf := w.Confirm()
	if cf == nil {
		t.Fatalf("step %s, want the confirmation:\n%s", w.StepName(), rtView(w))
	}
	if !strings.Contains(cf.Source, "backup "+api.ShortKey(given.Key)+" of orders-prod") || !strings.Contains(cf.Request, `"key":"`+given.Key+`"`) {
		t.Fatalf("not the given backup: %q %s", cf.Source, cf.Request)
	}
	rtPress(w, "esc")
	if w.StepName() != "target" {
		t.Fatalf("esc from the confirmation went to %s", w.StepName())
	}
	rtPress(w, "enter")
	rtType(w, "replica-west")
	a, done := rtAction(t, rtPress(w, "enter"))
	if done.Pending == nil || done.Pending.Key != given.Key {
		t.Fatalf("pending %+v", done.Pending)
	}
	res, err := a.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rec := Record(res, a.Tag.(Tag)); rec.Key != given.Key || rec.ServiceID != replica.ID {
		t.Fatalf("restored %s into %s, want %s into %s", rec.Key, rec.ServiceID, given.Key, replica.ID)
	}
}

// TestRefusalWrapsAtSixtyColumns: on a narrow terminal the refusal's first
// sentence wraps whole instead of losing its end ("…the same cl~").
func TestRefusalWrapsAtSixtyColumns(t *testing.T) {
	c := tuitest.Common()
	ref := &api.CrossProvider{Backup: "eae63e254f91", SourceProvider: "aws", TargetProvider: "gcp",
		SourceService: api.Service{ID: "dbtaf85489797", Name: "orders-prod"},
		Target:        api.Service{ID: "dbtgf82655032", Name: "analytics-gcp"}}
	out := ansi.Strip(RefusalView(c, ref, "choose another backup", 60))
	for _, l := range strings.Split(out, "\n") {
		if w := ansi.StringWidth(l); w > 60 {
			t.Errorf("a line of %d cells at 60 columns: %q", w, l)
		}
	}
	if flat := strings.Join(strings.Fields(out), " "); !strings.Contains(flat, "Not sent: a backup can be restored only within the same cloud provider.") {
		t.Errorf("the first sentence is not whole:\n%s", out)
	}
}

// TestRefusalSaysWhatEscDoes: opened on a backup (R on the Backups
// screen), a target on another provider is refused and esc goes back to
// the choice of the target, which is what the refusal says it does.
func TestRefusalSaysWhatEscDoes(t *testing.T) {
	e := rtSetup(t, false)
	orders, analytics := e.byName["orders-prod"], e.byName["analytics-gcp"]
	bs, err := e.client.ListBackups(context.Background(), orders.ID)
	if err != nil || len(bs) == 0 {
		t.Fatalf("backups of orders-prod: %v %v", len(bs), err)
	}
	w := e.wizard(t, Options{Source: SourceManaged, SourceServiceID: orders.ID, Backup: &bs[0]})
	w.targets.Select(analytics.ID)
	rtPress(w, "enter")
	if out := rtView(w); !strings.Contains(out, "Not sent") || !strings.Contains(out, "esc  choose another service to restore into") {
		t.Fatalf("the refusal does not say esc chooses another target:\n%s", out)
	}
	rtPress(w, "esc")
	if w.StepName() != "target" {
		t.Fatalf("esc went to %s", w.StepName())
	}
}

// TestTargetTitleWarnsAtSixtyColumns: the target step's title at 60
// columns keeps its warning whole on a second line (in the blank line's
// place, so the wizard is no taller) instead of "(its data ~".
func TestTargetTitleWarnsAtSixtyColumns(t *testing.T) {
	e := rtSetup(t, false)
	orders := e.byName["orders-prod"]
	list, err := e.client.ListBackups(context.Background(), orders.ID)
	if err != nil || len(list) == 0 {
		t.Fatal(err)
	}
	w := e.wizard(t, Options{Source: SourceManaged, SourceServiceID: orders.ID, Backup: &list[0]})
	if w.StepName() != "target" {
		t.Fatalf("step %s", w.StepName())
	}
	w.SetSize(60, 12)
	v := ansi.Strip(w.View())
	lines := strings.Split(v, "\n")
	for _, l := range lines {
		if ansi.StringWidth(l) > 60 {
			t.Fatalf("a line wider than 60: %q", l)
		}
	}
	if len(lines) > 12 || strings.TrimSpace(lines[0]) != "New restore 2/4: which service to restore into?" ||
		strings.TrimSpace(lines[1]) != "(its data will be erased)" {
		t.Fatalf("title:\n%s", v)
	}
	// wide enough, the title is one line with a blank line under it
	w.SetSize(100, 12)
	lines = strings.Split(ansi.Strip(w.View()), "\n")
	if !strings.HasSuffix(strings.TrimSpace(lines[0]), "(its data will be erased)") || strings.TrimSpace(lines[1]) != "" {
		t.Fatalf("title at 100 columns:\n%s", strings.Join(lines, "\n"))
	}
}

// TestSourceStepAtSixtyBySixteen: on the smallest terminal the first step
// keeps its warning whole (the descriptions of the choices keep to a line
// each), and nothing is wider or taller than the wizard's area.
func TestSourceStepAtSixtyBySixteen(t *testing.T) {
	w := New(tuitest.Common(), Options{Origin: "restores"})
	w.SetSize(60, 12) // the body of a 60x16 terminal
	out := ansi.Strip(tuitest.View(w))
	lines := strings.Split(out, "\n")
	if len(lines) > 12 {
		t.Errorf("%d lines in 12:\n%s", len(lines), out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"1 Managed storage", "4 Point in time", "where you type the target's name."} {
		if !strings.Contains(flat, want) {
			t.Errorf("the first step at 60x12 lacks %q:\n%s", want, out)
		}
	}
}

// TestRestoreEmptyBackupListSaysWhy: a source service with no backup
// offers no enter (nor filter, nor moves) in the footer, and enter
// pressed anyway says why and what to do (s), not nothing.
func TestRestoreEmptyBackupListSaysWhy(t *testing.T) {
	e := rtSetup(t, false)
	w := e.managedInto(t, "dev-serverless")
	w.OnData(kit.DataMsg{Key: w.Resources()[0].Key, Data: []api.Backup{}})
	if !strings.Contains(rtView(w), "no backups of dev-serverless yet") {
		t.Fatalf("not the empty list:\n%s", rtView(w))
	}
	if help := kit.HintLine(w.KeyMap().ShortHelp()...); strings.Contains(help, "enter") || strings.Contains(help, "filter") {
		t.Errorf("the footer offers keys with nothing to act on: %q", help)
	}
	rtPress(w, "enter")
	if out := rtView(w); !strings.Contains(out, "dev-serverless has no backup to restore yet: s restores another service's backup") {
		t.Fatalf("enter on the empty list says nothing useful:\n%s", out)
	}
}
