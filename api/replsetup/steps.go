// The I/O of each step of the setup: one Engine method per step, each
// returning the Outcome that Wizard.Apply takes.

package replsetup

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/skytui/skytui/api"
)

// CheckPair reads both services and applies the pair's rules.
func (e *Engine) CheckPair(ctx context.Context, primaryID, secondaryID string) Outcome {
	return e.checkPair(ctx, primaryID, secondaryID, pairRules{role: "secondary", check: ValidatePair,
		fix: func(p, s *api.Service) string {
			for _, v := range []*api.Service{p, s} {
				if api.StatusIs(v.Status, "stopped") && p.Provider == s.Provider {
					return "start it: :start " + SvcName(v) + " (or x on the Services screen), or choose another service"
				}
			}
			return "choose two ready services on the same cloud provider"
		},
		summary: func(p, s *api.Service) string {
			return fmt.Sprintf("%s -> %s, both ready on %s; %s will be erased by the restore (step 3)", SvcName(p), SvcName(s), p.Provider, SvcName(s))
		}})
}

// pairRules are what a way of setting up replication asks of a pair: role
// names the service that follows (secondary, replica), check applies the
// rules, fix says what to do when they refuse, summary what passed.
type pairRules struct {
	role         string
	check        func(p, s *api.Service) error
	fix, summary func(p, s *api.Service) string
}

// checkPair reads both services of a pair and applies r.
func (e *Engine) checkPair(ctx context.Context, primaryID, secondaryID string, r pairRules) Outcome {
	if primaryID == secondaryID {
		return fail(StepPair, nil, "the primary and the "+r.role+" are the same service: choose two different services", "choose another "+r.role)
	}
	svcs, err := e.services(ctx, primaryID, secondaryID)
	if err != nil {
		return fail(StepPair, err, "", apiFixRetry(err, retryRun))
	}
	p, s := svcs[0], svcs[1]
	o := Outcome{Step: StepPair, Primary: p, Secondary: s}
	if err := r.check(p, s); err != nil {
		o.Verdict, o.Problem, o.Err = Fail, err.Error(), err
		o.Fix = r.fix(p, s)
		return o
	}
	o.Verdict, o.Summary = Pass, r.summary(p, s)
	return o
}

func (e *Engine) pair(ctx context.Context, p Progress) (*api.Service, *api.Service, error) {
	svcs, err := e.services(ctx, p.PrimaryID, p.SecondaryID)
	if err != nil {
		return nil, nil, err
	}
	return svcs[0], svcs[1], nil
}

// CheckAllowList checks that every outbound IP of the secondary is in the
// primary's allow list (CIDR containment).
func (e *Engine) CheckAllowList(ctx context.Context, p Progress) Outcome {
	pri, sec, err := e.pair(ctx, p)
	if err != nil {
		return fail(StepAllowList, err, "", apiFix(err))
	}
	return allowOutcome(pri, sec)
}

func allowOutcome(pri, sec *api.Service) Outcome {
	o := Outcome{Step: StepAllowList, Primary: pri, Secondary: sec}
	if len(sec.OutboundIPs) == 0 {
		o.Verdict = Fail
		o.Problem = SvcName(sec) + " reports no outbound IP, so the allow list cannot be checked"
		o.Fix = "find the secondary's egress address in the cloud console and add it to " + SvcName(pri) + "'s allow list (Services screen, a); then check again (c)"
		return o
	}
	list := pri.AllowList()
	o.Missing = MissingFromAllowList(sec.OutboundIPs, list)
	if len(o.Missing) == 0 {
		var parts []string
		for _, ip := range sec.OutboundIPs {
			parts = append(parts, ip+" in "+AllowedBy(ip, list))
		}
		o.Verdict = Pass
		o.Summary = SvcName(sec) + "'s outbound IP " + strings.Join(parts, ", ") + " of " + SvcName(pri) + "'s allow list"
		return o
	}
	o.Verdict = Fail
	o.Problem = SvcName(sec) + "'s outbound IP " + strings.Join(o.Missing, ", ") + " is not in " + SvcName(pri) + "'s allow list: the secondary could not connect (error 2003)"
	o.Fix = "press enter to add " + strings.Join(HostCIDRs(o.Missing), ", ") + " to " + SvcName(pri) + "'s allow list"
	return o
}

