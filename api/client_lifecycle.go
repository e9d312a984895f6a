// The lifecycle calls of Client: stop, start, delete and scale a service,
// turn its SSL on or off, and ask whether an address is allowed. None is
// retried blindly (the delete only after reading the service again); each
// validates before it sends.

package api

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

func (c *Client) servicePath(id, sub string) string {
	return c.prov("/services/" + url.PathEscape(id) + sub)
}

// StopService stops a ready service (POST .../stop). Its connections drop.
func (c *Client) StopService(ctx context.Context, id string) error {
	if err := ValidateServiceID(id); err != nil {
		return err
	}
	_, err := c.change(ctx, http.MethodPost, c.servicePath(id, "/stop"), nil, nil)
	return err
}

// StartService starts a stopped service (POST .../start).
func (c *Client) StartService(ctx context.Context, id string) error {
	if err := ValidateServiceID(id); err != nil {
		return err
	}
	_, err := c.change(ctx, http.MethodPost, c.servicePath(id, "/start"), nil, nil)
	return err
}

// DeleteService deletes a service and its data (DELETE .../services/{id}).
// Sent again only when the service, read again, is neither gone nor being
// deleted.
func (c *Client) DeleteService(ctx context.Context, id string) error {
	if err := ValidateServiceID(id); err != nil {
		return err
	}
	_, err := c.remove(ctx, c.servicePath(id, ""), nil, nil, func(ctx context.Context) (bool, error) {
		s, err := c.GetService(ctx, id)
		return absent(err, func() bool { return StatusIs(s.Status, "pending_delete", "deleted", "retired") })
	})
	return err
}

type nodesBody struct {
	Nodes int `json:"nodes"`
}

type sizeBody struct {
	Size string `json:"size"`
}

type storageBody struct {
	Size int `json:"size"`
}

type sslBody struct {
	SSLEnabled bool `json:"ssl_enabled"`
}

// IPAllowed is the answer of IsIPAllowed.
type IPAllowed struct {
	IPAddress string `json:"ip_address"`
	IsAllowed bool   `json:"is_allowed"`
}

// ValidateNodes checks a node count: at least 1.
func ValidateNodes(n int) error {
	if n < 1 {
		return rule("nodes", "must be at least 1 (got %d)", n)
	}
	return nil
}

// SingleNode reports a topology of one node, by its name (es-single, sa,
// serverless-standalone): the option listings say nothing of node counts,
// so this is the one node rule the client knows; any other the API judges.
func SingleNode(topology string) bool {
	t := strings.ToLower(topology)
	return strings.Contains(t, "single") || strings.Contains(t, "standalone") || t == "sa"
}

// NodeRange is how many nodes a topology has, by the API's rule: es-replica
// 2 to 5, a single-node topology (SingleNode) exactly 1; known is false for
// any other, which the API judges. The sandbox applies the same rule.
func NodeRange(topology string) (lo, hi int, known bool) {
	switch {
	case SingleNode(topology):
		return 1, 1, true
	case strings.EqualFold(topology, "es-replica"):
		return 2, 5, true
	}
	return 1, 0, false
}

// ValidateStorageChange checks a new storage size against the current one:
// storage only grows.
func ValidateStorageChange(from, to int) error {
	switch {
	case to < 1:
		return rule("storage", "must be a positive size in GB (got %d)", to)
	case from > 0 && to <= from:
		return rule("storage", "can only grow: %d GB is not more than the current %d GB", to, from)
	}
	return nil
}

// StorageChoices are the sizes of a storage listing larger than the
// current one, ascending.
func StorageChoices(listing []StorageSizes, current int) []int {
	var out []int
	for _, l := range listing {
		for _, gb := range l.StorageSizes {
			if gb > current && !slices.Contains(out, gb) {
				out = append(out, gb)
			}
		}
	}
	slices.Sort(out)
	return out
}

// SetNodes changes a service's node count (POST .../nodes).
func (c *Client) SetNodes(ctx context.Context, id string, nodes int) error {
	if err := ValidateServiceID(id); err != nil {
		return err
	}
	if err := ValidateNodes(nodes); err != nil {
		return err
	}
	_, err := c.change(ctx, http.MethodPost, c.servicePath(id, "/nodes"), nodesBody{nodes}, nil)
	return err
}

// SetSize changes a service's instance size (POST .../size).
func (c *Client) SetSize(ctx context.Context, id, size string) error {
	if err := ValidateServiceID(id); err != nil {
		return err
	}
	if strings.TrimSpace(size) == "" {
		return rule("size", "is required")
	}
	_, err := c.change(ctx, http.MethodPost, c.servicePath(id, "/size"), sizeBody{size}, nil)
	return err
}

// SetStorageSize grows a service's storage to gb GB (PATCH .../storage/size).
func (c *Client) SetStorageSize(ctx context.Context, id string, gb int) error {
	if err := ValidateServiceID(id); err != nil {
		return err
	}
	if err := ValidateStorageChange(0, gb); err != nil {
		return err
	}
	_, err := c.change(ctx, http.MethodPatch, c.servicePath(id, "/storage/size"), storageBody{gb}, nil)
	return err
}

// SetSSL turns a service's SSL on or off (PATCH .../security/ssl).
func (c *Client) SetSSL(ctx context.Context, id string, on bool) error {
	if err := ValidateServiceID(id); err != nil {
		return err
	}
	_, err := c.change(ctx, http.MethodPatch, c.servicePath(id, "/security/ssl"), sslBody{on}, nil)
	return err
}

// IsIPAllowed asks whether an address may connect to a service (POST
// .../security/is-ip-allowed). It changes nothing. An answer that cannot
// be read is an error: there is nothing to show without it.
func (c *Client) IsIPAllowed(ctx context.Context, id, ip string) (*IPAllowed, error) {
	if err := ValidateServiceID(id); err != nil {
		return nil, err
	}
	if err := ValidateAllowListIP(ip); err != nil {
		return nil, err
	}
	path := c.servicePath(id, "/security/is-ip-allowed")
	var out IPAllowed
	why, err := c.change(ctx, http.MethodPost, path, ipAddressBody{ip}, &out)
	if err != nil {
		return nil, err
	}
	if why != "" {
		return nil, &Error{Method: http.MethodPost, Path: path, Err: fmt.Errorf("malformed response: %s", why)}
	}
	return &out, nil
}
