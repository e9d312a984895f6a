package sandbox

import (
	"net"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/skytui/skytui/api"
)

// ---- provisioning: the service lifecycle ----
//
// Stop, start, scale and delete put the service in a pending status for a
// while (timed on the sandbox clock, like a launch), then the change lands.
// Any change is refused with 409 "pending state" while a service is pending.

// Timing of the lifecycle, in sandbox time.
const (
	StopDuration   = 2 * time.Minute
	StartDuration  = 3 * time.Minute
	ScaleDuration  = 4 * time.Minute
	DeleteDuration = 90 * time.Second
)

// Lifecycle statuses.
const (
	statusPendingStop   = "pending_stop"
	statusPendingStart  = "pending_start"
	statusPendingScale  = "pending_scale"
	statusPendingDelete = "pending_delete"
)

// lifecycle is a change under way: at `at` the service becomes `to` (or is
// removed, for a delete) with the scaled values.
type lifecycle struct {
	at      time.Time
	to      string // the status at the end; "" removes the service
	nodes   int    // 0: unchanged
	size    string // "": unchanged
	storage int    // 0: unchanged
}

// beginLifecycle puts s in the pending status until d has passed.
func (st *store) beginLifecycle(s *service, pending string, d time.Duration, lc lifecycle, t time.Time) {
	lc.at = t.Add(d)
	s.lc = &lc
	s.status = pending
	s.updated = t
}

// finishLifecycle lands the change under way on s.
func (st *store) finishLifecycle(s *service, t time.Time) {
	lc := s.lc
	s.lc = nil
	if lc.to == "" {
		st.removeService(s, t)
		return
	}
	if lc.nodes > 0 {
		s.nodes = lc.nodes
	}
	if lc.size != "" {
		s.sz = lc.size
	}
	if lc.storage > 0 {
		s.storageGB = lc.storage
	}
	s.status = lc.to
	s.updated = t
}

// removeService forgets a deleted service and its schedules. Its backups
// stay listed, as the platform keeps them. The managed replication the
// platform configured to follow it (the other side of a bi-directional
// link) goes with it: nothing could end it afterwards.
func (st *store) removeService(s *service, t time.Time) {
	delete(st.services, s.id)
	st.order = slices.DeleteFunc(st.order, func(x *service) bool { return x == s })
	st.schedules = slices.DeleteFunc(st.schedules, func(sc *schedule) bool { return sc.serviceID == s.id })
	for _, x := range st.order {
		if x.managed == nil && x.repl != nil && x.repl.managed && x.repl.host == s.fqdn() {
			x.repl = nil
			x.updated = t
		}
	}
}

// runningRestoreInto is the running restore whose target is s, or nil.
func (st *store) runningRestoreInto(s *service) *restore {
	for _, r := range st.restores {
		if r.serviceID == s.id && r.status == jobRunning {
			return r
		}
	}
	return nil
}

// changeableService finds the service of the path and refuses one in a
// pending state (a change to it or to its allow list waits for the end).
func changeableService(st *store, c *reqCtx) (*service, *apiError) {
	s, err := st.service(c.params["id"])
	if err != nil {
		return nil, err
	}
	if s.pending() {
		return nil, pendingError(s)
	}
	return s, nil
}

// POST /services/{id}/stop and POST /services/{id}/power {"is_active": false}.
func hStopService(st *store, c *reqCtx) (int, any, *apiError) {
	if err := st.begin(c, statusReady, "stopped", statusPendingStop, StopDuration, lifecycle{to: statusStopped}, nil); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, struct{}{}, nil
}

// POST /services/{id}/start.
func hStartService(st *store, c *reqCtx) (int, any, *apiError) {
	if err := st.begin(c, statusStopped, "started", statusPendingStart, StartDuration, lifecycle{to: statusReady}, nil); err != nil {
		return 0, nil, err
	}
	return http.StatusOK, struct{}{}, nil
}

// begin starts a change of the service of the path that takes d: the
// service must be changeable (not pending) and in status from (else "only
// a <from> service can be <done>"); check, if not nil, refuses what the
// service cannot take; then it is pending until it reaches to.
func (st *store) begin(c *reqCtx, from, done, pending string, d time.Duration, to lifecycle, check func(s *service) *apiError) *apiError {
	s, err := changeableService(st, c)
	if err != nil {
		return err
	}
	if s.status != from {
		return errf(http.StatusConflict, "service_id", "service %s is %s; only a %s service can be %s", s.id, s.status, from, done)
	}
	if check != nil {
		if err := check(s); err != nil {
			return err
		}
	}
	st.beginLifecycle(s, pending, d, to, c.now)
	return nil
}

// requiredBool reads a JSON request body of one true-or-false field, name,
// with bodyField's refusals; a body without it is refused too, values
// saying what each value does.
func requiredBool(c *reqCtx, name, values string) (bool, *apiError) {
	v, err := bodyField[*bool](c, name)
	if err != nil {
		return false, err
	}
	if v == nil {
		return false, errf(http.StatusBadRequest, name, "%s: is required (%s)", name, values)
	}
	return *v, nil
}

// POST /services/{id}/power: {"is_active": true} starts, false stops.
func hPowerService(st *store, c *reqCtx) (int, any, *apiError) {
	active, err := requiredBool(c, "is_active", "true starts the service, false stops it")
	if err != nil {
		return 0, nil, err
	}
	if active {
		return hStartService(st, c)
	}
	return hStopService(st, c)
}

