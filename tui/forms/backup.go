package forms

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/tui/kit"
)

// The new-backup form: type, when (once, daily at HH:MM, every hour, or a
// cron expression with its next runs), destination (managed storage or
// the user's own bucket with stored credentials), then a review of the
// request with the credentials redacted. Every field is checked as it is
// typed with the api package's rules, the ones the client and the sandbox
// apply.

// When choices.
const (
	WhenOnce   = "once"
	WhenDaily  = "daily"
	WhenHourly = "hourly"
	WhenCustom = "custom"
)

// Destination choices.
const (
	DestManaged = "managed"
	DestBucket  = "bucket"
)

// BackupDraft is what the user chose and typed. It never holds a secret:
// Credential is the name of stored bucket credentials.
type BackupDraft struct {
	Type        string // api.BackupFull, …
	When        string // WhenOnce, WhenDaily, WhenHourly, WhenCustom
	DailyAt     string // "HH:MM" (UTC) for WhenDaily
	Cron        string // the expression for WhenCustom
	Destination string // DestManaged or DestBucket
	BucketPath  string // s3://… or gs://… for DestBucket
	Credential  string // name of stored bucket credentials for DestBucket
}

// Schedule is the request's schedule: "once" or a cron expression.
func (d BackupDraft) Schedule() (string, error) {
	switch d.When {
	case WhenOnce, "":
		return "once", nil
	case WhenDaily:
		return DailyCron(d.DailyAt)
	case WhenHourly:
		return HourlyCron, nil
	case WhenCustom:
		expr := strings.Join(strings.Fields(d.Cron), " ")
		if err := api.ValidateSchedule(expr); err != nil {
			return "", err
		}
		return expr, nil
	}
	return "", fmt.Errorf("schedule: unknown choice %q", d.When)
}

// Request builds the body that will be sent, without the credentials
// (they are read from the keystore and encoded when the request is sent).
// Its error lists every broken rule, each naming the field.
func (d BackupDraft) Request(serviceID string) (api.ScheduleRequest, error) {
	req := api.ScheduleRequest{BackupType: d.Type, ServiceID: serviceID}
	var errs []error
	add := func(err error) {
		if err != nil {
			errs = append(errs, err)
		}
	}
	add(api.ValidateBackupType(d.Type))
	sched, err := d.Schedule()
	add(err)
	req.Schedule = sched
	add(api.ValidateServiceID(serviceID))
	if d.Destination == DestBucket {
		path := strings.TrimSpace(d.BucketPath)
		req.ExternalStorage = &api.ExternalStorage{Bucket: api.ExternalBucket{Path: path}}
		add(api.ValidateBackupBucketPath(path))
		add(bkCredentialRule(path, d.Credential, ""))
	}
	return req, errors.Join(errs...)
}

// bkCredentialRule checks the chosen credential against the bucket's
// scheme: gs:// takes GCS credentials, s3:// S3 ones. kind is the chosen
// credential's kind when known ("" skips that check).
func bkCredentialRule(path, name, kind string) error {
	const field = "external_storage.bucket.credentials"
	scheme, _, _, _ := api.ParseBucketURI(path)
	if name == "" {
		if want := kindOf(scheme); want != "" {
			return &api.FieldError{Field: field, Rule: "choose stored " + bkKindLabel(want) + " credentials for " + scheme + "://"}
		}
		return &api.FieldError{Field: field, Rule: "choose stored bucket credentials"}
	}
	if want := kindOf(scheme); kind != "" && want != "" && kind != want {
		return &api.FieldError{Field: field, Rule: fmt.Sprintf("%s is a %s credential; %s:// needs %s credentials", name, bkKindLabel(kind), scheme, bkKindLabel(want))}
	}
	return nil
}

// kindOf is the credential kind a bucket scheme needs.
func kindOf(scheme string) string {
	switch scheme {
	case "gs":
		return keystore.KindGCS
	case "s3":
		return keystore.KindS3
	}
	return ""
}

func bkKindLabel(kind string) string {
	switch kind {
	case keystore.KindGCS:
		return "GCS"
	case keystore.KindS3:
		return "S3"
	}
	return kind
}

func bkSchemeOf(path string) string {
	s, _, _, _ := api.ParseBucketURI(strings.TrimSpace(path))
	return s
}

