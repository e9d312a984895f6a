package api_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/internal/openapispec"
)

// Every request the client sends is checked against the live service's
// published OpenAPI description: a test server validates each incoming
// request (route, path and query parameters, body, the API key header) and
// records what does not match; the test fails on any of it.

// erratum is a known mistake of the description (live-api-notes.md, "Known
// errata"). The request is not excused from validation: the one field is
// rewritten from the wire form the interface document specifies to the
// form the description (mistakenly) publishes, and only when the value is
// of the intended wire form; any other value still fails validation.
type erratum struct {
	op    string   // "METHOD template"
	field []string // path of the field inside the JSON body
	// fix returns the value to validate in place of v, or false to leave it.
	fix func(v any) (any, bool)
}

// base64AsBytes: the description types credentials "array of integer",
// which is how a Go []byte field is described; Go (and the service) send a
// []byte as a base64 string. A valid standard-base64 string is turned into
// the byte array the description means.
func base64AsBytes(v any) (any, bool) {
	s, ok := v.(string)
	if !ok {
		return nil, false
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, false
	}
	out := make([]any, len(b))
	for i, c := range b {
		out[i] = float64(c)
	}
	return out, true
}

// cronAsExample: the description publishes schedule as
// enum [once, "0 2 * * *"], its two examples turned into an enum. Any
// 5-field cron expression is meant; a valid one is validated as the
// description's own cron example.
func cronAsExample(v any) (any, bool) {
	s, ok := v.(string)
	if !ok || s == "once" {
		return nil, false
	}
	if _, err := api.ParseCron(s); err != nil {
		return nil, false
	}
	return "0 2 * * *", true
}

var errata = []erratum{
	{"POST /skybackup/v1/backups/schedules", []string{"external_storage", "bucket", "credentials"}, base64AsBytes},
	{"POST /skybackup/v1/backups/schedules", []string{"schedule"}, cronAsExample},
	{"POST /skybackup/v1/restores", []string{"external_source", "credentials"}, base64AsBytes},
	{"PATCH /skybackup/v1/backups/schedules/{id}", []string{"schedule"}, cronAsKind},
}

// cronAsKind: the edit of a schedule publishes schedule as enum [once,
// cron], the kind where the expression is meant (as for the create). A
// valid 5-field expression is validated as "cron".
func cronAsKind(v any) (any, bool) {
	if _, ok := cronAsExample(v); !ok {
		return nil, false
	}
	return "cron", true
}

// applyErrata rewrites the fields of body that the errata of op name, and
// says which it rewrote.
func applyErrata(op string, body []byte) ([]byte, []string) {
	var doc any
	if len(bytes.TrimSpace(body)) == 0 || json.Unmarshal(body, &doc) != nil {
		return body, nil
	}
	var changed []string
	for _, e := range errata {
		if e.op != op {
			continue
		}
		m, ok := doc.(map[string]any)
		for _, k := range e.field[:len(e.field)-1] {
			if !ok {
				break
			}
			m, ok = m[k].(map[string]any)
		}
		if !ok {
			continue
		}
		last := e.field[len(e.field)-1]
		if v, present := m[last]; present {
			if nv, ok := e.fix(v); ok {
				m[last] = nv
				changed = append(changed, strings.Join(e.field, "."))
			}
		}
	}
	if changed == nil {
		return body, nil
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return body, nil
	}
	return out, changed
}

// validatingServer answers the client's requests after validating each one
// against the description.
type validatingServer struct {
	doc    *openapi3.T
	srv    *httptest.Server
	answer func(op string, r *http.Request) (status int, body string)

	mu         sync.Mutex
	requests   int
	violations []string
	seen       map[string]int // "METHOD template" -> requests
	excused    map[string]int // "METHOD template field" -> requests an erratum excused
}

func newValidatingServer(t *testing.T, doc *openapi3.T, answer func(op string, r *http.Request) (int, string)) *validatingServer {
	v := &validatingServer{doc: doc, answer: answer, seen: map[string]int{}, excused: map[string]int{}}
	v.srv = httptest.NewServer(http.HandlerFunc(v.serve))
	t.Cleanup(v.srv.Close)
	return v
}

