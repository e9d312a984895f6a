//go:build linux

package tui

import (
	"errors"
	"fmt"
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// The kernel keyring (@u) as the tour's keystore sees it: skytui keeps
// each secret as a "user" key described "skytui:<name>".

// keyctlUsable adds, reads and removes a throwaway key.
func keyctlUsable() error {
	desc := fmt.Sprintf("skytui-e2e-probe-%d", os.Getpid())
	id, err := unix.AddKey("user", desc, []byte("probe"), unix.KEY_SPEC_USER_KEYRING)
	if err != nil {
		return fmt.Errorf("add_key: %w", err)
	}
	defer unix.KeyctlInt(unix.KEYCTL_INVALIDATE, id, 0, 0, 0)
	buf := make([]byte, 16)
	if _, err := unix.KeyctlBuffer(unix.KEYCTL_READ, id, buf, 0); err != nil {
		return fmt.Errorf("read: %w", err)
	}
	return nil
}

func keyctlFind(name string) (int, bool) {
	id, err := unix.KeyctlSearch(unix.KEY_SPEC_USER_KEYRING, "user", "skytui:"+name, 0)
	return id, err == nil
}

func keyctlExists(name string) bool {
	_, ok := keyctlFind(name)
	return ok
}

func keyctlRemove(id int) error {
	if _, err := unix.KeyctlInt(unix.KEYCTL_INVALIDATE, id, 0, 0, 0); err == nil {
		return nil
	}
	_, err := unix.KeyctlInt(unix.KEYCTL_UNLINK, id, unix.KEY_SPEC_USER_KEYRING, 0, 0)
	return err
}

// keyctlCleanup fails the test for each secret the tour left in the
// kernel keyring (it removes them itself, with creds remove and auth
// logout), and removes them with the command given (so skytui's index of
// bucket credentials follows), else directly. The index is removed when
// the tour created it and it is empty again.
func keyctlCleanup(t *testing.T, left map[string][]string, indexCreated bool, skytui func(args []string) error) {
	t.Helper()
	for name, args := range left {
		if _, ok := keyctlFind(name); !ok {
			continue
		}
		t.Errorf("the tour left skytui:%s in the kernel keyring", name)
		if err := skytui(args); err != nil {
			t.Log(err)
		}
		if id, ok := keyctlFind(name); ok {
			if err := keyctlRemove(id); err != nil {
				t.Errorf("remove skytui:%s: %v", name, err)
			}
		}
	}
	if !indexCreated {
		return
	}
	id, ok := keyctlFind("meta/index")
	if !ok {
		return
	}
	buf := make([]byte, 4096)
	n, err := unix.KeyctlBuffer(unix.KEYCTL_READ, id, buf, 0)
	if err != nil || n > len(buf) {
		return
	}
	if s := string(buf[:n]); s == "{}" || s == "" || s == "null" {
		if err := keyctlRemove(id); err != nil && !errors.Is(err, unix.ENOKEY) {
			t.Errorf("remove the empty credentials index: %v", err)
		}
	} else {
		t.Logf("the credentials index the tour created is left, not empty: %s", s)
	}
}
