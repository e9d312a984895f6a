package sandbox

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
)

func TestAuthRefusedWithLiveErrorBody(t *testing.T) {
	h := newHarness(t, Options{})
	for _, key := range []string{"", "wrong-key"} {
		r, err := h.try("GET", "/provisioning/v1/services", nil, key)
		if err != nil {
			t.Fatal(err)
		}
		b := r.errBody(t, http.StatusUnauthorized)
		if !strings.Contains(b.Errors[0].Message, "API key") || b.Path != "/provisioning/v1/services" || b.Exception == "" || b.Timestamp.IsZero() {
			t.Fatalf("401 body: %s", r.body)
		}
	}
	// Backup routes too, and a fresh trace id per answer.
	a, _ := h.try("GET", "/backup/v1/restores", nil, "")
	b, _ := h.try("GET", "/backup/v1/restores", nil, "")
	if a.errBody(t, 401).TraceID == b.errBody(t, 401).TraceID {
		t.Fatal("trace_id repeated")
	}
	h.do("GET", "/provisioning/v1/services", nil).want(t, 200)
}

func TestUnknownRouteAndWrongMethod(t *testing.T) {
	h := newHarness(t, Options{})
	h.do("GET", "/provisioning/v1/nothing", nil).errBody(t, 404)
	r := h.do("DELETE", "/provisioning/v1/services", nil)
	r.errBody(t, http.StatusMethodNotAllowed)
	if allow := r.header.Get("Allow"); allow != "GET, POST" {
		t.Fatalf("Allow %q", allow)
	}
	h.do("PATCH", "/skybackup/v1/restores/1", nil).errBody(t, http.StatusMethodNotAllowed)
	h.do("GET", "/provisioning/v1/services/dbtaf00000000", nil).refusal(t, 404, "dbtaf00000000")
}

