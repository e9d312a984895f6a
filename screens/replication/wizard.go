package replication

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/forms/restoreform"
	"github.com/skytui/skytui/kit"
)

// wizard is the setup wizard's terminal face: the replsetup.Wizard of the
// setup under way (nil: none), its read-only checks, the pair chooser,
// the backup cursor and the restore's type-to-confirm. The steps, rules
// and calls are replsetup's; the saved state and the status list are the
// screen's (its host).
type wizard struct {
	common *kit.Common
	host   wizardHost
	keys   wizardKeys

	w         *replsetup.Wizard
	id        uint64                    // numbers the setups: an older one's answers are dropped
	seq       uint64                    // numbers the checks
	pending   map[replsetup.Step]uint64 // latest read-only check per step
	busy      string
	notice    string
	noticeErr bool

	chooser   *chooser
	backupCur int
	confirm   *restoreform.Confirm
	submitted bool // the restore is being submitted

	services       []api.Service
	servicesLoaded bool
	servicesErr    error // why the last listing failed

	width, height int
	// top is the first line of the step's text shown when it does not
	// fit (J/K scroll it); shown is what happened when it was laid out.
	top   int
	shown string
	// held keeps the wizard at the allow list's step when bksp went back
	// to it: its check, passing, would move on to the backup at once
	held bool
}

// wizardHost is what the wizard needs from the screen that holds it.
type wizardHost interface {
	engine() *replsetup.Engine
	// save writes the screen's state with the wizard's progress.
	save() tea.Cmd
	// watch adds a pair whose replication was started to the status list.
	watch(p replsetup.Pair)
	// finish ends the setup: the status list shows the pair.
	finish(p replsetup.Pair) tea.Cmd
	// leave goes back to the status list, progress kept.
	leave() tea.Cmd
	// openManaged leaves the chooser for managed replication.
	openManaged(primary *api.Service) tea.Cmd
	// pairs are the saved pairs (a secondary of one replicates already).
	pairs() []replsetup.Pair
}

// checkMsg answers a read-only check.
type checkMsg struct {
	wizID, seq uint64
	o          replsetup.Outcome
}

// Action tags of the wizard.
type (
	wizTag struct {
		wizID uint64
		step  replsetup.Step
		op    string
	}
	grantRanTag struct{ wizID uint64 }
)

const restoreKeyPrefix = "replication/restore/"

// restoreKey is the key of the restore the wizard follows.
func restoreKey(id int64) kit.Key[replsetup.Outcome] {
	return kit.Key[replsetup.Outcome](fmt.Sprintf("%s%d", restoreKeyPrefix, id))
}

func newWizard(c *kit.Common, host wizardHost) *wizard {
	return &wizard{common: c, host: host, keys: newWizardKeys(), pending: map[replsetup.Step]uint64{}}
}

// active reports a setup under way.
func (wz *wizard) active() bool { return wz.w != nil }

// CapturesKeys implements kit.Pane: the chooser's filter typed, or the
// restore's typed confirmation, takes every key.
func (wz *wizard) CapturesKeys() bool {
	if wz.confirm != nil {
		return true
	}
	return wz.chooser != nil && wz.chooser.table.Filtering()
}

// SetSize implements kit.Pane.
func (wz *wizard) SetSize(w, h int) {
	wz.width, wz.height = w, h
	wz.layoutBody()
	if wz.confirm != nil {
		// what the head above it leaves (the head grows while the restore
		// is submitted; the screen lays out after every Update)
		wz.confirm.SetSize(w, h-len(wz.confirmHead("")))
	}
}

func (wz *wizard) setNotice(text string, isErr bool) {
	wz.notice, wz.noticeErr = text, isErr
}

// start begins a new setup at the pair chooser.
func (wz *wizard) start() {
	wz.id++
	wz.w = replsetup.NewWizard(wz.common.Time())
	wz.busy = ""
	wz.setNotice("", false)
	wz.confirm, wz.submitted = nil, false
	wz.openChooser()
}

