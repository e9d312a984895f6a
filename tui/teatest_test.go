package tui

import (
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest/v2"
)

// frameRecorder runs the model and keeps its latest frame, so a test can
// wait for what the screen shows rather than for bytes of the renderer's
// diff stream (which rewrites only the cells that changed).
type frameRecorder struct {
	m     *Model
	mu    sync.Mutex
	frame string
}

func (r *frameRecorder) Init() tea.Cmd { return r.m.Init() }

func (r *frameRecorder) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := r.m.Update(msg)
	return r, cmd
}

func (r *frameRecorder) View() tea.View {
	v := r.m.View()
	r.mu.Lock()
	r.frame = ansi.Strip(v.Content)
	r.mu.Unlock()
	return v
}

func (r *frameRecorder) Frame() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.frame
}

// TestCreateServiceFlow runs the real program (teatest) against the
// sandbox on a manual clock: create a service through the form, see it
// pending at once, advance the sandbox clock past the launch and see it
// become ready.
func TestCreateServiceFlow(t *testing.T) {
	srv, clk, c := newSandbox(t, false)
	rec := &frameRecorder{m: New(Options{Client: c, Profile: "flow", Demo: true, Now: clk.Now,
		SlowInterval: 30 * time.Second, Getenv: func(string) string { return "" }})}
	tm := teatest.NewTestModel(t, rec, teatest.WithInitialTermSize(100, 30))

	wait := func(what string) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for !strings.Contains(rec.Frame(), what) {
			if time.Now().After(deadline) {
				t.Fatalf("the screen never showed %q; last frame:\n%s", what, rec.Frame())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	press := func(k string) { tm.Send(keyMsg(k)) }

	wait("no services yet")
	press("n")
	wait("> North America (us-east-1)") // providers, then the default provider's regions
	press("enter")
	press("enter")
	wait("> Enterprise Server Single Node")
	press("enter")
	press("enter")
	wait("> Sky-2x8")
	press("enter")
	press("enter")
	wait("> 100 GB")
	press("enter")
	press("enter")
	wait("5/5: name and access")
	tm.Type("flow-db")
	wait("ok: 7 characters")
	press("enter") // nodes
	press("enter") // ssl
	press("enter") // allow list
	press("enter") // done: review
	wait(`"name": "flow-db"`)
	press("enter")
	wait("pending_create")
	if n := srv.Stats().Count("POST", "/provisioning/v1/services"); n != 1 {
		t.Fatalf("create sent %d times, want 1", n)
	}

	clk.Advance(6 * time.Minute)
	press("r")
	wait("is ready")
	if !strings.Contains(rec.Frame(), "flow-db") {
		t.Fatalf("the service is not listed:\n%s", rec.Frame())
	}

	press("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}
