// Package restoreform is the restore wizard: where the backup comes from
// (managed storage, the user's own bucket, a backup ID), the target
// service, the backup, then the typed-name confirmation. The Services,
// Backups, Restores and Replication screens open it; it is a component
// like the backup form (see package backupform), and its submit goes
// through kit.Do like every change.
package restoreform

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
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
	SourceManaged  Source = iota + 1 // a backup in managed storage
	SourceBucket                     // a file in the user's own bucket
	SourceBackupID                   // a backup identifier typed or pasted
)

func (s Source) String() string {
	switch s {
	case SourceManaged:
		return "managed storage"
	case SourceBucket:
		return "your own bucket"
	case SourceBackupID:
		return "backup ID"
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
	SubmittedAt   time.Time
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
	backupKey     string

	bucket *bucketStep

	idInput textinput.Model

	refusal *api.CrossProvider
	confirm *Confirm

	submitted bool
}

// New builds the wizard.
func New(c *kit.Common, o Options) *Wizard {
	if o.ResourcePrefix == "" {
		o.ResourcePrefix = "restore-wizard/"
	}
	r := &Wizard{common: c, opts: o, keys: newWizardKeys(), byID: map[string]api.Service{}, backups: map[string]api.Backup{}}
	svcCols := []kit.Column{
		{Title: "NAME", Min: 10, Max: 24, Priority: 10},
		{Title: "ID", Min: 13, Max: 16, Priority: 9},
		{Title: "PROVIDER", Min: 8, Max: 24, Priority: 7},
		{Title: "STATUS", Min: 8, Max: 18, Priority: 8},
	}
	r.targets = kit.NewTable(c, svcCols)
	r.targets.Empty = "loading services" + c.Theme.Glyphs.Ellipsis
	r.sources = kit.NewTable(c, svcCols)
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
	r.idInput = kit.NewInput("> ", "")
	r.idInput.SetValue(o.BackupID)
	r.bucket = newBucketStep(c, o.Bucket)
	r.targetID = o.TargetID
	r.srcID = o.SourceServiceID
	r.backupKey = o.BackupKey
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

func nameOf(s api.Service) string {
	if s.Name != "" {
		return s.Name
	}
	return s.ID
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
	return [...]string{"source", "target", "backup", "bucket", "backup-id", "refusal", "confirm"}[r.step]
}

// SetSize gives the wizard its area.
func (r *Wizard) SetSize(w, h int) {
	r.width, r.height = w, h
	th := max(3, h-6)
	r.targets.SetSize(w, th)
	r.sources.SetSize(w, th)
	r.backupTable.SetSize(w, th)
}

// SetServices updates the services listing (names, providers, statuses).
func (r *Wizard) SetServices(svcs []api.Service) {
	if svcs == nil {
		return
	}
	r.services = svcs
	clear(r.byID)
	rows := make([]kit.Row, 0, len(svcs))
	for _, s := range svcs {
		r.byID[s.ID] = s
		where := s.Provider
		if s.Region != "" {
			where += "/" + s.Region
		}
		rows = append(rows, kit.Row{ID: s.ID, Cells: []string{s.Name, s.ID, where, s.Status},
			Kinds: []theme.Kind{0, 0, 0, theme.StatusKind(s.Status)}})
	}
	sort.SliceStable(rows, func(i, j int) bool { return strings.ToLower(rows[i].Cells[0]) < strings.ToLower(rows[j].Cells[0]) })
	r.targets.Empty = "no services"
	r.sources.Empty = "no services"
	r.targets.SetRows(rows)
	r.sources.SetRows(rows)
	if r.targetID != "" && r.step == stageTarget && r.targets.SelectedID() == "" {
		r.targets.Select(r.targetID)
	}
	if r.confirm != nil {
		if t, ok := r.byID[r.confirm.Target.ID]; ok {
			r.confirm.SetTarget(t)
		}
	}
	r.rebuildBackups()
}

func (r *Wizard) service(id string) api.Service {
	if s, ok := r.byID[id]; ok {
		return s
	}
	return api.Service{ID: id}
}

// Target is the chosen target service as last listed.
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
// the backups of the source service on the backup step.
func (r *Wizard) Resources() []kit.Resource {
	if r.step != stageBackup || r.sourceServiceID() == "" {
		return nil
	}
	client, id := r.common.Client, r.sourceServiceID()
	return []kit.Resource{{
		Key: r.backupsKey(),
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
	if msg.Key != r.backupsKey() {
		return true
	}
	r.backupsFor = r.sourceServiceID()
	if msg.Err != nil {
		r.backupsErr = msg.Err
		if !r.backupsLoaded {
			r.backupTable.Empty = "could not list backups: " + msg.Err.Error()
		}
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

// restorable says why a backup of the listing cannot be restored from
// managed storage ("" when it can).
func restorable(b api.Backup) string {
	switch api.BackupState(b.Status) {
	case api.BackupInProgress:
		return "backup " + api.ShortKey(b.Key) + " is still running; only a completed backup can be restored"
	case api.BackupFailed:
		return "backup " + api.ShortKey(b.Key) + " failed; only a completed backup can be restored"
	case "":
		return "backup " + api.ShortKey(b.Key) + " is " + b.Status + "; only a completed backup can be restored"
	}
	if b.IsExternalStorage {
		where := b.Bucket
		if where == "" {
			where = "your own bucket"
		}
		return "backup " + api.ShortKey(b.Key) + " was written to " + where + ", not to managed storage: restore it with the own-bucket source"
	}
	return ""
}

func (r *Wizard) rebuildBackups() {
	if r.backupsFor != r.sourceServiceID() {
		return
	}
	list := make([]api.Backup, 0, len(r.backups))
	for _, b := range r.backups {
		list = append(list, b)
	}
	sort.Slice(list, func(i, j int) bool {
		if !list[i].StartTime.Equal(list[j].StartTime.Time) {
			return list[i].StartTime.After(list[j].StartTime.Time)
		}
		return list[i].Key < list[j].Key
	})
	now := r.common.Time()
	src := r.service(r.sourceServiceID())
	rows := make([]kit.Row, 0, len(list))
	for _, b := range list {
		age := "-"
		if !b.StartTime.IsZero() {
			age = kit.Ago(now.Sub(b.StartTime.Time))
		}
		storage := "managed"
		if b.IsExternalStorage {
			storage = b.Bucket
			if storage == "" {
				storage = "own bucket"
			}
		}
		prov := b.CloudProvider
		if prov == "" {
			prov = src.Provider
		}
		if prov != "" && !b.IsExternalStorage {
			storage += " (" + prov + ")"
		}
		rows = append(rows, kit.Row{ID: b.Key,
			Cells: []string{api.ShortKey(b.Key), b.Type, b.Status, age, kit.HumanBytes(b.SizeBytes), storage, b.BinlogGTIDPosition},
			Kinds: []theme.Kind{0, 0, theme.StatusKind(b.Status)}})
	}
	r.backupTable.Empty = "no backups of " + nameOf(src) + " yet"
	first := r.backupTable.Total() == 0
	r.backupTable.SetRows(rows)
	if first && len(rows) > 0 {
		// start on the preselected backup, else the newest restorable one
		if r.backupKey == "" || !r.backupTable.Select(r.backupKey) {
			for _, b := range list {
				if restorable(b) == "" {
					r.backupTable.Select(b.Key)
					break
				}
			}
		}
	}
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
	}
	return nil
}

func (r *Wizard) done(m DoneMsg) tea.Cmd {
	m.Wizard = r
	return func() tea.Msg { return m }
}

// Update handles a message: keys and pastes, the keystore listing.
func (r *Wizard) Update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case secretsMsg:
		if msg.form == r.bucket {
			r.bucket.onSecrets(msg)
		}
		return nil
	case kit.DataMsg:
		r.OnData(msg)
		return nil
	case tea.KeyPressMsg:
		return r.onKey(msg)
	case tea.PasteMsg:
		switch r.step {
		case stageBackupID:
			var cmd tea.Cmd
			r.idInput, cmd = r.idInput.Update(msg)
			r.stepErr = ""
			return cmd
		case stageBucket:
			return r.bucket.update(r, msg)
		case stageConfirm:
			_, cmd := r.confirm.Update(msg)
			return cmd
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
	case stageBackup, stageBucket, stageBackupID:
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

func (r *Wizard) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := r.keys
	switch r.step {
	case stageSource:
		switch {
		case key.Matches(msg, k.Back):
			return r.back()
		case key.Matches(msg, k.Up):
			r.sourceCursor = (r.sourceCursor + 2) % 3
		case key.Matches(msg, k.Down):
			r.sourceCursor = (r.sourceCursor + 1) % 3
		case msg.String() == "1" || msg.String() == "2" || msg.String() == "3":
			r.sourceCursor = int(msg.String()[0] - '1')
			return r.chooseSource()
		case key.Matches(msg, k.Next):
			return r.chooseSource()
		}
		return nil
	case stageTarget:
		if r.targets.Filtering() {
			_, cmd := r.targets.Update(msg)
			return cmd
		}
		switch {
		case key.Matches(msg, k.Back):
			if r.targets.Filter() != "" {
				r.targets.SetFilter("")
				return nil
			}
			return r.back()
		case key.Matches(msg, k.Next):
			return r.chooseTarget()
		}
		_, cmd := r.targets.Update(msg)
		return cmd
	case stageBackup:
		return r.onBackupKey(msg)
	case stageBucket:
		if key.Matches(msg, k.Back) {
			return r.back()
		}
		return r.bucket.update(r, msg)
	case stageBackupID:
		switch {
		case key.Matches(msg, k.Back):
			return r.back()
		case msg.String() == "enter":
			return r.chooseBackupID()
		}
		var cmd tea.Cmd
		r.idInput, cmd = r.idInput.Update(msg)
		r.stepErr = ""
		return cmd
	case stageRefusal:
		switch {
		case key.Matches(msg, k.Back):
			return r.back()
		case key.Matches(msg, k.Migrate):
			ref := r.refusal
			return r.done(DoneMsg{Migrate: &MigrateRequest{Source: ref.SourceService, Target: ref.Target, Backup: ref.Record}})
		}
		return nil
	case stageConfirm:
		ans, cmd := r.confirm.Update(msg)
		switch ans {
		case ConfirmBack:
			return r.back()
		case ConfirmYes:
			return r.submit()
		}
		return cmd
	}
	return nil
}

func (r *Wizard) chooseSource() tea.Cmd {
	r.source = Source(r.sourceCursor + 1)
	if r.opts.LockTarget && r.targetID != "" {
		r.prev = stageSource
		return r.enter(r.sourceStep())
	}
	return r.enter(stageTarget)
}

func (r *Wizard) chooseTarget() tea.Cmd {
	id := r.targets.SelectedID()
	if id == "" {
		r.stepErr = "no service to restore into"
		return nil
	}
	t := r.service(id)
	if api.IsPendingServiceStatus(t.Status) {
		r.stepErr = nameOf(t) + " is " + t.Status + ": a restore needs a ready or stopped service; wait until it is ready"
		return nil
	}
	if r.targetID != id && r.srcID == "" {
		r.backupKey = "" // a new target lists its own backups
	}
	r.targetID = id
	return r.enter(r.sourceStep())
}

func (r *Wizard) onBackupKey(msg tea.KeyPressMsg) tea.Cmd {
	k := r.keys
	if r.pickingSource {
		if r.sources.Filtering() {
			_, cmd := r.sources.Update(msg)
			return cmd
		}
		switch {
		case key.Matches(msg, k.Back):
			if r.sources.Filter() != "" {
				r.sources.SetFilter("")
				return nil
			}
			r.pickingSource = false
			return nil
		case key.Matches(msg, k.Next):
			if id := r.sources.SelectedID(); id != "" && id != r.sourceServiceID() {
				r.srcID = id
				r.backupsLoaded, r.backupsErr = false, nil
				clear(r.backups)
				r.backupsFor = ""
				r.backupTable.SetRows(nil)
				r.backupTable.SetFilter("")
				r.backupTable.Empty = "loading backups of " + nameOf(r.service(id)) + r.common.Theme.Glyphs.Ellipsis
			}
			r.pickingSource = false
			return nil
		}
		_, cmd := r.sources.Update(msg)
		return cmd
	}
	if r.backupTable.Filtering() {
		_, cmd := r.backupTable.Update(msg)
		return cmd
	}
	switch {
	case key.Matches(msg, k.Back):
		if r.backupTable.Filter() != "" {
			r.backupTable.SetFilter("")
			return nil
		}
		return r.back()
	case key.Matches(msg, k.SourceService):
		r.pickingSource = true
		r.sources.Select(r.sourceServiceID())
		return nil
	case key.Matches(msg, k.Next):
		return r.chooseBackup()
	}
	r.stepErr = ""
	_, cmd := r.backupTable.Update(msg)
	return cmd
}

func (r *Wizard) chooseBackup() tea.Cmd {
	b, ok := r.backups[r.backupTable.SelectedID()]
	if !ok {
		r.stepErr = "no backup selected"
		return nil
	}
	if why := restorable(b); why != "" {
		r.stepErr = why
		return nil
	}
	r.backupKey = b.Key
	src := r.service(r.sourceServiceID())
	target := r.Target()
	r.prev = stageBackup
	if ref := api.CheckSameProvider(b, src, target); ref != nil {
		r.refusal = ref
		r.step = stageRefusal
		return nil
	}
	age := ""
	if !b.StartTime.IsZero() {
		age = ", " + kit.Ago(r.common.Time().Sub(b.StartTime.Time)) + " ago"
	}
	desc := fmt.Sprintf("backup %s of %s (%s%s, %s) from managed storage", api.ShortKey(b.Key), nameOf(src), b.Type, age, kit.HumanBytes(b.SizeBytes))
	req := api.ManagedRestore(target.ID, b.Key)
	r.openConfirm(desc, nameOf(src), requestJSON(req))
	return nil
}

func (r *Wizard) chooseBackupID() tea.Cmd {
	id := strings.TrimSpace(r.idInput.Value())
	if id == "" {
		r.stepErr = "id: is required: type or paste the identifier of a backup"
		return nil
	}
	r.idInput.SetValue(id)
	req := api.BackupIDRestore(r.targetID, id)
	if err := req.Validate(); err != nil {
		r.stepErr = err.Error()
		return nil
	}
	target := r.Target()
	r.prev = stageBackupID
	srcName := ""
	if sid := KeyService(id); sid != "" {
		src, known := r.byID[sid]
		if known {
			srcName = nameOf(src)
			if ref := api.CheckSameProvider(api.Backup{Key: id}, src, target); ref != nil {
				r.refusal = ref
				r.step = stageRefusal
				return nil
			}
		}
	}
	desc := "backup ID " + id
	if srcName != "" {
		desc += " (a backup of " + srcName + ")"
	}
	r.openConfirm(desc, srcName, requestJSON(req))
	return nil
}

func (r *Wizard) openConfirm(desc, srcName, request string) {
	target := r.Target()
	if r.confirm != nil && r.confirm.Target.ID == target.ID && r.confirm.Source == desc {
		r.confirm.Request = request
		r.confirm.Reset()
	} else {
		r.confirm = NewConfirm(r.common, target, desc, srcName, request)
	}
	r.step = stageConfirm
}

// requestJSON is the body as the client encodes it (on one line; the
// placeholders of secrets keep their angle brackets).
func requestJSON(req api.RestoreRequest) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(req); err != nil {
		return err.Error()
	}
	return strings.TrimSpace(b.String())
}

// submit hands the restore to the action layer. Secrets are read and
// encoded inside Run; the typed encryption key is dropped from the form
// as soon as the action holds it.
func (r *Wizard) submit() tea.Cmd {
	target := r.Target()
	client := r.common.Client
	var run func(ctx context.Context) (any, error)
	var source, srcName string
	switch r.source {
	case SourceBucket:
		var err error
		run, err = r.bucket.runFunc(r.common, target.ID)
		if err != nil {
			r.confirm.Err = err.Error()
			r.confirm.Reset()
			return nil
		}
		source, srcName = r.confirm.Source, r.confirm.SourceService
	case SourceBackupID:
		req := api.BackupIDRestore(target.ID, strings.TrimSpace(r.idInput.Value()))
		run = func(ctx context.Context) (any, error) { return client.CreateRestore(ctx, req) }
		source, srcName = r.confirm.Source, r.confirm.SourceService
	default:
		req := api.ManagedRestore(target.ID, r.backupKey)
		run = func(ctx context.Context) (any, error) { return client.CreateRestore(ctx, req) }
		source, srcName = r.confirm.Source, r.confirm.SourceService
	}
	if client == nil {
		run = func(context.Context) (any, error) { return nil, errors.New("no API client") }
	}
	r.submitted = true
	r.confirm.Err = ""
	now := r.common.Time()
	tag := Tag{Wizard: r, Target: target, SourceService: srcName, Source: source, SubmittedAt: now}
	name := "restore into " + nameOf(target)
	action := kit.Action{
		Name:     name,
		Key:      "restore:" + target.ID,
		Mutating: true,
		Origin:   r.opts.Origin,
		Tag:      tag,
		Run:      run,
		Success: func(res any) string {
			if rec, ok := res.(*api.Restore); ok && rec != nil && rec.ID > 0 {
				return fmt.Sprintf("restore %d into %s started; you will be told when it ends", int64(rec.ID), nameOf(target))
			}
			return "restore into " + nameOf(target) + " started; you will be told when it ends"
		},
		Refresh:    []string{"restores", "services"},
		Evidence:   kit.RestoresEvidence(client, target.ID, nameOf(target)),
		EvidenceOf: "the restores of " + nameOf(target),
	}
	pending := &api.Restore{ServiceID: target.ID, ServiceName: target.Name, Status: "Submitting", Message: "being submitted",
		CreatedAt: api.Time{Time: now}}
	if r.source == SourceManaged {
		pending.Key = r.backupKey
	}
	if r.source == SourceBucket {
		pending.Bucket, pending.Key = r.bucket.bucket.Value(), r.bucket.file.Value()
	}
	if r.source == SourceBackupID {
		pending.Key = strings.TrimSpace(r.idInput.Value())
	}
	return tea.Batch(kit.Do(action), r.done(DoneMsg{Submitted: true, Pending: pending}))
}

// Failed brings the wizard back to the confirmation after the API refused
// the restore: everything is kept but the typed name (and an encryption
// key that was not kept in the keystore, which the form never holds after
// a submit).
func (r *Wizard) Failed(err error) {
	r.submitted = false
	if r.confirm == nil {
		return
	}
	r.step = stageConfirm
	r.confirm.Err = err.Error()
	if r.source == SourceBucket && r.bucket.encMode == encNew && !r.bucket.keep {
		r.confirm.Err += " (the encryption key was dropped after the submit: go back and type it again)"
	}
	r.confirm.Reset()
}

// Unknown keeps the wizard, as a draft, after a submit whose outcome is
// unknown (sent, never answered): brought back, it stands at the
// confirmation with the name to type cleared and says that the last submit
// may have been carried out, so sending it again is a deliberate act.
func (r *Wizard) Unknown() {
	r.submitted = false
	if r.confirm == nil {
		return
	}
	r.step = stageConfirm
	r.confirm.Err = "the last submit got no answer and may have been carried out: look at the Restores list before restoring again"
	r.confirm.Reset()
}

// Submitted reports that the wizard handed its action to kit.Do and
// waits for the answer.
func (r *Wizard) Submitted() bool { return r.submitted }

// ---- view ----

func (r *Wizard) stepTitle() string {
	n := 4
	cur := 1
	switch r.step {
	case stageTarget:
		cur = 2
	case stageBackup, stageBucket, stageBackupID, stageRefusal:
		cur = 3
	case stageConfirm:
		cur = 4
	}
	what := map[stage]string{
		stageSource:   "where is the backup?",
		stageTarget:   "which service to restore into? (its data will be erased)",
		stageBackup:   "which backup?",
		stageBucket:   "the backup file in your bucket",
		stageBackupID: "the backup ID",
		stageRefusal:  "refused",
		stageConfirm:  "confirm",
	}[r.step]
	return fmt.Sprintf("New restore %d/%d: %s", cur, n, what)
}

// View renders the wizard within its size.
func (r *Wizard) View() string {
	th := r.common.Theme
	w, h := r.width, r.height
	head := " " + th.Bold.Render(r.stepTitle())
	var body string
	bh := max(1, h-2)
	switch r.step {
	case stageSource:
		body = r.sourceView(w)
	case stageTarget:
		body = r.targets.View()
	case stageBackup:
		body = r.backupView(w)
	case stageBucket:
		body = r.bucket.view(r, w, bh)
	case stageBackupID:
		body = r.backupIDView(w)
	case stageRefusal:
		body = RefusalView(r.common, r.refusal, w)
	case stageConfirm:
		body = r.confirm.View(w, bh)
	}
	lines := []string{ansi.Truncate(head, w, th.Glyphs.Ellipsis), ""}
	bl := strings.Split(body, "\n")
	if r.stepErr != "" {
		room := max(1, bh-2)
		if len(bl) > room {
			bl = bl[:room]
		}
		bl = append(bl, "", " "+th.Error.Render("! "+r.stepErr))
	}
	lines = append(lines, bl...)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, th.Glyphs.Ellipsis)
	}
	return strings.Join(lines, "\n")
}

func (r *Wizard) sourceView(w int) string {
	th := r.common.Theme
	opts := []struct{ name, desc string }{
		{"Managed storage", "a backup the platform took of a service (same cloud provider only)"},
		{"Your own bucket", "a gzip backup file in a gs:// or s3:// bucket you own"},
		{"Backup ID", "the identifier of a backup, typed or pasted"},
	}
	var lines []string
	for i, o := range opts {
		cur := "  "
		line := fmt.Sprintf("%d  %-16s %s", i+1, o.name, o.desc)
		if i == r.sourceCursor {
			cur = th.Glyphs.Cursor + " "
			line = th.Selected.Render(line)
		}
		lines = append(lines, " "+cur+line)
	}
	lines = append(lines, "")
	warn := "A restore stops the target service, erases all its data and replaces its default username and password with the source service's. Nothing is sent before the last step, where you type the target's name."
	for _, l := range strings.Split(ansi.Wrap(warn, max(10, w-2), " "), "\n") {
		lines = append(lines, " "+th.Warn.Render(l))
	}
	if r.common.ReadOnly {
		lines = append(lines, "", " "+th.Warn.Render("profile "+r.common.Profile+" is read-only: the restore will be refused"))
	}
	return strings.Join(lines, "\n")
}

func (r *Wizard) backupView(w int) string {
	th := r.common.Theme
	src := r.service(r.sourceServiceID())
	target := r.Target()
	if r.pickingSource {
		return " " + th.Muted.Render("Source service: whose backups? (enter choose, / filter, esc back)") + "\n" + r.sources.View()
	}
	line := fmt.Sprintf(" Backups of %s (%s, %s) into %s (%s)", nameOf(src), src.ID, orElse(src.Provider, "?"), nameOf(target), orElse(target.Provider, "?"))
	if src.ID == target.ID {
		line = fmt.Sprintf(" Backups of %s (%s, %s): s restores another service's backup", nameOf(src), src.ID, orElse(src.Provider, "?"))
	}
	out := th.Muted.Render(ansi.Truncate(line, w, th.Glyphs.Ellipsis))
	if r.backupsErr != nil && r.backupsLoaded {
		out += "\n " + th.Warn.Render("showing the last listing: "+r.backupsErr.Error())
	}
	return out + "\n" + r.backupTable.View()
}

func orElse(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func (r *Wizard) backupIDView(w int) string {
	th := r.common.Theme
	r.idInput.SetWidth(max(10, w-6))
	lines := []string{
		" Type or paste the identifier of a backup (the key from a backup listing).",
		"",
		" " + r.idInput.View(),
		"",
		" " + th.Muted.Render("Restoring into "+nameOf(r.Target())+" ("+r.targetID+"). A backup of a service on another cloud provider cannot be restored."),
	}
	return strings.Join(lines, "\n")
}

// RefusalView explains a cross-provider refusal and the workaround.
func RefusalView(c *kit.Common, ref *api.CrossProvider, w int) string {
	th := c.Theme
	if ref == nil {
		return ""
	}
	src, tgt := nameOf(ref.SourceService), nameOf(ref.Target)
	wrap := func(s string, indent int) []string {
		return strings.Split(ansi.Wrap(s, max(10, w-indent), " ,/"), "\n")
	}
	var lines []string
	lines = append(lines, " "+th.Error.Render("Not sent: a backup can be restored only within the same cloud provider."))
	for _, l := range wrap(fmt.Sprintf("Backup %s of %s was taken on %s; %s (%s) runs on %s. The API would refuse this restore, so nothing was sent.",
		ref.Backup, src, ref.SourceProvider, tgt, ref.Target.ID, ref.TargetProvider), 2) {
		lines = append(lines, " "+l)
	}
	lines = append(lines, "", " "+th.Bold.Render("The documented way across providers:"))
	steps := []string{
		fmt.Sprintf("back up %s to your own bucket on %s (a once backup with external storage)", src, ref.SourceProvider),
		fmt.Sprintf("copy the backup folder to a bucket %s can read on %s", tgt, ref.TargetProvider),
		fmt.Sprintf("restore %s from that bucket (source: your own bucket)", tgt),
	}
	for i, s := range steps {
		for j, l := range wrap(s, 6) {
			p := fmt.Sprintf("  %d. ", i+1)
			if j > 0 {
				p = "     "
			}
			lines = append(lines, p+l)
		}
	}
	lines = append(lines, "",
		"   "+th.Key.Render("m")+"    "+th.Desc.Render("start this migration now (guided, every step prefilled)"),
		"   "+th.Key.Render("esc")+"  "+th.Desc.Render("choose another backup"))
	return strings.Join(lines, "\n")
}

// ---- keys ----

type wizardKeys struct {
	Up, Down, Next, Back, SourceService, Migrate, Fix, NextField, PrevField, Toggle key.Binding
}

func newWizardKeys() wizardKeys {
	return wizardKeys{
		Up:            key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("up/k", "move up")),
		Down:          key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("down/j", "move down")),
		Next:          key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "choose")),
		Back:          key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back (keeps input)")),
		SourceService: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "other source service")),
		Migrate:       key.NewBinding(key.WithKeys("m"), key.WithHelp("m", "migrate across providers")),
		Fix:           key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "apply the suggested fix")),
		NextField:     key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab/down", "next field")),
		PrevField:     key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab/up", "previous field")),
		Toggle:        key.NewBinding(key.WithKeys("left", "right", "space"), key.WithHelp("left/right/space", "change choice")),
	}
}

