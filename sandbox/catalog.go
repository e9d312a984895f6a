package sandbox

import (
	"crypto/sha1"
	"fmt"
	"slices"
	"strings"

	"github.com/skytui/skytui/api"
)

// The option listings of the create-service form: plausible, realistic data
// in the live service's shapes. They are fixed; the create call checks its
// values against them.

// fakeUUID is a stable UUID-shaped identifier derived from parts.
func fakeUUID(parts ...string) string {
	h := sha1.Sum([]byte(strings.Join(parts, "\x00")))
	return fmt.Sprintf("%x-%x-%x-%x-%x", h[0:4], h[4:6], h[6:8], h[8:10], h[10:16])
}

type catalogT struct {
	providers    []api.Provider
	regions      []api.Region
	serviceTypes []api.ServiceType
	topologies   []api.Topology
	sizes        []sizeOption
	versions     []api.Version
	storage      map[string][]api.StorageSizes // by topology
}

type sizeOption struct {
	name, cpu, ram, tier string
	archs                []string // architectures offered
	providers            []string // providers offered
}

var catalog = buildCatalog()

// armClouds offer arm64 sizes (AWS Graviton, GCP Tau T2A); Azure does not.
var armClouds = []string{"aws", "gcp"}

func buildCatalog() *catalogT {
	c := &catalogT{storage: map[string][]api.StorageSizes{}}
	for _, p := range []struct{ name, display string }{{"aws", "Amazon AWS"}, {"gcp", "Google Cloud"}, {"azure", "Microsoft Azure"}} {
		c.providers = append(c.providers, api.Provider{ID: fakeUUID("provider", p.name), Name: p.name, DisplayName: p.display, Default: p.name == "aws"})
	}
	for _, r := range []struct{ provider, name, geo string }{
		{"aws", "us-east-1", "North America"}, {"aws", "us-west-2", "North America"}, {"aws", "eu-west-1", "EMEA"}, {"aws", "ap-southeast-1", "APAC"},
		{"gcp", "us-central1", "North America"}, {"gcp", "us-east4", "North America"}, {"gcp", "europe-west1", "EMEA"}, {"gcp", "asia-southeast1", "APAC"},
		{"azure", "eastus", "North America"}, {"azure", "westus2", "North America"}, {"azure", "westeurope", "EMEA"},
	} {
		c.regions = append(c.regions, api.Region{ID: fakeUUID("region", r.provider, r.name), Name: r.name, Region: r.geo, Provider: r.provider,
			Default: r.name == "us-east-1" || r.name == "us-central1" || r.name == "eastus"})
	}
	c.serviceTypes = []api.ServiceType{
		{ID: fakeUUID("service-type", "transactional"), Name: "transactional", DisplayName: "Transactions", ShortDescription: "MariaDB Enterprise Server for OLTP workloads"},
		{ID: fakeUUID("service-type", "transactional_serverless"), Name: "transactional_serverless", DisplayName: "Serverless Transactions", ShortDescription: "MariaDB Enterprise Server that scales with load"},
	}
	for _, t := range []struct{ name, display, st string }{
		{"es-single", "Enterprise Server Single Node", "transactional"},
		{"es-replica", "Enterprise Server With Replica(s)", "transactional"},
		{"sa", "Single Node Transactions (legacy)", "transactional"},
		{"serverless-standalone", "Serverless Single Node", "transactional_serverless"},
	} {
		c.topologies = append(c.topologies, api.Topology{ID: fakeUUID("topology", t.name), Name: t.name, DisplayName: t.display, ServiceType: t.st})
	}
	all := []string{"aws", "gcp", "azure"}
	c.sizes = []sizeOption{
		{"sky-2x8", "2 vCPU", "8 GB", "foundation", []string{"amd64", "arm64"}, all},
		{"sky-4x16", "4 vCPU", "16 GB", "foundation", []string{"amd64", "arm64"}, all},
		{"sky-4x32", "4 vCPU", "32 GB", "power", []string{"amd64"}, all},
		{"sky-8x32", "8 vCPU", "32 GB", "power", []string{"amd64", "arm64"}, all},
		{"sky-8x64", "8 vCPU", "64 GB", "power", []string{"amd64"}, all},
		{"sky-16x64", "16 vCPU", "64 GB", "power", []string{"amd64", "arm64"}, all},
		{"sky-32x128", "32 vCPU", "128 GB", "power", []string{"amd64"}, all},
	}
	for _, topo := range []string{"es-single", "es-replica", "sa", "serverless-standalone"} {
		for _, v := range []struct {
			name, version string
			def           bool
		}{{"11.4.2-1", "11.4.2", true}, {"10.11.8-1", "10.11.8", false}, {"10.6.18-1", "10.6.18", false}} {
			if topo == "serverless-standalone" && !v.def {
				continue
			}
			c.versions = append(c.versions, api.Version{ID: fakeUUID("version", topo, v.name), Name: v.name, Version: v.version,
				DisplayName: "MariaDB Enterprise Server " + v.version, Topology: topo, Default: v.def})
		}
		sizes := []int{100, 200, 300, 400, 500, 1000, 1500, 2000}
		if topo == "serverless-standalone" {
			sizes = []int{100}
		}
		c.storage[topo] = []api.StorageSizes{
			{ID: fakeUUID("storage", topo, "foundation"), Tier: "foundation", Topology: topo, StorageSizes: sizes},
			{ID: fakeUUID("storage", topo, "power"), Tier: "power", Topology: topo, StorageSizes: sizes},
		}
	}
	return c
}

