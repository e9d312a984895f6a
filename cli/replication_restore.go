package cli

import (
	"context"
	"fmt"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/kit"
)

// Step 3 of a sky setup, the restore, and what follows when a run stops
// after it started (its wait timed out, ctrl+c, a later step failed): the
// setup is saved for the profile as the unfinished setup, as the TUI
// saves its wizard's, and the same command run again goes on from there,
// following that restore rather than starting another that would erase
// the secondary again; the Replication screen's c continues it too.

// restore starts the restore into the secondary and follows it to its end
// as `restores create --wait` does, then waits for the secondary to be
// ready again. An accepted restore whose answer named none is looked for
// among the secondary's restores, then followed.
// blockedBy refuses a run while another pair's unfinished setup with its
// restore started is saved: one is kept a profile, and that one could not
// be taken up again if it were replaced, nor this one if it stopped while
// its restore runs (a run again would erase again). Checked before step 0,
// so nothing is changed (the allow list neither); nil: not blocked.
func (r *setupRun) blockedBy() error {
	if other := r.otherSetup(); other != nil && other.RestoreID > 0 {
		pri, sec := api.OrID(other.PrimaryName, other.PrimaryID), api.OrID(other.SecondaryName, other.SecondaryID)
		return r.say(replsetup.Outcome{Step: replsetup.StepPair, Verdict: replsetup.Fail,
			Problem: fmt.Sprintf("the unfinished setup of %s (restore %d started) is saved for this profile, and one is kept at a time: a stop during this restore could not be taken up again (nothing was sent)", other.PairText("->"), other.RestoreID),
			Fix: fmt.Sprintf("finish that setup first: `skytui replication setup %s --primary %s --yes --confirm %s` goes on with it; then run this again",
				kit.ShellQuote(sec), kit.ShellQuote(pri), kit.ShellQuote(sec))}, "pair")
	}
	return nil
}

func (r *setupRun) restore(ctx context.Context, w *replsetup.Wizard) error {
	if err := r.blockedBy(); err != nil { // saved meanwhile
		return err
	}
	o := r.steps.StartRestore(ctx, w.Progress)
	w.Apply(o, r.eng.Now())
	id := w.Progress.RestoreID
	switch {
	case o.Verdict == replsetup.Fail || api.IsOutcomeUnknown(o.Err):
		return r.say(o, "restore")
	case id <= 0:
		r.line(o.Verdict.String(), int(o.Step), "restore", r.text(o.Summary))
		var err error
		if id, err = newestRunningRestore(ctx, r.c.client, r.sec.ID, w.Progress.BackupKey, r.check(replsetup.StepRestore)); err != nil {
			return err
		}
		w.Progress.RestoreID = id
	default:
		r.line(o.Verdict.String(), int(o.Step), "restore", r.text(o.Summary))
	}
	// saved now: a run ended while it is followed (a timeout, ctrl+c, a
	// kill) is taken up again by the next, which follows this restore
	// rather than erasing the secondary again
	r.saveSetup(w.Progress)
	return r.followSetupRestore(ctx, w, id)
}

// followSetupRestore follows the setup's restore id to its end, then the
// secondary until it is ready again.
func (r *setupRun) followSetupRestore(ctx context.Context, w *replsetup.Wizard, id int64) error {
	sec := r.sec.NameOrID()
	final, err := r.e.followRestore(ctx, r.c.client, &r.f.cf, id, sec)
	switch {
	case final != nil && final.Failed():
		r.done = true // a new run starts afresh, with another restore
		return r.say(replsetup.Outcome{Step: replsetup.StepRestore, Verdict: replsetup.Fail, Restore: final, Err: err, Problem: err.Error(),
			Fix: fmt.Sprintf("read it with `skytui restores get %d`; run this again, with --backup for another backup", id)}, "restore")
	case err != nil:
		return err
	}
	o := replsetup.Outcome{Step: replsetup.StepRestore, Verdict: replsetup.Pass, Restore: final,
		Summary: fmt.Sprintf("restore %d succeeded. %s.", id, replsetup.CredentialsNote(w.Progress))}
	w.Apply(o, r.eng.Now())
	if err := r.say(o, "restore"); err != nil {
		return err
	}
	return r.secondaryReady(ctx)
}

// secondaryReady waits until the secondary is ready.
func (r *setupRun) secondaryReady(ctx context.Context) error {
	name := r.sec.NameOrID()
	wt := r.e.newWaiter(&r.f.cf, name, "skytui services get "+argOf(r.sec, r.svcs))
	wt.afterChange = true // the restore just ended: its start may not show yet
	_, err := wt.waitService(ctx, r.c.client, r.sec.ID, forReady)
	return err
}

// otherSetup is the profile's unfinished setup when it is another pair's
// (nil: none, or this run's pair).
func (r *setupRun) otherSetup() *replsetup.Progress {
	ps, err := replsetup.DefaultStore().Load(r.c.profile.Name)
	if err != nil || ps.Setup == nil || ps.Setup.PrimaryID == r.pri.ID && ps.Setup.SecondaryID == r.sec.ID {
		return nil
	}
	return ps.Setup
}

