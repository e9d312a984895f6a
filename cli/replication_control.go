package cli

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/api/replsetup"
)

// replication start and stop: the sky procedures called on a secondary
// over SQL, and the end of managed replication (DELETE). A read-only
// profile refuses each before anything is sent; stop needs --yes.

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
	return cf.verb(changeOnly, "start SECONDARY",
		"Start replication on a secondary: CALL sky.start_replication()",
		`Start replication on SECONDARY: skytui connects to its readwrite port
with its default credentials (this machine must be in its allow list) and
calls sky.start_replication(). It resumes where it stopped.

  skytui replication start replica-west`,
		cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
			return e.runReplicationSQL(cmd, args[0], &cf, true)
		})
}

func newReplicationStopCmd(e *env) *cobra.Command {
	var cf changeFlags
	var managed bool
	cmd := cf.verb(withYes, "stop SECONDARY --yes [--managed]",
		"Stop replication on a secondary (sky.stop_replication(); --managed ends managed replication); needs --yes",
		`Stop replication on SECONDARY: CALL sky.stop_replication() on it. Its data
stays as it is and falls behind until replication is started again
(skytui replication start).

With --managed, end the managed replication of the replica SECONDARY
(DELETE .../services/{id}/replication): it no longer follows its primary;
its data stays. Setting it up again is a new setup.

Both need --yes.

  skytui replication stop replica-west --yes
  skytui replication stop replica-west --managed --yes`,
		cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
			if managed {
				return e.runEndManaged(cmd, args[0], &cf)
			}
			return e.runReplicationSQL(cmd, args[0], &cf, false)
		})
	cmd.Flags().BoolVar(&managed, "managed", false, "end managed replication (the API's) instead of calling sky.stop_replication()")
	return cmd
}

func newReplicationForgetCmd(e *env) *cobra.Command {
	var yes bool
	cmd := verb("forget SECONDARY --yes",
		"Forget a pair saved on this machine; replication on the services is not changed (needs --yes)",
		`Forget the pair saved for this profile on this machine whose secondary is
SECONDARY (its name or ID, as replication status shows it; a deleted
service's too): replication status and the TUI's list no longer show it,
and replication setup takes the secondary again. Nothing is sent to the
API and nothing changes on the services: stop replication first
(skytui replication stop SECONDARY --yes) if it should end. A managed
pair is forgotten by ending it (replication stop --managed).

  skytui replication forget replica-west --yes`,
		cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
			return e.runForget(cmd, args[0], yes)
		})
	cmd.Flags().BoolVar(&yes, "yes", false, "confirm forgetting the pair (required)")
	return cmd
}

// runForget drops a saved pair of the profile (the TUI's d): the saved
// pairs only, so a read-only profile may too, and a deleted secondary is
// found by the name or ID saved.
func (e *env) runForget(cmd *cobra.Command, arg string, yes bool) error {
	if err := checkServiceArg("secondary", arg); err != nil {
		return err
	}
	s, f, err := e.openScript(cmd)
	if err != nil {
		return err
	}
	st := replsetup.DefaultStore()
	ps, err := st.Load(s.profile.Name)
	if err != nil {
		return fmt.Errorf("replication forget: the saved pairs could not be read: %w", err)
	}
	var pair *replsetup.Pair
	for i, p := range ps.Pairs {
		if p.SecondaryID == arg || p.SecondaryName == arg {
			pair = &ps.Pairs[i]
		}
	}
	if pair == nil {
		// the saved pairs are named here (replication status without
		// arguments lists them too, but fails when there are none)
		if len(ps.Pairs) == 0 {
			return notFoundErrf("no pair is saved for profile %s on this machine: there is nothing to forget (a managed pair is ended with `skytui replication stop SECONDARY --managed --yes`)", s.profile.Name)
		}
		saved := make([]string, len(ps.Pairs))
		for i, p := range ps.Pairs {
			saved[i] = p.Text("->")
		}
		return notFoundErrf("no pair saved for profile %s on this machine has %s as its secondary; saved: %s", s.profile.Name, arg, strings.Join(saved, "; "))
	}
	text := pair.Text("->")
	if !yes {
		return refusedErrf("replication forget: pass --yes to forget %s (replication on the services is not changed; nothing was changed)", text)
	}
	out := replicationAction{Secondary: api.OrID(pair.SecondaryName, pair.SecondaryID), SecondaryID: pair.SecondaryID, Action: "forget",
		Primary: api.OrID(pair.PrimaryName, pair.PrimaryID), Message: text + " forgotten; replication on the services is not changed"}
	ps.WithoutPair(pair.SecondaryID)
	if err := st.Save(s.profile.Name, ps, 0); err != nil {
		return fmt.Errorf("replication forget: %w", err)
	}
	return f.emit(e.stdout, out, actionTable(out))
}