// Every 400 names the field it is about, in the message and the location.
func TestValidationNamesTheField(t *testing.T) {
	h := newHarness(t, Options{})
	ready := h.readyService("valid-name", "aws")
	svc := func(mod func(*api.CreateServiceRequest)) api.CreateServiceRequest {
		r := serviceReq("good-name", "aws")
		mod(&r)
		return r
	}
	bucketRestore := func(file, bucket, method string) api.RestoreRequest {
		return api.BucketRestore(ready, file, api.ExternalSource{Bucket: bucket, Method: method, Credentials: gcsCreds})
	}
	cases := []struct {
		name, method, path string
		body               any
		field              string
	}{
		{"name too short", "POST", "/provisioning/v1/services", svc(func(r *api.CreateServiceRequest) { r.Name = "abc" }), "name"},
		{"name too long", "POST", "/provisioning/v1/services", svc(func(r *api.CreateServiceRequest) { r.Name = strings.Repeat("x", 25) }), "name"},
		{"provider", "POST", "/provisioning/v1/services", svc(func(r *api.CreateServiceRequest) { r.Provider = "ibm" }), "provider"},
		{"unknown region", "POST", "/provisioning/v1/services", svc(func(r *api.CreateServiceRequest) { r.Region = "us-central1" }), "region"},
		{"unknown size", "POST", "/provisioning/v1/services", svc(func(r *api.CreateServiceRequest) { r.Size = "sky-3x7" }), "size"},
		{"unknown topology", "POST", "/provisioning/v1/services", svc(func(r *api.CreateServiceRequest) { r.Topology = "galera" }), "topology"},
		{"storage not offered", "POST", "/provisioning/v1/services", svc(func(r *api.CreateServiceRequest) { r.Storage = 123 }), "storage"},
		{"storage type", "POST", "/provisioning/v1/services", `{"name":"good-name","storage":"lots"}`, "storage"},
		{"cron", "POST", "/backup/v1/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "61 * * * *", ServiceID: ready}, "schedule"},
		{"cron fields", "POST", "/skybackup/v1/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "0 2 * *", ServiceID: ready}, "schedule"},
		{"backup type", "POST", "/backup/v1/backups/schedules", api.ScheduleRequest{BackupType: "differential", Schedule: "once", ServiceID: ready}, "backup_type"},
		{"bucket path", "POST", "/backup/v1/backups/schedules", api.ScheduleRequest{BackupType: "logical", Schedule: "once", ServiceID: ready,
			ExternalStorage: &api.ExternalStorage{Bucket: api.ExternalBucket{Path: "s3://my-bucket", Credentials: s3Creds}}}, "external_storage.bucket.path"},
		{"bucket credentials", "POST", "/backup/v1/backups/schedules", api.ScheduleRequest{BackupType: "logical", Schedule: "once", ServiceID: ready,
			ExternalStorage: &api.ExternalStorage{Bucket: api.ExternalBucket{Path: "s3://my-bucket/dumps"}}}, "external_storage.bucket.credentials"},
		{"trailing slash", "POST", "/backup/v1/restores", bucketRestore("dump.sql.gz", "gs://my-bucket", "mysqldump"), "external_source.bucket"},
		{"method", "POST", "/backup/v1/restores", bucketRestore("dump.sql.gz", "gs://my-bucket/", "tar"), "external_source.method"},
		{"gzip file", "POST", "/skybackup/v1/restores", bucketRestore("dump.sql", "gs://my-bucket/", "mysqldump"), "id"},
		{"restore needs key", "POST", "/backup/v1/restores", api.RestoreRequest{ServiceID: ready}, "key"},
		{"service id", "POST", "/backup/v1/restores", api.ManagedRestore("nope", "k"), "service_id"},
		{"CIDR", "POST", "/provisioning/v1/services/" + ready + "/security/allowlist", map[string]string{"ip_address": "10.0.0.1/33"}, "ip_address"},
		{"host bits", "DELETE", "/provisioning/v1/services/" + ready + "/security/allowlist", map[string]string{"ip_address": "10.0.0.1/24"}, "ip_address"},
		{"PUT CIDR", "PUT", "/provisioning/v1/services/" + ready + "/security/allowlist", []api.AllowListEntry{{IP: "1.2.3.4/32"}, {IP: "300.1.1.1"}}, "[1].ip"},
		{"page size", "GET", "/provisioning/v1/services?page_size=101", nil, "page_size"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := h.do(c.method, c.path, c.body).errBody(t, 400)
			if b.Errors[0].Location != c.field || !strings.Contains(b.Errors[0].Message, c.field) {
				t.Fatalf("location %q message %q, want field %q", b.Errors[0].Location, b.Errors[0].Message, c.field)
			}
		})
	}
	// Nothing was created by any of them.
	if n := len(h.s.ServiceIDs()); n != 1 {
		t.Fatalf("%d services after refused creates", n)
	}
	var scheds struct{ Schedules []api.Schedule }
	h.do("GET", "/backup/v1/backups/schedules", nil).want(t, 200).decode(t, &scheds)
	if len(scheds.Schedules) != 0 {
		t.Fatalf("schedules created: %+v", scheds.Schedules)
	}
}

func TestLaunchPendingThenReadyAfterFiveMinutes(t *testing.T) {
	h := newHarness(t, Options{})
	var created api.Service
	h.do("POST", "/provisioning/v1/services", serviceReq("launch-me", "gcp")).want(t, http.StatusAccepted).decode(t, &created)
	if created.Status != "pending_create" || api.ValidateServiceID(created.ID) != nil || !strings.HasPrefix(created.ID, "dbt") {
		t.Fatalf("created %+v", created)
	}
	h.clk.Advance(LaunchDuration - time.Second)
	if st := h.service(created.ID).Status; st != "pending_create" {
		t.Fatalf("status %s before 5 minutes", st)
	}
	h.clk.Advance(time.Second)
	if st := h.service(created.ID).Status; st != "ready" {
		t.Fatalf("status %s after 5 minutes", st)
	}
}

func TestFQDNAndPortsOnlyOnceReady(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.createService("ports-later", "aws")
	before := h.service(id)
	if before.FQDN != "" || before.ReadWritePort() != 0 || len(before.Endpoints) != 1 || len(before.Endpoints[0].Ports) != 0 {
		t.Fatalf("pending service shows connection details: %+v", before)
	}
	if len(before.OutboundIPs) == 0 {
		t.Fatal("no outbound_ips")
	}
	h.clk.Advance(LaunchDuration)
	after := h.service(id)
	if after.FQDN != id+".sandbox.localhost" || after.ReadWritePort() == 0 || after.Port("readonly") == 0 {
		t.Fatalf("ready service lacks fqdn/ports: %+v", after)
	}
	if first, _, _ := strings.Cut(after.FQDN, "."); first != id || !api.IsLoopbackHost(after.FQDN) {
		t.Fatalf("fqdn %s: first label must be the ID and the name loopback", after.FQDN)
	}
}

func TestCredentialsOnlyWhenReady(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.createService("creds-later", "azure")
	b := h.do("GET", "/provisioning/v1/services/"+id+"/security/credentials", nil).errBody(t, http.StatusConflict)
	if msg := b.Errors[0].Message; !strings.Contains(msg, "ready") || !strings.Contains(msg, "pending_create") || !strings.Contains(msg, id) {
		t.Fatalf("message %q", msg)
	}
	h.clk.Advance(LaunchDuration)
	c := h.credentials(id)
	if c.Username == "" || len(c.Password) < 12 || c.Host != id+".sandbox.localhost" {
		t.Fatalf("credentials %+v", c)
	}
}

func TestServicePaginationWithPageTokens(t *testing.T) {
	h := newHarness(t, Options{})
	const n = 230
	for i := range n {
		h.createService(fmt.Sprintf("svc-%04d", i), []string{"aws", "gcp", "azure"}[i%3])
	}
	seen := map[string]bool{}
	token, pages := "", 0
	for {
		path := "/provisioning/v1/services"
		if token != "" {
			path += "?page_token=" + token
		}
		var page []api.Service
		r := h.do("GET", path, nil).want(t, 200)
		r.decode(t, &page)
		pages++
		for _, s := range page {
			if seen[s.ID] {
				t.Fatalf("service %s on two pages", s.ID)
			}
			seen[s.ID] = true
		}
		token = r.header.Get("X-SkySQL-Page-Token-Next")
		if token == "" {
			if len(page) != n%100 {
				t.Fatalf("last page has %d", len(page))
			}
			break
		}
		if len(page) != 100 {
			t.Fatalf("page %d has %d services, want the default 100", pages, len(page))
		}
	}
	if len(seen) != n || pages != 3 {
		t.Fatalf("%d services over %d pages", len(seen), pages)
	}
	// page_size is honoured and the real client follows the tokens.
	var small []api.Service
	r := h.do("GET", "/provisioning/v1/services?page_size=7", nil).want(t, 200)
	r.decode(t, &small)
	if len(small) != 7 || r.header.Get("X-SkySQL-Page-Token-Next") == "" {
		t.Fatalf("page_size=7 gave %d", len(small))
	}
	all, err := h.client("").ListServices(bg)
	if err != nil || len(all) != n {
		t.Fatalf("client listed %d, %v", len(all), err)
	}
	h.do("GET", "/provisioning/v1/services?page_token=garbage", nil).errBody(t, 400)
}

func TestAllowListAddRemoveDuplicateLimit(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("allow-aws", "aws")
	path := "/provisioning/v1/services/" + id + "/security/allowlist"
	add := func(ip string) *resp { return h.do("POST", path, map[string]string{"ip_address": ip}) }
	del := func(ip string) *resp { return h.do("DELETE", path, map[string]string{"ip_address": ip}) }
	list := func() []api.AllowListEntry {
		var groups []api.AllowListGroup
		h.do("GET", path, nil).want(t, 200).decode(t, &groups)
		if len(groups) != 1 || groups[0].Name != "primary" {
			t.Fatalf("groups %+v", groups)
		}
		return groups[0].AllowList
	}
	var groups []api.AllowListGroup
	add("203.0.113.7").want(t, 200).decode(t, &groups)
	if len(groups) != 1 || len(groups[0].AllowList) != 1 || groups[0].AllowList[0].IP != "203.0.113.7/32" {
		t.Fatalf("after add: %+v", groups)
	}
	if b := add("203.0.113.7/32").errBody(t, http.StatusConflict); !strings.Contains(b.Errors[0].Message, "already") {
		t.Fatalf("duplicate: %q", b.Errors[0].Message)
	}
	if svc := h.service(id); len(svc.AllowList()) != 1 {
		t.Fatalf("service record allow list %+v", svc.AllowList())
	}
	del("203.0.113.7/32").want(t, 200)
	if l := list(); len(l) != 0 {
		t.Fatalf("after remove: %+v", l)
	}
	del("203.0.113.7/32").errBody(t, http.StatusNotFound)

	// 30 entries on aws.
	for i := range 30 {
		add(fmt.Sprintf("198.51.100.%d/32", i+1)).want(t, 200)
	}
	b := add("198.51.100.200/32").errBody(t, 400)
	if !strings.Contains(b.Errors[0].Message, "30") {
		t.Fatalf("limit message %q", b.Errors[0].Message)
	}
	// PUT replaces; 200 entries fit on gcp but not 201.
	h.do("PUT", path, []api.AllowListEntry{{IP: "192.0.2.0/24", Comment: "office"}}).want(t, 200)
	if l := list(); len(l) != 1 || l[0].Comment != "office" {
		t.Fatalf("after PUT: %+v", l)
	}
	h.do("PUT", path, []api.AllowListEntry{{IP: "192.0.2.1/32"}, {IP: "192.0.2.1"}}).errBody(t, 400)
	gcp := h.readyService("allow-gcp", "gcp")
	var many []api.AllowListEntry
	for i := range 201 {
		many = append(many, api.AllowListEntry{IP: fmt.Sprintf("10.%d.%d.0/24", i/200, i%200)})
	}
	gpath := "/provisioning/v1/services/" + gcp + "/security/allowlist"
	h.do("PUT", gpath, many[:200]).want(t, 200)
	h.do("PUT", gpath, many).errBody(t, 400)
	h.do("POST", gpath, map[string]string{"ip_address": "172.16.0.1/32"}).errBody(t, 400)
}

// A service in a pending state refuses changes with 409 "pending state".
func TestPendingServiceRefusesChanges(t *testing.T) {
	h := newHarness(t, Options{})
	src := h.readyService("source-svc", "aws")
	key := h.completedFull(src)
	id2 := h.createService("pending-two", "aws")
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/provisioning/v1/services/" + id2 + "/security/allowlist", map[string]string{"ip_address": "1.2.3.4/32"}},
		{"DELETE", "/provisioning/v1/services/" + id2 + "/security/allowlist", map[string]string{"ip_address": "1.2.3.4/32"}},
		{"PUT", "/provisioning/v1/services/" + id2 + "/security/allowlist", []api.AllowListEntry{}},
		{"POST", "/backup/v1/backups/schedules", api.ScheduleRequest{BackupType: "full", Schedule: "once", ServiceID: id2}},
		{"POST", "/skybackup/v1/restores", api.ManagedRestore(id2, key)},
	} {
		b := h.do(c.method, c.path, c.body).errBody(t, http.StatusConflict)
		if !strings.Contains(b.Errors[0].Message, "pending state") {
			t.Fatalf("%s %s: %q", c.method, c.path, b.Errors[0].Message)
		}
	}
	// The allow list can still be read.
	h.do("GET", "/provisioning/v1/services/"+id2+"/security/allowlist", nil).want(t, 200)
}

