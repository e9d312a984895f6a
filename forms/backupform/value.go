// Package backupform is the new-backup form of one service: the Backups
// screen opens it, and the Restores screen's cross-provider migration
// reuses it to write a backup to the user's bucket.
//
// A form is a component, not a screen: the host screen embeds it, gives it
// its size and its messages, and receives what it emits (a submit carrying
// the kit.Action to hand to kit.Do, or a cancel carrying the draft to
// reopen with). It does I/O only in tea.Cmds, validates with the api
// package's rules as the user types, and never holds a secret: stored
// credentials are read from the keystore inside the action's Run.
package backupform

import "sync"

// val is a form value. huh evaluates dynamic options and descriptions in
// commands (other goroutines) while the UI goroutine writes the value, so
// reads go through the lock; the binding huh hashes (mirror) is only
// touched by the UI goroutine.
type val[T comparable] struct {
	mu     sync.Mutex
	v      T
	mirror T
}

func newVal[T comparable](x T) *val[T] { return &val[T]{v: x, mirror: x} }

// Get implements huh.Accessor.
func (a *val[T]) Get() T {
	a.mu.Lock()
	v := a.v
	a.mu.Unlock()
	return v
}

// Set implements huh.Accessor (UI goroutine).
func (a *val[T]) Set(x T) {
	a.mu.Lock()
	a.v = x
	a.mu.Unlock()
	a.mirror = x
}

func (a *val[T]) bind() *T { return &a.mirror }