// addCredentialHint says how to store credentials for a scheme.
func addCredentialHint(scheme string) string {
	if scheme == "gs" {
		return "skytui creds add gcs NAME --key-file KEY.json"
	}
	if scheme == "s3" {
		return "skytui creds add s3 NAME"
	}
	return "skytui creds add s3 NAME (or gcs NAME --key-file KEY.json)"
}

// Redacted is what the review shows instead of the credentials.
func Redacted(name, kind string) string {
	return fmt.Sprintf("<redacted: stored %s credential %q, base64-encoded when sent>", bkKindLabel(kind), name)
}

// bkTypeInfo is each type's one-line explanation (the option label) and
// its longer description.
var bkTypeInfo = map[string][2]string{
	api.BackupFull:        {"complete copy; what incremental backups build on", "A full physical backup of every database. Incremental backups build on the last full one."},
	api.BackupIncremental: {"only changes since the last backup; needs a full one first", "Copies only what changed since the last backup: small and quick. Needs a completed full backup first."},
	api.BackupLogical:     {"SQL statements (mysqldump): portable, to leave the service", "Writes SQL statements (mysqldump): the portable choice for moving data out of the managed service, to your own bucket."},
	api.BackupPhysical:    {"data files (mariabackup): meant for large databases", "Copies the data files (mariabackup): meant for large databases, faster to take and to restore than logical."},
	api.BackupBinarylog:   {"the binary logs, for point-in-time recovery", "Saves the binary logs: the changes since the last backup, for point-in-time recovery."},
}

// TypeExplanation is the one-line explanation of a backup type.
func TypeExplanation(t string) string { return bkTypeInfo[t][0] }

// Full-backup knowledge.
const (
	bkFullUnknown = iota
	bkFullYes
	bkFullNo
	bkFullError
)

// BackupOptions configure a Backup form. All are optional.
type BackupOptions struct {
	// Draft reopens the form with what was typed before (after esc or a
	// failed submit).
	Draft *BackupDraft
	// Type presets the backup type (the migration flow asks for logical).
	Type string
	// Bucket presets the destination: the user's own bucket at this path.
	Bucket string
	// Credential presets the stored credentials' name for Bucket.
	Credential string
	// HasFullBackup says whether the service has a completed full backup
	// (incremental is refused without one). Nil: the form lists the
	// service's backups once when it opens to find out.
	HasFullBackup *bool
}

// BackupSubmitMsg is emitted when the user submits the review. Hand Action
// to kit.Do (after setting Origin and Tag); it reads the credentials from
// the keystore, encodes them and sends the request once. Request is the
// body without the credentials, for display.
type BackupSubmitMsg struct {
	Form       *Backup
	Request    api.ScheduleRequest
	Credential string // stored credentials' name; "" for managed storage
	Action     kit.Action
}

// BackupCancelMsg is emitted when the user leaves the form with esc; Draft
// reopens it as it was.
type BackupCancelMsg struct {
	Form  *Backup
	Draft BackupDraft
}

// internal messages, tagged with the form's id
type (
	bkHuhDoneMsg struct {
		id     int64
		cancel bool
	}
	bkCredsLoadedMsg struct {
		id    int64
		creds []keystore.CredentialInfo
		err   error
	}
	bkFullCheckedMsg struct {
		id  int64
		has bool
		err error
	}
	bkRefreshMsg struct{ id int64 }
)

var bkFormIDs atomic.Int64

type bkStep int

const (
	bkStepForm bkStep = iota
	bkStepReview
)

// Backup is the new-backup form of one service. Create it with NewBackup,
// call Init, then route every message to Update while it is shown.
type Backup struct {
	id     int64
	common *kit.Common
	svc    api.Service
	opts   BackupOptions

	typ, when, daily, cron, dest, path, cred *val[string]
	scheme                                   *val[string] // of path, for the credential options
	full                                     *val[int]
	credsVer                                 *val[int]

	mu       sync.Mutex // guards creds, credsErr (read by huh's option commands)
	creds    []keystore.CredentialInfo
	credsErr error
	credsOK  bool
	fullErr  error

	form          *huh.Form
	step          bkStep
	reviewErr     string // the draft breaks a rule
	submitErr     string // the API refused it
	submitted     bool
	width, height int
}