// requireAPIKey checks that the header the security scheme names is set.
func requireAPIKey(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	s := in.SecurityScheme
	if s == nil || s.Type != "apiKey" || s.In != "header" {
		return fmt.Errorf("unexpected security scheme %q", in.SecuritySchemeName)
	}
	if in.RequestValidationInput.Request.Header.Get(s.Name) == "" {
		return fmt.Errorf("header %s is missing", s.Name)
	}
	return nil
}

func (v *validatingServer) violate(r *http.Request, format string, a ...any) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.violations = append(v.violations, fmt.Sprintf("%s %s: %s", r.Method, r.URL.RequestURI(), fmt.Sprintf(format, a...)))
}

func (v *validatingServer) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		v.violate(r, "reading the body: %v", err)
	}
	v.mu.Lock()
	v.requests++
	v.mu.Unlock()
	if r.Method == http.MethodGet && len(body) > 0 {
		// Validating gateways refuse these ("request included a non-empty body").
		v.violate(r, "a GET with a non-empty body (%d bytes)", len(body))
	}
	route, params := openapispec.Find(v.doc, r.Method, r.URL.Path)
	if route == nil || route.Operation == nil {
		v.violate(r, "no such operation in the description")
		w.WriteHeader(http.StatusNotFound)
		return
	}
	op := r.Method + " " + route.Path
	v.mu.Lock()
	v.seen[op]++
	v.mu.Unlock()

	checked, excused := applyErrata(op, body)
	v.mu.Lock()
	for _, f := range excused {
		v.excused[op+" "+f]++
	}
	v.mu.Unlock()
	req := r.Clone(r.Context())
	req.Body = io.NopCloser(bytes.NewReader(checked))
	req.ContentLength = int64(len(checked))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(checked)), nil }
	in := &openapi3filter.RequestValidationInput{
		Request:    req,
		PathParams: params,
		Route:      route,
		Options: &openapi3filter.Options{
			MultiError:          true,
			AuthenticationFunc:  requireAPIKey,
			SkipSettingDefaults: true,
		},
	}
	if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
		var me openapi3.MultiError
		if errors.As(err, &me) {
			for _, e := range me {
				v.violate(r, "%v (body %s)", e, body)
			}
		} else {
			v.violate(r, "%v (body %s)", err, body)
		}
	}
	status, answer := v.answer(op, r)
	if answer != "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(status)
	io.WriteString(w, answer)
}