func TestOptionListingsAndCreateChecks(t *testing.T) {
	h := newHarness(t, Options{})
	c := h.client("")
	provs, err := c.ListProviders(bg)
	if err != nil || len(provs) != 3 {
		t.Fatalf("providers %v %v", provs, err)
	}
	for _, p := range provs {
		regions, err := c.ListRegions(bg, p.Name)
		if err != nil || len(regions) < 3 {
			t.Fatalf("regions of %s: %d %v", p.Name, len(regions), err)
		}
		for _, r := range regions {
			if r.Provider != p.Name {
				t.Fatalf("region %+v under %s", r, p.Name)
			}
		}
	}
	topos, _ := c.ListTopologies(bg, "transactional")
	if len(topos) != 3 {
		t.Fatalf("transactional topologies %+v", topos)
	}
	sizes, _ := c.ListSizes(bg, "aws", "es-single", "arm64")
	azArm, _ := c.ListSizes(bg, "azure", "es-single", "arm64")
	if len(sizes) == 0 || len(azArm) != 0 {
		t.Fatalf("sizes aws/arm64 %d azure/arm64 %d", len(sizes), len(azArm))
	}
	versions, _ := c.ListVersions(bg, "es-single")
	def := 0
	for _, v := range versions {
		if v.Default {
			def++
			if v.Name != "11.4.2-1" {
				t.Fatalf("default version %s", v.Name)
			}
		}
	}
	if def != 1 || len(versions) < 2 {
		t.Fatalf("versions %+v", versions)
	}
	ss, err := c.ListStorageSizes(bg, "es-replica")
	if err != nil || len(ss) == 0 || ss[0].StorageSizes[0] != 100 || ss[0].StorageSizes[len(ss[0].StorageSizes)-1] != 2000 {
		t.Fatalf("storage sizes %+v %v", ss, err)
	}
	h.do("GET", "/provisioning/v1/topologies/galera/storage-sizes", nil).errBody(t, 404)
	// Every combination the listings offer is accepted by the create call.
	req := serviceReq("from-lists", "aws")
	req.Architecture, req.Size, req.Version = "arm64", sizes[len(sizes)-1].Name, "10.6.18-1"
	h.do("POST", "/provisioning/v1/services", req).want(t, 202)
	req.Nodes = 2
	if b := h.do("POST", "/provisioning/v1/services", req).errBody(t, 400); b.Errors[0].Location != "nodes" {
		t.Fatalf("nodes: %+v", b.Errors[0])
	}
}

