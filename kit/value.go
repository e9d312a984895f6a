package kit

import "sync"

// Value is a huh form value shared with huh's dynamic options and
// descriptions. huh evaluates those in commands (other goroutines) while
// the UI goroutine writes the value, so reads go through the lock; the
// binding huh hashes to notice a change (Bind) is only touched by the UI
// goroutine.
type Value[T comparable] struct {
	mu     sync.Mutex
	v      T
	mirror T
}

// NewValue returns a value holding x.
func NewValue[T comparable](x T) *Value[T] { return &Value[T]{v: x, mirror: x} }

// Get implements huh.Accessor (any goroutine).
func (a *Value[T]) Get() T {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.v
}

// Set implements huh.Accessor (UI goroutine).
func (a *Value[T]) Set(x T) {
	a.mu.Lock()
	a.v = x
	a.mu.Unlock()
	a.mirror = x
}

// Bind is what a dynamic option or description watches (UI goroutine).
func (a *Value[T]) Bind() *T { return &a.mirror }
