//go:build linux

package keystore

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// keyctlPerm lets the possessor and the owning user do everything, so a
// later SSH session of the same user (which does not possess @u through
// its session keyring) can still read the key.
const keyctlPerm = 0x3f3f0000

const keyctlPrefix = "skytui:"

type keyctlBackend struct {
	ring   int    // KEY_SPEC_USER_KEYRING
	prefix string // description prefix
}

func newKeyctlBackend() *keyctlBackend {
	return &keyctlBackend{ring: unix.KEY_SPEC_USER_KEYRING, prefix: keyctlPrefix}
}

func (k *keyctlBackend) Name() string  { return BackendKeyctl }
func (k *keyctlBackend) Label() string { return "kernel keyring (kept until reboot)" }
func (k *keyctlBackend) MaxSize() int  { return LimitKeyctl }

// Probe adds, reads back and removes a small key in @u.
func (k *keyctlBackend) Probe() error {
	name := fmt.Sprintf("__probe_%d__", os.Getpid())
	if err := k.Set(name, "probe"); err != nil {
		return err
	}
	v, err := k.Get(name)
	_ = k.Delete(name)
	if err != nil {
		return err
	}
	if v != "probe" {
		return errors.New("kernel keyring: probe key read back wrong")
	}
	return nil
}

func (k *keyctlBackend) desc(name string) string { return k.prefix + name }

func (k *keyctlBackend) find(name string) (int, error) {
	id, err := unix.KeyctlSearch(k.ring, "user", k.desc(name), 0)
	if err != nil {
		if errors.Is(err, unix.ENOKEY) || errors.Is(err, unix.EKEYREVOKED) || errors.Is(err, unix.EKEYEXPIRED) {
			return 0, ErrNotFound
		}
		return 0, keyctlError("search", err)
	}
	return id, nil
}

func (k *keyctlBackend) Get(name string) (string, error) {
	id, err := k.find(name)
	if err != nil {
		return "", err
	}
	buf := make([]byte, LimitKeyctl+1)
	for {
		n, err := unix.KeyctlBuffer(unix.KEYCTL_READ, id, buf, 0)
		if err != nil {
			return "", keyctlError("read", err)
		}
		if n <= len(buf) {
			return string(buf[:n]), nil
		}
		buf = make([]byte, n)
	}
}

func (k *keyctlBackend) Set(name, value string) error {
	if len(value) > LimitKeyctl {
		return &SizeError{Name: name, Size: len(value), Limit: LimitKeyctl, Backend: k.Label()}
	}
	// add_key on an existing type+description in the same keyring updates
	// it in place.
	id, err := unix.AddKey("user", k.desc(name), []byte(value), k.ring)
	if err != nil {
		return keyctlError("add_key", err)
	}
	if err := unix.KeyctlSetperm(id, keyctlPerm); err != nil {
		return keyctlError("setperm", err)
	}
	return nil
}

func (k *keyctlBackend) Delete(name string) error {
	id, err := k.find(name)
	if err != nil {
		return err
	}
	if _, err := unix.KeyctlInt(unix.KEYCTL_INVALIDATE, id, 0, 0, 0); err == nil {
		return nil
	}
	if _, err := unix.KeyctlInt(unix.KEYCTL_UNLINK, id, k.ring, 0, 0); err != nil {
		return keyctlError("unlink", err)
	}
	return nil
}

// keyctlError explains errno values seen on real hosts.
func keyctlError(op string, err error) error {
	switch {
	case errors.Is(err, unix.ENOSYS):
		return fmt.Errorf("kernel keyring %s: not supported by this kernel or blocked (ENOSYS): %w", op, err)
	case errors.Is(err, unix.EPERM), errors.Is(err, unix.EACCES):
		return fmt.Errorf("kernel keyring %s: not permitted (blocked by a container's seccomp profile?): %w", op, err)
	case errors.Is(err, unix.EDQUOT):
		return fmt.Errorf("kernel keyring %s: quota exceeded (see /proc/sys/kernel/keys/maxbytes, maxkeys; 20000 bytes / 200 keys per non-root user by default): %w", op, err)
	}
	return fmt.Errorf("kernel keyring %s: %w", op, err)
}

// keyctlBlocked reports errors meaning the syscalls are unavailable here.
func keyctlBlocked(err error) bool {
	return errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) || errors.Is(err, unix.EACCES)
}