func TestPortAssignerIsCalledOnceWhenReady(t *testing.T) {
	var mu sync.Mutex
	calls := map[string]int{}
	count := func(id string) int { mu.Lock(); defer mu.Unlock(); return calls[id] }
	next := 20000
	h := newHarness(t, Options{Ports: PortAssignerFunc(func(s ServiceInfo) (Ports, error) {
		mu.Lock()
		defer mu.Unlock()
		calls[s.ID]++
		next += 2
		return Ports{ReadWrite: next, ReadOnly: next + 1}, nil
	})})
	id := h.createService("custom-ports", "aws")
	h.service(id)
	if count(id) != 0 {
		t.Fatal("assigner called before ready")
	}
	h.clk.Advance(LaunchDuration)
	svc := h.service(id)
	if p := svc.ReadWritePort(); p != 20002 || count(id) != 1 {
		t.Fatalf("port %d calls %d", p, count(id))
	}
	h.service(id)
	if count(id) != 1 {
		t.Fatalf("assigner called %d times", count(id))
	}
}

const P = provPrefix

// Stop and start walk ready → pending_stop → stopped → pending_start →
// ready on the sandbox clock; every change is refused while pending.
func TestStopStartStateMachine(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("orders", "aws")
	h.do("POST", P+"/services/"+id+"/start", nil).errBody(t, http.StatusConflict) // ready: not stopped
	h.do("POST", P+"/services/"+id+"/stop", nil).want(t, 200)
	if s := h.service(id); s.Status != "pending_stop" {
		t.Fatalf("after stop: %s", s.Status)
	}
	// While pending: stop, start, scale, ssl and delete all refused with "pending state".
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/stop", nil}, {"POST", "/start", nil}, {"POST", "/power", map[string]bool{"is_active": true}},
		{"POST", "/nodes", map[string]int{"nodes": 3}}, {"POST", "/size", map[string]string{"size": "sky-4x16"}},
		{"PATCH", "/storage/size", map[string]int{"size": 200}}, {"PATCH", "/security/ssl", map[string]bool{"ssl_enabled": false}},
		{"DELETE", "", nil},
	} {
		b := h.do(c.method, P+"/services/"+id+c.path, c.body).errBody(t, http.StatusConflict)
		if !strings.Contains(b.Errors[0].Message, "pending state") {
			t.Errorf("%s %s while pending_stop: %q", c.method, c.path, b.Errors[0].Message)
		}
	}
	h.clk.Advance(StopDuration - time.Second)
	if s := h.service(id); s.Status != "pending_stop" {
		t.Fatalf("before the stop ends: %s", s.Status)
	}
	h.clk.Advance(2 * time.Second)
	if s := h.service(id); s.Status != "stopped" {
		t.Fatalf("after the stop: %s", s.Status)
	}
	h.do("POST", P+"/services/"+id+"/nodes", map[string]int{"nodes": 3}).errBody(t, http.StatusConflict) // stopped: not scalable
	h.do("POST", P+"/services/"+id+"/power", map[string]bool{"is_active": true}).want(t, 200)
	if s := h.service(id); s.Status != "pending_start" {
		t.Fatalf("after start: %s", s.Status)
	}
	h.clk.Advance(StartDuration + time.Second)
	if s := h.service(id); s.Status != "ready" {
		t.Fatalf("after the start: %s", s.Status)
	}
}