func HostCIDRs(ips []string) []string {
	out := make([]string, len(ips))
	for i, ip := range ips {
		out[i] = api.NormalizeAllowListIP(ip)
	}
	return out
}

// AddAllowList adds the missing outbound IPs to the primary's allow list
// (one POST each; never retried), then checks again. Mutating: run it
// through kit.Do.
func (e *Engine) AddAllowList(ctx context.Context, p Progress, ips []string) Outcome {
	cl, err := e.client()
	if err != nil {
		return fail(StepAllowList, err, "", "")
	}
	for _, ip := range ips {
		if err := api.ValidateAllowListIP(ip); err != nil {
			return fail(StepAllowList, err, "outbound IP "+ip+": "+err.Error(), "add a valid address by hand (Services screen, a)")
		}
		if _, err := cl.AddAllowListEntry(ctx, p.PrimaryID, ip); err != nil {
			return fail(StepAllowList, err, "adding "+api.NormalizeAllowListIP(ip)+" to "+api.OrID(p.PrimaryName, p.PrimaryID)+"'s allow list: "+err.Error(), apiFixRetry(err, retryRun))
		}
	}
	o := e.CheckAllowList(ctx, p)
	if o.Verdict == Pass {
		o.Summary = "added " + strings.Join(HostCIDRs(ips), ", ") + "; " + o.Summary
	}
	return o
}

// ListBackups lists the primary's backups that hold a whole database,
// newest first, each with its verdict; the newest usable one is the
// default.
func (e *Engine) ListBackups(ctx context.Context, p Progress) Outcome {
	cl, err := e.client()
	if err != nil {
		return fail(StepBackup, err, "", "")
	}
	pri, err := cl.GetService(ctx, p.PrimaryID)
	if err != nil {
		return fail(StepBackup, err, "", apiFix(err))
	}
	list, err := cl.ListBackups(ctx, p.PrimaryID)
	if err != nil {
		return fail(StepBackup, err, "", apiFix(err))
	}
	return backupOutcome(pri, list, e.now())
}

func backupOutcome(pri *api.Service, list []api.Backup, now time.Time) Outcome {
	o := Outcome{Step: StepBackup, Primary: pri, Backups: []BackupChoice{}}
	for _, b := range list {
		if !fullCopy(b.Type) {
			o.Hidden++
			continue
		}
		o.Backups = append(o.Backups, EvaluateBackup(b, pri, now))
	}
	sort.SliceStable(o.Backups, func(i, j int) bool { return o.Backups[i].Time.After(o.Backups[j].Time) })
	o.Backup = ChooseDefault(o.Backups)
	if o.Backup == nil {
		o.Verdict = Fail
		o.Problem = "no backup of " + SvcName(pri) + " can start replication: it needs a completed full backup in managed storage with a GTID position, younger than 4 days"
		o.Fix = "take a full backup of " + SvcName(pri) + " (Backups screen), then check again (c)"
		return o
	}
	o.Verdict = Unchecked // the user chooses
	o.Summary = fmt.Sprintf("%d backup%s; the newest usable one is selected", len(o.Backups), map[bool]string{true: "s"}[len(o.Backups) != 1])
	return o
}

// RestoreRequest is the body the restore step sends.
func RestoreRequest(p Progress) api.RestoreRequest {
	return api.ManagedRestore(p.SecondaryID, p.BackupKey)
}

