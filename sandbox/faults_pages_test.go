package sandbox

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/skytui/skytui/api"
)

// The faults of a GET's answer: empty, null, endless, huge.

func TestParseFaultsGETFaults(t *testing.T) {
	f, err := ParseFaults("empty=0.02,null=0.03,endless=1%,huge=0.04,seed=5")
	if err != nil {
		t.Fatal(err)
	}
	want := Faults{EmptyRate: 0.02, NullRate: 0.03, EndlessRate: 0.01, HugeRate: 0.04, Seed: 5}
	if f != want {
		t.Fatalf("got %+v", f)
	}
	if g, err := ParseFaults(f.String()); err != nil || g != f {
		t.Fatalf("round trip %q: %+v %v", f.String(), g, err)
	}
	for spec, mention := range map[string]string{
		"empty=2":               "empty=2",
		"null=-1":               "null=-1",
		"endless":               `"endless"`,
		"huge=0.6,error=0.6":    "more than 1",
		"endless=0.5,null=0.51": "more than 1",
	} {
		if _, err := ParseFaults(spec); err == nil || !strings.Contains(err.Error(), mention) {
			t.Errorf("ParseFaults(%q) = %v, want an error mentioning %s", spec, err, mention)
		}
	}
	// an unknown key lists the new ones
	if _, err := ParseFaults("bogus=1"); err == nil || !strings.Contains(err.Error(), "empty, null, endless, huge") {
		t.Errorf("unknown key: %v", err)
	}
}

func TestFaultEmptyAndNullBodies(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    Faults
		body string
	}{{"empty", Faults{EmptyRate: 1}, ""}, {"null", Faults{NullRate: 1}, "null"}} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{DemoData: true})
			id := h.s.ServiceIDs()[0]
			h.s.SetFaults(tc.f)
			for _, path := range []string{"/provisioning/v1/services", "/provisioning/v1/providers", "/skybackup/v1/backups",
				"/skybackup/v1/restores?service_id=" + id, "/backup/v1/restores", "/backup/v1/backups/schedules",
				"/provisioning/v1/services/" + id + "/security/allowlist"} {
				r := h.do("GET", path, nil).want(t, 200)
				if string(r.body) != tc.body {
					t.Errorf("%s: body %q, want %q", path, r.body, tc.body)
				}
				if ct := r.header.Get("Content-Type"); ct != "application/json" {
					t.Errorf("%s: Content-Type %q", path, ct)
				}
			}
			// one record is not a listing: answered as usual
			if r := h.do("GET", "/provisioning/v1/services/"+id, nil).want(t, 200); !bytes.Contains(r.body, []byte(id)) {
				t.Errorf("GET one service: %s", r.body)
			}
			// a change is never answered so
			r := h.do("POST", "/provisioning/v1/services", serviceReq("still-made", "aws")).want(t, 202)
			if !bytes.Contains(r.body, []byte("still-made")) {
				t.Errorf("POST answered %s", r.body)
			}
			if n := h.s.Stats().Faults[tc.name]; n != 7 {
				t.Errorf("counted %d %s faults: %v", n, tc.name, h.s.Stats().Faults)
			}
			// the client takes neither for an empty list
			c := h.client(api.LiveBackupPrefix)
			if s, err := c.ListServices(bg); err == nil {
				t.Errorf("ListServices: %d services, no error", len(s))
			}
			if b, err := c.ListAllBackups(bg, nil); err == nil {
				t.Errorf("ListAllBackups: %d backups, no error", len(b))
			}
			if r, err := c.ListRestores(bg, id); err == nil {
				t.Errorf("ListRestores: %d restores, no error", len(r))
			}
		})
	}
}

