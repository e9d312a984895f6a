// Package restoreform is the restore wizard: where the backup comes from
// (managed storage, the user's own bucket, a backup ID), the target
// service, the backup, then the typed-name confirmation. The Services,
// Backups, Restores and Replication screens open it; it is a component
// like the backup form (see package backupform), and its submit goes
// through kit.Do like every change.
package restoreform

import (
	"context"
	"errors"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// The restore wizard: where the backup comes from (managed storage, the
// user's own bucket, a backup ID), the target service, the backup, then
// the confirmation (Confirm). A managed-storage restore across cloud
// providers is refused before any call, with the documented workaround and
// an offer to start the migration flow. The submit goes through kit.Do like
// every change: read-only profiles are refused there.

// Source is where a restore's backup comes from.
type Source int

// Restore sources.
const (
	SourceManaged     Source = iota + 1 // a backup in managed storage
	SourceBucket                        // a file in the user's own bucket
	SourceBackupID                      // a backup identifier typed or pasted
	SourcePointInTime                   // a service's backups and binary logs, to a moment
)

func (s Source) String() string {
	switch s {
	case SourceManaged:
		return "managed storage"
	case SourceBucket:
		return "your own bucket"
	case SourceBackupID:
		return "backup ID"
	case SourcePointInTime:
		return "point in time"
	}
	return "?"
}

// BucketPrefill fills the own-bucket fields (the migration flow knows them).
type BucketPrefill struct {
	Bucket, File, Method, Credential string
	// Note is shown above the fields: where the values came from.
	Note string
	// SourceService names the service the backup was taken of, when
	// known: the confirmation says whose credentials the target gets.
	SourceService string
}

// Options open the wizard.
type Options struct {
	// Origin is the host screen's ID: it receives the action's answer.
	Origin string
	// Source skips the first step when set.
	Source Source
	// TargetID preselects the target; with LockTarget the target step is
	// skipped (the Replication wizard restores into the secondary).
	TargetID   string
	LockTarget bool
	// SourceServiceID lists that service's backups (default: the target).
	SourceServiceID string
	// BackupKey preselects a backup of the listing.
	BackupKey string
	// Backup, with Source SourceManaged, is the backup to restore (the
	// Backups screen's R): the wizard asks the target, then goes straight
	// to the confirmation; esc there returns to the target.
	Backup *api.Backup
	// BackupID prefills the backup ID.
	BackupID string
	// Bucket prefills the own-bucket fields.
	Bucket BucketPrefill
	// Services is the services listing known so far (SetServices updates it).
	Services []api.Service
	// ResourcePrefix prefixes the keys of the listings the wizard asks the
	// host to poll (default "restore-wizard/").
	ResourcePrefix string
}

type stage int

const (
	stageSource stage = iota
	stageTarget
	stageBackup
	stageBucket
	stageBackupID
	stageRefusal
	stageConfirm
	stagePITR
)

// DoneMsg says the wizard closed: Submitted (the action was handed
// to kit.Do; Pending is the optimistic record to show at once), Cancelled
// (the wizard keeps what was typed; open it again to continue) or Migrate
// (the user asked for the cross-provider migration flow).
type DoneMsg struct {
	Wizard    *Wizard
	Submitted bool
	Cancelled bool
	Pending   *api.Restore
	Migrate   *MigrateRequest
}

// MigrateRequest is what the refusal knows when the user asks to migrate.
type MigrateRequest struct {
	Source api.Service // the backup's service (provider A)
	Target api.Service // the service to restore into (provider B)
	Backup *api.Backup // the refused backup, when one was chosen
}

// Tag marks the restore action; the host reads it from
// kit.ActionDoneMsg.Tag: on error call Wizard.Failed, on success show the
// record and follow it with Watch.
type Tag struct {
	Wizard        *Wizard
	Target        api.Service
	SourceService string // name of the service whose credentials the target gets
	Source        string // the source, as the confirmation described it
	// PointInTime is the moment of a point-in-time restore as sent (UTC,
	// api.PITRTimeLayout), "" for any other: the API's record of the
	// restore names only the backup it starts from
	PointInTime string
	SubmittedAt time.Time
	// before is what the target's restores were just before the send
	before *listedBefore
}

// Wizard is the new-restore wizard. It is a component: the host screen
// gives it its size, the services listing (SetServices), the data of the
// resources it asks for (Resources / OnData) and every other message.
type Wizard struct {
	common *kit.Common
	opts   Options
	keys   wizardKeys
	step   stage
	prev   stage // the step the confirmation or refusal returns to
	source Source

	width, height int

	services []api.Service
	byID     map[string]api.Service
	// known is each service as the last listing that had it: a target
	// deleted since it was chosen keeps its name where it is said gone
	known map[string]api.Service

	sourceCursor int

	targets  *kit.Table
	targetID string
	stepErr  string

	// managed storage
	srcID         string
	pickingSource bool
	sources       *kit.Table
	backupTable   *kit.Table
	backups       map[string]api.Backup
	backupsFor    string
	backupsLoaded bool
	backupsErr    error
	// listingNote is the step's refusal that speaks of the listing not
	// read yet (noBackupWhy): it goes once a listing is read
	listingNote string
	backupKey   string

	bucket *bucketStep

	idInput kit.Input
	id      idLookup

	pitr *pitrStep

	refusal *api.CrossProvider
	confirm *Confirm

	submitted bool
}

// New builds the wizard.
func New(c *kit.Common, o Options) *Wizard {
	if o.ResourcePrefix == "" {
		o.ResourcePrefix = "restore-wizard/"
	}
	r := &Wizard{common: c, opts: o, keys: newWizardKeys(), byID: map[string]api.Service{}, known: map[string]api.Service{}, backups: map[string]api.Backup{}}
	r.targets = kit.NewTable(c, kit.ServiceColumns())
	if b := o.Backup; b != nil && o.Source == SourceManaged && !b.IsExternalStorage {
		// the backup is chosen first: the list says where it cannot go
		r.targets = kit.NewTable(c, kit.NotedServiceColumns())
	}
	r.targets.Empty = "loading services" + c.Theme.Glyphs.Ellipsis
	r.sources = kit.NewTable(c, kit.ServiceColumns())
	r.sources.Empty = r.targets.Empty
	r.backupTable = kit.NewTable(c, []kit.Column{
		{Title: "BACKUP", Min: 12, Max: 20, Priority: 9},
		{Title: "TYPE", Min: 6, Max: 12, Priority: 10},
		{Title: "STATUS", Min: 9, Max: 12, Priority: 8},
		{Title: "AGE", Min: 7, Max: 9, Priority: 7, Right: true},
		{Title: "SIZE", Min: 8, Max: 10, Priority: 6, Right: true},
		{Title: "STORAGE", Min: 7, Max: 30, Priority: 5},
		{Title: "GTID", Min: 10, Max: 18, Priority: 4},
	})
	r.backupTable.Empty = "loading backups" + c.Theme.Glyphs.Ellipsis
	// a name is typed: every letter is part of it, the arrows move
	for _, t := range []*kit.Table{r.targets, r.sources, r.backupTable} {
		t.TypeFilters, t.Keys = true, kit.TypedTableKeys
	}
	r.targets.Choosable = r.choosableTarget
	r.idInput = kit.NewInput("> ", "")
	r.idInput.SetValue(o.BackupID)
	r.bucket = newBucketStep(c, o.Bucket)
	r.pitr = newPITRStep(c)
	r.targetID = o.TargetID
	r.srcID = o.SourceServiceID
	r.backupKey = o.BackupKey
	if b := o.Backup; b != nil {
		r.backupKey = b.Key
		if r.srcID == "" {
			r.srcID = b.ServiceID
		}
		if r.srcID == "" {
			r.srcID = KeyService(b.Key)
		}
	}
	r.SetServices(o.Services)
	r.source = o.Source
	switch {
	case o.Source == 0:
		r.step = stageSource
	case o.TargetID == "" || !o.LockTarget:
		r.step = stageTarget
	default:
		r.step = r.sourceStep()
	}
	if o.TargetID != "" {
		r.targets.Select(o.TargetID)
	}
	return r
}

// Init starts what the first step needs.
func (r *Wizard) Init() tea.Cmd { return r.enter(r.step) }

// Source is the chosen source (0 before the first step).
func (r *Wizard) Source() Source { return r.source }

// TargetID is the chosen target's ID.
func (r *Wizard) TargetID() string { return r.targetID }

// Confirm is the confirmation step, once reached (nil before).
func (r *Wizard) Confirm() *Confirm {
	if r.step != stageConfirm {
		return nil
	}
	return r.confirm
}

// Refusal is the cross-provider refusal shown, or nil.
func (r *Wizard) Refusal() *api.CrossProvider {
	if r.step != stageRefusal {
		return nil
	}
	return r.refusal
}

// StepName names the current step (tests, help).
func (r *Wizard) StepName() string {
	return [...]string{"source", "target", "backup", "bucket", "backup-id", "refusal", "confirm", "point-in-time"}[r.step]
}

// SetSize gives the wizard its area.
func (r *Wizard) SetSize(w, h int) {
	r.width, r.height = w, h
	r.fitLists()
	r.idInput.SetWidth(max(10, w-6))
	r.pitr.table.SetSize(w, max(3, h-12))
	r.pitr.moment.SetWidth(max(10, w-14))
	r.bucket.setSize(w)
	r.sizeConfirm()
}

// sizeConfirm gives the confirmation the wizard's body: the area under
// the title line and the blank below it.
func (r *Wizard) sizeConfirm() {
	if r.confirm != nil {
		r.confirm.SetSize(r.width, max(1, r.height-2))
	}
}

// SetServices updates the services listing (names, providers, statuses).
// ServicesFailed says why there is no service to choose while none were
// read (services read before stay, as they were).
func (r *Wizard) ServicesFailed(err error) {
	if r.services == nil && err != nil {
		r.targets.Empty = kit.ServicesUnread(err)
		r.sources.Empty = r.targets.Empty
	}
}

func (r *Wizard) SetServices(svcs []api.Service) {
	if svcs == nil {
		return
	}
	first := r.services == nil
	r.services = svcs
	clear(r.byID)
	for _, s := range svcs {
		r.byID[s.ID] = s
		r.known[s.ID] = s
	}
	r.targets.Empty = "no services"
	r.sources.Empty = "no services"
	var note func(*api.Service) string
	if r.backupProvider() != "" {
		note = r.targetNote
	}
	r.targets.SetRows(kit.ServiceRows(svcs, note))
	r.sources.SetRows(kit.ServiceRows(svcs, nil))
	if r.targetID != "" && r.step == stageTarget && r.targets.SelectedID() == "" {
		r.targets.Select(r.targetID)
	}
	if first && r.targetID == "" {
		r.targets.StartOn(r.choosableTarget)
	}
	if r.confirm != nil {
		// the status shown is the listing's; a target no longer listed
		// is said gone, and the confirmation refuses to send
		if t, ok := r.byID[r.confirm.Target.ID]; ok {
			r.confirm.SetTarget(t)
		} else {
			r.confirm.SetGone()
		}
	}
	r.rebuildBackups()
}

// choosableTarget reports that the service with the ID can be the
// target: ready or stopped, and on the chosen backup's cloud provider.
func (r *Wizard) choosableTarget(id string) bool {
	v := r.service(id)
	return api.RestoreTargetProblem(v) == "" && r.targetNote(&v) == ""
}

// list is the table of a step that chooses from one (the target, the
// backup, or the source service while it is chosen): nil elsewhere.
func (r *Wizard) list() *kit.Table {
	switch {
	case r.step == stageTarget:
		return r.targets
	case r.step == stageBackup && r.pickingSource:
		return r.sources
	case r.step == stageBackup:
		return r.backupTable
	}
	return nil
}

// targetNote is, with the managed backup chosen already (R on the
// Backups screen), why v cannot be the target in the few words of the
// table's CANNOT BE column: another cloud provider than the backup's (it
// restores only within its provider; the migration, m on Restores,
// crosses). A state a restore refuses is the STATUS column's to show.
func (r *Wizard) targetNote(v *api.Service) string {
	if p := r.backupProvider(); p != "" && v.Provider != "" && !strings.EqualFold(p, v.Provider) {
		return "backup is on " + p
	}
	return ""
}

// backupProvider is the cloud provider of the managed backup chosen
// before the target (R on the Backups screen), "" when none is.
func (r *Wizard) backupProvider() string {
	b := r.opts.Backup
	if b == nil || r.opts.Source != SourceManaged || b.IsExternalStorage {
		return ""
	}
	if b.CloudProvider != "" {
		return b.CloudProvider
	}
	return r.service(r.srcID).Provider
}

// errLines is the step's refusal wrapped to w, never cut: it names the
// rule and the values.
func (r *Wizard) errLines(w int) []string {
	return strings.Split(kit.Wrap("! "+r.stepErr, max(10, w-3), " ,"), "\n")
}

func (r *Wizard) service(id string) api.Service {
	if s, ok := r.byID[id]; ok {
		return s
	}
	if s, ok := r.known[id]; ok {
		return s
	}
	return api.Service{ID: id}
}

// Target is the chosen target service as last listed (TargetGone: by
// the last listing that had it).
func (r *Wizard) Target() api.Service { return r.service(r.targetID) }

func (r *Wizard) sourceServiceID() string {
	if r.srcID != "" {
		return r.srcID
	}
	return r.targetID
}

func (r *Wizard) backupsKey() string {
	return r.opts.ResourcePrefix + "backups/" + r.sourceServiceID()
}

// Resources are the listings the wizard wants polled while it is shown:
// the backups of the source service on the backup step, the point-in-time
// windows on the point-in-time step.
func (r *Wizard) Resources() []kit.Resource {
	if r.step == stagePITR {
		return []kit.Resource{r.pitrResource()}
	}
	if r.step != stageBackup || r.sourceServiceID() == "" {
		return nil
	}
	client, id := r.common.Client, r.sourceServiceID()
	return []kit.Resource{{
		Key:   r.backupsKey(),
		Title: "the restore wizard's backups of " + id,
		Fetch: func(ctx context.Context) (any, error) {
			if client == nil {
				return nil, errors.New("no API client")
			}
			return client.ListBackups(ctx, id)
		},
		Pending: func(data any) bool {
			bs, _ := data.([]api.Backup)
			for _, b := range bs {
				if api.BackupState(b.Status) == api.BackupInProgress {
					return true
				}
			}
			return false
		},
	}}
}

// OnData takes a polled resource; it reports whether the data was the
// wizard's.
func (r *Wizard) OnData(msg kit.DataMsg) bool {
	if !strings.HasPrefix(msg.Key, r.opts.ResourcePrefix) {
		return false
	}
	if msg.Key == r.pitrKey() {
		r.pitr.onData(r, msg)
		return true
	}
	if msg.Key != r.backupsKey() {
		return true
	}
	r.backupsFor = r.sourceServiceID()
	if r.stepErr != "" && r.stepErr == r.listingNote {
		// the note spoke of this listing: read now, the list (or the
		// listing's own error over it) says the rest
		r.stepErr = ""
	}
	r.listingNote = ""
	if msg.Err != nil {
		// said over the list (backupHead) until a listing succeeds
		r.backupsErr = msg.Err
		r.rebuildBackups()
		return true
	}
	r.backupsErr = nil
	r.backupsLoaded = true
	bs, _ := msg.Data.([]api.Backup)
	clear(r.backups)
	for _, b := range bs {
		r.backups[b.Key] = b
	}
	r.rebuildBackups()
	return true
}

// KeyService returns the service ID inside a backup key, or "".
func KeyService(k string) string {
	parts := strings.Split(k, ":")
	if len(parts) >= 2 && api.ValidateServiceID(parts[1]) == nil {
		return parts[1]
	}
	return ""
}

// CapturesKeys is always true while the wizard is open: typing never
// quits or switches screens; esc goes back one step.
func (r *Wizard) CapturesKeys() bool { return true }

func (r *Wizard) sourceStep() stage {
	switch r.source {
	case SourceBucket:
		return stageBucket
	case SourceBackupID:
		return stageBackupID
	case SourcePointInTime:
		return stagePITR
	}
	return stageBackup
}

// enter moves to a step and returns what it needs started.
func (r *Wizard) enter(s stage) tea.Cmd {
	r.step = s
	r.stepErr = ""
	switch s {
	case stageTarget:
		if r.targetID != "" {
			r.targets.Select(r.targetID)
		}
	case stageBackup:
		r.pickingSource = false
		r.rebuildBackups()
	case stageBucket:
		return r.bucket.load(r)
	case stageBackupID:
		return r.idInput.Focus()
	case stagePITR:
		return r.pitr.moment.Focus()
	case stageConfirm:
		// brought back (n after esc or ctrl+x): the name is asked again,
		// never kept armed from before
		if r.confirm != nil {
			r.confirm.reopen()
		}
	}
	return nil
}

// OpenedOn is the backup the wizard was opened on (Options.Backup), nil
// when it asks for one.
func (r *Wizard) OpenedOn() *api.Backup { return r.opts.Backup }

func (r *Wizard) done(m DoneMsg) tea.Cmd {
	m.Wizard = r
	return func() tea.Msg { return m }
}

// Update handles a message: keys and pastes, the keystore listing, the
// clock's tick.
func (r *Wizard) Update(msg tea.Msg) tea.Cmd {
	defer r.fitLists() // a refusal said, or gone, changes its room
	switch msg := msg.(type) {
	case secretsMsg:
		if msg.form == r.bucket {
			r.bucket.onSecrets(msg)
		}
		return nil
	case pitrTargetsMsg:
		if msg.step == r.pitr {
			r.onPITRTargets(msg)
		}
		return nil
	case backupIDMsg:
		if msg.wizard == r {
			return r.onBackupID(msg)
		}
		return nil
	case kit.DataMsg:
		r.OnData(msg)
		return nil
	case kit.ClockMsg:
		// the backups' ages move with the clock (the confirmation says
		// its backup's age as it is drawn)
		if r.step == stageBackup {
			r.rebuildBackups()
		}
		return nil
	case tea.KeyPressMsg:
		if key.Matches(msg, r.keys.Leave) {
			return r.done(DoneMsg{Cancelled: true}) // everything kept: n brings it back
		}
		return r.onKey(msg)
	case tea.PasteMsg:
		switch r.step {
		case stageTarget, stageBackup:
			// a name pasted into the list: its filter takes it
			t := r.list()
			defer r.clearErrOff(t, t.SelectedID())
			_, cmd := t.Update(msg)
			return cmd
		case stageBackupID:
			return r.typeInto(&r.idInput, msg)
		case stageBucket:
			return r.bucket.update(r, msg)
		case stageConfirm:
			_, cmd := r.confirm.Update(msg)
			return cmd
		case stagePITR:
			return r.typeInto(&r.pitr.moment, msg)
		}
	}
	return nil
}

func (r *Wizard) back() tea.Cmd {
	switch r.step {
	case stageSource:
		return r.done(DoneMsg{Cancelled: true})
	case stageTarget:
		if r.opts.Source != 0 {
			return r.done(DoneMsg{Cancelled: true})
		}
		return r.enter(stageSource)
	case stageBackup, stageBucket, stageBackupID, stagePITR:
		if r.opts.LockTarget {
			if r.opts.Source != 0 {
				return r.done(DoneMsg{Cancelled: true})
			}
			return r.enter(stageSource)
		}
		return r.enter(stageTarget)
	case stageRefusal, stageConfirm:
		return r.enter(r.prev)
	}
	return nil
}
