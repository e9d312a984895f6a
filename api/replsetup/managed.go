// Managed replication: the service's own replication, the other way to
// make a secondary (here: a replica) follow a primary. One API call sets
// it up (POST .../services/{replica}/replication) and one ends it
// (DELETE); there is no allow list, backup, restore or grant on the
// user's side. Its rules and calls, shared by the TUI and the commands.

package replsetup

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/skytui/skytui/api"
)

// MethodManaged is the method of a pair set up by managed replication.
const MethodManaged = "managed"

// What each way of setting up replication does and needs, in words the
// wizard and the commands' help show.
const (
	SkyPathText = "sky procedures: skytui restores a recent backup of the primary into the secondary " +
		"(erasing it), points it at the primary with sky.change_external_primary_gtid, runs the grant on " +
		"the primary and starts replication. Needs two ready services on the same cloud provider, the " +
		"secondary's outbound IP in the primary's allow list and a backup with a position no older than 4 days."
	ManagedText = "managed replication: one request to the API; the service sets up and runs replication " +
		"itself (uni-directional: the replica follows the primary; bi-directional: each follows the other). " +
		"Needs two ready services, a replica that does not replicate already and a primary that is not " +
		"itself a replica. Ending it (DELETE) leaves the replica's data as it is."
)

// ValidateManagedPair applies the rules of managed replication: two
// different services, both ready (not pending), a replica that is not one
// already, and a primary that is not itself a replica. A refusal is a
// *PairError (its Note is a chooser's CANNOT BE column).
func ValidateManagedPair(primary, replica *api.Service) error {
	if primary == nil || replica == nil {
		return &PairError{"", "", "choose a primary and a replica"}
	}
	if primary.ID == replica.ID {
		return &PairError{"", "the primary", fmt.Sprintf("%s cannot replicate from itself: choose two different services", SvcName(primary))}
	}
	for _, x := range []struct {
		role string
		s    *api.Service
	}{{"primary", primary}, {"replica", replica}} {
		if x.s.Pending() {
			return &PairError{x.role, "pending", fmt.Sprintf("the %s %s is %s: a service in a pending state cannot take part; wait until it is ready", x.role, SvcName(x.s), x.s.Status)}
		}
		if !x.s.Ready() {
			return &PairError{x.role, "not ready", fmt.Sprintf("the %s %s is %s: both services must be ready", x.role, SvcName(x.s), api.OrID(x.s.Status, "unknown"))}
		}
	}
	if p := api.ManagedReplicaOf(replica); p != "" {
		return &PairError{"replica", "replicates already", fmt.Sprintf("%s already replicates from %s: end that replication first", SvcName(replica), p)}
	}
	if p := api.ManagedReplicaOf(primary); p != "" {
		return &PairError{"primary", "is a replica", fmt.Sprintf("the primary %s is itself a replica of %s: choose a service that is not a replica", SvcName(primary), p)}
	}
	return nil
}

// CheckManagedPrimary applies the rules a managed replication's primary
// meets on its own (ready, not pending, not itself a replica), so a
// chooser refuses it before any replica is chosen. A refusal is a
// *PairError.
func CheckManagedPrimary(v *api.Service) error {
	switch {
	case v.Pending():
		return &PairError{"primary", "pending", fmt.Sprintf("%s is %s: a service in a pending state cannot be the primary; wait until it is ready", SvcName(v), v.Status)}
	case !v.Ready():
		return &PairError{"primary", "not ready", fmt.Sprintf("%s is %s: the primary must be ready", SvcName(v), api.OrID(v.Status, "unknown"))}
	case api.ManagedReplicaOf(v) != "":
		return &PairError{"primary", "is a replica", fmt.Sprintf("%s is itself a replica of %s: choose a service that is not a replica", SvcName(v), api.ManagedReplicaOf(v))}
	}
	return nil
}

// ManagedNote is why v cannot be chosen in a managed replication's
// chooser, in a few words (PairError.Note), or "" when it can: as the
// primary while primary is nil, else as primary's replica.
func ManagedNote(primary, v *api.Service) string {
	var err error
	if primary == nil {
		err = CheckManagedPrimary(v)
	} else {
		err = ValidateManagedPair(primary, v)
	}
	var pe *PairError
	if errors.As(err, &pe) {
		return pe.Note()
	}
	return ""
}

