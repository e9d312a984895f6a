package cli

import (
	"context"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// signalContext is parent cancelled by the first SIGINT or SIGTERM: a
// request or a wait in flight ends. got says which came (nil: none), so
// the process exits 128 + its number, as a shell reports a process the
// signal ended: a runbook's loop stops there. After the first, the
// signals act as by default again: a second ctrl+c ends skytui at once.
// stop releases the signals.
func signalContext(parent context.Context) (ctx context.Context, got func() os.Signal, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	var mu sync.Mutex
	var first os.Signal
	done := make(chan struct{})
	go func() {
		select {
		case s := <-ch:
			signal.Stop(ch)
			mu.Lock()
			first = s
			mu.Unlock()
			cancel()
		case <-done:
		}
	}()
	got = func() os.Signal {
		mu.Lock()
		defer mu.Unlock()
		return first
	}
	var once sync.Once
	stop = func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel()
		})
	}
	return ctx, got, stop
}

// signalExit is the exit status of a process a signal ended: 128 + its
// number.
func signalExit(s os.Signal) int {
	if n, ok := s.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 1
}
