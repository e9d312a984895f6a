// The managed replication calls of Client: the service's own replication
// (POST and DELETE .../services/{id}/replication, GET .../replicas), as
// opposed to the sky procedures run over SQL (api/replsetup). None is
// retried blindly (the DELETE only after reading the replica again); each
// validates before it sends.

package api

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// Managed replication types (replication_type).
const (
	ReplicationUni = "uni-directional"
	ReplicationBi  = "bi-directional"
)

// ReplicationTypes are the replication types the API accepts.
var ReplicationTypes = []string{ReplicationUni, ReplicationBi}

// ManagedReplication is the body of POST .../replication and its answer:
// the service of the path becomes a replica of PrimaryHost.
type ManagedReplication struct {
	Meta
	PrimaryHost     string `json:"primary_host"`
	ReplicationType string `json:"replication_type"`
}

// validate checks a managed replication request for replica id.
func (r *ManagedReplication) validate(id string) error {
	var errs ValidationErrors
	if err := ValidateServiceID(id); err != nil {
		errs = append(errs, err.(*FieldError))
	}
	if err := ValidateServiceID(r.PrimaryHost); err != nil {
		fe := err.(*FieldError)
		errs = append(errs, rule("primary_host", "%s", fe.Rule))
	} else if r.PrimaryHost == id {
		errs = append(errs, rule("primary_host", "must be another service than the replica %s", id))
	}
	if err := ValidateReplicationType(r.ReplicationType); err != nil {
		errs = append(errs, err.(*FieldError))
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// ValidateReplicationType checks a replication type: uni-directional or
// bi-directional.
func ValidateReplicationType(t string) error {
	for _, x := range ReplicationTypes {
		if t == x {
			return nil
		}
	}
	if strings.TrimSpace(t) == "" {
		return rule("replication_type", "is required (%s)", strings.Join(ReplicationTypes, " or "))
	}
	return rule("replication_type", "%q is not one of %s", t, strings.Join(ReplicationTypes, ", "))
}

// StartManagedReplication makes service replicaID a replica of primaryID
// (POST .../services/{replica}/replication, 202). Never retried. An
// accepted answer that cannot be read is a record with Meta.Unreadable.
func (c *Client) StartManagedReplication(ctx context.Context, replicaID, primaryID, typ string) (*ManagedReplication, error) {
	req := ManagedReplication{PrimaryHost: primaryID, ReplicationType: typ}
	if err := req.validate(replicaID); err != nil {
		return nil, err
	}
	out := ManagedReplication{PrimaryHost: primaryID, ReplicationType: typ}
	why, err := c.change(ctx, http.MethodPost, c.servicePath(replicaID, "/replication"), req, &out)
	if err != nil {
		return nil, err
	}
	out.Unreadable = why
	return &out, nil
}

// EndManagedReplication ends a replica's managed replication (DELETE
// .../services/{replica}/replication). Its data stays; it no longer
// follows its primary. Never sent again blindly: after a lost answer (or
// a 429 or 5xx) the replica is read again, and one that says it no longer
// replicates has ended (nil), not failed on the 400 ("has no managed
// replication") a second DELETE would get.
func (c *Client) EndManagedReplication(ctx context.Context, replicaID string) error {
	if err := ValidateServiceID(replicaID); err != nil {
		return err
	}
	_, err := c.remove(ctx, c.servicePath(replicaID, "/replication"), nil, nil, func(ctx context.Context) (bool, error) {
		s, err := c.GetService(ctx, replicaID)
		if err != nil {
			return false, err
		}
		return replicationEnded(s), nil
	})
	return err
}

// replicationEnded reports that a replica's record shows it no longer
// replicates: no primary, and replication not enabled. A record without a
// primary that still says replication_enabled (primary_host is optional)
// is not taken as the end: the failure stands.
func replicationEnded(s *Service) bool {
	return ManagedReplicaOf(s) == "" && !s.ReplicationEnabled
}

// ListReplicas lists the services that are managed replicas of service
// id (GET .../services/{id}/replicas).
func (c *Client) ListReplicas(ctx context.Context, id string) ([]Service, error) {
	if err := ValidateServiceID(id); err != nil {
		return nil, err
	}
	path := c.servicePath(id, "/replicas")
	items, _, _, err := getList[Service](ctx, c, path, nil, "services", "data")
	if err != nil {
		return nil, err
	}
	return items, nil
}

// ManagedReplicaOf is the primary a service replicates from by managed
// replication ("" when it does not).
func ManagedReplicaOf(s *Service) string {
	if s == nil {
		return ""
	}
	return s.PrimaryHost
}

// ReplicationTypeText says what a replication type does.
func ReplicationTypeText(t string) string {
	switch t {
	case ReplicationUni:
		return "the replica follows the primary; writes go to the primary"
	case ReplicationBi:
		return "each replicates from the other; both take writes"
	}
	return fmt.Sprintf("unknown replication type %q", t)
}
