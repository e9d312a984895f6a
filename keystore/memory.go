package keystore

import (
	"fmt"
	"sync"
)

// BackendMemory is the name of the in-memory backend.
const BackendMemory = "memory"

// MemoryBackend keeps secrets in this process only: for the demo and for
// tests. Its label says so; nothing is written anywhere.
type MemoryBackend struct {
	mu    sync.Mutex
	label string
	m     map[string]string
}

// NewMemoryBackend returns an empty in-memory backend with a label that
// tells the user what it is, e.g. "memory (demo: forgotten on exit)".
func NewMemoryBackend(label string) *MemoryBackend {
	if label == "" {
		label = "memory (forgotten on exit)"
	}
	return &MemoryBackend{label: label, m: map[string]string{}}
}

// Name implements Backend.
func (b *MemoryBackend) Name() string { return BackendMemory }

// Label implements Backend.
func (b *MemoryBackend) Label() string { return b.label }

// Probe implements Backend.
func (b *MemoryBackend) Probe() error { return nil }

// MaxSize implements Backend.
func (b *MemoryBackend) MaxSize() int { return LimitFile }

// Get implements Backend.
func (b *MemoryBackend) Get(name string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	v, ok := b.m[name]
	if !ok {
		return "", fmt.Errorf("%s: %w", name, ErrNotFound)
	}
	return v, nil
}

// Set implements Backend.
func (b *MemoryBackend) Set(name, value string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.m[name] = value
	return nil
}

// Delete implements Backend.
func (b *MemoryBackend) Delete(name string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.m[name]; !ok {
		return fmt.Errorf("%s: %w", name, ErrNotFound)
	}
	delete(b.m, name)
	return nil
}
