//go:build linux

package keystore

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func TestKeyctlRoundTrip(t *testing.T) {
	kb := testKeyctl(t, "Probe")
	names := []string{"apikey/default", "bucket/gcs-kc", indexName, "big"}
	t.Cleanup(func() {
		for _, n := range names {
			_ = kb.Delete(n)
		}
		for _, n := range names {
			if _, err := unix.KeyctlSearch(unix.KEY_SPEC_USER_KEYRING, "user", kb.desc(n), 0); err == nil {
				t.Errorf("key %q left behind", kb.desc(n))
			}
		}
	})
	s, err := Open(Options{Backend: "keyctl", Getenv: mapEnv(nil), Backends: []Backend{newFake("keyring", errors.New("no bus")), kb}})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Backend().Label(); got != "kernel keyring (kept until reboot)" {
		t.Fatalf("label = %q", got)
	}
	// Set twice: add_key updates in place.
	for _, k := range []string{"sk-first", "sk-second"} {
		if err := s.SetAPIKey("default", k); err != nil {
			t.Fatal(err)
		}
	}
	if v, src, err := s.APIKey("default"); err != nil || v != "sk-second" || src != Backend(kb) {
		t.Fatalf("APIKey = %q, %v, %v", v, src, err)
	}
	// Permissions: possessor and user all (0x3f3f0000) for later SSH sessions.
	id, err := unix.KeyctlSearch(unix.KEY_SPEC_USER_KEYRING, "user", kb.desc("apikey/default"), 0)
	if err != nil {
		t.Fatal(err)
	}
	desc, err := unix.KeyctlString(unix.KEYCTL_DESCRIBE, id)
	if err != nil {
		t.Fatal(err)
	}
	if parts := strings.Split(desc, ";"); len(parts) < 5 || parts[3] != "3f3f0000" {
		t.Fatalf("key description %q: want perm 3f3f0000", desc)
	}
	// A real-size GCS key.
	key := fakeGCSKey(t, 1270)
	if err := s.PutBucketCredential(GCSCredential{Name: "gcs-kc", KeyJSON: key}); err != nil {
		t.Fatal(err)
	}
	got, err := s.BucketCredential("gcs-kc")
	if err != nil {
		t.Fatal(err)
	}
	if g := got.(GCSCredential); string(g.KeyJSON) != Compact(string(key)) || len(g.KeyJSON) < 2300 {
		t.Fatalf("GCS round trip mismatch (%d bytes)", len(g.KeyJSON))
	}
	// Limit: 32767 bytes per key.
	err = s.Set("big", strings.Repeat("x", LimitKeyctl+1))
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "32767-byte limit of kernel keyring") {
		t.Fatalf("over limit: %v", err)
	}
	// Delete really removes.
	deleteBoth(t, s, "gcs-kc")
}

// testKeyctl is the kernel keyring backend under a prefix of this test
// process's own (never the real keys), usable: where the syscalls are
// blocked the test is skipped (failed under CI=true).
func testKeyctl(t *testing.T, what string) *keyctlBackend {
	t.Helper()
	kb := newKeyctlBackend()
	kb.prefix = fmt.Sprintf("skytui-test-%d:", os.Getpid())
	if err := kb.Probe(); err != nil {
		if keyctlBlocked(err) {
			skipOrFail(t, "kernel keyring syscalls blocked here: %v", err)
		}
		t.Fatalf("%s: %v", what, err)
	}
	return kb
}
