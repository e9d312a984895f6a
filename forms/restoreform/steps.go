package restoreform

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// The wizard's steps: the keys of each, the choices they make, and the
// submit through the action layer with what happens after it.

func (r *Wizard) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := r.keys
	switch r.step {
	case stageSource:
		switch {
		case key.Matches(msg, k.Back):
			return r.back()
		case key.Matches(msg, k.Up):
			r.sourceCursor = max(r.sourceCursor-1, 0) // the ends stop: no wrap-around
		case key.Matches(msg, k.Down):
			r.sourceCursor = min(r.sourceCursor+1, sourceCount-1)
		case key.Matches(msg, k.Pick):
			r.sourceCursor = int(msg.String()[0] - '1') // Pick's keys are "1" to "4"
			return r.chooseSource()
		case key.Matches(msg, k.Next):
			return r.chooseSource()
		case key.Matches(msg, k.Help):
			return kit.Send(kit.HelpMsg{})
		}
		return nil
	case stageTarget:
		return r.onList(r.targets, msg, func() (tea.Cmd, bool) {
			if key.Matches(msg, k.Next) {
				return r.chooseTarget(), true
			}
			return nil, false
		})
	case stageBackup:
		return r.onBackupKey(msg)
	case stagePITR:
		return r.onPITRKey(msg)
	case stageBucket:
		if key.Matches(msg, k.Back) {
			return r.back()
		}
		return r.bucket.update(r, msg)
	case stageBackupID:
		switch {
		case key.Matches(msg, k.Back):
			return r.back()
		case key.Matches(msg, k.Continue):
			return r.chooseBackupID()
		}
		return r.typeInto(&r.idInput, msg)
	case stageRefusal:
		switch {
		case key.Matches(msg, k.Back):
			return r.back()
		case key.Matches(msg, k.Migrate):
			ref := r.refusal
			return r.done(DoneMsg{Migrate: &MigrateRequest{Source: ref.SourceService, Target: ref.Target, Backup: ref.Record}})
		case key.Matches(msg, k.Help):
			return kit.Send(kit.HelpMsg{})
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
		if f := r.targets.Filter(); f != "" && r.targets.Total() > 0 {
			// the filter hides them, not the account
			r.stepErr = fmt.Sprintf("no service matches %q: change what is typed (backspace)", f)
		}
		return nil
	}
	t := r.service(id)
	if why := api.RestoreTargetProblem(t); why != "" {
		if api.IsPendingServiceStatus(t.Status) {
			why += "; wait until it is ready"
		}
		r.stepErr = why
		return nil
	}
	if r.targetID != id && r.srcID == "" {
		r.backupKey = "" // a new target lists its own backups
	}
	r.targetID = id
	if b := r.opts.Backup; b != nil && r.source == SourceManaged {
		// the backup is chosen already (R on the Backups screen)
		r.stepErr = ""
		return r.pickBackup(*b, stageTarget)
	}
	return r.enter(r.sourceStep())
}

func (r *Wizard) onBackupKey(msg tea.KeyPressMsg) tea.Cmd {
	k := r.keys
	if r.pickingSource {
		if used, cmd := r.sources.FilterFirst(msg, k.Back); used {
			return cmd
		}
		switch {
		case key.Matches(msg, k.Back):
			r.pickingSource = false
			return nil
		case key.Matches(msg, k.Next):
			if r.sources.SelectedID() == "" {
				return nil // no row matches the filter: nothing chosen yet
			}
			if id := r.sources.SelectedID(); id != r.sourceServiceID() {
				r.srcID = id
				r.backupsLoaded, r.backupsErr = false, nil
				clear(r.backups)
				r.backupsFor = ""
				r.backupTable.SetRows(nil)
				r.backupTable.SetFilter("")
				r.backupTable.Empty = "loading backups of " + r.service(id).NameOrID() + r.common.Theme.Glyphs.Ellipsis
			}
			r.pickingSource = false
			return nil
		}
		_, cmd := r.sources.Update(msg)
		return cmd
	}
	return r.onList(r.backupTable, msg, func() (tea.Cmd, bool) {
		switch {
		case key.Matches(msg, k.SourceService):
			// the list the refusal was about gives way to the services
			r.stepErr = ""
			r.pickingSource = true
			// a new choice: the name typed for the last one is not kept
			// (what is typed now would be added to it)
			r.sources.SetFilter("")
			r.sources.Select(r.sourceServiceID())
			return nil, true
		case key.Matches(msg, k.Next):
			return r.chooseBackup(), true
		}
		r.stepErr = ""
		return nil, false
	})
}

