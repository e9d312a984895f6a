package sandbox

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
)

// t0 is 10:00 UTC: the first nightly backup of a service launched at t0
// runs 16 hours later.
var t0 = time.Date(2026, 8, 20, 10, 0, 0, 0, time.UTC)

const testKey = "skysql.test.key"

// anyKey as Options.APIKey makes the harness accept any key.
const anyKey = "<any>"

type harness struct {
	t    *testing.T
	s    *Server
	clk  *ManualClock
	base string
	hc   *http.Client
	// record, when set, sees every exchange (the conformance test).
	record func(method, path string, r *resp)
}

type resp struct {
	status int
	header http.Header
	body   []byte
}

func newHarness(t *testing.T, opts Options) *harness {
	t.Helper()
	clk, _ := opts.Clock.(*ManualClock)
	if opts.Clock == nil {
		clk = NewManualClock(t0)
		opts.Clock = clk
	}
	switch opts.APIKey {
	case "":
		opts.APIKey = testKey
	case anyKey:
		opts.APIKey = ""
	}
	s := New(opts)
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		s.Close()
		ts.CloseClientConnections()
		ts.Close()
	})
	return &harness{t: t, s: s, clk: clk, base: ts.URL, hc: &http.Client{Timeout: 10 * time.Second}}
}

// do sends one request with the test key. body: nil, a string (sent raw)
// or a value (sent as JSON).
func (h *harness) do(method, path string, body any) *resp {
	h.t.Helper()
	r, err := h.try(method, path, body, testKey)
	if err != nil {
		h.t.Fatalf("%s %s: %v", method, path, err)
	}
	return r
}

func (h *harness) try(method, path string, body any, key string) (*resp, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, h.base+path, rd)
	if err != nil {
		return nil, err
	}
	if key != "" {
		req.Header.Set("X-API-Key", key)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/json")
	res, err := h.hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	r := &resp{status: res.StatusCode, header: res.Header, body: data}
	if h.record != nil {
		h.record(method, path, r)
	}
	return r, nil
}

func (r *resp) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode %s: %v", r.body, err)
	}
}

func (r *resp) want(t *testing.T, status int) *resp {
	t.Helper()
	if r.status != status {
		t.Fatalf("status %d, want %d: %s", r.status, status, r.body)
	}
	return r
}

// errBody checks the status and decodes the live error body.
func (r *resp) errBody(t *testing.T, status int) api.ErrorBody {
	t.Helper()
	r.want(t, status)
	var b api.ErrorBody
	r.decode(t, &b)
	if b.Code != status || len(b.Errors) == 0 || b.TraceID == "" {
		t.Fatalf("error body lacks code/errors/trace_id: %s", r.body)
	}
	if got := r.header.Get("X-Trace-Id"); got != b.TraceID {
		t.Fatalf("X-Trace-Id %q, body trace_id %q", got, b.TraceID)
	}
	return b
}

func regionOf(provider string) string {
	return map[string]string{"aws": "us-east-1", "gcp": "us-central1", "azure": "eastus"}[provider]
}

func serviceReq(name, provider string) api.CreateServiceRequest {
	return api.CreateServiceRequest{ServiceType: "transactional", Topology: "es-single", Provider: provider, Region: regionOf(provider),
		Architecture: "amd64", Size: "sky-2x8", Storage: 100, Nodes: 1, Name: name, SSLEnabled: true}
}

// createService launches a service and returns its ID (still pending).
func (h *harness) createService(name, provider string) string {
	h.t.Helper()
	var svc api.Service
	h.do("POST", "/provisioning/v1/services", serviceReq(name, provider)).want(h.t, 202).decode(h.t, &svc)
	return svc.ID
}

// readyService launches a service and waits out its launch.
func (h *harness) readyService(name, provider string) string {
	h.t.Helper()
	id := h.createService(name, provider)
	h.clk.Advance(LaunchDuration + time.Second)
	return id
}

// readyPair launches src and dst on aws and gives src srcBytes of data.
func (h *harness) readyPair(src, dst string, srcBytes int64) (srcID, dstID string) {
	h.t.Helper()
	srcID, dstID = h.readyService(src, "aws"), h.readyService(dst, "aws")
	if err := h.s.SetDataSize(srcID, srcBytes); err != nil {
		h.t.Fatal(err)
	}
	return srcID, dstID
}

func (h *harness) service(id string) api.Service {
	h.t.Helper()
	var svc api.Service
	h.do("GET", "/provisioning/v1/services/"+id, nil).want(h.t, 200).decode(h.t, &svc)
	return svc
}

func (h *harness) backups(id string) []api.Backup {
	h.t.Helper()
	var env struct {
		Backups []api.Backup `json:"backups"`
	}
	h.do("GET", "/backup/v1/backups?page_size=1000&service_id="+id, nil).want(h.t, 200).decode(h.t, &env)
	return env.Backups
}

// onceBackup starts a backup job and returns the schedule record.
func (h *harness) onceBackup(id, typ string) api.Schedule {
	h.t.Helper()
	var sc api.Schedule
	h.do("POST", "/backup/v1/backups/schedules", api.ScheduleRequest{BackupType: typ, Schedule: "once", ServiceID: id}).want(h.t, 200).decode(h.t, &sc)
	return sc
}

// completedFull takes a full backup of id and waits for it; returns its key.
func (h *harness) completedFull(id string) string {
	h.t.Helper()
	h.onceBackup(id, api.BackupFull)
	h.clk.Advance(time.Hour)
	for _, b := range h.backups(id) {
		if b.Type == api.BackupFull && b.Status == "Succeeded" {
			return b.Key
		}
	}
	h.t.Fatalf("no completed full backup of %s", id)
	return ""
}

func (h *harness) credentials(id string) api.Credentials {
	h.t.Helper()
	var c api.Credentials
	h.do("GET", "/provisioning/v1/services/"+id+"/security/credentials", nil).want(h.t, 200).decode(h.t, &c)
	return c
}

func (h *harness) client(backupPrefix string) *api.Client {
	h.t.Helper()
	c, err := api.New(api.Config{BaseURL: h.base, APIKey: testKey, BackupPrefix: backupPrefix, MaxRetries: -1})
	if err != nil {
		h.t.Fatal(err)
	}
	return c
}

var (
	gcsCreds = base64.StdEncoding.EncodeToString([]byte(`{"type":"service_account","client_email":"backup@proj.iam.gserviceaccount.com","private_key":"-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n"}`))
	s3Creds  = base64.StdEncoding.EncodeToString([]byte("[default]\naws_access_key_id = AKIAEXAMPLE\naws_secret_access_key = secret\nregion = us-east-1\n"))
)

var bg = context.Background()
