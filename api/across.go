package api

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// Views across services. The live service lists restores only per service,
// and the interface document lists backups only per service; a view of the
// whole account asks per service, at most MaxPerServiceInFlight at a time.

// MaxPerServiceInFlight bounds the requests of one per-service sweep.
const MaxPerServiceInFlight = 4

// perService calls fetch for every service ID, at most
// MaxPerServiceInFlight at a time, and concatenates the results in the
// order of ids. A service that is gone (404) by the time it is asked is
// skipped; any other error fails the sweep: no service is asked after it,
// and those being asked are let finish, with their retries (cancelling
// them would cut off a retry that was waiting, and report the error it
// was retrying instead of the one that failed the sweep). The error is
// the first in the order asked, a *ServiceError naming its service.
func perService[T any](ctx context.Context, ids []string, fetch func(context.Context, string) ([]T, error)) ([]T, error) {
	results := make([][]T, len(ids))
	errs := make([]error, len(ids))
	sem := make(chan struct{}, MaxPerServiceInFlight)
	var wg sync.WaitGroup
	var failed atomic.Bool
	for i, id := range ids {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil || failed.Load() {
			break // no point asking the rest
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out, err := fetch(ctx, id)
			if err != nil && !IsNotFound(err) {
				errs[i] = &ServiceError{ServiceID: id, Err: err}
				failed.Store(true)
				return
			}
			results[i] = out
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	var all []T
	for _, r := range results {
		all = append(all, r...)
	}
	return all, nil
}

// eachService calls fetch for every service ID, at most
// MaxPerServiceInFlight at a time, and returns once all have returned
// (or, the context ended, those started have).
func eachService(ctx context.Context, ids []string, fetch func(context.Context, string)) {
	sem := make(chan struct{}, MaxPerServiceInFlight)
	var wg sync.WaitGroup
	for _, id := range ids {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			fetch(ctx, id)
		}()
	}
	wg.Wait()
}

// ServiceError is the failure of one service's part of a view across
// services (its backups, its restores). Err keeps the answer's status,
// message and trace ID. ServiceName is the service's name where the
// services listing read with the view gave it ("" otherwise).
type ServiceError struct {
	ServiceID   string
	ServiceName string
	Err         error
}

func (e *ServiceError) Error() string { return "service " + e.Service() + ": " + e.Err.Error() }

// Service names the service: "orders-prod (dbt…)", or its ID alone.
func (e *ServiceError) Service() string {
	if e.ServiceName != "" && e.ServiceName != e.ServiceID {
		return e.ServiceName + " (" + e.ServiceID + ")"
	}
	return e.ServiceID
}

// Unwrap returns the service's error.
func (e *ServiceError) Unwrap() error { return e.Err }

// SweepFailure is a service whose restores listing failed in the last
// sweep: the restores the sweep gives for it are those of its last
// listing that did not fail, read at Since (zero: never read).
type SweepFailure struct {
	*ServiceError
	Since time.Time
}

// DefaultSettledInterval is how often a RestoreSweep asks again about a
// service none of whose restores is running.
const DefaultSettledInterval = 60 * time.Second

// RestoreSweep lists the restores of every service. On the interface
// document's prefix that is one call. On the live service it asks per
// service, and remembers: a service with a running restore is asked on
// every sweep (the poller sweeps fast while anything runs), a settled one
// only once Settled has passed since it was last asked. A RestoreSweep is
// safe for concurrent use; one serves one view.
type RestoreSweep struct {
	// Settled defaults to DefaultSettledInterval.
	Settled time.Duration
	// Now defaults to time.Now; tests replace it.
	Now func() time.Time

	mu   sync.Mutex
	last map[string]sweepEntry
	// ids and idsAt are the services listing, read again when a sweep is
	// fresh or the settled interval has passed.
	ids   []string
	names map[string]string
	idsAt time.Time
	// failed is what the last sweep said failed
	failed []SweepFailure
}

type sweepEntry struct {
	at       time.Time // of the last listing that did not fail (zero: none)
	restores []Restore
	// failed is why the last listing failed (nil: it did not); a failed
	// service is asked again on every sweep
	failed *ServiceError
}

func (e sweepEntry) running() bool {
	return slices.ContainsFunc(e.restores, func(r Restore) bool { return r.Running() })
}

// List returns the restores of the given services (every restore of the
// account on the interface document's prefix). With fresh set every service
// is asked, whatever was known: the first sweep of a view, a refresh the
// user asked for, and one after a change. A service whose listing failed
// fails the list: the error is the first in the order of serviceIDs, a
// *ServiceError (the other services' answers are still kept for the next
// sweep).
func (s *RestoreSweep) List(ctx context.Context, c *Client, serviceIDs []string, fresh bool) ([]Restore, error) {
	all, failed, err := s.sweep(ctx, c, serviceIDs, nil, fresh)
	if err == nil && len(failed) > 0 {
		return nil, failed[0].ServiceError
	}
	return all, err
}

// Partial sweeps as All, but a service whose listing failed fails only
// its own part: every other service's answer is used as it comes, and the
// failed one keeps the restores of its last listing that did not fail
// (none when it never had one); failed says which, in the order of the
// services listing, with why. err is for what leaves nothing to show: the
// services listing failed, or the context ended.
func (s *RestoreSweep) Partial(ctx context.Context, c *Client, fresh bool) (all []Restore, failed []SweepFailure, err error) {
	if !c.LiveBackup() {
		all, err = c.ListRestores(ctx, "")
		return all, nil, err
	}
	ids, names, err := s.services(ctx, c, fresh)
	if err != nil {
		return nil, nil, err
	}
	return s.sweep(ctx, c, ids, names, fresh)
}

// All returns the restores of every service of the account: on the live
// service it lists the services (again only when fresh, or once the
// settled interval has passed), then sweeps them (see List for fresh).
func (s *RestoreSweep) All(ctx context.Context, c *Client, fresh bool) ([]Restore, error) {
	all, failed, err := s.Partial(ctx, c, fresh)
	if err == nil && len(failed) > 0 {
		return nil, failed[0].ServiceError
	}
	return all, err
}

// services is the services listing's IDs and names, read again only when
// fresh or once the settled interval has passed.
func (s *RestoreSweep) services(ctx context.Context, c *Client, fresh bool) ([]string, map[string]string, error) {
	s.mu.Lock()
	ids, names, at := s.ids, s.names, s.idsAt
	s.mu.Unlock()
	if !fresh && ids != nil && s.now().Sub(at) < s.settled() {
		return ids, names, nil
	}
	svcs, err := c.ListServices(ctx)
	if err != nil {
		return nil, nil, err
	}
	ids = make([]string, 0, len(svcs))
	names = make(map[string]string, len(svcs))
	for _, sv := range svcs {
		if sv.ID != "" {
			ids = append(ids, sv.ID)
			names[sv.ID] = sv.Name
		}
	}
	s.mu.Lock()
	s.ids, s.names, s.idsAt = ids, names, s.now()
	s.mu.Unlock()
	return ids, names, nil
}

// sweep asks the services due (every one when fresh; see RestoreSweep)
// and keeps each answer as it comes, whatever the others answer.
func (s *RestoreSweep) sweep(ctx context.Context, c *Client, serviceIDs []string, names map[string]string, fresh bool) ([]Restore, []SweepFailure, error) {
	if !c.LiveBackup() {
		all, err := c.ListRestores(ctx, "")
		return all, nil, err
	}
	now, settled := s.now, s.settled()
	s.mu.Lock()
	if s.last == nil {
		s.last = map[string]sweepEntry{}
	}
	var ask []string
	t := now()
	for _, id := range serviceIDs {
		e, ok := s.last[id]
		if fresh || !ok || e.failed != nil || e.running() || t.Sub(e.at) >= settled {
			ask = append(ask, id)
		}
	}
	s.mu.Unlock()

	got := make(map[string][]Restore, len(ask))
	errs := map[string]error{}
	var mu sync.Mutex
	eachService(ctx, ask, func(ctx context.Context, id string) {
		rs, err := c.ListRestores(ctx, id)
		mu.Lock()
		defer mu.Unlock()
		if err == nil || IsNotFound(err) { // a service gone by now has none
			got[id] = rs
		} else {
			errs[id] = err
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	t = now()
	for id, rs := range got {
		s.last[id] = sweepEntry{at: t, restores: rs}
	}
	for id, err := range errs {
		e := s.last[id] // its last rows stay, with when they were read
		e.failed = &ServiceError{ServiceID: id, ServiceName: names[id], Err: err}
		s.last[id] = e
	}
	keep := make(map[string]sweepEntry, len(serviceIDs))
	var all []Restore
	var failed []SweepFailure
	for _, id := range serviceIDs {
		e, ok := s.last[id]
		if !ok {
			continue
		}
		keep[id] = e
		all = append(all, e.restores...)
		if e.failed != nil {
			failed = append(failed, SweepFailure{ServiceError: e.failed, Since: e.at})
		}
	}
	s.last = keep // services gone from the list are forgotten
	s.failed = failed
	return all, failed, nil
}

// Failed is the services whose restores listing failed in the last sweep,
// as it gave them (the restores it gave for them are from Since).
func (s *RestoreSweep) Failed() []SweepFailure {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.failed)
}

func (s *RestoreSweep) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

func (s *RestoreSweep) settled() time.Duration {
	if s.Settled > 0 {
		return s.Settled
	}
	return DefaultSettledInterval
}
