package backupform

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
	"github.com/skytui/skytui/kit"
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

// Draft is what the user chose and typed. It never holds a secret:
// Credential is the name of stored bucket credentials.
type Draft struct {
	Type        string // api.BackupFull, …
	When        string // WhenOnce, WhenDaily, WhenHourly, WhenCustom
	DailyAt     string // "HH:MM" (UTC) for WhenDaily
	Cron        string // the expression for WhenCustom
	Destination string // DestManaged or DestBucket
	BucketPath  string // s3://… or gs://… for DestBucket
	Credential  string // name of stored bucket credentials for DestBucket
}

// Schedule is the request's schedule: "once" or a cron expression.
func (d Draft) Schedule() (string, error) {
	switch d.When {
	case WhenOnce, "":
		return "once", nil
	case WhenDaily:
		return api.DailyCron(d.DailyAt)
	case WhenHourly:
		return api.HourlyCron, nil
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
func (d Draft) Request(serviceID string) (api.ScheduleRequest, error) {
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
		add(keystore.CheckForBucket(path, d.Credential, ""))
	}
	return req, errors.Join(errs...)
}

// Redacted is what the review shows instead of the credentials.
func Redacted(name, kind string) string {
	return fmt.Sprintf("<redacted: stored %s credential %q, base64-encoded when sent>", keystore.KindLabel(kind), name)
}

// typeInfo is each type's one-line explanation (the option label) and
// its longer description.
var typeInfo = map[string][2]string{
	api.BackupFull:        {"complete copy; what incremental backups build on", "A full physical backup of every database. Incremental backups build on the last full one."},
	api.BackupIncremental: {"only changes since the last backup; needs a full one first", "Copies only what changed since the last backup: small and quick. Needs a completed full backup first."},
	api.BackupLogical:     {"SQL statements (mysqldump): portable, to leave the service", "Writes SQL statements (mysqldump): the portable choice for moving data out of the managed service, to your own bucket."},
	api.BackupPhysical:    {"data files (mariabackup): meant for large databases", "Copies the data files (mariabackup): meant for large databases, faster to take and to restore than logical."},
	api.BackupBinarylog:   {"the binary logs, for point-in-time recovery", "Saves the binary logs: the changes since the last backup, for point-in-time recovery."},
}

// TypeExplanation is the one-line explanation of a backup type.
func TypeExplanation(t string) string { return typeInfo[t][0] }

// Full-backup knowledge.
const (
	fullUnknown = iota
	fullYes
	fullNo
	fullError
)

// Options configure a Backup form. All are optional.
type Options struct {
	// Draft reopens the form with what was typed before (after esc or a
	// failed submit).
	Draft *Draft
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

// SubmitMsg is emitted when the user submits the review. Hand Action
// to kit.Do (after setting Origin and Tag); it reads the credentials from
// the keystore, encodes them and sends the request once. Request is the
// body without the credentials, for display.
type SubmitMsg struct {
	Form       *Form
	Request    api.ScheduleRequest
	Credential string // stored credentials' name; "" for managed storage
	Action     kit.Action
}

// CancelMsg is emitted when the user leaves the form with esc; Draft
// reopens it as it was.
type CancelMsg struct {
	Form  *Form
	Draft Draft
}

// internal messages, tagged with the form's id
type (
	huhDoneMsg struct {
		id     int64
		cancel bool
	}
	credsLoadedMsg struct {
		id    int64
		creds []keystore.CredentialInfo
		err   error
	}
	fullCheckedMsg struct {
		id  int64
		has bool
		err error
	}
	refreshMsg struct{ id int64 }
)

var formIDs atomic.Int64

type phase int

const (
	phaseForm phase = iota
	phaseReview
)

// Form is the new-backup form of one service. Create it with New,
// call Init, then route every message to Update while it is shown.
type Form struct {
	id     int64
	common *kit.Common
	svc    api.Service
	opts   Options

	typ, when, daily, cron, dest, path, cred *kit.Value[string]
	scheme                                   *kit.Value[string] // of path, for the credential options
	full                                     *kit.Value[int]
	credsVer                                 *kit.Value[int]

	mu       sync.Mutex // guards creds, credsErr (read by huh's option commands)
	creds    []keystore.CredentialInfo
	credsErr error
	credsOK  bool
	fullErr  error

	form          *huh.Form
	step          phase
	reviewErr     string // the draft breaks a rule
	submitErr     string // the API refused it
	submitted     bool
	width, height int
}

// New builds the form for svc. It reads nothing until Init.
func New(c *kit.Common, svc api.Service, o Options) *Form {
	d := Draft{Type: api.BackupFull, When: WhenOnce, DailyAt: "03:00", Destination: DestManaged}
	if o.Type != "" {
		d.Type = o.Type
	}
	if o.Bucket != "" {
		d.Destination, d.BucketPath, d.Credential = DestBucket, o.Bucket, o.Credential
	}
	if o.Draft != nil {
		d = *o.Draft
	}
	b := &Form{
		id: formIDs.Add(1), common: c, svc: svc, opts: o,
		typ: kit.NewValue(d.Type), when: kit.NewValue(d.When), daily: kit.NewValue(d.DailyAt), cron: kit.NewValue(d.Cron),
		dest: kit.NewValue(d.Destination), path: kit.NewValue(d.BucketPath), cred: kit.NewValue(d.Credential),
		scheme: kit.NewValue(keystore.SchemeOf(d.BucketPath)), full: kit.NewValue(fullUnknown), credsVer: kit.NewValue(0),
	}
	if o.HasFullBackup != nil {
		if *o.HasFullBackup {
			b.full.Set(fullYes)
		} else {
			b.full.Set(fullNo)
		}
	}
	b.build()
	return b
}

// Service is the service the form backs up.
func (b *Form) Service() api.Service { return b.svc }

// Draft is what was typed and chosen so far.
func (b *Form) Draft() Draft {
	return Draft{
		Type: b.typ.Get(), When: b.when.Get(), DailyAt: b.daily.Get(), Cron: b.cron.Get(),
		Destination: b.dest.Get(), BucketPath: b.path.Get(), Credential: b.cred.Get(),
	}
}

// Reviewing reports that the review step is shown.
func (b *Form) Reviewing() bool { return b.step == phaseReview }

// CapturesKeys reports that a field has focus (every key is typing).
func (b *Form) CapturesKeys() bool { return b.step == phaseForm }

// Failed brings the form back to the review with the API's refusal;
// everything typed is kept and enter tries again.
func (b *Form) Failed(err error) {
	b.submitted = false
	b.step = phaseReview
	b.submitErr = err.Error()
}

// SetSize gives the form its area.
func (b *Form) SetSize(w, h int) {
	b.width, b.height = w, h
	b.form.WithWidth(max(20, min(w-2, 100))).WithHeight(max(5, h-3))
}

// Init starts the form and the reads it needs (stored credential names,
// whether a full backup exists).
func (b *Form) Init() tea.Cmd {
	cmds := []tea.Cmd{b.form.Init()}
	if sec := b.common.Secrets; sec != nil {
		id := b.id
		cmds = append(cmds, func() tea.Msg {
			list, err := sec.ListBucketCredentials()
			return credsLoadedMsg{id: id, creds: list, err: err}
		})
	} else {
		b.setCreds(nil, errors.New("no keystore is open, so no stored bucket credentials"))
	}
	if b.full.Get() == fullUnknown && b.common.Client != nil {
		id, client, sid, ctx := b.id, b.common.Client, b.svc.ID, b.common.Ctx()
		cmds = append(cmds, func() tea.Msg {
			list, err := client.ListBackups(ctx, sid)
			return fullCheckedMsg{id: id, has: api.HasCompletedFull(list), err: err}
		})
	}
	return tea.Batch(cmds...)
}

func (b *Form) setCreds(list []keystore.CredentialInfo, err error) {
	b.mu.Lock()
	b.creds, b.credsErr, b.credsOK = list, err, true
	b.mu.Unlock()
	b.credsVer.Set(b.credsVer.Get() + 1)
}

func (b *Form) credentials() ([]keystore.CredentialInfo, error, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.creds, b.credsErr, b.credsOK
}

func (b *Form) credentialKind(name string) string {
	list, _, _ := b.credentials()
	for _, c := range list {
		if c.Name == name {
			return c.Kind
		}
	}
	return ""
}

// Update handles a message while the form is shown.
func (b *Form) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case credsLoadedMsg:
		if msg.id != b.id {
			return nil
		}
		b.setCreds(msg.creds, msg.err)
		return b.refresh()
	case fullCheckedMsg:
		if msg.id != b.id {
			return nil
		}
		switch {
		case msg.err != nil:
			b.fullErr = msg.err
			b.full.Set(fullError)
		case msg.has:
			b.full.Set(fullYes)
		default:
			b.full.Set(fullNo)
		}
		return b.refresh()
	case huhDoneMsg:
		if msg.id != b.id {
			return nil
		}
		if msg.cancel {
			return b.cancel()
		}
		b.step = phaseReview
		b.reviewErr, b.submitErr = "", ""
		if err := b.check(); err != nil {
			b.reviewErr = err.Error()
		}
		return nil
	case tea.KeyPressMsg:
		if b.step == phaseReview {
			return b.reviewKey(msg)
		}
		if msg.String() == "esc" && !b.filtering() {
			return b.cancel()
		}
	}
	if b.step != phaseForm {
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
func (b *Form) refresh() tea.Cmd {
	if b.step != phaseForm {
		return nil
	}
	m, cmd := b.form.Update(refreshMsg{id: b.id})
	if f, ok := m.(*huh.Form); ok {
		b.form = f
	}
	return cmd
}

func (b *Form) cancel() tea.Cmd {
	d := b.Draft()
	return func() tea.Msg { return CancelMsg{Form: b, Draft: d} }
}

// filtering reports that a select's "/" filter is open: esc then closes
// the filter, not the form.
func (b *Form) filtering() bool {
	fl, ok := b.form.GetFocusedField().(interface{ GetFiltering() bool })
	return ok && fl.GetFiltering()
}

// check applies every rule to the draft: the api's, plus incremental
// needing a full backup and the credential kind matching the bucket.
func (b *Form) check() error {
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
			errs = append(errs, keystore.CheckForBucket(d.BucketPath, d.Credential, kind))
		}
	}
	return errors.Join(errs...)
}