// NewBackup builds the form for svc. It reads nothing until Init.
func NewBackup(c *kit.Common, svc api.Service, o BackupOptions) *Backup {
	d := BackupDraft{Type: api.BackupFull, When: WhenOnce, DailyAt: "03:00", Destination: DestManaged}
	if o.Type != "" {
		d.Type = o.Type
	}
	if o.Bucket != "" {
		d.Destination, d.BucketPath, d.Credential = DestBucket, o.Bucket, o.Credential
	}
	if o.Draft != nil {
		d = *o.Draft
	}
	b := &Backup{
		id: bkFormIDs.Add(1), common: c, svc: svc, opts: o,
		typ: newVal(d.Type), when: newVal(d.When), daily: newVal(d.DailyAt), cron: newVal(d.Cron),
		dest: newVal(d.Destination), path: newVal(d.BucketPath), cred: newVal(d.Credential),
		scheme: newVal(bkSchemeOf(d.BucketPath)), full: newVal(bkFullUnknown), credsVer: newVal(0),
	}
	if o.HasFullBackup != nil {
		if *o.HasFullBackup {
			b.full.Set(bkFullYes)
		} else {
			b.full.Set(bkFullNo)
		}
	}
	b.build()
	return b
}

// Service is the service the form backs up.
func (b *Backup) Service() api.Service { return b.svc }

// Draft is what was typed and chosen so far.
func (b *Backup) Draft() BackupDraft {
	return BackupDraft{
		Type: b.typ.Get(), When: b.when.Get(), DailyAt: b.daily.Get(), Cron: b.cron.Get(),
		Destination: b.dest.Get(), BucketPath: b.path.Get(), Credential: b.cred.Get(),
	}
}

// Reviewing reports that the review step is shown.
func (b *Backup) Reviewing() bool { return b.step == bkStepReview }

// CapturesKeys reports that a field has focus (every key is typing).
func (b *Backup) CapturesKeys() bool { return b.step == bkStepForm }

// Failed brings the form back to the review with the API's refusal;
// everything typed is kept and enter tries again.
func (b *Backup) Failed(err error) {
	b.submitted = false
	b.step = bkStepReview
	b.submitErr = err.Error()
}

// SetSize gives the form its area.
func (b *Backup) SetSize(w, h int) {
	b.width, b.height = w, h
	b.form.WithWidth(max(20, min(w-2, 100))).WithHeight(max(5, h-3))
}

// Init starts the form and the reads it needs (stored credential names,
// whether a full backup exists).
func (b *Backup) Init() tea.Cmd {
	cmds := []tea.Cmd{b.form.Init()}
	if sec := b.common.Secrets; sec != nil {
		id := b.id
		cmds = append(cmds, func() tea.Msg {
			list, err := sec.ListBucketCredentials()
			return bkCredsLoadedMsg{id: id, creds: list, err: err}
		})
	} else {
		b.setCreds(nil, errors.New("no keystore is open, so no stored bucket credentials"))
	}
	if b.full.Get() == bkFullUnknown && b.common.Client != nil {
		id, client, sid, ctx := b.id, b.common.Client, b.svc.ID, b.common.Ctx()
		cmds = append(cmds, func() tea.Msg {
			list, err := client.ListBackups(ctx, sid)
			return bkFullCheckedMsg{id: id, has: HasCompletedFull(list), err: err}
		})
	}
	return tea.Batch(cmds...)
}

// HasCompletedFull reports a completed full backup in a listing.
func HasCompletedFull(list []api.Backup) bool {
	for _, x := range list {
		if strings.EqualFold(x.Type, api.BackupFull) && api.BackupState(x.Status) == api.BackupCompleted {
			return true
		}
	}
	return false
}

func (b *Backup) setCreds(list []keystore.CredentialInfo, err error) {
	b.mu.Lock()
	b.creds, b.credsErr, b.credsOK = list, err, true
	b.mu.Unlock()
	b.credsVer.Set(b.credsVer.Get() + 1)
}

func (b *Backup) credentials() ([]keystore.CredentialInfo, error, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.creds, b.credsErr, b.credsOK
}

func (b *Backup) credentialKind(name string) string {
	list, _, _ := b.credentials()
	for _, c := range list {
		if c.Name == name {
			return c.Kind
		}
	}
	return ""
}

