package tui

import (
	"reflect"
	"sync"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
)

// Frame pacing. Bubble Tea writes a frame only on its renderer's ticker
// (tea.WithFPS): Update and View run as soon as a key is read, but the frame
// waits for the next tick, so a key waited up to 1/FPS for its frame. Every
// tick costs CPU even when nothing changed, so a fast ticker costs idle CPU
// (make bench: 0.19 CPU seconds a minute at 15 frames a second, 0.31 at 30).
//
// The pacer keeps the ticker at FPS while nothing happens and switches it to
// FastFPS on input (keys, paste, mouse, a resize) and at start, back to FPS
// once FastHold has passed without input. The first key after a quiet spell
// gets its frame one fast period (8 ms) later; keys while fast, within one.
//
// Bubble Tea v2.0.8 has no way to ask for a frame or to change the frame
// rate of a running program; the pacer resets the program's own ticker
// (the unexported field tea.Program.ticker, found by reflection once). If a
// later Bubble Tea has no such field, the pacer does nothing and the program
// runs at FPS as before (TestPacerFindsTicker fails to say so).
const (
	// FastFPS is the frame rate while input is arriving (Bubble Tea's cap).
	FastFPS = 120
	// FastHold is how long the frame rate stays fast after the last input:
	// what a key starts (a screen's first fetch, a dialog) is painted
	// promptly too.
	FastHold = 500 * time.Millisecond
)

// pacer switches a program's frame ticker between FPS and FastFPS. Its
// filter runs on Bubble Tea's event loop; the return to FPS runs on a timer.
type pacer struct {
	prog *tea.Program // set before Run

	mu     sync.Mutex
	ticker *time.Ticker // the program's; nil until found or if there is none
	looked bool
	fast   bool
	last   time.Time   // the last input
	idle   *time.Timer // returns to FPS
}

// filter is the program's tea.WithFilter: it looks at messages, never
// changes them.
func (p *pacer) filter(_ tea.Model, msg tea.Msg) tea.Msg {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.KeyReleaseMsg, tea.PasteMsg, tea.MouseClickMsg, tea.MouseReleaseMsg,
		tea.MouseWheelMsg, tea.MouseMotionMsg, tea.WindowSizeMsg:
		p.input(false)
	case tea.ResumeMsg: // the renderer restarted at FPS
		p.input(true)
	default:
		if !p.looked {
			p.input(false) // the program's first message: it is starting
		}
	}
	return msg
}

// input switches to FastFPS (or keeps it) and notes the time. While fast,
// the ticker is not reset again: keys closer together than a frame must
// not postpone the frame forever.
func (p *pacer) input(force bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.looked {
		p.looked = true
		p.ticker = programTicker(p.prog)
	}
	if p.ticker == nil {
		return
	}
	p.last = time.Now()
	if p.fast && !force {
		return
	}
	p.fast = true
	p.ticker.Reset(time.Second / FastFPS)
	if p.idle == nil {
		p.idle = time.AfterFunc(FastHold, p.slow)
	} else {
		p.idle.Reset(FastHold)
	}
}

// stop ends the pacing when the program has ended: its ticker is not
// touched again.
func (p *pacer) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.ticker, p.looked = nil, true
	if p.idle != nil {
		p.idle.Stop()
	}
}

// slow returns to FPS once FastHold has passed since the last input.
func (p *pacer) slow() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ticker == nil {
		return
	}
	if since := time.Since(p.last); since < FastHold {
		p.idle.Reset(FastHold - since)
		return
	}
	p.fast = false
	p.ticker.Reset(time.Second / FPS)
}

// programTicker is the frame ticker of a running program (tea.Program's
// unexported ticker, created by Run before the first message), or nil.
func programTicker(prog *tea.Program) *time.Ticker {
	if prog == nil {
		return nil
	}
	f := reflect.ValueOf(prog).Elem().FieldByName("ticker")
	if !f.IsValid() || f.Type() != reflect.TypeFor[*time.Ticker]() {
		return nil
	}
	t, _ := reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Interface().(*time.Ticker)
	return t
}