// onList is a key on a step's list t: its typed filter first (esc clears
// a kept one), then back, then the step's own keys (own: done reports it
// took the key), then the list's moves. A refusal said of the row
// selected goes once another row is (clearErrOff).
func (r *Wizard) onList(t *kit.Table, msg tea.KeyPressMsg, own func() (cmd tea.Cmd, done bool)) tea.Cmd {
	defer r.clearErrOff(t, t.SelectedID())
	if used, cmd := t.FilterFirst(msg, r.keys.Back); used {
		return cmd
	}
	if key.Matches(msg, r.keys.Back) {
		return r.back()
	}
	if cmd, done := own(); done {
		return cmd
	}
	_, cmd := t.Update(msg)
	return cmd
}

// typeInto gives a step's input a key or a paste;
// what is typed clears the step's refusal.
func (r *Wizard) typeInto(in *kit.Input, msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	*in, cmd = in.Update(msg)
	r.stepErr = ""
	return cmd
}

// clearErrOff clears the step's refusal once the row it was about (was,
// the row selected when the key came) is no longer the one selected: a
// filter or a move left it, or the list changed (another source service).
func (r *Wizard) clearErrOff(t *kit.Table, was string) {
	if t.SelectedID() != was {
		r.stepErr = ""
	}
}

func (r *Wizard) chooseBackup() tea.Cmd {
	b, ok := r.backups[r.backupTable.SelectedID()]
	if !ok {
		r.stepErr = r.noBackupWhy()
		if !r.backupsLoaded {
			r.listingNote = r.stepErr
		}
		return nil
	}
	return r.pickBackup(b, stageBackup)
}

// noBackupWhy is why enter chose no backup: the listing is not read yet
// (or failed), the service has none, or the filter shows none.
func (r *Wizard) noBackupWhy() string {
	src := r.service(r.sourceServiceID()).NameOrID()
	other := r.keys.SourceService.Help().Key + " restores another service's backup"
	switch {
	case !r.backupsLoaded && r.backupsErr != nil:
		return "the backups of " + src + " could not be listed: " + r.backupsErr.Error()
	case !r.backupsLoaded:
		return "the backups of " + src + " are still being listed"
	case r.backupTable.Total() == 0:
		return src + " has no backup to restore yet: " + other
	case r.backupTable.Len() == 0:
		return "no backup of " + src + " matches the filter " + r.backupTable.Filter()
	}
	return "no backup selected"
}

// pickBackup takes a managed backup chosen on step from (the backup list,
// or the target step when the backup came with the wizard): refused with
// the reason on that step, or the cross-provider refusal, or the
// confirmation; esc from either returns to from.
func (r *Wizard) pickBackup(b api.Backup, from stage) tea.Cmd {
	if why := api.ManagedRestoreRefusal(b); why != "" {
		r.stepErr = why
		return nil
	}
	r.backupKey = b.Key
	src := r.service(r.sourceServiceID())
	target := r.Target()
	r.prev = from
	if ref := api.CheckSameProvider(b, src, target); ref != nil {
		r.refusal = ref
		r.step = stageRefusal
		return nil
	}
	// the backup's age as of now: the confirmation says it as it is drawn
	describe := func(now time.Time) string {
		age := ""
		if !b.StartTime.IsZero() {
			age = ", " + kit.Ago(now.Sub(b.StartTime.Time)) + " ago"
		}
		return fmt.Sprintf("backup %s of %s (%s%s, %s) from managed storage", api.ShortKey(b.Key), src.NameOrID(), b.Type, age, kit.HumanBytes(b.SizeBytes))
	}
	req := api.ManagedRestore(target.ID, b.Key)
	r.openConfirm(describe(r.common.Time()), src.NameOrID(), requestJSON(req))
	r.confirm.describe = describe
	return nil
}

