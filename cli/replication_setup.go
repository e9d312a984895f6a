package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/kit"
)

// replication setup, start and stop: the wizard's steps without the
// wizard (api/replsetup, the engine the TUI runs), one line per step on
// standard error, stopping at the first step that fails with its fix
// (exit 1); --managed uses the service's own replication instead. A
// read-only profile refuses each before anything is sent.

func newReplicationChangeCmds(e *env) []*cobra.Command {
	return []*cobra.Command{newReplicationSetupCmd(e), newReplicationStartCmd(e), newReplicationStopCmd(e)}
}

// setupFlags are the flags of replication setup.
type setupFlags struct {
	cf        changeFlags
	primary   string
	managed   bool
	mode      string
	backup    string
	binlog    bool
	allowList bool
}

// setupStep is one step as -o json prints it.
type setupStep struct {
	Step    int    `json:"step"`
	Name    string `json:"name"`
	Verdict string `json:"verdict"`
	Summary string `json:"summary,omitempty"`
	Problem string `json:"problem,omitempty"`
	Fix     string `json:"fix,omitempty"`
}

// setupReport is what setup prints on standard output when it is done.
type setupReport struct {
	Primary         string      `json:"primary"`
	PrimaryID       string      `json:"primary_id"`
	Secondary       string      `json:"secondary"`
	SecondaryID     string      `json:"secondary_id"`
	Method          string      `json:"method"`
	ReplicationType string      `json:"replication_type,omitempty"`
	Steps           []setupStep `json:"steps"`
	Status          *pairReport `json:"status,omitempty"`
}