// Update handles a message while the form is shown.
func (b *Backup) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case bkCredsLoadedMsg:
		if msg.id != b.id {
			return nil
		}
		b.setCreds(msg.creds, msg.err)
		return b.refresh()
	case bkFullCheckedMsg:
		if msg.id != b.id {
			return nil
		}
		switch {
		case msg.err != nil:
			b.fullErr = msg.err
			b.full.Set(bkFullError)
		case msg.has:
			b.full.Set(bkFullYes)
		default:
			b.full.Set(bkFullNo)
		}
		return b.refresh()
	case bkHuhDoneMsg:
		if msg.id != b.id {
			return nil
		}
		if msg.cancel {
			return b.cancel()
		}
		b.step = bkStepReview
		b.reviewErr, b.submitErr = "", ""
		if err := b.check(); err != nil {
			b.reviewErr = err.Error()
		}
		return nil
	case tea.KeyPressMsg:
		if b.step == bkStepReview {
			return b.reviewKey(msg)
		}
		if msg.String() == "esc" && !b.filtering() {
			return b.cancel()
		}
	}
	if b.step != bkStepForm {
		return nil
	}
	m, cmd := b.form.Update(msg)
	if f, ok := m.(*huh.Form); ok {
		b.form = f
	}
	return cmd
}

// refresh makes huh re-evaluate the dynamic options and descriptions
// after something they depend on changed outside the fields.
func (b *Backup) refresh() tea.Cmd {
	if b.step != bkStepForm {
		return nil
	}
	m, cmd := b.form.Update(bkRefreshMsg{id: b.id})
	if f, ok := m.(*huh.Form); ok {
		b.form = f
	}
	return cmd
}

func (b *Backup) cancel() tea.Cmd {
	d := b.Draft()
	return func() tea.Msg { return BackupCancelMsg{Form: b, Draft: d} }
}

// filtering reports that a select's "/" filter is open: esc then closes
// the filter, not the form.
func (b *Backup) filtering() bool {
	fl, ok := b.form.GetFocusedField().(interface{ GetFiltering() bool })
	return ok && fl.GetFiltering()
}

// check applies every rule to the draft: the api's, plus incremental
// needing a full backup and the credential kind matching the bucket.
func (b *Backup) check() error {
	d := b.Draft()
	_, err := d.Request(b.svc.ID)
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	if d.Type == api.BackupIncremental {
		if rule := b.incrementalRule(); rule != "" {
			errs = append(errs, &api.FieldError{Field: "backup_type", Rule: rule})
		}
	}
	if d.Destination == DestBucket && d.Credential != "" {
		if kind := b.credentialKind(d.Credential); kind != "" {
			errs = append(errs, bkCredentialRule(d.BucketPath, d.Credential, kind))
		}
	}
	return errors.Join(errs...)
}

// incrementalRule is why incremental cannot be chosen, or "".
func (b *Backup) incrementalRule() string {
	switch b.full.Get() {
	case bkFullNo:
		return fmt.Sprintf("incremental needs a completed full backup first, and %s has none yet: take a full backup (once) and wait for it to complete", b.svc.Name)
	case bkFullUnknown:
		return "still checking whether " + b.svc.Name + " has a completed full backup; try again in a moment"
	}
	return ""
}

// ---- the huh form ----

