package restores

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/forms/backupform"
	"github.com/skytui/skytui/forms/restoreform"
	"github.com/skytui/skytui/kit"
)

// The migration across cloud providers, as the interface document says to
// do it: back up the source service (provider A) to your own bucket (the
// Backups screen's form, backupform.Backup), wait for the backup, copy the
// backup folder to a bucket the target (provider B) can read (the command
// is shown with the real paths and copied with y), then restore the
// target from that bucket in the restore wizard with every field
// prefilled. Every change goes through kit.Do; the backup is followed by
// a root watch, so its end is told on any screen.

type migStep int

const (
	migSource migStep = iota
	migTarget
	migBackup
	migWait
	migCopy
)

// migBackupTag marks the migration's backup action.
type migBackupTag struct{ m *migration }

// migDiscardTag marks the yes to discarding the migration m.
type migDiscardTag struct{ m *migration }

// migrationExitMsg closes the flow: Restore opens the restore wizard with
// these options; nil returns to the list.
type migrationExitMsg struct {
	m       *migration
	restore *restoreform.Options
}

type migration struct {
	common *kit.Common
	step   migStep

	srcID, dstID string
	services     map[string]api.Service
	svcList      []api.Service
	table        *kit.Table
	stepErr      string
	fromRefusal  bool

	form        *backupform.Form
	draft       *backupform.Draft
	submitting  bool
	request     api.ScheduleRequest
	credential  string
	schedule    *api.Schedule
	submittedAt time.Time

	backup  *api.Backup
	listErr error

	dest    kit.Input
	editing bool
	// wizard is the restore opened from the copy step, kept when esc comes
	// back here; wizardFor is the bucket and file it was prefilled with
	wizard    *restoreform.Wizard
	wizardFor string
	// intro: the source and target steps show the flow's explanation over
	// the table (left out when the table would not keep its rows; layout)
	intro bool
	// top is the first line of the copy step's text shown (scrolled with
	// pgdown/pgup when the terminal is short)
	top int

	keys          migKeys
	width, height int
}

// migKeys are the migration's bindings, by step; "/" and the movement in
// the service lists are the table's, the backup form's are the form's.
type migKeys struct {
	// choosing the source and the target
	Choose, Back key.Binding
	// waiting for the backup
	Leave, Retry key.Binding
	// the copy step; Done and StopEditing while the destination is edited
	Copy, Restore, Edit, CopyBack key.Binding
	Done, StopEditing             key.Binding
	// More and Less scroll the copy step's text when it does not fit
	More, Less key.Binding
	// Discard forgets the migration (yes/no) once its backup is asked for
	Discard key.Binding
}

func newMigKeys() migKeys {
	return migKeys{
		Choose:      kit.Bind("enter", "choose"),
		Back:        kit.Bind("esc", "back"),
		Leave:       kit.Bind("esc", "back to the list (keeps waiting)"),
		Retry:       kit.Bind("b", "back up again"), // r is the root's refresh
		Copy:        kit.Bind("y", "copy command"),
		Restore:     kit.Bind("enter", "restore from the copy"),
		Edit:        kit.Bind("e", "edit destination"),
		CopyBack:    kit.Bind("esc", "back to list"),
		Done:        kit.Bind("enter", "done"),
		StopEditing: kit.Bind("esc", "stop editing"),
		More:        kit.BindHelp("pgdn", "scroll", "pgdown"),
		Less:        kit.Bind("pgup", "scroll back"),
		Discard:     kit.Bind("d", "discard migration"),
	}
}

func newMigration(c *kit.Common, svcs []api.Service, req *restoreform.MigrateRequest) *migration {
	m := &migration{common: c, services: map[string]api.Service{}, keys: newMigKeys()}
	m.table = kit.NewTable(c, migColumns())
	m.table.Empty = "loading services" + c.Theme.Glyphs.Ellipsis
	m.table.TypeFilters, m.table.Keys = true, kit.TypedTableKeys
	m.table.Choosable = m.usable // a name typed lands on a service this step takes
	m.dest = kit.NewInput("> ", "")
	m.setServices(svcs)
	if req != nil {
		m.srcID, m.dstID = req.Source.ID, req.Target.ID
		if _, ok := m.services[m.srcID]; !ok && req.Source.ID != "" {
			m.services[req.Source.ID] = req.Source
		}
		if _, ok := m.services[m.dstID]; !ok && req.Target.ID != "" {
			m.services[req.Target.ID] = req.Target
		}
		m.fromRefusal = true
		m.step = migBackup
	}
	return m
}

