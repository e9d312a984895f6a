package replication

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/forms/restoreform"
	"github.com/skytui/skytui/kit"
)

// The wizard's keys: what each does at each step, and the help of the
// step.

type wizardKeys struct {
	Run, Recheck, Prev, Copy, RanIt, Method, Managed, Up, Down, Back key.Binding
}

func newWizardKeys() wizardKeys {
	return wizardKeys{
		Run:     kit.Bind("enter", "run step"),
		Recheck: kit.Bind("c", "check again"),
		Prev:    kit.BindHelp("bksp", "previous step", "backspace"),
		Copy:    kit.Bind("y", "copy grant"),
		RanIt:   kit.Bind("m", "I ran the grant"),
		Method:  kit.Bind("b", "GTID / binlog position"),
		Managed: kit.Bind("m", "managed replication instead"),
		Up:      kit.DefaultTableKeys.Up,
		Down:    kit.DefaultTableKeys.Down,
		Back:    kit.Bind("esc", "leave (progress kept)"),
	}
}

// withHelp is b described otherwise (the same keys).
func withHelp(b key.Binding, desc string) key.Binding {
	b.SetHelp(b.Help().Key, desc)
	return b
}

// onKey is a key in the wizard: the restore's confirm while it is open,
// the chooser at the pair step, else the step's keys.
func (wz *wizard) onKey(msg tea.KeyPressMsg) tea.Cmd {
	w := wz.w
	if w == nil {
		return wz.host.leave()
	}
	if wz.confirm != nil {
		if wz.submitted {
			return nil // answer pending: keys wait
		}
		ans, cmd := wz.confirm.Update(msg)
		switch ans {
		case restoreform.ConfirmBack:
			wz.confirm = nil
			return nil
		case restoreform.ConfirmYes:
			return wz.submitRestore()
		}
		return cmd
	}
	if wz.chooser != nil && w.Current() == replsetup.StepPair {
		return wz.onChooserKey(msg)
	}
	k := wz.keys
	wz.setNotice("", false)
	switch {
	case key.Matches(msg, k.Back):
		return wz.leave()
	case key.Matches(msg, k.Run):
		return wz.runStep()
	case key.Matches(msg, k.Recheck):
		return wz.recheck()
	case key.Matches(msg, k.Prev):
		if w.Current() > replsetup.StepPair && wz.busy == "" {
			w.GoTo(w.Current() - 1)
			if w.Current() == replsetup.StepPair {
				wz.openChooser()
			}
			return tea.Batch(wz.host.save(), wz.enterStep())
		}
	case key.Matches(msg, k.Copy):
		if w.Grant != "" && (w.Current() == replsetup.StepGrant || w.Current() == replsetup.StepChange || w.Current() == replsetup.StepStart) {
			return kit.Copy(wz.common, "the grant", w.Grant)
		}
	case key.Matches(msg, k.RanIt):
		if w.Current() != replsetup.StepGrant || w.Grant == "" {
			return nil
		}
		pri := api.OrID(w.Progress.PrimaryName, w.Progress.PrimaryID)
		return kit.Do(kit.Action{
			Name: "mark the grant as run on " + pri,
			Confirm: kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Did you run the grant?",
				Detail: "Say yes only once the grant ran on " + pri + " (the primary). Without it the secondary's IO thread stays Connecting with error 1045."},
			Origin: ID, Tag: grantRanTag{wizID: wz.id},
			Success: func(any) string { return "grant marked as run on " + pri },
		})
	case key.Matches(msg, k.Method):
		if w.Current() != replsetup.StepChange && w.Current() != replsetup.StepBackup {
			return nil
		}
		m, err := w.ToggleMethod(wz.common.Time())
		if err != nil {
			wz.setNotice(err.Error(), true)
			return nil
		}
		wz.setNotice("replication will start from the backup's "+map[string]string{replsetup.MethodGTID: "GTID position", replsetup.MethodBinlog: "binlog file and position"}[m], false)
		return wz.host.save()
	case key.Matches(msg, k.Up):
		if w.Current() == replsetup.StepBackup && wz.backupCur > 0 {
			wz.backupCur--
		}
	case key.Matches(msg, k.Down):
		if w.Current() == replsetup.StepBackup && wz.backupCur < len(w.Backups)-1 {
			wz.backupCur++
		}
	}
	return nil
}

// keyMap is the help of the current step.
func (wz *wizard) keyMap() kit.Keys {
	k := wz.keys
	w := wz.w
	one := func(b ...key.Binding) kit.Keys { return kit.Keys{Short: b, Full: [][]key.Binding{b}} }
	if wz.confirm != nil { // restoreform.Confirm's keys
		return one(kit.Bind("enter", "confirm"),
			kit.Bind("tab", "buttons"),
			kit.Bind("esc", "back"))
	}
	if w == nil {
		return one(k.Back)
	}
	switch w.Current() {
	case replsetup.StepPair:
		return wz.chooserKeyMap()
	case replsetup.StepAllowList:
		run := withHelp(k.Run, "check again")
		if o := w.Result(replsetup.StepAllowList); o.Verdict == replsetup.Fail && len(o.Missing) > 0 {
			run = withHelp(k.Run, "add to allow list")
		}
		return one(run, k.Recheck, k.Prev, k.Back)
	case replsetup.StepBackup:
		return one(withHelp(k.Run, "use this backup"), k.Up, k.Down, k.Method, k.Recheck, k.Prev, k.Back)
	case replsetup.StepRestore:
		run := withHelp(k.Run, "restore (type to confirm)")
		switch w.Verdict(replsetup.StepRestore) {
		case replsetup.Pass:
			run = withHelp(k.Run, "next step")
		case replsetup.Waiting:
			run = withHelp(k.Run, "(restore running)")
		}
		return one(run, k.Recheck, k.Prev, k.Back)
	case replsetup.StepChange:
		return one(withHelp(k.Run, "call change primary"), k.Method, k.Prev, k.Back)
	case replsetup.StepGrant:
		return one(withHelp(k.Run, "run grant on primary"), k.Copy, k.RanIt, k.Recheck, k.Prev, k.Back)
	case replsetup.StepStart:
		return one(withHelp(k.Run, "start replication"), k.Copy, k.Prev, k.Back)
	}
	return one(withHelp(k.Run, "status view"), k.Back)
}
