package replsetup

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/skytui/skytui/api"
)

// The status of configured pairs: polled by the root's engine through the
// screen's Resources (one per secondary), read over SQL on the secondary.

// Pair is a primary and a secondary the wizard set up. Pairs are kept in
// the state file; IDs and names only.
type Pair struct {
	PrimaryID     string    `json:"primary_id"`
	PrimaryName   string    `json:"primary_name,omitempty"`
	SecondaryID   string    `json:"secondary_id"`
	SecondaryName string    `json:"secondary_name,omitempty"`
	Method        string    `json:"method,omitempty"`
	Mode          string    `json:"mode,omitempty"` // managed: uni-directional or bi-directional
	BackupKey     string    `json:"backup_key,omitempty"`
	ConfiguredAt  time.Time `json:"configured_at,omitzero"`
}

// PairOf is the pair of a setup.
func PairOf(p Progress, now time.Time) Pair {
	return Pair{PrimaryID: p.PrimaryID, PrimaryName: p.PrimaryName, SecondaryID: p.SecondaryID, SecondaryName: p.SecondaryName,
		Method: p.Method, BackupKey: p.BackupKey, ConfiguredAt: now}
}

// Text is "primary -> secondary".
func (p Pair) Text(arrow string) string {
	return api.OrID(p.PrimaryName, p.PrimaryID) + " " + arrow + " " + api.OrID(p.SecondaryName, p.SecondaryID)
}

// PairStatus is one poll of a pair.
type PairStatus struct {
	Secondary api.Service
	Status    *api.ReplicationStatus
	GTID      *api.GTIDStatus
}

// CredCache keeps the secondaries' credentials for the run of the
// application, so a poll is one SQL round trip, not an API call too. A
// 1045 drops the entry and fetches them again (a restore changes them).
// It is shared by the polling commands, hence the lock.
type CredCache struct {
	mu sync.Mutex
	m  map[string]api.Credentials
}

func NewCredCache() *CredCache { return &CredCache{m: map[string]api.Credentials{}} }

func (c *CredCache) get(id string) (api.Credentials, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[id]
	return v, ok
}

func (c *CredCache) put(id string, v api.Credentials) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[id] = v
}

func (c *CredCache) drop(id string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, id)
}

func IsAccessDenied(err error) bool {
	var se *api.SQLError
	return errors.As(err, &se) && (se.Code == api.ErAccessDenied || se.Code == api.ErDBAccessDenied)
}

// PairStatus reads the secondary's replica status and GTID positions,
// with cached credentials (fetched again once on access denied).
func (e *Engine) PairStatus(ctx context.Context, pair Pair, cache *CredCache) (PairStatus, error) {
	cl, err := e.client()
	if err != nil {
		return PairStatus{}, err
	}
	sec, err := cl.GetService(ctx, pair.SecondaryID)
	if err != nil {
		return PairStatus{}, err
	}
	out := PairStatus{Secondary: *sec}
	if !sec.Ready() {
		return out, &notReadyError{svc: *sec}
	}
	if cache == nil {
		cache = NewCredCache()
	}
	for attempt := 0; ; attempt++ {
		creds, ok := cache.get(sec.ID)
		if !ok {
			c, err := cl.GetCredentials(ctx, sec.ID)
			if err != nil {
				return out, err
			}
			creds = *c
			cache.put(sec.ID, creds)
		}
		st, g, err := e.readStatus(ctx, sec, &creds)
		if err != nil && IsAccessDenied(err) && attempt == 0 {
			cache.drop(sec.ID)
			continue
		}
		if err != nil {
			return out, err
		}
		out.Status, out.GTID = st, g
		return out, nil
	}
}

func (e *Engine) readStatus(ctx context.Context, sec *api.Service, creds *api.Credentials) (*api.ReplicationStatus, *api.GTIDStatus, error) {
	db, err := e.open(sec, creds)
	if err != nil {
		return nil, nil, err
	}
	defer db.Close()
	st, err := db.ReplicationStatus(ctx)
	if err != nil {
		return nil, nil, err
	}
	g, err := db.GTIDStatus(ctx)
	if err != nil {
		return st, nil, err
	}
	return st, g, nil
}

