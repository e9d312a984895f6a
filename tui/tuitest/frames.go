package tuitest

import (
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// FrameRecorder runs a model (in a real program, e.g. teatest) and keeps
// its latest frame, so a test can wait for what the screen shows rather
// than for bytes of the renderer's diff stream (which rewrites only the
// cells that changed).
type FrameRecorder struct {
	M     tea.Model
	mu    sync.Mutex
	frame string
}

// NewFrameRecorder wraps m.
func NewFrameRecorder(m tea.Model) *FrameRecorder { return &FrameRecorder{M: m} }

func (r *FrameRecorder) Init() tea.Cmd { return r.M.Init() }

func (r *FrameRecorder) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := r.M.Update(msg)
	return r, cmd
}

func (r *FrameRecorder) View() tea.View {
	v := r.M.View()
	r.mu.Lock()
	r.frame = ansi.Strip(v.Content)
	r.mu.Unlock()
	return v
}

// Frame is the latest frame, without escape sequences.
func (r *FrameRecorder) Frame() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.frame
}

// Wait waits (up to 15 seconds) until the frame shows what.
func (r *FrameRecorder) Wait(t testing.TB, what string) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !strings.Contains(r.Frame(), what) {
		if time.Now().After(deadline) {
			t.Fatalf("the screen never showed %q; last frame:\n%s", what, r.Frame())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
