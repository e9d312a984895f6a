package restores

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/forms/restoreform"
	"github.com/skytui/skytui/kit"
)

// submitInto is the screen narrowed to service narrow (as after Services'
// R) after its wizard submitted a restore into target, with the command
// the submit returned.
func submitInto(narrow string, target api.Service) (*Screen, tea.Cmd) {
	s := newScreen(160, 20)
	feed(s, listing())
	s.Open(narrow)
	s.wizard = restoreform.New(s.common, restoreform.Options{Origin: ID, TargetID: narrow})
	s.mode = modeWizard
	pending := &api.Restore{ServiceID: target.ID, ServiceName: target.Name, Status: "Submitting", Message: "being submitted",
		Key: hash + ":" + target.ID + ":pod", CreatedAt: api.Time{Time: now}}
	_, cmd := s.Update(restoreform.DoneMsg{Wizard: s.wizard, Submitted: true, Pending: pending})
	return s, cmd
}

// TestSubmitKeepsTheServiceNarrowing: a restore submitted from the view
// narrowed to one service (R on Services) leaves it narrowed, as only a,
// esc or another screen end it: the new restore shows in it when it is
// into that service; into another service, a toast says it is not shown
// here and how to see it, the view still narrowed.
func TestSubmitKeepsTheServiceNarrowing(t *testing.T) {
	s, cmd := submitInto(replica.ID, replica)
	if s.svcFilter != replica.ID || !strings.Contains(view(s), "service: replica-west (a shows all)") {
		t.Fatalf("the narrowing ended on the submit:\n%s", view(s))
	}
	if r := row(t, s, "-"); !strings.Contains(r, "replica-west") || !strings.Contains(r, "Submitting") || s.Table.SelectedID() != pendingRowID {
		t.Fatalf("the submitted restore is not shown selected: %q", r)
	}
	if cmd != nil {
		if m, ok := cmd().(kit.ToastMsg); ok {
			t.Fatalf("a toast for a restore shown: %q", m.Text)
		}
	}

	s, cmd = submitInto(replica.ID, gcpSvc)
	if s.svcFilter != replica.ID || !strings.Contains(view(s), "service: replica-west (a shows all)") || s.Table.Total() != 2 {
		t.Fatalf("the narrowing ended on a submit into another service (%d rows):\n%s", s.Table.Total(), view(s))
	}
	if cmd == nil {
		t.Fatal("nothing says the restore into analytics-gcp is not shown")
	}
	m, ok := cmd().(kit.ToastMsg)
	if !ok || m.Text != "restore into analytics-gcp not shown (only replica-west's); a shows all" {
		t.Fatalf("toast %#v", cmd())
	}
}

// TestKeptWizardFollowsTheListing: a wizard left at its confirmation
// (ctrl+x) takes the listings that come while it is kept: brought back
// with n, its target deleted since is said gone, not "ready"; and the
// backup step's ages move with the clock the screen is given.
func TestKeptWizardFollowsTheListing(t *testing.T) {
	s := newScreen(100, 30)
	feed(s, listing())
	s.wizard = restoreform.New(s.common, restoreform.Options{Origin: ID, Source: restoreform.SourceBackupID, TargetID: orders.ID,
		LockTarget: true, BackupID: hash + ":" + replica.ID + ":pod", Services: s.svcList})
	s.mode = modeWizard
	s.wizard.SetSize(s.Size())
	run(s, press(s, "enter")) // looked up: not listed here
	press(s, "enter")         // sent as typed
	if s.wizard.StepName() != "confirm" || !strings.Contains(view(s), "status: ready") {
		t.Fatalf("step %s:\n%s", s.wizard.StepName(), view(s))
	}
	s.Update(press(s, "ctrl+x")())
	if s.mode != modeList || s.draft == nil {
		t.Fatal("ctrl+x did not keep the wizard")
	}
	s.Update(kit.DataMsg{Key: kit.ServicesKey.String(), Data: []api.Service{replica, gcpSvc}})
	press(s, "n")
	if out := view(s); !strings.Contains(out, "status: gone") || strings.Contains(out, "status: ready") {
		t.Fatalf("the kept wizard's target, deleted since, is not said gone:\n%s", out)
	}

	// the backup step's ages follow the clock
	s = newScreen(100, 30)
	s.Open(gcpSvc.ID) // the target the wizard starts on
	press(s, "n")
	press(s, "1")
	press(s, "enter")
	res := s.wizard.Resources()
	if len(res) != 1 {
		t.Fatalf("step %s asks %d resources", s.wizard.StepName(), len(res))
	}
	s.Update(kit.DataMsg{Key: res[0].Key, Data: []api.Backup{{Key: hash + ":" + gcpSvc.ID + ":pod", ServiceID: gcpSvc.ID, Type: "full",
		Status: "Succeeded", StartTime: api.Time{Time: now.Add(-time.Hour)}}}})
	if !strings.Contains(view(s), " 1h") {
		t.Fatalf("no age:\n%s", view(s))
	}
	s.common.Now = func() time.Time { return now.Add(2 * time.Hour) }
	s.Update(kit.ClockMsg{Now: now.Add(2 * time.Hour)})
	if !strings.Contains(view(s), " 3h") {
		t.Fatalf("the age did not move with the clock:\n%s", view(s))
	}
}
