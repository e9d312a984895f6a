package sandbox

import (
	"sort"

	"github.com/skytui/skytui/internal/pathtmpl"
)

// The routes: each path of both prefixes (the interface document's and
// the live service's) with its handlers, and how a path finds its route.

type route struct {
	pattern string
	prefix  string
	segs    pathtmpl.Template
	methods map[string]handler
}

func (rt *route) allow() []string {
	var out []string
	for m := range rt.methods {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

func buildRoutes() []*route {
	var routes []*route
	add := func(prefix, p string, methods map[string]handler) {
		pattern := prefix + p
		routes = append(routes, &route{pattern: pattern, prefix: prefix, segs: pathtmpl.Parse(pattern), methods: methods})
	}
	P := provPrefix
	add(P, "/services", map[string]handler{"GET": hListServices, "POST": hCreateService})
	add(P, "/services/{id}", map[string]handler{"GET": hGetService, "DELETE": hDeleteService})
	add(P, "/services/{id}/stop", map[string]handler{"POST": hStopService})
	add(P, "/services/{id}/start", map[string]handler{"POST": hStartService})
	add(P, "/services/{id}/power", map[string]handler{"POST": hPowerService})
	add(P, "/services/{id}/nodes", map[string]handler{"POST": hSetNodes})
	add(P, "/services/{id}/size", map[string]handler{"POST": hSetSize})
	add(P, "/services/{id}/storage/size", map[string]handler{"PATCH": hSetStorageSize})
	add(P, "/services/{id}/security/ssl", map[string]handler{"PATCH": hSetSSL})
	add(P, "/services/{id}/security/is-ip-allowed", map[string]handler{"POST": hIsIPAllowed})
	add(P, "/services/{id}/security/credentials", map[string]handler{"GET": hCredentials})
	add(P, "/services/{id}/replication", map[string]handler{"POST": hStartManagedReplication, "DELETE": hEndManagedReplication})
	add(P, "/services/{id}/replicas", map[string]handler{"GET": hListReplicas})
	add(P, "/services/{id}/security/allowlist", map[string]handler{"GET": hGetAllowList, "POST": hAddAllowList, "DELETE": hRemoveAllowList, "PUT": hReplaceAllowList})
	add(P, "/providers", map[string]handler{"GET": hProviders})
	add(P, "/regions", map[string]handler{"GET": hRegions})
	add(P, "/service-types", map[string]handler{"GET": hServiceTypes})
	add(P, "/topologies", map[string]handler{"GET": hTopologies})
	add(P, "/topologies/{topology}/storage-sizes", map[string]handler{"GET": hStorageSizes})
	add(P, "/sizes", map[string]handler{"GET": hSizes})
	add(P, "/versions", map[string]handler{"GET": hVersions})
	for _, B := range []string{backupPrefix, liveBackupPrefix} {
		add(B, "/backups", map[string]handler{"GET": hListBackups})
		add(B, "/backups/schedules", map[string]handler{"GET": hListSchedules, "POST": hCreateSchedule})
		add(B, "/backups/schedules/{id}", map[string]handler{"GET": hGetSchedule, "DELETE": hDeleteSchedule, "PATCH": hUpdateSchedule})
		if B == backupPrefix { // the live service has no status call: 404 there
			add(B, "/backups/status", map[string]handler{"GET": hBackupStatus, "POST": hBackupStatus})
		}
		add(B, "/restores", map[string]handler{"GET": hListRestores, "POST": hCreateRestore})
		add(B, "/restores/{id}", map[string]handler{"GET": hGetRestore, "DELETE": hDeleteRestore})
		add(B, "/restores/lookup", map[string]handler{"POST": hRestoreLookup})
		add(B, "/restores/pointintime/lookup", map[string]handler{"GET": hPITRLookup})
	}
	return routes
}

// match finds the route of a path; literal segments win over parameters.
func (s *Server) match(path string) (*route, map[string]string, string) {
	best, params, ok := pathtmpl.Best(path, s.routes, func(rt *route) pathtmpl.Template { return rt.segs })
	if !ok {
		return nil, nil, ""
	}
	return best, params, best.prefix
}