// StartRestore restores the chosen backup into the secondary. It stops
// the secondary, erases its data and gives it the primary's credentials.
// Mutating: run it through kit.Do after the type-to-confirm.
func (e *Engine) StartRestore(ctx context.Context, p Progress) Outcome {
	cl, err := e.client()
	if err != nil {
		return fail(StepRestore, err, "", "")
	}
	if p.BackupKey == "" {
		return fail(StepRestore, nil, "no backup chosen", "choose one (step 2)")
	}
	refused, note := e.busyBeforeRestore(ctx, cl, p)
	if refused != nil {
		return *refused
	}
	o := e.sendRestore(ctx, cl, p)
	if note != "" && o.Verdict != Fail {
		o.Summary += "; " + note
	}
	return o
}

// sendRestore sends the restore of StartRestore and reads what came of it.
func (e *Engine) sendRestore(ctx context.Context, cl *api.Client, p Progress) Outcome {
	r, err := cl.CreateRestore(ctx, RestoreRequest(p))
	if api.IsOutcomeUnknown(err) {
		// sent, never answered: it may be running. Never "refused", never
		// an invitation to restore again before the secondary is read.
		found := newestRestoreOf(ctx, cl, p)
		if found == nil {
			return Outcome{Step: StepRestore, Verdict: Waiting, Err: err,
				Summary: fmt.Sprintf("restore into %s: outcome unknown — it was sent and no answer came back; no restore of it is listed on %s yet. Look at the Restores screen (3) before restoring again",
					api.OrID(p.SecondaryName, p.SecondaryID), api.OrID(p.SecondaryName, p.SecondaryID))}
		}
		r, err = found, nil
	}
	if err != nil {
		return fail(StepRestore, err, "the API refused the restore: "+err.Error(), apiFixRetry(err, retryRun))
	}
	if r.ID <= 0 {
		// Accepted, but the answer named no restore (or could not be
		// read): find it among the secondary's restores. Never a failure.
		if found := newestRestoreOf(ctx, cl, p); found != nil {
			r = found
		} else {
			why := "the answer named no restore"
			if u := r.AnswerUnreadable(); u != "" {
				why = "the answer could not be read: " + u
			}
			return Outcome{Step: StepRestore, Verdict: Waiting,
				Summary: fmt.Sprintf("restore into %s accepted; %s. Follow it on the Restores screen (3)", api.OrID(p.SecondaryName, p.SecondaryID), why)}
		}
	}
	o := restoreOutcome(p, r, e.now())
	o.Restore = r
	if o.Verdict == Waiting {
		o.Summary = fmt.Sprintf("restore %d into %s started; it is followed here until it ends", int64(r.ID), api.OrID(p.SecondaryName, p.SecondaryID))
	}
	return o
}

// newestRestoreOf finds the running restore of the chosen backup into the
// secondary, the newest when there are several; nil when none is listed.
func newestRestoreOf(ctx context.Context, cl *api.Client, p Progress) *api.Restore {
	list, err := cl.ListRestores(ctx, p.SecondaryID)
	if err != nil {
		return nil
	}
	return api.NewestRunningRestore(list, p.SecondaryID, p.BackupKey)
}

// CheckRestore reads the restore the wizard started.
func (e *Engine) CheckRestore(ctx context.Context, p Progress) Outcome {
	cl, err := e.client()
	if err != nil {
		return fail(StepRestore, err, "", "")
	}
	if p.RestoreID <= 0 {
		return Outcome{Step: StepRestore}
	}
	r, err := cl.GetRestore(ctx, p.RestoreID)
	if err != nil {
		o := fail(StepRestore, err, fmt.Sprintf("reading restore %d: %s", p.RestoreID, err.Error()), apiFix(err))
		if !api.IsNotFound(err) {
			o.Verdict = Waiting // a failed read is not a failed restore
		}
		return o
	}
	o := restoreOutcome(p, r, e.now())
	o.Restore = r
	return o
}

