package sandbox

import (
	"encoding/base64"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/skytui/skytui/api"
)

// ---- provisioning: services ----

const servicePageMax = 100

// pageToken is an opaque token for an offset into the service listing.
func pageToken(offset int) string {
	return base64.RawURLEncoding.EncodeToString([]byte("svc:" + strconv.Itoa(offset)))
}

func parsePageToken(tok string) (int, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(tok)
	if err != nil || !strings.HasPrefix(string(raw), "svc:") {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimPrefix(string(raw), "svc:"))
	return n, err == nil && n >= 0
}

// GET /services: a bare array, paged with page_size (1..100, default 100)
// and page_token; the next token is in X-SkySQL-Page-Token-Next.
func hListServices(st *store, c *reqCtx) (int, any, *apiError) {
	q := c.r.URL.Query()
	size := servicePageMax
	if v := q.Get("page_size"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > servicePageMax {
			return 0, nil, errf(http.StatusBadRequest, "page_size", "page_size: must be an integer from 1 to %d (got %q)", servicePageMax, v)
		}
		size = n
	}
	offset := 0
	if tok := q.Get("page_token"); tok != "" {
		n, ok := parsePageToken(tok)
		if !ok {
			return 0, nil, errf(http.StatusBadRequest, "page_token", "page_token: %q is not a page token of this listing", tok)
		}
		offset = n
	}
	list := slices.Clone(st.order)
	switch q.Get("page_order") {
	case "", "asc":
	case "desc":
		slices.Reverse(list)
	default:
		return 0, nil, errf(http.StatusBadRequest, "page_order", "page_order: must be asc or desc")
	}
	out := []api.Service{}
	for i := offset; i < len(list) && i < offset+size; i++ {
		out = append(out, st.render(list[i]))
	}
	if offset > 0 {
		prev := max(0, offset-size)
		c.header.Set("X-SkySQL-Page-Token-Previous", pageToken(prev))
	}
	if offset+size < len(list) {
		c.header.Set("X-SkySQL-Page-Token-Next", pageToken(offset+size))
	}
	return http.StatusOK, out, nil
}

func hGetService(st *store, c *reqCtx) (int, any, *apiError) {
	s, err := st.service(c.params["id"])
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, st.render(s), nil
}

// POST /services: 202 with the record, status pending_create.
func hCreateService(st *store, c *reqCtx) (int, any, *apiError) {
	var req api.CreateServiceRequest
	if err := decodeValid(c, &req); err != nil {
		return 0, nil, err
	}
	if err := catalog.checkCreate(&req); err != nil {
		return 0, nil, validation(err)
	}
	s := st.addService(req, c.now)
	return http.StatusAccepted, st.render(s), nil
}

func hCredentials(st *store, c *reqCtx) (int, any, *apiError) {
	s, err := st.service(c.params["id"])
	if err != nil {
		return 0, nil, err
	}
	if s.status != statusReady {
		e := errf(http.StatusConflict, "service_id", "credentials are available once the service is ready; service %s is %s", s.id, s.status)
		e.solution = "Poll the service until its status is ready."
		return 0, nil, e
	}
	return http.StatusOK, api.Credentials{Username: s.username, Password: s.password, Host: s.fqdn()}, nil
}

// ---- provisioning: allow list ----

func allowGroups(s *service) []api.AllowListGroup {
	return []api.AllowListGroup{{Name: "primary", AllowList: append([]api.AllowListEntry{}, s.allow...)}}
}

type ipAddressBody struct {
	IPAddress string `json:"ip_address"`
}

func hGetAllowList(st *store, c *reqCtx) (int, any, *apiError) {
	s, err := st.service(c.params["id"])
	if err != nil {
		return 0, nil, err
	}
	return http.StatusOK, allowGroups(s), nil
}

// renamed re-labels api's "ip" rule for the field the request used.
func renamed(err error, field string) error {
	var fe *api.FieldError
	if errors.As(err, &fe) {
		return &api.FieldError{Field: field, Rule: fe.Rule}
	}
	return err
}

// allowListIP finds the service whose allow list one address is added to
// or removed from (allowListTarget), and reads that address from the body.
func allowListIP(st *store, c *reqCtx) (*service, string, *apiError) {
	s, err := changeableService(st, c)
	if err != nil {
		return nil, "", err
	}
	var body ipAddressBody
	if err := decodeBody(c, &body); err != nil {
		return nil, "", err
	}
	if err := api.ValidateAllowListIP(body.IPAddress); err != nil {
		return nil, "", validation(renamed(err, "ip_address"))
	}
	return s, api.NormalizeAllowListIP(body.IPAddress), nil
}

func indexOfIP(list []api.AllowListEntry, ip string) int {
	return slices.IndexFunc(list, func(e api.AllowListEntry) bool { return api.NormalizeAllowListIP(e.IP) == ip })
}

