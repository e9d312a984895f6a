package keystore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zalando/go-keyring"
)

// These tests use go-keyring's package-global mock: no t.Parallel.

// busEnv pretends a session bus exists so the adapter reaches go-keyring.
var busEnv = mapEnv(map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/test-bus"})

func TestKeyringAdapterMock(t *testing.T) {
	keyring.MockInit()
	kb := newKeyringBackend(goKeyring{}, busEnv, t.TempDir(), time.Second)
	kb.goos = "linux"
	if err := kb.Probe(); err != nil {
		t.Fatalf("Probe with mock: %v", err)
	}
	s, err := Open(Options{Backend: "keyring", Getenv: mapEnv(nil), Backends: []Backend{kb}})
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Backend().Label(); got != "Secret Service (OS keyring)" {
		t.Fatalf("label = %q", got)
	}
	if err := s.SetAPIKey("default", "sk-test-1"); err != nil {
		t.Fatal(err)
	}
	// Stored under service "skytui" in go-keyring.
	if v, err := keyring.Get("skytui", "apikey/default"); err != nil || v != "sk-test-1" {
		t.Fatalf("keyring.Get(skytui, apikey/default) = %q, %v", v, err)
	}
	v, src, err := s.APIKey("default")
	if err != nil || v != "sk-test-1" || src.Name() != BackendKeyring {
		t.Fatalf("APIKey = %q, %v, %v", v, src, err)
	}
	if _, err := s.DeleteAPIKey("default"); err != nil {
		t.Fatal(err)
	}
	// keyring.ErrNotFound is translated.
	if _, _, err := s.APIKey("default"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}
	if _, err := s.DeleteAPIKey("default"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
}

func TestKeyringAdapterMockErrors(t *testing.T) {
	// A bus without a provider: the keyring is unusable, the chain falls
	// through, and the reason is go-keyring's.
	keyring.MockInitWithError(errors.New("The name org.freedesktop.secrets was not provided by any .service files"))
	kb := newKeyringBackend(goKeyring{}, busEnv, t.TempDir(), time.Second)
	kb.goos = "linux"
	next := newFake("keyctl", nil)
	s, err := Open(Options{Getenv: mapEnv(nil), Backends: []Backend{kb, next}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Backend() != next {
		t.Fatalf("selected %s, want fall-through to keyctl", s.Backend().Name())
	}
	if st := s.Probe()[1]; st.Usable || !strings.Contains(st.Reason, "org.freedesktop.secrets was not provided") {
		t.Fatalf("keyring status = %+v", st)
	}
	// Forced, it fails loudly with the reason.
	_, err = Open(Options{Backend: "keyring", Getenv: mapEnv(nil), Backends: []Backend{kb, next}})
	if err == nil || !strings.Contains(err.Error(), "Secret Service (OS keyring)") || !strings.Contains(err.Error(), "not provided") {
		t.Fatalf("forced keyring = %v", err)
	}
	// ErrSetDataTooBig becomes ErrTooLarge naming the limit.
	keyring.MockInitWithError(keyring.ErrSetDataTooBig)
	kb.goos = "windows"
	err = kb.Set("x", "v")
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "2560") || !strings.Contains(err.Error(), "Windows Credential Manager") {
		t.Fatalf("too big = %v", err)
	}
	keyring.MockInit()
}

func TestKeyringPlatformLimits(t *testing.T) {
	keyring.MockInit()
	cases := []struct {
		goos, label string
		limit       int
	}{
		{"windows", "Windows Credential Manager (OS keyring)", 2560},
		{"darwin", "macOS Keychain (OS keyring)", 3000},
		{"linux", "Secret Service (OS keyring)", 64 * 1024},
	}
	for _, c := range cases {
		kb := newKeyringBackend(goKeyring{}, busEnv, t.TempDir(), time.Second)
		kb.goos = c.goos
		s, err := Open(Options{Getenv: mapEnv(nil), Backends: []Backend{kb}})
		if err != nil {
			t.Fatal(err)
		}
		if kb.Label() != c.label || kb.MaxSize() != c.limit {
			t.Errorf("%s: %q %d", c.goos, kb.Label(), kb.MaxSize())
		}
		err = s.Set("big", strings.Repeat("x", c.limit+1))
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), fmt.Sprintf("%d-byte limit of %s", c.limit, c.label)) {
			t.Errorf("%s: over limit = %v", c.goos, err)
		}
		// A real-size GCS key fits everywhere once compacted.
		if err := s.PutBucketCredential(GCSCredential{Name: "g", KeyJSON: fakeGCSKey(t, 1270)}); err != nil {
			t.Errorf("%s: 2.4 KB GCS key: %v", c.goos, err)
		}
	}
	// On macOS the encoded command is what is capped at 4096 bytes.
	kb := newKeyringBackend(goKeyring{}, busEnv, t.TempDir(), time.Second)
	kb.goos = "darwin"
	long := "bucket/" + strings.Repeat("n", 150)
	if err := kb.Set(long, strings.Repeat("y", 2990)); !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "4096") {
		t.Fatalf("darwin encoded limit: %v", err)
	}
	if err := kb.Set("bucket/x", strings.Repeat("y", 2990)); err != nil {
		t.Fatalf("darwin encoded limit: %v", err)
	}
}

