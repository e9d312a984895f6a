package backupform

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/tui/tuitest"
)

var now = tuitest.T0

var svc = api.Service{ID: "dbtaf33737495", Name: "orders-prod", Status: "ready", Provider: "aws"}

func common(t *testing.T, sec *keystore.Store, client *api.Client) *kit.Common {
	c := tuitest.Common()
	c.Secrets, c.Client = sec, client
	return c
}

func boolp(b bool) *bool { return &b }

// form builds a form whose keystore listing has been read.
func form(t *testing.T, c *kit.Common, o Options) *Form {
	t.Helper()
	b := New(c, svc, o)
	if c.Secrets != nil {
		list, err := c.Secrets.ListBucketCredentials()
		b.Update(credsLoadedMsg{id: b.id, creds: list, err: err})
	}
	return b
}

func TestDraftRequestNamesEveryBrokenRule(t *testing.T) {
	good := Draft{Type: api.BackupFull, When: WhenOnce, Destination: DestManaged}
	for _, c := range []struct {
		name  string
		edit  func(d *Draft)
		id    string
		wants []string // substrings of the error; none: valid
	}{
		{"valid once", func(*Draft) {}, svc.ID, nil},
		{"valid daily", func(d *Draft) { d.When, d.DailyAt = WhenDaily, "03:30" }, svc.ID, nil},
		{"valid hourly", func(d *Draft) { d.When = WhenHourly }, svc.ID, nil},
		{"valid cron", func(d *Draft) { d.When, d.Cron = WhenCustom, "30  1 * * 0" }, svc.ID, nil},
		{"valid bucket", func(d *Draft) {
			d.Destination, d.BucketPath, d.Credential = DestBucket, "s3://acme-exports/orders", "team-s3"
		}, svc.ID, nil},
		{"no type", func(d *Draft) { d.Type = "" }, svc.ID, []string{"backup_type: is required"}},
		{"unknown type", func(d *Draft) { d.Type = "nightly" }, svc.ID, []string{`backup_type: must be full, incremental, logical, physical or binarylog; on the live service full, incremental, binarylog, dump or snapshot (got "nightly")`}},
		{"cron with 4 fields", func(d *Draft) { d.When, d.Cron = WhenCustom, "0 3 * *" }, svc.ID, []string{"schedule: must be", "5 fields", "this has 4"}},
		{"cron minute out of range", func(d *Draft) { d.When, d.Cron = WhenCustom, "61 3 * * *" }, svc.ID, []string{"schedule:", "61"}},
		{"empty cron", func(d *Draft) { d.When, d.Cron = WhenCustom, "  " }, svc.ID, []string{`schedule: is required: "once" or a 5-field cron expression`}},
		{"daily bad time", func(d *Draft) { d.When, d.DailyAt = WhenDaily, "25:00" }, svc.ID, []string{"time: hour 25 must be 0 to 23"}},
		{"bad service ID", func(*Draft) {}, "orders", []string{`service_id: "orders" is not a service ID`}},
		{"bucket without scheme", func(d *Draft) {
			d.Destination, d.BucketPath, d.Credential = DestBucket, "acme/orders", "team-s3"
		}, svc.ID, []string{"external_storage.bucket.path: must start with s3:// or gs://"}},
		{"bucket https", func(d *Draft) {
			d.Destination, d.BucketPath, d.Credential = DestBucket, "https://acme/orders", "team-s3"
		}, svc.ID, []string{"external_storage.bucket.path: must start with s3:// or gs://"}},
		{"bucket name upper case", func(d *Draft) {
			d.Destination, d.BucketPath, d.Credential = DestBucket, "gs://Acme/orders", "team-gcs"
		}, svc.ID, []string{`external_storage.bucket.path: bucket name "Acme" must be 3 to 63 lower-case`}},
		{"bucket without path", func(d *Draft) {
			d.Destination, d.BucketPath, d.Credential = DestBucket, "s3://acme-exports/", "team-s3"
		}, svc.ID, []string{"external_storage.bucket.path: needs a path after the bucket name"}},
		{"bucket empty", func(d *Draft) { d.Destination, d.Credential = DestBucket, "team-s3" }, svc.ID,
			[]string{"external_storage.bucket.path: is required"}},
		{"no credentials", func(d *Draft) { d.Destination, d.BucketPath = DestBucket, "gs://acme-exports/orders" }, svc.ID,
			[]string{"external_storage.bucket.credentials: choose stored GCS credentials for gs://"}},
		{"several at once", func(d *Draft) { d.Type, d.When, d.Cron = "", WhenCustom, "x" }, svc.ID,
			[]string{"backup_type:", "schedule:"}},
	} {
		d := good
		c.edit(&d)
		req, err := d.Request(c.id)
		if len(c.wants) == 0 {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			if err := req.Validate(); err != nil && !strings.Contains(err.Error(), "credentials") {
				t.Errorf("%s: the api refuses what the form accepts: %v", c.name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		for _, w := range c.wants {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", c.name, err, w)
			}
		}
	}
}

func TestHintsAsTyped(t *testing.T) {
	b := form(t, common(t, tuitest.Secrets(t, "team"), nil), Options{HasFullBackup: boolp(true)})
	for _, c := range []struct{ got, want string }{
		{b.cronHint(""), "five fields, such as 30 1 * * 0"},
		{b.cronHint("0 3 * *"), "! schedule: must be"},
		{b.cronHint("0 3 * * 9"), "! schedule:"},
		{b.cronHint("30 1 * * 0"), "ok: every Sunday at 01:30 UTC\nnext runs: Sun 2026-03-15 01:30 UTC"},
		{b.cronHint("1-10/2 * * * *"), "ok: custom schedule 1-10/2 * * * *"},
		{b.dailyHint("4:30"), "ok: daily at 04:30 UTC (cron 30 4 * * *)\nnext runs: Sun 2026-03-15 04:30 UTC"},
		{b.dailyHint("4h30"), "! time: \"4h30\" is not HH:MM"},
		{b.pathHint("", api.BackupFull), "Writing to your own bucket is how data leaves the managed service. A logical backup (SQL statements) is the portable choice"},
		{b.pathHint("s3://acme", api.BackupFull), "! external_storage.bucket.path: needs a path after the bucket name"},
		{b.pathHint("s4://acme/x", api.BackupFull), "! external_storage.bucket.path: must start with s3:// or gs://"},
		{b.pathHint("s3://acme-exports/orders/", api.BackupPhysical), "ok: s3 bucket acme-exports, folder orders. A logical backup (SQL statements) is the portable choice for leaving the service; you chose physical."},
		{b.pathHint("gs://acme-exports/x", api.BackupLogical), "Logical (SQL statements): the portable choice for leaving the service."},
		// the live service's name for it, as chosen (it said "Logical")
		{b.pathHint("gs://acme-exports/x", api.BackupDump), "Dump (the logical backup: SQL statements): the portable choice for leaving the service."},
		{b.pathHint("", api.BackupDump), "how data leaves the managed service. Dump (the logical backup"},
	} {
		if !strings.Contains(c.got, c.want) {
			t.Errorf("hint %q does not contain %q", c.got, c.want)
		}
	}
}

func TestIncrementalNeedsAFullBackup(t *testing.T) {
	c := common(t, tuitest.Secrets(t, "team"), nil)
	without := form(t, c, Options{HasFullBackup: boolp(false), Draft: &Draft{Type: api.BackupIncremental, When: WhenOnce, Destination: DestManaged}})
	label := optionKey(without.typeOptions(), api.BackupIncremental)
	if !strings.Contains(label, "unavailable: this service has no completed full backup yet") {
		t.Fatalf("incremental option = %q", label)
	}
	if d := without.typeDescription(); !strings.Contains(d, "Not available: incremental needs a completed full backup first, and orders-prod has none yet") {
		t.Fatalf("description = %q", d)
	}
	err := without.check()
	if err == nil || !strings.Contains(err.Error(), "backup_type: incremental needs a completed full backup first") {
		t.Fatalf("check = %v", err)
	}
	with := form(t, c, Options{HasFullBackup: boolp(true), Draft: &Draft{Type: api.BackupIncremental, When: WhenOnce, Destination: DestManaged}})
	if err := with.check(); err != nil {
		t.Fatalf("incremental refused although a full backup exists: %v", err)
	}
	if label := optionKey(with.typeOptions(), api.BackupIncremental); !strings.Contains(label, "needs a full one first") || strings.Contains(label, "unavailable") {
		t.Fatalf("incremental option = %q", label)
	}
	// unknown: the form asks the API and says it is checking
	c.Client = nil
	asking := New(c, svc, Options{})
	if label := optionKey(asking.typeOptions(), api.BackupIncremental); !strings.Contains(label, "checking whether a full backup exists") {
		t.Fatalf("incremental while checking = %q", label)
	}
	asking.Update(fullCheckedMsg{id: asking.id, has: false})
	if asking.incrementalRule() == "" {
		t.Fatal("the answer of the check was not taken")
	}
	asking.Update(fullCheckedMsg{id: asking.id + 1000, has: true}) // another form's answer
	if asking.incrementalRule() == "" {
		t.Fatal("another form's answer was taken")
	}
}

func TestHasCompletedFull(t *testing.T) {
	for _, c := range []struct {
		list []api.Backup
		want bool
	}{
		{nil, false},
		{[]api.Backup{{Type: "full", Status: "Running"}}, false},
		{[]api.Backup{{Type: "full", Status: "Failed"}}, false},
		{[]api.Backup{{Type: "incremental", Status: "Succeeded"}}, false},
		{[]api.Backup{{Type: "full", Status: "Succeeded"}}, true},
		{[]api.Backup{{Type: "FULL", Status: "completed"}}, true},
	} {
		if got := api.HasCompletedFull(c.list); got != c.want {
			t.Errorf("api.HasCompletedFull(%v) = %v", c.list, got)
		}
	}
}

func optionKey(opts []huh.Option[string], v string) string {
	for _, o := range opts {
		if o.Value == v {
			return o.Key
		}
	}
	return ""
}

func TestCredentialChoices(t *testing.T) {
	c := common(t, tuitest.Secrets(t, "team"), nil)
	b := form(t, c, Options{Bucket: "gs://acme-exports/orders"})
	if got := keys(b.credOptions()); got != "team-gcs  (GCS)" {
		t.Fatalf("gs:// offers %q", got)
	}
	b.path.Set("s3://acme-exports/orders")
	b.scheme.Set("s3")
	if got := keys(b.credOptions()); got != "team-s3  (S3)" {
		t.Fatalf("s3:// offers %q", got)
	}
	// the kinds must match the scheme
	if err := keystore.CheckForBucket("s3://acme-exports/orders", "team-gcs", keystore.KindGCS); err == nil ||
		err.Error() != "external_storage.bucket.credentials: team-gcs is a GCS credential; s3:// needs S3 credentials" {
		t.Fatalf("mismatch = %v", err)
	}
	b.cred.Set("team-gcs")
	b.dest.Set(DestBucket)
	if err := b.check(); err == nil || !strings.Contains(err.Error(), "s3:// needs S3 credentials") {
		t.Fatalf("check with a GCS credential on s3:// = %v", err)
	}

	// none stored for the scheme: how to add one
	empty, _ := keystore.Open(keystore.Options{Backends: []keystore.Backend{keystore.NewMemoryBackend("")}, Getenv: func(string) string { return "" }})
	e := form(t, common(t, empty, nil), Options{Bucket: "s3://acme-exports/orders"})
	if got := keys(e.credOptions()); got != "(none stored for s3://: add one with skytui creds add s3 NAME)" {
		t.Fatalf("no credentials: %q", got)
	}
	// no keystore at all
	n := New(common(t, nil, nil), svc, Options{Bucket: "gs://acme-exports/orders"})
	n.Init()
	if got := keys(n.credOptions()); !strings.Contains(got, "no keystore is open") {
		t.Fatalf("no keystore: %q", got)
	}
	if d := n.credDescription(); !strings.Contains(d, "skytui creds add gcs NAME --key-file KEY.json") {
		t.Fatalf("no keystore description: %q", d)
	}
}

func keys(opts []huh.Option[string]) string {
	var out []string
	for _, o := range opts {
		out = append(out, o.Key)
	}
	return strings.Join(out, " | ")
}

// TestSubmitSendsOnceWithEncodedCredentials runs the action the form
// hands over: the request it shows has the credentials redacted, the one
// sent carries them base64-encoded from the keystore, and the form never
// held them.
func TestSubmitSendsOnceWithEncodedCredentials(t *testing.T) {
	var bodies []string
	client := tuitest.Client(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies = append(bodies, r.Method+" "+r.URL.Path+" "+string(b))
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"id": 42, "service_id": "dbtaf33737495", "type": "logical", "schedule": "once", "backup_id": "abcdef0123456789:dbtaf33737495:pod"}`))
	}), api.Config{APIKey: "k"})
	sec := tuitest.Secrets(t, "team")
	b := form(t, common(t, sec, client), Options{HasFullBackup: boolp(true),
		Draft: &Draft{Type: api.BackupLogical, When: WhenOnce, Destination: DestBucket, BucketPath: "s3://acme-exports/orders", Credential: "team-s3"}})
	b.SetSize(120, 40)
	b.step = phaseReview
	if v := b.View(); strings.Contains(v, "s3cr3t") || strings.Contains(v, "AKIATEST") || !strings.Contains(v, `<redacted: stored S3 credential \"team-s3\"`) {
		t.Fatalf("review:\n%s", v)
	}
	cmd := b.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	msg, ok := cmd().(SubmitMsg)
	if !ok {
		t.Fatalf("enter in the review = %T", cmd())
	}
	if again := b.Update(tea.KeyPressMsg{Code: tea.KeyEnter}); again != nil {
		t.Fatal("a second enter submits again")
	}
	if !msg.Action.Mutating || msg.Credential != "team-s3" || msg.Request.ExternalStorage.Bucket.Credentials != Redacted("team-s3", keystore.KindS3) {
		t.Fatalf("submit = %+v", msg)
	}
	if d, _ := json.Marshal(b.Draft()); bytes.Contains(d, []byte("s3cr3t")) {
		t.Fatal("the draft holds the secret")
	}
	res, err := msg.Action.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(bodies) != 1 || !strings.HasPrefix(bodies[0], "POST /backup/v1/backups/schedules ") {
		t.Fatalf("requests: %q", bodies)
	}
	var sent api.ScheduleRequest
	_ = json.Unmarshal([]byte(strings.SplitN(bodies[0], " ", 3)[2]), &sent)
	raw, _ := base64.StdEncoding.DecodeString(sent.ExternalStorage.Bucket.Credentials)
	if !strings.Contains(string(raw), "aws_secret_access_key = s3cr3t-never-shown") || sent.ExternalStorage.Bucket.Path != "s3://acme-exports/orders" ||
		sent.BackupType != "logical" || sent.Schedule != "once" || sent.ServiceID != svc.ID {
		t.Fatalf("sent %+v (credentials %q)", sent, raw)
	}
	if got := msg.Action.Success(res); got != "backup job 42 started: logical backup of orders-prod to s3://acme-exports/orders (backup abcdef012345)" {
		t.Fatalf("toast = %q", got)
	}
	// the API refuses: back to the review, enter tries again
	b.Failed(errors.New("400 Bad Request: nope"))
	if !b.Reviewing() || !strings.Contains(b.View(), "the API refused it: 400 Bad Request: nope") {
		t.Fatalf("after a refusal:\n%s", b.View())
	}
	if b.Update(tea.KeyPressMsg{Code: tea.KeyEnter}) == nil {
		t.Fatal("enter after a refusal does not try again")
	}
}

func TestEscKeepsTheDraft(t *testing.T) {
	b := form(t, common(t, tuitest.Secrets(t, "team"), nil), Options{HasFullBackup: boolp(true)})
	b.typ.Set(api.BackupLogical)
	b.when.Set(WhenCustom)
	b.cron.Set("0 4 * * *")
	cmd := b.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	msg, ok := cmd().(CancelMsg)
	if !ok || msg.Form != b || msg.Draft.Type != api.BackupLogical || msg.Draft.Cron != "0 4 * * *" || msg.Draft.When != WhenCustom {
		t.Fatalf("esc = %+v", msg)
	}
	again := New(b.common, svc, Options{Draft: &msg.Draft})
	if again.Draft() != msg.Draft {
		t.Fatalf("reopened with %+v, want %+v", again.Draft(), msg.Draft)
	}
	// another service's form starts afresh: the draft is orders-prod's
	other := api.Service{ID: "dbtst00000001", Name: "staging-eu", Status: "ready"}
	if d := New(b.common, other, Options{Draft: &msg.Draft}).Draft(); d.Type != api.BackupFull || d.When != WhenOnce || d.Cron != "" {
		t.Fatalf("staging-eu's form opened with orders-prod's draft: %+v", d)
	}
}

// TestBucketHintNamesTheProfilesLogicalType: the bucket path's hint names
// the logical backup the type field offers: dump on the live service's
// interface (which has no logical), logical elsewhere.
func TestBucketHintNamesTheProfilesLogicalType(t *testing.T) {
	for _, tc := range []struct{ prefix, want, not string }{
		{"", "A logical backup (SQL statements) is the portable choice for leaving the service; you chose full.", "dump"},
		{api.LiveBackupPrefix, "A dump (the logical backup: SQL statements) is the portable choice for leaving the service; you chose full.", "A logical backup"},
	} {
		client, err := api.New(api.Config{BaseURL: "http://127.0.0.1:1", APIKey: "k", BackupPrefix: tc.prefix})
		if err != nil {
			t.Fatal(err)
		}
		b := New(common(t, nil, client), svc, Options{})
		for _, path := range []string{"", "s3://acme-exports/orders/"} {
			got := b.pathHint(path, api.BackupFull)
			if !strings.Contains(got, tc.want) || strings.Contains(got, tc.not) {
				t.Errorf("prefix %q, path %q: hint %q, want %q", tc.prefix, path, got, tc.want)
			}
		}
	}
}

// TestTypesOfTheProfilesInterface: on the live service's backup prefix the
// form offers its types (dump, snapshot), not the interface document's
// logical and physical, which it would refuse.
func TestTypesOfTheProfilesInterface(t *testing.T) {
	for _, tc := range []struct {
		prefix, want string
	}{
		{"", "full incremental logical physical binarylog"},
		{api.LiveBackupPrefix, "full incremental binarylog dump snapshot"},
	} {
		client, err := api.New(api.Config{BaseURL: "http://127.0.0.1:1", APIKey: "k", BackupPrefix: tc.prefix})
		if err != nil {
			t.Fatal(err)
		}
		b := New(common(t, nil, client), svc, Options{})
		var got []string
		for _, o := range b.typeOptions() {
			got = append(got, o.Value)
		}
		if got := strings.Join(got, " "); got != tc.want {
			t.Errorf("prefix %q: types %q, want %q", tc.prefix, got, tc.want)
		}
	}
}

// TestEditAfterRefusalGoesToTheField: after the API refuses naming the
// bucket path, the review says so and e opens the form on the path, with
// everything kept; a refusal about the schedule goes to the cron
// expression shown; one naming no field, or a schedule the one-off form
// (the migration's) does not show, to the first step.
func TestEditAfterRefusalGoesToTheField(t *testing.T) {
	for _, tc := range []struct {
		draft Draft
		err   string
		field string
		once  bool
	}{
		{Draft{Type: api.BackupLogical, When: WhenOnce, Destination: DestBucket, BucketPath: "s3://acme-exports/orders", Credential: "team-s3"},
			"400 Bad Request: external_storage.bucket.path must end with '/' (POST /backup/v1/backups/schedules, trace 1f)", "bucket path", false},
		{Draft{Type: api.BackupFull, When: WhenCustom, Cron: "0 4 * * *", Destination: DestManaged},
			"400 Bad Request: invalid cron expression (POST /backup/v1/backups/schedules, trace 1f)", "cron", false},
		{Draft{Type: api.BackupFull, When: WhenOnce, Destination: DestManaged},
			"409 Conflict: service is in a pending state (POST /backup/v1/backups/schedules, trace 1f)", "", false},
		{Draft{Type: api.BackupFull, When: WhenOnce, Destination: DestManaged},
			"400 Bad Request: invalid schedule (POST /backup/v1/backups/schedules, trace 1f)", "", true},
	} {
		b := form(t, common(t, tuitest.Secrets(t, "team"), nil), Options{HasFullBackup: boolp(true), Draft: &tc.draft, Once: tc.once})
		b.SetSize(120, 40)
		b.step = phaseReview
		b.Failed(errors.New(tc.err))
		want := "e to edit, enter"
		if tc.field != "" {
			want = "e to edit " + tc.field + ", enter"
		}
		if !strings.Contains(tuitest.View(b), want) {
			t.Fatalf("%s: the review does not say %q:\n%s", tc.err, want, tuitest.View(b))
		}
		b.Update(tea.KeyPressMsg{Code: 'e', Text: "e"})
		if b.Reviewing() {
			t.Fatalf("%s: e did not open the form", tc.err)
		}
		wantField := b.fields[tc.field]
		if tc.field == "" {
			wantField = b.fields["type"]
		}
		if b.form.GetFocusedField() != wantField {
			t.Fatalf("%s: the form is not on %q", tc.err, tc.field)
		}
		kept := tc.draft
		kept.Service = svc.ID // the form's draft names its service
		if b.Draft() != kept {
			t.Fatalf("%s: the draft changed: %+v", tc.err, b.Draft())
		}
	}
}

// TestOnceAsksNoSchedule: a one-off form (the migration's backup) goes
// from the type straight to the destination, and is "once" whatever the
// draft said.
func TestOnceAsksNoSchedule(t *testing.T) {
	b := form(t, common(t, tuitest.Secrets(t, "team"), nil), Options{HasFullBackup: boolp(true), Once: true,
		Draft: &Draft{Type: api.BackupLogical, When: WhenDaily, DailyAt: "03:00", Destination: DestManaged}})
	if got := b.Draft().When; got != WhenOnce {
		t.Fatalf("when = %q, want once", got)
	}
	b.form.NextGroup()
	if b.form.GetFocusedField() != b.fields["destination"] {
		t.Fatalf("after the type the form asks %T, not the destination", b.form.GetFocusedField())
	}
}

// TestRefusedFieldSaysWhy: an emptied bucket path keeps the form on the
// field, and the field says why (the form's validation errors were drawn
// below its area, so enter seemed to do nothing), at the areas of an
// 80x24 and a 60x16 terminal.
func TestRefusedFieldSaysWhy(t *testing.T) {
	for _, size := range [][2]int{{80, 20}, {60, 12}} {
		b := form(t, common(t, tuitest.Secrets(t, "team"), nil), Options{HasFullBackup: boolp(true),
			Draft: &Draft{Type: api.BackupLogical, When: WhenOnce, Destination: DestBucket, BucketPath: "s3://acme-exports/orders", Credential: "team-s3"}})
		b.SetSize(size[0], size[1])
		b.Init()
		kit.FocusField(b.form, b.groups, b.fields["bucket path"])
		for range len("s3://acme-exports/orders") {
			b.Update(tea.KeyPressMsg{Code: tea.KeyBackspace})
		}
		b.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
		if b.form.GetFocusedField() != b.fields["bucket path"] {
			t.Fatalf("%v: enter left the emptied path", size)
		}
		v := strings.Join(strings.Fields(strings.ReplaceAll(tuitest.View(b), "| ", " ")), " ")
		if !strings.Contains(v, "! external_storage.bucket.path: is required") {
			t.Errorf("%v: the refusal is not shown:\n%s", size, tuitest.View(b))
		}
		tuitest.CheckFits(t, "new backup", b.View(), size[0], size[1])
	}
}

// TestReviewWrapsBetweenWords: the review's request, at widths down to the
// smallest terminal, wraps between words: the redaction note reads whole
// ("base64-encoded", not "base64-en" / "coded"), and no line is wider than
// the pane.
func TestReviewWrapsBetweenWords(t *testing.T) {
	sec := tuitest.Secrets(t, "archive")
	b := form(t, common(t, sec, nil), Options{HasFullBackup: boolp(true),
		Draft: &Draft{Type: api.BackupDump, When: WhenOnce, Destination: DestBucket, BucketPath: "s3://acme-exports/x", Credential: "archive-s3"}})
	note := strings.Fields(strings.ReplaceAll(`"credentials": "`+Redacted("archive-s3", keystore.KindS3)+`"`, `"archive-s3"`, `\"archive-s3\"`))
	for w := 60; w <= 80; w++ {
		b.SetSize(w, 24)
		b.step = phaseReview
		v := ansi.Strip(b.View())
		var words []string
		for _, l := range strings.Split(v, "\n") {
			if lw := ansi.StringWidth(l); lw > w {
				t.Fatalf("width %d: a line %d wide: %q", w, lw, l)
			}
			words = append(words, strings.Fields(l)...)
		}
		if !strings.Contains(" "+strings.Join(words, " ")+" ", " "+strings.Join(note, " ")+" ") {
			t.Fatalf("width %d: the redaction note is not whole words:\n%s", w, v)
		}
	}
}

// TestTabOnTheLastFieldReviews: the footer says "enter/tab next"; tab on
// the form's last field opens the review as enter does, instead of doing
// nothing.
func TestTabOnTheLastFieldReviews(t *testing.T) {
	b := form(t, common(t, tuitest.Secrets(t, "team"), nil), Options{HasFullBackup: boolp(true),
		Draft: &Draft{Type: api.BackupLogical, When: WhenOnce, Destination: DestManaged}})
	b.SetSize(80, 20)
	b.Init()
	kit.FocusField(b.form, b.groups, b.fields["destination"])
	deliver(b, b.Update(tea.KeyPressMsg{Code: tea.KeyTab}), 3)
	if !b.Reviewing() {
		t.Fatalf("tab on the destination (the last field) did not open the review:\n%s", tuitest.View(b))
	}
}

// TestShiftTabGoesBackFromAnyField: shift+tab from the bucket path,
// empty or refused, shows the destination step with its choice focused
// and no error (the path's belongs to a step not shown); the keys typed
// next go to that choice, and coming back finds the path as typed, its
// field focused, taking keys. shift+tab from the credentials, none
// chosen, goes back to the path, then to the destination. huh checked
// a field as shift+tab left it and kept the form on a step that then
// held an error: the path was blurred, the page stayed on "your own
// bucket" with "! external_storage.bucket.path: is required" and no field
// focused, and what was typed was lost (a select's check held the
// credentials' shift+tab at the key).
func TestShiftTabGoesBackFromAnyField(t *testing.T) {
	c := common(t, tuitest.EmptySecrets(t), nil)
	errorLine := func(v string) string {
		for _, l := range strings.Split(v, "\n") {
			if strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "|")), "! ") {
				return l
			}
		}
		return ""
	}
	onDestination := func(h *tuitest.Harness, what string) {
		t.Helper()
		v := h.Screen()
		if !strings.Contains(v, "Step 3 of 3: destination") || !strings.Contains(v, "| Destination") ||
			!strings.Contains(v, "| > your own bucket") {
			t.Fatalf("%s: shift+tab did not show the destination, focused:\n%s", what, v)
		}
		if l := errorLine(v); l != "" {
			t.Fatalf("%s: the destination step shows an error: %q\n%s", what, l, v)
		}
	}
	for _, typed := range []string{"", "gs://x/y"} {
		what := fmt.Sprintf("path %q", typed)
		b, h := run(t, c, Options{HasFullBackup: boolp(true)}, 80, 21)
		h.Keys("enter", "enter", "down", "enter") // full, once, your own bucket
		h.Sees("Step 3 of 3: your own bucket")
		typeKeys(h, typed)
		h.Key("shift+tab")
		onDestination(h, what)
		h.Key("up") // the keys go to the choice shown
		if v := h.Screen(); !strings.Contains(v, "| > managed storage") || b.dest.Get() != DestManaged {
			t.Fatalf("%s: up after shift+tab did not move the destination's choice (%s):\n%s", what, b.dest.Get(), v)
		}
		h.Keys("down", "enter")
		v := h.Screen()
		shown := kit.Or(typed, "s3://my-bucket/backups") // the placeholder
		if !strings.Contains(v, "Step 3 of 3: your own bucket") || !strings.Contains(v, "| > "+shown) || b.path.Get() != typed {
			t.Fatalf("%s: back on the bucket, the path is %q, not as typed, or not focused:\n%s", what, b.path.Get(), v)
		}
		typeKeys(h, "z")
		if got := b.path.Get(); got != typed+"z" {
			t.Fatalf("%s: a key typed back on the path gave %q", what, got)
		}
	}

	// from the credentials (none stored for gs://): to the path, then to
	// the destination
	b, h := run(t, c, Options{HasFullBackup: boolp(true)}, 80, 21)
	h.Keys("enter", "enter", "down", "enter")
	typeKeys(h, "gs://abc/y")
	h.Keys("tab", "enter")
	if v := h.Screen(); !strings.Contains(v, "! external_storage.bucket.credentials") {
		t.Fatalf("enter on no credentials is not refused:\n%s", v)
	}
	h.Key("shift+tab")
	v := h.Screen()
	if !strings.Contains(v, "| > gs://abc/y") || b.form.GetFocusedField() != b.fields["bucket path"] {
		t.Fatalf("shift+tab from the credentials did not focus the path:\n%s", v)
	}
	if l := errorLine(v); l != "" {
		t.Fatalf("back on the path, an error is shown: %q\n%s", l, v)
	}
	h.Key("shift+tab")
	onDestination(h, "from the credentials")
}

