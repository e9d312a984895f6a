package restores

import (
	"context"
	"fmt"
	"strconv"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/forms/restoreform"
	"github.com/skytui/skytui/kit"
)

// What the list starts and follows: the new-restore wizard, the
// migration, the delete of a restore, and the answers of their actions.

// openWizard opens the new-restore wizard, or brings back the one left
// with esc. The target defaults to the service filtered on.
func (s *Screen) openWizard() tea.Cmd {
	if s.common.ReadOnly {
		return kit.RefuseReadOnly(s.common, "starting a restore")
	}
	if s.draft != nil {
		s.wizard, s.draft = s.draft, nil
		s.wizard.SetServices(s.svcList)
	} else {
		s.wizard = restoreform.New(s.common, restoreform.Options{Origin: ID, TargetID: s.svcFilter, Services: s.svcList})
	}
	s.servicesFailed()
	s.mode = modeWizard
	s.wizard.SetSize(s.Size())
	return s.wizard.Init()
}

// openMigration starts the cross-provider migration flow.
func (s *Screen) openMigration(req *restoreform.MigrateRequest) tea.Cmd {
	if s.common.ReadOnly {
		return kit.RefuseReadOnly(s.common, "a migration (it takes a backup and restores it)")
	}
	if req == nil && s.migrate != nil {
		// back to the migration under way, or to the one left before its
		// backup with what was chosen and typed; left from its backup form,
		// the form is drawn again at once with its draft
		s.mode = modeMigrate
		s.migrate.SetSize(s.Size())
		if s.migrate.step == migBackup && s.migrate.form == nil {
			return s.migrate.openForm()
		}
		return nil
	}
	s.migrate = newMigration(s.common, s.svcList, req)
	s.servicesFailed()
	s.migrate.SetSize(s.Size())
	s.mode = modeMigrate
	return s.migrate.init()
}

func (s *Screen) onWizardDone(msg restoreform.DoneMsg) tea.Cmd {
	if msg.Wizard == nil || msg.Wizard != s.wizard {
		return nil
	}
	mine := s.migrate != nil && s.migrate.wizard == msg.Wizard
	switch {
	case msg.Submitted:
		if mine {
			// the migration ends with its restore; kept aside until the
			// API accepts it, so a refusal's esc goes back to it
			s.sent, s.migrate = s.migrate, nil
		}
		s.pending = msg.Pending
		s.pendingKnown = make(map[int64]bool, len(s.restores))
		for _, r := range s.restores {
			s.pendingKnown[int64(r.ID)] = true
		}
		s.wizard = nil
		if !mine {
			s.draft = nil // the user's own draft stays through the migration's restore
		}
		s.mode = modeList
		// the service's narrowing stays (only a, esc or another screen
		// ends it): a restore it does not show is said so, not shown by
		// widening the view under the jump's "esc back"
		s.Table.SetFilter("")
		s.rebuildRows()
		s.Table.Select(pendingRowID)
		s.RefreshDetail()
		if p := msg.Pending; p != nil && s.svcFilter != "" && len(s.restoresShown([]api.Restore{*p})) == 0 {
			return kit.Toast(kit.ToastInfo, "restore into "+s.serviceName(p.ServiceID)+" not shown (only "+
				s.serviceName(s.svcFilter)+"'s); "+s.keys.All.Help().Key+" shows all")
		}
		return nil
	case msg.Migrate != nil:
		s.draft = s.wizard
		s.wizard = nil
		return s.openMigration(msg.Migrate)
	case msg.Cancelled && mine:
		// the migration's restore: back to its copy step, the wizard kept
		// with it (enter reopens it as it was); n's draft is the user's own
		s.wizard = nil
		s.mode = modeMigrate
		s.migrate.SetSize(s.Size())
		return nil
	case msg.Cancelled:
		s.draft = s.wizard
		s.wizard = nil
		s.mode = modeList
		return kit.Toast(kit.ToastInfo, "restore not started; n brings back what you chose and typed")
	}
	return nil
}

