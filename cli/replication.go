package cli

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/kit"
)

// replication status: what the Replication screen shows of each pair,
// read over SQL on the secondary (sky.replication_status and
// sky.gtid_status) with its default credentials. Read-only.

// pairReport is one pair's status as -o json prints it: every key in
// every record, "" when not known (a pair not configured has no primary).
type pairReport struct {
	Primary             string `json:"primary"`
	PrimaryID           string `json:"primary_id"`
	Secondary           string `json:"secondary"`
	SecondaryID         string `json:"secondary_id"`
	Configured          bool   `json:"configured"`
	IORunning           string `json:"io_running"`
	SQLRunning          string `json:"sql_running"`
	SecondsBehindMaster *int64 `json:"seconds_behind_master"`
	LastIOErrno         int    `json:"last_io_errno"`
	LastIOError         string `json:"last_io_error"`
	LastSQLErrno        int    `json:"last_sql_errno"`
	LastSQLError        string `json:"last_sql_error"`
	MasterHost          string `json:"master_host"`
	GTIDIOPos           string `json:"gtid_io_pos"`
	GTIDCurrentPos      string `json:"gtid_current_pos"`
	OK                  bool   `json:"ok"`
	Problem             string `json:"problem"`
	Fix                 string `json:"fix"`
}

func newReplicationCmd(e *env) *cobra.Command {
	status := verb("status [SECONDARY...]",
		"IO and SQL threads, lag, GTID positions and the last errors, with a fix",
		`Show the replication status of secondaries: the pairs the TUI's setup
wizard configured for this profile, or the secondaries named. skytui
connects to each secondary's readwrite port with its default credentials,
so this machine must be in its allow list. The pairs are saved on this
machine: with no SECONDARY named and no pair saved for the profile here,
nothing is checked and the command exits 4 (not found).

"ok" in -o json is true when both threads run:

  skytui replication status replica-west -o json | jq -e 'all(.ok)'`,
		cobra.ArbitraryArgs, func(cmd *cobra.Command, args []string) error {
			for _, a := range args {
				if err := checkServiceArg("secondary", a); err != nil {
					return err
				}
			}
			c, err := e.openRead(cmd)
			if err != nil {
				return err
			}
			ctx := cmd.Context()
			svcs, err := c.client.ListServices(ctx)
			if err != nil {
				return err
			}
			saved, loadErr := replsetup.DefaultStore().Load(c.profile.Name)
			var pairs []replsetup.Pair
			if len(args) == 0 {
				pairs = saved.Pairs
				if len(pairs) == 0 {
					// nothing to check is not "all good": a health check
					// (jq -e 'all(.ok)') must fail on a machine that has no pairs
					why := "no replication was set up from profile " + c.profile.Name + " on this machine"
					if loadErr != nil {
						why = "the saved pairs could not be read: " + loadErr.Error()
					}
					return notFoundErrf("%s; name the secondaries: `skytui replication status SECONDARY...`", why)
				}
			}
			for _, a := range args {
				s, err := resolveService(svcs, a)
				if gone := savedGone(saved.Pairs, svcs, a); err != nil && gone != nil {
					// a saved pair's secondary deleted since: its status
					// says so, as the list without arguments does
					pairs = append(pairs, *gone)
					continue
				}
				if err != nil {
					return err
				}
				p := replsetup.Pair{SecondaryID: s.ID, SecondaryName: s.Name}
				for _, sp := range saved.Pairs {
					if sp.SecondaryID == s.ID {
						p = sp
					}
				}
				pairs = append(pairs, p)
			}
			eng := newEngine(c.client)
			reports := make([]pairReport, 0, len(pairs))
			for _, p := range pairs {
				r, err := pairStatus(ctx, eng, p, svcs)
				if err != nil {
					return fmt.Errorf("replication status of %s: %w", api.OrID(p.SecondaryName, p.SecondaryID), err)
				}
				r.Fix = e.hinted(r.Fix)
				reports = append(reports, r)
			}
			return c.out.emit(e.stdout, reports, replicationTable(reports))
		})
	return newNoun("replication", "Show replication status; set up, start or stop replication",
		status, newReplicationSetupCmd(e), newReplicationStartCmd(e), newReplicationStopCmd(e), newReplicationForgetCmd(e))
}

