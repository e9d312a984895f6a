package keystore

import (
	"errors"
	"os"
	"strings"
	"testing"
)

func TestChainSelectsFirstUsableInOrder(t *testing.T) {
	a, b, c := newFake("keyring", nil), newFake("keyctl", nil), newFake("file", nil)
	s, err := Open(Options{Getenv: mapEnv(nil), Backends: []Backend{a, b, c}})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Backend(); got != a {
		t.Fatalf("selected %s, want keyring (first usable)", got.Name())
	}
	if b.probes != 0 || c.probes != 0 {
		t.Fatalf("auto mode probed past the first usable backend: keyctl=%d file=%d", b.probes, c.probes)
	}
	if err := s.Set("x", "v"); err != nil {
		t.Fatal(err)
	}
	if _, ok := a.value("x"); !ok {
		t.Fatal("write did not go to the selected backend")
	}
	if _, ok := b.value("x"); ok {
		t.Fatal("write went to a non-selected backend")
	}
}

func TestChainFallsThroughWithReasons(t *testing.T) {
	a := newFake("keyring", errors.New("no D-Bus session bus: test"))
	b := newFake("keyctl", errors.New("kernel keyring add_key: not permitted"))
	c := newFake("file", nil)
	s, err := Open(Options{Getenv: mapEnv(nil), Backends: []Backend{a, b, c}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Backend() != c {
		t.Fatalf("selected %s, want file", s.Backend().Name())
	}
	st := s.Probe()
	if len(st) != 4 || st[0].Name != BackendEnv || st[1].Name != "keyring" || st[3].Name != "file" {
		t.Fatalf("Probe order wrong: %+v", st)
	}
	if st[0].Usable || !st[0].ReadOnly || st[0].Reason != "SKYSQL_API_KEY is not set" {
		t.Fatalf("env status wrong: %+v", st[0])
	}
	if st[1].Usable || st[1].Reason != "no D-Bus session bus: test" || st[1].Selected {
		t.Fatalf("keyring status wrong: %+v", st[1])
	}
	if st[2].Usable || !strings.Contains(st[2].Reason, "not permitted") {
		t.Fatalf("keyctl status wrong: %+v", st[2])
	}
	if !st[3].Usable || !st[3].Selected {
		t.Fatalf("file status wrong: %+v", st[3])
	}
	d := s.Describe()
	for _, want := range []string{"secrets backend: fake file", "no D-Bus session bus: test", "not permitted", "(selected)"} {
		if !strings.Contains(d, want) {
			t.Errorf("Describe lacks %q:\n%s", want, d)
		}
	}
}

func TestChainNothingUsable(t *testing.T) {
	a := newFake("keyring", errors.New("reason-A"))
	b := newFake("file", errors.New("reason-B"))
	s, err := Open(Options{Getenv: mapEnv(nil), Backends: []Backend{a, b}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Backend().Name() != BackendNone {
		t.Fatalf("Backend = %s, want none", s.Backend().Name())
	}
	err = s.SetAPIKey("default", "k-123")
	if !errors.Is(err, ErrNoBackend) {
		t.Fatalf("SetAPIKey err = %v, want ErrNoBackend", err)
	}
	for _, want := range []string{"keyring: reason-A", "file: reason-B", EnvBackend} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if strings.Contains(err.Error(), "k-123") {
		t.Fatal("error leaks the secret")
	}
	if a.sets+b.sets != 0 {
		t.Fatal("an unusable backend was written")
	}
	// With the environment set, reads work and the backend reported is env.
	s, _ = Open(Options{Getenv: mapEnv(map[string]string{EnvAPIKey: "env-key"}), Backends: []Backend{a, b}})
	if got := s.Backend().Label(); got != "environment SKYSQL_API_KEY (read-only)" {
		t.Fatalf("Backend label = %q", got)
	}
	if v, src, err := s.APIKey("default"); err != nil || v != "env-key" || src.Name() != BackendEnv {
		t.Fatalf("APIKey = %q, %v, %v", v, src, err)
	}
	if err := s.SetAPIKey("default", "k"); !errors.Is(err, ErrNoBackend) {
		t.Fatalf("SetAPIKey with only env = %v, want ErrNoBackend", err)
	}
}

func TestForcedBackendFailsLoudly(t *testing.T) {
	a := newFake("keyring", nil)
	b := newFake("keyctl", errors.New("kernel keyring add_key: not permitted (blocked by a container's seccomp profile?)"))
	// Forced through the environment variable.
	_, err := Open(Options{Getenv: mapEnv(map[string]string{EnvBackend: "keyctl"}), Backends: []Backend{a, b}})
	if err == nil {
		t.Fatal("forced unusable backend: Open succeeded")
	}
	for _, want := range []string{`"keyctl"`, "fake keyctl", "SKYTUI_SECRETS_BACKEND", "not permitted"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if a.probes != 0 {
		t.Error("forced mode probed another backend")
	}
	// Forced through the option, which wins over the variable.
	_, err = Open(Options{Backend: "keyctl", Getenv: mapEnv(map[string]string{EnvBackend: "keyring"}), Backends: []Backend{a, b}})
	if err == nil || !strings.Contains(err.Error(), "forced by option") {
		t.Fatalf("option-forced error = %v", err)
	}
	// Forcing a usable later backend skips earlier usable ones.
	s, err := Open(Options{Getenv: mapEnv(map[string]string{EnvBackend: "KEYRING"}), Backends: []Backend{newFake("file", nil), a}})
	if err != nil || s.Backend() != a || s.Forced() != "keyring" {
		t.Fatalf("forced keyring: %v, %v", s, err)
	}
	// Unknown names are an error listing the choices.
	_, err = Open(Options{Getenv: mapEnv(map[string]string{EnvBackend: "plaintext"}), Backends: []Backend{a, b}})
	if err == nil || !strings.Contains(err.Error(), `"plaintext"`) || !strings.Contains(err.Error(), "auto, keyring, keyctl") {
		t.Fatalf("unknown backend error = %v", err)
	}
	// "auto" is the chain.
	s, err = Open(Options{Getenv: mapEnv(map[string]string{EnvBackend: "auto"}), Backends: []Backend{b, a}})
	if err != nil || s.Backend() != a {
		t.Fatalf("auto: %v", err)
	}
}

func TestEnvIsReadOnlyAndPreferredForReads(t *testing.T) {
	env := map[string]string{EnvAPIKey: "  env-key  "}
	f := newFake("keyring", nil)
	s, err := Open(Options{Getenv: mapEnv(env), Backends: []Backend{f}})
	if err != nil {
		t.Fatal(err)
	}
	osBefore, osHad := os.LookupEnv(EnvAPIKey)
	if err := s.SetAPIKey("prod", "stored-key"); err != nil {
		t.Fatal(err)
	}
	if v, _ := f.value("apikey/prod"); v != "stored-key" {
		t.Fatalf("stored %q", v)
	}
	if env[EnvAPIKey] != "  env-key  " {
		t.Fatal("Set wrote to the environment map")
	}
	if after, had := os.LookupEnv(EnvAPIKey); had != osHad || after != osBefore {
		t.Fatal("Set changed the process environment")
	}
	// Reads prefer the environment, for any profile.
	for _, p := range []string{"prod", "other"} {
		v, src, err := s.APIKey(p)
		if err != nil || v != "env-key" || src.Name() != BackendEnv {
			t.Fatalf("APIKey(%s) = %q from %v, %v", p, v, src, err)
		}
	}
	if s.Backend() != f {
		t.Fatal("writes must report the writable backend, not env")
	}
	// The env backend itself refuses writes.
	if err := s.env.Set("apikey/prod", "x"); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("env Set = %v", err)
	}
	if err := s.env.Delete("apikey/prod"); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("env Delete = %v", err)
	}
	// Env only answers for API keys.
	if _, err := s.env.Get("enckey/x"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("env served a non-API-key secret: %v", err)
	}
	// Without the variable the stored key is returned with its source.
	delete(env, EnvAPIKey)
	v, src, err := s.APIKey("prod")
	if err != nil || v != "stored-key" || src != f {
		t.Fatalf("APIKey = %q from %v, %v", v, src, err)
	}
	if _, _, err := s.APIKey("other"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("missing profile = %v", err)
	}
	if _, err := s.DeleteAPIKey("prod"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.DeleteAPIKey("prod"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second delete = %v", err)
	}
}

func TestNamesValidated(t *testing.T) {
	s, _ := Open(Options{Getenv: mapEnv(nil), Backends: []Backend{newFake("keyring", nil)}})
	for _, p := range []string{"", "a b", "../x", "-x", strings.Repeat("a", 129)} {
		if err := s.SetAPIKey(p, "k"); !errors.Is(err, ErrInvalid) {
			t.Errorf("profile %q accepted: %v", p, err)
		}
	}
	if err := s.SetAPIKey("p", "has space"); !errors.Is(err, ErrInvalid) || strings.Contains(err.Error(), "has space") {
		t.Errorf("bad key: %v", err)
	}
	if err := s.SetAPIKey("p", "   "); !errors.Is(err, ErrInvalid) {
		t.Errorf("blank key: %v", err)
	}
}