// blockingKeyring never answers until released.
type blockingKeyring struct{ release chan struct{} }

func (b blockingKeyring) Get(string, string) (string, error) { <-b.release; return "", nil }
func (b blockingKeyring) Set(string, string, string) error   { <-b.release; return nil }
func (b blockingKeyring) Delete(string, string) error        { <-b.release; return nil }

func TestKeyringTimeout(t *testing.T) {
	bk := blockingKeyring{release: make(chan struct{})}
	defer close(bk.release)
	kb := newKeyringBackend(bk, busEnv, t.TempDir(), 100*time.Millisecond)
	kb.goos = "linux"
	start := time.Now()
	err := kb.Probe()
	if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "did not answer within 100ms") {
		t.Fatalf("Probe = %v", err)
	}
	if _, err := kb.Get("x"); !errors.Is(err, ErrTimeout) {
		t.Fatalf("Get = %v", err)
	}
	if err := kb.Set("x", "secret-value"); !errors.Is(err, ErrTimeout) || strings.Contains(err.Error(), "secret-value") {
		t.Fatalf("Set = %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("timeouts took %s", d)
	}
	if newKeyringBackend(bk, busEnv, "", 0).timeout != 3*time.Second {
		t.Fatal("default timeout is not 3s")
	}
	// A hanging keyring falls through in the chain.
	next := newFake("file", nil)
	s, _ := Open(Options{Getenv: mapEnv(nil), Backends: []Backend{kb, next}})
	if s.Backend() != next {
		t.Fatal("hanging keyring was selected")
	}
}