func (s *Screen) onMigrationExit(msg migrationExitMsg) tea.Cmd {
	if msg.m != s.migrate {
		return nil
	}
	if msg.restore != nil {
		// the migration is kept until its restore is accepted: esc in the
		// wizard comes back to the copy step, and enter there reopens the
		// same wizard while the copy's destination is unchanged
		m := s.migrate
		if prefill := msg.restore.Bucket.Bucket + msg.restore.Bucket.File; m.wizard == nil || m.wizardFor != prefill {
			m.wizard, m.wizardFor = restoreform.New(s.common, *msg.restore), prefill
		} else {
			m.wizard.SetServices(s.svcList)
		}
		s.wizard = m.wizard
		s.servicesFailed()
		s.wizard.SetSize(s.Size())
		s.mode = modeWizard
		return s.wizard.Init()
	}
	s.mode = modeList
	if s.migrate.step < migWait {
		// kept: m brings it back as it was left
		return kit.Toast(kit.ToastInfo, "migration not started; m brings back what you chose and typed")
	}
	return nil
}

// deleteTag marks the delete action's answer.
type deleteTag struct{ id int64 }

// deleteRefusal is why d cannot delete the restore r, and the level it
// is told at; "" when it can (the footer then offers d).
func (s *Screen) deleteRefusal(r *api.Restore) (kit.ToastLevel, string) {
	switch {
	case r.ID == 0 && s.pending != nil && r.Status == s.pending.Status:
		return kit.ToastInfo, "the restore into " + s.targetName(r) + " is still being submitted; it can be deleted once the API has answered"
	case r.ID == 0:
		return kit.ToastWarn, "the API listed this restore into " + s.targetName(r) + " without a readable id: it cannot be deleted by id"
	}
	return kit.ToastWarn, r.DeleteRefusal()
}

func (s *Screen) deleteSelected() tea.Cmd {
	r, ok := s.selected()
	if !ok {
		return nil
	}
	target := s.targetName(&r)
	if s.common.ReadOnly { // at the key, as every change
		return kit.RefuseReadOnly(s.common, fmt.Sprintf("delete restore %d into %s", int64(r.ID), target))
	}
	if level, why := s.deleteRefusal(&r); why != "" {
		return kit.Toast(level, why)
	}
	id := int64(r.ID)
	client := s.common.Client
	detail, _ := s.deleteDetail(id, target)
	return kit.Do(kit.Action{
		Name:     fmt.Sprintf("delete restore %d into %s", id, target),
		Key:      "delete-restore:" + strconv.FormatInt(id, 10),
		Mutating: true,
		Origin:   ID,
		Tag:      deleteTag{id: id},
		// the target's name typed, as the restore itself and as the
		// CLI's `restores delete --confirm TARGET`: a restore stops the
		// target and erases its data, and what a cancel leaves it in is
		// not documented
		Confirm: kit.Confirm{
			Kind:   kit.ConfirmTypeName,
			Title:  fmt.Sprintf("Delete restore %d?", id),
			Name:   target,
			Detail: detail,
			// kept in step with the listing while it asks
			Live: func() (string, string) { return s.deleteDetail(id, target) },
		},
		Run: func(ctx context.Context) (any, error) {
			if client == nil {
				return nil, fmt.Errorf("no API client")
			}
			return nil, client.DeleteRestore(ctx, id)
		},
		Success: func(any) string { return fmt.Sprintf("restore %d into %s deleted", id, target) },
		Refresh: listKeys,
		Ends:    []string{restoreform.WatchKey(r)}, // its watch says nothing more
	})
}

