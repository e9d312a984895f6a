// The provisioning calls of Client: services, their credentials and allow
// lists, and the option listings (providers, regions, sizes, versions…).

package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// ListServices returns every service, following page tokens.
func (c *Client) ListServices(ctx context.Context) ([]Service, error) {
	return tokenList[Service](ctx, c, c.prov("/services"), nil, "services", "data")
}

// GetService reads one service.
func (c *Client) GetService(ctx context.Context, id string) (*Service, error) {
	var s Service
	if err := c.get(ctx, c.prov("/services/"+url.PathEscape(id)), nil, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// CreateService validates and launches a service. Never retried.
func (c *Client) CreateService(ctx context.Context, req CreateServiceRequest) (*Service, error) {
	return create(ctx, c, c.prov("/services"), &req, func(why string) *Service {
		// what the request named; the ID and the status are not known
		s := &Service{Name: req.Name, Status: "pending_create", Provider: req.Provider, Region: req.Region,
			Topology: req.Topology, Size: req.Size, Nodes: req.Nodes}
		s.Unreadable = why
		return s
	})
}

// GetCredentials reads a ready service's default credentials.
func (c *Client) GetCredentials(ctx context.Context, id string) (*Credentials, error) {
	var cr Credentials
	if err := c.get(ctx, c.prov("/services/"+url.PathEscape(id)+"/security/credentials"), nil, &cr); err != nil {
		return nil, err
	}
	return &cr, nil
}

// GetAllowList reads a service's allow list, per endpoint. An empty or
// null answer is an error, not an empty allow list.
func (c *Client) GetAllowList(ctx context.Context, id string) ([]AllowListGroup, error) {
	return listOnce[AllowListGroup](ctx, c, c.prov("/services/"+url.PathEscape(id)+"/security/allowlist"))
}

type ipAddressBody struct {
	IPAddress string `json:"ip_address"`
}

// AddAllowListEntry adds one address or network. Never retried.
func (c *Client) AddAllowListEntry(ctx context.Context, id, ip string) ([]AllowListGroup, error) {
	if err := ValidateAllowListIP(ip); err != nil {
		return nil, err
	}
	var out []AllowListGroup
	if why, err := c.change(ctx, http.MethodPost, c.prov("/services/"+url.PathEscape(id)+"/security/allowlist"), ipAddressBody{NormalizeAllowListIP(ip)}, &out); err != nil || why != "" {
		return nil, err
	}
	return out, nil
}

// ErrAllowListsDiffer is SetAllowListComment's refusal, with nothing sent
// but the read, when the service's endpoints list different addresses.
var ErrAllowListsDiffer = errors.New("the service's endpoints have different allow lists")

// SetAllowListComment adds ip with a comment, or sets the comment of ip
// when it is listed already. POST takes no comment, so this reads the
// allow list and replaces it whole with PUT (`[{"ip","comment"}]`): a
// change someone else makes between the two is overwritten. The PUT names
// no endpoint, so when the service's endpoints list different addresses
// it is refused (ErrAllowListsDiffer) before anything is sent: one list
// for all would drop some endpoint's addresses or open another to them.
// Never retried.
func (c *Client) SetAllowListComment(ctx context.Context, id, ip, comment string) ([]AllowListGroup, error) {
	if err := ValidateAllowListIP(ip); err != nil {
		return nil, err
	}
	ip = NormalizeAllowListIP(ip)
	groups, err := c.GetAllowList(ctx, id)
	if err != nil {
		return nil, err
	}
	var entries []AllowListEntry
	if len(groups) > 0 {
		entries = append(entries, groups[0].AllowList...)
	}
	if err := sameAllowLists(groups); err != nil {
		return nil, err
	}
	found := false
	for i := range entries {
		if NormalizeAllowListIP(entries[i].IP) == ip {
			entries[i].Comment, found = comment, true
		}
	}
	if !found {
		entries = append(entries, AllowListEntry{IP: ip, Comment: comment})
	}
	var out []AllowListGroup
	if why, err := c.change(ctx, http.MethodPut, c.prov("/services/"+url.PathEscape(id)+"/security/allowlist"), entries, &out); err != nil || why != "" {
		return nil, err
	}
	return out, nil
}

// sameAllowLists reports, as ErrAllowListsDiffer naming the endpoints, a
// service whose endpoints do not list the same addresses.
func sameAllowLists(groups []AllowListGroup) error {
	set := func(g AllowListGroup) string {
		ips := make([]string, 0, len(g.AllowList))
		for _, e := range g.AllowList {
			ips = append(ips, NormalizeAllowListIP(e.IP))
		}
		slices.Sort(ips)
		return strings.Join(slices.Compact(ips), " ")
	}
	for _, g := range groups[min(1, len(groups)):] {
		if set(g) != set(groups[0]) {
			return fmt.Errorf("%w (%s lists %d addresses, %s lists %d): a comment is set by replacing the whole list, which names no endpoint; nothing was sent",
				ErrAllowListsDiffer, OrID(groups[0].Name, "first"), len(groups[0].AllowList), OrID(g.Name, "another"), len(g.AllowList))
		}
	}
	return nil
}

// RemoveAllowListEntry removes one address or network, ip as the allow
// list spells it (sent as it is, so the server finds its own entry). Sent
// again only when the allow list, read again, still has it (compared as
// networks); one read without it is the removal done, and what is
// returned.
func (c *Client) RemoveAllowListEntry(ctx context.Context, id, ip string) ([]AllowListGroup, error) {
	path := c.prov("/services/" + url.PathEscape(id) + "/security/allowlist")
	ip = strings.TrimSpace(ip)
	net := NormalizeAllowListIP(ip)
	var out []AllowListGroup
	gone := func(ctx context.Context) (bool, error) {
		groups, err := c.GetAllowList(ctx, id)
		if err != nil {
			return false, err
		}
		for _, g := range groups {
			for _, e := range g.AllowList {
				if NormalizeAllowListIP(e.IP) == net {
					return false, nil
				}
			}
		}
		out = groups
		return true, nil
	}
	if why, err := c.remove(ctx, path, ipAddressBody{ip}, &out, gone); err != nil || why != "" {
		return nil, err
	}
	return out, nil
}

// ListProviders lists the cloud providers.
func (c *Client) ListProviders(ctx context.Context) ([]Provider, error) {
	return listOnce[Provider](ctx, c, c.prov("/providers"))
}

// ListRegions lists the regions of a provider.
func (c *Client) ListRegions(ctx context.Context, provider string) ([]Region, error) {
	return listOptions[Region](ctx, c, c.prov("/regions"), optQuery("provider", provider))
}

// ListServiceTypes lists the service types.
func (c *Client) ListServiceTypes(ctx context.Context) ([]ServiceType, error) {
	return listOptions[ServiceType](ctx, c, c.prov("/service-types"), nil)
}

// ListTopologies lists the topologies of a service type.
func (c *Client) ListTopologies(ctx context.Context, serviceType string) ([]Topology, error) {
	return listOptions[Topology](ctx, c, c.prov("/topologies"), optQuery("service_type", serviceType))
}

// ListSizes lists instance sizes for a provider, topology and architecture.
func (c *Client) ListSizes(ctx context.Context, provider, topology, architecture string) ([]Size, error) {
	return listOptions[Size](ctx, c, c.prov("/sizes"), optQuery("provider", provider, "topology", topology, "architecture", architecture))
}

// ListVersions lists software versions of a topology.
func (c *Client) ListVersions(ctx context.Context, topology string) ([]Version, error) {
	return listOptions[Version](ctx, c, c.prov("/versions"), optQuery("topology", topology))
}

// ListStorageSizes lists storage sizes (GB) of a topology.
func (c *Client) ListStorageSizes(ctx context.Context, topology string) ([]StorageSizes, error) {
	return listOptions[StorageSizes](ctx, c, c.prov("/topologies/"+url.PathEscape(topology)+"/storage-sizes"), nil)
}