// CredentialsNote says what a restore does to the secondary's credentials.
func CredentialsNote(p Progress) string {
	return api.OrID(p.SecondaryName, p.SecondaryID) + "'s default username and password are now those of " +
		api.OrID(p.PrimaryName, p.PrimaryID) + " (its old ones no longer work)"
}

func restoreOutcome(p Progress, r *api.Restore, now time.Time) Outcome {
	o := Outcome{Step: StepRestore}
	id := int64(r.ID)
	if id == 0 {
		id = p.RestoreID
	}
	switch {
	case r.Succeeded():
		o.Verdict = Pass
		o.Summary = fmt.Sprintf("restore %d succeeded. %s.", id, CredentialsNote(p))
	case r.Failed():
		o.Verdict = Fail
		o.Problem = fmt.Sprintf("restore %d %s: %s", id, strings.ToLower(r.Status), api.OrID(r.Message, "no message"))
		o.Fix = "read it on the Restores screen; choose another backup (bksp back to step 2) or restore again (enter)"
	default:
		o.Verdict = Waiting
		el := ""
		if !r.CreatedAt.IsZero() {
			el = ", started " + Ago(now.Sub(r.CreatedAt.Time)) + " ago"
		}
		o.Summary = fmt.Sprintf("restore %d %s: %s%s", id, api.OrID(r.Status, "submitted"), api.OrID(r.Message, "in progress"), el)
	}
	return o
}

// ChangeCall is the statement step 4 runs on the secondary, as text.
func ChangeCall(p Progress, pri *api.Service) string {
	host, port, ssl := "<primary fqdn>", 0, false
	if pri != nil {
		host, port, ssl = pri.FQDN, pri.ReadWritePort(), pri.SSLEnabled
	}
	if p.Method == MethodBinlog {
		return fmt.Sprintf("CALL sky.change_external_primary('%s', %d, '%s', %d, %t)", host, port, p.BinlogFile, p.BinlogPos, ssl)
	}
	return fmt.Sprintf("CALL sky.change_external_primary_gtid('%s', %d, '%s', %t)", host, port, p.GTID, ssl)
}

// ChangePrimary points the secondary at the primary, connecting with the
// secondary's current credentials (the primary's, after the restore), and
// returns the grant to run on the primary. Mutating: run it through kit.Do.
func (e *Engine) ChangePrimary(ctx context.Context, p Progress) Outcome {
	pri, sec, err := e.pair(ctx, p)
	if err != nil {
		return fail(StepChange, err, "", apiFixRetry(err, retryRun))
	}
	if !sec.Ready() {
		o := fail(StepChange, nil, SvcName(sec)+" is "+sec.Status+": it must be ready", "wait until it is ready (a restore takes a while), then try again")
		o.Verdict = Waiting
		return o
	}
	if err := ValidatePair(pri, sec); err != nil {
		return fail(StepChange, err, "", "")
	}
	call := ChangeCall(p, pri)
	var grant string
	db, err := e.connect(ctx, sec)
	if err == nil {
		defer db.Close()
		if p.Method == MethodBinlog {
			grant, err = db.ChangeExternalPrimary(ctx, pri.FQDN, pri.ReadWritePort(), p.BinlogFile, p.BinlogPos, pri.SSLEnabled)
		} else {
			grant, err = db.ChangeExternalPrimaryGTID(ctx, pri.FQDN, pri.ReadWritePort(), p.GTID, pri.SSLEnabled)
		}
	}
	if err != nil {
		prob, fix := SQLFix(err, "secondary", SvcName(sec), StepChange)
		o := fail(StepChange, err, prob, fix)
		o.Call = call
		return o
	}
	return Outcome{Step: StepChange, Verdict: Pass, Grant: grant, Call: call, Primary: pri, Secondary: sec,
		Summary: SvcName(sec) + " now points at " + SvcName(pri) + "; it returned the grant to run on the primary"}
}

