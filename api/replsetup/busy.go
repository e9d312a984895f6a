package replsetup

import (
	"context"
	"fmt"
	"strings"

	"github.com/skytui/skytui/api"
)

// Busy is why a pair's follower is refused: it replicates already. Live
// is its replica status read now over SQL; when that could not be read,
// Saved is the pair saved on this machine that has it replicate.
type Busy struct {
	Follower *api.Service
	Live     *api.ReplicationStatus
	Saved    *Pair
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

// Problem says what was found, naming the follower and, read live, its
// threads and where it replicates from.
func (b Busy) Problem() string {
	name := SvcName(b.Follower)
	if b.Live != nil {
		return fmt.Sprintf("%s replicates now (IO thread %s, SQL thread %s, from %s)", name, b.Live.IORunning, b.Live.SQLRunning, api.OrID(b.Live.MasterHost, "?"))
	}
	if b.Saved != nil {
		return fmt.Sprintf("%s already replicates from %s (set up with skytui, on the replication list): end that replication first", name, api.OrID(b.Saved.PrimaryName, b.Saved.PrimaryID))
	}
	return name + " replicates already"
}

// RefuseBusy fails the pair's passed step o (CheckPair's, CheckManagedPair's)
// when its follower (o.Secondary) replicates now. Its live state is read
// first (SQL, as PairStatus): threads that run, or connect, refuse it,
// whatever this machine saved; a follower read as not replicating is
// taken. Only when that reading cannot be made does a pair saved here for
// it (saved; an error when they could not be read) refuse it. fix words
// the way out for the caller's surface (keys, commands). note says what
// could not be read when o was left to pass ("": all was read).
func (e *Engine) RefuseBusy(ctx context.Context, o Outcome, saved func() ([]Pair, error), fix func(Busy) string) (_ Outcome, note string) {
	if o.Verdict != Pass || o.Secondary == nil {
		return o, ""
	}
	sec := o.Secondary
	refuse := func(b Busy) Outcome {
		b.Follower = sec
		o.Verdict, o.Summary, o.Err = Fail, "", nil
		o.Problem, o.Fix = b.Problem(), fix(b)
		return o
	}
	st, err := e.PairStatus(ctx, Pair{SecondaryID: sec.ID, SecondaryName: sec.Name}, nil)
	if err == nil && st.Status != nil {
		if Replicating(st.Status) {
			return refuse(Busy{Live: st.Status}), ""
		}
		return o, ""
	}
	if err == nil {
		err = fmt.Errorf("no replica status")
	}
	pairs, lerr := saved()
	if lerr != nil {
		return o, fmt.Sprintf("whether %s replicates now could not be read (%s), nor the saved pairs (%v)", SvcName(sec), firstLineOf(err), lerr)
	}
	for i, p := range pairs {
		if p.SecondaryID == sec.ID {
			return refuse(Busy{Saved: &pairs[i]}), ""
		}
	}
	return o, fmt.Sprintf("whether %s replicates now could not be read: %s", SvcName(sec), firstLineOf(err))
}

func firstLineOf(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}
