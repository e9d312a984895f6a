package sandbox

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/skytui/skytui/api"
)

// ---- provisioning: managed replication ----
//
// The service's own replication, as the live service offers it beside the
// sky procedures: POST .../services/{replica}/replication makes the
// service of the path a replica of primary_host (uni- or bi-directional),
// DELETE of the same path ends it, GET .../services/{id}/replicas lists a
// service's replicas. The replica reports its primary (primary_host,
// replication_enabled); in SQLDemo its sky.replication_status() answers
// for the managed replication (a replica the platform configured: no
// allow list or grant on the user's side). A new link never replaces
// replication a service has already: it is refused (409) naming it.

// managedLink is a service's managed replication: it replicates from
// primary.
type managedLink struct {
	primary string
	typ     string // api.ReplicationUni or api.ReplicationBi
	since   time.Time
}

// managedUser is the replication user the platform creates for a replica.
const managedUser = "skysql_managed_"

// replicasOf are the services that replicate from s by managed
// replication; for bi-directional replication s's own primary too.
func (st *store) replicasOf(s *service) []*service {
	var out []*service
	for _, x := range st.order {
		if x.managed != nil && x.managed.primary == s.id {
			out = append(out, x)
		}
	}
	if s.managed != nil && s.managed.typ == api.ReplicationBi {
		if p, ok := st.services[s.managed.primary]; ok {
			out = append(out, p)
		}
	}
	return out
}

// managedFields fills what a service record says of managed replication.
func (st *store) managedFields(s *service, out *api.Service) {
	if s.managed != nil {
		out.PrimaryHost = s.managed.primary
		out.ReplicationEnabled = true
		return
	}
	for _, x := range st.order {
		if x.managed != nil && x.managed.primary == s.id {
			out.ReplicationEnabled = true
			return
		}
	}
}

// linkOf names the replication s has as a secondary: a managed link (the
// replica's, or the primary's side of a bi-directional one) or one set up
// with the sky procedures.
func (st *store) linkOf(s *service) string {
	switch {
	case s.managed != nil:
		return fmt.Sprintf("%s managed replication from %s", s.managed.typ, s.managed.primary)
	case s.repl == nil:
		return "none"
	case !s.repl.managed:
		return fmt.Sprintf("from %s:%d, set up with the sky procedures", s.repl.host, s.repl.port)
	}
	for _, x := range st.replicasOf(s) {
		if x.managed != nil && x.managed.typ == api.ReplicationBi && s.repl.host == x.fqdn() {
			return fmt.Sprintf("%s managed replication with %s", api.ReplicationBi, x.id)
		}
	}
	return "managed replication from " + s.repl.host
}

// managedReplica is the replication the platform configures on sec to
// follow pri from t: GTID from pri's position now, running.
func managedReplica(sec, pri *service, t time.Time) *replica {
	head := pri.binlogGTID(t)
	file, pos := binlogCoords(head.seq)
	return &replica{managed: true, host: pri.fqdn(), port: pri.ports.ReadWrite, useGTID: true,
		gtid: head.String(), start: head, startOK: true, ssl: pri.ssl,
		user: managedUser + sec.id, egress: sec.egress(), running: true,
		ioPos: head.String(), readFile: file, readPos: pos, execFile: file, execPos: pos, applied: head}
}

// readyForReplication refuses a service that is pending or not ready.
func readyForReplication(s *service, role string) *apiError {
	if s.pending() {
		return pendingError(s)
	}
	if s.status != statusReady {
		return errf(http.StatusConflict, "service_id", "the %s %s is %s; managed replication needs a ready service", role, s.id, s.status)
	}
	return nil
}