// migColumns are the services' columns with why a service cannot be
// chosen, the ID going first when the width is short: the choice is by
// provider (the target must be on another one), so PROVIDER stays and is
// cut after STATUS.
func migColumns() []kit.Column {
	cols := kit.NotedServiceColumns()
	for i := range cols {
		switch cols[i].Title {
		case "ID":
			cols[i].Priority = 5
		case "STATUS":
			cols[i].Priority = 6
		}
	}
	return cols
}

func (m *migration) init() tea.Cmd {
	if m.step == migBackup {
		return m.openForm()
	}
	return nil
}

func (m *migration) svc(id string) api.Service {
	if v, ok := m.services[id]; ok {
		return v
	}
	return api.Service{ID: id}
}

func (m *migration) src() api.Service { return m.svc(m.srcID) }
func (m *migration) dst() api.Service { return m.svc(m.dstID) }

// SetSize implements kit.Pane.
func (m *migration) SetSize(w, h int) {
	m.width, m.height = w, h
	// the label before it is 16 cells, the prompt 2 and the cursor 1
	m.dest.SetWidth(max(10, w-19))
	if m.form != nil {
		m.form.SetSize(w, max(5, h-2))
	}
	m.layout()
}

// servicesFailed says why there is no service to choose while none were
// read.
func (m *migration) servicesFailed(err error) {
	if m.svcList == nil && err != nil {
		m.table.Empty = kit.ServicesUnread(err)
	}
}

func (m *migration) setServices(svcs []api.Service) {
	if svcs == nil {
		return
	}
	first := m.svcList == nil
	m.svcList = svcs
	for _, v := range svcs {
		m.services[v.ID] = v
	}
	m.table.Empty = "no services"
	m.rebuild()
	if first {
		m.table.StartOn(m.usable)
	}
	m.layout()
}

// usable reports that the service id can be chosen at this step.
func (m *migration) usable(id string) bool {
	v := m.svc(id)
	short, _ := m.refusal(&v)
	return short == ""
}

// rebuild gives the table the services, each marked with why this step
// would refuse it.
func (m *migration) rebuild() {
	m.table.SetRows(kit.ServiceRows(m.svcList, func(v *api.Service) string {
		short, _ := m.refusal(v)
		return short
	}))
}

// refusal is why v cannot be chosen at this step: in a few words (the
// table's CANNOT BE column) and whole (said on enter); "" when it can.
func (m *migration) refusal(v *api.Service) (short, long string) {
	if m.step == migSource {
		if !v.Ready() {
			return "source: not ready", fmt.Sprintf("%s is %s: a backup needs a ready service", (*v).NameOrID(), v.Status)
		}
		return "", ""
	}
	src := m.src()
	switch {
	case v.ID == m.srcID:
		return "target: the source", "the target must be another service than the source"
	case strings.EqualFold(v.Provider, src.Provider) && v.Provider != "":
		return "target: same provider", fmt.Sprintf("%s runs on %s like %s: no migration needed, restore a backup directly (n, managed storage)", (*v).NameOrID(), v.Provider, src.NameOrID())
	case api.RestoreTargetProblem(*v) != "":
		return "target: " + v.Status, api.RestoreTargetProblem(*v)
	}
	return "", ""
}

// ---- the backup of the source ----

func (m *migration) openForm() tea.Cmd {
	m.step = migBackup
	opts := backupform.Options{Type: m.common.Client.LogicalBackupType(), Bucket: schemeFor(m.src().Provider, "") + "://", Draft: m.draft,
		Once: true, BucketOnly: m.bucketOnly()}
	m.form = backupform.New(m.common, m.src(), opts)
	m.form.SetSize(m.width, max(5, m.height-2))
	return m.form.Init()
}

