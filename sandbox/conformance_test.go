package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/internal/openapispec"
)

type exchange struct {
	method, path string
	r            *resp
}

func TestOpenAPIConformance(t *testing.T) {
	doc := openapispec.Load(t)

	var log []exchange
	h := newHarness(t, Options{DemoData: true, Seed: 11})
	h.record = func(method, path string, r *resp) { log = append(log, exchange{method, path, r}) }
	scenario(t, h)

	// The operations the sandbox implements and the spec describes: each
	// must be seen answering 2xx and an error.
	want := map[string]bool{}
	for _, op := range []string{
		"GET /provisioning/v1/services", "POST /provisioning/v1/services", "GET /provisioning/v1/services/{service_id}",
		"GET /provisioning/v1/services/{service_id}/security/credentials",
		"GET /provisioning/v1/services/{service_id}/security/allowlist", "POST /provisioning/v1/services/{service_id}/security/allowlist",
		"DELETE /provisioning/v1/services/{service_id}/security/allowlist", "PUT /provisioning/v1/services/{service_id}/security/allowlist",
		"GET /provisioning/v1/providers", "GET /provisioning/v1/regions", "GET /provisioning/v1/service-types", "GET /provisioning/v1/topologies",
		"GET /provisioning/v1/sizes", "GET /provisioning/v1/versions", "GET /provisioning/v1/topologies/{topology_name}/storage-sizes",
		"GET /skybackup/v1/backups", "GET /skybackup/v1/backups/schedules", "POST /skybackup/v1/backups/schedules",
		"GET /skybackup/v1/backups/schedules/{id}", "DELETE /skybackup/v1/backups/schedules/{id}",
		"PATCH /skybackup/v1/backups/schedules/{id}",
		"GET /skybackup/v1/restores", "POST /skybackup/v1/restores", "GET /skybackup/v1/restores/{id}", "DELETE /skybackup/v1/restores/{id}",
		"DELETE /provisioning/v1/services/{service_id}", "POST /provisioning/v1/services/{service_id}/stop",
		"POST /provisioning/v1/services/{service_id}/start", "POST /provisioning/v1/services/{service_id}/power",
		"POST /provisioning/v1/services/{service_id}/nodes", "POST /provisioning/v1/services/{service_id}/size",
		"PATCH /provisioning/v1/services/{service_id}/storage/size", "PATCH /provisioning/v1/services/{service_id}/security/ssl",
		"POST /provisioning/v1/services/{service_id}/security/is-ip-allowed",
		"GET /skybackup/v1/restores/pointintime/lookup", "POST /skybackup/v1/restores/lookup",
		"POST /provisioning/v1/services/{service_id}/replication", "DELETE /provisioning/v1/services/{service_id}/replication",
		"GET /provisioning/v1/services/{service_id}/replicas",
	} {
		want[op] = true
	}
	seenOK, seenErr := map[string]bool{}, map[string]bool{}
	errSchema := map[string]*openapi3.Schema{
		provPrefix:       doc.Components.Schemas["errr.ErrorResponse"].Value,
		liveBackupPrefix: doc.Components.Schemas["web.ErrorResponse"].Value,
	}
	checked := 0
	for _, ex := range log {
		prefix := ""
		for _, p := range []string{provPrefix, liveBackupPrefix} {
			if strings.HasPrefix(ex.path, p+"/") {
				prefix = p
			}
		}
		if prefix == "" {
			continue // /backup/v1 is not in the live spec
		}
		var tmpl string
		var item *openapi3.PathItem
		var op *openapi3.Operation
		route, params := openapispec.Find(doc, ex.method, ex.path)
		if route != nil {
			tmpl, item, op = route.Path, route.PathItem, route.Operation
		}
		name := ex.method + " " + tmpl
		if ex.r.status < 300 {
			seenOK[name] = true
		} else {
			seenErr[name] = true
		}
		where := fmt.Sprintf("%s %s → %d", ex.method, ex.path, ex.r.status)
		documented := op != nil && op.Responses.Status(ex.r.status) != nil
		if !documented {
			if ex.r.status < 300 {
				if item == nil || op == nil {
					continue // a route the spec lacks (such as /backups/status)
				}
				t.Errorf("%s: success status not in the spec", where)
				continue
			}
			// An error status the spec leaves out (409, 429, 405 ...):
			// the body must still be the interface's error document.
			var v any
			if err := json.Unmarshal(ex.r.body, &v); err != nil {
				t.Errorf("%s: %v", where, err)
				continue
			}
			if err := errSchema[prefix].VisitJSON(v, openapi3.EnableJSONSchema2020()); err != nil {
				t.Errorf("%s: error body does not match the spec's error schema: %v\n%s", where, err, ex.r.body)
			}
			checked++
			continue
		}
		req, _ := http.NewRequest(ex.method, "http://sandbox"+ex.path, nil)
		in := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{
				Request: req, PathParams: params,
				Route: route,
			},
			Status:  ex.r.status,
			Header:  ex.r.header,
			Body:    io.NopCloser(bytes.NewReader(ex.r.body)),
			Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
		}
		if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
			var me openapi3.MultiError
			if errors.As(err, &me) {
				err = me
			}
			t.Errorf("%s: %v\n%s", where, err, truncate(ex.r.body))
		}
		checked++
	}
	var missing []string
	for op := range want {
		if !seenOK[op] {
			missing = append(missing, op+" (2xx)")
		}
		if !seenErr[op] {
			missing = append(missing, op+" (error)")
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("scenario does not cover: %s", strings.Join(missing, ", "))
	}
	if checked < 100 {
		t.Errorf("only %d answers checked", checked)
	}
}