func TestFaultEndlessServicePages(t *testing.T) {
	h := newHarness(t, Options{DemoData: true})
	h.s.SetFaults(Faults{EndlessRate: 1})
	tokens := map[string]bool{}
	path := "/provisioning/v1/services?page_size=100"
	for page := 1; page <= 5; page++ {
		r := h.do("GET", path, nil).want(t, 200)
		var svcs []api.Service
		if err := json.Unmarshal(r.body, &svcs); err != nil {
			t.Fatalf("page %d: %v", page, err)
		}
		if len(svcs) != 1000 {
			t.Fatalf("page %d: %d services", page, len(svcs))
		}
		if want := "dbendless" + leftPad(strconv.Itoa((page-1)*1000+1), 7); svcs[0].ID != want {
			t.Fatalf("page %d starts with %q, want %q", page, svcs[0].ID, want)
		}
		tok := r.header.Get("X-SkySQL-Page-Token-Next")
		if tok == "" || tokens[tok] {
			t.Fatalf("page %d: next token %q (seen: %v)", page, tok, tokens[tok])
		}
		tokens[tok] = true
		path = "/provisioning/v1/services?page_size=100&page_token=" + tok
	}
	// the chain stays endless after the fault is off; a new listing does not
	h.s.SetFaults(Faults{})
	if r := h.do("GET", path, nil).want(t, 200); r.header.Get("X-SkySQL-Page-Token-Next") == "" {
		t.Fatal("the endless listing stopped when the faults did")
	}
	if r := h.do("GET", "/provisioning/v1/services", nil).want(t, 200); bytes.Contains(r.body, []byte("dbendless")) || r.header.Get("X-SkySQL-Page-Token-Next") != "" {
		t.Fatalf("a new listing is endless: %.200s", r.body)
	}

	h.s.SetFaults(Faults{EndlessRate: 1})
	_, err := h.client("").ListServices(bg)
	if err == nil || !strings.Contains(err.Error(), "the most the client reads") {
		t.Fatalf("ListServices: %v", err)
	}
	if n := h.s.Stats().Faults["endless"]; n < 5+api.MaxListItems/1000 {
		t.Fatalf("%d endless pages answered", n)
	}
}

func leftPad(s string, n int) string { return strings.Repeat("0", max(0, n-len(s))) + s }

func TestFaultEndlessEnvelopePages(t *testing.T) {
	h := newHarness(t, Options{DemoData: true})
	id := h.s.ServiceIDs()[0]
	h.s.SetFaults(Faults{EndlessRate: 1})
	for _, tc := range []struct{ path, key string }{
		{"/skybackup/v1/backups", "backups"},
		{"/backup/v1/backups?service_id=" + id, "backups"},
		{"/skybackup/v1/restores?service_id=" + id, "restores"},
		{"/backup/v1/restores", "restores"}, // a bare array otherwise
		{"/skybackup/v1/backups/schedules?service_id=" + id, "schedules"},
	} {
		for page := 1; page <= 3; page++ {
			sep := "?"
			if strings.Contains(tc.path, "?") {
				sep = "&"
			}
			r := h.do("GET", tc.path+sep+"page_size=100&page="+strconv.Itoa(page), nil).want(t, 200)
			var env map[string]json.RawMessage
			if err := json.Unmarshal(r.body, &env); err != nil {
				t.Fatalf("%s page %d: %v", tc.path, page, err)
			}
			var items []map[string]any
			if err := json.Unmarshal(env[tc.key], &items); err != nil || len(items) != 1000 {
				t.Fatalf("%s page %d: %d items, %v", tc.path, page, len(items), err)
			}
			if string(env["pages_count"]) != "1000000000" {
				t.Fatalf("%s page %d: pages_count %s", tc.path, page, env["pages_count"])
			}
		}
	}
	// page 2 stays endless after the faults stop; page 1 starts anew
	h.s.SetFaults(Faults{})
	if r := h.do("GET", "/skybackup/v1/backups?page_size=100&page=4", nil).want(t, 200); !bytes.Contains(r.body, []byte(`"pages_count":1000000000`)) {
		t.Fatalf("page 4 after the faults stopped: %.200s", r.body)
	}
	for _, page := range []string{"1", "2"} {
		if r := h.do("GET", "/skybackup/v1/backups?page_size=100&page="+page, nil).want(t, 200); bytes.Contains(r.body, []byte("endless")) {
			t.Fatalf("page %s of a new listing: %.200s", page, r.body)
		}
	}
	h.s.SetFaults(Faults{EndlessRate: 1})
	c := h.client(api.LiveBackupPrefix)
	if _, err := c.ListAllBackups(bg, nil); err == nil || !strings.Contains(err.Error(), "the most the client reads") {
		t.Fatalf("ListAllBackups: %v", err)
	}
	if _, err := c.ListRestores(bg, id); err == nil || !strings.Contains(err.Error(), "the most the client reads") {
		t.Fatalf("ListRestores: %v", err)
	}
	// a listing that is not paged is answered as usual
	h.do("GET", "/provisioning/v1/providers", nil).want(t, 200)
}