// bucketOnly is why the migration's backup goes to the user's own bucket:
// the backup form refuses managed storage with it.
func (m *migration) bucketOnly() string {
	src, dst := m.src(), m.dst()
	return fmt.Sprintf("must be your own bucket: a backup in managed storage restores only within %s, and %s runs on %s",
		kit.Or(src.Provider, "its provider"), dst.NameOrID(), kit.Or(dst.Provider, "another provider"))
}

// migratePrefix starts the keys of the migration's own resources.
const migratePrefix = "migrate/"

// backupsKey is the source's backups, polled fast while the migration
// waits for its backup.
func (m *migration) backupsKey() kit.Key[[]api.Backup] {
	return kit.Key[[]api.Backup](migratePrefix + "backups/" + m.srcID)
}

func (m *migration) resources() []kit.Resource {
	if m.step != migWait || m.srcID == "" {
		return nil
	}
	client, id := m.common.Client, m.srcID
	return []kit.Resource{m.backupsKey().Resource(func(ctx context.Context) ([]api.Backup, error) {
		if client == nil {
			return nil, fmt.Errorf("no API client")
		}
		return client.ListBackups(ctx, id)
	}, func([]api.Backup) bool { return true }).Titled("the migration's backups of " + id)} // waiting: poll fast
}

func (m *migration) path() string {
	if m.request.ExternalStorage != nil {
		return m.request.ExternalStorage.Bucket.Path
	}
	return ""
}

// find is the migration's backup in a listing: the one the job reported,
// else the newest written to the same path since the submit.
func (m *migration) find(list []api.Backup) *api.Backup {
	if m.schedule != nil && m.schedule.BackupID != "" {
		for i := range list {
			if list[i].Key == m.schedule.BackupID {
				return &list[i]
			}
		}
		return nil
	}
	var best *api.Backup
	path := strings.TrimSuffix(m.path(), "/")
	for i := range list {
		b := &list[i]
		if strings.TrimSuffix(b.Bucket, "/") != path || b.StartTime.Before(m.submittedAt.Add(-time.Minute)) {
			continue
		}
		if best == nil || b.StartTime.After(best.StartTime.Time) {
			best = b
		}
	}
	return best
}

func (m *migration) onData(msg kit.DataMsg) bool {
	list, err, ok := m.backupsKey().Of(msg)
	if !ok || m.step != migWait {
		return strings.HasPrefix(msg.Key, migratePrefix)
	}
	if err != nil {
		m.listErr = err
		return true
	}
	m.listErr = nil
	m.onBackup(m.find(list))
	return true
}

func (m *migration) onBackup(b *api.Backup) {
	if b == nil {
		return
	}
	bb := *b
	m.backup = &bb
	switch api.BackupState(b.Status) {
	case api.BackupCompleted:
		m.toCopy()
	case api.BackupFailed:
		m.stepErr = "the backup failed: " + kit.Or(b.Status, "failed") + ". " + m.keys.Retry.Help().Key + " takes it again (the form keeps what you chose)"
	}
}

func (m *migration) onWatchDone(msg kit.WatchDoneMsg) {
	if b, ok := msg.Data.(*api.Backup); ok && m.step == migWait && b != nil && m.schedule != nil && b.Key == m.schedule.BackupID {
		m.onBackup(b)
	}
}

// ---- updates ----

func (m *migration) exit(restore *restoreform.Options) tea.Cmd {
	return func() tea.Msg { return migrationExitMsg{m: m, restore: restore} }
}

// Update takes a key, a paste or a component message of the current step.
func (m *migration) Update(msg tea.Msg) tea.Cmd {
	cmd := m.update(msg)
	m.layout() // the step, its refusal or the list changed
	return cmd
}