func TestScaleNodesSizeStorage(t *testing.T) {
	h := newHarness(t, Options{})
	req := serviceReq("replicas", "aws")
	req.Topology, req.Nodes = "es-replica", 2
	var svc api.Service
	h.do("POST", P+"/services", req).want(t, 202).decode(t, &svc)
	h.clk.Advance(LaunchDuration + time.Second)
	id := svc.ID

	h.do("POST", P+"/services/"+id+"/nodes", map[string]int{"nodes": 9}).errBody(t, 400)
	h.do("POST", P+"/services/"+id+"/nodes", map[string]int{"nodes": 2}).errBody(t, 400) // unchanged
	h.do("POST", P+"/services/"+id+"/nodes", map[string]int{"nodes": 3}).want(t, 200)
	if s := h.service(id); s.Status != "pending_scale" || s.Nodes != 2 {
		t.Fatalf("scaling: %s %d", s.Status, s.Nodes)
	}
	h.clk.Advance(ScaleDuration + time.Second)
	if s := h.service(id); s.Status != "ready" || s.Nodes != 3 {
		t.Fatalf("scaled: %s %d", s.Status, s.Nodes)
	}

	b := h.do("POST", P+"/services/"+id+"/size", map[string]string{"size": "sky-999x1"}).errBody(t, 400)
	if b.Errors[0].Location != "size" {
		t.Errorf("size location %q", b.Errors[0].Location)
	}
	h.do("POST", P+"/services/"+id+"/size", map[string]string{"size": "sky-4x16"}).want(t, 202)
	h.clk.Advance(ScaleDuration + time.Second)
	if s := h.service(id); s.Size != "sky-4x16" {
		t.Fatalf("size: %s", s.Size)
	}

	b = h.do("PATCH", P+"/services/"+id+"/storage/size", map[string]int{"size": 50}).errBody(t, 400)
	if !strings.Contains(b.Errors[0].Message, "only grow") {
		t.Errorf("shrinking storage: %q", b.Errors[0].Message)
	}
	h.do("PATCH", P+"/services/"+id+"/storage/size", map[string]int{"size": 123}).errBody(t, 400) // not offered
	h.do("PATCH", P+"/services/"+id+"/storage/size", map[string]int{"size": 200}).want(t, 202)
	h.clk.Advance(ScaleDuration + time.Second)
	if s := h.service(id); s.StorageVolume == nil || s.StorageVolume.Size != 200 || s.Status != "ready" {
		t.Fatalf("storage: %+v %s", s.StorageVolume, s.Status)
	}
}