// At a rate below 1 a listing drawn endless goes on: its next pages are
// endless whatever their own draw.
func TestFaultEndlessChainsWhateverTheDraw(t *testing.T) {
	h := newHarness(t, Options{DemoData: true, Faults: Faults{EndlessRate: 0.2, Seed: 1}})
	c := h.client(api.LiveBackupPrefix)
	for i := 0; h.s.Stats().Faults["endless"] == 0; i++ {
		if i == 100 {
			t.Fatal("no listing drawn endless in 100")
		}
		if _, err := c.ListAllBackups(bg, nil); err != nil && !strings.Contains(err.Error(), "the most the client reads") {
			t.Fatal(err)
		}
	}
	if n := h.s.Stats().Faults["endless"]; n < api.MaxListItems/1000 {
		t.Fatalf("the endless listing stopped after %d pages", n)
	}
}

func TestFaultHugeBodyIsStreamed(t *testing.T) {
	h := newHarness(t, Options{DemoData: true})
	id := h.s.ServiceIDs()[0]
	h.s.SetFaults(Faults{HugeRate: 1})
	for _, tc := range []struct {
		path  string
		first byte
	}{{"/provisioning/v1/services", '['}, {"/provisioning/v1/services/" + id, '{'}} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		req, _ := http.NewRequest("GET", h.base+tc.path, nil)
		req.Header.Set("X-API-Key", testKey)
		res, err := h.hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		head := make([]byte, 40)
		if _, err := io.ReadFull(res.Body, head); err != nil {
			t.Fatal(err)
		}
		rest, err := io.Copy(io.Discard, res.Body)
		res.Body.Close()
		runtime.ReadMemStats(&after)
		if err != nil || res.StatusCode != 200 || res.ContentLength != HugeBodySize || int64(len(head))+rest != HugeBodySize {
			t.Fatalf("%s: %d, Content-Length %d, read %d, %v", tc.path, res.StatusCode, res.ContentLength, int64(len(head))+rest, err)
		}
		if head[0] != tc.first || !bytes.Contains(head, []byte(`"name":"xxx`)) {
			t.Fatalf("%s starts %q", tc.path, head)
		}
		// server and client in this process: neither held the body
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
			t.Fatalf("%s: %d MiB allocated to serve %d MiB", tc.path, alloc>>20, HugeBodySize>>20)
		}
	}
	// valid JSON, just too big
	r := h.do("GET", "/provisioning/v1/providers", nil).want(t, 200)
	var v []map[string]string
	if err := json.Unmarshal(r.body, &v); err != nil || len(v) != 1 || len(v[0]["name"]) < 32<<20 {
		t.Fatalf("the huge answer does not decode: %v", err)
	}
	if _, err := h.client("").ListServices(bg); err == nil || !strings.Contains(err.Error(), "larger than 32 MiB") {
		t.Fatalf("ListServices: %v", err)
	}
	// changes are answered as usual
	h.do("POST", "/provisioning/v1/services", serviceReq("not-huge", "aws")).want(t, 202)
}
