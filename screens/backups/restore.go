package backups

import (
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/forms/restoreform"
	"github.com/skytui/skytui/kit"
)

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
		return s.readOnlyRefusal("starting a restore is")
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
		return kit.Toast(kit.ToastWarn, "backup "+short+" is "+orDash(it.Word)+"; only a completed backup can be restored")
	case it.IsExternalStorage:
		return kit.Toast(kit.ToastWarn, "backup "+short+" is in your own bucket ("+orDash(it.Bucket)+"): restore it from the Restores screen (3, n, 2: your own bucket)")
	}
	s.restore = restoreform.New(s.common, restoreform.Options{
		Origin:          ID,
		Source:          restoreform.SourceManaged,
		SourceServiceID: itemService(&it),
		BackupKey:       it.Key,
		Services:        s.services,
		ResourcePrefix:  restoreWizardPrefix,
	})
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
	return kit.Toast(kit.ToastInfo, "restore not started")
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