// DELETE /services/{id}.
func hDeleteService(st *store, c *reqCtx) (int, any, *apiError) {
	s, err := st.service(c.params["id"])
	if err != nil {
		return 0, nil, err
	}
	if r := st.runningRestoreInto(s); r != nil {
		e := errf(http.StatusConflict, "service_id", "service %s is the target of restore %d, which is still running; it cannot be deleted", s.id, r.id)
		e.solution = "Wait for the restore to finish, or cancel it, then delete the service."
		return 0, nil, e
	}
	if s.pending() {
		return 0, nil, pendingError(s)
	}
	st.beginLifecycle(s, statusPendingDelete, DeleteDuration, lifecycle{}, c.now)
	return http.StatusOK, struct{}{}, nil
}

// scale begins a scaling of the ready service of the path: check refuses
// a value the service cannot take, to is what changes, and the answer is
// status with echo, the value asked.
func (st *store) scale(c *reqCtx, status int, echo any, to lifecycle, check func(s *service) *apiError) (int, any, *apiError) {
	to.to = statusReady
	if err := st.begin(c, statusReady, "scaled", statusPendingScale, ScaleDuration, to, check); err != nil {
		return 0, nil, err
	}
	return status, echo, nil
}

// POST /services/{id}/nodes {"nodes": n}.
func hSetNodes(st *store, c *reqCtx) (int, any, *apiError) {
	nodes, err := bodyField[int](c, "nodes")
	if err != nil {
		return 0, nil, err
	}
	if err := api.ValidateNodes(nodes); err != nil {
		return 0, nil, validation(err)
	}
	return st.scale(c, http.StatusOK, map[string]int{"nodes": nodes}, lifecycle{nodes: nodes}, func(s *service) *apiError {
		lo, hi := maxNodes(s.topology)
		switch {
		case nodes < lo || nodes > hi:
			if lo == hi {
				return errf(http.StatusBadRequest, "nodes", "nodes: topology %s has exactly %d node", s.topology, lo)
			}
			return errf(http.StatusBadRequest, "nodes", "nodes: topology %s has %d to %d nodes", s.topology, lo, hi)
		case nodes == s.nodes:
			return errf(http.StatusBadRequest, "nodes", "nodes: service %s already has %d nodes", s.id, s.nodes)
		}
		return nil
	})
}

// POST /services/{id}/size {"size": "sky-4x16"}: one of the sizes listed
// for the service's provider, topology and architecture.
func hSetSize(st *store, c *reqCtx) (int, any, *apiError) {
	size, err := bodyField[string](c, "size")
	if err != nil {
		return 0, nil, err
	}
	if strings.TrimSpace(size) == "" {
		return 0, nil, errf(http.StatusBadRequest, "size", "size: is required")
	}
	return st.scale(c, http.StatusAccepted, map[string]string{"size": size}, lifecycle{size: size}, func(s *service) *apiError {
		switch {
		case !slices.ContainsFunc(catalog.sizesFor(s.provider, s.topology, s.arch, ""), func(x api.Size) bool { return x.Name == size }):
			return errf(http.StatusBadRequest, "size", "size: %q is not offered for %s %s on %s (see GET /provisioning/v1/sizes)", size, s.topology, s.arch, s.provider)
		case size == s.sz:
			return errf(http.StatusBadRequest, "size", "size: service %s is already %s", s.id, s.sz)
		}
		return nil
	})
}

// PATCH /services/{id}/storage/size {"size": GB}: only upward, to a size
// the storage listing of the topology offers.
func hSetStorageSize(st *store, c *reqCtx) (int, any, *apiError) {
	size, err := bodyField[int](c, "size")
	if err != nil {
		return 0, nil, err
	}
	return st.scale(c, http.StatusAccepted, map[string]int{"size": size}, lifecycle{storage: size}, func(s *service) *apiError {
		if err := api.ValidateStorageChange(s.storageGB, size); err != nil {
			fe := err.(*api.FieldError)
			return errf(http.StatusBadRequest, "size", "size: %s", fe.Rule)
		}
		if sizes, ok := catalog.storage[s.topology]; ok && !slices.Contains(sizes[0].StorageSizes, size) {
			return errf(http.StatusBadRequest, "size", "size: %d GB is not offered for %s; choose one of %v", size, s.topology, sizes[0].StorageSizes)
		}
		return nil
	})
}

// PATCH /services/{id}/security/ssl {"ssl_enabled": bool}: at once.
func hSetSSL(st *store, c *reqCtx) (int, any, *apiError) {
	on, err := requiredBool(c, "ssl_enabled", "true or false")
	if err != nil {
		return 0, nil, err
	}
	s, err := changeableService(st, c)
	if err != nil {
		return 0, nil, err
	}
	s.ssl = on
	s.updated = c.now
	return http.StatusOK, st.render(s), nil
}

// POST /services/{id}/security/is-ip-allowed {"ip_address": "..."}.
func hIsIPAllowed(st *store, c *reqCtx) (int, any, *apiError) {
	ipText, err := bodyField[string](c, "ip_address")
	if err != nil {
		return 0, nil, err
	}
	ip := net.ParseIP(strings.TrimSpace(ipText))
	if ip == nil {
		return 0, nil, errf(http.StatusBadRequest, "ip_address", "ip_address: %q is not an IP address", ipText)
	}
	s, err := st.service(c.params["id"])
	if err != nil {
		return 0, nil, err
	}
	allowed := false
	for _, e := range s.allow {
		if _, n, err := net.ParseCIDR(api.NormalizeAllowListIP(e.IP)); err == nil && n.Contains(ip) {
			allowed = true
			break
		}
	}
	return http.StatusOK, api.IPAllowed{IPAddress: ip.String(), IsAllowed: allowed}, nil
}