func TestDeleteService(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("scratch", "gcp")
	keep := h.readyService("keep", "gcp")
	h.do("DELETE", P+"/services/"+id, nil).want(t, 200)
	if s := h.service(id); s.Status != "pending_delete" {
		t.Fatalf("deleting: %s", s.Status)
	}
	h.do("DELETE", P+"/services/"+id, nil).errBody(t, http.StatusConflict)
	h.clk.Advance(DeleteDuration + time.Second)
	h.do("GET", P+"/services/"+id, nil).errBody(t, 404)
	var list []api.Service
	h.do("GET", P+"/services", nil).want(t, 200).decode(t, &list)
	if len(list) != 1 || list[0].ID != keep {
		t.Fatalf("list after delete: %+v", list)
	}
}

// A service that is the target of a running restore cannot be deleted.
func TestDeleteRefusedWhileRestoreRuns(t *testing.T) {
	h := newHarness(t, Options{})
	src, dst := h.readyPair("source", "target", 1<<30)
	key := h.completedFull(src)
	h.do("POST", "/skybackup/v1/restores", api.ManagedRestore(dst, key)).want(t, 200)
	h.do("DELETE", P+"/services/"+dst, nil).refusal(t, http.StatusConflict, "target of restore")
	h.clk.Advance(time.Hour)
	h.do("DELETE", P+"/services/"+dst, nil).want(t, 200)
}