// resume continues the saved setup p (the one under way if it is p).
func (wz *wizard) resume(p replsetup.Progress) tea.Cmd {
	if wz.w == nil || wz.w.Progress.StartedAt != p.StartedAt || wz.w.Progress.SecondaryID != p.SecondaryID {
		wz.id++
		wz.w = replsetup.Resume(p)
	}
	wz.setNotice("", false)
	wz.chooser = nil
	if wz.w.Current() == replsetup.StepPair {
		wz.openChooser()
	}
	return wz.enterStep()
}

// syncInto copies the wizard's progress into the saved state: nothing
// until a pair is chosen, nothing once the setup is done.
func (wz *wizard) syncInto(st *replsetup.ProfileState) {
	w := wz.w
	if w == nil || w.Progress.PrimaryID == "" || w.Current() == replsetup.StepDone {
		if w != nil && w.Current() == replsetup.StepDone {
			st.Setup = nil
		}
		return
	}
	p := w.Progress
	st.Setup = &p
}

// ---- data ----

// setServices takes the services listing (the chooser's rows, the
// restore's target).
// servicesEmpty says in the chooser why it has no service to offer while
// none were read: still loading, or the listing's error.
func (wz *wizard) servicesEmpty() {
	if wz.chooser == nil || wz.servicesLoaded {
		return
	}
	wz.chooser.table.Empty = "loading services" + wz.common.Theme.Glyphs.Ellipsis
	if wz.servicesErr != nil {
		wz.chooser.table.Empty = kit.ServicesUnread(wz.servicesErr)
	}
}

func (wz *wizard) setServices(svcs []api.Service) {
	first := !wz.servicesLoaded
	wz.services, wz.servicesLoaded = svcs, true
	if wz.chooser != nil {
		wz.rebuildChooser()
		if first {
			wz.startOnChoosable()
		}
	}
	if wz.confirm != nil {
		if v, ok := wz.service(wz.confirm.Target.ID); ok {
			wz.confirm.SetTarget(v)
		}
	}
}

func (wz *wizard) service(id string) (api.Service, bool) {
	for _, v := range wz.services {
		if v.ID == id {
			return v, true
		}
	}
	return api.Service{}, false
}

// resources is the restore the wizard waits for, while it runs.
func (wz *wizard) resources(eng *replsetup.Engine) []kit.Resource {
	w := wz.w
	if w == nil || w.Current() != replsetup.StepRestore || w.Progress.RestoreID <= 0 || w.Progress.HasPassed(replsetup.StepRestore) {
		return nil
	}
	p := w.Progress
	return []kit.Resource{restoreKey(p.RestoreID).Resource(func(ctx context.Context) (replsetup.Outcome, error) {
		return eng.CheckRestore(ctx, p), nil
	}, func(o replsetup.Outcome) bool { return o.Verdict == replsetup.Waiting }).Titled(fmt.Sprintf("the wizard's restore %d", p.RestoreID))}
}

// restoreRunning reports the wizard at step 3 with its restore started
// and not ended (or not read yet since a restart): it is followed until it
// ends, and what would start another (bksp to another backup, enter) is
// refused meanwhile.
func (wz *wizard) restoreRunning() bool {
	w := wz.w
	if w == nil || w.Current() != replsetup.StepRestore || w.Progress.RestoreID <= 0 || w.Progress.HasPassed(replsetup.StepRestore) {
		return false
	}
	v := w.Verdict(replsetup.StepRestore)
	return v == replsetup.Waiting || v == replsetup.Unchecked
}

