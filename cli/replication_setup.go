package cli

import (
	"context"
	"errors"
	"fmt"
	"regexp"
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
	cmd := f.cf.verb(withYes|withConfirm, "setup SECONDARY --primary PRIMARY --yes --confirm SECONDARY | --managed --mode MODE --yes",
		"Make a secondary replicate from a primary: the wizard's steps, or --managed (needs --yes)",
		`Set up replication of SECONDARY from --primary, as the TUI's wizard does,
without asking: each step is printed on standard error with PASS or FAIL,
and the first step that fails stops the command with its fix (exit 1).

Without --managed, the `+replsetup.SkyPathText+`
The restore erases SECONDARY: --yes and --confirm with its exact name are
required. --allow-list adds a missing outbound IP to the primary's allow
list (otherwise that step fails and names the command that adds it);
--backup KEY takes that backup instead of the newest usable one; --binlog
starts from its binlog file and position instead of its GTID. The grant is
run on the primary with the primary's credentials and never printed.

With --managed, `+replsetup.ManagedText+`
--mode is uni-directional or bi-directional; --yes is required.

The pair is saved for this profile (replication status lists it, so does
the TUI). On success the pair's status is printed (-o json: the steps and
the status).

  skytui replication setup replica-west --primary orders-prod --allow-list --yes --confirm replica-west
  skytui replication setup replica-west --primary orders-prod --managed --mode uni-directional --yes`,
		cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
			return e.runReplicationSetup(cmd, args[0], &f)
		})
	fl := cmd.Flags()
	fl.StringVar(&f.primary, "primary", "", "the service to replicate from (name or ID; required)")
	fl.BoolVar(&f.managed, "managed", false, "use the service's own (managed) replication instead of the sky procedures")
	fl.StringVar(&f.mode, "mode", "", "with --managed: uni-directional or bi-directional (required)")
	fl.StringVar(&f.backup, "backup", "", "the backup of the primary to start from (its key; default: the newest usable)")
	fl.BoolVar(&f.binlog, "binlog", false, "start from the backup's binlog file and position instead of its GTID")
	fl.BoolVar(&f.allowList, "allow-list", false, "add the secondary's outbound IPs to the primary's allow list when they are missing")
	f.cf.registerTimeout(cmd, "give up waiting for the restore, then for the secondary to be ready, after this long each (the operation goes on)")
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
	// managed replication erases nothing: --yes confirms what it changes,
	// said in the refusal; the sky procedures' setup erases the
	// secondary: --yes and --confirm are asked once it is read, in one
	// refusal that names them both
	c, err := e.openChange(cmd, &f.cf, what)
	if err == nil && f.managed && !f.cf.yes {
		err = refusedErrf("replication setup --managed: %s; pass --yes to make that change (nothing was sent)", managedChange(secondary, f.primary, f.mode))
	}
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	pri, svcs, err := c.serviceByArg(cmd, "--primary", f.primary)
	if err != nil {
		return err
	}
	sec, err := resolveService(svcs, secondary)
	if err != nil {
		return err
	}
	if !f.managed {
		if err := needYesConfirm(&f.cf, what, what, sec); err != nil {
			return err
		}
	}
	r := &setupRun{e: e, c: c, f: f, eng: newEngine(c.client), pri: pri, sec: sec, svcs: svcs,
		report: setupReport{Primary: pri.NameOrID(), PrimaryID: pri.ID, Secondary: sec.NameOrID(), SecondaryID: sec.ID}}
	// what refuses a secondary that replicates (at step 0 and again
	// before the restore): the pairs saved here, and its fix in commands
	r.eng.Saved = func() ([]replsetup.Pair, error) {
		ps, err := replsetup.DefaultStore().Load(c.profile.Name)
		return ps.Pairs, err
	}
	r.eng.BusyFix = cliBusyFix
	r.steps = r.eng
	if e.setupSteps != nil {
		r.steps = e.setupSteps(r.eng)
	}
	if f.managed {
		return r.managed(ctx)
	}
	return r.sky(ctx)
}