func (b *Backup) build() {
	c := b.common
	typ := huh.NewSelect[string]().Title("Backup type").Accessor(b.typ).Height(10).
		OptionsFunc(b.typeOptions, b.full.bind()).
		DescriptionFunc(b.typeDescription, []any{b.typ.bind(), b.full.bind()}).
		Validate(func(t string) error {
			if err := api.ValidateBackupType(t); err != nil {
				return err
			}
			if t == api.BackupIncremental {
				if rule := b.incrementalRule(); rule != "" {
					return errors.New(rule)
				}
			}
			return nil
		})
	when := huh.NewSelect[string]().Title("When").Accessor(b.when).Height(8).
		Description("Schedules run in UTC, the service's clock; previews show your local time too.").
		Options(
			huh.NewOption("once: now, one time", WhenOnce),
			huh.NewOption("daily at a time you choose (UTC)", WhenDaily),
			huh.NewOption("every hour (at minute 0)", WhenHourly),
			huh.NewOption("custom cron expression (5 fields, UTC)", WhenCustom),
		)
	daily := huh.NewInput().Title("Daily at (HH:MM, 24-hour, UTC)").Accessor(b.daily).CharLimit(5).
		Placeholder("03:00").
		DescriptionFunc(func() string { return b.dailyHint(b.daily.Get()) }, b.daily.bind()).
		Validate(func(s string) error { _, _, err := ParseClock(s); return err })
	cron := huh.NewInput().Title("Cron expression: minute hour day-of-month month day-of-week (UTC)").
		Accessor(b.cron).CharLimit(80).Placeholder("30 1 * * 0").
		DescriptionFunc(func() string { return b.cronHint(b.cron.Get()) }, b.cron.bind()).
		Validate(api.ValidateSchedule)
	dest := huh.NewSelect[string]().Title("Destination").Accessor(b.dest).Height(6).
		Description("Managed storage restores within the same cloud provider. Your own bucket is how data leaves the service.").
		Options(
			huh.NewOption("managed storage (the service's default backup storage)", DestManaged),
			huh.NewOption("your own bucket (an s3:// or gs:// path)", DestBucket),
		)
	path := huh.NewInput().Title("Bucket path: s3://<bucket>/<path> or gs://<bucket>/<path>").
		Accessor(&bkPathAccessor{b: b}).CharLimit(300).Placeholder("s3://my-bucket/backups").
		DescriptionFunc(func() string { return b.pathHint(b.path.Get(), b.typ.Get()) }, []any{b.path.bind(), b.typ.bind()}).
		Validate(api.ValidateBackupBucketPath)
	cred := huh.NewSelect[string]().Title("Bucket credentials (stored in the keystore)").Accessor(b.cred).Height(7).
		OptionsFunc(b.credOptions, []any{b.scheme.bind(), b.credsVer.bind()}).
		DescriptionFunc(b.credDescription, []any{b.scheme.bind(), b.credsVer.bind()}).
		Validate(func(n string) error {
			return bkCredentialRule(b.path.Get(), n, b.credentialKind(n))
		})

	b.form = huh.NewForm(
		huh.NewGroup(typ).Title("Step 1 of 3: type"),
		huh.NewGroup(when).Title("Step 2 of 3: when"),
		huh.NewGroup(daily).Title("Step 2 of 3: when (daily time)").
			WithHideFunc(func() bool { return b.when.Get() != WhenDaily }),
		huh.NewGroup(cron).Title("Step 2 of 3: when (cron expression)").
			WithHideFunc(func() bool { return b.when.Get() != WhenCustom }),
		huh.NewGroup(dest).Title("Step 3 of 3: destination"),
		huh.NewGroup(path, cred).Title("Step 3 of 3: your own bucket").
			WithHideFunc(func() bool { return b.dest.Get() != DestBucket }),
	).WithShowHelp(false).WithAccessible(c.Accessible).WithTheme(kit.HuhTheme(c))
	id := b.id
	b.form.SubmitCmd = func() tea.Msg { return bkHuhDoneMsg{id: id} }
	b.form.CancelCmd = func() tea.Msg { return bkHuhDoneMsg{id: id, cancel: true} }
	if b.width > 0 {
		b.SetSize(b.width, b.height)
	}
}

// bkPathAccessor keeps the scheme of the bucket path beside it, so the
// credential list is re-read only when the scheme changes.
type bkPathAccessor struct{ b *Backup }

func (p *bkPathAccessor) Get() string { return p.b.path.Get() }
func (p *bkPathAccessor) Set(s string) {
	p.b.path.Set(s)
	if sc := bkSchemeOf(s); sc != p.b.scheme.Get() {
		p.b.scheme.Set(sc)
	}
}

func (b *Backup) typeOptions() []huh.Option[string] {
	out := make([]huh.Option[string], 0, len(api.BackupTypes))
	for _, t := range api.BackupTypes {
		info := bkTypeInfo[t][0]
		if t == api.BackupIncremental {
			switch b.full.Get() {
			case bkFullNo:
				info = "unavailable: this service has no completed full backup yet"
			case bkFullUnknown:
				info = "checking whether a full backup exists" + b.common.Theme.Glyphs.Ellipsis
			}
		}
		out = append(out, huh.NewOption(fmt.Sprintf("%-12s %s", t, info), t))
	}
	return out
}

func (b *Backup) typeDescription() string {
	t := b.typ.Get()
	if t == api.BackupIncremental {
		if rule := b.incrementalRule(); rule != "" {
			return "! Not available: " + rule + "."
		}
	}
	if t == api.BackupIncremental && b.full.Get() == bkFullError {
		return bkTypeInfo[t][1] + " (Could not check for one: the API will refuse if there is none.)"
	}
	return bkTypeInfo[t][1]
}

func (b *Backup) runsPreview(expr string) string {
	lines := RunLines(expr, b.common.Time(), 3, nil)
	return "next runs: " + strings.Join(lines, "\n           ")
}

func (b *Backup) dailyHint(s string) string {
	expr, err := DailyCron(s)
	if err != nil {
		return "! " + err.Error()
	}
	return "ok: " + DescribeCron(expr) + " (cron " + expr + ")\n" + b.runsPreview(expr)
}