func (v *validatingServer) client(t *testing.T) *api.Client {
	t.Helper()
	c, err := api.New(api.Config{BaseURL: v.srv.URL, APIKey: "skysql.test.key", Org: "org-1",
		BackupPrefix: api.LiveBackupPrefix, MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func (v *validatingServer) count() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.requests
}

const testService = "dbtgf00000001"

// minimalAnswer gives small valid 2xx answers per operation, enough for the
// client to proceed (a service to sweep, a second page of backups).
func minimalAnswer(op string, r *http.Request) (int, string) {
	switch op {
	case "GET /provisioning/v1/services":
		return 200, `[{"id":"` + testService + `","name":"orders","status":"ready"}]`
	case "POST /provisioning/v1/services":
		return 202, `{"id":"dbtgf00000002","name":"skytui-openapi","status":"pending_create"}`
	case "GET /provisioning/v1/services/{service_id}":
		return 200, `{"id":"` + testService + `","name":"orders","status":"ready"}`
	case "GET /provisioning/v1/services/{service_id}/security/credentials":
		return 200, `{"username":"dbpgf","password":"pw","host":"h.example"}`
	case "GET /provisioning/v1/services/{service_id}/security/allowlist",
		"POST /provisioning/v1/services/{service_id}/security/allowlist",
		"PUT /provisioning/v1/services/{service_id}/security/allowlist",
		"DELETE /provisioning/v1/services/{service_id}/security/allowlist":
		return 200, `[{"name":"primary","allow_list":[{"ip":"192.0.2.1/32","comment":"x"}]}]`
	case "GET /skybackup/v1/backups":
		return 200, `{"backups":[{"id":"abc:` + testService + `:pod-0","service_id":"` + testService + `","status":"Succeeded"}],"backups_count":2,"pages_count":2}`
	case "GET /skybackup/v1/backups/schedules":
		return 200, `{"schedules":[{"id":1,"service_id":"` + testService + `","schedule":"once"}],"schedules_count":1,"pages_count":1}`
	case "POST /skybackup/v1/backups/schedules":
		return 200, `{"id":5,"service_id":"` + testService + `","status":"Scheduled"}`
	case "GET /skybackup/v1/restores":
		return 200, `{"restores":[{"id":7,"service_id":"` + testService + `","status":"Succeeded"}],"restores_count":1,"pages_count":1}`
	case "POST /skybackup/v1/restores", "GET /skybackup/v1/restores/{id}":
		return 200, `{"id":7,"service_id":"` + testService + `","status":"Running"}`
	case "DELETE /skybackup/v1/restores/{id}", "DELETE /skybackup/v1/backups/schedules/{id}":
		return 200, ``
	case "GET /skybackup/v1/restores/pointintime/lookup":
		return 200, `{"services":[{"service_id":"` + testService + `","service_name":"orders","start_time":"2026-11-20 02:10:00","end_time":"2026-11-23 12:00:00"}]}`
	case "POST /skybackup/v1/restores/lookup":
		return 200, `{"services":[{"service_id":"` + testService + `","service_name":"orders"}]}`
	case "GET /skybackup/v1/backups/schedules/{id}", "PATCH /skybackup/v1/backups/schedules/{id}":
		return 200, `{"id":3,"service_id":"` + testService + `","type":"full","schedule":"cron","suspended":true}`
	case "POST /provisioning/v1/services/{service_id}/replication":
		return 202, `{"primary_host":"dbtgf00000002","replication_type":"uni-directional"}`
	case "GET /provisioning/v1/services/{service_id}/replicas":
		return 200, `[{"id":"dbtgf00000002","name":"orders-replica","status":"ready","primary_host":"` + testService + `","replication_enabled":true}]`
	}
	if r.Method == http.MethodGet {
		return 200, `[]` // the option listings
	}
	return 200, `{}`
}

// Methods of *api.Client that send nothing.
var clientMethodsSendingNothing = []string{"BaseURL", "Host", "Org", "LiveBackup", "LogicalBackupType", "Now", "BackupPath", "KeyFingerprint", "RestoreSweep.Failed"}

func testCredentials(t *testing.T) (gcs, s3 string) {
	t.Helper()
	gcs, err := api.EncodeGCSCredentials([]byte(`{"type":"service_account","client_email":"backup@proj.iam.gserviceaccount.com","private_key":"-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n"}`))
	if err != nil {
		t.Fatal(err)
	}
	s3, err = api.EncodeS3Credentials(api.S3Credentials{AccessKeyID: "AKIAEXAMPLE", SecretAccessKey: "c2VjcmV0", Region: "us-east-1"})
	if err != nil {
		t.Fatal(err)
	}
	return gcs, s3
}

// clientCall is one exercise of a client method.
type clientCall struct {
	method string // the *api.Client (or *api.RestoreSweep) method called
	name   string
	call   func(ctx context.Context, c *api.Client) (any, error)
}

// clientCalls calls every method of the client that sends a request, with
// valid arguments, in every form the live rules distinguish.
func clientCalls(t *testing.T) []clientCall {
	gcs, s3 := testCredentials(t)
	svc := testService
	return []clientCall{
		{"ListServices", "", func(ctx context.Context, c *api.Client) (any, error) { return c.ListServices(ctx) }},
		{"GetService", "", func(ctx context.Context, c *api.Client) (any, error) { return c.GetService(ctx, svc) }},
		{"CreateService", "", func(ctx context.Context, c *api.Client) (any, error) {
			return c.CreateService(ctx, api.CreateServiceRequest{ServiceType: "transactional", Topology: "es-single",
				Provider: "gcp", Region: "us-central1", Architecture: "amd64", Size: "sky-2x8", Storage: 100, Nodes: 1,
				Name: "skytui-openapi", Version: "10.6.11-6-1", SSLEnabled: true,
				AllowList: []api.AllowListEntry{{IP: "192.0.2.0/24", Comment: "office"}}})
		}},
		{"CreateService", "skytui services create's defaults", func(ctx context.Context, c *api.Client) (any, error) {
			return c.CreateService(ctx, api.CreateServiceRequest{ServiceType: "transactional", Topology: "es-single",
				Provider: "aws", Region: "us-east-1", Architecture: "amd64", Size: "sky-2x8", Storage: 100, Nodes: 1,
				Name: "skytui-openapi", SSLEnabled: false, AllowList: []api.AllowListEntry{{IP: "203.0.113.7/32"}}})
		}},
		{"GetCredentials", "", func(ctx context.Context, c *api.Client) (any, error) { return c.GetCredentials(ctx, svc) }},
		{"GetAllowList", "", func(ctx context.Context, c *api.Client) (any, error) { return c.GetAllowList(ctx, svc) }},
		{"AddAllowListEntry", "", func(ctx context.Context, c *api.Client) (any, error) {
			return c.AddAllowListEntry(ctx, svc, "203.0.113.7")
		}},
		{"AddAllowListEntry", "CIDR", func(ctx context.Context, c *api.Client) (any, error) {
			return c.AddAllowListEntry(ctx, svc, "198.51.100.0/24")
		}},
		{"SetAllowListComment", "", func(ctx context.Context, c *api.Client) (any, error) {
			return c.SetAllowListComment(ctx, svc, "203.0.113.9", "office VPN")
		}},
		{"RemoveAllowListEntry", "", func(ctx context.Context, c *api.Client) (any, error) {
			return c.RemoveAllowListEntry(ctx, svc, "203.0.113.7/32")
		}},
		{"ListProviders", "", func(ctx context.Context, c *api.Client) (any, error) { return c.ListProviders(ctx) }},
		{"ListRegions", "", func(ctx context.Context, c *api.Client) (any, error) { return c.ListRegions(ctx, "gcp") }},
		{"ListRegions", "all", func(ctx context.Context, c *api.Client) (any, error) { return c.ListRegions(ctx, "") }},
		{"ListServiceTypes", "", func(ctx context.Context, c *api.Client) (any, error) { return c.ListServiceTypes(ctx) }},
		{"ListTopologies", "", func(ctx context.Context, c *api.Client) (any, error) {
			return c.ListTopologies(ctx, "transactional")
		}},
		{"ListSizes", "", func(ctx context.Context, c *api.Client) (any, error) {
			return c.ListSizes(ctx, "aws", "es-replica", "arm64")
		}},
		{"ListVersions", "", func(ctx context.Context, c *api.Client) (any, error) { return c.ListVersions(ctx, "es-single") }},
		{"ListStorageSizes", "", func(ctx context.Context, c *api.Client) (any, error) {
			return c.ListStorageSizes(ctx, "es-single")
		}},
		{"CreateSchedule", "once", func(ctx context.Context, c *api.Client) (any, error) {
			return c.CreateSchedule(ctx, api.ScheduleRequest{BackupType: api.BackupFull, Schedule: "once", ServiceID: svc})
		}},
		{"CreateSchedule", "cron", func(ctx context.Context, c *api.Client) (any, error) {
			return c.CreateSchedule(ctx, api.ScheduleRequest{BackupType: api.BackupIncremental, Schedule: "30 3 * * 1-5", ServiceID: svc})
		}},
		{"CreateSchedule", "external storage", func(ctx context.Context, c *api.Client) (any, error) {
			return c.CreateSchedule(ctx, api.ScheduleRequest{BackupType: api.BackupDump, Schedule: "0 5 * * 1", ServiceID: svc,
				ExternalStorage: &api.ExternalStorage{Bucket: api.ExternalBucket{Path: "gs://acme-dumps/weekly", Credentials: gcs}}})
		}},
		{"CreateSchedule", "once, external storage", func(ctx context.Context, c *api.Client) (any, error) {
			return c.CreateSchedule(ctx, api.ScheduleRequest{BackupType: api.BackupFull, Schedule: "once", ServiceID: svc,
				ExternalStorage: &api.ExternalStorage{Bucket: api.ExternalBucket{Path: "s3://acme-backups/nightly", Credentials: s3}}})
		}},
		// `skytui backups create --type binarylog`
		{"CreateSchedule", "binarylog", func(ctx context.Context, c *api.Client) (any, error) {
			return c.CreateSchedule(ctx, api.ScheduleRequest{BackupType: api.BackupBinarylog, Schedule: "once", ServiceID: svc})
		}},
		// the live service's own type, offered by the form on its prefix
		{"CreateSchedule", "snapshot", func(ctx context.Context, c *api.Client) (any, error) {
			return c.CreateSchedule(ctx, api.ScheduleRequest{BackupType: api.BackupSnapshot, Schedule: "0 4 * * *", ServiceID: svc})
		}},
		{"ListSchedules", "", func(ctx context.Context, c *api.Client) (any, error) { return c.ListSchedules(ctx, svc) }},
		{"GetSchedule", "", func(ctx context.Context, c *api.Client) (any, error) { return c.GetSchedule(ctx, 3) }},
		{"UpdateSchedule", "cron", func(ctx context.Context, c *api.Client) (any, error) {
			return c.UpdateSchedule(ctx, 3, api.ScheduleUpdate{Schedule: "45 4 * * 1-5"})
		}},
		{"UpdateSchedule", "type", func(ctx context.Context, c *api.Client) (any, error) {
			return c.UpdateSchedule(ctx, 3, api.ScheduleUpdate{BackupType: api.BackupIncremental})
		}},
		{"UpdateSchedule", "suspend", func(ctx context.Context, c *api.Client) (any, error) {
			yes := true
			return c.UpdateSchedule(ctx, 3, api.ScheduleUpdate{Suspended: &yes})
		}},
		{"UpdateSchedule", "resume", func(ctx context.Context, c *api.Client) (any, error) {
			no := false
			return c.UpdateSchedule(ctx, 3, api.ScheduleUpdate{Suspended: &no})
		}},
		{"DeleteSchedule", "", func(ctx context.Context, c *api.Client) (any, error) { return nil, c.DeleteSchedule(ctx, 3) }},
		{"ListBackups", "", func(ctx context.Context, c *api.Client) (any, error) { return c.ListBackups(ctx, svc) }},
		{"ListAllBackups", "", func(ctx context.Context, c *api.Client) (any, error) {
			return c.ListAllBackups(ctx, []string{svc, "dbtgf00000002"})
		}},
		{"CreateRestore", "managed", func(ctx context.Context, c *api.Client) (any, error) {
			return c.CreateRestore(ctx, api.ManagedRestore(svc, "eda3b1:"+svc+":pod-0"))
		}},
		{"CreateRestore", "bucket", func(ctx context.Context, c *api.Client) (any, error) {
			return c.CreateRestore(ctx, api.BucketRestore(svc, "dump.sql", api.ExternalSource{Bucket: "gs://acme-dumps/", Method: api.MethodMysqldump, Credentials: gcs}))
		}},
		{"CreateRestore", "bucket, encrypted", func(ctx context.Context, c *api.Client) (any, error) {
			return c.CreateRestore(ctx, api.BucketRestore(svc, "full.xb", api.ExternalSource{Bucket: "s3://acme-backups/", Method: api.MethodMariabackup, Credentials: s3, EncryptionKey: "k3y"}))
		}},
		{"CreateRestore", "backup id", func(ctx context.Context, c *api.Client) (any, error) {
			return c.CreateRestore(ctx, api.BackupIDRestore(svc, "eda3b1:"+svc+":pod-0"))
		}},
		{"CreateRestore", "point in time", func(ctx context.Context, c *api.Client) (any, error) {
			return c.CreateRestore(ctx, api.PointInTimeRestore(svc, "dbtgf00000002", pitrMoment))
		}},
		{"PointInTimeWindows", "", func(ctx context.Context, c *api.Client) (any, error) { return c.PointInTimeWindows(ctx) }},
		{"RestoreTargets", "by service", func(ctx context.Context, c *api.Client) (any, error) {
			return c.RestoreTargets(ctx, api.RestoreLookupRequest{ServiceID: svc})
		}},
		{"RestoreTargets", "by backup", func(ctx context.Context, c *api.Client) (any, error) {
			return c.RestoreTargets(ctx, api.RestoreLookupRequest{BackupID: "eda3b1:" + svc + ":pod-0"})
		}},
		{"ListRestores", "", func(ctx context.Context, c *api.Client) (any, error) { return c.ListRestores(ctx, svc) }},
		{"RestoreSweep.All", "", func(ctx context.Context, c *api.Client) (any, error) {
			return (&api.RestoreSweep{}).All(ctx, c, true)
		}},
		{"RestoreSweep.Partial", "", func(ctx context.Context, c *api.Client) (any, error) {
			all, _, err := (&api.RestoreSweep{}).Partial(ctx, c, true)
			return all, err
		}},
		{"RestoreSweep.List", "", func(ctx context.Context, c *api.Client) (any, error) {
			return (&api.RestoreSweep{}).List(ctx, c, []string{svc, "dbtgf00000002"}, true)
		}},
		{"GetRestore", "", func(ctx context.Context, c *api.Client) (any, error) { return c.GetRestore(ctx, 7) }},
		{"DeleteRestore", "", func(ctx context.Context, c *api.Client) (any, error) { return nil, c.DeleteRestore(ctx, 7) }},
		{"Check", "", func(ctx context.Context, c *api.Client) (any, error) { return nil, c.Check(ctx) }},
		{"StopService", "", func(ctx context.Context, c *api.Client) (any, error) { return nil, c.StopService(ctx, svc) }},
		{"StartService", "", func(ctx context.Context, c *api.Client) (any, error) { return nil, c.StartService(ctx, svc) }},
		{"DeleteService", "", func(ctx context.Context, c *api.Client) (any, error) { return nil, c.DeleteService(ctx, svc) }},
		{"SetNodes", "", func(ctx context.Context, c *api.Client) (any, error) { return nil, c.SetNodes(ctx, svc, 3) }},
		{"SetSize", "", func(ctx context.Context, c *api.Client) (any, error) { return nil, c.SetSize(ctx, svc, "sky-4x16") }},
		{"SetStorageSize", "", func(ctx context.Context, c *api.Client) (any, error) { return nil, c.SetStorageSize(ctx, svc, 200) }},
		{"SetSSL", "", func(ctx context.Context, c *api.Client) (any, error) { return nil, c.SetSSL(ctx, svc, false) }},
		{"IsIPAllowed", "", func(ctx context.Context, c *api.Client) (any, error) { return c.IsIPAllowed(ctx, svc, "203.0.113.7") }},
		{"StartManagedReplication", "uni-directional", func(ctx context.Context, c *api.Client) (any, error) {
			return c.StartManagedReplication(ctx, svc, "dbtgf00000002", api.ReplicationUni)
		}},
		{"StartManagedReplication", "bi-directional", func(ctx context.Context, c *api.Client) (any, error) {
			return c.StartManagedReplication(ctx, svc, "dbtgf00000002", api.ReplicationBi)
		}},
		{"EndManagedReplication", "", func(ctx context.Context, c *api.Client) (any, error) { return nil, c.EndManagedReplication(ctx, svc) }},
		{"ListReplicas", "", func(ctx context.Context, c *api.Client) (any, error) { return c.ListReplicas(ctx, svc) }},
	}
}

// requireCovered fails the test when an exported method of *api.Client or
// *api.RestoreSweep is neither called by calls nor known to send nothing.
func requireCovered(t *testing.T, called []string) {
	t.Helper()
	var missing []string
	for _, typ := range []struct {
		prefix string
		t      reflect.Type
	}{{"", reflect.TypeFor[*api.Client]()}, {"RestoreSweep.", reflect.TypeFor[*api.RestoreSweep]()}} {
		for i := 0; i < typ.t.NumMethod(); i++ {
			name := typ.prefix + typ.t.Method(i).Name
			if !slices.Contains(called, name) && !slices.Contains(clientMethodsSendingNothing, name) {
				missing = append(missing, name)
			}
		}
	}
	if len(missing) > 0 {
		t.Errorf("client methods not exercised against the description (add them to clientCalls, or to clientMethodsSendingNothing if they send nothing): %s",
			strings.Join(missing, ", "))
	}
}

func TestOpenAPIClientRequests(t *testing.T) {
	doc := openapispec.Load(t)
	v := newValidatingServer(t, doc, minimalAnswer)
	c := v.client(t)
	ctx := context.Background()

	var called []string
	for _, cc := range clientCalls(t) {
		called = append(called, cc.method)
		before := v.count()
		if _, err := cc.call(ctx, c); err != nil {
			t.Errorf("%s %s: %v", cc.method, cc.name, err)
		}
		if v.count() == before {
			t.Errorf("%s %s sent nothing", cc.method, cc.name)
		}
	}

	// The live rules: calls the live service does not offer send nothing.
	called = append(called, "BackupStatus")
	for _, cc := range []struct {
		name string
		call func() error
		want error
	}{
		{"BackupStatus", func() error { _, err := c.BackupStatus(ctx, testService); return err }, api.ErrStatusUnsupported},
		{"ListRestores without a service", func() error { _, err := c.ListRestores(ctx, ""); return err }, api.ErrServiceRequired},
		{"ListSchedules without a service", func() error { _, err := c.ListSchedules(ctx, ""); return err }, api.ErrServiceRequired},
	} {
		before := v.count()
		if err := cc.call(); !errors.Is(err, cc.want) {
			t.Errorf("%s: got %v, want %v", cc.name, err, cc.want)
		}
		if n := v.count() - before; n != 0 {
			t.Errorf("%s sent %d requests to the live service, want none", cc.name, n)
		}
	}
	requireCovered(t, called)

	// Every operation the client uses was seen (a route mismatch would
	// have been a violation already; this catches calls that quietly
	// stopped sending).
	for _, op := range []string{
		"GET /provisioning/v1/services", "POST /provisioning/v1/services", "GET /provisioning/v1/services/{service_id}",
		"GET /provisioning/v1/services/{service_id}/security/credentials",
		"GET /provisioning/v1/services/{service_id}/security/allowlist",
		"POST /provisioning/v1/services/{service_id}/security/allowlist",
		"DELETE /provisioning/v1/services/{service_id}/security/allowlist",
		"PUT /provisioning/v1/services/{service_id}/security/allowlist",
		"GET /provisioning/v1/providers", "GET /provisioning/v1/regions", "GET /provisioning/v1/service-types",
		"GET /provisioning/v1/topologies", "GET /provisioning/v1/sizes", "GET /provisioning/v1/versions",
		"GET /provisioning/v1/topologies/{topology_name}/storage-sizes",
		"POST /provisioning/v1/services/{service_id}/stop", "POST /provisioning/v1/services/{service_id}/start",
		"DELETE /provisioning/v1/services/{service_id}", "POST /provisioning/v1/services/{service_id}/nodes",
		"POST /provisioning/v1/services/{service_id}/size", "PATCH /provisioning/v1/services/{service_id}/storage/size",
		"PATCH /provisioning/v1/services/{service_id}/security/ssl",
		"POST /provisioning/v1/services/{service_id}/security/is-ip-allowed",
		"POST /provisioning/v1/services/{service_id}/replication", "DELETE /provisioning/v1/services/{service_id}/replication",
		"GET /provisioning/v1/services/{service_id}/replicas",
		"GET /skybackup/v1/backups", "GET /skybackup/v1/backups/schedules", "POST /skybackup/v1/backups/schedules",
		"GET /skybackup/v1/restores", "POST /skybackup/v1/restores", "GET /skybackup/v1/restores/{id}",
		"DELETE /skybackup/v1/restores/{id}",
		"GET /skybackup/v1/restores/pointintime/lookup", "POST /skybackup/v1/restores/lookup",
		"GET /skybackup/v1/backups/schedules/{id}", "PATCH /skybackup/v1/backups/schedules/{id}",
		"DELETE /skybackup/v1/backups/schedules/{id}",
	} {
		if v.seen[op] == 0 {
			t.Errorf("%s never sent", op)
		}
	}
	ops := make([]string, 0, len(v.seen))
	for op, n := range v.seen {
		ops = append(ops, fmt.Sprintf("%s ×%d", op, n))
	}
	sort.Strings(ops)
	t.Logf("%d requests validated: %s", v.count(), strings.Join(ops, ", "))
	// Each erratum is needed: the client sends the field in its wire form.
	for _, e := range errata {
		key := e.op + " " + strings.Join(e.field, ".")
		if v.excused[key] == 0 {
			t.Errorf("erratum %s never applied: drop it, or the client no longer sends the field", key)
		}
	}

	for _, msg := range v.violations {
		t.Errorf("request does not match the description: %s", msg)
	}
}

// The validating server does find requests the description refuses.
func TestOpenAPIValidatorRejects(t *testing.T) {
	doc := openapispec.Load(t)
	gcs, _ := testCredentials(t)
	for _, tc := range []struct {
		name, method, path, body string
		noKey                    bool
		want                     string
	}{
		{"restores without service_id", "GET", "/skybackup/v1/restores", "", false, "service_id"},
		{"schedules without service_id", "GET", "/skybackup/v1/backups/schedules?page=1", "", false, "service_id"},
		{"service_id too short", "GET", "/skybackup/v1/restores?service_id=db", "", false, "service_id"},
		{"page_size over 100", "GET", "/provisioning/v1/services?page_size=101", "", false, "page_size"},
		{"GET with a body", "GET", "/skybackup/v1/backups/status?service_id=dbtgf1", `{"service_id":"dbtgf1"}`, false, "non-empty body"},
		{"an operation the description lacks", "GET", "/backup/v1/backups/status?service_id=dbtgf1", "", false, "no such operation"},
		{"no API key", "GET", "/provisioning/v1/providers", "", true, "X-API-Key"},
		{"unknown provider", "GET", "/provisioning/v1/regions?provider=ibm", "", false, "provider"},
		{"restore without id", "POST", "/skybackup/v1/restores", `{"service_id":"dbtgf1"}`, false, "id"},
		// the errata are excused only for values of the intended wire form
		{"credentials not base64", "POST", "/skybackup/v1/restores",
			`{"service_id":"dbtgf1","id":"f.sql","external_source":{"bucket":"gs://b/","method":"mysqldump","credentials":"not base64!"}}`, false, "credentials"},
		{"schedule neither once nor cron", "POST", "/skybackup/v1/backups/schedules",
			`{"service_id":"dbtgf1","backup_type":"full","schedule":"every day"}`, false, "schedule"},
		{"backup type outside the enum", "POST", "/skybackup/v1/backups/schedules",
			`{"service_id":"dbtgf1","backup_type":"physical","schedule":"once"}`, false, "backup_type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := newValidatingServer(t, doc, minimalAnswer)
			var body io.Reader
			if tc.body != "" {
				body = strings.NewReader(tc.body)
			}
			req, err := http.NewRequest(tc.method, v.srv.URL+tc.path, body)
			if err != nil {
				t.Fatal(err)
			}
			if tc.body != "" {
				req.Header.Set("Content-Type", "application/json")
			}
			if !tc.noKey {
				req.Header.Set("X-API-Key", "k")
			}
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if len(v.violations) == 0 {
				t.Fatalf("no violation reported")
			}
			if all := strings.Join(v.violations, "\n"); !strings.Contains(all, tc.want) {
				t.Errorf("violations do not mention %q:\n%s", tc.want, all)
			}
		})
	}

	// The same bodies in their valid forms pass: the errata excuse the
	// wire form, and nothing else is reported.
	v := newValidatingServer(t, doc, minimalAnswer)
	for _, b := range []struct{ path, body string }{
		{"/skybackup/v1/restores", `{"service_id":"dbtgf1","id":"f.sql","external_source":{"bucket":"gs://b/","method":"mysqldump","credentials":"` + gcs + `"}}`},
		{"/skybackup/v1/backups/schedules", `{"service_id":"dbtgf1","backup_type":"full","schedule":"*/15 0-6 1,15 * 1-5"}`},
	} {
		req, _ := http.NewRequest("POST", v.srv.URL+b.path, strings.NewReader(b.body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-API-Key", "k")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
	}
	for _, msg := range v.violations {
		t.Errorf("valid request reported: %s", msg)
	}
}