func newReplicationSetupCmd(e *env) *cobra.Command {
	var f setupFlags
	cmd := &cobra.Command{
		Use:   "setup SECONDARY --primary PRIMARY --yes --confirm SECONDARY | --managed --mode MODE --yes",
		Short: "Make a secondary replicate from a primary: the wizard's steps, or --managed (needs --yes)",
		Long: `Set up replication of SECONDARY from --primary, as the TUI's wizard does,
without asking: each step is printed on standard error with PASS or FAIL,
and the first step that fails stops the command with its fix (exit 1).

Without --managed, the ` + replsetup.SkyPathText + `
The restore erases SECONDARY: --yes and --confirm with its exact name are
required. --allow-list adds a missing outbound IP to the primary's allow
list (otherwise that step fails and names the command that adds it);
--backup KEY takes that backup instead of the newest usable one; --binlog
starts from its binlog file and position instead of its GTID. The grant is
run on the primary with the primary's credentials and never printed.

With --managed, ` + replsetup.ManagedText + `
--mode is uni-directional or bi-directional; --yes is required.

The pair is saved for this profile (replication status lists it, so does
the TUI). On success the pair's status is printed (-o json: the steps and
the status).

  skytui replication setup replica-west --primary orders-prod --allow-list --yes --confirm replica-west
  skytui replication setup replica-west --primary orders-prod --managed --mode uni-directional --yes` + scriptHelpTail,
		Args:              usageArgs(cobra.ExactArgs(1)),
		ValidArgsFunction: e.completeServiceArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.runReplicationSetup(cmd, args[0], &f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.primary, "primary", "", "the service to replicate from (name or ID; required)")
	fl.BoolVar(&f.managed, "managed", false, "use the service's own (managed) replication instead of the sky procedures")
	fl.StringVar(&f.mode, "mode", "", "with --managed: uni-directional or bi-directional (required)")
	fl.StringVar(&f.backup, "backup", "", "the backup of the primary to start from (its key; default: the newest usable)")
	fl.BoolVar(&f.binlog, "binlog", false, "start from the backup's binlog file and position instead of its GTID")
	fl.BoolVar(&f.allowList, "allow-list", false, "add the secondary's outbound IPs to the primary's allow list when they are missing")
	f.cf.register(cmd, true, true, false)
	f.cf.registerTimeout(cmd)
	_ = cmd.RegisterFlagCompletionFunc("primary", e.completeServiceFlag)
	return cmd
}

// check refuses, before anything is read or sent, flags that do
// not go together.
func (f *setupFlags) check(cmd *cobra.Command, secondary string) error {
	if err := checkServiceArg("secondary", secondary); err != nil {
		return err
	}
	if strings.TrimSpace(f.primary) == "" {
		return usageErrf("replication setup needs --primary PRIMARY (the service to replicate from)")
	}
	if err := checkServiceArg("--primary", f.primary); err != nil {
		return err
	}
	if f.primary == secondary {
		return usageErrf("--primary %s: a service cannot replicate from itself", f.primary)
	}
	if f.managed {
		for _, name := range []string{"backup", "binlog", "allow-list", "confirm"} {
			if cmd.Flags().Changed(name) {
				return usageErrf("--%s is for the sky procedures' setup; managed replication has no %s (drop --%s or --managed)", name, strings.ReplaceAll(name, "-", " "), name)
			}
		}
		if err := api.ValidateReplicationType(f.mode); err != nil {
			return requestErr(err, map[string]string{"replication_type": "--mode"})
		}
		return nil
	}
	if cmd.Flags().Changed("mode") {
		return usageErrf("--mode is for --managed replication (uni-directional or bi-directional)")
	}
	return nil
}

func (e *env) runReplicationSetup(cmd *cobra.Command, secondary string, f *setupFlags) error {
	if err := f.check(cmd, secondary); err != nil {
		return err
	}
	what := "replication setup"
	c, err := e.openChange(cmd, &f.cf, what)
	if err != nil {
		return err
	}
	if err := needYes(&f.cf, what); err != nil {
		return err
	}
	if !f.managed {
		if err := needConfirm(&f.cf, what, nil); err != nil {
			return err
		}
	}
	ctx := cmd.Context()
	svcs, err := c.client.ListServices(ctx)
	if err != nil {
		return err
	}
	pri, err := resolveService(svcs, f.primary)
	if err != nil {
		return err
	}
	sec, err := resolveService(svcs, secondary)
	if err != nil {
		return err
	}
	if !f.managed {
		if err := needConfirm(&f.cf, what, sec); err != nil {
			return err
		}
	}
	r := &setupRun{e: e, c: c, f: f, eng: newEngine(c.client),
		report: setupReport{Primary: pri.NameOrID(), PrimaryID: pri.ID, Secondary: sec.NameOrID(), SecondaryID: sec.ID}}
	r.steps = r.eng
	if e.setupSteps != nil {
		r.steps = e.setupSteps(r.eng)
	}
	if f.managed {
		return r.managed(ctx, pri, sec)
	}
	return r.sky(ctx, pri, sec)
}

// newEngine is the replication engine on a command's client: the API,
// and SQL on the services' readwrite ports (10 s to dial, 10 s a
// statement).
func newEngine(c *api.Client) *replsetup.Engine {
	return &replsetup.Engine{Client: c, Now: c.Now, SQLTimeout: 10 * time.Second}
}

// setupSteps are the calls of replication setup, one a step: the engine's
// (api/replsetup), which a test may stand in front of (env.setupSteps).
type setupSteps interface {
	CheckPair(ctx context.Context, primaryID, secondaryID string) replsetup.Outcome
	CheckAllowList(ctx context.Context, p replsetup.Progress) replsetup.Outcome
	AddAllowList(ctx context.Context, p replsetup.Progress, ips []string) replsetup.Outcome
	ListBackups(ctx context.Context, p replsetup.Progress) replsetup.Outcome
	StartRestore(ctx context.Context, p replsetup.Progress) replsetup.Outcome
	CheckRestore(ctx context.Context, p replsetup.Progress) replsetup.Outcome
	ChangePrimary(ctx context.Context, p replsetup.Progress) replsetup.Outcome
	RunGrant(ctx context.Context, p replsetup.Progress, grant string) replsetup.Outcome
	StartReplication(ctx context.Context, p replsetup.Progress) replsetup.Outcome
	CheckManagedPair(ctx context.Context, primaryID, replicaID string) replsetup.Outcome
	StartManaged(ctx context.Context, primaryID, replicaID, typ string) replsetup.Outcome
}

// setupRun is one run of replication setup.
type setupRun struct {
	e      *env
	c      *changeSession
	f      *setupFlags
	eng    *replsetup.Engine
	steps  setupSteps
	report setupReport
}

// say prints a step's outcome on standard error and records it; a failed
// step is the error that ends the command.
func (r *setupRun) say(o replsetup.Outcome, title string) error {
	n := int(o.Step)
	if r.f.managed {
		n = len(r.report.Steps) // managed: step 0 the pair, step 1 the call
	}
	st := setupStep{Step: n, Name: title, Verdict: o.Verdict.String(), Summary: o.Summary, Problem: o.Problem, Fix: o.Fix}
	if st.Verdict == "" {
		st.Verdict = "PASS"
	}
	r.report.Steps = append(r.report.Steps, st)
	text := api.OrID(o.Summary, o.Problem)
	if o.Verdict == replsetup.Fail && o.Summary != "" && o.Problem != "" {
		text = o.Summary + ": " + o.Problem
	}
	fmt.Fprintf(r.e.stderr, "%s  %d %s: %s\n", api.OrID(o.Verdict.String(), "PASS"), n, title, cell(text))
	if o.Verdict != replsetup.Fail {
		return nil
	}
	msg := fmt.Sprintf("replication setup stopped at step %d (%s): %s", n, title, cell(api.OrID(o.Problem, o.Summary)))
	if o.Fix != "" {
		msg += "; fix: " + cell(o.Fix)
	}
	return errors.New(msg)
}

// sky runs the wizard's steps 0 to 6.
func (r *setupRun) sky(ctx context.Context, pri, sec *api.Service) error {
	eng, f := r.eng, r.f
	now := eng.Now
	w := replsetup.NewWizard(now())
	r.report.Method = replsetup.MethodGTID

	o := r.steps.CheckPair(ctx, pri.ID, sec.ID)
	w.Apply(o, now())
	if err := r.say(o, "pair"); err != nil {
		return err
	}

	o = r.steps.CheckAllowList(ctx, w.Progress)
	if o.Verdict == replsetup.Fail && len(o.Missing) > 0 {
		if f.allowList {
			o = r.steps.AddAllowList(ctx, w.Progress, o.Missing)
		} else {
			var cmds []string
			for _, ip := range replsetup.HostCIDRs(o.Missing) {
				cmds = append(cmds, "`skytui allowlist add "+kit.ShellQuote(pri.NameOrID())+" "+ip+"`")
			}
			o.Fix = "pass --allow-list to add them, or run " + strings.Join(cmds, " and ")
		}
	}
	w.Apply(o, now())
	if err := r.say(o, "allow list"); err != nil {
		return err
	}

	o = r.steps.ListBackups(ctx, w.Progress)
	w.Apply(o, now())
	if o.Verdict == replsetup.Fail {
		return r.say(o, "backup")
	}
	key := ""
	if o.Backup != nil {
		key = o.Backup.Backup.Key
	}
	if f.backup != "" {
		key = ""
		for _, b := range w.Backups {
			if b.Backup.Key == f.backup || api.ShortKey(b.Backup.Key) == f.backup {
				key = b.Backup.Key
			}
		}
		if key == "" {
			return r.say(replsetup.Outcome{Step: replsetup.StepBackup, Verdict: replsetup.Fail,
				Problem: "--backup " + f.backup + " is not among " + pri.NameOrID() + "'s backups",
				Fix:     "see `skytui backups list --service " + kit.ShellQuote(pri.NameOrID()) + "`, or leave --backup out for the newest usable one"}, "backup")
		}
	}
	if key == "" {
		o.Verdict = replsetup.Fail
		if o.Problem == "" {
			o.Problem = "no usable backup of " + pri.NameOrID()
		}
		if o.Fix == "" {
			o.Fix = "take a full backup: `skytui backups create --service " + kit.ShellQuote(pri.NameOrID()) + " --type full --wait`, then run this again"
		}
		return r.say(o, "backup")
	}
	if err := w.ChooseBackup(key, now()); err != nil {
		return r.say(replsetup.Outcome{Step: replsetup.StepBackup, Verdict: replsetup.Fail, Problem: "backup " + api.ShortKey(key) + " cannot be used: " + err.Error(),
			Fix: "choose another with --backup, or take a new full backup"}, "backup")
	}
	if f.binlog && w.Progress.Method != replsetup.MethodBinlog {
		if _, err := w.ToggleMethod(now()); err != nil {
			return r.say(replsetup.Outcome{Step: replsetup.StepBackup, Verdict: replsetup.Fail, Problem: "--binlog: " + err.Error(), Fix: "leave --binlog out"}, "backup")
		}
	}
	r.report.Method = w.Progress.Method
	b := w.Result(replsetup.StepBackup)
	b.Summary = "backup " + api.ShortKey(key) + ", " + w.PositionText()
	if err := r.say(b, "backup"); err != nil {
		return err
	}

	if err := r.restore(ctx, w); err != nil {
		return err
	}

	o = r.steps.ChangePrimary(ctx, w.Progress)
	w.Apply(o, now())
	if o.Verdict == replsetup.Pass {
		o.Summary = "pointed " + sec.NameOrID() + " at " + pri.NameOrID() + " (" + w.PositionText() + ")"
	}
	if err := r.say(o, "change primary"); err != nil {
		return err
	}

	o = r.steps.RunGrant(ctx, w.Progress, w.Grant)
	w.Apply(o, now())
	if o.Verdict == replsetup.Pass {
		o.Summary = "ran the replication grant on " + pri.NameOrID() + " (not printed: it holds the replication password)"
	}
	if err := r.say(o, "grant"); err != nil {
		return err
	}

	o = r.steps.StartReplication(ctx, w.Progress)
	w.Apply(o, now())
	if o.Status != nil || o.Verdict != replsetup.Fail {
		r.savePair(replsetup.PairOf(w.Progress, now()))
	}
	if err := r.say(o, "start"); err != nil {
		return err
	}
	return r.emit(ctx, replsetup.PairOf(w.Progress, now()))
}

// restore starts the restore into the secondary and follows it to its
// end, then waits for the secondary to be ready again.
func (r *setupRun) restore(ctx context.Context, w *replsetup.Wizard) error {
	eng, p := r.eng, w.Progress
	sec := api.OrID(p.SecondaryName, p.SecondaryID)
	o := r.steps.StartRestore(ctx, p)
	w.Apply(o, eng.Now())
	if o.Verdict == replsetup.Fail {
		return r.say(o, "restore")
	}
	if w.Progress.RestoreID <= 0 {
		// sent, and no restore to follow: outcome unknown or unreadable
		o.Verdict = replsetup.Fail
		o.Problem = o.Summary
		o.Fix = "look with `skytui restores list --service " + kit.ShellQuote(sec) + "` before running setup again"
		return r.say(o, "restore")
	}
	fmt.Fprintf(r.e.stderr, "WAIT  3 restore: %s\n", cell(o.Summary))
	check := "skytui restores get " + fmt.Sprint(w.Progress.RestoreID)
	wt := r.e.newWaiter(&r.f.cf, "restore into "+sec, check)
	err := wt.run(ctx, func(ctx context.Context) (string, bool, error) {
		o = r.steps.CheckRestore(ctx, w.Progress)
		switch o.Verdict {
		case replsetup.Pass, replsetup.Fail:
			return o.Verdict.String(), true, nil
		}
		return api.OrID(o.Summary, "running"), false, nil
	})
	if err != nil {
		return err
	}
	w.Apply(o, eng.Now())
	if err := r.say(o, "restore"); err != nil {
		return err
	}
	if _, err := wt.waitService(ctx, r.c.client, p.SecondaryID, forReady); err != nil {
		return err
	}
	return nil
}

// managed sets up managed replication: the pair's check, then one call.
func (r *setupRun) managed(ctx context.Context, pri, sec *api.Service) error {
	eng, f := r.eng, r.f
	r.report.Method, r.report.ReplicationType = replsetup.MethodManaged, f.mode
	o := r.steps.CheckManagedPair(ctx, pri.ID, sec.ID)
	if err := r.say(o, "pair"); err != nil {
		return err
	}
	o = r.steps.StartManaged(ctx, pri.ID, sec.ID, f.mode)
	if o.Verdict == replsetup.Waiting {
		return fmt.Errorf("%s; check with `skytui services get %s` before sending it again", o.Summary, kit.ShellQuote(sec.NameOrID()))
	}
	if o.Verdict == replsetup.Fail {
		return r.say(o, "managed replication")
	}
	if o.Secondary != nil {
		sec = o.Secondary
	}
	o.Summary = fmt.Sprintf("%s replicates from %s (%s managed replication)", sec.NameOrID(), pri.NameOrID(), f.mode)
	if err := r.say(o, "managed replication"); err != nil {
		return err
	}
	pair := replsetup.ManagedPair(pri, sec, f.mode, eng.Now())
	r.savePair(pair)
	t := &table{head: []string{"PRIMARY", "REPLICA", "TYPE", "METHOD"}}
	t.add(pri.NameOrID(), sec.NameOrID(), f.mode, replsetup.MethodManaged)
	return r.c.out.emit(r.e.stdout, r.report, t)
}

// savePair keeps the pair for this profile (replication status and the
// TUI list it); a failure to save is said, not fatal.
func (r *setupRun) savePair(p replsetup.Pair) {
	st := replsetup.DefaultStore()
	ps, err := st.Load(r.c.profile.Name)
	if err == nil {
		ps.WithPair(p)
		err = st.Save(r.c.profile.Name, ps, 0)
	}
	if err != nil {
		fmt.Fprintf(r.e.stderr, "skytui: the pair was not saved for replication status: %v\n", err)
	}
}

// emit prints the pair's status once replication was started.
func (r *setupRun) emit(ctx context.Context, p replsetup.Pair) error {
	svcs, err := r.c.client.ListServices(ctx)
	if err != nil {
		return err
	}
	rep, err := pairStatus(ctx, r.eng, p, svcs)
	if err != nil {
		return fmt.Errorf("replication started; reading its status failed: %w", err)
	}
	r.report.Status = &rep
	return r.c.out.emit(r.e.stdout, r.report, replicationTable([]pairReport{rep}))
}

// ---- start and stop ----

// replicationAction is what start and stop print.
type replicationAction struct {
	Secondary   string `json:"secondary"`
	SecondaryID string `json:"secondary_id"`
	Action      string `json:"action"`
	Message     string `json:"message,omitempty"`
	Primary     string `json:"primary,omitempty"`
}

func newReplicationStartCmd(e *env) *cobra.Command {
	var cf changeFlags
	cmd := &cobra.Command{
		Use:   "start SECONDARY",
		Short: "Start replication on a secondary: CALL sky.start_replication()",
		Long: `Start replication on SECONDARY: skytui connects to its readwrite port
with its default credentials (this machine must be in its allow list) and
calls sky.start_replication(). It resumes where it stopped.

  skytui replication start replica-west` + scriptHelpTail,
		Args:              usageArgs(cobra.ExactArgs(1)),
		ValidArgsFunction: e.completeServiceArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			return e.runReplicationSQL(cmd, args[0], &cf, true)
		},
	}
	cf.register(cmd, false, false, false)
	return cmd
}