// managedChange says what managed replication of secondary from primary
// in mode changes: which service follows which. It erases nothing.
func managedChange(secondary, primary, mode string) string {
	if mode == api.ReplicationBi {
		return fmt.Sprintf("%s and %s start replicating from each other (bi-directional managed replication); nothing is erased", secondary, primary)
	}
	return fmt.Sprintf("%s starts replicating from %s (uni-directional managed replication); nothing is erased", secondary, primary)
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
	ChangePrimary(ctx context.Context, p replsetup.Progress) replsetup.Outcome
	RunGrant(ctx context.Context, p replsetup.Progress, grant string) replsetup.Outcome
	StartReplication(ctx context.Context, p replsetup.Progress) replsetup.Outcome
	CheckManagedPair(ctx context.Context, primaryID, replicaID string) replsetup.Outcome
	StartManaged(ctx context.Context, primaryID, replicaID, typ string) replsetup.Outcome
}

// setupRun is one run of replication setup.
type setupRun struct {
	e        *env
	c        *changeSession
	f        *setupFlags
	eng      *replsetup.Engine
	steps    setupSteps
	pri, sec *api.Service
	svcs     []api.Service     // the listing: the services a text names by ID
	w        *replsetup.Wizard // the sky procedures' setup
	report   setupReport
	done     bool // the pair was saved: the setup is over (keepSetup)
}

// cliWordPairs put the command line's flags and commands where the
// engine's texts name the TUI's keys and screens: each text of the engine,
// then the command line's words for it.
var cliWordPairs = []string{
	":login to enter a valid one", "store a valid one with `skytui auth login`",
	"check the Services screen", "see `skytui services list`",
	"check them on the Services screen (c)", "check them with `skytui services credentials SERVICE`",
	"(Services screen, a)", "(`skytui allowlist add SERVICE CIDR`)",
	"(the Services screen shows their status)", "(`skytui services list` shows their status)",
	"(Backups screen)", "(`skytui backups create --service SERVICE --type full --wait`)",
	"try again (enter)", "run the command again",
	"try again (c)", "run the command again",
	"check again (c)", "run the command again",
	"press enter to add", "pass --allow-list to add",
	"read it on the Restores screen; choose another backup (bksp back to step 2) or restore again (enter)",
	"read it with `skytui restores list --service SECONDARY`; choose another backup (--backup) or run the command again",
	"Look at the Restores screen (3)", "Look with `skytui restores list --service SECONDARY`",
	". Follow it on the Restores screen (3)", "; it is looked for among the restores of the secondary, then followed here",
	"; or copy the grant (y), run it yourself and press m", "",
	"start it (S)", "start it (`skytui replication start SECONDARY`)",
	"start replication (S)", "start replication (`skytui replication start SECONDARY`)",
	"(s, then S)", "(`skytui replication stop SECONDARY --yes`, then `skytui replication start SECONDARY`)",
	// replsetup.ServiceState's
	"start it: :start ", "start it: `skytui services start ",
	" (or x on the Services screen)", " --wait`",
	"(the Services screen shows its progress)", "(`skytui services list` shows its progress)",
	"d forgets this pair", "`skytui replication forget SECONDARY --yes` forgets this pair",
	" (g shows it)", " (the Replication screen's g shows it: the command line never prints it)",
	// replsetup.PairServiceState's and DiagnosePair's (a managed pair's keys)
	"E ends managed replication on ", "`skytui replication stop SECONDARY --managed --yes` ends managed replication on ",
	"E ends managed replication, then n and m set it up again", "`skytui replication stop SECONDARY --managed --yes` ends it, then `skytui replication setup SECONDARY --primary PRIMARY --managed --mode MODE --yes` sets it up again",
	"E ends it, then n and m set it up again", "`skytui replication stop SECONDARY --managed --yes` ends it, then `skytui replication setup SECONDARY --primary PRIMARY --managed --mode MODE --yes` sets it up again",
	"n, then m, sets it up again", "`skytui replication setup SECONDARY --primary PRIMARY --managed --mode MODE --yes` sets it up again",
	"s stops replication on ", "`skytui replication stop SECONDARY --yes` stops replication on ",
	"; n sets ", "; `skytui replication setup SECONDARY --primary PRIMARY --allow-list --yes --confirm SECONDARY` sets ",
	"check on the Services screen that the primary still exists", "check with `skytui services list` that the primary still exists",
	"its details on the Services screen (enter) say why", "`skytui services get SERVICE -o json` says why",
}

