package api_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/skytui/skytui/api"
)

func TestManagedReplicationRequests(t *testing.T) {
	var posts atomic.Int32
	var body map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/services/dbrep00000001/replication"):
			posts.Add(1)
			b, _ := io.ReadAll(r.Body)
			_ = json.Unmarshal(b, &body)
			w.WriteHeader(http.StatusAccepted)
			_, _ = w.Write([]byte(`{"primary_host":"dbpri00000001","replication_type":"bi-directional"}`))
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/services/dbpri00000001/replicas"):
			_, _ = w.Write([]byte("[{\"id\":\"dbrep00000001\",\"name\":\"rep\\u001b[31m\",\"status\":\"ready\",\"primary_host\":\"dbpri00000001\",\"replication_enabled\":true}]"))
		case r.Method == http.MethodDelete:
			w.WriteHeader(http.StatusConflict)
			_, _ = w.Write([]byte(`{"code":409,"errors":[{"message":"service dbrep00000001 is in a pending state"}],"trace_id":"t-77"}`))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	c, err := api.New(api.Config{BaseURL: srv.URL, APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	// refused before sending: same service, bad type, bad IDs
	for _, tc := range []struct{ replica, primary, typ, field string }{
		{"dbrep00000001", "dbrep00000001", api.ReplicationUni, "primary_host"},
		{"dbrep00000001", "dbpri00000001", "sideways", "replication_type"},
		{"dbrep00000001", "dbpri00000001", "", "replication_type"},
		{"dbrep00000001", "orders-prod", api.ReplicationUni, "primary_host"},
	} {
		_, err := c.StartManagedReplication(ctx, tc.replica, tc.primary, tc.typ)
		var ve api.ValidationErrors
		if !errors.As(err, &ve) || ve[0].Field != tc.field {
			t.Errorf("%+v: got %v, want a rule on %s", tc, err, tc.field)
		}
	}
	if posts.Load() != 0 {
		t.Fatalf("invalid requests were sent: %d", posts.Load())
	}

	got, err := c.StartManagedReplication(ctx, "dbrep00000001", "dbpri00000001", api.ReplicationBi)
	if err != nil {
		t.Fatal(err)
	}
	if body["primary_host"] != "dbpri00000001" || body["replication_type"] != "bi-directional" || got.ReplicationType != api.ReplicationBi {
		t.Errorf("sent %v, answer %+v", body, got)
	}

	reps, err := c.ListReplicas(ctx, "dbpri00000001")
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 1 || reps[0].PrimaryHost != "dbpri00000001" || !reps[0].ReplicationEnabled || strings.ContainsRune(reps[0].Name, 0x1b) {
		t.Errorf("replicas: %+v (the name must be cleaned of control sequences)", reps)
	}

	err = c.EndManagedReplication(ctx, "dbrep00000001")
	if !api.IsConflict(err) || !strings.Contains(err.Error(), "pending state") || !strings.Contains(err.Error(), "t-77") {
		t.Errorf("end while pending: %v, want 409 with the message and trace ID", err)
	}
}