func pairStatus(ctx context.Context, eng *replsetup.Engine, p replsetup.Pair, svcs []api.Service) (pairReport, error) {
	ps, err := eng.PairStatus(ctx, p, nil)
	if api.IsNotFound(err) {
		// the secondary is gone (deleted): its state, as the screen says it
		ps = replsetup.PairStatus{Secondary: *replsetup.Gone(p.SecondaryID, p.SecondaryName)}
	} else if err != nil && !replsetup.NotReady(err) {
		return pairReport{}, err
	}
	sec := ps.Secondary
	r := pairReport{Primary: p.PrimaryName, PrimaryID: p.PrimaryID, Secondary: api.OrID(sec.Name, p.SecondaryName), SecondaryID: sec.ID}
	if err != nil {
		// a secondary that is not ready (stopped, pending, failed, gone)
		// is its state, with the fix for it: not a failed read
		prob, fix := replsetup.PairServiceState(p, p.SecondaryRole(), &sec)
		r.Problem, r.Fix = prob, strings.ReplaceAll(stateFix(fix, &sec), "SECONDARY", kit.ShellQuote(r.Secondary))
		return r, nil
	}
	if st := ps.Status; st != nil {
		r.Configured, r.IORunning, r.SQLRunning = st.Configured, st.IORunning, st.SQLRunning
		r.SecondsBehindMaster = st.SecondsBehindMaster
		r.LastIOErrno, r.LastIOError, r.LastSQLErrno, r.LastSQLError = st.LastIOErrno, st.LastIOError, st.LastSQLErrno, st.LastSQLError
		r.MasterHost, r.GTIDIOPos = st.MasterHost, st.GTIDIOPos
		if r.PrimaryID == "" && st.MasterHost != "" {
			for _, s := range svcs {
				if s.FQDN != "" && strings.EqualFold(s.FQDN, st.MasterHost) {
					r.Primary, r.PrimaryID = s.Name, s.ID
				}
			}
		}
	}
	if ps.GTID != nil {
		r.GTIDCurrentPos = ps.GTID.CurrentPos
	}
	d := replsetup.DiagnosePair(p, ps.Status)
	r.OK, r.Problem, r.Fix = d.OK, d.Problem, cliText(d.Fix)
	if replsetup.ManagedInAPI(p, &ps.Secondary, ps.Status) {
		// the API says it replicates; SQL cannot show its threads: not
		// ok (nothing says they run), but not ended either
		r.Problem, r.Fix = replsetup.ManagedInAPIText(p), ""
	}
	if r.OK || r.PrimaryID == "" {
		return namePair(r), nil
	}
	// a primary that is not ready, or gone from the listing, is why the IO
	// thread cannot connect: its state's fix, not the allow list's
	primary := replsetup.Gone(r.PrimaryID, r.Primary)
	for i := range svcs {
		if svcs[i].ID == r.PrimaryID {
			primary = &svcs[i]
		}
	}
	if !primary.Ready() {
		prob, fix := replsetup.PairServiceState(p, "primary", primary)
		r.Problem, r.Fix = prob, stateFix(fix, primary)
	}
	return namePair(r), nil
}

// savedGone is the saved pair whose secondary arg names (by the name or ID
// saved) when that service is no longer listed; nil otherwise.
func savedGone(pairs []replsetup.Pair, svcs []api.Service, arg string) *replsetup.Pair {
	for i, p := range pairs {
		if (p.SecondaryID == arg || p.SecondaryName == arg) && !slices.ContainsFunc(svcs, func(s api.Service) bool { return s.ID == p.SecondaryID }) {
			return &pairs[i]
		}
	}
	return nil
}

// namePair puts the pair's services in the commands its fix names (a
// primary not known stays PRIMARY).
func namePair(r pairReport) pairReport {
	r.Fix = namePairIn(r.Fix, r.Secondary, r.Primary)
	return r
}

// namePairIn puts a pair's secondary and primary ("": not known, left
// PRIMARY) in the commands fix names.
func namePairIn(fix, secondary, primary string) string {
	fix = strings.ReplaceAll(fix, "SECONDARY", kit.ShellQuote(secondary))
	if primary != "" {
		fix = strings.ReplaceAll(fix, "PRIMARY", kit.ShellQuote(primary))
	}
	return fix
}

// stateFix is a ServiceState fix in the command line's words, naming the
// service s where they name SERVICE.
func stateFix(fix string, s *api.Service) string {
	return strings.ReplaceAll(cliText(fix), "SERVICE", argOf(s, nil))
}

func replicationTable(reports []pairReport) *table {
	t := &table{
		head:     []string{"PRIMARY", "SECONDARY", "IO", "SQL", "BEHIND", "STATE"},
		wideHead: []string{"GTID IO POS", "FIX", "LAST IO ERROR", "LAST SQL ERROR"},
	}
	for _, r := range reports {
		behind := ""
		if r.SecondsBehindMaster != nil {
			behind = strconv.FormatInt(*r.SecondsBehindMaster, 10) + "s"
		}
		state := "ok"
		if !r.OK {
			state = r.Problem
		}
		ioErr, sqlErr := "", ""
		if r.LastIOErrno != 0 {
			ioErr = fmt.Sprintf("%d %s", r.LastIOErrno, r.LastIOError)
		}
		if r.LastSQLErrno != 0 {
			sqlErr = fmt.Sprintf("%d %s", r.LastSQLErrno, r.LastSQLError)
		}
		primary := r.Primary
		if primary == "" {
			primary = r.PrimaryID
		}
		t.add(primary, r.Secondary, r.IORunning, r.SQLRunning, behind, state,
			r.GTIDIOPos, r.Fix, ioErr, sqlErr)
	}
	return t
}
