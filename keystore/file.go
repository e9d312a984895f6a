package keystore

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"

	"filippo.io/age"

	"github.com/skytui/skytui/config"
)

// fileBackend keeps every secret in one age (scrypt passphrase) encrypted
// JSON map. The file is never overwritten unless it was decrypted first.
type fileBackend struct {
	path       string
	pathErr    error
	ask        PassphraseFunc
	workFactor int

	mu         sync.Mutex
	passphrase string // cached after a successful decrypt/encrypt
	havePass   bool
	cache      map[string]string
	cacheSum   [32]byte // SHA-256 of the ciphertext the cache came from
}

// NewFileBackend is the encrypted file at path as a backend of a chain
// given in Options.Backends: its passphrase asked with ask (nil: the file
// cannot be opened), new encryptions at scrypt work factor workFactor (0:
// age's default).
func NewFileBackend(path string, ask PassphraseFunc, workFactor int) Backend {
	return newFileBackend(path, nil, ask, workFactor)
}

func newFileBackend(path string, pathErr error, ask PassphraseFunc, workFactor int) *fileBackend {
	return &fileBackend{path: path, pathErr: pathErr, ask: ask, workFactor: workFactor}
}

func (f *fileBackend) Name() string { return BackendFile }
func (f *fileBackend) Label() string {
	if f.path == "" {
		return "encrypted file (no path)"
	}
	return "encrypted file " + tildePath(f.path)
}
func (f *fileBackend) MaxSize() int { return LimitFile }

// Path is the secrets file path.
func (f *fileBackend) Path() string { return f.path }

func (f *fileBackend) Probe() error {
	if f.pathErr != nil {
		return f.pathErr
	}
	if f.path == "" {
		return errors.New("no secrets file path")
	}
	if f.ask == nil {
		return errors.New("no way to ask for a passphrase (non-interactive session)")
	}
	if fi, err := os.Stat(f.path); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("secrets file %s is not a regular file", f.path)
	}
	return nil
}

// mustAsk: the file exists and its passphrase is not known yet, so
// reading it would ask for it.
func (f *fileBackend) mustAsk() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.havePass || f.path == "" {
		return false
	}
	_, err := os.Stat(f.path)
	return err == nil
}

func (f *fileBackend) getPass(create bool) (string, error) {
	if f.havePass {
		return f.passphrase, nil
	}
	if f.ask == nil {
		return "", fmt.Errorf("secrets file %s: no way to ask for a passphrase (non-interactive session)", f.path)
	}
	p, err := f.ask(f.path, create)
	if err != nil {
		return "", fmt.Errorf("secrets file %s: passphrase: %w", f.path, err)
	}
	if p == "" {
		return "", fmt.Errorf("secrets file %s: empty passphrase", f.path)
	}
	return p, nil
}

// load decrypts the file. A missing file is an empty map (exists false)
// and asks for nothing. Caller holds f.mu.
func (f *fileBackend) load() (m map[string]string, exists bool, err error) {
	if err := f.Probe(); err != nil {
		return nil, false, err
	}
	data, err := os.ReadFile(f.path)
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]string{}, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("secrets file %s: %w", f.path, err)
	}
	sum := sha256.Sum256(data)
	if f.cache != nil && sum == f.cacheSum {
		return copyMap(f.cache), true, nil
	}
	pass, err := f.getPass(false)
	if err != nil {
		return nil, true, err
	}
	id, err := age.NewScryptIdentity(pass)
	if err != nil {
		return nil, true, fmt.Errorf("secrets file %s: %w", f.path, err)
	}
	r, err := age.Decrypt(bytes.NewReader(data), id)
	if err != nil {
		var noMatch *age.NoIdentityMatchError
		if errors.As(err, &noMatch) {
			f.havePass, f.passphrase = false, ""
			return nil, true, fmt.Errorf("secrets file %s: %w", f.path, ErrWrongPassphrase)
		}
		return nil, true, fmt.Errorf("secrets file %s: cannot decrypt (not an age file, or damaged): %v", f.path, err)
	}
	plain, err := io.ReadAll(r)
	if err != nil {
		return nil, true, fmt.Errorf("secrets file %s: damaged: %v", f.path, err)
	}
	m = map[string]string{}
	if err := json.Unmarshal(plain, &m); err != nil {
		return nil, true, fmt.Errorf("secrets file %s: decrypted content is not a JSON map of strings", f.path)
	}
	f.passphrase, f.havePass = pass, true
	f.cache, f.cacheSum = copyMap(m), sum
	return m, true, nil
}

// save encrypts m and replaces the file atomically (temp file + rename,
// mode 0600, dir 0700). Caller holds f.mu.
func (f *fileBackend) save(m map[string]string, pass string) error {
	plain, err := json.Marshal(m)
	if err != nil {
		return err
	}
	rec, err := age.NewScryptRecipient(pass)
	if err != nil {
		return fmt.Errorf("secrets file %s: %w", f.path, err)
	}
	if f.workFactor > 0 {
		rec.SetWorkFactor(f.workFactor)
	}
	var buf bytes.Buffer
	w, err := age.Encrypt(&buf, rec)
	if err != nil {
		return fmt.Errorf("secrets file %s: encrypt: %w", f.path, err)
	}
	if _, err := w.Write(plain); err != nil {
		return fmt.Errorf("secrets file %s: encrypt: %w", f.path, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("secrets file %s: encrypt: %w", f.path, err)
	}
	if err := config.WriteFileAtomic(f.path, buf.Bytes()); err != nil {
		return fmt.Errorf("secrets file %s: %w", f.path, err)
	}
	f.passphrase, f.havePass = pass, true
	f.cache, f.cacheSum = copyMap(m), sha256.Sum256(buf.Bytes())
	return nil
}

func (f *fileBackend) Get(name string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, _, err := f.load()
	if err != nil {
		return "", err
	}
	v, ok := m[name]
	if !ok {
		return "", ErrNotFound
	}
	return v, nil
}

func (f *fileBackend) Set(name, value string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, exists, err := f.load()
	if err != nil {
		return err
	}
	pass, err := f.getPass(!exists)
	if err != nil {
		return err
	}
	m[name] = value
	return f.save(m, pass)
}

func (f *fileBackend) Delete(name string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, _, err := f.load()
	if err != nil {
		return err
	}
	if _, ok := m[name]; !ok {
		return ErrNotFound
	}
	delete(m, name)
	return f.save(m, f.passphrase)
}

func copyMap(m map[string]string) map[string]string {
	c := make(map[string]string, len(m))
	for k, v := range m {
		c[k] = v
	}
	return c
}
