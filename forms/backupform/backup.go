package backupform

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

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

// Draft is what the user chose and typed in the form of one service. It
// never holds a secret: Credential is the name of stored bucket
// credentials.
type Draft struct {
	// Service is the ID of the service it was typed for (Form.Draft sets
	// it; "" fits any service). New does not reopen another service's
	// form with it: its schedule and bucket are that service's.
	Service     string
	Type        string // api.BackupFull, …
	When        string // WhenOnce, WhenDaily, WhenHourly, WhenCustom
	DailyAt     string // "HH:MM" (UTC) for WhenDaily
	Cron        string // the expression for WhenCustom
	Destination string // DestManaged or DestBucket
	BucketPath  string // s3://… or gs://… for DestBucket
	Credential  string // name of stored bucket credentials for DestBucket
}

// Drafts keeps what was left typed in the forms of several services, each
// under its service: a service's form reopens with its own draft, another
// service's starts afresh. The zero value is ready to use.
type Drafts struct{ by map[string]Draft }

// Keep keeps d as its service's draft, in place of the one before.
func (ds *Drafts) Keep(d Draft) {
	if ds.by == nil {
		ds.by = map[string]Draft{}
	}
	ds.by[d.Service] = d
}

// Of is the draft left in serviceID's form, or nil.
func (ds *Drafts) Of(serviceID string) *Draft {
	d, ok := ds.by[serviceID]
	if !ok {
		return nil
	}
	return &d
}

// Drop forgets serviceID's draft (its backup was submitted).
func (ds *Drafts) Drop(serviceID string) { delete(ds.by, serviceID) }

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

// typeText is what the form says of a backup type: label, its one-line
// explanation (the option's, after the type's name), and desc, the longer
// description the field shows for the selected type. The short forms are
// for when the long ones do not fit: shortLabel keeps the option on one
// line at the smallest terminal (at most labelWidth cells), shortDesc is
// two lines there ("": desc is).
type typeText struct {
	label, shortLabel, desc, shortDesc string
}

var typeInfo = map[string]typeText{
	api.BackupFull: {"complete copy; what incremental backups build on", "complete copy; incrementals build on it",
		"A full physical backup of every database. Incremental backups build on the last full one.", ""},
	api.BackupIncremental: {"only changes since the last backup; needs a full one first", "only changes; needs a full one first",
		"Copies only what changed since the last backup: small and quick. Needs a completed full backup first.", ""},
	api.BackupLogical: {"SQL statements (mysqldump): portable, to leave the service", "SQL statements (mysqldump): portable",
		"Writes SQL statements (mysqldump): the portable choice for moving data out of the managed service, to your own bucket.",
		"SQL statements (mysqldump): the portable choice to move data out of the service, to your own bucket."},
	api.BackupPhysical: {"data files (mariabackup): meant for large databases", "data files (mariabackup): large databases",
		"Copies the data files (mariabackup): meant for large databases, faster to take and to restore than logical.", ""},
	api.BackupBinarylog: {"the binary logs, for point-in-time recovery", "binary logs, for point-in-time recovery",
		"Saves the binary logs: the changes since the last backup, for point-in-time recovery.", ""},
	api.BackupDump: {"SQL statements (mysqldump): portable, to leave the service", "SQL statements (mysqldump): portable",
		"Writes SQL statements (mysqldump): the live service's logical backup, the portable choice for moving data out, to your own bucket.",
		"The live service's logical backup: SQL statements (mysqldump), the portable choice to move data out."},
	api.BackupSnapshot: {"a storage snapshot of the service's volume", "a snapshot of the storage volume",
		"Takes a snapshot of the service's storage volume: quick to take and to restore on the same service.", ""},
}

// labelWidth is the widest a short label may be: at 60 columns the field
// has 56 cells inside its bar, the cursor takes 2 and the type's name 13.
const labelWidth = 41