var cliWords = strings.NewReplacer(cliWordPairs...)

// namedCommands are the screens' words whose command names the service
// the words name just before: its name is put in the command (SERVICE
// would be left for the user to fill in).
var namedCommands = []struct {
	re  *regexp.Regexp
	cmd string
}{
	{regexp.MustCompile(`(take a full backup of (\S+)) \(Backups screen\)`), "$1 (`skytui backups create --service $2 --type full --wait`)"},
	{regexp.MustCompile(`((\S+)'s allow list) \(Services screen, a\)`), "$1 (`skytui allowlist add $2 CIDR`)"},
	{regexp.MustCompile(`((?:add it to|to the allow list of) (\S+)(?:'s allow list)?) \(Services screen, a\)`), "$1 (`skytui allowlist add $2 CIDR`)"},
	{regexp.MustCompile(`((\S+) refused its default credentials): check them on the Services screen \(c\)`), "$1: check them with `skytui services credentials $2`"},
}

// cliText is a text of the engine or the screens in the command line's
// words.
func cliText(s string) string {
	for _, n := range namedCommands {
		s = n.re.ReplaceAllString(s, n.cmd)
	}
	return cliWords.Replace(s)
}

// commandWord is a command a text names, between backticks: the
// services it runs on are named where the words say SECONDARY or PRIMARY.
var commandWord = regexp.MustCompile("`[^`]*`")

// text is an engine's text as the command line prints it: in its words,
// on one line, a service it names by ID named "name (ID)", without the
// replication password.
func (r *setupRun) text(s string) string {
	s = api.NameServiceIDs(cell(cliText(s)), r.svcs)
	s = commandWord.ReplaceAllStringFunc(s, func(cmd string) string {
		return strings.NewReplacer("SECONDARY", argOf(r.sec, r.svcs), "PRIMARY", argOf(r.pri, r.svcs)).Replace(cmd)
	})
	if r.w != nil {
		s = redactGrant(s, r.w.Grant)
	}
	return s
}

// grantPassword is the password of a grant statement; identifiedBy its
// clause in a text, whole or cut short by a server's message.
var (
	grantPassword = regexp.MustCompile(`(?i)IDENTIFIED\s+BY\s+(?:PASSWORD\s+)?'((?:[^'\\]|\\.|'')*)'`)
	identifiedBy  = regexp.MustCompile(`(?i)(IDENTIFIED\s+BY\s+(?:PASSWORD\s+)?)'(?:[^'\\]|\\.)*'?`)
)

// redactGrant hides in s the password of grant (the statement the change
// procedure returned): a server's error can quote the statement.
func redactGrant(s, grant string) string {
	if m := grantPassword.FindStringSubmatch(grant); m != nil && m[1] != "" {
		s = strings.ReplaceAll(s, m[1], "****")
	}
	return identifiedBy.ReplaceAllString(s, "$1'****'")
}

// stepError is the step that stopped the setup, in words, with the error
// under it: an *api.Error keeps its status and trace ID, an
// *api.SQLError its number. Its text is the words only, which hold no
// secret.
type stepError struct {
	msg string
	err error
}

func (e *stepError) Error() string { return e.msg }
func (e *stepError) Unwrap() error { return e.err }

// check is the command that shows what a step changed.
func (r *setupRun) check(step replsetup.Step) string {
	switch step {
	case replsetup.StepAllowList:
		return "skytui allowlist list " + argOf(r.pri, r.svcs)
	case replsetup.StepRestore:
		return "skytui restores list --service " + argOf(r.sec, r.svcs)
	}
	return "skytui services get " + argOf(r.sec, r.svcs)
}

// line prints one step's line on standard error.
func (r *setupRun) line(verdict string, n int, title, text string) {
	fmt.Fprintf(r.e.stderr, "%s  %d %s: %s\n", api.OrID(verdict, "PASS"), n, title, text)
}