func truncate(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "…"
	}
	return string(b)
}

// scenario drives every route the spec covers through success and errors.
func scenario(t *testing.T, h *harness) {
	P, B := provPrefix, liveBackupPrefix
	var svcs []api.Service
	h.do("GET", P+"/services?page_size=3", nil).want(t, 200).decode(t, &svcs)
	h.do("GET", P+"/services", nil).want(t, 200).decode(t, &svcs)
	byName := map[string]api.Service{}
	for _, s := range svcs {
		byName[s.Name] = s
		h.do("GET", P+"/services/"+s.ID, nil)
		h.do("GET", P+"/services/"+s.ID+"/security/credentials", nil)
		h.do("GET", P+"/services/"+s.ID+"/security/allowlist", nil)
		h.do("GET", B+"/backups?service_id="+s.ID+"&page_size=1000", nil)
		h.do("GET", B+"/backups/schedules?service_id="+s.ID, nil)
	}
	orders, analytics, replica := byName[DemoOrders].ID, byName[DemoAnalytics].ID, byName[DemoReplica].ID
	pending := byName[DemoReporting].ID

	// Provisioning.
	h.do("GET", P+"/services?page_token=nonsense", nil)
	h.do("GET", P+"/services/dbtaf00000001", nil)
	h.do("GET", P+"/services/dbtaf00000001/security/credentials", nil)
	h.do("POST", P+"/services", serviceReq("conformance-1", "gcp"))
	h.do("POST", P+"/services", serviceReq("no", "gcp"))
	h.do("POST", P+"/services", "{not json")
	al := P + "/services/" + orders + "/security/allowlist"
	h.do("POST", al, map[string]string{"ip_address": "192.0.2.200/32"})
	h.do("POST", al, map[string]string{"ip_address": "192.0.2.200/32"}) // duplicate
	h.do("POST", al, map[string]string{"ip_address": "192.0.2.300/32"}) // invalid
	h.do("DELETE", al, map[string]string{"ip_address": "192.0.2.200/32"})
	h.do("DELETE", al, map[string]string{"ip_address": "192.0.2.201/32"}) // absent
	h.do("PUT", al, []api.AllowListEntry{{IP: "203.0.113.10/32", Comment: "office VPN"}, {IP: "198.51.100.0/24"}})
	h.do("PUT", al, []api.AllowListEntry{{IP: "nope"}})
	h.do("POST", P+"/services/"+pending+"/security/allowlist", map[string]string{"ip_address": "192.0.2.1/32"})
	for _, q := range []string{"/providers", "/providers?name=gcp", "/regions", "/regions?provider=azure", "/regions?provider=ibm",
		"/service-types", "/topologies", "/topologies?service_type=transactional", "/sizes", "/sizes?provider=aws&topology=es-single&architecture=arm64",
		"/sizes?architecture=sparc", "/versions", "/versions?topology=es-replica", "/topologies/es-single/storage-sizes", "/topologies/xpand/storage-sizes"} {
		h.do("GET", P+q, nil)
	}
	h.do("DELETE", P+"/services/"+pending, nil) // 409: pending

	// Backups and schedules.
	h.do("GET", B+"/backups", nil)
	h.do("GET", B+"/backups?page=2&page_size=5&order=asc", nil)
	h.do("GET", B+"/backups?page=0", nil)
	h.do("GET", B+"/backups?service_id=dbtgf00000002", nil)
	h.do("GET", B+"/backups/schedules", nil)
	h.do("GET", B+"/backups/schedules?page_size=2&page=2", nil)
	h.do("GET", B+"/backups/schedules?service_id=x", nil)
	var sc api.Schedule
	h.do("POST", B+"/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "once", ServiceID: replica}).decode(t, &sc)
	h.do("POST", B+"/backups/schedules", api.ScheduleRequest{BackupType: "incremental", Schedule: "0 4 * * *", ServiceID: orders})
	h.do("POST", B+"/backups/schedules", api.ScheduleRequest{BackupType: "dump", Schedule: "0 5 * * 1", ServiceID: analytics,
		ExternalStorage: &api.ExternalStorage{Bucket: api.ExternalBucket{Path: "gs://acme-dumps/weekly", Credentials: gcsCreds}}})
	h.do("POST", B+"/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "every day", ServiceID: orders})
	h.do("POST", B+"/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "once", ServiceID: pending})
	h.do("POST", B+"/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "once", ServiceID: "dbtaf00000003"})
	h.do("GET", B+"/backups/schedules/"+jsonString(sc.ID), nil)
	h.do("GET", B+"/backups/schedules/424242", nil)
	var cronSc api.Schedule
	h.do("POST", B+"/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "0 6 * * *", ServiceID: orders}).decode(t, &cronSc)
	suspend := true
	h.do("PATCH", B+"/backups/schedules/"+jsonString(cronSc.ID), api.ScheduleUpdate{Schedule: "15 6 * * 1-5", Suspended: &suspend})
	h.do("PATCH", B+"/backups/schedules/"+jsonString(cronSc.ID), api.ScheduleUpdate{Schedule: "15 66 * * *"})
	h.do("PATCH", B+"/backups/schedules/424242", api.ScheduleUpdate{Suspended: &suspend})
	h.do("GET", B+"/backups/schedules/"+jsonString(cronSc.ID), nil).want(t, 200) // the edited, suspended record
	h.do("DELETE", B+"/backups/schedules/"+jsonString(sc.ID), nil)
	h.do("DELETE", B+"/backups/schedules/"+jsonString(sc.ID), nil)

	// Restores.
	var ordersBackups struct{ Backups []api.Backup }
	h.do("GET", B+"/backups?service_id="+orders+"&status=Succeeded&page_size=1", nil).decode(t, &ordersBackups)
	key := ordersBackups.Backups[0].Key
	var r api.Restore
	h.do("POST", B+"/restores", api.ManagedRestore(replica, key)).decode(t, &r)
	h.do("POST", B+"/restores", api.ManagedRestore(replica, key))    // target now pending
	h.do("POST", B+"/restores", api.ManagedRestore(analytics, key))  // cross-provider
	h.do("POST", B+"/restores", api.ManagedRestore(orders, "nokey")) // not found
	h.do("POST", B+"/restores", api.BucketRestore(orders, "dump.sql", api.ExternalSource{Bucket: "gs://b/", Method: "mysqldump", Credentials: gcsCreds}))
	h.do("GET", B+"/restores", nil) // 400: the live service lists restores per service
	h.do("GET", B+"/restores?service_id="+replica, nil)
	h.do("GET", B+"/restores?service_id="+orders+"&page=1&page_size=1", nil)
	h.do("GET", B+"/restores?order=sideways", nil)
	h.do("GET", B+"/restores/"+jsonString(r.ID), nil)
	h.do("GET", B+"/restores/987654", nil)
	h.do("DELETE", B+"/restores/"+jsonString(r.ID), nil)
	h.do("DELETE", B+"/restores/"+jsonString(r.ID), nil)
	h.do("POST", B+"/restores", api.ManagedRestore(replica, key)).decode(t, &r)
	h.clk.Advance(3 * time.Hour)
	h.do("GET", B+"/restores/"+jsonString(r.ID), nil)
	h.do("DELETE", B+"/restores/"+jsonString(r.ID), nil) // finished: 409
	// Point in time (handlers_pitr.go): the lookups, a moment outside the
	// window and one inside it.
	h.do("GET", B+"/restores/pointintime/lookup", nil)
	h.do("POST", B+"/restores/lookup", api.RestoreLookupRequest{ServiceID: orders})
	h.do("POST", B+"/restores/lookup", api.RestoreLookupRequest{BackupID: key})
	h.do("POST", B+"/restores/lookup", api.RestoreLookupRequest{BackupID: "nokey"})
	h.do("POST", B+"/restores", api.PointInTimeRestore(replica, orders, h.clk.Now().Add(time.Hour))) // outside the window
	var pitr api.Restore
	h.do("POST", B+"/restores", api.PointInTimeRestore(replica, orders, h.clk.Now().Add(-time.Hour))).want(t, 200).decode(t, &pitr)
	h.do("GET", B+"/restores/"+jsonString(pitr.ID), nil).want(t, 200) // running
	h.clk.Advance(3 * time.Hour)
	h.do("GET", B+"/restores/"+jsonString(pitr.ID), nil).want(t, 200) // succeeded
	h.do("GET", B+"/restores?service_id="+replica, nil).want(t, 200)
	for _, s := range svcs {
		h.do("GET", P+"/services/"+s.ID, nil)
		h.do("GET", P+"/services/"+s.ID+"/security/credentials", nil)
		h.do("GET", B+"/backups?service_id="+s.ID+"&page_size=1000", nil)
	}

	// The lifecycle: stop, start, scale, SSL, the address check, delete.
	lifeReq := serviceReq("conformance-life", "aws")
	lifeReq.Topology, lifeReq.Nodes = "es-replica", 2
	var life api.Service
	h.do("POST", P+"/services", lifeReq).want(t, 202).decode(t, &life)
	h.clk.Advance(LaunchDuration + time.Second)
	LP := P + "/services/" + life.ID
	h.do("POST", LP+"/nodes", map[string]int{"nodes": 3})
	h.clk.Advance(ScaleDuration + time.Second)
	h.do("POST", LP+"/security/is-ip-allowed", map[string]string{"ip_address": "192.0.2.9"})
	h.do("POST", LP+"/security/is-ip-allowed", map[string]string{"ip_address": "nope"})
	h.do("PATCH", LP+"/security/ssl", map[string]bool{"ssl_enabled": false})
	h.do("PATCH", LP+"/security/ssl", "{not json")
	h.do("GET", LP, nil).want(t, 200)                     // SSL off
	h.do("POST", LP+"/nodes", map[string]int{"nodes": 9}) // more than es-replica has: 400
	h.do("POST", LP+"/size", map[string]string{"size": "sky-4x16"})
	h.do("POST", LP+"/size", map[string]string{"size": "sky-4x32"}) // pending: 409
	h.do("GET", LP, nil).want(t, 200)                               // pending_scale
	h.clk.Advance(ScaleDuration + time.Second)
	h.do("PATCH", LP+"/storage/size", map[string]int{"size": 50})
	h.do("PATCH", LP+"/storage/size", map[string]int{"size": 200})
	h.clk.Advance(ScaleDuration + time.Second)
	h.do("POST", LP+"/stop", nil)
	h.do("POST", LP+"/start", nil)    // pending: 409
	h.do("GET", LP, nil).want(t, 200) // pending_stop
	h.clk.Advance(StopDuration + time.Second)
	h.do("GET", LP, nil).want(t, 200) // stopped
	h.do("GET", P+"/services", nil).want(t, 200)
	h.do("POST", LP+"/start", nil)
	h.do("POST", LP+"/power", map[string]bool{"is_active": false}) // pending: 409
	h.clk.Advance(StartDuration + time.Second)
	h.do("POST", LP+"/power", map[string]bool{"is_active": false})
	h.clk.Advance(StopDuration + time.Second)
	h.do("DELETE", LP, nil)
	h.do("GET", LP, nil).want(t, 200)                // pending_delete
	h.do("DELETE", P+"/services/dbtaf00000001", nil) // 404

	// Managed replication (handlers_managed.go).
	MP := P + "/services/" + replica
	h.do("POST", MP+"/replication", api.ManagedReplication{PrimaryHost: orders, ReplicationType: api.ReplicationUni})
	h.do("POST", MP+"/replication", api.ManagedReplication{PrimaryHost: orders, ReplicationType: api.ReplicationUni}) // twice: 409
	h.do("POST", MP+"/replication", api.ManagedReplication{PrimaryHost: orders, ReplicationType: "sideways"})         // 400
	h.do("POST", MP+"/replication", api.ManagedReplication{PrimaryHost: "dbtaf00000001", ReplicationType: api.ReplicationBi})
	h.do("GET", P+"/services/"+orders+"/replicas", nil)
	h.do("GET", P+"/services/"+orders, nil)
	h.do("GET", MP, nil)
	h.do("GET", P+"/services/dbtaf00000001/replicas", nil)    // 404
	h.do("DELETE", P+"/services/"+orders+"/replication", nil) // the primary: 400
	h.do("DELETE", MP+"/replication", nil)

	// Injected faults answer with the same error document.
	h.s.SetFaults(Faults{ErrorRate: 1})
	h.do("GET", B+"/restores", nil)
	h.do("GET", B+"/restores/pointintime/lookup", nil)
	h.do("GET", P+"/services", nil)
	h.s.SetFaults(Faults{RateLimitRate: 1})
	h.do("GET", B+"/backups/schedules", nil)
	h.do("GET", P+"/providers", nil)
	h.s.SetFaults(Faults{})

	// Every route without a key: 401.
	for _, rt := range h.s.routes {
		path := strings.NewReplacer("{id}", "1", "{topology}", "es-single").Replace(rt.pattern)
		path = strings.Replace(path, "/services/1", "/services/"+orders, 1)
		for m := range rt.methods {
			if _, err := h.try(m, path, nil, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
}