// FetchGrant reads the grant again from the secondary (replication_grants).
func (e *Engine) FetchGrant(ctx context.Context, secondaryID string) (string, error) {
	_, db, err := e.connectID(ctx, secondaryID)
	if err != nil {
		return "", err
	}
	defer db.Close()
	return db.ReplicationGrants(ctx)
}

// FetchGrantStep is FetchGrant as the grant step's outcome (Unchecked:
// nothing was run).
func (e *Engine) FetchGrantStep(ctx context.Context, p Progress) Outcome {
	g, err := e.FetchGrant(ctx, p.SecondaryID)
	if err != nil {
		prob, fix := SQLFixRetry(err, "secondary", api.OrID(p.SecondaryName, p.SecondaryID), StepChange, retryCheck)
		o := fail(StepGrant, err, "reading the grant again: "+prob, fix)
		o.Verdict = Unchecked
		return o
	}
	return Outcome{Step: StepGrant, Grant: g}
}

// RunGrant runs the grant, verbatim, on the primary with the primary's
// credentials. Mutating: run it through kit.Do.
func (e *Engine) RunGrant(ctx context.Context, p Progress, grant string) Outcome {
	if strings.TrimSpace(grant) == "" {
		return fail(StepGrant, nil, "no grant to run", "run step 4 first")
	}
	pri, db, err := e.connectID(ctx, p.PrimaryID)
	if pri == nil {
		return fail(StepGrant, err, "", apiFixRetry(err, retryRun))
	}
	if err == nil {
		defer db.Close()
		err = db.RunGrant(ctx, grant)
	}
	if err != nil {
		prob, fix := SQLFix(err, "primary", SvcName(pri), StepGrant)
		return fail(StepGrant, err, prob, fix+"; or copy the grant (y), run it yourself and press m")
	}
	return Outcome{Step: StepGrant, Verdict: Pass, Summary: "the grant ran on " + SvcName(pri) + " as its default user"}
}

// StartReplication starts replication on the secondary (restarting it
// when its IO thread is stuck on an error, so a fixed cause is retried at
// once) and reads the status once. Mutating: run it through kit.Do.
func (e *Engine) StartReplication(ctx context.Context, p Progress) Outcome {
	sec, db, err := e.connectID(ctx, p.SecondaryID)
	if sec == nil {
		return fail(StepStart, err, "", apiFixRetry(err, retryRun))
	}
	sqlFail := func(err error, before string) Outcome {
		prob, fix := SQLFix(err, "secondary", SvcName(sec), StepStart)
		return fail(StepStart, err, before+prob, fix)
	}
	if err != nil {
		return sqlFail(err, "")
	}
	defer db.Close()
	if st, err := db.ReplicationStatus(ctx); err == nil && st.Configured && st.LastIOErrno != 0 && !strings.EqualFold(st.IORunning, "No") {
		if _, err := db.StopReplication(ctx); err != nil {
			return sqlFail(err, "")
		}
	}
	msg, err := db.StartReplication(ctx)
	if err != nil {
		return sqlFail(err, "")
	}
	st, err := db.ReplicationStatus(ctx)
	if err != nil {
		o := sqlFail(err, "started ("+msg+") but the status could not be read: ")
		o.Verdict = Waiting
		return o
	}
	o := Outcome{Step: StepStart, Status: st, Secondary: sec}
	d := Diagnose(st)
	switch {
	case d.OK:
		o.Verdict = Pass
		o.Summary = "replication runs: IO thread Yes, SQL thread Yes"
	case d.Waiting:
		o.Verdict = Waiting
		o.Summary = api.OrID(msg, "started") + "; " + d.Problem
	default:
		o.Verdict = Fail
		o.Summary = api.OrID(msg, "started")
		o.Problem, o.Fix = d.Problem, d.Fix
		if st.LastIOError != "" {
			o.Problem += ": " + st.LastIOError
		}
	}
	return o
}