// onData takes the restore's state.
func (wz *wizard) onData(msg kit.DataMsg) tea.Cmd {
	w := wz.w
	if w == nil || w.Current() != replsetup.StepRestore {
		return nil
	}
	o, err, ok := restoreKey(w.Progress.RestoreID).Of(msg)
	if !ok || err != nil || o.Verdict == replsetup.Unchecked {
		return nil
	}
	prev := w.Verdict(replsetup.StepRestore)
	changed := w.Apply(o, wz.common.Time())
	if o.Verdict != replsetup.Waiting && (o.Verdict != prev || changed) {
		// the restore ended: a notice said while it ran no longer holds
		// ("the restore is running")
		wz.setNotice("", false)
	}
	var cmds []tea.Cmd
	if o.Verdict != prev || changed {
		cmds = append(cmds, wz.host.save())
	}
	if o.Verdict == replsetup.Pass && prev != replsetup.Pass {
		cmds = append(cmds, kit.Toast(kit.ToastSuccess, replsetup.CredentialsNote(w.Progress)))
	}
	if changed {
		cmds = append(cmds, wz.enterStep())
	}
	return tea.Batch(cmds...)
}

// Update passes a paste or a component message (the filter input's
// cursor…) to the confirm or the chooser.
func (wz *wizard) Update(msg tea.Msg) tea.Cmd {
	_, paste := msg.(tea.PasteMsg)
	switch {
	case wz.confirm != nil && !(paste && wz.submitted):
		_, cmd := wz.confirm.Update(msg)
		return cmd
	case wz.chooser != nil:
		_, cmd := wz.chooser.table.Update(msg)
		return cmd
	}
	return nil
}

// ---- checks ----

// check runs a read-only check of the current setup in a command.
func (wz *wizard) check(step replsetup.Step, busy string, f func(ctx context.Context) replsetup.Outcome) tea.Cmd {
	wz.seq++
	seq, wizID := wz.seq, wz.id
	wz.pending[step] = seq
	wz.busy = busy
	ctx := wz.common.Ctx()
	return func() tea.Msg { return checkMsg{wizID: wizID, seq: seq, o: f(ctx)} }
}

func (wz *wizard) onCheck(msg checkMsg) tea.Cmd {
	w := wz.w
	if w == nil || msg.wizID != wz.id || wz.pending[msg.o.Step] != msg.seq {
		return nil // stale: another check or another setup since
	}
	delete(wz.pending, msg.o.Step)
	wz.busy = ""
	o := msg.o
	if o.Step == replsetup.StepPair {
		if o.Verdict != replsetup.Pass {
			if wz.chooser != nil {
				// the primary stays chosen: the secondary is chosen again
				// (esc goes back to the primary's list)
				wz.chooser.err = o.Problem
				if o.Fix != "" {
					wz.chooser.err += "; " + o.Fix
				}
			}
			w.Results[replsetup.StepPair] = o
			return nil
		}
		wz.chooser = nil
	}
	if o.Step == replsetup.StepBackup && o.Backup != nil {
		wz.backupCur = 0
		key := w.Progress.BackupKey
		if key == "" {
			key = o.Backup.Backup.Key
		}
		for i := range o.Backups {
			if o.Backups[i].Backup.Key == key {
				wz.backupCur = i
			}
		}
	}
	changed := w.Apply(o, wz.common.Time())
	if wz.held && o.Step == replsetup.StepAllowList && changed {
		w.GoTo(replsetup.StepAllowList)
		changed = false
	}
	wz.held = false
	cmds := []tea.Cmd{wz.host.save()}
	if changed {
		cmds = append(cmds, wz.enterStep())
	}
	return tea.Batch(cmds...)
}

// enterStep starts the read-only check a step needs when the wizard
// arrives at it.
func (wz *wizard) enterStep() tea.Cmd {
	w := wz.w
	if w == nil {
		return nil
	}
	wz.busy = ""
	eng := wz.host.engine()
	p := w.Progress
	switch w.Current() {
	case replsetup.StepAllowList:
		return wz.check(replsetup.StepAllowList, "checking "+api.OrID(p.PrimaryName, p.PrimaryID)+"'s allow list", func(ctx context.Context) replsetup.Outcome {
			return eng.CheckAllowList(ctx, p)
		})
	case replsetup.StepBackup:
		return wz.check(replsetup.StepBackup, "listing "+api.OrID(p.PrimaryName, p.PrimaryID)+"'s backups", func(ctx context.Context) replsetup.Outcome {
			return eng.ListBackups(ctx, p)
		})
	case replsetup.StepGrant:
		if w.Grant == "" {
			return wz.check(replsetup.StepGrant, "reading the grant from "+api.OrID(p.SecondaryName, p.SecondaryID), func(ctx context.Context) replsetup.Outcome {
				return eng.FetchGrantStep(ctx, p)
			})
		}
	case replsetup.StepDone:
		return wz.finish()
	}
	return nil
}