func newReplicationStopCmd(e *env) *cobra.Command {
	var cf changeFlags
	var managed bool
	cmd := &cobra.Command{
		Use:   "stop SECONDARY --yes [--managed]",
		Short: "Stop replication on a secondary (sky.stop_replication(); --managed ends managed replication); needs --yes",
		Long: `Stop replication on SECONDARY: CALL sky.stop_replication() on it. Its data
stays as it is and falls behind until replication is started again
(skytui replication start).

With --managed, end the managed replication of the replica SECONDARY
(DELETE .../services/{id}/replication): it no longer follows its primary;
its data stays. Setting it up again is a new setup.

Both need --yes.

  skytui replication stop replica-west --yes
  skytui replication stop replica-west --managed --yes` + scriptHelpTail,
		Args:              usageArgs(cobra.ExactArgs(1)),
		ValidArgsFunction: e.completeServiceArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			if managed {
				return e.runEndManaged(cmd, args[0], &cf)
			}
			return e.runReplicationSQL(cmd, args[0], &cf, false)
		},
	}
	cmd.Flags().BoolVar(&managed, "managed", false, "end managed replication (the API's) instead of calling sky.stop_replication()")
	cf.register(cmd, true, false, false)
	return cmd
}

// runReplicationSQL starts or stops replication over SQL on a secondary.
func (e *env) runReplicationSQL(cmd *cobra.Command, arg string, cf *changeFlags, start bool) error {
	what := "replication stop"
	if start {
		what = "replication start"
	}
	if err := checkServiceArg("secondary", arg); err != nil {
		return err
	}
	c, err := e.openChange(cmd, cf, what)
	if err != nil {
		return err
	}
	if !start {
		if err := needYes(cf, what); err != nil {
			return err
		}
	}
	ctx := cmd.Context()
	s, _, err := c.serviceByArg(cmd, "secondary", arg)
	if err != nil {
		return err
	}
	if !s.Ready() {
		return fmt.Errorf("%s %s: %s is %s: the sky procedures answer once it is ready (nothing was sent)", what, s.NameOrID(), s.NameOrID(), api.OrID(s.Status, "unknown"))
	}
	msg, err := newEngine(c.client).SetReplication(ctx, replsetup.Pair{SecondaryID: s.ID, SecondaryName: s.Name}, start)
	if err != nil {
		if api.StatusOf(err) != 0 {
			return err
		}
		step := replsetup.StepStart
		prob, fix := replsetup.SQLFixRetry(err, "secondary", s.NameOrID(), step, "run the command again")
		return fmt.Errorf("%s %s: %s; fix: %s", what, s.NameOrID(), cell(prob), cell(fix))
	}
	out := replicationAction{Secondary: s.NameOrID(), SecondaryID: s.ID, Action: strings.TrimPrefix(what, "replication "), Message: msg}
	return c.out.emit(e.stdout, out, actionTable(out))
}

