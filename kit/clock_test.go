package kit

import (
	"testing"
	"time"

	"github.com/skytui/skytui/api"
)

// TestCommonTimeIsTheServersTime: without a fixed clock, the UI measures
// ages by the API server's clock (the demo's sandbox runs 30 times fast).
func TestCommonTimeIsTheServersTime(t *testing.T) {
	server := time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)
	cl, err := api.New(api.Config{BaseURL: "http://127.0.0.1:1", ServerClock: func() time.Time { return server }})
	if err != nil {
		t.Fatal(err)
	}
	if got := (&Common{Client: cl}).Time(); !got.Equal(server) {
		t.Fatalf("Time() = %v, want the server's %v", got, server)
	}
	fixed := server.Add(time.Hour)
	if got := (&Common{Client: cl, Now: func() time.Time { return fixed }}).Time(); !got.Equal(fixed) {
		t.Fatalf("a fixed clock was not used: %v", got)
	}
}