// finish ends the setup: the pair joins the status view.
func (wz *wizard) finish() tea.Cmd {
	w := wz.w
	if w == nil {
		return nil
	}
	pair := replsetup.PairOf(w.Progress, wz.common.Time())
	wz.w = nil
	wz.chooser, wz.confirm = nil, nil
	return wz.host.finish(pair)
}

// leave goes back to the status list; a setup with nothing chosen yet is
// dropped (nothing to resume).
func (wz *wizard) leave() tea.Cmd {
	wz.confirm = nil
	if wz.w != nil && wz.w.Progress.PrimaryID == "" {
		wz.w = nil
	}
	return wz.host.leave()
}

// ---- steps ----

// outcomeRun adapts a step to kit.Action.Run: the outcome is the result;
// a failed step is also the error the toast shows.
func outcomeRun(f func(ctx context.Context) replsetup.Outcome) func(ctx context.Context) (any, error) {
	return func(ctx context.Context) (any, error) {
		o := f(ctx)
		if o.Verdict == replsetup.Fail {
			if o.NotSent {
				why := o.Problem
				if o.Fix != "" {
					why += "; " + o.Fix
				}
				return o, &kit.NotSentError{Why: why}
			}
			if o.Err != nil && o.Problem == "" {
				return o, o.Err
			}
			return o, errors.New(o.Problem)
		}
		return o, nil
	}
}

func outcomeText(res any) string {
	if o, ok := res.(replsetup.Outcome); ok && o.Summary != "" {
		return o.Summary
	}
	return "done"
}

// act hands a step's mutating call to the action layer.
func (wz *wizard) act(step replsetup.Step, op, name, key string, run func(ctx context.Context) replsetup.Outcome, refresh ...string) tea.Cmd {
	wz.busy = name
	// the step runs again: its last outcome (a failure) is no longer its
	// state; the answer is
	delete(wz.w.Results, step)
	return kit.Do(kit.Action{
		Name:     name,
		Key:      key,
		Mutating: true,
		Origin:   ID,
		Tag:      wizTag{wizID: wz.id, step: step, op: op},
		Run:      outcomeRun(run),
		Success:  outcomeText,
		Refresh:  refresh,
	})
}