// ServiceState says why a service of a pair (role: "primary",
// "secondary" or "replica") cannot take part in replication now, and what
// to do, from its status: "", "" when it is ready. A stopped service is
// started, a pending one waited for, a failed one does not recover by
// itself, a deleted one ends the pair.
func ServiceState(role string, s *api.Service) (problem, fix string) {
	if s == nil || s.Ready() {
		return "", ""
	}
	name, status := SvcName(s), api.OrID(s.Status, "unknown")
	what := "the " + role + " " + name + " is " + status
	// what it stops: a primary is read from, a secondary replicates
	stops := "it does not replicate"
	if role == "primary" {
		stops = "nothing replicates from it"
	}
	start := "start it: :start " + name + " (or x on the Services screen)"
	switch {
	case api.StatusIs(s.Status, "stopped"):
		return what + ": " + stops, start
	case api.StatusIs(s.Status, "pending_stop"):
		return what + " (stopping): " + stops + " once stopped", "once it is stopped, " + start
	case api.StatusIs(s.Status, "pending_start"):
		return what + " (starting)", "wait until it is ready: nothing to do (the Services screen shows its progress)"
	case api.StatusIs(s.Status, "pending_delete", "deleting", "deleted"):
		return what + ": replication ends with it", "nothing brings it back: d forgets this pair"
	case api.StatusIs(s.Status, "failed", "error"):
		if len(s.Errors) > 0 {
			what += " (" + strings.Join(s.Errors, "; ") + ")"
		}
		return what + ": " + stops, "a failed service does not become ready by itself: its details on the Services screen (enter) say why; quote them to support"
	case s.Pending():
		return what + ": a change is running on it", "wait until it is ready (the Services screen shows its progress)"
	}
	return what + ": " + stops + " until it is ready", "check the Services screen"
}

// StatusGone is the status of a service of a pair that the API no longer
// has (Gone): ServiceState says it is deleted.
const StatusGone = "deleted"

// Gone is the service id (named name) of a pair as the API no longer has
// it: a 404 for it, or a listing read without it.
func Gone(id, name string) *api.Service {
	return &api.Service{ID: id, Name: name, Status: StatusGone}
}

// IsGone reports a service being deleted or gone: nothing brings it back.
func IsGone(s *api.Service) bool {
	return s != nil && api.StatusIs(s.Status, "pending_delete", "deleting", StatusGone)
}

// SecondaryRole is what the pair's secondary is called: a managed pair's
// is its replica.
func (p Pair) SecondaryRole() string {
	if p.Managed() {
		return "replica"
	}
	return "secondary"
}

// PairServiceState is ServiceState for a service of the pair p (role
// "primary", or p.SecondaryRole()), with the fix in the pair's own keys
// once the service is being deleted or gone. The secondary's end ends the
// pair: d forgets it. The primary's does not end replication on the
// secondary, which keeps trying to connect: a managed pair's replica is
// told to stop by E (ending managed replication; d forgets a pair whose
// end is refused), a sky pair's secondary by s (then d forgets it, and n
// sets it up from another primary).
func PairServiceState(p Pair, role string, s *api.Service) (problem, fix string) {
	problem, fix = ServiceState(role, s)
	if role != "primary" || !IsGone(s) {
		return problem, fix
	}
	sec := api.OrID(p.SecondaryName, p.SecondaryID)
	problem = "the primary " + SvcName(s) + " is " + s.Status + ": nothing replicates from it; " + sec + " keeps trying to connect"
	if p.Managed() {
		return problem, "nothing brings it back: E ends managed replication on " + sec + " (its data stays as it is); d forgets this pair if that is refused"
	}
	return problem, "nothing brings it back: s stops replication on " + sec + " (its data stays as it is), then d forgets this pair; n sets " + sec + " up from another primary"
}

