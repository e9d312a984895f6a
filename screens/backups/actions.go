package backups

import (
	"slices"
	"strconv"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/forms/backupform"
	"github.com/skytui/skytui/forms/restoreform"
	"github.com/skytui/skytui/kit"
)

// The new backup: the form's submit goes to the action layer; its answer
// shows the backup (a one-off) or the schedule (a cron) at once.

// submitTag marks the answer of a backup this screen submitted.
type submitTag struct {
	form  *backupform.Form
	req   api.ScheduleRequest
	svcID string
	at    time.Time
	// seen is the backup of a one-off whose answer was lost, once the
	// backups read again show it started
	seen *seenBackup
}

func (s *Screen) onSubmit(msg backupform.SubmitMsg) tea.Cmd {
	if s.form == nil || msg.Form != s.form {
		return nil
	}
	a := msg.Action
	a.Origin = ID
	tag := submitTag{form: msg.Form, req: msg.Request, svcID: msg.Request.ServiceID, at: s.common.Time(), seen: &seenBackup{}}
	a.Tag = tag
	if tag.req.Schedule == "once" {
		// a lost answer: the backups read again may show it started, and
		// it is then followed as if the answer had come (Found below)
		a.Effect = lostBackupEffect(tag.svcID, tag.req.BackupType, tag.at, s.knownBackups(tag.svcID), tag.seen)
		if s.all() {
			a.Refresh = append(slices.Clip(a.Refresh), kit.AllBackupsKey.String())
		}
	}
	s.submitting = a.Name
	s.drafts.Drop(msg.Form.Service().ID)
	s.mode = modeList
	return kit.Do(a)
}

func (s *Screen) onActionDone(msg kit.ActionDoneMsg) tea.Cmd {
	switch tag := msg.Tag.(type) {
	case schedTag:
		return s.onSchedDone(tag, msg)
	case restoreform.Tag:
		return s.onRestoreActionDone(tag, msg)
	}
	tag, ok := msg.Tag.(submitTag)
	if !ok {
		return nil
	}
	if msg.Found {
		// its answer was lost, and the backups read again show it
		// started: followed to its end as one whose answer came
		if tag.req.Schedule != "once" || tag.seen == nil || tag.seen.key == "" {
			return nil
		}
		return followBackup(s.common, tag.svcID, s.nameOf(tag.svcID, ""), tag.seen.key, tag.req.BackupType, tag.at)
	}
	s.submitting = ""
	if api.IsOutcomeUnknown(msg.Err) {
		// sent, never answered: the root's dialog shows what appeared and
		// offers the resend; the form is kept (n brings it back), not
		// reopened with an invitation to submit again
		s.drafts.Keep(tag.form.Draft())
		if s.mode == modeForm && s.form == tag.form {
			s.form, s.mode = nil, modeList
		}
		return nil
	}
	if msg.Err != nil {
		// back to the review, everything kept
		if s.shows(tag.svcID) {
			s.form = tag.form
			s.form.Failed(msg.Err)
			s.form.SetSize(s.Size())
			s.mode = modeForm
		} else {
			s.drafts.Keep(tag.form.Draft()) // another service is shown: n on it brings it back
		}
		return nil
	}
	sc, _ := msg.Result.(*api.Schedule)
	var follow tea.Cmd
	if tag.req.Schedule == "once" {
		// followed to its end on any screen, this one shown or not
		key, _ := jobKey(sc)
		follow = followBackup(s.common, tag.svcID, s.nameOf(tag.svcID, ""), key, tag.req.BackupType, tag.at)
	}
	if !s.shows(tag.svcID) {
		return follow
	}
	s.form = nil
	if tag.req.Schedule == "once" {
		return tea.Batch(s.showSubmitted(tag, sc), follow)
	}
	if sc != nil {
		if sc.ServiceID == "" {
			sc.ServiceID = tag.svcID
		}
		if sc.Type == "" {
			sc.Type = tag.req.BackupType
		}
		if sc.Expression() == "" || sc.Expression() == "cron" {
			sc.Cron = tag.req.Schedule
		}
		if tag.req.ExternalStorage != nil && sc.Target == "" {
			sc.Target = tag.req.ExternalStorage.Bucket.Path
		}
	}
	s.sched.show(tag.svcID)
	s.retitle()
	s.mode = modeSchedules
	s.sched.created(sc)
	return nil
}