func (c *catalogT) provider(name string) bool {
	return slices.ContainsFunc(c.providers, func(p api.Provider) bool { return p.Name == name })
}

// matching is the items whose field is want (every item when want is ""),
// a new slice, never nil.
func matching[T any](all []T, want string, field func(T) string) []T {
	out := []T{}
	for _, x := range all {
		if want == "" || field(x) == want {
			out = append(out, x)
		}
	}
	return out
}

func (c *catalogT) regionsOf(provider string) []api.Region {
	return matching(c.regions, provider, func(r api.Region) string { return r.Provider })
}

func (c *catalogT) topology(name string) (api.Topology, bool) {
	for _, t := range c.topologies {
		if t.Name == name {
			return t, true
		}
	}
	return api.Topology{}, false
}

func (c *catalogT) serviceType(name string) bool {
	return slices.ContainsFunc(c.serviceTypes, func(s api.ServiceType) bool { return s.Name == name })
}

// sizesFor lists sizes offered for the filters ("" matches all).
func (c *catalogT) sizesFor(provider, topology, arch, serviceType string) []api.Size {
	var out []api.Size
	for _, s := range c.sizes {
		for _, p := range s.providers {
			if provider != "" && p != provider {
				continue
			}
			for _, a := range s.archs {
				if (arch != "" && a != arch) || (a == "arm64" && !slices.Contains(armClouds, p)) {
					continue
				}
				st := "transactional"
				if topology == "serverless-standalone" || serviceType == "transactional_serverless" {
					st = "transactional_serverless"
				}
				if serviceType != "" && serviceType != st {
					continue
				}
				out = append(out, api.Size{ID: fakeUUID("size", s.name, p, a), Name: s.name, DisplayName: "Sky-" + strings.TrimPrefix(s.name, "sky-"),
					CPU: s.cpu, RAM: s.ram, Provider: p, Topology: topology, Architecture: a, ServiceType: st, Tier: s.tier})
			}
		}
	}
	return out
}

func (c *catalogT) versionsFor(topology string) []api.Version {
	return matching(c.versions, topology, func(v api.Version) string { return v.Topology })
}

func (c *catalogT) defaultVersion(topology string) string {
	for _, v := range c.versionsFor(topology) {
		if v.Default {
			return v.Name
		}
	}
	return ""
}