// deleteDetail is what the delete's confirmation says of restore id
// while it is open, as the list shows it: its status and age, and once
// the listing shows it finished or no longer lists it, why nothing will
// be sent (the action layer would send a DELETE the API refuses).
func (s *Screen) deleteDetail(id int64, target string) (detail, refused string) {
	r, ok := s.listed(id)
	switch {
	case !ok:
		return fmt.Sprintf("Restore %d into %s is no longer listed (deleted elsewhere?): there is nothing left to delete.", id, target),
			fmt.Sprintf("restore %d is no longer listed", id)
	case r.Finished():
		return fmt.Sprintf("Restore %d into %s has finished (%s) since this was asked: there is nothing left to cancel.", id, target, r.Status),
			fmt.Sprintf("restore %d has already finished (%s)", id, r.Status)
	}
	// what it leaves first: a short terminal cuts the end
	return fmt.Sprintf("Restore %d into %s is %s. Deleting cancels it and may leave %s partly restored: check its data or restore it again. The API refuses once it can no longer be stopped.",
		id, target, s.statusText(&r, s.rowsAt), target), ""
}

// ---- actions ----

func (s *Screen) onActionDone(msg kit.ActionDoneMsg) tea.Cmd {
	switch tag := msg.Tag.(type) {
	case restoreform.Tag:
		s.pending = nil
		if s.sent != nil && s.sent.wizard == tag.Wizard {
			if msg.Err == nil || api.IsOutcomeUnknown(msg.Err) {
				s.sent = nil // the migration's restore was sent: it is over
			} else if s.migrate == nil {
				// refused: the migration is back, its wizard reopened below
				s.migrate, s.sent = s.sent, nil
			}
		}
		if api.IsOutcomeUnknown(msg.Err) {
			// sent, never answered: the root's dialog shows any restore that
			// appeared on the target and offers the resend; the wizard is
			// kept as a draft, never reopened with "type the name to retry"
			if s.wizard == tag.Wizard {
				s.wizard = nil
				s.mode = modeList
			}
			s.draft = tag.Wizard
			tag.Wizard.Unknown()
			s.rebuildRows()
			return nil
		}
		if msg.Err != nil {
			// back to the confirmation with everything kept, unless the
			// user already started another wizard
			if s.wizard == nil || s.mode != modeWizard {
				s.wizard = tag.Wizard
				s.wizard.SetServices(s.svcList)
				s.wizard.SetSize(s.Size())
				s.mode = modeWizard
			} else if s.migrate == nil || s.migrate.wizard != tag.Wizard {
				s.draft = tag.Wizard // else kept by its migration: m, enter
			}
			tag.Wizard.Failed(msg.Err)
			s.rebuildRows()
			return nil
		}
		rec := restoreform.Record(msg.Result, tag)
		if rec.ID > 0 {
			s.accepted[int64(rec.ID)] = rec
			if tag.PointInTime != "" {
				s.pointInTime[int64(rec.ID)] = pointInTime{at: tag.PointInTime, of: tag.SourceService, target: rec.ServiceID, key: rec.Key}
			}
			found := false
			for i := range s.restores {
				if s.restores[i].ID == rec.ID {
					found = true
				}
			}
			if !found {
				s.restores = append(s.restores, rec)
			}
		}
		s.rebuildRows()
		s.Table.Select(rowID(&rec))
		s.RefreshDetail()
		return restoreform.Watch(s.common, ID, rec, tag)
	case migDiscardTag:
		if msg.Err == nil && s.migrate == tag.m {
			// forgotten with its restore wizard; the user's own draft stays
			if s.mode == modeMigrate {
				s.mode = modeList
			}
			s.migrate = nil
		}
		return nil
	case deleteTag:
		if msg.Err == nil {
			delete(s.accepted, tag.id)
			kept := s.restores[:0]
			for _, r := range s.restores {
				if int64(r.ID) != tag.id {
					kept = append(kept, r)
				}
			}
			s.restores = kept
			s.rebuildRows()
		}
		return nil
	}
	if s.migrate != nil {
		return s.migrate.onActionDone(msg)
	}
	return nil
}