// runEndManaged ends a replica's managed replication.
func (e *env) runEndManaged(cmd *cobra.Command, arg string, cf *changeFlags) error {
	what := "replication stop --managed"
	if err := checkServiceArg("replica", arg); err != nil {
		return err
	}
	c, err := e.openDestructive(cmd, cf, what)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	s, svcs, err := c.serviceByArg(cmd, "replica", arg)
	if err != nil {
		return err
	}
	primary := api.ManagedReplicaOf(s)
	if primary == "" {
		return usageErrf("%s: %s is not a managed replica (it reports no primary); nothing was sent", what, s.NameOrID())
	}
	for _, x := range svcs {
		if x.ID == primary {
			primary = x.NameOrID()
		}
	}
	if err := c.client.EndManagedReplication(ctx, s.ID); err != nil {
		return sentErr(err, "skytui services get "+kit.ShellQuote(s.NameOrID()))
	}
	st := replsetup.DefaultStore()
	if ps, err := st.Load(c.profile.Name); err == nil {
		for _, p := range ps.Pairs {
			if p.SecondaryID == s.ID && p.Managed() {
				ps.WithoutPair(s.ID)
				_ = st.Save(c.profile.Name, ps, 0)
			}
		}
	}
	out := replicationAction{Secondary: s.NameOrID(), SecondaryID: s.ID, Action: "end managed replication", Primary: primary,
		Message: s.NameOrID() + " no longer replicates from " + primary + "; its data stays"}
	return c.out.emit(e.stdout, out, actionTable(out))
}

func actionTable(a replicationAction) *table {
	t := &table{head: []string{"SECONDARY", "ACTION", "MESSAGE"}}
	t.add(a.Secondary, a.Action, a.Message)
	return t
}
