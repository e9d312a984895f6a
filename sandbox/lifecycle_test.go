package sandbox

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/api"
)

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
	b := h.do("DELETE", P+"/services/"+dst, nil).errBody(t, http.StatusConflict)
	if !strings.Contains(b.Errors[0].Message, "target of restore") {
		t.Fatalf("delete during a restore: %q", b.Errors[0].Message)
	}
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