// deliver runs cmd and gives what it answers back to the form, depth
// rounds deep (the huh form ends through its SubmitCmd).
func deliver(b *Form, cmd tea.Cmd, depth int) { tuitest.RunCmds(b.Update, cmd, depth) }

// TestSchemeOnlyBucketIsAPlaceholder: a bucket preset to a scheme alone
// (the migration's "gs://") is the path field's placeholder, not its
// value: a whole URL pasted into it is the path (it read
// "s3://s3://mig-bucket/orders").
func TestSchemeOnlyBucketIsAPlaceholder(t *testing.T) {
	for _, sc := range []string{"s3", "gs"} {
		b := form(t, common(t, tuitest.Secrets(t, "team"), nil), Options{HasFullBackup: boolp(true), Once: true, Bucket: sc + "://"})
		b.SetSize(80, 24)
		b.Init()
		if d := b.Draft(); d.Destination != DestBucket || d.BucketPath != "" {
			t.Fatalf("%s: preset to %+v", sc, d)
		}
		kit.FocusField(b.form, b.groups, b.fields["bucket path"])
		if v := tuitest.View(b); !strings.Contains(v, sc+"://my-bucket/backups") {
			t.Errorf("%s: the placeholder is not shown:\n%s", sc, v)
		}
		url := sc + "://mig-bucket/orders"
		deliver(b, b.Update(tea.PasteMsg{Content: url}), 2)
		if got := b.Draft().BucketPath; got != url {
			t.Fatalf("%s: pasted %q, the path is %q", sc, url, got)
		}
	}
	// a whole path preset stays the value
	b := form(t, common(t, tuitest.Secrets(t, "team"), nil), Options{Bucket: "s3://acme/x"})
	if got := b.Draft().BucketPath; got != "s3://acme/x" {
		t.Fatalf("a whole preset path became %q", got)
	}
}