func (b *Backup) cronHint(s string) string {
	expr := strings.Join(strings.Fields(s), " ")
	if expr == "" {
		return "five fields, such as 30 1 * * 0 (Sundays at 01:30 UTC) or 0 */6 * * * (every 6 hours)"
	}
	if err := api.ValidateSchedule(expr); err != nil {
		return "! " + err.Error()
	}
	if expr == "once" {
		return "ok: once, now (as if you had chosen once)"
	}
	desc := DescribeCron(expr)
	if desc == "" {
		desc = "custom schedule " + expr
	}
	return "ok: " + desc + "\n" + b.runsPreview(expr)
}

func (b *Backup) pathHint(path, typ string) string {
	path = strings.TrimSpace(path)
	portable := "A logical backup (SQL statements) is the portable choice for leaving the service"
	if typ == api.BackupLogical {
		portable = "Logical (SQL statements): the portable choice for leaving the service."
	} else {
		portable += "; you chose " + typ + "."
	}
	if path == "" {
		return "Writing to your own bucket is how data leaves the managed service. " + portable
	}
	if err := api.ValidateBackupBucketPath(path); err != nil {
		return "! " + err.Error()
	}
	scheme, bucket, folder, _ := api.ParseBucketURI(path)
	return fmt.Sprintf("ok: %s bucket %s, folder %s. %s", scheme, bucket, strings.Trim(folder, "/"), portable)
}

func (b *Backup) credOptions() []huh.Option[string] {
	scheme := b.scheme.Get()
	list, err, loaded := b.credentials()
	switch {
	case !loaded:
		return []huh.Option[string]{huh.NewOption("reading the keystore"+b.common.Theme.Glyphs.Ellipsis, "")}
	case err != nil:
		return []huh.Option[string]{huh.NewOption("! "+err.Error(), "")}
	case scheme == "":
		return []huh.Option[string]{huh.NewOption("(enter an s3:// or gs:// path first)", "")}
	}
	want := kindOf(scheme)
	var out []huh.Option[string]
	for _, c := range list {
		if c.Kind == want {
			out = append(out, huh.NewOption(c.Name+"  ("+bkKindLabel(c.Kind)+")", c.Name))
		}
	}
	if len(out) == 0 {
		return []huh.Option[string]{huh.NewOption("(none stored for "+scheme+"://: add one with "+addCredentialHint(scheme)+")", "")}
	}
	return out
}

func (b *Backup) credDescription() string {
	scheme := b.scheme.Get()
	_, err, loaded := b.credentials()
	if loaded && err != nil {
		return "Add credentials with " + addCredentialHint(scheme) + " (in a shell), then reopen this form."
	}
	switch scheme {
	case "gs":
		return "gs:// takes a GCS service-account key (Storage Admin role). The secret is read from the keystore only when the request is sent."
	case "s3":
		return "s3:// takes an S3 access key and region. The secret is read from the keystore only when the request is sent."
	}
	return "gs:// takes GCS credentials, s3:// S3 credentials."
}

// ---- review ----

func (b *Backup) reviewKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		return b.cancel()
	case "e", "backspace":
		b.step = bkStepForm
		b.submitErr, b.reviewErr = "", ""
		b.build()
		return b.form.Init()
	case "enter", "y":
		if b.submitted {
			return nil // once
		}
		if err := b.check(); err != nil {
			b.reviewErr = err.Error()
			return nil
		}
		return b.submit()
	}
	return nil
}

func (b *Backup) submit() tea.Cmd {
	d := b.Draft()
	req, err := d.Request(b.svc.ID)
	if err != nil {
		b.reviewErr = err.Error()
		return nil
	}
	b.submitted = true
	b.submitErr = ""
	a := b.action(req, d)
	shown := b.shownRequest(req, d)
	return func() tea.Msg {
		return BackupSubmitMsg{Form: b, Request: shown, Credential: bkCredName(d), Action: a}
	}
}

func bkCredName(d BackupDraft) string {
	if d.Destination == DestBucket {
		return d.Credential
	}
	return ""
}

// shownRequest is the request with the credentials replaced by a note.
func (b *Backup) shownRequest(req api.ScheduleRequest, d BackupDraft) api.ScheduleRequest {
	if req.ExternalStorage != nil {
		es := *req.ExternalStorage
		es.Bucket.Credentials = Redacted(d.Credential, b.credentialKind(d.Credential))
		req.ExternalStorage = &es
	}
	return req
}