// runReplicationSQL starts or stops replication over SQL on a secondary.
func (e *env) runReplicationSQL(cmd *cobra.Command, arg string, cf *changeFlags, start bool) error {
	what := "replication stop"
	if start {
		what = "replication start"
	}
	c, s, _, err := e.openService(cmd, serviceOp{what: what, arg: "secondary", cf: cf, yes: !start}, arg)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	if !s.Ready() {
		return fmt.Errorf("%s %s: %s is %s: the sky procedures answer once it is ready (nothing was sent)", what, s.NameOrID(), s.NameOrID(), api.OrID(s.Status, "unknown"))
	}
	// the pair saved for it, if any: its primary is named in the output
	// and in the fix of a refusal
	pair := replsetup.Pair{SecondaryID: s.ID, SecondaryName: s.Name}
	if ps, err := replsetup.DefaultStore().Load(c.profile.Name); err == nil {
		for _, p := range ps.Pairs {
			if p.SecondaryID == s.ID {
				pair = p
			}
		}
	}
	msg, err := newEngine(c.client).SetReplication(ctx, pair, start)
	if err != nil {
		if api.StatusOf(err) != 0 {
			return err
		}
		prob, fix := replsetup.PairSQLFix(pair, err, "run the command again")
		return &stepError{msg: fmt.Sprintf("%s %s: %s; fix: %s", what, s.NameOrID(), cell(prob), cell(namePairIn(cliText(fix), s.NameOrID(), cmp.Or(pair.PrimaryName, pair.PrimaryID)))), err: err}
	}
	out := replicationAction{Secondary: s.NameOrID(), SecondaryID: s.ID, Action: strings.TrimPrefix(what, "replication "), Message: msg,
		Primary: cmp.Or(pair.PrimaryName, pair.PrimaryID)}
	return c.out.emit(e.stdout, out, actionTable(out))
}

// runEndManaged ends a replica's managed replication.
func (e *env) runEndManaged(cmd *cobra.Command, arg string, cf *changeFlags) error {
	what := "replication stop --managed"
	c, s, svcs, err := e.openService(cmd, serviceOp{what: what, arg: "replica", cf: cf, yes: true}, arg)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	primary := api.ManagedReplicaOf(s)
	if primary == "" {
		// ended already (by an earlier run, elsewhere): the state asked
		// for is there, so a runbook that ends it twice goes on; said
		fmt.Fprintf(e.stderr, "skytui: %s: %s is not a managed replica (it reports no primary): nothing to end, nothing was sent\n", what, s.NameOrID())
		e.forgetManaged(c, s.ID)
		out := replicationAction{Secondary: s.NameOrID(), SecondaryID: s.ID, Action: "end managed replication",
			Message: s.NameOrID() + " is not a managed replica: nothing to end"}
		return c.out.emit(e.stdout, out, actionTable(out))
	}
	for _, x := range svcs {
		if x.ID == primary {
			primary = x.NameOrID()
		}
	}
	if err := c.client.EndManagedReplication(ctx, s.ID); err != nil {
		return sentErr(err, "skytui services get "+c.arg(s))
	}
	e.forgetManaged(c, s.ID)
	out := replicationAction{Secondary: s.NameOrID(), SecondaryID: s.ID, Action: "end managed replication", Primary: primary,
		Message: s.NameOrID() + " no longer replicates from " + primary + "; its data stays"}
	return c.out.emit(e.stdout, out, actionTable(out))
}

// forgetManaged drops the managed pair saved for replica id, if any: its
// managed replication ended.
func (e *env) forgetManaged(c *changeSession, id string) {
	st := replsetup.DefaultStore()
	if ps, err := st.Load(c.profile.Name); err == nil {
		for _, p := range ps.Pairs {
			if p.SecondaryID == id && p.Managed() {
				ps.WithoutPair(id)
				_ = st.Save(c.profile.Name, ps, 0)
			}
		}
	}
}

func actionTable(a replicationAction) *table {
	t := &table{head: []string{"SECONDARY", "ACTION", "MESSAGE"}}
	t.add(a.Secondary, a.Action, a.Message)
	return t
}