// runStep is enter in the wizard: the current step's action.
func (wz *wizard) runStep() tea.Cmd {
	w := wz.w
	eng := wz.host.engine()
	p := w.Progress
	pri, sec := api.OrID(p.PrimaryName, p.PrimaryID), api.OrID(p.SecondaryName, p.SecondaryID)
	if wz.busy != "" {
		wz.setNotice("wait: "+wz.busy+wz.common.Theme.Glyphs.Ellipsis, false)
		return nil
	}
	switch w.Current() {
	case replsetup.StepPair:
		return wz.choose()
	case replsetup.StepAllowList:
		o := w.Result(replsetup.StepAllowList)
		if o.Verdict == replsetup.Fail && len(o.Missing) > 0 {
			ips := append([]string(nil), o.Missing...)
			return wz.act(replsetup.StepAllowList, "allow", "add "+strings.Join(replsetup.HostCIDRs(ips), ", ")+" to "+pri+"'s allow list", "allowlist:"+p.PrimaryID,
				func(ctx context.Context) replsetup.Outcome { return eng.AddAllowList(ctx, p, ips) }, kit.ServicesKey.String())
		}
		return wz.recheck()
	case replsetup.StepBackup:
		if wz.backupCur < 0 || wz.backupCur >= len(w.Backups) {
			return wz.recheck()
		}
		c := w.Backups[wz.backupCur]
		if err := w.ChooseBackup(c.Backup.Key, wz.common.Time()); err != nil {
			wz.setNotice("backup "+api.ShortKey(c.Backup.Key)+" cannot be used: "+err.Error(), true)
			return nil
		}
		wz.setNotice("", false)
		return tea.Batch(wz.host.save(), wz.enterStep())
	case replsetup.StepRestore:
		switch {
		case w.Verdict(replsetup.StepRestore) == replsetup.Pass:
			w.GoTo(replsetup.StepChange)
			return wz.enterStep()
		case wz.restoreRunning() && w.Verdict(replsetup.StepRestore) == replsetup.Unchecked:
			// resumed, its state not read yet: read now, never a new one
			wz.setNotice(fmt.Sprintf("reading restore %d%s", p.RestoreID, wz.common.Theme.Glyphs.Ellipsis), false)
			return kit.Refresh(restoreKey(p.RestoreID).String())
		case w.Verdict(replsetup.StepRestore) == replsetup.Waiting:
			wz.setNotice("the restore is running: it is followed here until it ends", false)
			return nil
		}
		if wz.common.ReadOnly { // before the name is typed for nothing
			return kit.RefuseReadOnly(wz.common, "restoring into "+api.OrID(p.SecondaryName, p.SecondaryID))
		}
		return wz.openConfirm()
	case replsetup.StepChange:
		if w.Verdict(replsetup.StepRestore) != replsetup.Pass && !p.HasPassed(replsetup.StepRestore) {
			wz.setNotice("restore the backup first (step 3)", true)
			return nil
		}
		return wz.act(replsetup.StepChange, "change", "point "+sec+" at "+pri, "change-primary:"+p.SecondaryID,
			func(ctx context.Context) replsetup.Outcome { return eng.ChangePrimary(ctx, p) })
	case replsetup.StepGrant:
		if w.Grant == "" {
			return wz.enterStep()
		}
		grant := w.Grant
		return wz.act(replsetup.StepGrant, "grant", "run the replication grant on "+pri, "grant:"+p.PrimaryID,
			func(ctx context.Context) replsetup.Outcome { return eng.RunGrant(ctx, p, grant) })
	case replsetup.StepStart:
		return wz.act(replsetup.StepStart, "start", "start replication on "+sec, "replication:"+p.SecondaryID,
			func(ctx context.Context) replsetup.Outcome { return eng.StartReplication(ctx, p) })
	case replsetup.StepDone:
		return wz.finish()
	}
	return nil
}

// recheck is c in the wizard: the current step's read-only check again.
func (wz *wizard) recheck() tea.Cmd {
	w := wz.w
	switch w.Current() {
	case replsetup.StepAllowList, replsetup.StepBackup:
		delete(w.Results, w.Current())
		return wz.enterStep()
	case replsetup.StepRestore:
		if w.Progress.RestoreID > 0 {
			return kit.Refresh(restoreKey(w.Progress.RestoreID).String())
		}
	case replsetup.StepGrant:
		w.Grant = ""
		return wz.enterStep()
	}
	return nil
}

// openConfirm shows the Restores screen's type-to-confirm for the restore
// into the secondary, and reads the services again: the target's status
// it shows is of now, not of the last poll (setServices updates it).
func (wz *wizard) openConfirm() tea.Cmd {
	w := wz.w
	p := w.Progress
	target, ok := wz.service(p.SecondaryID)
	if !ok {
		target = api.Service{ID: p.SecondaryID, Name: p.SecondaryName}
	}
	var choice *replsetup.BackupChoice
	for i := range w.Backups {
		if w.Backups[i].Backup.Key == p.BackupKey {
			choice = &w.Backups[i]
		}
	}
	src := "backup " + api.ShortKey(p.BackupKey) + " of " + api.OrID(p.PrimaryName, p.PrimaryID)
	var details []string
	if choice != nil {
		details = append(details, choice.Backup.Type)
	}
	if !p.BackupTime.IsZero() {
		details = append(details, "taken "+replsetup.Ago(wz.common.Time().Sub(p.BackupTime))+" ago")
	}
	if choice != nil && choice.Backup.SizeBytes > 0 {
		details = append(details, kit.HumanBytes(choice.Backup.SizeBytes))
	}
	if p.GTID != "" {
		details = append(details, "GTID "+p.GTID)
	}
	if len(details) > 0 {
		src += " (" + strings.Join(details, ", ") + ")"
	}
	req := replsetup.RestoreRequest(p)
	body := fmt.Sprintf(`{"service_id":%q,"key":%q,"id":%q}`, req.ServiceID, req.Key, req.ID)
	wz.confirm = restoreform.NewConfirm(wz.common, target, src, api.OrID(p.PrimaryName, p.PrimaryID), body)
	wz.confirm.SetBackHelp("back") // the wizard's step again; the name is typed anew
	wz.submitted = false
	return kit.Refresh(kit.ServicesKey.String())
}

