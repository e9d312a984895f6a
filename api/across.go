package api

import (
	"context"
	"slices"
	"sync"
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
// skipped; any other error fails the sweep.
func perService[T any](ctx context.Context, ids []string, fetch func(context.Context, string) ([]T, error)) ([]T, error) {
	results := make([][]T, len(ids))
	errs := make([]error, len(ids))
	sem := make(chan struct{}, MaxPerServiceInFlight)
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for i, id := range ids {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			errs[i] = ctx.Err()
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out, err := fetch(ctx, id)
			if err != nil && !IsNotFound(err) {
				errs[i] = err
				cancel() // no point asking the rest
				return
			}
			results[i] = out
		}()
	}
	wg.Wait()
	// the first error in the order asked: one a failing call caused, not
	// the cancellations it set off
	for _, err := range errs {
		if err != nil && err != context.Canceled {
			return nil, err
		}
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
	idsAt time.Time
}

type sweepEntry struct {
	at       time.Time
	restores []Restore
}

func (e sweepEntry) running() bool {
	return slices.ContainsFunc(e.restores, func(r Restore) bool { return r.Running() })
}

// List returns the restores of the given services (every restore of the
// account on the interface document's prefix). With fresh set every service
// is asked, whatever was known: the first sweep of a view, a refresh the
// user asked for, and one after a change.
func (s *RestoreSweep) List(ctx context.Context, c *Client, serviceIDs []string, fresh bool) ([]Restore, error) {
	if !c.LiveBackup() {
		return c.ListRestores(ctx, "")
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
		if fresh || !ok || e.running() || t.Sub(e.at) >= settled {
			ask = append(ask, id)
		}
	}
	s.mu.Unlock()

	got := make(map[string][]Restore, len(ask))
	var mu sync.Mutex
	_, err := perService(ctx, ask, func(ctx context.Context, id string) ([]struct{}, error) {
		rs, err := c.ListRestores(ctx, id)
		if err == nil || IsNotFound(err) {
			mu.Lock()
			got[id] = rs
			mu.Unlock()
		}
		return nil, err
	})
	if err != nil {
		return nil, err
	}

	s.mu.Lock()
	defer s.mu.Unlock()
	t = now()
	for id, rs := range got {
		s.last[id] = sweepEntry{at: t, restores: rs}
	}
	keep := make(map[string]sweepEntry, len(serviceIDs))
	var all []Restore
	for _, id := range serviceIDs {
		if e, ok := s.last[id]; ok {
			keep[id] = e
			all = append(all, e.restores...)
		}
	}
	s.last = keep // services gone from the list are forgotten
	return all, nil
}

// All returns the restores of every service of the account: on the live
// service it lists the services (again only when fresh, or once the
// settled interval has passed), then sweeps them (see List for fresh).
func (s *RestoreSweep) All(ctx context.Context, c *Client, fresh bool) ([]Restore, error) {
	if !c.LiveBackup() {
		return c.ListRestores(ctx, "")
	}
	s.mu.Lock()
	ids, at := s.ids, s.idsAt
	s.mu.Unlock()
	if fresh || ids == nil || s.now().Sub(at) >= s.settled() {
		svcs, err := c.ListServices(ctx)
		if err != nil {
			return nil, err
		}
		ids = make([]string, 0, len(svcs))
		for _, sv := range svcs {
			if sv.ID != "" {
				ids = append(ids, sv.ID)
			}
		}
		s.mu.Lock()
		s.ids, s.idsAt = ids, s.now()
		s.mu.Unlock()
	}
	return s.List(ctx, c, ids, fresh)
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