// maxNodes is the node limit of a topology: the API's rule (api.NodeRange),
// one node for a topology it does not know.
func maxNodes(topology string) (lo, hi int) {
	if lo, hi, known := api.NodeRange(topology); known {
		return lo, hi
	}
	return 1, 1
}

// allowListLimit is the live limit of allow-list entries per provider.
func allowListLimit(provider string) int {
	if provider == "gcp" {
		return 200
	}
	return 30
}

// checkCreate checks a create request's values against the listings; api's
// Validate has already checked their presence and form.
func (c *catalogT) checkCreate(r *api.CreateServiceRequest) error {
	var v api.ValidationErrors
	add := func(field, format string, a ...any) {
		v = append(v, &api.FieldError{Field: field, Rule: fmt.Sprintf(format, a...)})
	}
	if !c.serviceType(r.ServiceType) {
		add("service_type", "unknown service type %q (see GET /provisioning/v1/service-types)", r.ServiceType)
	}
	topo, ok := c.topology(r.Topology)
	switch {
	case !ok:
		add("topology", "unknown topology %q (see GET /provisioning/v1/topologies)", r.Topology)
	case c.serviceType(r.ServiceType) && topo.ServiceType != r.ServiceType:
		add("topology", "topology %q is not offered for service type %q", r.Topology, r.ServiceType)
	}
	if c.provider(r.Provider) && !slices.ContainsFunc(c.regionsOf(r.Provider), func(x api.Region) bool { return x.Name == r.Region }) {
		add("region", "unknown region %q for provider %s (see GET /provisioning/v1/regions?provider=%s)", r.Region, r.Provider, r.Provider)
	}
	if r.Architecture != "amd64" && r.Architecture != "arm64" {
		add("architecture", "must be amd64 or arm64 (got %q)", r.Architecture)
	} else if c.provider(r.Provider) {
		if len(c.sizesFor(r.Provider, "", r.Architecture, "")) == 0 {
			add("architecture", "%s is not offered on %s", r.Architecture, r.Provider)
		} else if !slices.ContainsFunc(c.sizesFor(r.Provider, r.Topology, r.Architecture, ""), func(s api.Size) bool { return s.Name == r.Size }) {
			add("size", "unknown size %q for %s on %s (see GET /provisioning/v1/sizes)", r.Size, r.Architecture, r.Provider)
		}
	}
	if ok {
		if sizes, found := c.storage[r.Topology]; found && r.Storage > 0 && !slices.Contains(sizes[0].StorageSizes, r.Storage) {
			add("storage", "%d GB is not offered for %s; choose one of %v", r.Storage, r.Topology, sizes[0].StorageSizes)
		}
		if lo, hi := maxNodes(r.Topology); r.Nodes >= 1 && (r.Nodes < lo || r.Nodes > hi) {
			if lo == hi {
				add("nodes", "topology %s has exactly %d node", r.Topology, lo)
			} else {
				add("nodes", "topology %s has %d to %d nodes", r.Topology, lo, hi)
			}
		}
		if r.Version != "" && !slices.ContainsFunc(c.versionsFor(r.Topology), func(x api.Version) bool { return x.Name == r.Version }) {
			add("version", "unknown version %q for %s (see GET /provisioning/v1/versions?topology=%s)", r.Version, r.Topology, r.Topology)
		}
	}
	if c.provider(r.Provider) && len(r.AllowList) > allowListLimit(r.Provider) {
		add("allow_list", "has %d entries; %s allows at most %d", len(r.AllowList), r.Provider, allowListLimit(r.Provider))
	}
	seen := map[string]bool{}
	for i, e := range r.AllowList {
		n := api.NormalizeAllowListIP(e.IP)
		if seen[n] {
			add(fmt.Sprintf("allow_list[%d].ip", i), "%s is listed twice", n)
		}
		seen[n] = true
	}
	return v.Err()
}
