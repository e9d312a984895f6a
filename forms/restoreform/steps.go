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
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
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
			r.sourceCursor = (r.sourceCursor + sourceCount - 1) % sourceCount
		case key.Matches(msg, k.Down):
			r.sourceCursor = (r.sourceCursor + 1) % sourceCount
		case key.Matches(msg, k.Pick):
			r.sourceCursor = int(msg.String()[0] - '1') // Pick's keys are "1" to "4"
			return r.chooseSource()
		case key.Matches(msg, k.Next):
			return r.chooseSource()
		}
		return nil
	case stageTarget:
		defer r.clearErrOff(r.targets, r.targets.SelectedID())
		if used, cmd := r.targets.FilterFirst(msg, k.Back); used {
			return cmd
		}
		switch {
		case key.Matches(msg, k.Back):
			return r.back()
		case key.Matches(msg, k.Next):
			return r.chooseTarget()
		}
		_, cmd := r.targets.Update(msg)
		return cmd
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
	defer r.clearErrOff(r.backupTable, r.backupTable.SelectedID())
	if used, cmd := r.backupTable.FilterFirst(msg, k.Back); used {
		return cmd
	}
	switch {
	case key.Matches(msg, k.Back):
		return r.back()
	case key.Matches(msg, k.SourceService):
		// the list the refusal was about gives way to the services
		r.stepErr = ""
		r.pickingSource = true
		// a new choice: the name typed for the last one is not kept (what
		// is typed now would be added to it)
		r.sources.SetFilter("")
		r.sources.Select(r.sourceServiceID())
		return nil
	case key.Matches(msg, k.Next):
		return r.chooseBackup()
	}
	r.stepErr = ""
	_, cmd := r.backupTable.Update(msg)
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
		r.stepErr = "no backup selected"
		return nil
	}
	return r.pickBackup(b, stageBackup)
}