func (wz *wizard) submitRestore() tea.Cmd {
	p := wz.w.Progress
	eng := wz.host.engine()
	wz.submitted = true
	wz.confirm.Err = ""
	return wz.act(replsetup.StepRestore, "restore", "restore "+api.ShortKey(p.BackupKey)+" into "+api.OrID(p.SecondaryName, p.SecondaryID),
		"restore:"+p.SecondaryID, func(ctx context.Context) replsetup.Outcome { return eng.StartRestore(ctx, p) },
		kit.ServicesKey.String(), kit.RestoresKey.String())
}

// ---- actions ----

// onActionDone takes the answer of a step's call or of "I ran the grant".
func (wz *wizard) onActionDone(msg kit.ActionDoneMsg) tea.Cmd {
	switch tag := msg.Tag.(type) {
	case wizTag:
		return wz.onStepDone(tag, msg)
	case grantRanTag:
		w := wz.w
		if msg.Err != nil || w == nil || tag.wizID != wz.id {
			return nil
		}
		w.GrantRanByUser(wz.common.Time())
		return tea.Batch(wz.host.save(), wz.enterStep())
	}
	return nil
}

func (wz *wizard) onStepDone(tag wizTag, msg kit.ActionDoneMsg) tea.Cmd {
	w := wz.w
	if w == nil || tag.wizID != wz.id {
		return nil // the setup it belonged to is gone; the toast said it
	}
	wz.busy = ""
	o, ok := msg.Result.(replsetup.Outcome)
	if !ok {
		// refused before any call: read-only, cancelled, already running
		if tag.op == "restore" && wz.confirm != nil {
			wz.submitted = false
			wz.confirm.Err = errText(msg.Err)
			wz.confirm.Reset()
			return nil
		}
		if msg.Err != nil {
			problem, fix := "refused: "+errText(msg.Err), ""
			if errors.Is(msg.Err, kit.ErrReadOnly) {
				// as the message line says it, and the way out of its cause
				problem = kit.ReadOnlyText(wz.common, msg.Name)
				fix = "nothing was changed; " + kit.ReadOnlyFix(wz.common) + " to go on"
			}
			w.Results[tag.step] = replsetup.Outcome{Step: tag.step, Verdict: replsetup.Fail, Err: msg.Err, Problem: problem, Fix: fix}
		}
		return nil
	}
	if tag.op == "restore" && wz.confirm != nil {
		if o.Verdict == replsetup.Fail {
			wz.submitted = false
			wz.confirm.Err, wz.confirm.Local = o.Problem, o.NotSent
			if o.NotSent && o.Fix != "" {
				wz.confirm.Err += "; " + o.Fix // refused here: what frees it
			}
			wz.confirm.Reset()
			return nil
		}
		wz.confirm, wz.submitted = nil, false
	}
	changed := w.Apply(o, wz.common.Time())
	if tag.op == "start" && o.Status != nil {
		// replication is configured and started: the pair is watched from
		// now on, whatever the outcome
		wz.host.watch(replsetup.PairOf(w.Progress, wz.common.Time()))
	}
	cmds := []tea.Cmd{wz.host.save()}
	if changed {
		cmds = append(cmds, wz.enterStep())
	}
	return tea.Batch(cmds...)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
