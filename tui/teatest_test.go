package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest/v2"

	"github.com/skytui/skytui/tui/tuitest"
)

// TestCreateServiceFlow runs the real program (teatest) against the
// sandbox on a manual clock: create a service through the form, see it
// pending at once, advance the sandbox clock past the launch and see it
// become ready.
func TestCreateServiceFlow(t *testing.T) {
	srv, clk, c := tuitest.Sandbox(t, false)
	rec := tuitest.NewFrameRecorder(New(Options{Client: c, Profile: "flow", Demo: true, Now: clk.Now,
		SlowInterval: 30 * time.Second, Getenv: func(string) string { return "" }}))
	tm := teatest.NewTestModel(t, rec, teatest.WithInitialTermSize(100, 30))
	press := func(k string) { tm.Send(tuitest.KeyMsg(k)) }

	rec.Wait(t, "no services yet")
	press("n")
	rec.Wait(t, "> North America (us-east-1)") // providers, then the default provider's regions
	// each page of the form: its two choices taken as offered, then the next
	for _, next := range []string{"> Enterprise Server Single Node", "> Sky-2x8", "> 100 GB", "5/5: name and access"} {
		press("enter")
		press("enter")
		rec.Wait(t, next)
	}
	tm.Type("flow-db")
	rec.Wait(t, "ok: 7 characters")
	press("enter") // nodes
	press("enter") // ssl
	press("enter") // allow list
	press("enter") // done: review
	rec.Wait(t, `"name": "flow-db"`)
	press("enter")
	rec.Wait(t, "pending_create")
	if n := srv.Stats().Count("POST", "/provisioning/v1/services"); n != 1 {
		t.Fatalf("create sent %d times, want 1", n)
	}

	clk.Advance(6 * time.Minute)
	press("r")
	rec.Wait(t, "is ready")
	if !strings.Contains(rec.Frame(), "flow-db") {
		t.Fatalf("the service is not listed:\n%s", rec.Frame())
	}

	press("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}