func TestSSLAndIsIPAllowed(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("webapp", "aws")
	h.do("POST", P+"/services/"+id+"/security/allowlist", map[string]string{"ip_address": "192.0.2.0/24"}).want(t, 200)
	var got api.IPAllowed
	h.do("POST", P+"/services/"+id+"/security/is-ip-allowed", map[string]string{"ip_address": "192.0.2.77"}).want(t, 200).decode(t, &got)
	if !got.IsAllowed {
		t.Fatal("192.0.2.77 is in 192.0.2.0/24")
	}
	h.do("POST", P+"/services/"+id+"/security/is-ip-allowed", map[string]string{"ip_address": "198.51.100.1"}).want(t, 200).decode(t, &got)
	if got.IsAllowed {
		t.Fatal("198.51.100.1 is not listed")
	}
	h.do("POST", P+"/services/"+id+"/security/is-ip-allowed", map[string]string{"ip_address": "nope"}).errBody(t, 400)

	var svc api.Service
	h.do("PATCH", P+"/services/"+id+"/security/ssl", map[string]bool{"ssl_enabled": false}).want(t, 200).decode(t, &svc)
	if svc.SSLEnabled || h.service(id).SSLEnabled {
		t.Fatal("ssl still on")
	}
	h.do("PATCH", P+"/services/"+id+"/security/ssl", `{}`).errBody(t, 400)
}

// A body of one field refuses a value of the wrong type naming the field,
// ignores other fields, and asks for a body when there is none.
func TestOneFieldBodies(t *testing.T) {
	h := newHarness(t, Options{})
	id := h.readyService("orders", "aws")
	S := P + "/services/" + id
	for _, c := range []struct {
		method, path string
		body         any
		want         string
	}{
		{"POST", "/nodes", map[string]string{"nodes": "three"}, "nodes: must be a JSON number (got string)"},
		{"POST", "/size", map[string]int{"size": 4}, "size: must be a JSON string (got number)"},
		{"PATCH", "/storage/size", map[string]bool{"size": true}, "size: must be a JSON number (got bool)"},
		{"PATCH", "/security/ssl", map[string]string{"ssl_enabled": "yes"}, "ssl_enabled: must be a JSON boolean (got string)"},
		{"POST", "/power", map[string]any{"is_active": 1}, "is_active: must be a JSON boolean (got number)"},
		{"POST", "/security/is-ip-allowed", map[string]any{"ip_address": []int{1}}, "ip_address: must be a JSON string (got array)"},
		{"POST", "/nodes", nil, "a JSON request body is required"},
	} {
		b := h.do(c.method, S+c.path, c.body).errBody(t, http.StatusBadRequest)
		if b.Errors[0].Message != c.want {
			t.Errorf("%s %s %v: %q, want %q", c.method, c.path, c.body, b.Errors[0].Message, c.want)
		}
	}
	var ok api.IPAllowed
	h.do("POST", S+"/security/is-ip-allowed", map[string]any{"ip_address": "192.0.2.1", "note": 7}).want(t, 200).decode(t, &ok)
	if ok.IPAddress != "192.0.2.1" {
		t.Errorf("with another field: %+v", ok)
	}
}
