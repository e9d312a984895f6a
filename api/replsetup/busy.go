package replsetup

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/skytui/skytui/api"
)

// Busy is why a service about to be erased by a restore (the follower of a
// new pair: the sky procedures' secondary) is refused: it replicates
// already, or another service replicates from it. One of Managed, Live,
// Saved and FeedsName says which.
type Busy struct {
	Follower *api.Service
	// Managed: the API reports the follower as a replica (its primary
	// host), whatever its threads say.
	Managed bool
	// Live is its replica status read now over SQL, threads running.
	Live *api.ReplicationStatus
	// From names what it replicates from (a service, else the host).
	From string
	// Saved is the pair saved on this machine that has it replicate, when
	// its threads could not be read.
	Saved *Pair
	// FeedsName is a service that replicates from the follower (the API's
	// primary host, or a pair saved here): erasing it breaks that replica.
	FeedsName string
	// FeedsManaged: FeedsName replicates from it by managed replication
	// (the API's primary host), which its managed stop ends.
	FeedsManaged bool
	// Unknown says what could not be read: whether the follower may be
	// erased is not known, and a restore is an erase.
	Unknown string
}

// Replicating reports that a replica status shows threads that run or
// connect: a restore over that service would erase a working replica.
func Replicating(st *api.ReplicationStatus) bool {
	if st == nil || !st.Configured {
		return false
	}
	io, sqlT := strings.ToLower(st.IORunning), strings.ToLower(st.SQLRunning)
	return io == "yes" || io == "connecting" || io == "preparing" || sqlT == "yes"
}

// Problem says what was found, naming the follower and what it replicates
// from (or what replicates from it).
func (b Busy) Problem() string {
	name := SvcName(b.Follower)
	switch {
	case b.Unknown != "":
		return "whether " + name + " may be erased is not known: " + b.Unknown
	case b.FeedsName != "":
		return fmt.Sprintf("%s is the primary of %s: a restore would erase what %s replicates from", name, b.FeedsName, b.FeedsName)
	case b.Managed:
		return fmt.Sprintf("the API reports %s as a replica of %s (managed replication): it replicates already", name, b.From)
	case b.Live != nil:
		return fmt.Sprintf("%s replicates now (IO thread %s, SQL thread %s, from %s)", name, b.Live.IORunning, b.Live.SQLRunning, api.OrID(b.From, "?"))
	case b.Saved != nil:
		return fmt.Sprintf("%s already replicates from %s (set up with skytui, on the replication list): end that replication first", name, api.OrID(b.Saved.PrimaryName, b.Saved.PrimaryID))
	}
	return name + " replicates already"
}

// busyFix words the way out when the caller gave none (Engine.BusyFix).
func busyFix(b Busy) string {
	if b.Unknown != "" {
		return "try again once it can be read"
	}
	if b.FeedsName != "" {
		return "end the replication of " + b.FeedsName + " first, or choose another secondary"
	}
	return "end its replication first, or choose another secondary"
}

// RefuseBusy fails the passed step o (CheckPair's, CheckManagedPair's, or
// StartRestore's own look before it sends) when its follower
// (o.Secondary) replicates already or feeds another service. What the API
// says decides first (its primary host; another service whose primary
// host it is); then its threads, read now over SQL
// as PairStatus does: threads that run, or connect, refuse it, whatever
// this machine saved; a follower read as not replicating is taken. Only
// when that reading cannot be made does a pair saved here for it (Saved)
// refuse it; a pair saved with it as the primary always does. The fix is
// Engine.BusyFix's words. note says what could not be read when o was left
// to pass ("": all was read). What cannot be read refuses too (Unknown):
// not knowing whether a service replicates is no leave to erase it.
func (e *Engine) RefuseBusy(ctx context.Context, o Outcome) (_ Outcome, note string) {
	return e.refuseBusy(ctx, o, true)
}

// RefuseReplica is RefuseBusy for managed replication's replica, which
// nothing erases: only that it replicates already refuses it.
func (e *Engine) RefuseReplica(ctx context.Context, o Outcome) (_ Outcome, note string) {
	return e.refuseBusy(ctx, o, false)
}