// DiagnosePair is Diagnose for the pair p. A managed pair's fixes name its
// own keys, never the wizard's steps: the service set it up and runs it,
// so what the sky procedures' steps would redo is E (end it) and a new
// managed setup (n, then m). A sky pair whose secondary lost its
// configuration cannot be taken up again at step 4: its data are no
// longer at the backup's position (a restore erased them, or they went on
// from it), so the pair is forgotten (d) and set up again (n), whose
// restore erases the secondary.
func DiagnosePair(p Pair, s *api.ReplicationStatus) Diagnosis {
	d := Diagnose(s)
	if !p.Managed() && s != nil && !s.Configured {
		d.Fix = notConfiguredFix(p)
		d.Step = 0
		return d
	}
	if !p.Managed() && d.Step != 0 {
		// a saved pair is no wizard: no step can be run on it again
		sec, pri := api.OrID(p.SecondaryName, p.SecondaryID), api.OrID(p.PrimaryName, p.PrimaryID)
		switch d.Step {
		case StepGrant:
			d.Fix = "run the grant on the primary " + pri + " (g shows it)"
		case StepAllowList:
			d.Fix = "add " + sec + "'s outbound IP to the allow list of " + pri + " (Services screen, a)"
		case StepChange:
			d.Fix = "check on the Services screen that the primary still exists; if it is gone, d forgets this pair; n sets " + sec + " up from another primary"
		case StepBackup:
			d.Fix = "d forgets this pair; n sets " + sec + " up again from a new backup of " + pri + " (younger than 4 days), whose restore erases " + sec + "'s data"
		}
		d.Step = 0
		return d
	}
	if !p.Managed() || d.Step == 0 || s == nil {
		return d
	}
	again := "E ends managed replication, then n and m set it up again"
	switch {
	case !s.Configured:
		d.Problem = "replication is not configured on the replica: its managed replication ended"
		d.Fix = "d forgets this pair; n, then m, sets it up again"
	case s.LastIOErrno == 2005:
		d.Fix = "check on the Services screen that the primary still exists; " + again
	default:
		d.Fix = "the service runs managed replication itself: " + again + "; if it persists, quote the error below to support"
	}
	d.Step = 0
	return d
}

// notConfiguredFix is what to do about a sky pair whose secondary lost its
// replication configuration: its data are no longer at the backup's
// position, so pointing it at the primary again would replicate from the
// wrong place; the pair is forgotten and set up anew.
func notConfiguredFix(p Pair) string {
	sec := api.OrID(p.SecondaryName, p.SecondaryID)
	if p.PrimaryID == "" && p.PrimaryName == "" {
		// no pair saved for it: nothing to forget, no primary known
		return "not set up from here; n sets " + sec + " up from a primary, whose restore erases " + sec + "'s data"
	}
	return "d forgets this pair; n sets " + sec + " up again from a new backup of " + api.OrID(p.PrimaryName, p.PrimaryID) +
		", whose restore erases " + sec + "'s data (where its data stand now is not known: pointing it at the primary again would replicate from the wrong place)"
}

// PairSQLFix is SQLFixRetry for the pair p's status read on its
// secondary, or a start or stop of it: its fixes name the list's keys,
// never the wizard's steps (a managed pair's, its own).
func PairSQLFix(p Pair, err error, retry string) (problem, fix string) {
	problem, fix = SQLFixRetry(err, p.SecondaryRole(), api.OrID(p.SecondaryName, p.SecondaryID), StepStart, retry)
	var se *api.SQLError
	switch {
	case !errors.As(err, &se):
	case p.Managed() && (se.Code == 1200 || se.Code == 1941):
		fix = "the service runs managed replication itself: E ends it, then n and m set it up again"
	case se.Code == 1200:
		fix = notConfiguredFix(p)
	case se.Code == 1941:
		sec := api.OrID(p.SecondaryName, p.SecondaryID)
		fix = "d forgets this pair; n sets " + sec + " up again from a new backup of " + api.OrID(p.PrimaryName, p.PrimaryID) + " (younger than 4 days), whose restore erases " + sec + "'s data"
	}
	return problem, fix
}

// SetReplication starts or stops replication of a pair. Mutating: run it
// through kit.Do.
func (e *Engine) SetReplication(ctx context.Context, pair Pair, start bool) (string, error) {
	_, db, err := e.connectID(ctx, pair.SecondaryID)
	if err != nil {
		return "", err
	}
	defer db.Close()
	if start {
		return db.StartReplication(ctx)
	}
	return db.StopReplication(ctx)
}

// ---- history and sparkline ----

// history is a pair's recent lag samples; nil is a poll without a value
// (stopped, connecting, or the poll failed).