func (r *Wizard) chooseBackupID() tea.Cmd {
	id := strings.TrimSpace(r.idInput.Value())
	if id == "" {
		r.stepErr = "id: is required: type or paste the identifier of a backup"
		return nil
	}
	if id != r.idInput.Value() {
		r.idInput.SetValue(id)
		r.idInput.CursorEnd()
	}
	req := api.BackupIDRestore(r.targetID, id)
	if err := req.Validate(); err != nil {
		r.stepErr = err.Error()
		return nil
	}
	if r.id.sendAsTyped != id {
		// looked up in the backups listed first: a short key becomes its
		// backup's whole key; a backup running or failed is refused, by
		// its whole key too; one not listed is sent as typed on a second
		// enter
		return r.lookUpBackupID(id)
	}
	target := r.Target()
	r.prev = stageBackupID
	srcName := ""
	if sid := KeyService(id); sid != "" {
		src, known := r.byID[sid]
		if known {
			srcName = src.NameOrID()
			if ref := api.CheckSameProvider(api.Backup{Key: id}, src, target); ref != nil {
				r.refusal = ref
				r.step = stageRefusal
				r.stepErr = "" // the ID step's note is not the refusal's
				return nil
			}
		}
	}
	r.stepErr = "" // a lookup's note is the step's, not the confirmation's
	desc := "backup ID " + id
	if srcName != "" {
		desc += " (a backup of " + srcName + ")"
	}
	r.openConfirm(desc, srcName, requestJSON(req))
	return nil
}