// BackupWhat says in words what the request does.
func BackupWhat(req api.ScheduleRequest, svcName string) string {
	where := ""
	if req.ExternalStorage != nil {
		where = " to " + req.ExternalStorage.Bucket.Path
	}
	if req.Schedule == "once" {
		return req.BackupType + " backup of " + svcName + where
	}
	desc := DescribeCron(req.Schedule)
	if desc == "" {
		desc = "on cron " + req.Schedule
	}
	return req.BackupType + " backup of " + svcName + where + ", " + desc
}

// action sends req once; the credentials are read from the keystore and
// encoded inside Run, so the form never holds them.
func (b *Backup) action(req api.ScheduleRequest, d BackupDraft) kit.Action {
	client, secrets := b.common.Client, b.common.Secrets
	svcName := b.svc.Name
	if svcName == "" {
		svcName = b.svc.ID
	}
	credential := bkCredName(d)
	name := BackupWhat(req, svcName)
	if req.Schedule != "once" {
		name = "schedule " + name
	}
	keyParts := []string{"backup", req.ServiceID, req.BackupType, req.Schedule}
	if req.ExternalStorage != nil {
		keyParts = append(keyParts, req.ExternalStorage.Bucket.Path)
	}
	return kit.Action{
		Name:     name,
		Key:      strings.Join(keyParts, ":"),
		Mutating: true,
		Run: func(ctx context.Context) (any, error) {
			if client == nil {
				return nil, errors.New("no API client")
			}
			if req.ExternalStorage != nil {
				enc, err := EncodeStored(secrets, credential, req.ExternalStorage.Bucket.Path)
				if err != nil {
					return nil, err
				}
				es := *req.ExternalStorage
				es.Bucket.Credentials = enc
				req.ExternalStorage = &es
			}
			return client.CreateSchedule(ctx, req)
		},
		Success: func(r any) string {
			sc, _ := r.(*api.Schedule)
			if sc == nil {
				return name + ": submitted"
			}
			if req.Schedule == "once" {
				msg := fmt.Sprintf("backup job %d started: %s", int64(sc.ID), BackupWhat(req, svcName))
				if sc.BackupID != "" {
					msg += " (backup " + api.ShortKey(sc.BackupID) + ")"
				}
				return msg
			}
			return fmt.Sprintf("backup schedule %d created: %s", int64(sc.ID), BackupWhat(req, svcName))
		},
		Refresh:    []string{BackupsKey(req.ServiceID), SchedulesKey(req.ServiceID)},
		Evidence:   BackupJobsEvidence(client, req.ServiceID),
		EvidenceOf: "the backup jobs and backups of " + svcName,
	}
}

// BackupsKey and SchedulesKey are the polled resources of a service's
// backups and schedules (the Backups screen declares them; actions
// refresh them).
func BackupsKey(serviceID string) string   { return "backups/" + serviceID }
func SchedulesKey(serviceID string) string { return "schedules/" + serviceID }

// EncodeStored reads the named bucket credentials from the keystore and
// returns them base64-encoded as the bucket's scheme expects (gs:// a GCS
// service-account key, s3:// an S3 [default] block). Errors never contain
// the secret.
func EncodeStored(secrets *keystore.Store, name, path string) (string, error) {
	if secrets == nil {
		return "", errors.New("no keystore is open: cannot read bucket credentials " + name)
	}
	scheme := bkSchemeOf(path)
	cred, err := secrets.BucketCredential(name)
	if err != nil {
		return "", fmt.Errorf("bucket credentials %s: %w", name, err)
	}
	if want := kindOf(scheme); cred.Kind() != want {
		return "", bkCredentialRule(path, name, cred.Kind())
	}
	switch c := cred.(type) {
	case keystore.GCSCredential:
		return api.EncodeGCSCredentials(c.KeyJSON)
	case keystore.S3Credential:
		return api.EncodeS3Credentials(c.API())
	}
	return "", fmt.Errorf("bucket credentials %s: unknown kind %q", name, cred.Kind())
}

// BackupRequestJSON is the body shown in the review, indented.
func BackupRequestJSON(req api.ScheduleRequest) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // the redaction note's <…> as typed
	enc.SetIndent("", "  ")
	if err := enc.Encode(req); err != nil {
		return err.Error()
	}
	return strings.TrimRight(buf.String(), "\n")
}

// ---- view ----

