package tui

import (
	"io"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// quitModel quits on its first message.
type quitModel struct{}

func (quitModel) Init() tea.Cmd                       { return nil }
func (quitModel) Update(tea.Msg) (tea.Model, tea.Cmd) { return quitModel{}, tea.Quit }
func (quitModel) View() tea.View                      { return tea.NewView("") }

// TestPacerFindsTicker: the pacer reaches the frame ticker of a running
// Bubble Tea program. If this fails after a Bubble Tea upgrade, the program
// still works at FPS but keys wait for its ticks again (see frames.go).
func TestPacerFindsTicker(t *testing.T) {
	pace := &pacer{}
	prog := tea.NewProgram(quitModel{}, tea.WithInput(nil), tea.WithOutput(io.Discard),
		tea.WithFPS(FPS), tea.WithFilter(pace.filter))
	pace.prog = prog
	if _, err := prog.Run(); err != nil {
		t.Fatal(err)
	}
	pace.mu.Lock()
	found, fast := pace.ticker != nil, pace.fast
	pace.mu.Unlock()
	pace.stop()
	if !found {
		t.Fatal("no frame ticker found in tea.Program: frames are paced at FPS only")
	}
	if !fast {
		t.Error("a starting program should be at FastFPS")
	}
}

// state is the pacer's mode and last input, read under its lock.
func (p *pacer) state() (fast bool, last time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.fast, p.last
}

// TestPacerModes: input makes it fast; input while fast keeps it fast and
// notes the time; it is slow again once FastHold has passed since the last
// input, not before.
func TestPacerModes(t *testing.T) {
	tk := time.NewTicker(time.Hour)
	defer tk.Stop()
	pace := &pacer{looked: true, ticker: tk}
	defer pace.stop()
	pace.filter(nil, tea.KeyPressMsg{Code: 'j', Text: "j"})
	fast, first := pace.state()
	if !fast {
		t.Fatal("a key should switch to FastFPS")
	}
	pace.filter(nil, tea.PasteMsg{Content: "x"})
	if fast, last := pace.state(); !fast || last.Before(first) {
		t.Fatal("input while fast should keep it fast and note the time")
	}
	pace.filter(nil, struct{}{}) // not input
	pace.slow()                  // early: the input was just now
	if fast, _ := pace.state(); !fast {
		t.Fatal("slow before FastHold has passed")
	}
	pace.mu.Lock()
	pace.last = time.Now().Add(-2 * FastHold)
	pace.mu.Unlock()
	pace.slow()
	if fast, _ := pace.state(); fast {
		t.Fatal("still fast after FastHold without input")
	}
}
