package tui

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// TestSignalReachesTheWatchLate: when the caller's handler cancels the
// program before the same signal reaches skytui's own watch, Run still
// learns of it (and exits 128 + the signal, not 0); with no signal it
// gives up after the lag.
func TestSignalReachesTheWatchLate(t *testing.T) {
	w := &signalWatch{ch: make(chan os.Signal, 1), done: make(chan struct{})}
	go func() {
		time.Sleep(50 * time.Millisecond)
		w.ch <- syscall.SIGTERM
	}()
	if s := w.wait(signalLag); s != syscall.SIGTERM {
		t.Fatalf("wait = %v, want SIGTERM", s)
	}
	quiet := &signalWatch{ch: make(chan os.Signal, 1), done: make(chan struct{})}
	if s := quiet.wait(20 * time.Millisecond); s != nil {
		t.Fatalf("no signal, yet wait = %v", s)
	}
}