func (r *Wizard) openConfirm(desc, srcName, request string) {
	target := r.Target()
	switch {
	case r.confirm != nil && r.confirm.Target.ID == target.ID && r.confirm.Source == desc:
		// the name is typed again each time the step opens, even for the
		// same restore: an enter on the step before, then another (a
		// double press), must never restore with a name typed earlier
		r.confirm.Request = request
		r.confirm.reopen()
	default:
		r.confirm = NewConfirm(r.common, target, desc, srcName, request)
	}
	if r.TargetGone() {
		r.confirm.SetGone()
	} else {
		r.confirm.SetTarget(target)
	}
	r.sizeConfirm()
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
	var at string
	switch r.source {
	case SourceBucket:
		var err error
		run, err = r.bucket.runFunc(r.common, target.ID)
		if err != nil {
			r.confirm.Err, r.confirm.Local = err.Error(), true
			r.confirm.Reset()
			return nil
		}
	case SourceBackupID:
		req := api.BackupIDRestore(target.ID, strings.TrimSpace(r.idInput.Value()))
		run = func(ctx context.Context) (any, error) { return client.CreateRestore(ctx, req) }
	case SourcePointInTime:
		req := r.pitr.req
		run = func(ctx context.Context) (any, error) { return client.CreateRestore(ctx, req) }
		at = req.PointInTime
	default:
		req := api.ManagedRestore(target.ID, r.backupKey)
		run = func(ctx context.Context) (any, error) { return client.CreateRestore(ctx, req) }
	}
	if client == nil {
		run = func(context.Context) (any, error) { return nil, errors.New("no API client") }
	}
	r.submitted = true
	r.confirm.Err, r.confirm.Local = "", false
	now := r.common.Time()
	tag := Tag{Wizard: r, Target: target, SourceService: r.confirm.SourceService, Source: r.confirm.SourceText(),
		PointInTime: at, SubmittedAt: now, before: &listedBefore{}}
	name := "restore into " + target.NameOrID()
	action := kit.Action{
		Name:     name,
		Key:      "restore:" + target.ID,
		Mutating: true,
		Origin:   r.opts.Origin,
		Tag:      tag,
		Run:      run,
		Success: func(res any) string {
			if rec, ok := res.(*api.Restore); ok && rec != nil && rec.ID > 0 {
				return fmt.Sprintf("restore %d into %s started; you will be told when it ends", int64(rec.ID), target.NameOrID())
			}
			return "restore into " + target.NameOrID() + " started; you will be told when it ends"
		},
		Refresh:    []string{"restores", "services"},
		Evidence:   tag.before.evidence(kit.RestoresEvidence(client, target.ID, target.NameOrID())),
		EvidenceOf: "the restores of " + target.NameOrID(),
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
	if r.source == SourcePointInTime {
		pending.Key = r.pitr.req.ID + " at " + r.pitr.req.PointInTime + " UTC"
	}
	// the host hears of the submit before the action can answer: an answer
	// that came first would leave the Submitting row behind it
	return tea.Sequence(r.done(DoneMsg{Submitted: true, Pending: pending}), kit.Do(action))
}

// Failed brings the wizard back after the restore was not started:
// everything is kept but the typed name (and an encryption key that was
// not kept in the keystore, which the form never holds after a submit).
// Only an answer of the API is called a refusal; a local failure (the
// keystore's, before anything was sent) is shown as it is.
func (r *Wizard) Failed(err error) {
	r.submitted = false
	if r.confirm == nil {
		return
	}
	refused := api.StatusOf(err) > 0
	if r.source == SourceBucket {
		r.bucket.settleKeep()
	}
	if f, ok := r.bucketFieldOf(err); ok {
		// the failure names a field of the bucket step: back there, on it
		r.step = stageBucket
		r.bucket.setFocus(f)
		r.stepErr = err.Error()
		if refused {
			r.stepErr = "the API refused it: " + r.stepErr
		}
		r.confirm.Reset()
		return
	}
	r.step = stageConfirm
	r.confirm.Err, r.confirm.Local = err.Error(), !refused
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
	if r.source == SourceBucket {
		r.bucket.settleKeep()
	}
	r.step = stageConfirm
	r.confirm.Err, r.confirm.Local = "the last submit got no answer and may have been carried out: look at the Restores list before restoring again", true
	r.confirm.Reset()
}

// Submitted reports that the wizard handed its action to kit.Do and
// waits for the answer.
func (r *Wizard) Submitted() bool { return r.submitted }

// bucketFieldOf is the bucket step's field a failure names: the keystore's
// refusal to keep the typed key names Keep as; otherwise the field named
// in the failure's words (not the request it quotes):
// external_source.bucket, .file, .method, .credentials, encryption_key.
func (r *Wizard) bucketFieldOf(err error) (bucketField, bool) {
	if r.source != SourceBucket || r.bucket == nil {
		return 0, false
	}
	var ke *keepError
	if errors.As(err, &ke) && r.bucket.encMode == encNew && r.bucket.keep {
		return fieldKeepName, true
	}
	t := kit.RefusalWords(err.Error())
	switch {
	case strings.Contains(t, "encryption"):
		if r.bucket.encMode == encNew {
			return fieldKey, true
		}
		return fieldEnc, true
	case strings.Contains(t, "credential"):
		return fieldCred, true
	case strings.Contains(t, "method"):
		return fieldMethod, true
	case strings.Contains(t, ".file") || strings.Contains(t, "file "):
		return fieldFile, true
	case strings.Contains(t, "bucket"):
		return fieldBucket, true
	}
	return 0, false
}