// showSubmitted shows a one-off backup just submitted, selected, until
// the listing has it (job is the job's ID when the server named no
// backup).
func (s *Screen) showSubmitted(tag submitTag, sc *api.Schedule) tea.Cmd {
	key, job := jobKey(sc)
	if _, listed := s.byKey[key]; !listed {
		o := &optimistic{at: tag.at, item: item{
			Backup: api.Backup{Key: key, ServiceID: tag.svcID, Type: tag.req.BackupType,
				Status: api.BackupInProgress, StartTime: api.Time{Time: tag.at}},
			State: api.BackupInProgress, Word: api.BackupInProgress, Source: srcSubmitted,
			Optimistic: true, JobID: job,
		}}
		if es := tag.req.ExternalStorage; es != nil {
			o.IsExternalStorage, o.Bucket = true, es.Bucket.Path
		}
		s.optimistic[key] = o
	}
	s.mode = modeList
	s.Table.SetFilter("")
	s.rebuild()
	s.Table.Select(key)
	s.RefreshDetail()
	if s.all() {
		// the action refreshes the service's own keys, not this one
		return kit.Refresh(kit.AllBackupsKey.String())
	}
	return nil
}

// jobKey is the key of the backup a one-off job (the answer sc) takes:
// the backup's when the server named it, else "job N"; and the job's ID.
func jobKey(sc *api.Schedule) (key string, job int64) {
	if sc != nil {
		key, job = sc.BackupID, int64(sc.ID)
	}
	if key == "" {
		key = "job " + strconv.FormatInt(job, 10)
	}
	return key, job
}

// "Restore this backup" (R on a backup's row): the restore wizard
// (forms/restoreform, the one the Restores screen opens) hosted here, its
// source filled in: managed storage, this backup. The wizard asks the
// target, shows the backup chosen, and asks the target's name typed before
// the one submit. The restore is then watched to its end like one started
// from the Restores screen (3), which lists it.

// restoreWizardPrefix keys the listings the wizard asks this screen to poll.
const restoreWizardPrefix = "backups-restore/"

// openRestore opens the wizard on the selected backup.
func (s *Screen) openRestore() tea.Cmd {
	if s.common.ReadOnly {
		return kit.RefuseReadOnly(s.common, "starting a restore")
	}
	it, ok := s.selected()
	if !ok {
		return kit.Toast(kit.ToastInfo, "no backup selected")
	}
	short := api.ShortKey(it.Key)
	switch {
	case it.Optimistic:
		return kit.Toast(kit.ToastWarn, "backup "+short+" is still being taken; only a completed backup can be restored")
	case it.State != api.BackupCompleted:
		return kit.Toast(kit.ToastWarn, "backup "+short+" is "+kit.OrDash(it.Word)+"; only a completed backup can be restored")
	case it.IsExternalStorage:
		return kit.Toast(kit.ToastWarn, "backup "+short+" is in your own bucket ("+kit.OrDash(it.Bucket)+"): restore it from the Restores screen (3, n, 2: your own bucket)")
	}
	if s.left != nil && s.left.OpenedOn().Key == it.Key {
		s.restore = s.left
		s.restore.SetServices(s.services)
	} else {
		s.restore = restoreform.New(s.common, restoreform.Options{
			Origin:          ID,
			Source:          restoreform.SourceManaged,
			SourceServiceID: itemService(&it),
			Backup:          &it.Backup,
			Services:        s.services,
			ResourcePrefix:  restoreWizardPrefix,
		})
	}
	s.left = nil
	s.restore.SetSize(s.Size())
	s.mode = modeRestore
	return s.restore.Init()
}

// onRestoreDone: the wizard closed (submitted, cancelled, or the
// migration asked for, which is the Restores screen's).
func (s *Screen) onRestoreDone(msg restoreform.DoneMsg) tea.Cmd {
	if msg.Wizard == nil || msg.Wizard != s.restore {
		return nil
	}
	s.restore, s.mode = nil, modeList
	switch {
	case msg.Submitted:
		return kit.Toast(kit.ToastInfo, "restore submitted; the Restores screen (3) lists it")
	case msg.Migrate != nil:
		return kit.Toast(kit.ToastInfo, "the migration across providers starts from the Restores screen: 3, then m")
	}
	s.left = msg.Wizard
	return kit.Toast(kit.ToastInfo, "restore not started; R on backup "+api.ShortKey(msg.Wizard.OpenedOn().Key)+" brings it back")
}

// onRestoreActionDone: an accepted restore is watched to its end (the
// root toasts the outcome, with the bell when the user is elsewhere); a
// refused one comes back to the wizard's confirmation with everything
// kept; an unknown outcome is the root's dialog's (never a "type the name
// to retry").
func (s *Screen) onRestoreActionDone(tag restoreform.Tag, msg kit.ActionDoneMsg) tea.Cmd {
	switch {
	case api.IsOutcomeUnknown(msg.Err):
		tag.Wizard.Unknown()
	case msg.Err != nil:
		if s.mode == modeList || s.mode == modeRestore && s.restore == tag.Wizard {
			s.restore = tag.Wizard
			s.restore.SetServices(s.services)
			s.restore.SetSize(s.Size())
			s.restore.Failed(msg.Err)
			s.mode = modeRestore
		}
	default:
		return restoreform.Watch(s.common, ID, restoreform.Record(msg.Result, tag), tag)
	}
	return nil
}