// say prints a step's outcome on standard error and records it. A step
// that failed, or that waits on something no later step can do without,
// is the error that ends the command (a 404 under it exits 4). WAIT is
// the end of step 6 only: replication was started and connects, as the
// wizard counts it done.
func (r *setupRun) say(o replsetup.Outcome, title string) error {
	n := int(o.Step)
	if r.f.managed {
		n = len(r.report.Steps) // managed: step 0 the pair, step 1 the call
	}
	unknown := api.IsOutcomeUnknown(o.Err)
	o.Summary, o.Problem, o.Fix = r.text(o.Summary), r.text(o.Problem), r.text(o.Fix)
	if unknown && o.Verdict != replsetup.Pass {
		o.Fix = "it may have been carried out: check with `" + r.check(o.Step) + "` before sending it again"
	}
	o.Fix = r.e.hinted(o.Fix) // the report's too, not only standard error's
	st := setupStep{Step: n, Name: title, Verdict: api.OrID(o.Verdict.String(), "PASS"), Summary: o.Summary, Problem: o.Problem, Fix: o.Fix}
	r.report.Steps = append(r.report.Steps, st)
	text := api.OrID(o.Summary, o.Problem)
	if o.Verdict != replsetup.Pass && o.Summary != "" && o.Problem != "" {
		text = o.Summary + ": " + o.Problem
	}
	r.line(st.Verdict, n, title, text)
	switch o.Verdict {
	case replsetup.Pass, replsetup.Unchecked:
		return nil
	case replsetup.Waiting:
		if o.Step == replsetup.StepStart && !r.f.managed {
			return nil
		}
	}
	msg := fmt.Sprintf("replication setup stopped at step %d (%s): %s", n, title, api.OrID(o.Problem, o.Summary))
	if o.Fix != "" {
		msg += "; fix: " + o.Fix
	}
	err := &stepError{msg: msg, err: o.Err}
	if api.IsNotFound(o.Err) || errors.Is(o.Err, errNoSuchBackup) {
		return &exitError{code: exitNotFound, err: err}
	}
	return err
}

// errNoSuchBackup is the outcome's error of a --backup the primary's
// backups do not hold: a step that stops on it exits 4 (not found).
var errNoSuchBackup = errors.New("no such backup")

// sky runs the wizard's steps 0 to 6. The reads come before the first
// change: the pair, the allow list and the primary's backups are checked,
// with --backup and --binlog, before --allow-list adds anything.
func (r *setupRun) sky(ctx context.Context) (err error) {
	f, pri := r.f, r.pri
	now := r.eng.Now
	if saved := r.savedSetup(); saved != nil {
		return r.resume(ctx, *saved)
	}
	if err := r.blockedBy(); err != nil {
		return err
	}
	w := replsetup.NewWizard(now())
	r.w = w
	r.report.Method = replsetup.MethodGTID

	o := r.busySecondary(ctx, r.steps.CheckPair(ctx, pri.ID, r.sec.ID), false)
	w.Apply(o, now())
	if err := r.say(o, "pair"); err != nil {
		return err
	}

	allow := r.steps.CheckAllowList(ctx, w.Progress)
	add := allow.Verdict == replsetup.Fail && len(allow.Missing) > 0 && f.allowList
	if !add {
		if allow.Verdict == replsetup.Fail && len(allow.Missing) > 0 {
			var cmds []string
			for _, ip := range replsetup.HostCIDRs(allow.Missing) {
				cmds = append(cmds, "`skytui allowlist add "+argOf(pri, r.svcs)+" "+ip+"`")
			}
			them := "them"
			if len(cmds) == 1 {
				them = "it"
			}
			allow.Fix = "pass --allow-list to add " + them + ", or run " + strings.Join(cmds, " and ")
		}
		w.Apply(allow, now())
		if err := r.say(allow, "allow list"); err != nil {
			return err
		}
	}
	backup := r.chooseBackup(ctx, w)
	if backup.Verdict == replsetup.Fail {
		if add {
			// step 1 is said too: what --allow-list would have added
			// waits for the backup's step, which is read first
			text := strings.Join(replsetup.HostCIDRs(allow.Missing), ", ") + " not added: --allow-list adds them once step 2 passes"
			r.report.Steps = append(r.report.Steps, setupStep{Step: 1, Name: "allow list", Verdict: "WAIT", Summary: text})
			r.line("WAIT", 1, "allow list", text)
		}
		return r.say(backup, "backup")
	}
	if add {
		allow = r.steps.AddAllowList(ctx, w.Progress, allow.Missing)
		w.Apply(allow, now())
		if err := r.say(allow, "allow list"); err != nil {
			return err
		}
	}
	r.report.Method = w.Progress.Method
	if err := r.say(backup, "backup"); err != nil {
		return err
	}

	// from the restore on, a run that stops keeps the setup (keepSetup)
	defer r.keepSetup(&err)
	if err := r.restore(ctx, w); err != nil {
		return err
	}
	return r.fromChange(ctx, w)
}

