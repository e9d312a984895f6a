package keystore

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// askCounter returns passphrases in turn (the last one repeats) and counts
// calls.
type askCounter struct {
	answers []string
	calls   int
	creates int
}

func (a *askCounter) ask(path string, create bool) (string, error) {
	a.calls++
	if create {
		a.creates++
	}
	i := a.calls - 1
	if i >= len(a.answers) {
		i = len(a.answers) - 1
	}
	return a.answers[i], nil
}

func openFile(t *testing.T, path string, ask PassphraseFunc) *Store {
	t.Helper()
	s, err := Open(Options{Backend: "file", Getenv: mapEnv(nil), FilePath: path, Passphrase: ask, FileWorkFactor: 10,
		Backends: []Backend{newFileBackend(path, nil, ask, 10)}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestFileRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "skytui")
	path := filepath.Join(dir, "secrets.age")
	a := &askCounter{answers: []string{"correct horse"}}
	s := openFile(t, path, a.ask)
	if !strings.HasPrefix(s.Backend().Label(), "encrypted file ") || !strings.HasSuffix(s.Backend().Label(), "secrets.age") {
		t.Fatalf("label = %q", s.Backend().Label())
	}
	// Reading before the file exists asks nothing.
	if _, _, err := s.APIKey("default"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("empty store: %v", err)
	}
	if a.calls != 0 {
		t.Fatal("asked for a passphrase with no file")
	}
	if err := s.SetAPIKey("default", "sk-file-secret"); err != nil {
		t.Fatal(err)
	}
	gkey := fakeGCSKey(t, 1270)
	if err := s.PutBucketCredential(GCSCredential{Name: "g", KeyJSON: gkey}); err != nil {
		t.Fatal(err)
	}
	if v, _, err := s.APIKey("default"); err != nil || v != "sk-file-secret" {
		t.Fatalf("APIKey = %q, %v", v, err)
	}
	if a.calls != 1 || a.creates != 1 {
		t.Fatalf("passphrase asked %d times (%d create); want once, to create", a.calls, a.creates)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("age-encryption.org/v1\n-> scrypt ")) {
		t.Fatalf("not an age scrypt file: %q", data[:40])
	}
	if bytes.Contains(data, []byte("sk-file-secret")) || bytes.Contains(data, []byte("PRIVATE KEY")) {
		t.Fatal("plaintext in the file")
	}
	if runtime.GOOS != "windows" {
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
			t.Fatalf("file mode %v, want 0600", fi.Mode().Perm())
		}
		if fi, _ := os.Stat(dir); fi.Mode().Perm() != 0o700 {
			t.Fatalf("dir mode %v, want 0700", fi.Mode().Perm())
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("leftover temp files: %v", ents)
	}
	// A new run asks once (not to create) and reads everything back.
	b := &askCounter{answers: []string{"correct horse"}}
	s2 := openFile(t, path, b.ask)
	if v, _, err := s2.APIKey("default"); err != nil || v != "sk-file-secret" {
		t.Fatalf("second run APIKey = %q, %v", v, err)
	}
	got, err := s2.BucketCredential("g")
	if err != nil || string(got.(GCSCredential).KeyJSON) != Compact(string(gkey)) {
		t.Fatalf("second run GCS: %v", err)
	}
	if b.calls != 1 || b.creates != 0 {
		t.Fatalf("second run asked %d times (%d create)", b.calls, b.creates)
	}
	if _, err := s2.DeleteAPIKey("default"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := openFile(t, path, b.ask).APIKey("default"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("after delete: %v", err)
	}
}

func TestFileWrongPassphrase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "secrets.age")
	s := openFile(t, path, (&askCounter{answers: []string{"right"}}).ask)
	if err := s.SetAPIKey("default", "sk-1"); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)

	w := &askCounter{answers: []string{"wrong"}}
	s2 := openFile(t, path, w.ask)
	_, _, err := s2.APIKey("default")
	if !errors.Is(err, ErrWrongPassphrase) || !strings.Contains(err.Error(), "secrets file "+path+": wrong passphrase") {
		t.Fatalf("read with wrong passphrase = %v", err)
	}
	for _, op := range []func() error{
		func() error { return s2.SetAPIKey("default", "sk-2") },
		func() error { _, err := s2.DeleteAPIKey("default"); return err },
		func() error { return s2.PutEncryptionKey("k", "v") },
	} {
		if err := op(); !errors.Is(err, ErrWrongPassphrase) {
			t.Fatalf("write with wrong passphrase = %v", err)
		}
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Fatal("file changed after a wrong passphrase")
	}
	if w.calls < 2 {
		t.Fatal("a wrong passphrase was cached instead of asked again")
	}
	// Asked again after a wrong answer: the second answer works.
	r := &askCounter{answers: []string{"wrong", "right"}}
	s3 := openFile(t, path, r.ask)
	if _, _, err := s3.APIKey("default"); !errors.Is(err, ErrWrongPassphrase) {
		t.Fatal(err)
	}
	if v, _, err := s3.APIKey("default"); err != nil || v != "sk-1" {
		t.Fatalf("retry = %q, %v", v, err)
	}
}

func TestFileDamagedNeverOverwritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "secrets.age")
	junk := []byte("this is not an age file\n")
	if err := os.WriteFile(path, junk, 0o600); err != nil {
		t.Fatal(err)
	}
	s := openFile(t, path, (&askCounter{answers: []string{"pw"}}).ask)
	if err := s.SetAPIKey("default", "sk"); err == nil || !strings.Contains(err.Error(), "cannot decrypt") {
		t.Fatalf("Set on damaged file = %v", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(after, junk) {
		t.Fatal("damaged file overwritten")
	}
}

func TestFileNeedsPassphraseSource(t *testing.T) {
	path := filepath.Join(t.TempDir(), "secrets.age")
	fb := newFileBackend(path, nil, nil, 10)
	_, err := Open(Options{Backend: "file", Getenv: mapEnv(nil), Backends: []Backend{fb}})
	if err == nil || !strings.Contains(err.Error(), `"file"`) || !strings.Contains(err.Error(), "non-interactive") {
		t.Fatalf("forced file without passphrase = %v", err)
	}
	// The default chain wires FilePath and Passphrase through.
	s, err := Open(Options{Backend: "file", Getenv: mapEnv(nil), FilePath: path, FileWorkFactor: 10,
		Passphrase: func(string, bool) (string, error) { return "x", nil }})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Set("a", "b"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(Options{Backend: "file", Getenv: mapEnv(nil), FilePath: path,
		Passphrase: func(string, bool) (string, error) { return "", nil }}); err != nil {
		t.Fatal(err)
	}
}

// TestFileNoteSaysWhyTheFile: the sentence said before the encrypted file
// is created names SKYTUI_SECRETS_BACKEND when that chose the file, and
// otherwise says that neither keyring is usable.
func TestFileNoteSaysWhyTheFile(t *testing.T) {
	path := "/home/u/.config/skytui/secrets.age"
	if got, want := FileNote(mapEnv(map[string]string{EnvBackend: " File "}), path),
		"Secrets go to the encrypted file "+path+", chosen by SKYTUI_SECRETS_BACKEND=file."; got != want {
		t.Errorf("forced: %q, want %q", got, want)
	}
	for _, v := range []string{"", "auto"} {
		if got, want := FileNote(mapEnv(map[string]string{EnvBackend: v}), path),
			"No OS keyring or kernel keyring is usable here: secrets go to the encrypted file "+path+"."; got != want {
			t.Errorf("%q: %q, want %q", v, got, want)
		}
	}
}