// typeHeight is the type field's height when there is room: its title,
// four lines of description and the five types.
const typeHeight = 10

// TypeExplanation is the one-line explanation of a backup type.
func TypeExplanation(t string) string { return typeInfo[t].label }

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
	// failed submit); a draft of another service is not used.
	Draft *Draft
	// Type presets the backup type (the migration flow asks for logical).
	Type string
	// Bucket presets the destination: the user's own bucket at this path.
	// A scheme alone ("s3://", "gs://") is not a value but the path
	// field's placeholder (PathPlaceholder): a URL pasted or typed there is
	// the whole path, never put after a prefilled scheme.
	Bucket string
	// Credential presets the stored credentials' name for Bucket.
	Credential string
	// HasFullBackup says whether the service has a completed full backup
	// (incremental is refused without one). Nil: the form lists the
	// service's backups once when it opens to find out.
	HasFullBackup *bool
	// Once makes the backup a one-off, taken now: the form asks no
	// schedule (the migration's backup).
	Once bool
	// BucketOnly, when set, is why the backup must go to the user's own
	// bucket (the migration's: managed storage restores only within the
	// source's provider): managed storage is refused at the review with it.
	BucketOnly string
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
	// schedulesListedMsg: the service's schedules, for the review's
	// warning of a schedule the service has already
	schedulesListedMsg struct {
		id   int64
		list []api.Schedule
		err  error
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
	// hintWidth is what the fields' descriptions are wrapped to (the
	// field's width inside its bar); typeRoom, the lines the type field
	// has for its description with every option in view. SetSize sets both.
	hintWidth, typeRoom      *kit.Value[int]
	formRows                 *kit.Value[int] // the huh form's height, for the bucket step's texts (bucketHints)
	typSel, whenSel, destSel *huh.Select[string]
	cronIn, pathIn           *huh.Input

	mu       sync.Mutex // guards creds, credsErr (read by huh's option commands)
	creds    []keystore.CredentialInfo
	credsErr error
	credsOK  bool
	fullErr  error
	// schedules are the service's schedules as listed when the form
	// opened (none when the listing failed: nothing is then warned of)
	schedules []api.Schedule

	form          *huh.Form
	ahead         kit.TypeAhead        // keys typed during a move to the next field
	fields        map[string]huh.Field // by the names namedField gives
	groups        [][]huh.Field        // as in the form
	step          phase
	reviewErr     string // the draft breaks a rule
	submitErr     string // the API refused it
	submitted     bool
	top           int // the review's first line shown when it scrolls
	keys          formKeys
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
		if SchemeOnly(o.Bucket) != "" {
			d.BucketPath = ""
		}
	}
	if o.Draft != nil && (o.Draft.Service == "" || o.Draft.Service == svc.ID) {
		d = *o.Draft
	}
	if o.Once {
		d.When = WhenOnce
	}
	b := &Form{
		id: formIDs.Add(1), common: c, svc: svc, opts: o,
		typ: kit.NewValue(d.Type), when: kit.NewValue(d.When), daily: kit.NewValue(d.DailyAt), cron: kit.NewValue(d.Cron),
		dest: kit.NewValue(d.Destination), path: kit.NewValue(d.BucketPath), cred: kit.NewValue(d.Credential),
		scheme: kit.NewValue(kit.Or(keystore.SchemeOf(d.BucketPath), SchemeOnly(o.Bucket))), full: kit.NewValue(fullUnknown), credsVer: kit.NewValue(0),
		hintWidth: kit.NewValue(0), formRows: kit.NewValue(0), typeRoom: kit.NewValue(typeHeight - 1 - len(api.BackupTypes)),
		keys: newFormKeys(),
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
		Service: b.svc.ID, Type: b.typ.Get(), When: b.when.Get(), DailyAt: b.daily.Get(), Cron: b.cron.Get(),
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
	b.top = 0 // a refusal too long for the area scrolls above the request
}