// View renders the form or the review in the area given by SetSize.
func (b *Backup) View() string {
	if b.step == bkStepReview {
		return b.reviewView()
	}
	th := b.common.Theme
	name := b.svc.Name
	if name == "" {
		name = b.svc.ID
	}
	head := th.Bold.Render(" New backup of "+name) + th.Muted.Render("  enter/tab next  shift+tab back  esc cancel (keeps input)")
	lines := []string{ansi.Truncate(head, b.width, th.Glyphs.Ellipsis)}
	if w := b.serviceWarning(); w != "" {
		lines = append(lines, th.Warn.Render(ansi.Truncate(" ! "+w, b.width, th.Glyphs.Ellipsis)))
	} else {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n") + "\n" + b.form.View()
}

func (b *Backup) serviceWarning() string {
	if b.svc.Status == "" || b.svc.Ready() {
		return ""
	}
	return fmt.Sprintf("%s is %s: the API takes backups of a ready service only", b.svc.Name, b.svc.Status)
}

func (b *Backup) reviewView() string {
	th := b.common.Theme
	w, h := b.width, b.height
	d := b.Draft()
	req, _ := d.Request(b.svc.ID)
	shown := b.shownRequest(req, d)
	lines := []string{
		th.Bold.Render(" Review: this is the request that will be sent"),
		th.Muted.Render(" POST backups/schedules   enter submit  e edit  esc cancel (keeps input)"),
		"",
	}
	var body []string
	for _, l := range strings.Split(BackupRequestJSON(shown), "\n") {
		for _, wl := range strings.Split(ansi.Hardwrap(l, max(10, w-4), true), "\n") {
			body = append(body, "   "+th.Code.Render(wl))
		}
	}
	var tail []string
	svcName := b.svc.Name
	if svcName == "" {
		svcName = b.svc.ID
	}
	if req.Schedule == "once" {
		tail = append(tail, " "+ansi.Wrap("Starts now: "+BackupWhat(req, svcName)+". It appears in the list at once and is followed until it completes.", max(10, w-2), " "))
	} else if req.Schedule != "" {
		tail = append(tail, " "+ansi.Wrap("Repeats: "+BackupWhat(req, svcName)+".", max(10, w-2), " "))
		runs := RunLines(req.Schedule, b.common.Time(), 3, nil)
		if h < 30 && len(runs) > 1 {
			runs = runs[:1] // small terminal: the request first
		}
		for _, l := range runs {
			tail = append(tail, th.Muted.Render("   next "+l))
		}
	}
	if wn := b.serviceWarning(); wn != "" {
		tail = append(tail, th.Warn.Render(" ! "+wn))
	}
	if b.reviewErr != "" {
		for _, l := range strings.Split(b.reviewErr, "\n") {
			tail = append(tail, th.Error.Render(ansi.Wrap(" ! "+l, w, " ")))
		}
		tail = append(tail, th.Muted.Render(" e to edit"))
	}
	if b.submitErr != "" {
		tail = append(tail, th.Error.Render(ansi.Wrap(" ! the API refused it: "+b.submitErr, w, " ")))
		tail = append(tail, th.Muted.Render(" everything you typed is kept: e to edit, enter to try again"))
	}
	tail = strings.Split(strings.Join(tail, "\n"), "\n")
	room := h - len(lines) - len(tail) - 1
	if len(body) > room && room > 1 {
		more := len(body) - room + 1
		body = append(body[:room-1], th.Muted.Render(fmt.Sprintf("   %s %d more lines", th.Glyphs.Ellipsis, more)))
	}
	lines = append(lines, body...)
	lines = append(lines, "")
	lines = append(lines, tail...)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, th.Glyphs.Ellipsis)
	}
	if len(lines) > h && h > 0 {
		lines = lines[:h]
	}
	return strings.Join(lines, "\n")
}

// Keys lists the form's bindings in its current bkStep, for help.
func (b *Backup) Keys() []key.Binding {
	if b.step == bkStepReview {
		return []key.Binding{
			key.NewBinding(key.WithKeys("enter", "y"), key.WithHelp("enter", "submit")),
			key.NewBinding(key.WithKeys("e", "backspace"), key.WithHelp("e", "edit")),
			key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel (keeps input)")),
		}
	}
	return []key.Binding{
		key.NewBinding(key.WithKeys("enter", "tab"), key.WithHelp("enter/tab", "next")),
		key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "previous")),
		key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel (keeps input)")),
	}
}