type keyMap struct {
	short []key.Binding
	full  [][]key.Binding
}

func (k keyMap) ShortHelp() []key.Binding  { return k.short }
func (k keyMap) FullHelp() [][]key.Binding { return k.full }

// KeyMap lists the bindings of the current step.
func (r *Wizard) KeyMap() help.KeyMap {
	k := r.keys
	filter := key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter"))
	var b []key.Binding
	switch r.step {
	case stageSource:
		b = []key.Binding{key.NewBinding(key.WithKeys("1", "2", "3"), key.WithHelp("1-3", "choose")), k.Next, k.Up, k.Down, k.Back}
	case stageTarget:
		b = []key.Binding{k.Next, filter, k.Up, k.Down, k.Back}
	case stageBackup:
		if r.pickingSource {
			b = []key.Binding{k.Next, filter, k.Back}
		} else {
			b = []key.Binding{k.Next, k.SourceService, filter, k.Up, k.Down, k.Back}
		}
	case stageBucket:
		b = []key.Binding{k.NextField, k.PrevField, k.Toggle, key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "next / continue")), k.Back}
		if r.bucket.fixable() != "" {
			b = append([]key.Binding{k.Fix}, b...)
		}
	case stageBackupID:
		b = []key.Binding{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "continue")),
			key.NewBinding(key.WithKeys("ctrl+v"), key.WithHelp("ctrl+v", "paste")), k.Back}
	case stageRefusal:
		b = []key.Binding{k.Migrate, k.Back}
	case stageConfirm:
		b = []key.Binding{key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "confirm (name typed)")),
			key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "buttons")), k.Back}
	}
	return keyMap{short: b, full: [][]key.Binding{b}}
}
