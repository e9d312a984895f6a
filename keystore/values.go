package keystore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/skytui/skytui/api"
)

// Per-backend limits on one value, in bytes.
const (
	LimitWindows       = 2560      // Windows Credential Manager
	LimitMacOS         = 3000      // macOS Keychain (service+account+value, about)
	LimitSecretService = 64 * 1024 // no practical limit; a sane cap
	LimitKeyctl        = 32767     // kernel "user" key payload
	LimitFile          = 1 << 20   // one value in the encrypted file
)

// SizeError reports a value over a backend's limit. It matches ErrTooLarge
// with errors.Is. It never carries the value.
type SizeError struct {
	Name    string // secret name
	Size    int    // bytes after compaction
	Limit   int
	Backend string // backend label
}

func (e *SizeError) Error() string {
	return fmt.Sprintf("secret %q is %d bytes, over the %d-byte limit of %s", e.Name, e.Size, e.Limit, e.Backend)
}

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *SizeError) Is(target error) bool { return target == ErrTooLarge }

func checkSize(b Backend, name, value string) error {
	if limit := b.MaxSize(); len(value) > limit {
		return &SizeError{Name: name, Size: len(value), Limit: limit, Backend: b.Label()}
	}
	return nil
}

// Compact returns value with insignificant JSON whitespace removed when it
// is a JSON object or array; any other value is returned unchanged.
func Compact(value string) string {
	t := strings.TrimSpace(value)
	if t == "" || (t[0] != '{' && t[0] != '[') || !json.Valid([]byte(t)) {
		return value
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(t)); err != nil {
		return value
	}
	return buf.String()
}

// Fingerprint identifies a secret without revealing it: "sha256:" and the
// first 8 hex digits of its SHA-256. Empty input gives "".
func Fingerprint(secret string) string { return api.Fingerprint(secret) }
