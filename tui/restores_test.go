package tui

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/tuitest"
)

// The Restores screen driven through the root: full frames, the action
// layer, the watch and the sandbox.

// rstToManagedBackup opens the wizard and goes to the backups of source
// to restore into target (managed storage).
func rstToManagedBackup(h *harness, target, source string) {
	h.Key("3")
	h.Key("n")
	h.Key("1")
	h.TypeText("/" + target)
	h.Key("enter") // keeps the name typed and chooses
	if source != "" && source != target {
		h.Key("s")
		h.TypeText("/" + source)
		h.Key("enter")
	}
}

func rstPosts(srv *sandbox.Server) int {
	return srv.Stats().Count("POST", "/backup/v1/restores")
}

// TestRestoresGolden snapshots the list, the detail, every wizard step,
// the confirmation, the refusal and the delete question at 80x24 and
// 140x40. Regenerate with: go test ./tui/ -run TestRestoresGolden -update
func TestRestoresGolden(t *testing.T) {
	type step func(h *harness)
	keys := func(ks ...string) step {
		return func(h *harness) {
			for _, k := range ks {
				h.Key(k)
			}
		}
	}
	text := func(s string) step { return func(h *harness) { h.TypeText(s) } }
	cases := []struct {
		name  string
		steps []step
	}{
		{"list", []step{keys("3")}},
		{"detail", []step{keys("3", "enter")}},
		{"delete_confirm", []step{keys("3", "d")}},
		{"wizard_source", []step{keys("3", "n")}},
		{"wizard_target", []step{keys("3", "n", "1")}},
		{"wizard_backups", []step{func(h *harness) { rstToManagedBackup(h, "dev-serverless", "analytics-gcp") }}},
		{"wizard_bucket", []step{keys("3", "n", "2"), text("/dev-serverless"), keys("enter"), text("gs://acme-backups")}},
		{"wizard_backup_id", []step{keys("3", "n", "3"), text("/dev-serverless"), keys("enter"),
			func(h *harness) { h.Send(tea.PasteMsg{Content: "not-a-real-backup-id"}) }}},
		{"confirm", []step{func(h *harness) { rstToManagedBackup(h, "dev-serverless", "analytics-gcp") }, keys("enter"), text("dev-serv")}},
		{"refusal", []step{func(h *harness) { rstToManagedBackup(h, "analytics-gcp", "orders-prod") }, keys("enter")}},
	}
	for _, size := range [][2]int{{80, 24}, {140, 40}} {
		for _, tc := range cases {
			t.Run(fmt.Sprintf("%s_%dx%d", tc.name, size[0], size[1]), func(t *testing.T) {
				h, _, _ := demoHarness(t, size[0], size[1], func(o *Options) { o.Secrets = tuitest.Secrets(t, "team") })
				for _, s := range tc.steps {
					s(h)
				}
				out := h.Screen()
				tuitest.CheckFrame(t, out, size[0], size[1])
				golden.RequireEqual(t, out)
			})
		}
	}
}

// TestRestoreCrossProviderRefusedBeforeAnyCall: a backup of an aws service
// chosen for a gcp target is refused in the wizard, with the workaround,
// and nothing reaches the API.
func TestRestoreCrossProviderRefusedBeforeAnyCall(t *testing.T) {
	h, srv, _ := demoHarness(t, 100, 30, nil)
	rstToManagedBackup(h, "analytics-gcp", "orders-prod")
	h.Key("enter")
	out := h.Screen()
	for _, want := range []string{
		"Not sent: a backup can be restored only within the same cloud provider",
		"was taken on aws; analytics-gcp",
		"back up orders-prod to your own bucket on aws",
		"copy the backup folder to a bucket analytics-gcp can read on gcp",
		"start this migration now",
	} {
		if !strings.Contains(out, want) {
			t.Fatalf("refusal lacks %q:\n%s", want, out)
		}
	}
	if n := rstPosts(srv); n != 0 {
		t.Fatalf("a cross-provider restore reached the API %d times", n)
	}
	// esc goes back to the backups, where another one can be chosen
	h.Key("esc")
	h.sees(t, "Backups of orders-prod", "esc did not return to the backups")
	// m opens the migration with both services known
	h.Key("enter")
	h.Key("m")
	h.sees(t, "Migrate across providers 2/5: back up orders-prod to your own bucket", "m did not start the migration at the backup step")
	if n := rstPosts(srv); n != 0 {
		t.Fatalf("restores sent: %d", n)
	}
}