func (e *Engine) refuseBusy(ctx context.Context, o Outcome, erased bool) (_ Outcome, note string) {
	if o.Verdict != Pass || o.Secondary == nil {
		return o, ""
	}
	sec := o.Secondary
	fix := e.BusyFix
	if fix == nil {
		fix = busyFix
	}
	refuse := func(b Busy) (Outcome, string) {
		b.Follower = sec
		o.Verdict, o.Summary, o.Err = Fail, "", nil
		o.Problem, o.Fix = b.Problem(), fix(b)
		return o, ""
	}
	var pairs []Pair
	var savedErr error
	if e.Saved != nil {
		pairs, savedErr = e.Saved()
	}
	svcs, listErr := e.listServices(ctx)
	names := func(id string) string {
		for _, s := range svcs {
			if s.ID == id || s.FQDN != "" && s.FQDN == id {
				return SvcName(&s) + " (" + s.ID + ")"
			}
		}
		return id
	}
	if sec.PrimaryHost != "" {
		return refuse(Busy{Managed: true, From: names(sec.PrimaryHost)})
	}
	if erased && listErr != nil {
		return refuse(Busy{Unknown: "whether another service replicates from it could not be read: " + firstLineOf(listErr)})
	}
	if erased {
		for _, s := range svcs {
			if s.ID != sec.ID && s.PrimaryHost == sec.ID {
				return refuse(Busy{FeedsName: SvcName(&s), FeedsManaged: true})
			}
		}
		for _, p := range pairs {
			if p.PrimaryID == sec.ID {
				return refuse(Busy{FeedsName: api.OrID(p.SecondaryName, p.SecondaryID)})
			}
		}
		// replication_enabled alone decides nothing: what it means is
		// not written down (a topology's own replicas may set it)
	}
	st, err := e.PairStatus(ctx, Pair{SecondaryID: sec.ID, SecondaryName: sec.Name}, nil)
	if err == nil && st.Status != nil {
		if Replicating(st.Status) {
			return refuse(Busy{Live: st.Status, From: names(st.Status.MasterHost)})
		}
		if erased {
			// replication set up with the sky procedures elsewhere (or a
			// pair forgotten here) shows on its replica only: the other
			// ready services of its provider are read
			if feeds, unread := e.replicasOf(ctx, sec, svcs); feeds != "" {
				return refuse(Busy{FeedsName: feeds})
			} else if unread != "" {
				return o, unread
			}
		}
		if savedErr != nil {
			return o, fmt.Sprintf("the pairs saved here could not be read: %v", savedErr)
		}
		return o, ""
	}
	if err == nil {
		err = fmt.Errorf("no replica status")
	}
	for i, p := range pairs {
		if p.SecondaryID == sec.ID {
			return refuse(Busy{Saved: &pairs[i]})
		}
	}
	if !erased {
		// nothing is erased: the API's word on managed replication stands
		return o, fmt.Sprintf("whether %s replicates now could not be read: %s", SvcName(sec), firstLineOf(err))
	}
	return refuse(Busy{Unknown: "its replication threads could not be read over SQL: " + firstLineOf(err)})
}

// listServices lists the account's services for RefuseBusy: who
// replicates from the follower, and the names of hosts.
func (e *Engine) listServices(ctx context.Context) ([]api.Service, error) {
	cl, err := e.client()
	if err != nil {
		return nil, err
	}
	return cl.ListServices(ctx)
}

// replicasOf reads, over SQL, the replica status of the other ready
// services of sec's provider (four at a time, all within ScanTimeout):
// the name of one that replicates from sec ("": none found), and what
// could not be read ("": all were), which is said, not refused (this
// machine need not reach every service).
func (e *Engine) replicasOf(ctx context.Context, sec *api.Service, svcs []api.Service) (feeds, unread string) {
	ctx, cancel := context.WithTimeout(ctx, e.scanTimeout())
	defer cancel()
	var others []api.Service
	for _, s := range svcs {
		if s.ID != sec.ID && s.Provider == sec.Provider && s.Ready() {
			others = append(others, s)
		}
	}
	type answer struct {
		name    string
		from    bool
		readErr error
	}
	answers := make([]answer, len(others))
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	cache := NewCredCache()
	for i, s := range others {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			st, err := e.PairStatus(ctx, Pair{SecondaryID: s.ID, SecondaryName: s.Name}, cache)
			a := answer{name: SvcName(&s), readErr: err}
			if err == nil && st.Status != nil && st.Status.Configured {
				host := strings.ToLower(st.Status.MasterHost)
				a.from = host != "" && (host == strings.ToLower(sec.FQDN) || host == strings.ToLower(sec.ID))
			}
			answers[i] = a
		}()
	}
	wg.Wait()
	var notRead []string
	for _, a := range answers {
		switch {
		case a.from:
			return a.name, ""
		case a.readErr != nil:
			notRead = append(notRead, a.name)
		}
	}
	if len(notRead) > 0 {
		unread = fmt.Sprintf("whether %s replicates from %s could not be read over SQL", strings.Join(notRead, ", "), SvcName(sec))
	}
	return "", unread
}

// busyBeforeRestore is StartRestore's last look before it sends: the
// secondary read again and RefuseBusy applied, so that a setup continued
// later (c), or one whose secondary began replicating since step 0, does
// not erase a working replica. nil: the restore may go.
func (e *Engine) busyBeforeRestore(ctx context.Context, cl *api.Client, p Progress) (*Outcome, string) {
	sec, err := cl.GetService(ctx, p.SecondaryID)
	if err != nil {
		o := fail(StepRestore, err, "whether "+api.OrID(p.SecondaryName, p.SecondaryID)+" replicates could not be read before the restore: "+err.Error()+" (the restore was not sent)", apiFixRetry(err, retryRun))
		o.NotSent = true
		return &o, ""
	}
	o, note := e.RefuseBusy(ctx, Outcome{Step: StepRestore, Verdict: Pass, Secondary: sec})
	if o.Verdict == Fail {
		o.Problem += " (the restore was not sent)"
		o.NotSent = true
		return &o, ""
	}
	return nil, note
}

func firstLineOf(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}