// fromChange runs steps 4 to 6 once the restore passed: change primary,
// the grant, the start; then prints the pair's status.
func (r *setupRun) fromChange(ctx context.Context, w *replsetup.Wizard) error {
	pri, now := r.pri, r.eng.Now
	o := r.steps.ChangePrimary(ctx, w.Progress)
	if o.Verdict == replsetup.Waiting {
		// nothing was sent: the secondary is not ready yet. The wizard
		// stays at the step; this waits until it is ready, then again.
		r.line(o.Verdict.String(), int(o.Step), "change primary", r.text(api.OrID(o.Problem, o.Summary)))
		if err := r.secondaryReady(ctx); err != nil {
			return err
		}
		o = r.steps.ChangePrimary(ctx, w.Progress)
	}
	w.Apply(o, now())
	if o.Verdict == replsetup.Pass {
		o.Summary = "pointed " + r.sec.NameOrID() + " at " + pri.NameOrID() + " (" + w.PositionText() + ")"
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
		r.done = true
	}
	if err := r.say(o, "start"); err != nil {
		return err
	}
	return r.emit(ctx, replsetup.PairOf(w.Progress, now()))
}

// busySecondary fails the pair's step o when the secondary replicates
// already (replsetup.Engine.RefuseBusy; managed: RefuseReplica): set up
// again, the sky procedures' restore would erase a working replica. What
// could not be read is said on stderr.
func (r *setupRun) busySecondary(ctx context.Context, o replsetup.Outcome, managed bool) replsetup.Outcome {
	check := r.eng.RefuseBusy
	if managed {
		check = r.eng.RefuseReplica
	}
	o, note := check(ctx, o)
	if note != "" {
		fmt.Fprintf(r.e.stderr, "skytui: %s\n", note)
	}
	return o
}

// cliBusyFix is the way out of a secondary that replicates already (or
// feeds another service), in commands.
func cliBusyFix(b replsetup.Busy) string {
	sec := kit.ShellQuote(replsetup.SvcName(b.Follower))
	switch {
	case b.Unknown != "":
		return "run the command again once it can be read (this machine must reach " + sec + " over SQL, as step 4 will)"
	case b.FeedsManaged:
		return "end the managed replication of " + b.FeedsName + " first (`skytui replication stop " + kit.ShellQuote(b.FeedsName) + " --managed --yes`), or choose another secondary"
	case b.FeedsName != "":
		return "end the replication of " + b.FeedsName + " first (`skytui replication status " + kit.ShellQuote(b.FeedsName) + "` shows it), or choose another secondary"
	case b.Managed || b.Saved != nil && b.Saved.Managed():
		return "to set it up anew, first end it: `skytui replication stop " + sec + " --managed --yes` (that forgets a saved pair too)"
	case b.Live != nil:
		return "see it with `skytui replication status " + sec + "`; to set it up anew, first stop it (`skytui replication stop " + sec + " --yes`)"
	}
	return "see it with `skytui replication status " + sec + "`; to set it up anew, first stop it (`skytui replication stop " + sec +
		" --yes`) and forget the pair (`skytui replication forget " + sec + " --yes`)"
}