// incrementalRule is why incremental cannot be chosen, or "".
func (b *Form) incrementalRule() string {
	switch b.full.Get() {
	case fullNo:
		return fmt.Sprintf("incremental needs a completed full backup first, and %s has none yet: take a full backup (once) and wait for it to complete", b.svc.Name)
	case fullUnknown:
		return "still checking whether " + b.svc.Name + " has a completed full backup; try again in a moment"
	}
	return ""
}

// ---- the huh form ----

func (b *Form) build() {
	c := b.common
	typ := huh.NewSelect[string]().Title("Backup type").Accessor(b.typ).Height(10).
		OptionsFunc(b.typeOptions, b.full.Bind()).
		DescriptionFunc(b.typeDescription, []any{b.typ.Bind(), b.full.Bind()}).
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
		DescriptionFunc(func() string { return b.dailyHint(b.daily.Get()) }, b.daily.Bind()).
		Validate(func(s string) error { _, _, err := api.ParseClock(s); return err })
	cron := huh.NewInput().Title("Cron expression: minute hour day-of-month month day-of-week (UTC)").
		Accessor(b.cron).CharLimit(80).Placeholder("30 1 * * 0").
		DescriptionFunc(func() string { return b.cronHint(b.cron.Get()) }, b.cron.Bind()).
		Validate(api.ValidateSchedule)
	dest := huh.NewSelect[string]().Title("Destination").Accessor(b.dest).Height(6).
		Description("Managed storage restores within the same cloud provider. Your own bucket is how data leaves the service.").
		Options(
			huh.NewOption("managed storage (the service's default backup storage)", DestManaged),
			huh.NewOption("your own bucket (an s3:// or gs:// path)", DestBucket),
		)
	path := huh.NewInput().Title("Bucket path: s3://<bucket>/<path> or gs://<bucket>/<path>").
		Accessor(&pathAccessor{b: b}).CharLimit(300).Placeholder("s3://my-bucket/backups").
		DescriptionFunc(func() string { return b.pathHint(b.path.Get(), b.typ.Get()) }, []any{b.path.Bind(), b.typ.Bind()}).
		Validate(api.ValidateBackupBucketPath)
	cred := huh.NewSelect[string]().Title("Bucket credentials (stored in the keystore)").Accessor(b.cred).Height(7).
		OptionsFunc(b.credOptions, []any{b.scheme.Bind(), b.credsVer.Bind()}).
		DescriptionFunc(b.credDescription, []any{b.scheme.Bind(), b.credsVer.Bind()}).
		Validate(func(n string) error {
			return keystore.CheckForBucket(b.path.Get(), n, b.credentialKind(n))
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
	b.form.SubmitCmd = func() tea.Msg { return huhDoneMsg{id: id} }
	b.form.CancelCmd = func() tea.Msg { return huhDoneMsg{id: id, cancel: true} }
	if b.width > 0 {
		b.SetSize(b.width, b.height)
	}
}

// pathAccessor keeps the scheme of the bucket path beside it, so the
// credential list is re-read only when the scheme changes.
type pathAccessor struct{ b *Form }

func (p *pathAccessor) Get() string { return p.b.path.Get() }
func (p *pathAccessor) Set(s string) {
	p.b.path.Set(s)
	if sc := keystore.SchemeOf(s); sc != p.b.scheme.Get() {
		p.b.scheme.Set(sc)
	}
}

func (b *Form) typeOptions() []huh.Option[string] {
	out := make([]huh.Option[string], 0, len(api.BackupTypes))
	for _, t := range api.BackupTypes {
		info := typeInfo[t][0]
		if t == api.BackupIncremental {
			switch b.full.Get() {
			case fullNo:
				info = "unavailable: this service has no completed full backup yet"
			case fullUnknown:
				info = "checking whether a full backup exists" + b.common.Theme.Glyphs.Ellipsis
			}
		}
		out = append(out, huh.NewOption(fmt.Sprintf("%-12s %s", t, info), t))
	}
	return out
}

func (b *Form) typeDescription() string {
	t := b.typ.Get()
	if t == api.BackupIncremental {
		if rule := b.incrementalRule(); rule != "" {
			return "! Not available: " + rule + "."
		}
	}
	if t == api.BackupIncremental && b.full.Get() == fullError {
		return typeInfo[t][1] + " (Could not check for one: the API will refuse if there is none.)"
	}
	return typeInfo[t][1]
}

func (b *Form) runsPreview(expr string) string {
	lines := api.RunLines(expr, b.common.Time(), 3, nil)
	return "next runs: " + strings.Join(lines, "\n           ")
}

func (b *Form) dailyHint(s string) string {
	expr, err := api.DailyCron(s)
	if err != nil {
		return "! " + err.Error()
	}
	return "ok: " + api.DescribeCron(expr) + " (cron " + expr + ")\n" + b.runsPreview(expr)
}

func (b *Form) cronHint(s string) string {
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
	desc := api.DescribeCron(expr)
	if desc == "" {
		desc = "custom schedule " + expr
	}
	return "ok: " + desc + "\n" + b.runsPreview(expr)
}

func (b *Form) pathHint(path, typ string) string {
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

func (b *Form) credOptions() []huh.Option[string] {
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
	want := keystore.KindForScheme(scheme)
	var out []huh.Option[string]
	for _, c := range list {
		if c.Kind == want {
			out = append(out, huh.NewOption(c.Name+"  ("+keystore.KindLabel(c.Kind)+")", c.Name))
		}
	}
	if len(out) == 0 {
		return []huh.Option[string]{huh.NewOption("(none stored for "+scheme+"://: add one with "+keystore.AddHint(scheme)+")", "")}
	}
	return out
}

func (b *Form) credDescription() string {
	scheme := b.scheme.Get()
	_, err, loaded := b.credentials()
	if loaded && err != nil {
		return "Add credentials with " + keystore.AddHint(scheme) + " (in a shell), then reopen this form."
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

func (b *Form) reviewKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		return b.cancel()
	case "e", "backspace":
		b.step = phaseForm
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

func (b *Form) submit() tea.Cmd {
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
		return SubmitMsg{Form: b, Request: shown, Credential: credName(d), Action: a}
	}
}

func credName(d Draft) string {
	if d.Destination == DestBucket {
		return d.Credential
	}
	return ""
}

// shownRequest is the request with the credentials replaced by a note.
func (b *Form) shownRequest(req api.ScheduleRequest, d Draft) api.ScheduleRequest {
	if req.ExternalStorage != nil {
		es := *req.ExternalStorage
		es.Bucket.Credentials = Redacted(d.Credential, b.credentialKind(d.Credential))
		req.ExternalStorage = &es
	}
	return req
}

// What says in words what the request does.
func What(req api.ScheduleRequest, svcName string) string {
	where := ""
	if req.ExternalStorage != nil {
		where = " to " + req.ExternalStorage.Bucket.Path
	}
	if req.Schedule == "once" {
		return req.BackupType + " backup of " + svcName + where
	}
	desc := api.DescribeCron(req.Schedule)
	if desc == "" {
		desc = "on cron " + req.Schedule
	}
	return req.BackupType + " backup of " + svcName + where + ", " + desc
}

// action sends req once; the credentials are read from the keystore and
// encoded inside Run, so the form never holds them.
func (b *Form) action(req api.ScheduleRequest, d Draft) kit.Action {
	client, secrets := b.common.Client, b.common.Secrets
	svcName := b.svc.Name
	if svcName == "" {
		svcName = b.svc.ID
	}
	credential := credName(d)
	name := What(req, svcName)
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
				enc, err := keystore.EncodeForBucket(secrets, credential, req.ExternalStorage.Bucket.Path)
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
				msg := fmt.Sprintf("backup job %d started: %s", int64(sc.ID), What(req, svcName))
				if sc.BackupID != "" {
					msg += " (backup " + api.ShortKey(sc.BackupID) + ")"
				}
				return msg
			}
			return fmt.Sprintf("backup schedule %d created: %s", int64(sc.ID), What(req, svcName))
		},
		Refresh:    []string{kit.BackupsKey(req.ServiceID).String(), kit.SchedulesKey(req.ServiceID).String()},
		Evidence:   kit.BackupJobsEvidence(client, req.ServiceID),
		EvidenceOf: "the backup jobs and backups of " + svcName,
	}
}

// RequestJSON is the body shown in the review, indented.
func RequestJSON(req api.ScheduleRequest) string {
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
func (b *Form) View() string {
	if b.step == phaseReview {
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

func (b *Form) serviceWarning() string {
	if b.svc.Status == "" || b.svc.Ready() {
		return ""
	}
	return fmt.Sprintf("%s is %s: the API takes backups of a ready service only", b.svc.Name, b.svc.Status)
}

func (b *Form) reviewView() string {
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
	for _, l := range strings.Split(RequestJSON(shown), "\n") {
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
		tail = append(tail, " "+ansi.Wrap("Starts now: "+What(req, svcName)+". It appears in the list at once and is followed until it completes.", max(10, w-2), " "))
	} else if req.Schedule != "" {
		tail = append(tail, " "+ansi.Wrap("Repeats: "+What(req, svcName)+".", max(10, w-2), " "))
		runs := api.RunLines(req.Schedule, b.common.Time(), 3, nil)
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

// Keys lists the form's bindings in its current phase, for help.
func (b *Form) Keys() []key.Binding {
	if b.step == phaseReview {
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