// savedSetup is the profile's unfinished setup when it is this run's pair
// with its restore started, and --backup names no other backup; nil
// otherwise (the run starts afresh).
func (r *setupRun) savedSetup() *replsetup.Progress {
	ps, err := replsetup.DefaultStore().Load(r.c.profile.Name)
	if err != nil || ps.Setup == nil {
		return nil
	}
	p := ps.Setup
	switch {
	case p.PrimaryID != r.pri.ID || p.SecondaryID != r.sec.ID || p.RestoreID <= 0:
		return nil
	case r.f.backup != "" && r.f.backup != p.BackupKey && r.f.backup != api.ShortKey(p.BackupKey):
		// another backup asked for: a new restore, said, once the
		// secondary is free of this one
		fmt.Fprintf(r.e.stderr, "skytui: the unfinished setup of this pair (restore %d of backup %s) is not taken up: --backup names another; without --backup (or with --backup %s) this run would go on from it\n",
			p.RestoreID, api.ShortKey(p.BackupKey), api.ShortKey(p.BackupKey))
		return nil
	}
	return p
}

// resume goes on with the saved setup p: its restore followed to its end
// if it had not passed, then steps 4 to 6. Step 0 is not run again: the
// secondary is being restored (not ready, which the step refuses), and
// what it guards against, a restore erasing a working replica, is done
// already.
func (r *setupRun) resume(ctx context.Context, p replsetup.Progress) (err error) {
	w := replsetup.Resume(p)
	r.w = w
	r.report.Method = w.Progress.Method
	// --binlog is the start this run asks for: step 4 has not run yet
	// with it (it runs again below), so the saved start follows the flag
	if r.f.binlog != (w.Progress.Method == replsetup.MethodBinlog) {
		if _, err := w.ToggleMethod(r.eng.Now()); err != nil {
			fmt.Fprintf(r.e.stderr, "skytui: replication starts from the %s: %v\n", w.PositionText(), err)
		}
	}
	r.report.Method = w.Progress.Method
	fmt.Fprintf(r.e.stderr, "skytui: going on with the setup of %s saved when it stopped: restore %d of backup %s (%s) is followed, not started again\n",
		w.Progress.PairText("->"), p.RestoreID, api.ShortKey(p.BackupKey), w.PositionText())
	defer r.keepSetup(&err)
	if !w.Progress.HasPassed(replsetup.StepRestore) {
		if err := r.followSetupRestore(ctx, w, p.RestoreID); err != nil {
			return err
		}
	} else if err := r.secondaryReady(ctx); err != nil {
		return err
	}
	return r.fromChange(ctx, w)
}

// keepSetup ends a run that reached the restore: a run that set the pair
// up (or whose restore failed: the next starts afresh) forgets the saved
// setup; one that stopped once its restore was started keeps it, as it
// stands now, and its error says how to go on. A restore that was not
// started leaves nothing to keep.
func (r *setupRun) keepSetup(errp *error) {
	switch {
	case r.done || *errp == nil:
		r.saveSetup(replsetup.Progress{}) // forgotten
		return
	case r.w.Progress.RestoreID <= 0:
		return
	}
	if !r.saveSetup(r.w.Progress) {
		return
	}
	*errp = &wrapped{err: *errp, note: fmt.Sprintf("replication is not set up yet; the setup is saved: run this command again to go on from restore %d (it is not started again)",
		r.w.Progress.RestoreID)}
}

// saveSetup saves p as the profile's unfinished setup (an empty p: none),
// unless another pair's with its restore started is saved there (the
// TUI's, left to finish; one that started none is replaced, said): it
// reports whether p was saved. A failure to save is said, not fatal.
func (r *setupRun) saveSetup(p replsetup.Progress) bool {
	st := replsetup.DefaultStore()
	ps, err := st.Load(r.c.profile.Name)
	if err == nil {
		mine := ps.Setup == nil || ps.Setup.PrimaryID == r.pri.ID && ps.Setup.SecondaryID == r.sec.ID
		if !mine && ps.Setup.RestoreID <= 0 && p.SecondaryID != "" {
			fmt.Fprintf(r.e.stderr, "skytui: the unfinished setup of %s (at step %d, nothing erased yet) is replaced by this one\n", ps.Setup.PairText("->"), int(ps.Setup.Step))
			mine = true
		}
		switch {
		case !mine:
			if p.SecondaryID != "" {
				fmt.Fprintf(r.e.stderr, "skytui: this setup was not saved: the unfinished setup of %s is saved for this profile (the Replication screen's c)\n", ps.Setup.PairText("->"))
			}
			return false
		case p.SecondaryID == "":
			if ps.Setup == nil {
				return false
			}
			ps.Setup = nil
		default:
			ps.Setup = &p
		}
		err = st.Save(r.c.profile.Name, ps, 0)
	}
	if err != nil {
		fmt.Fprintf(r.e.stderr, "skytui: the setup was not saved: %v\n", err)
		return false
	}
	return p.SecondaryID != ""
}

// wrapped is an error with a note after its text; its exit status is the
// error's.
type wrapped struct {
	err  error
	note string
}

func (w *wrapped) Error() string { return w.err.Error() + "; " + w.note }
func (w *wrapped) Unwrap() error { return w.err }
