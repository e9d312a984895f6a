package api

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
)

// A successful answer that cannot be read (malformed, null where a list was
// expected, over MaxBody) is an error that names the answer's trace ID, as
// a refusal does: in its text and in its TraceID (the log's trace line).
func TestUnreadableAnswerNamesItsTrace(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string
		huge bool
		call func(c *Client) error
	}{
		{"malformed object", `{"id": "dbt`, false, func(c *Client) error { _, err := c.GetService(bg, "dbtgf1"); return err }},
		{"null list", `null`, false, func(c *Client) error { _, err := c.ListServices(bg); return err }},
		{"not an object", `"x"`, false, func(c *Client) error { _, err := c.ListBackups(bg, "dbtgf1"); return err }},
		{"over MaxBody", ``, true, func(c *Client) error { _, err := c.ListServices(bg); return err }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := answering(t, http.StatusOK, "trace-ok-7f3a", tc.body, tc.huge)
			err := tc.call(c)
			e := AsError(err)
			if e == nil {
				t.Fatalf("want an API error, got %v", err)
			}
			if e.Status != http.StatusOK || e.TraceID != "trace-ok-7f3a" || !strings.Contains(err.Error(), "trace trace-ok-7f3a") {
				t.Errorf("status %d, trace %q, text %q; want 200 and trace trace-ok-7f3a", e.Status, e.TraceID, err)
			}
		})
	}
}

// An accepted change whose answer cannot be read says so with the
// answer's trace ID, ahead of the reason (which may be long).
func TestAcceptedUnreadableAnswerNamesItsTrace(t *testing.T) {
	for _, tc := range []struct {
		name string
		body string
		huge bool
	}{
		{"malformed", `{"id": tr` + strings.Repeat("x", 500), false},
		{"over MaxBody", ``, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := answering(t, http.StatusAccepted, "trace-acc-91c2", tc.body, tc.huge)
			s, err := c.CreateService(bg, CreateServiceRequest{Name: "orders-stage", Provider: "aws", Region: "us-east-1", ServiceType: "transactional",
				Topology: "es-single", Architecture: "amd64", Size: "sky-2x8", Nodes: 1, Storage: 100})
			if err != nil {
				t.Fatal(err)
			}
			want := "202 answer to POST /provisioning/v1/services (trace trace-acc-91c2): "
			if !strings.HasPrefix(s.Unreadable, want) {
				t.Errorf("create service: %q; want it to begin %q", s.Unreadable, want)
			}
			r, err := c.CreateRestore(bg, RestoreRequest{ServiceID: "dbtgf00000001", Key: "k:dbtgf00000001:pod-0"})
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(r.Unreadable, "(trace trace-acc-91c2): ") {
				t.Errorf("restore: %q; want the trace ID", r.Unreadable)
			}
		})
	}
}

// answering is a client of a server that answers every request with
// status, the trace ID trace and body (huge: a Content-Length over
// MaxBody).
func answering(t *testing.T, status int, trace, body string, huge bool) *Client {
	t.Helper()
	c, _ := newTestClient(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Trace-Id", trace)
		if huge {
			w.Header().Set("Content-Length", strconv.Itoa(MaxBody+10))
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	return c
}