// POST /services/{id}/replication {"primary_host", "replication_type"}.
// Refused when the replica replicates already (managed, or by the sky
// procedures), and, for bi-directional, when the primary does.
func hStartManagedReplication(st *store, c *reqCtx) (int, any, *apiError) {
	var body api.ManagedReplication
	if err := decodeBody(c, &body); err != nil {
		return 0, nil, err
	}
	if err := api.ValidateReplicationType(body.ReplicationType); err != nil {
		return 0, nil, validation(err)
	}
	if strings.TrimSpace(body.PrimaryHost) == "" {
		return 0, nil, errf(http.StatusBadRequest, "primary_host", "primary_host: is required (the primary's service ID)")
	}
	sec, err := st.service(c.params["id"])
	if err != nil {
		return 0, nil, err
	}
	if err := readyForReplication(sec, "replica"); err != nil {
		return 0, nil, err
	}
	if body.PrimaryHost == sec.id {
		return 0, nil, errf(http.StatusBadRequest, "primary_host", "primary_host: a service cannot replicate from itself (%s)", sec.id)
	}
	pri, ok := st.services[body.PrimaryHost]
	if !ok {
		return 0, nil, errf(http.StatusNotFound, "primary_host", "primary_host: service %s not found", body.PrimaryHost)
	}
	if err := readyForReplication(pri, "primary"); err != nil {
		return 0, nil, err
	}
	switch {
	case sec.managed != nil:
		e := errf(http.StatusConflict, "service_id", "service %s already replicates from %s; end that replication first", sec.id, sec.managed.primary)
		e.solution = "DELETE /provisioning/v1/services/" + sec.id + "/replication, then set it up again."
		return 0, nil, e
	case pri.managed != nil:
		return 0, nil, errf(http.StatusConflict, "primary_host", "primary_host: %s is itself a replica of %s; choose a service that is not a replica", pri.id, pri.managed.primary)
	case len(st.replicasOf(sec)) > 0:
		return 0, nil, errf(http.StatusConflict, "service_id", "service %s is the primary of %s; a primary cannot become a replica", sec.id, st.replicasOf(sec)[0].id)
	case sec.repl != nil:
		return 0, nil, errf(http.StatusConflict, "service_id", "service %s already replicates (%s); end that replication first", sec.id, st.linkOf(sec))
	case body.ReplicationType == api.ReplicationBi && pri.repl != nil:
		return 0, nil, errf(http.StatusConflict, "primary_host", "primary_host: %s already replicates (%s); a bi-directional link would replace that: end it first, or set up a uni-directional one", pri.id, st.linkOf(pri))
	}
	sec.managed = &managedLink{primary: pri.id, typ: body.ReplicationType, since: c.now}
	sec.repl = managedReplica(sec, pri, c.now)
	sec.gtidSlavePos = sec.repl.gtid
	if body.ReplicationType == api.ReplicationBi {
		pri.repl = managedReplica(pri, sec, c.now)
	}
	sec.updated, pri.updated = c.now, c.now
	return http.StatusAccepted, api.ManagedReplication{PrimaryHost: pri.id, ReplicationType: body.ReplicationType}, nil
}

// DELETE /services/{id}/replication: the replica stops following its
// primary (and, for a bi-directional link, the primary it); its data
// stays. The primary's replication from anyone else is left as it is.
func hEndManagedReplication(st *store, c *reqCtx) (int, any, *apiError) {
	s, err := changeableService(st, c)
	if err != nil {
		return 0, nil, err
	}
	if s.managed == nil {
		if reps := st.replicasOf(s); len(reps) > 0 {
			return 0, nil, errf(http.StatusBadRequest, "service_id", "service %s is a primary, not a replica: end replication on its replica %s", s.id, reps[0].id)
		}
		return 0, nil, errf(http.StatusBadRequest, "service_id", "service %s has no managed replication", s.id)
	}
	// the primary's side is this link's only when it runs both ways
	if p, ok := st.services[s.managed.primary]; ok && s.managed.typ == api.ReplicationBi &&
		p.repl != nil && p.repl.managed && p.repl.host == s.fqdn() {
		p.repl = nil
		p.updated = c.now
	}
	if s.repl != nil && s.repl.managed {
		st.status(s, c.now) // what the threads had done until now
		s.repl = nil
	}
	s.managed = nil
	s.updated = c.now
	return http.StatusOK, struct{}{}, nil
}

// GET /services/{id}/replicas.
func hListReplicas(st *store, c *reqCtx) (int, any, *apiError) {
	s, err := st.service(c.params["id"])
	if err != nil {
		return 0, nil, err
	}
	out := []api.Service{}
	for _, r := range st.replicasOf(s) {
		out = append(out, st.render(r))
	}
	return http.StatusOK, out, nil
}