func (m *migration) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case backupform.SubmitMsg:
		if msg.Form != m.form {
			return nil
		}
		a := msg.Action
		a.Origin, a.Tag = ID, migBackupTag{m: m}
		m.request, m.credential = msg.Request, msg.Credential
		d := m.form.Draft()
		m.draft = &d
		m.submitting = true
		m.submittedAt = m.common.Time()
		m.schedule, m.backup, m.stepErr = nil, nil, ""
		m.step = migWait
		return kit.Do(a)
	case backupform.CancelMsg:
		if msg.Form != m.form {
			return nil
		}
		d := msg.Draft
		m.draft = &d
		m.form = nil
		if m.fromRefusal {
			return m.exit(nil)
		}
		m.step = migTarget
		m.table.Select(m.dstID)
		return nil
	case tea.KeyPressMsg:
		return m.onKey(msg)
	case tea.PasteMsg:
		if m.step == migSource || m.step == migTarget {
			// a name pasted into the list: its filter takes it
			_, cmd := m.table.Update(msg)
			return cmd
		}
		if m.step == migCopy && m.editing {
			var cmd tea.Cmd
			m.dest, cmd = m.dest.Update(msg)
			return cmd
		}
		if m.step == migBackup && m.form != nil {
			return m.form.Update(msg)
		}
		return nil
	}
	if m.form != nil && m.step == migBackup {
		return m.form.Update(msg)
	}
	return nil
}

func (m *migration) onKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	switch m.step {
	case migSource, migTarget:
		if used, cmd := m.table.FilterFirst(msg, k.Back); used {
			return cmd
		}
		switch {
		case key.Matches(msg, k.Back):
			if m.step == migTarget {
				m.step = migSource
				m.stepErr = ""
				m.table.SetFilter("")
				m.rebuild()
				m.table.Select(m.srcID)
				m.table.StartOn(m.usable)
				return nil
			}
			return m.exit(nil)
		case key.Matches(msg, k.Choose):
			return m.pick()
		}
		m.stepErr = ""
		_, cmd := m.table.Update(msg)
		return cmd
	case migBackup:
		if m.form == nil {
			return m.openForm()
		}
		return m.form.Update(msg)
	case migWait:
		switch {
		case key.Matches(msg, k.Leave):
			return m.exit(nil)
		case key.Matches(msg, k.Discard) && !m.submitting:
			return m.discard()
		case key.Matches(msg, k.Retry):
			if m.stepErr != "" && !m.submitting {
				return m.openForm()
			}
		}
		return nil
	case migCopy:
		if d := kit.ScrollDir(msg, k.More, k.Less); d != 0 {
			m.scroll(d)
			return nil
		}
		if m.editing {
			switch {
			case key.Matches(msg, k.StopEditing):
				m.editing = false
				m.dest.Blur()
				return nil
			case key.Matches(msg, k.Done):
				if _, err := m.destPath(); err != nil {
					m.stepErr = err.Error()
					return nil
				}
				m.stepErr = ""
				m.editing = false
				m.dest.Blur()
				return nil
			}
			var cmd tea.Cmd
			m.dest, cmd = m.dest.Update(msg)
			m.stepErr = ""
			m.top = 0 // the destination typed stays in sight
			return cmd
		}
		switch {
		case key.Matches(msg, k.CopyBack):
			return m.exit(nil)
		case key.Matches(msg, k.Discard):
			return m.discard()
		case key.Matches(msg, k.Edit):
			if err := m.sourceErr(); err != nil {
				m.stepErr = err.Error()
				return nil
			}
			m.editing = true
			m.top = 0
			m.dest.CursorEnd()
			return m.dest.Focus()
		case key.Matches(msg, k.Copy):
			// out of the footer while there is no command: pressed anyway,
			// it says why
			if why := m.noCommand(); why != "" {
				return kit.Toast(kit.ToastInfo, why)
			}
			dst, _ := m.destPath()
			cmd, _ := CopyCommand(m.sourcePath(), dst)
			return kit.Copy(m.common, "copy command", cmd)
		case key.Matches(msg, k.Restore):
			o, err := m.restoreOptions()
			if err != nil {
				m.stepErr = err.Error()
				return nil
			}
			return m.exit(o)
		}
	}
	return nil
}

