package keystore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/zalando/go-keyring"
)

// keyringAPI is the part of go-keyring used here (replaceable in tests).
type keyringAPI interface {
	Get(service, user string) (string, error)
	Set(service, user, password string) error
	Delete(service, user string) error
}

// goKeyring calls the go-keyring package functions (the real provider, or
// the mock after keyring.MockInit).
type goKeyring struct{}

func (goKeyring) Get(s, u string) (string, error) { return keyring.Get(s, u) }
func (goKeyring) Set(s, u, p string) error        { return keyring.Set(s, u, p) }
func (goKeyring) Delete(s, u string) error        { return keyring.Delete(s, u) }

const keyringProbeName = "__skytui_probe__"

type keyringBackend struct {
	api        keyringAPI
	getenv     func(string) string
	runtimeDir string
	uid        int
	goos       string
	timeout    time.Duration
}

func newKeyringBackend(api keyringAPI, getenv func(string) string, runtimeDir string, timeout time.Duration) *keyringBackend {
	if runtimeDir == "" {
		runtimeDir = "/run/user"
	}
	if timeout <= 0 {
		timeout = DefaultKeyringTimeout
	}
	return &keyringBackend{
		api: api, getenv: getenv, runtimeDir: runtimeDir,
		uid: os.Getuid(), goos: runtime.GOOS, timeout: timeout,
	}
}

func (k *keyringBackend) Name() string { return BackendKeyring }

func (k *keyringBackend) Label() string {
	switch k.goos {
	case "darwin":
		return "macOS Keychain (OS keyring)"
	case "windows":
		return "Windows Credential Manager (OS keyring)"
	default:
		return "Secret Service (OS keyring)"
	}
}

func (k *keyringBackend) MaxSize() int {
	switch k.goos {
	case "darwin":
		return LimitMacOS
	case "windows":
		return LimitWindows
	default:
		return LimitSecretService
	}
}

// usesDBus is true where go-keyring talks to the Secret Service.
func (k *keyringBackend) usesDBus() bool {
	return k.goos != "darwin" && k.goos != "windows"
}

// busReason returns a reason when no D-Bus session bus exists. Without
// one, go-keyring would run dbus-launch (where installed), which leaves a
// dbus-daemon and a gnome-keyring-daemon running forever.
func (k *keyringBackend) busReason() error {
	if !k.usesDBus() {
		return nil
	}
	if a := k.getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" && a != "autolaunch:" {
		return nil
	}
	bus := filepath.Join(k.runtimeDir, strconv.Itoa(k.uid), "bus")
	if _, err := os.Stat(bus); err == nil {
		return nil
	}
	return fmt.Errorf("no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS unset and %s missing", bus)
}

func (k *keyringBackend) Probe() error {
	if err := k.busReason(); err != nil {
		return err
	}
	_, err := k.call(func() (string, error) { return k.api.Get(Service, keyringProbeName) })
	if err == nil || errors.Is(err, ErrNotFound) {
		return nil
	}
	return err
}

// call runs f in a goroutine bounded by the timeout and translates errors.
func (k *keyringBackend) call(f func() (string, error)) (string, error) {
	type result struct {
		v   string
		err error
	}
	ch := make(chan result, 1)
	go func() {
		v, err := f()
		ch <- result{v, err}
	}()
	t := time.NewTimer(k.timeout)
	defer t.Stop()
	select {
	case r := <-ch:
		return r.v, k.translate(r.err)
	case <-t.C:
		return "", fmt.Errorf("%w: the OS keyring did not answer within %s (locked, or waiting for an unlock prompt?)", ErrTimeout, k.timeout)
	}
}

func (k *keyringBackend) translate(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, keyring.ErrNotFound):
		return ErrNotFound
	case errors.Is(err, keyring.ErrSetDataTooBig):
		return fmt.Errorf("%w: %s refused the value as too big (limit about %d bytes)", ErrTooLarge, k.Label(), k.MaxSize())
	}
	return err
}

func (k *keyringBackend) ready() error {
	// Re-check the bus on every call: never let go-keyring autolaunch.
	return k.busReason()
}

func (k *keyringBackend) Get(name string) (string, error) {
	if err := k.ready(); err != nil {
		return "", err
	}
	return k.call(func() (string, error) { return k.api.Get(Service, name) })
}

func (k *keyringBackend) Set(name, value string) error {
	if err := k.ready(); err != nil {
		return err
	}
	if k.goos == "darwin" {
		if n := darwinCommandLen(name, value); n > 4096 {
			return fmt.Errorf("%w: %s holds about %d bytes once encoded; this value needs %d of 4096", ErrTooLarge, k.Label(), LimitMacOS, n)
		}
	}
	_, err := k.call(func() (string, error) { return "", k.api.Set(Service, name, value) })
	return err
}

func (k *keyringBackend) Delete(name string) error {
	if err := k.ready(); err != nil {
		return err
	}
	_, err := k.call(func() (string, error) { return "", k.api.Delete(Service, name) })
	return err
}

// darwinCommandLen is the length of the `security -i` command go-keyring
// v0.2.8 writes on macOS (base64-encoded value, 4096-byte cap). Names are
// restricted to characters shellescape leaves unquoted.
func darwinCommandLen(name, value string) int {
	b64 := (len(value) + 2) / 3 * 4
	return len("add-generic-password -U -s ") + len(Service) + len(" -a ") + len(quoteLen(name)) +
		len(" -w ") + len("go-keyring-base64:") + b64 + 1
}

func quoteLen(s string) string {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("@%+=:,./-_", r)) {
			return "'" + s + "'"
		}
	}
	return s
}