// SetSize gives the form its area. The type field is made as high as the
// form lets it be, at most typeHeight, and its description gets the lines
// its options leave (typeHint picks one that fits): huh sizes the
// options' viewport before a new description comes, so a description
// longer than the room pushed the last option out of the form.
func (b *Form) SetSize(w, h int) {
	b.width, b.height = w, h
	fw := max(20, min(w-2, 100))
	b.form.WithWidth(fw).WithHeight(b.formHeight())
	bar := kit.HuhTheme(b.common).Theme(b.common.Theme.Dark).Focused.Base
	b.hintWidth.Set(max(10, fw-bar.GetHorizontalFrameSize()))
	b.whenSel.Description(b.hint(whenDescription))
	b.destSel.Description(b.hint(destDescription))
	b.cronIn.Title(b.hint(cronTitle))
	b.pathIn.Title(b.hint(b.bucketTitle()))
	b.formRows.Set(b.formHeight())
	th := min(typeHeight, b.formHeight()-1) // the step's title takes a line
	b.typSel.Height(th)
	b.typeRoom.Set(th - 1 - len(b.typeOptions())) // the field's title, the options
}

// formHeight is the huh form's height: the area's, but the heading's two
// lines.
func (b *Form) formHeight() int { return max(5, b.height-2) }

// Init starts the form and the reads it needs (stored credential names,
// whether a full backup exists, the service's schedules unless the backup
// is a one-off).
func (b *Form) Init() tea.Cmd {
	cmds := []tea.Cmd{b.form.Init(), b.readCreds()}
	if b.full.Get() == fullUnknown && b.common.Client != nil {
		id, client, sid, ctx := b.id, b.common.Client, b.svc.ID, b.common.Ctx()
		cmds = append(cmds, func() tea.Msg {
			list, err := client.ListBackups(ctx, sid)
			return fullCheckedMsg{id: id, has: api.HasCompletedFull(list), err: err}
		})
	}
	if !b.opts.Once && b.common.Client != nil {
		id, client, sid, ctx := b.id, b.common.Client, b.svc.ID, b.common.Ctx()
		cmds = append(cmds, func() tea.Msg {
			list, err := client.ListSchedules(ctx, sid)
			return schedulesListedMsg{id: id, list: list, err: err}
		})
	}
	return tea.Batch(cmds...)
}

// readCreds reads the names of the stored bucket credentials (in a
// command: the keystore is I/O).
func (b *Form) readCreds() tea.Cmd {
	sec := b.common.Secrets
	if sec == nil {
		b.setCreds(nil, errors.New("no keystore is open, so no stored bucket credentials"))
		return nil
	}
	id := b.id
	return func() tea.Msg {
		list, err := sec.ListBucketCredentials()
		return credsLoadedMsg{id: id, creds: list, err: err}
	}
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
	case schedulesListedMsg:
		if msg.id == b.id && msg.err == nil {
			b.schedules = msg.list
		}
		return nil
	case huhDoneMsg:
		if msg.id != b.id {
			return nil
		}
		if msg.cancel {
			return b.cancel()
		}
		b.step = phaseReview
		b.reviewErr, b.submitErr, b.top = "", "", 0
		if err := b.check(); err != nil {
			b.reviewErr = err.Error()
		}
		return nil
	case tea.KeyPressMsg:
		if b.step == phaseReview {
			return b.reviewKey(msg)
		}
		if key.Matches(msg, b.keys.Cancel) && !b.filtering() {
			return b.cancel()
		}
		if key.Matches(msg, b.keys.Reload) && b.onBucketStep() {
			return b.readCreds()
		}
	}
	if b.step != phaseForm {
		return nil
	}
	var cmd tea.Cmd
	b.form, cmd = b.ahead.Update(b.form, msg)
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
	if b.opts.BucketOnly != "" && d.Destination != DestBucket {
		errs = append(errs, &api.FieldError{Field: "destination", Rule: b.opts.BucketOnly})
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
