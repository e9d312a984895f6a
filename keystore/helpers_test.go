package keystore

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// fakeBackend is a MemoryBackend under another name, with a settable
// probe result and size limit, that counts its probes and writes.
type fakeBackend struct {
	*MemoryBackend
	name     string
	probeErr error
	max      int

	mu     sync.Mutex
	probes int
	sets   int
}

func newFake(name string, probeErr error) *fakeBackend {
	return &fakeBackend{MemoryBackend: NewMemoryBackend("fake " + name), name: name, probeErr: probeErr, max: 1 << 20}
}

func (f *fakeBackend) Name() string { return f.name }
func (f *fakeBackend) MaxSize() int { return f.max }
func (f *fakeBackend) Probe() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.probes++
	return f.probeErr
}
func (f *fakeBackend) Set(n, v string) error {
	f.mu.Lock()
	f.sets++
	f.mu.Unlock()
	return f.MemoryBackend.Set(n, v)
}
func (f *fakeBackend) value(n string) (string, bool) {
	v, err := f.Get(n)
	return v, err == nil
}

// deleteBoth deletes the bucket credential name and the default profile's
// API key from s, and checks that both are gone.
func deleteBoth(t *testing.T, s *Store, name string) {
	t.Helper()
	if _, err := s.DeleteBucketCredential(name); err != nil {
		t.Fatal(err)
	}
	if _, err := s.BucketCredential(name); !errors.Is(err, ErrNotFound) {
		t.Fatalf("bucket credential after delete: %v", err)
	}
	if _, err := s.DeleteAPIKey("default"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := s.APIKey("default"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("API key after delete: %v", err)
	}
}

// mapEnv is a Getenv over a map.
func mapEnv(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// fakeGCSKey builds a pretty-printed service-account key whose private key
// has derLen random bytes (1270 gives about 2.4 KB compacted).
func fakeGCSKey(t testing.TB, derLen int) []byte {
	t.Helper()
	der := make([]byte, derLen)
	if _, err := rand.Read(der); err != nil {
		t.Fatal(err)
	}
	b64 := base64.StdEncoding.EncodeToString(der)
	var pem strings.Builder
	pem.WriteString("-----BEGIN PRIVATE KEY-----\n")
	for len(b64) > 64 {
		pem.WriteString(b64[:64] + "\n")
		b64 = b64[64:]
	}
	pem.WriteString(b64 + "\n-----END PRIVATE KEY-----\n")
	id := make([]byte, 20)
	_, _ = rand.Read(id)
	doc := map[string]string{
		"type":                        "service_account",
		"project_id":                  "skytui-test-project",
		"private_key_id":              hex.EncodeToString(id),
		"private_key":                 pem.String(),
		"client_email":                "backup-writer@skytui-test-project.iam.gserviceaccount.com",
		"client_id":                   "112233445566778899001",
		"auth_uri":                    "https://accounts.google.com/o/oauth2/auth",
		"token_uri":                   "https://oauth2.googleapis.com/token",
		"auth_provider_x509_cert_url": "https://www.googleapis.com/oauth2/v1/certs",
		"client_x509_cert_url":        "https://www.googleapis.com/robot/v1/metadata/x509/backup-writer%40skytui-test-project.iam.gserviceaccount.com",
		"universe_domain":             "googleapis.com",
	}
	b, err := json.MarshalIndent(doc, "", "    ")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// skipOrFail skips, or fails when CI=true (CI must exercise everything).
func skipOrFail(t *testing.T, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true: "+format, args...)
	}
	t.Skipf(format, args...)
}

// daemonPIDs lists live (not zombie) dbus-daemon, dbus-launch and
// gnome-keyring-daemon processes whose environment contains marker (all of
// them when marker is "").
func daemonPIDs(t testing.TB, marker string) []int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		dir := filepath.Join("/proc", e.Name())
		comm, err := os.ReadFile(filepath.Join(dir, "comm"))
		if err != nil {
			continue
		}
		switch strings.TrimSpace(string(comm)) {
		case "dbus-daemon", "dbus-launch", "gnome-keyring-d":
		default:
			continue
		}
		stat, err := os.ReadFile(filepath.Join(dir, "stat"))
		if err != nil {
			continue
		}
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && i+2 < len(stat) && stat[i+2] == 'Z' {
			continue
		}
		if marker != "" {
			env, err := os.ReadFile(filepath.Join(dir, "environ"))
			if err != nil || !strings.Contains(string(env), marker) {
				continue
			}
		}
		out = append(out, pid)
	}
	sort.Ints(out)
	return out
}

func newPIDs(before, after []int) []int {
	seen := map[int]bool{}
	for _, p := range before {
		seen[p] = true
	}
	var out []int
	for _, p := range after {
		if !seen[p] {
			out = append(out, p)
		}
	}
	return out
}