// TestRestoreReadOnly: a read-only profile cannot open the wizard, and a
// delete is refused by the action layer; no POST or DELETE reaches the
// sandbox.
func TestRestoreReadOnly(t *testing.T) {
	h, srv, _ := demoHarness(t, 100, 30, func(o *Options) { o.ReadOnly, o.Profile = true, "prod-ro" })
	h.Key("3")
	h.Key("n")
	if got := lastToast(h); !strings.Contains(got, "not allowed on read-only profile prod-ro: starting a restore") {
		t.Fatalf("n on a read-only profile: toast %q\n%s", got, h.Screen())
	}
	if strings.Contains(h.Screen(), "New restore") {
		t.Fatalf("the wizard opened on a read-only profile:\n%s", h.Screen())
	}
	h.Key("m")
	if strings.Contains(h.Screen(), "Migrate across providers") {
		t.Fatalf("the migration opened on a read-only profile")
	}
	// d on the running restore (the first row): refused where actions run
	h.Key("d")
	if len(h.m.dialogs) != 0 {
		t.Fatal("delete asked for a confirmation on a read-only profile")
	}
	if got := lastToast(h); got != "not allowed on read-only profile prod-ro: delete restore 2 into staging-eu" {
		t.Fatalf("delete toast = %q", got)
	}
	for k, n := range srv.Stats().Requests {
		if !strings.HasPrefix(k, "GET ") && n > 0 {
			t.Errorf("read-only profile sent %d x %s", n, k)
		}
	}
}

// TestRestoreDelete: only a restore that has not finished can be deleted,
// once the target's name is typed (as the CLI's --confirm); the dialog
// says the target may be left partly restored.
func TestRestoreDelete(t *testing.T) {
	h, srv, _ := demoHarness(t, 100, 30, nil)
	h.Key("3")
	h.Key("j") // restore 1: succeeded
	h.Key("d")
	if len(h.m.dialogs) != 0 || !strings.Contains(lastToast(h), "restore 1 has finished (Succeeded): only a restore that has not finished can be deleted") {
		t.Fatalf("delete of a finished restore: dialogs %d, toast %q", len(h.m.dialogs), lastToast(h))
	}
	h.Key("k") // restore 2: running
	h.Key("d")
	if sc := h.Screen(); !strings.Contains(sc, "Delete restore 2?") || !strings.Contains(sc, "Type staging-eu to confirm") ||
		!strings.Contains(sc, "partly restored") {
		t.Fatalf("no typed-name confirmation saying what the target is left in:\n%s", sc)
	}
	h.Key("y")
	h.Key("enter") // not the name
	if n := srv.Stats().Count("DELETE", "/backup/v1/restores/{id}"); n != 0 {
		t.Fatalf("a wrong name deleted (%d)", n)
	}
	if !strings.Contains(h.Screen(), "does not match") {
		t.Fatalf("a wrong name is not said:\n%s", h.Screen())
	}
	h.Key("esc")
	h.Key("d")
	h.TypeText("staging-eu")
	h.Key("enter")
	if n := srv.Stats().Count("DELETE", "/backup/v1/restores/{id}"); n != 1 {
		t.Fatalf("DELETE sent %d times, want 1", n)
	}
	if strings.Contains(h.Screen(), "staging-eu    dbtzf") {
		t.Fatalf("the deleted restore is still listed:\n%s", h.Screen())
	}
}

// rstSubmit restores analytics-gcp's newest completed backup into
// dev-serverless through the wizard.
func rstSubmit(t *testing.T, h *harness) {
	t.Helper()
	rstToManagedBackup(h, "dev-serverless", "analytics-gcp")
	h.Key("enter")
	h.TypeText("dev-serverless")
	h.Key("enter")
	// the root's action layer answers first; the screen's row follows
	h.Until("the restore's submit answered", func() bool {
		return len(h.m.Submitting()) == 0 && !strings.Contains(h.Screen(), "Submitting")
	})
}