// chooseBackup lists the primary's backups and takes the newest usable
// one, or --backup's, with --binlog's start: step 2's outcome, reads only.
func (r *setupRun) chooseBackup(ctx context.Context, w *replsetup.Wizard) replsetup.Outcome {
	f, name := r.f, r.pri.NameOrID()
	now := r.eng.Now
	failed := func(problem, fix string) replsetup.Outcome {
		return replsetup.Outcome{Step: replsetup.StepBackup, Verdict: replsetup.Fail, Problem: problem, Fix: fix}
	}
	o := r.steps.ListBackups(ctx, w.Progress)
	w.Apply(o, now())
	// --backup names one of the backups listed (usable or not), whatever
	// else the step says: an unknown key is not found (exit 4)
	chosen := ""
	for _, b := range o.Backups {
		if f.backup != "" && (b.Backup.Key == f.backup || api.ShortKey(b.Backup.Key) == f.backup) {
			chosen = b.Backup.Key
		}
	}
	if f.backup != "" && chosen == "" && (o.Verdict != replsetup.Fail || o.Err == nil) {
		o := failed("--backup "+f.backup+" is not among "+name+"'s backups",
			"see `skytui backups list --service "+argOf(r.pri, r.svcs)+"`, or leave --backup out for the newest usable one")
		o.Err = errNoSuchBackup // exit 4, as restores create's unknown --backup
		return o
	}
	if o.Verdict == replsetup.Fail {
		return o
	}
	key := ""
	if o.Backup != nil {
		key = o.Backup.Backup.Key
	}
	if f.backup != "" {
		key = chosen
	}
	if key == "" {
		o.Verdict = replsetup.Fail
		o.Problem = api.OrID(o.Problem, "no usable backup of "+name)
		o.Fix = api.OrID(o.Fix, "take a full backup: `skytui backups create --service "+kit.ShellQuote(name)+" --type full --wait`, then run this again")
		return o
	}
	if err := w.ChooseBackup(key, now()); err != nil {
		return failed("backup "+api.ShortKey(key)+" cannot be used: "+err.Error(), "choose another with --backup, or take a new full backup")
	}
	if f.binlog && w.Progress.Method != replsetup.MethodBinlog {
		if _, err := w.ToggleMethod(now()); err != nil {
			return failed("--binlog: "+err.Error(), "leave --binlog out")
		}
	}
	b := w.Result(replsetup.StepBackup)
	b.Summary = "backup " + api.ShortKey(key) + ", " + w.PositionText()
	return b
}

// managed sets up managed replication: the pair's check, then one call.
func (r *setupRun) managed(ctx context.Context) error {
	f, pri, sec := r.f, r.pri, r.sec
	r.report.Method, r.report.ReplicationType = replsetup.MethodManaged, f.mode
	o := r.busySecondary(ctx, r.steps.CheckManagedPair(ctx, pri.ID, sec.ID), true)
	if err := r.say(o, "pair"); err != nil {
		return err
	}
	o = r.steps.StartManaged(ctx, pri.ID, sec.ID, f.mode)
	if o.Verdict == replsetup.Waiting {
		return &stepError{msg: fmt.Sprintf("%s; check with `%s` before sending it again", r.text(o.Summary), r.check(replsetup.StepStart)), err: o.Err}
	}
	if o.Verdict == replsetup.Fail {
		return r.say(o, "managed replication")
	}
	if o.Unreadable != "" {
		r.e.noteUnreadable(o.Unreadable, "skytui replication status "+argOf(sec, r.svcs))
	}
	if o.Secondary != nil {
		sec = o.Secondary
	}
	o.Summary = fmt.Sprintf("%s replicates from %s (%s managed replication)", sec.NameOrID(), pri.NameOrID(), f.mode)
	if err := r.say(o, "managed replication"); err != nil {
		return err
	}
	pair := replsetup.ManagedPair(pri, sec, f.mode, r.eng.Now())
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
	rep.Fix = r.e.hinted(rep.Fix)
	r.report.Status = &rep
	return r.c.out.emit(r.e.stdout, r.report, replicationTable([]pairReport{rep}))
}