func fullError(s *service, location string) *apiError {
	e := errf(http.StatusBadRequest, location, "the allow list of %s is full: %s allows at most %d entries", s.id, s.provider, allowListLimit(s.provider))
	e.solution = "Remove an entry, or allow a wider network that covers several addresses."
	return e
}

func hAddAllowList(st *store, c *reqCtx) (int, any, *apiError) {
	s, ip, err := allowListIP(st, c)
	if err != nil {
		return 0, nil, err
	}
	if indexOfIP(s.allow, ip) >= 0 {
		return 0, nil, errf(http.StatusConflict, "ip_address", "%s is already in the allow list of %s", ip, s.id)
	}
	if len(s.allow) >= allowListLimit(s.provider) {
		return 0, nil, fullError(s, "ip_address")
	}
	s.allow = append(s.allow, api.AllowListEntry{IP: ip})
	s.updated = c.now
	return http.StatusOK, allowGroups(s), nil
}

func hRemoveAllowList(st *store, c *reqCtx) (int, any, *apiError) {
	s, ip, err := allowListIP(st, c)
	if err != nil {
		return 0, nil, err
	}
	i := indexOfIP(s.allow, ip)
	if i < 0 {
		return 0, nil, errf(http.StatusNotFound, "ip_address", "%s is not in the allow list of %s", ip, s.id)
	}
	s.allow = slices.Delete(s.allow, i, i+1)
	s.updated = c.now
	return http.StatusOK, allowGroups(s), nil
}

func hReplaceAllowList(st *store, c *reqCtx) (int, any, *apiError) {
	s, err := changeableService(st, c)
	if err != nil {
		return 0, nil, err
	}
	var items []api.AllowListEntry
	if err := decodeBody(c, &items); err != nil {
		return 0, nil, err
	}
	var v api.ValidationErrors
	seen := map[string]bool{}
	out := make([]api.AllowListEntry, 0, len(items))
	for i, e := range items {
		field := "[" + strconv.Itoa(i) + "].ip"
		if err := api.ValidateAllowListIP(e.IP); err != nil {
			v = append(v, renamed(err, field).(*api.FieldError))
			continue
		}
		ip := api.NormalizeAllowListIP(e.IP)
		if seen[ip] {
			v = append(v, &api.FieldError{Field: field, Rule: ip + " is listed twice"})
			continue
		}
		seen[ip] = true
		out = append(out, api.AllowListEntry{IP: ip, Comment: e.Comment})
	}
	if len(v) > 0 {
		return 0, nil, validation(v)
	}
	if len(out) > allowListLimit(s.provider) {
		return 0, nil, fullError(s, "body")
	}
	s.allow = out
	s.updated = c.now
	return http.StatusOK, allowGroups(s), nil
}

// ---- provisioning: option listings (bare arrays) ----

func hProviders(_ *store, c *reqCtx) (int, any, *apiError) {
	return http.StatusOK, matching(catalog.providers, c.r.URL.Query().Get("name"), func(p api.Provider) string { return p.Name }), nil
}

func hRegions(_ *store, c *reqCtx) (int, any, *apiError) {
	p := c.r.URL.Query().Get("provider")
	if p != "" {
		if err := api.ValidateProvider(p); err != nil {
			return 0, nil, validation(err)
		}
	}
	return http.StatusOK, catalog.regionsOf(p), nil
}

func hServiceTypes(_ *store, _ *reqCtx) (int, any, *apiError) {
	return http.StatusOK, catalog.serviceTypes, nil
}

func hTopologies(_ *store, c *reqCtx) (int, any, *apiError) {
	return http.StatusOK, matching(catalog.topologies, c.r.URL.Query().Get("service_type"), func(t api.Topology) string { return t.ServiceType }), nil
}

func hSizes(_ *store, c *reqCtx) (int, any, *apiError) {
	q := c.r.URL.Query()
	arch := q.Get("architecture")
	if arch != "" && arch != "amd64" && arch != "arm64" {
		return 0, nil, errf(http.StatusBadRequest, "architecture", "architecture: must be amd64 or arm64 (got %q)", arch)
	}
	topo := q.Get("topology")
	if topo != "" {
		if _, ok := catalog.topology(topo); !ok {
			return http.StatusOK, []api.Size{}, nil
		}
	}
	return http.StatusOK, append([]api.Size{}, catalog.sizesFor(q.Get("provider"), topo, arch, q.Get("service_type"))...), nil
}

func hVersions(_ *store, c *reqCtx) (int, any, *apiError) {
	return http.StatusOK, catalog.versionsFor(c.r.URL.Query().Get("topology")), nil
}

func hStorageSizes(_ *store, c *reqCtx) (int, any, *apiError) {
	t := c.params["topology"]
	sizes, ok := catalog.storage[t]
	if !ok {
		return 0, nil, errf(http.StatusNotFound, "topology_name", "topology %q not found", t)
	}
	return http.StatusOK, sizes, nil
}