func rstFireWatches(h *harness) int {
	return h.Fire(func(m tea.Msg) bool { _, ok := m.(watchTickMsg); return ok })
}

// TestRestoreOutcomeBellOnAnotherScreen: the restore's end is noticed by
// the root's watch while another screen is shown: a toast, and the bell
// (Options.Bell) only when the user is elsewhere.
func TestRestoreOutcomeBellOnAnotherScreen(t *testing.T) {
	for _, tc := range []struct {
		name     string
		bell     bool
		stayHere bool
		wantBell bool
	}{
		{"elsewhere", true, false, true},
		{"bell off", false, false, false},
		{"on the restores screen", true, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, srv, clk := demoHarness(t, 100, 30, func(o *Options) { o.Bell = tc.bell })
			rstSubmit(t, h)
			if n := rstPosts(srv); n != 1 {
				t.Fatalf("POST sent %d times", n)
			}
			if !regexp.MustCompile(`3  dev-serverless .*Running 0s`).MatchString(h.Screen()) {
				t.Fatalf("the new restore is not shown running at once:\n%s", h.Screen())
			}
			if !tc.stayHere {
				h.Key("1")
			}
			if got := h.m.Watching(); len(got) != 1 || got[0] != "restore 3 into dev-serverless" {
				t.Fatalf("watching %v", got)
			}
			// not finished yet: no toast, no bell
			rstFireWatches(h)
			if len(h.Raw) != 0 {
				t.Fatalf("bell before the end: %q", h.Raw)
			}
			clk.Advance(2 * time.Hour)
			if rstFireWatches(h) != 1 {
				t.Fatal("no watch tick armed")
			}
			found := false
			for _, ts := range h.m.toasts {
				if strings.Contains(ts.text, "restore 3 into dev-serverless succeeded: its data, default username and password are now analytics-gcp's") {
					found = true
				}
			}
			if !found {
				t.Fatalf("no outcome toast: %+v", h.m.toasts)
			}
			bells := 0
			for _, r := range h.Raw {
				if r == "\a" {
					bells++
				}
			}
			if tc.wantBell && bells != 1 || !tc.wantBell && bells != 0 {
				t.Fatalf("%d bells, want bell=%v", bells, tc.wantBell)
			}
			if len(h.m.Watching()) != 0 {
				t.Fatalf("still watching %v", h.m.Watching())
			}
			if rstFireWatches(h) != 0 {
				t.Fatal("the watch kept polling after the end")
			}
		})
	}
}