// CheckManagedPair reads both services and applies ValidateManagedPair.
func (e *Engine) CheckManagedPair(ctx context.Context, primaryID, replicaID string) Outcome {
	return e.checkPair(ctx, primaryID, replicaID, pairRules{role: "replica", check: ValidateManagedPair,
		fix: func(p, r *api.Service) string {
			if p.Pending() || r.Pending() {
				return "wait until both are ready (the Services screen shows their status), then try again"
			}
			return "choose two ready services; a replica that already replicates must end that first"
		},
		summary: func(p, r *api.Service) string { return fmt.Sprintf("%s -> %s, both ready", SvcName(p), SvcName(r)) }})
}

// StartManaged sets up managed replication of replica from primary with
// the given type. Mutating: run it through kit.Do (or a command's
// confirmation). An outcome-unknown answer is Waiting, never Fail: the
// replica is read again to see whether it took.
func (e *Engine) StartManaged(ctx context.Context, primaryID, replicaID, typ string) Outcome {
	cl, err := e.client()
	if err != nil {
		return fail(StepStart, err, "", "")
	}
	mr, err := cl.StartManagedReplication(ctx, replicaID, primaryID, typ)
	if api.IsOutcomeUnknown(err) {
		if s, rerr := cl.GetService(ctx, replicaID); rerr == nil && s.PrimaryHost == primaryID {
			return Outcome{Step: StepStart, Verdict: Pass, Secondary: s, Err: err,
				Summary: fmt.Sprintf("the answer was lost, but %s now reports %s as its primary: managed replication (%s) is set up", SvcName(s), primaryID, typ)}
		}
		return Outcome{Step: StepStart, Verdict: Waiting, Err: err,
			Summary: "managed replication of " + replicaID + ": outcome unknown — the request was sent and no answer came back, and the replica does not report a primary yet; look at the replica before sending it again"}
	}
	if err != nil {
		return fail(StepStart, err, "the API refused managed replication: "+err.Error(), apiFixRetry(err, retryRun))
	}
	o := Outcome{Step: StepStart, Verdict: Pass, Summary: fmt.Sprintf("managed replication (%s) from %s set up on %s", typ, primaryID, replicaID)}
	if mr != nil {
		o.Unreadable = mr.Unreadable
	}
	if s, err := cl.GetService(ctx, replicaID); err == nil {
		o.Secondary = s
		o.Summary = fmt.Sprintf("managed replication (%s) set up: %s replicates from %s", typ, SvcName(s), api.OrID(s.PrimaryHost, primaryID))
	}
	return o
}

// ManagedPair is the pair of a managed replication set up at now.
func ManagedPair(primary, replica *api.Service, typ string, now time.Time) Pair {
	return Pair{PrimaryID: primary.ID, PrimaryName: primary.Name, SecondaryID: replica.ID, SecondaryName: replica.Name,
		Method: MethodManaged, Mode: typ, ConfiguredAt: now}
}

// Managed reports a pair set up by managed replication.
func (p Pair) Managed() bool { return p.Method == MethodManaged }

// ManagedInAPI reports a managed pair whose replica's record (sec, as the
// API last had it) says it replicates from the pair's primary
// (primary_host, or replication_enabled with no primary named) while SQL
// on it (st) shows no replication configured: the service keeps its
// managed replication where SQL does not show it (`skytui sandbox
// --mariadb` keeps it in the API only). The API's record is then the
// pair's state, set up; only its threads cannot be read.
func ManagedInAPI(p Pair, sec *api.Service, st *api.ReplicationStatus) bool {
	if !p.Managed() || sec == nil || st == nil || st.Configured {
		return false
	}
	return sec.PrimaryHost == p.PrimaryID || sec.PrimaryHost == "" && sec.ReplicationEnabled
}

// ManagedInAPIText says what is known of a pair ManagedInAPI reports.
func ManagedInAPIText(p Pair) string {
	sec, pri := api.OrID(p.SecondaryName, p.SecondaryID), api.OrID(p.PrimaryName, p.PrimaryID)
	return "the API says " + sec + " replicates from " + pri + "; its threads cannot be read over SQL here (SQL on " + sec + " shows none)"
}

// KnownReplica refuses replica as the replica (role: "replica" or
// "secondary") of a new replication when a saved pair has it replicate
// already (set up with the sky procedures or managed), which the
// service's own fields may not say: a *PairError, nil when no pair has
// it.
func KnownReplica(pairs []Pair, role string, replica *api.Service) error {
	if replica == nil {
		return nil
	}
	for i, p := range pairs {
		if p.SecondaryID == replica.ID {
			return &PairError{role, "replicates already", Busy{Follower: replica, Saved: &pairs[i]}.Problem()}
		}
	}
	return nil
}