// pickBackup takes a managed backup chosen on step from (the backup list,
// or the target step when the backup came with the wizard): refused with
// the reason on that step, or the cross-provider refusal, or the
// confirmation; esc from either returns to from.
func (r *Wizard) pickBackup(b api.Backup, from stage) tea.Cmd {
	if why := restorable(b); why != "" {
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
	age := ""
	if !b.StartTime.IsZero() {
		age = ", " + kit.Ago(r.common.Time().Sub(b.StartTime.Time)) + " ago"
	}
	desc := fmt.Sprintf("backup %s of %s (%s%s, %s) from managed storage", api.ShortKey(b.Key), src.NameOrID(), b.Type, age, kit.HumanBytes(b.SizeBytes))
	req := api.ManagedRestore(target.ID, b.Key)
	r.openConfirm(desc, src.NameOrID(), requestJSON(req))
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
			srcName = src.NameOrID()
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
	switch {
	case r.confirm != nil && r.confirm.Target.ID == target.ID && r.confirm.Source == desc:
		// the name is typed again each time the step opens, even for the
		// same restore: an enter on the step before, then another (a
		// double press), must never restore with a name typed earlier
		r.confirm.Request = request
		r.confirm.Reset()
	default:
		r.confirm = NewConfirm(r.common, target, desc, srcName, request)
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
	var source, srcName string
	switch r.source {
	case SourceBucket:
		var err error
		run, err = r.bucket.runFunc(r.common, target.ID)
		if err != nil {
			r.confirm.Err, r.confirm.Local = err.Error(), true
			r.confirm.Reset()
			return nil
		}
		source, srcName = r.confirm.Source, r.confirm.SourceService
	case SourceBackupID:
		req := api.BackupIDRestore(target.ID, strings.TrimSpace(r.idInput.Value()))
		run = func(ctx context.Context) (any, error) { return client.CreateRestore(ctx, req) }
		source, srcName = r.confirm.Source, r.confirm.SourceService
	case SourcePointInTime:
		req := r.pitr.req
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
	r.confirm.Err, r.confirm.Local = "", false
	now := r.common.Time()
	tag := Tag{Wizard: r, Target: target, SourceService: srcName, Source: source, SubmittedAt: now}
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
		Evidence:   kit.RestoresEvidence(client, target.ID, target.NameOrID()),
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

// The point-in-time step: which service's backups and binary logs (the
// services GET /restores/pointintime/lookup names, each with its window),
// and the moment, typed, shown in UTC and local time side by side as it is
// typed. A moment outside the chosen service's window is refused here,
// naming the window, before anything is sent; one inside is checked
// against POST /restores/lookup (can the target take this service's
// backups?) and goes to the typed-name confirmation.

type pitrStep struct {
	common  *kit.Common
	table   *kit.Table
	moment  kit.Input
	windows []api.PITRWindow
	loaded  bool
	err     error
	// checking: the targets lookup is in flight (enter waits for it)
	checking bool
	req      api.RestoreRequest
}

// pitrTargetsMsg is the answer of the targets lookup for a chosen source.
type pitrTargetsMsg struct {
	step     *pitrStep
	source   string
	at       time.Time
	services []api.LookupService
	err      error
}

func newPITRStep(c *kit.Common) *pitrStep {
	p := &pitrStep{common: c}
	p.table = kit.NewTable(c, []kit.Column{
		{Title: "SERVICE", Min: 14, Max: 24, Priority: 9},
		{Title: "ID", Min: 13, Max: 16, Priority: 5},
		{Title: "PROVIDER", Min: 8, Max: 8, Priority: 6},
		{Title: "FROM (UTC)", Min: 19, Max: 19, Priority: 8},
		{Title: "TO (UTC)", Min: 19, Max: 19, Priority: 8},
		// why a source cannot serve the target, in words (as the other
		// lists' CANNOT BE), not by its colour alone
		{Title: "CANNOT BE", Min: 20, Max: 24, Priority: 7},
	})
	p.table.Empty = "asking which services can restore to a point in time" + c.Theme.Glyphs.Ellipsis
	p.moment = kit.NewInput("> ", "")
	return p
}

func (r *Wizard) pitrKey() string { return r.opts.ResourcePrefix + "pitr" }

// pitrResource asks for the windows while the step is shown.
func (r *Wizard) pitrResource() kit.Resource {
	client := r.common.Client
	return kit.Resource{Key: r.pitrKey(), Fetch: func(ctx context.Context) (any, error) {
		if client == nil {
			return nil, errors.New("no API client")
		}
		return client.PointInTimeWindows(ctx)
	}}
}

func (p *pitrStep) onData(r *Wizard, msg kit.DataMsg) {
	if msg.Err != nil {
		p.err = msg.Err
		if !p.loaded {
			p.table.Empty = "could not ask for the point-in-time windows: " + msg.Err.Error()
		}
		return
	}
	p.err, p.loaded = nil, true
	p.windows, _ = msg.Data.([]api.PITRWindow)
	rows := make([]kit.Row, 0, len(p.windows))
	target := r.Target()
	for _, w := range p.windows {
		src := r.service(w.ServiceID)
		name := kit.Or(w.ServiceName, src.NameOrID())
		// another provider than the target's cannot serve it: shown up
		// front, muted and said in words, as enter would refuse it
		kind := theme.Kind(0)
		short, _ := pitrRefusal(src, target)
		if short != "" {
			kind = theme.KindMuted
		}
		rows = append(rows, kit.Row{ID: w.ServiceID, Cells: []string{name, w.ServiceID, kit.OrDash(src.Provider), utcText(w.Start), utcText(w.End), short},
			Kinds: []theme.Kind{kind, kind, kind, 0, 0, theme.KindMuted}})
	}
	p.table.Empty = "no service can restore to a point in time: it needs a completed full backup in managed storage and its binary logs"
	first := p.table.Total() == 0
	p.table.SetRows(rows)
	if first {
		p.table.Select(r.targetID) // restoring a service to its own past is the common case
	}
}

// pitrRefusal is why the backups of src cannot restore target: in a few
// words (the list's CANNOT BE) and whole (said on enter); "" when they can.
func pitrRefusal(src, target api.Service) (short, long string) {
	if src.Provider == "" || target.Provider == "" || strings.EqualFold(src.Provider, target.Provider) {
		return "", ""
	}
	return "other provider (" + src.Provider + ")",
		fmt.Sprintf("%s runs on %s and %s on %s: a restore from a service's backups is possible only within the same cloud provider",
			src.NameOrID(), src.Provider, target.NameOrID(), target.Provider)
}

func utcText(t api.Time) string {
	if t.IsZero() {
		return kit.Or(t.Raw, "?")
	}
	return t.UTC().Format(api.PITRTimeLayout)
}

func (p *pitrStep) selected() (api.PITRWindow, bool) {
	return api.WindowOf(p.windows, p.table.SelectedID())
}

// bothZones is the moment in UTC and in local time, side by side.
func bothZones(t time.Time) string {
	return t.UTC().Format(api.PITRTimeLayout) + " UTC   (" + t.Local().Format("2006-01-02 15:04:05 MST") + " local)"
}

func (r *Wizard) onPITRKey(msg tea.KeyPressMsg) tea.Cmd {
	p, k := r.pitr, r.keys
	switch {
	case key.Matches(msg, k.Back):
		return r.back()
	case key.Matches(msg, k.PITRMove):
		r.stepErr = ""
		_, cmd := p.table.Update(msg)
		return cmd
	case key.Matches(msg, k.Continue):
		return r.choosePITR()
	}
	var cmd tea.Cmd
	p.moment, cmd = p.moment.Update(msg)
	r.stepErr = ""
	return cmd
}

// choosePITR checks the moment against the chosen window (nothing is sent
// when it is outside), then asks which services the source's backups can
// be restored into.
func (r *Wizard) choosePITR() tea.Cmd {
	p := r.pitr
	if p.checking {
		return nil
	}
	w, ok := p.selected()
	if !ok {
		r.stepErr = "no service chosen: the list names the services whose backups can restore to a point in time"
		return nil
	}
	at, err := api.ParseMoment(p.moment.Value())
	if err != nil {
		r.stepErr = err.Error()
		return nil
	}
	if err := w.Check(at); err != nil {
		r.stepErr = "nothing was sent: " + err.Error()
		return nil
	}
	if _, why := pitrRefusal(r.service(w.ServiceID), r.Target()); why != "" {
		r.stepErr = why
		return nil
	}
	client := r.common.Client
	if client == nil {
		r.stepErr = "no API client"
		return nil
	}
	p.checking = true
	id := w.ServiceID
	return func() tea.Msg {
		svcs, err := client.RestoreTargets(context.Background(), api.RestoreLookupRequest{ServiceID: id})
		return pitrTargetsMsg{step: p, source: id, at: at, services: svcs, err: err}
	}
}

// onPITRTargets takes the targets lookup: the target among them goes to
// the confirmation; a lookup that failed is said there and does not stop
// the restore (the API decides on the restore itself).
func (r *Wizard) onPITRTargets(msg pitrTargetsMsg) {
	p := r.pitr
	p.checking = false
	if r.step != stagePITR {
		return
	}
	w, _ := api.WindowOf(p.windows, msg.source)
	src, target := r.service(msg.source), r.Target()
	srcName := kit.Or(w.ServiceName, src.NameOrID())
	note := ""
	if msg.err != nil {
		note = " (the lookup of eligible targets failed: " + msg.err.Error() + ")"
	} else {
		ok := false
		var names []string
		for _, s := range msg.services {
			ok = ok || s.ServiceID == target.ID
			names = append(names, kit.Or(s.ServiceName, s.ServiceID))
		}
		if !ok {
			r.stepErr = fmt.Sprintf("%s cannot take a restore from %s's backups; the API names: %s", target.NameOrID(), srcName, kit.Or(strings.Join(names, ", "), "none"))
			return
		}
	}
	p.req = api.PointInTimeRestore(target.ID, msg.source, msg.at)
	r.prev = stagePITR
	desc := fmt.Sprintf("%s as it was at %s (%s local), from its backups and binary logs%s",
		srcName, msg.at.UTC().Format(api.PITRTimeLayout)+" UTC", msg.at.Local().Format("15:04:05 MST"), note)
	r.openConfirm(desc, srcName, requestJSON(p.req))
}

// pitrView is the step in h lines: the text under the moment's field is
// wrapped, never cut (an RFC 3339 example is as long as a line); the
// window's line, which the table's FROM and TO columns say already, gives
// way when the lines do not fit.
func (r *Wizard) pitrView(w, h int) string {
	th := r.common.Theme
	p := r.pitr
	// without the target's ID when the line is too long for it
	head := fmt.Sprintf("Restore %s (%s) to a moment of (up/down):", r.Target().NameOrID(), r.targetID)
	if ansi.StringWidth(head) > w-1 {
		head = fmt.Sprintf("Restore %s to a moment of (up/down):", r.Target().NameOrID())
	}
	lines := []string{" " + th.Muted.Render(ansi.Truncate(head, w-1, th.Glyphs.Ellipsis))}
	if p.err != nil && p.loaded {
		lines = append(lines, " "+th.Warn.Render("showing the last answer: "+p.err.Error()))
	}
	lines = append(lines, strings.Split(p.table.View(), "\n")...)
	lines = append(lines, "", " Moment: "+p.moment.View())
	hint, style := "accepted: "+api.MomentForms, th.Muted.Render
	outside := ""
	if v := strings.TrimSpace(p.moment.Value()); v != "" {
		if at, err := api.ParseMoment(v); err != nil {
			hint, style = "not yet a moment: "+api.MomentForms, th.Warn.Render
		} else {
			hint, style = "= "+bothZones(at), plain
			if sel, ok := p.selected(); ok {
				if err := sel.Check(at); err != nil {
					outside = "outside the window: " + sel.String()
				}
			}
		}
	}
	lines = append(lines, momentLines(hint, w, style)...)
	if outside != "" {
		lines = append(lines, momentLines(outside, w, th.Warn.Render)...)
	}
	if sel, ok := p.selected(); ok {
		win := momentLines("window of "+kit.Or(sel.ServiceName, sel.ServiceID)+": "+sel.String(), w, th.Muted.Render)
		if len(lines)+len(win) <= h {
			lines = append(lines, win...)
		}
	}
	return strings.Join(lines, "\n")
}