// TestRestoreOwnBucket goes through the own-bucket source: the trailing
// slash fixed with one key, a stored credential of the bucket's kind
// encoded only when sent, and an encryption key kept in the keystore when
// asked.
func TestRestoreOwnBucket(t *testing.T) {
	store := tuitest.Secrets(t, "team")
	h, srv, _ := demoHarness(t, 140, 30, func(o *Options) { o.Secrets = store })
	h.Key("3")
	h.Key("n")
	h.Key("2")
	h.TypeText("/dev-serverless")
	h.Key("enter")
	h.TypeText("s3://acme-dumps")
	if !strings.Contains(h.Screen(), "must end with a trailing slash") || !strings.Contains(h.Screen(), "tab adds the slash") {
		t.Fatalf("the missing slash is not caught with its fix:\n%s", h.Screen())
	}
	h.Key("tab") // the fix, and on to Backup file
	if !strings.Contains(h.Screen(), "> s3://acme-dumps/") || !strings.Contains(h.Screen(), "> Backup file") {
		t.Fatalf("tab did not add the slash and move to Backup file:\n%s", h.Screen())
	}
	h.TypeText("orders/dump.sql")
	h.sees(t, "does not end in .gz", "no .gz warning")
	h.TypeText(".gz")
	h.Key("tab")
	h.Key("right") // mysqldump
	h.Key("tab")
	h.sees(t, "< team-s3 (s3) >", "the S3 credential is not offered for an s3:// bucket")
	h.Key("tab")
	h.Keys("right", "right", "right") // encryption: new key, the last choice
	h.Key("tab")
	h.TypeText("k3y-s3cr3t")
	if strings.Contains(h.Screen(), "k3y-s3cr3t") {
		t.Fatal("the encryption key is shown unmasked")
	}
	h.Key("tab")
	h.Key("space") // keep
	h.Key("tab")
	h.Key("enter") // continue
	out := h.Screen()
	if !strings.Contains(out, "New restore 4/4: confirm") || strings.Contains(out, "k3y-s3cr3t") || strings.Contains(out, "s3cr3t-never-shown") {
		t.Fatalf("confirmation wrong or leaking a secret:\n%s", out)
	}
	h.TypeText("dev-serverless")
	h.Key("enter")
	if n := rstPosts(srv); n != 1 {
		t.Fatalf("POST sent %d times (the sandbox checks the encoded credentials)\n%s\n%v", n, h.Screen(), h.m.toasts)
	}
	if k, err := store.EncryptionKey("acme-dumps"); err != nil || k != "k3y-s3cr3t" {
		t.Fatalf("the key was not kept as asked: %q %v", k, err)
	}
	if !regexp.MustCompile(`3  dev-serverless .*s3://acme-dumps/orders/dump\.sql\.gz`).MatchString(h.Screen()) {
		t.Fatalf("the bucket restore is not listed:\n%s", h.Screen())
	}
}