func TestBusDetection(t *testing.T) {
	run := t.TempDir()
	uid := strconv.Itoa(os.Getuid())
	kb := newKeyringBackend(goKeyring{}, mapEnv(nil), run, time.Second)
	kb.goos = "linux"
	want := "no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS unset and " + filepath.Join(run, uid, "bus") + " missing"
	if err := kb.busReason(); err == nil || err.Error() != want {
		t.Fatalf("busReason = %v, want %q", err, want)
	}
	kb.getenv = mapEnv(map[string]string{"DBUS_SESSION_BUS_ADDRESS": "autolaunch:"})
	if kb.busReason() == nil {
		t.Fatal("autolaunch: counted as a bus")
	}
	kb.getenv = mapEnv(map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=/x"})
	if err := kb.busReason(); err != nil {
		t.Fatalf("with address: %v", err)
	}
	kb.getenv = mapEnv(nil)
	if err := os.MkdirAll(filepath.Join(run, uid), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(run, uid, "bus"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := kb.busReason(); err != nil {
		t.Fatalf("with %s/%s/bus: %v", run, uid, err)
	}
	for _, goos := range []string{"darwin", "windows"} {
		kb := newKeyringBackend(goKeyring{}, mapEnv(nil), t.TempDir(), time.Second)
		kb.goos = goos
		if err := kb.busReason(); err != nil {
			t.Fatalf("%s needs no bus: %v", goos, err)
		}
	}
}

// countingKeyring counts calls that reach go-keyring.
type countingKeyring struct{ n *atomic.Int32 }

func (c countingKeyring) Get(s, u string) (string, error) { c.n.Add(1); return goKeyring{}.Get(s, u) }
func (c countingKeyring) Set(s, u, p string) error        { c.n.Add(1); return goKeyring{}.Set(s, u, p) }
func (c countingKeyring) Delete(s, u string) error        { c.n.Add(1); return goKeyring{}.Delete(s, u) }

// TestNoBusFallsThroughWithoutSpawning: with no session bus the keyring is
// never called (so go-keyring cannot autolaunch dbus-launch, which would
// leave a dbus-daemon and a gnome-keyring-daemon running), the reason is
// clear, and the chain falls through.
func TestNoBusFallsThroughWithoutSpawning(t *testing.T) {
	if old, had := os.LookupEnv("DBUS_SESSION_BUS_ADDRESS"); had {
		t.Cleanup(func() { os.Setenv("DBUS_SESSION_BUS_ADDRESS", old) })
	}
	os.Unsetenv("DBUS_SESSION_BUS_ADDRESS")
	// A dbus-launch on PATH that records being run.
	bin := t.TempDir()
	marker := filepath.Join(t.TempDir(), "dbus-launch-ran")
	script := "#!/bin/sh\ntouch '" + marker + "'\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "dbus-launch"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	before := daemonPIDs(t, "")

	run := t.TempDir() // fake /run/user: no <uid>/bus inside
	var calls atomic.Int32
	kb := newKeyringBackend(countingKeyring{&calls}, os.Getenv, run, time.Second)
	kb.goos = "linux"
	fb := newFileBackend(filepath.Join(t.TempDir(), "secrets.age"), nil, func(string, bool) (string, error) { return "pw", nil }, 10)
	s, err := Open(Options{Getenv: os.Getenv, Backends: []Backend{kb, fb}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Backend() != fb {
		t.Fatalf("selected %s, want fall-through to file", s.Backend().Name())
	}
	want := "no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS unset and " + filepath.Join(run, strconv.Itoa(os.Getuid()), "bus") + " missing"
	st := s.Probe()
	if st[1].Name != BackendKeyring || st[1].Usable || st[1].Reason != want {
		t.Fatalf("keyring status = %+v, want reason %q", st[1], want)
	}
	if !strings.Contains(s.Describe(), want) {
		t.Fatal("Describe lacks the reason")
	}
	if err := s.SetAPIKey("default", "k"); err != nil {
		t.Fatal(err)
	}
	// Direct calls are refused too, before reaching go-keyring.
	if _, err := kb.Get("apikey/default"); err == nil || err.Error() != want {
		t.Fatalf("Get = %v", err)
	}
	if err := kb.Set("apikey/default", "k"); err == nil {
		t.Fatal("Set without bus succeeded")
	}
	if err := kb.Delete("apikey/default"); err == nil {
		t.Fatal("Delete without bus succeeded")
	}
	if n := calls.Load(); n != 0 {
		t.Fatalf("go-keyring was called %d times without a bus", n)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("dbus-launch was run")
	}
	time.Sleep(100 * time.Millisecond)
	if leaked := newPIDs(before, daemonPIDs(t, "")); len(leaked) > 0 {
		t.Fatalf("new dbus/gnome-keyring processes: %v", leaked)
	}
}

// TestSecretServiceReal runs a real gnome-keyring Secret Service under
// dbus-run-session by re-executing this test binary inside it.
func TestSecretServiceReal(t *testing.T) {
	inSecretService(t, secretServiceRoundTrip)
}

// inSecretService runs child in this test binary re-executed inside
// dbus-run-session with an unlocked gnome-keyring (and a HOME of its
// own), then checks the session's daemons are gone with it.
func inSecretService(t *testing.T, child func(*testing.T)) {
	t.Helper()
	if os.Getenv("SKYTUI_TEST_IN_DBUS") != "" {
		child(t)
		return
	}
	for _, tool := range []string{"dbus-run-session", "gnome-keyring-daemon"} {
		if _, err := exec.LookPath(tool); err != nil {
			skipOrFail(t, "%s not installed (apt-get install -y --no-install-recommends gnome-keyring libsecret-tools keyutils dbus-daemon): %v", tool, err)
		}
	}
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "dbus-run-session", "--", "sh", "-c",
		`echo -n test-pass | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "$@"`,
		"sh", os.Args[0], "-test.run=^"+t.Name()+"$", "-test.v", "-test.count=1")
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case k == "HOME", k == "DBUS_SESSION_BUS_ADDRESS", k == EnvAPIKey, k == EnvBackend, strings.HasPrefix(k, "XDG_"), strings.HasPrefix(k, "GNOME_KEYRING"):
			continue
		}
		env = append(env, kv)
	}
	cmd.Env = append(env, "HOME="+home, "SKYTUI_TEST_IN_DBUS=1")
	// a daemon left holding the output pipe does not keep the test waiting
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("Secret Service child failed: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: "+t.Name()) {
		t.Fatalf("child did not pass:\n%s", out)
	}
	t.Logf("child output:\n%s", out)
	// The session's daemons must be gone with it.
	var leaked []int
	for i := 0; i < 30; i++ {
		if leaked = daemonPIDs(t, "HOME="+home+"\x00"); len(leaked) == 0 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if len(leaked) > 0 {
		t.Fatalf("daemons of the test session still running: %v", leaked)
	}
}

func secretServiceRoundTrip(t *testing.T) {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		t.Fatal("child: no DBUS_SESSION_BUS_ADDRESS inside dbus-run-session")
	}
	s, err := Open(Options{Backend: "keyring", FilePath: filepath.Join(t.TempDir(), "s.age")})
	if err != nil {
		t.Fatalf("forced real keyring: %v", err)
	}
	if got := s.Backend().Label(); got != "Secret Service (OS keyring)" {
		t.Fatalf("label = %q", got)
	}
	if err := s.SetAPIKey("default", "sk-real-secret-service"); err != nil {
		t.Fatal(err)
	}
	if v, src, err := s.APIKey("default"); err != nil || v != "sk-real-secret-service" || src.Name() != BackendKeyring {
		t.Fatalf("APIKey = %q, %v, %v", v, src, err)
	}
	key := fakeGCSKey(t, 1270)
	compact := Compact(string(key))
	t.Logf("GCS key: %d bytes pretty, %d compacted", len(key), len(compact))
	if err := s.PutBucketCredential(GCSCredential{Name: "gcs-real", KeyJSON: key}); err != nil {
		t.Fatal(err)
	}
	got, err := s.BucketCredential("gcs-real")
	if err != nil {
		t.Fatal(err)
	}
	if g, ok := got.(GCSCredential); !ok || string(g.KeyJSON) != compact {
		t.Fatal("GCS key round trip mismatch")
	}
	// Stored raw (not base64) in the Secret Service, as other tools see it.
	if _, err := exec.LookPath("secret-tool"); err == nil {
		out, err := exec.Command("secret-tool", "lookup", "service", "skytui", "username", "bucket/gcs-real").Output()
		if err != nil || string(out) != compact {
			t.Fatalf("secret-tool lookup: %v (%d bytes)", err, len(out))
		}
	}
	if list, err := s.ListBucketCredentials(); err != nil || len(list) != 1 || list[0] != (CredentialInfo{"gcs-real", KindGCS, BackendKeyring, "Secret Service (OS keyring)"}) {
		t.Fatalf("list = %+v, %v", list, err)
	}
	deleteBoth(t, s, "gcs-real")
}

// TestSecretServiceReadsKernelKeyring: what an SSH session without a
// session bus stored in the kernel keyring is still read, listed, replaced
// and removed once a real Secret Service is there and preferred; the
// encrypted file, not in use, is said to be there without its passphrase
// being asked.
func TestSecretServiceReadsKernelKeyring(t *testing.T) {
	inSecretService(t, readsKernelKeyring)
}

func readsKernelKeyring(t *testing.T) {
	kc := testKeyctl(t, "keyctl Probe")
	t.Cleanup(func() {
		for _, n := range []string{"apikey/p", "bucket/archive", "enckey/dumps", indexName} {
			_ = kc.Delete(n)
		}
	})
	// The encrypted file, written once with its passphrase.
	path := filepath.Join(t.TempDir(), "secrets.age")
	pw := func(string, bool) (string, error) { return "correct horse", nil }
	if err := newFileBackend(path, nil, pw, 10).Set("apikey/old", "sk-in-file"); err != nil {
		t.Fatal(err)
	}
	asked := 0
	ask := func(string, bool) (string, error) { asked++; return "correct horse", nil }

	// The SSH session: no bus, so the kernel keyring.
	noBus := newKeyringBackend(goKeyring{}, mapEnv(nil), t.TempDir(), time.Second)
	ssh, err := Open(Options{Getenv: mapEnv(nil), Backends: []Backend{noBus, kc, newFileBackend(path, nil, ask, 10)}})
	if err != nil {
		t.Fatal(err)
	}
	if ssh.Backend() != Backend(kc) {
		t.Fatalf("headless: selected %s, want keyctl", ssh.Backend().Name())
	}
	if err := ssh.SetAPIKey("p", "sk-from-ssh"); err != nil {
		t.Fatal(err)
	}
	s3 := S3Credential{Name: "archive", AccessKeyID: "AKIAIOSFODNN7EXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG", Region: "eu-west-1"}
	if err := ssh.PutBucketCredential(s3); err != nil {
		t.Fatal(err)
	}
	if err := ssh.PutEncryptionKey("dumps", "0123456789abcdef"); err != nil {
		t.Fatal(err)
	}

	// The session with an unlocked gnome-keyring: preferred for writes.
	kr := newKeyringBackend(goKeyring{}, os.Getenv, "", DefaultKeyringTimeout)
	fb := newFileBackend(path, nil, ask, 10)
	desk, err := Open(Options{Getenv: mapEnv(nil), Backends: []Backend{kr, kc, fb}})
	if err != nil {
		t.Fatal(err)
	}
	if desk.Backend() != Backend(kr) {
		t.Fatalf("selected %s, want the Secret Service", desk.Backend().Name())
	}
	if v, src, err := desk.APIKey("p"); err != nil || v != "sk-from-ssh" || src != Backend(kc) {
		t.Fatalf("APIKey with a Secret Service = %q from %v, %v; want the kernel keyring's", v, src, err)
	}
	if c, err := desk.BucketCredential("archive"); err != nil || c.(S3Credential) != s3 {
		t.Fatalf("bucket credential from the kernel keyring: %v", err)
	}
	if k, err := desk.EncryptionKey("dumps"); err != nil || k != "0123456789abcdef" {
		t.Fatalf("encryption key from the kernel keyring: %v", err)
	}
	// A new credential goes to the Secret Service; the list holds both,
	// each with where it is kept.
	gcs := GCSCredential{Name: "nightly", KeyJSON: fakeGCSKey(t, 1270)}
	if err := desk.PutBucketCredential(gcs); err != nil {
		t.Fatal(err)
	}
	if _, err := keyring.Get(Service, "bucket/nightly"); err != nil {
		t.Fatalf("new credential not in the Secret Service: %v", err)
	}
	list, err := desk.ListBucketCredentials()
	want := []CredentialInfo{
		{"archive", KindS3, BackendKeyctl, "kernel keyring (kept until reboot)"},
		{"nightly", KindGCS, BackendKeyring, "Secret Service (OS keyring)"},
	}
	if err != nil || len(list) != 2 || list[0] != want[0] || list[1] != want[1] {
		t.Fatalf("list = %+v, %v; want %+v", list, err, want)
	}
	if names, err := desk.ListEncryptionKeys(); err != nil || len(names) != 1 || names[0] != "dumps" {
		t.Fatalf("encryption keys = %v, %v", names, err)
	}
	// The file, not in use, is not opened: it is said to be there.
	if _, _, err := desk.APIKey("other"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "encrypted file "+path+" exists but was not read") {
		t.Fatalf("missing key = %v", err)
	}
	// and a command that found nothing to remove can say where else to look
	if u := desk.Unread(); !strings.HasPrefix(u, "; encrypted file "+path+" exists but was not read") {
		t.Fatalf("Unread = %q", u)
	}
	if st := desk.Probe()[3]; st.Name != BackendFile || !st.Usable || !strings.Contains(st.Note, "the file exists but is not read") {
		t.Fatalf("file status = %+v", st)
	}
	if asked != 0 {
		t.Fatalf("the file's passphrase was asked %d times just to look", asked)
	}
	// Replaced, the key is written to the Secret Service and over the
	// kernel keyring's copy, which a later SSH session reads.
	if err := desk.SetAPIKey("p", "sk-replaced"); err != nil {
		t.Fatal(err)
	}
	if v, src, err := desk.APIKey("p"); err != nil || v != "sk-replaced" || src != Backend(kr) {
		t.Fatalf("after replace: %q from %v, %v", v, src, err)
	}
	if v, _, err := ssh.APIKey("p"); err != nil || v != "sk-replaced" {
		t.Fatalf("the SSH session reads %q, %v after the replace", v, err)
	}
	// Removed, from both, saying so.
	from, err := desk.DeleteAPIKey("p")
	if err != nil || len(from) != 2 || from[0] != Backend(kr) || from[1] != Backend(kc) {
		t.Fatalf("DeleteAPIKey = %v, %v; want from the Secret Service and the kernel keyring", from, err)
	}
	if _, _, err := ssh.APIKey("p"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("the SSH session still reads a removed key: %v", err)
	}
	if from, err := desk.DeleteBucketCredential("archive"); err != nil || len(from) != 1 || from[0] != Backend(kc) {
		t.Fatalf("DeleteBucketCredential(archive) = %v, %v", from, err)
	}
	if list, err := ssh.ListBucketCredentials(); err != nil || len(list) != 0 {
		t.Fatalf("SSH list after remove = %+v, %v", list, err)
	}
	if _, err := desk.DeleteEncryptionKey("dumps"); err != nil {
		t.Fatal(err)
	}
	if _, err := desk.DeleteBucketCredential("nightly"); err != nil {
		t.Fatal(err)
	}
	if asked != 0 {
		t.Fatalf("the file's passphrase was asked %d times", asked)
	}
}