// discard asks yes/no, then the screen forgets the migration (its
// restore wizard too): what it says is kept is the backup, in the bucket,
// and nothing is sent. A backup still running goes on; skytui stops
// following it.
func (m *migration) discard() tea.Cmd {
	what := fmt.Sprintf("migration of %s (%s) to %s (%s)", m.src().NameOrID(), m.src().Provider, m.dst().NameOrID(), m.dst().Provider)
	// kept: what the dialog says stays; short: the toast's
	kept, short := "nothing changes on the services", "nothing changed"
	switch path := m.sourcePath(); {
	case path == "":
	case m.step == migWait && m.backup != nil && api.BackupState(m.backup.Status) == api.BackupFailed:
		kept = "its failed backup stays listed; nothing else changes"
	case m.step == migWait:
		kept = "its backup goes on, to " + path + ", no longer followed; nothing else changes"
		short = "its backup goes on, to " + path
	default:
		kept = "its backup stays in " + path + " (delete it there when you no longer need it); nothing else changes"
		short = "its backup stays in " + path
	}
	var ends []string
	if m.schedule != nil && m.schedule.BackupID != "" {
		ends = []string{migWatchKey(m.schedule.BackupID)}
	}
	return kit.Do(kit.Action{
		Name:   "discard the " + what,
		Key:    "discard-migration",
		Origin: ID,
		Tag:    migDiscardTag{m: m},
		Ends:   ends,
		Confirm: kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Discard the migration?",
			Detail: "The " + what + " is forgotten: " + kept + ". m then starts a new one."},
		Success: func(any) string { return "migration discarded: " + short },
	})
}

// migWatchKey is the root watch of the migration's backup key.
func migWatchKey(backupKey string) string { return "migration-backup/" + backupKey }

func (m *migration) pick() tea.Cmd {
	id := m.table.SelectedID()
	if id == "" {
		return nil
	}
	v := m.svc(id)
	if _, why := m.refusal(&v); why != "" {
		m.stepErr = why
		return nil
	}
	m.stepErr = ""
	if m.step == migSource {
		m.srcID = id
		m.step = migTarget
		m.table.SetFilter("")
		m.rebuild()
		m.selectTarget()
		return nil
	}
	m.dstID = id
	return m.openForm()
}

// selectTarget puts the cursor on the target chosen before, else on the
// first service that can be one.
func (m *migration) selectTarget() {
	if m.dstID != "" && m.usable(m.dstID) && m.table.Select(m.dstID) {
		return
	}
	m.table.StartOn(m.usable)
}

func (m *migration) onActionDone(msg kit.ActionDoneMsg) tea.Cmd {
	tag, ok := msg.Tag.(migBackupTag)
	if !ok || tag.m != m {
		return nil
	}
	m.submitting = false
	if api.IsOutcomeUnknown(msg.Err) {
		// sent, never answered: the root's dialog says what appeared; the
		// backups listing the next step waits on is read again
		return kit.Refresh(m.backupsKey().String())
	}
	if msg.Err != nil {
		m.step = migBackup
		if m.form != nil {
			m.form.Failed(msg.Err)
		}
		return nil
	}
	sc, _ := msg.Result.(*api.Schedule)
	m.schedule = sc
	if sc == nil || sc.BackupID == "" {
		return kit.Refresh(m.backupsKey().String())
	}
	// follow the backup on any screen: its end is the next step
	client, srcID, key := m.common.Client, m.srcID, sc.BackupID
	name := "backup of " + m.src().NameOrID() + " for the migration to " + m.dst().NameOrID()
	return kit.StartWatch(kit.Watch{
		Key:    migWatchKey(key),
		Name:   name,
		Origin: ID,
		Fetch: func(ctx context.Context) (any, error) {
			list, err := client.ListBackups(ctx, srcID)
			if err != nil {
				return nil, err
			}
			for i := range list {
				if list[i].Key == key {
					return &list[i], nil
				}
			}
			return nil, nil
		},
		Outcome: func(data any) (bool, kit.ToastLevel, string) {
			b, _ := data.(*api.Backup)
			if b == nil {
				return false, 0, ""
			}
			switch api.BackupState(b.Status) {
			case api.BackupCompleted:
				return true, kit.ToastSuccess, name + " completed: next, copy it (Restores screen, m)"
			case api.BackupFailed:
				return true, kit.ToastError, name + " failed: " + kit.Or(b.Status, "failed")
			}
			return false, 0, ""
		},
	})
}