// TestRestoreFlow runs the real program (teatest) against the sandbox on
// a manual clock: restore a backup of analytics-gcp into dev-serverless,
// see it Running at once, advance the clock past its end, see Succeeded,
// and read through the API that dev-serverless now has analytics-gcp's
// default credentials.
func TestRestoreFlow(t *testing.T) {
	_, clk, c := tuitest.Sandbox(t, true)
	ctx := context.Background()
	src, dst := tuitest.Service(t, c, "analytics-gcp"), tuitest.Service(t, c, "dev-serverless")
	srcCreds, err := c.GetCredentials(ctx, src.ID)
	if err != nil {
		t.Fatal(err)
	}
	before, err := c.GetCredentials(ctx, dst.ID)
	if err != nil {
		t.Fatal(err)
	}
	if before.Username == srcCreds.Username {
		t.Fatal("fixture: the two services already share credentials")
	}
	d := newRestoreDriver(t, New(Options{Client: c, Profile: "flow", Demo: true, Now: clk.Now, Bell: true,
		SlowInterval: 30 * time.Second, FastInterval: 2 * time.Second, Getenv: func(string) string { return "" }}), 120)
	d.restoreManaged("dev-serverless", "analytics-gcp")
	wait, press, tm := d.wait, d.press, d.tm
	wait("", regexp.MustCompile(`3\s+dev-serverless\s.*Running`))
	clk.Advance(2 * time.Hour)
	wait("", regexp.MustCompile(`3\s+dev-serverless\s.*Succeeded`))
	wait("restore 3 into dev-serverless succeeded", nil)

	after, err := c.GetCredentials(ctx, dst.ID)
	if err != nil {
		t.Fatal(err)
	}
	if after.Username != srcCreds.Username || after.Password != srcCreds.Password {
		t.Fatalf("dev-serverless credentials are %s, want the source's %s", after.Username, srcCreds.Username)
	}
	press("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}

// TestRestoresOfOneService: f picks a service (the root's picker answers
// through the screen's Open), ":restores <name>" completes and does the
// same.
func TestRestoresOfOneService(t *testing.T) {
	h, _, _ := demoHarness(t, 140, 30, nil)
	h.Key("3")
	h.Key("f")
	h.sees(t, "Restores of which service?", "no picker")
	h.TypeText("/staging")
	h.Key("enter")
	out := h.Screen()
	if !strings.Contains(out, "service: staging-eu") || !strings.Contains(out, "Restores 1 (1 running)") || strings.Contains(out, "replica-west") {
		t.Fatalf("not filtered on staging-eu:\n%s", out)
	}
	h.Key("esc")
	h.sees(t, "Restores 2 (1 running)", "esc did not show all")
	h.Key("1")
	h.runCompleted("restores replica-w", "restores replica-west")
	out = h.Screen()
	if h.m.Active().ID() != "restores" || !strings.Contains(out, "service: replica-west") || strings.Contains(out, "staging-eu") {
		t.Fatalf(":restores replica-west:\n%s", out)
	}
}

// rstWatchScreen records the watch outcomes it is told of.
type rstWatchScreen struct {
	fakeScreen
	watched []kit.WatchDoneMsg
}

func (s *rstWatchScreen) Update(msg tea.Msg) (kit.Screen, tea.Cmd) {
	if m, ok := msg.(kit.WatchDoneMsg); ok {
		s.watched = append(s.watched, m)
	}
	return s, nil
}

// TestWatchBackoffAndGone: a watch re-arms only after each reply, backs
// off on errors, goes back to the fast pace on success, ends on 404 with
// its Gone toast (and the bell: its screen is not shown), and a second
// watch of the same key replaces the first.
func TestWatchBackoffAndGone(t *testing.T) {
	a, b := &rstWatchScreen{fakeScreen: fakeScreen{id: "a"}}, &rstWatchScreen{fakeScreen: fakeScreen{id: "b"}}
	h := newHarness(t, Options{Profile: "p", Now: func() time.Time { return t0 }, Bell: true, FastInterval: 2 * time.Second,
		Screens: func(*kit.Common) []kit.Screen { return []kit.Screen{a, b} }}, 100, 30)
	replies := []error{&api.Error{Status: 500}, &api.Error{Status: 503}, nil, nil, &api.Error{Status: 404}}
	calls := 0
	w := kit.Watch{Key: "restore/5", Name: "restore 5 into x", Origin: "b", Gone: "restore 5 into x no longer exists (deleted)",
		Fetch: func(context.Context) (any, error) {
			err := replies[calls]
			calls++
			if err != nil {
				return nil, err
			}
			return "running", nil
		},
		Outcome: func(any) (bool, kit.ToastLevel, string) { return false, 0, "" }}
	h.Send(kit.WatchMsg{Watch: w})
	h.Send(kit.WatchMsg{Watch: w}) // replaces: the first tick is stale
	var intervals []time.Duration
	for range 6 {
		var ticks []tuitest.Timer
		for _, tm := range h.Timers {
			if _, ok := tm.Msg.(watchTickMsg); ok {
				ticks = append(ticks, tm)
			}
		}
		if len(ticks) == 0 {
			break
		}
		intervals = append(intervals, ticks[len(ticks)-1].D)
		rstFireWatches(h)
	}
	if calls != 5 {
		t.Fatalf("%d fetches, want 5 (one per live tick)", calls)
	}
	want := []time.Duration{2 * time.Second, 2 * time.Second, 4 * time.Second, 2 * time.Second, 2 * time.Second}
	if fmt.Sprint(intervals) != fmt.Sprint(want) {
		t.Fatalf("intervals %v, want %v", intervals, want)
	}
	if len(b.watched) != 1 || !b.watched[0].Gone || len(a.watched) != 0 {
		t.Fatalf("outcome told to a=%v b=%v", a.watched, b.watched)
	}
	if lastToast(h) != "restore 5 into x no longer exists (deleted)" || len(h.Raw) != 1 || h.Raw[0] != "\a" {
		t.Fatalf("toast %q raw %q", lastToast(h), h.Raw)
	}
	if len(h.m.Watching()) != 0 {
		t.Fatal("the watch did not end")
	}
}

// TestRestoreAcceptedWithUnreadableAnswer: on the live prefix, the server
// carries out the restore and answers 200 with a body nobody can read. The
// TUI says "accepted", never "failed", offers no retry, sends exactly one
// POST, lists the restore at once and follows it to its end.
func TestRestoreAcceptedWithUnreadableAnswer(t *testing.T) {
	srv, clk, _ := tuitest.Sandbox(t, true)
	garble := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/restores") {
			rec := httptest.NewRecorder()
			srv.ServeHTTP(rec, r)
			if rec.Code/100 == 2 {
				w.WriteHeader(http.StatusOK)
				io.WriteString(w, "<html><body>gateway: OK</body></html>")
				return
			}
			maps.Copy(w.Header(), rec.Header())
			w.WriteHeader(rec.Code)
			w.Write(rec.Body.Bytes())
			return
		}
		srv.ServeHTTP(w, r)
	})
	c, err := api.New(api.Config{BaseURL: "http://127.0.0.1:8080", APIKey: tuitest.TestKey,
		HTTPClient: tuitest.HTTPClient(garble), MaxRetries: -1, BackupPrefix: api.LiveBackupPrefix})
	if err != nil {
		t.Fatal(err)
	}
	d := newRestoreDriver(t, New(Options{Client: c, Profile: "skysql", Now: clk.Now,
		SlowInterval: 30 * time.Second, FastInterval: 2 * time.Second, Getenv: func(string) string { return "" }}), 140)
	d.restoreManaged("dev-serverless", "analytics-gcp")
	wait, press, tm, rec := d.wait, d.press, d.tm, d.rec
	wait("restore into dev-serverless: accepted; the answer could not be read", nil)
	wait("", regexp.MustCompile(`\d+\s+dev-serverless\s.*Running`))
	if f := rec.Frame(); strings.Contains(f, "failed") || strings.Contains(f, "try again") || strings.Contains(f, "retry") {
		t.Fatalf("an accepted restore reads as a failure:\n%s", f)
	}
	if n := srv.Stats().Count("POST", "/skybackup/v1/restores"); n != 1 {
		t.Fatalf("%d POSTs, want exactly 1", n)
	}
	clk.Advance(2 * time.Hour)
	wait("restore into dev-serverless succeeded", nil)
	press("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}

// restoreDriver runs the root model in teatest and drives it by keys.
type restoreDriver struct {
	t   *testing.T
	rec *tuitest.FrameRecorder
	tm  *teatest.TestModel
}

func newRestoreDriver(t *testing.T, m tea.Model, width int) *restoreDriver {
	rec := tuitest.NewFrameRecorder(m)
	return &restoreDriver{t: t, rec: rec, tm: teatest.NewTestModel(t, rec, teatest.WithInitialTermSize(width, 30))}
}

// wait waits for the frame to contain what (or match re).
func (d *restoreDriver) wait(what string, re *regexp.Regexp) {
	d.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		f := d.rec.Frame()
		if (re != nil && re.MatchString(f)) || (re == nil && strings.Contains(f, what)) {
			return
		}
		if time.Now().After(deadline) {
			d.t.Fatalf("the screen never showed %q %v; last frame:\n%s", what, re, f)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func (d *restoreDriver) press(ks ...string) {
	for _, k := range ks {
		d.tm.Send(tuitest.KeyMsg(k))
	}
}

func (d *restoreDriver) typ(s string) {
	for _, k := range tuitest.Typed(s) {
		d.tm.Send(k)
	}
}

// restoreManaged goes from the Services screen through the wizard to the
// submit of a restore of source's newest full backup into target, typing
// target's name to confirm.
func (d *restoreDriver) restoreManaged(target, source string) {
	d.t.Helper()
	d.wait("orders-prod", nil)
	d.press("3")
	d.wait("staging-eu", nil)
	d.press("n", "1")
	d.wait("which service to restore into", nil)
	d.typ("/" + target)
	// the services may still be read under load: the row first, then enter
	d.wait("", regexp.MustCompile(`>\s+`+regexp.QuoteMeta(target)+`\s`))
	d.press("enter") // keeps the name typed and chooses
	d.wait("Backups of "+target, nil)
	d.press("s")
	d.typ("/" + source)
	d.press("enter")
	d.wait("", regexp.MustCompile(`> \w+\s+full\s+completed`))
	d.press("enter")
	d.wait("Type "+target+" to confirm", nil)
	d.typ(target)
	d.press("enter")
}
