// Package keystore keeps skytui's secrets (API keys, bucket credentials,
// restore encryption keys) in the best backend the host offers.
//
// The chain, in order:
//
//  0. the environment (SKYSQL_API_KEY), read-only, for the API key only;
//  1. the OS keyring (macOS Keychain, Windows Credential Manager, Secret
//     Service), through github.com/zalando/go-keyring; on Linux only tried
//     when a D-Bus session bus exists; every call bounded by a timeout;
//  2. the Linux kernel keyring (@u), kept until reboot;
//  3. an age/scrypt passphrase-encrypted file in the user config dir.
//
// There is never a silent plaintext fallback. SKYTUI_SECRETS_BACKEND
// (auto|keyring|keyctl|file) forces one backend and fails loudly when it is
// unusable. Errors never contain secret values.
package keystore

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"
)

// Environment variables read by this package.
const (
	EnvAPIKey  = "SKYSQL_API_KEY"
	EnvBackend = "SKYTUI_SECRETS_BACKEND"
)

// Backend names.
const (
	BackendEnv     = "env"
	BackendKeyring = "keyring"
	BackendKeyctl  = "keyctl"
	BackendFile    = "file"
	BackendNone    = "none"
)

// Service is the service name used in the OS keyring.
const Service = "skytui"

// DefaultKeyringTimeout bounds every OS keyring call.
const DefaultKeyringTimeout = 3 * time.Second

var (
	// ErrNotFound: no secret under that name.
	ErrNotFound = errors.New("secret not found")
	// ErrReadOnly: the backend cannot be written (environment).
	ErrReadOnly = errors.New("backend is read-only")
	// ErrTooLarge: the value exceeds the backend's per-secret limit.
	ErrTooLarge = errors.New("secret too large")
	// ErrTimeout: the OS keyring did not answer in time.
	ErrTimeout = errors.New("timed out")
	// ErrNoBackend: no writable backend is usable.
	ErrNoBackend = errors.New("no usable secrets backend")
	// ErrWrongPassphrase: the secrets file could not be decrypted with the
	// passphrase given.
	ErrWrongPassphrase = errors.New("wrong passphrase")
	// ErrDamaged is a stored value that was read but cannot be taken as
	// what it should be.
	ErrDamaged = errors.New("damaged")
	// ErrInvalid: a credential or name failed validation.
	ErrInvalid = errors.New("invalid")
)

// Backend is one place secrets can be kept.
type Backend interface {
	// Name is the short name: env, keyring, keyctl, file (or none).
	Name() string
	// Label is a human description, e.g. "kernel keyring (kept until reboot)".
	Label() string
	// Probe reports nil when the backend is usable, else the reason.
	Probe() error
	// MaxSize is the largest value (bytes) accepted; 0 for read-only.
	MaxSize() int
	// Get returns ErrNotFound (possibly wrapped) when absent.
	Get(name string) (string, error)
	Set(name, value string) error
	// Delete returns ErrNotFound (possibly wrapped) when absent.
	Delete(name string) error
}

// PassphraseFunc returns the passphrase of the encrypted secrets file at
// path. create is true when the file does not exist yet (a UI should ask
// for confirmation). It is called at most once per run after a successful
// decryption (the store caches the passphrase in memory), and again after
// a wrong passphrase.
type PassphraseFunc func(path string, create bool) (string, error)

// Options configures Open. The zero value gives the real chain.
type Options struct {
	// Backend forces a backend: "", "auto", "keyring", "keyctl", "file".
	// Empty means: read SKYTUI_SECRETS_BACKEND.
	Backend string
	// Getenv replaces os.Getenv (tests).
	Getenv func(string) string
	// FilePath is the encrypted file; default
	// os.UserConfigDir()/skytui/secrets.age.
	FilePath string
	// Passphrase obtains the file passphrase; nil makes the file backend
	// unusable (non-interactive).
	Passphrase PassphraseFunc
	// FileWorkFactor is the scrypt log2(N) for new encryptions; 0 means
	// age's default (18). Tests use small values.
	FileWorkFactor int
	// KeyringTimeout bounds each OS keyring call; 0 means 3 s.
	KeyringTimeout time.Duration
	// RuntimeDir is the parent of per-uid runtime dirs; default /run/user.
	RuntimeDir string
	// Backends replaces the writable chain (tests). The environment
	// backend is always first and is not part of this list.
	Backends []Backend
}

// Status describes one backend for `auth status` and a Settings screen.
type Status struct {
	Name     string
	Label    string
	Usable   bool
	Reason   string // why unusable; empty when usable
	ReadOnly bool
	Selected bool // the backend writes go to
	// Note is said beside a usable backend that is not read in this run
	// (the encrypted file, there but locked, when another is in use).
	Note string
}

// Store is the secrets chain. It is safe for concurrent use.
type Store struct {
	mu       sync.Mutex // serialises index read-modify-write
	probeMu  sync.Mutex // guards probed
	getenv   func(string) string
	env      *envBackend
	chain    []Backend
	forced   string // "" in auto mode
	selected Backend
	probed   map[string]error
	reasons  []string // why each chain backend was skipped (auto mode)
}

// Open builds the chain and selects the first usable writable backend.
// In forced mode (Options.Backend or SKYTUI_SECRETS_BACKEND) an unusable
// backend is an error naming the backend and the reason. In auto mode a
// store with no usable writable backend is returned; its writes fail with
// ErrNoBackend listing every reason.
func Open(opts Options) (*Store, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	s := &Store{
		getenv: getenv,
		env:    &envBackend{getenv: getenv},
		probed: map[string]error{},
	}
	if opts.Backends != nil {
		s.chain = opts.Backends
	} else {
		s.chain = defaultChain(opts, getenv)
	}

	mode, source := strings.ToLower(strings.TrimSpace(opts.Backend)), "option"
	if mode == "" {
		mode, source = envChoice(getenv), EnvBackend
	}
	if mode == "" || mode == "auto" {
		for _, b := range s.chain {
			if err := s.probe(b); err != nil {
				s.reasons = append(s.reasons, fmt.Sprintf("%s: %v", b.Name(), err))
				continue
			}
			s.selected = b
			break
		}
		return s, nil
	}
	var b Backend
	names := make([]string, 0, len(s.chain))
	for _, c := range s.chain {
		names = append(names, c.Name())
		if c.Name() == mode {
			b = c
		}
	}
	if b == nil {
		return nil, fmt.Errorf("%s=%q: unknown secrets backend (want auto, %s)", source, mode, strings.Join(names, ", "))
	}
	if err := s.probe(b); err != nil {
		return nil, fmt.Errorf("secrets backend %q (%s) forced by %s is unusable: %w", b.Name(), b.Label(), source, err)
	}
	s.forced = mode
	s.selected = b
	return s, nil
}

// envChoice is SKYTUI_SECRETS_BACKEND as Open reads it: trimmed, lower
// case ("" or "auto" for the chain).
func envChoice(getenv func(string) string) string {
	return strings.ToLower(strings.TrimSpace(getenv(EnvBackend)))
}

// FileNote is the sentence said before the encrypted file is created:
// why secrets go there (SKYTUI_SECRETS_BACKEND chose it, or neither
// keyring is usable) and where it is.
func FileNote(getenv func(string) string, path string) string {
	if envChoice(getenv) == BackendFile {
		return fmt.Sprintf("Secrets go to the encrypted file %s, chosen by %s=file.", path, EnvBackend)
	}
	return fmt.Sprintf("No OS keyring or kernel keyring is usable here: secrets go to the encrypted file %s.", path)
}

func defaultChain(opts Options, getenv func(string) string) []Backend {
	timeout := opts.KeyringTimeout
	if timeout <= 0 {
		timeout = DefaultKeyringTimeout
	}
	path := opts.FilePath
	var pathErr error
	if path == "" {
		path, pathErr = DefaultFilePath()
	}
	return []Backend{
		newKeyringBackend(goKeyring{}, getenv, opts.RuntimeDir, timeout),
		newKeyctlBackend(),
		newFileBackend(path, pathErr, opts.Passphrase, opts.FileWorkFactor),
	}
}

// DefaultFilePath is os.UserConfigDir()/skytui/secrets.age.
func DefaultFilePath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("no user config dir: %w", err)
	}
	return filepath.Join(dir, "skytui", "secrets.age"), nil
}

// probe runs b.Probe once and caches the result.
func (s *Store) probe(b Backend) error {
	s.probeMu.Lock()
	err, ok := s.probed[b.Name()]
	s.probeMu.Unlock()
	if ok {
		return err
	}
	err = b.Probe()
	s.probeMu.Lock()
	s.probed[b.Name()] = err
	s.probeMu.Unlock()
	return err
}

// Backend returns the backend writes go to. When no writable backend is
// usable it returns the environment backend if SKYSQL_API_KEY is set, and
// otherwise a "none" backend whose operations fail with ErrNoBackend.
// It is never nil.
func (s *Store) Backend() Backend {
	if s.selected != nil {
		return s.selected
	}
	if s.env.Probe() == nil {
		return s.env
	}
	return noneBackend{reasons: s.reasons}
}

// Forced reports the forced backend name, or "" in auto mode.
func (s *Store) Forced() string { return s.forced }

// Probe lists every backend (environment first) with usable/unusable and
// the reason. It probes backends not tried yet (the OS keyring may take up
// to its timeout); results are cached for the Store's life.
func (s *Store) Probe() []Status {
	out := make([]Status, 0, len(s.chain)+1)
	envErr := s.env.Probe()
	out = append(out, Status{
		Name: s.env.Name(), Label: s.env.Label(), Usable: envErr == nil,
		Reason: errString(envErr), ReadOnly: true,
		Selected: s.selected == nil && envErr == nil,
	})
	for _, b := range s.chain {
		err := s.probe(b)
		st := Status{
			Name: b.Name(), Label: b.Label(), Usable: err == nil,
			Reason: errString(err), Selected: s.selected == b,
		}
		if a, ok := b.(asker); ok && err == nil && !st.Selected && a.mustAsk() {
			st.Note = fmt.Sprintf("the file exists but is not read (its passphrase is asked only when it is the backend in use: %s=file)", EnvBackend)
		}
		out = append(out, st)
	}
	return out
}

// Describe is a human, multi-line rendering of Probe.
func (s *Store) Describe() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "secrets backend: %s", s.Backend().Label())
	if s.forced != "" {
		fmt.Fprintf(&sb, " (forced by %s)", EnvBackend)
	}
	sb.WriteString("\n")
	for _, st := range s.Probe() {
		state := "usable"
		if !st.Usable {
			state = "unusable: " + st.Reason
		}
		if st.Selected {
			state += " (selected)"
		}
		if st.Note != "" {
			state += "; " + st.Note
		}
		fmt.Fprintf(&sb, "  %-8s %s — %s\n", st.Name, st.Label, state)
	}
	return sb.String()
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// writable returns the selected backend or an ErrNoBackend error.
func (s *Store) writable() (Backend, error) {
	if s.selected != nil {
		return s.selected, nil
	}
	return nil, noneBackend{reasons: s.reasons}.err()
}

var nameRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._@:/-]{0,199}$`)

func checkName(name string) error {
	if !nameRe.MatchString(name) {
		return fmt.Errorf("%w secret name %q: use letters, digits and . _ @ : / - (at most 200)", ErrInvalid, name)
	}
	return nil
}

// asker is a backend that must ask the user something (the encrypted
// file's passphrase) before it can be read now.
type asker interface{ mustAsk() bool }

// readers are the backends reads look in, in order: the one writes go to,
// then, in auto mode, every later usable backend of the chain (a secret
// stored where an earlier session found no better one: the kernel keyring
// of an SSH session, read again once a Secret Service appears). A backend
// that would have to ask something to be read (the encrypted file, not in
// use and locked) is passed over and returned in skipped: nothing is asked
// just to look. In forced mode only the forced backend is read.
func (s *Store) readers() (rs, skipped []Backend, err error) {
	b, err := s.writable()
	if err != nil {
		return nil, nil, err
	}
	rs = []Backend{b}
	if s.forced != "" {
		return rs, nil, nil
	}
	after := false
	for _, c := range s.chain {
		if c == b {
			after = true
			continue
		}
		if !after || s.probe(c) != nil {
			continue
		}
		if a, ok := c.(asker); ok && a.mustAsk() {
			skipped = append(skipped, c)
			continue
		}
		rs = append(rs, c)
	}
	return rs, skipped, nil
}

// Unread says which backends hold secrets this store does not read
// without being chosen (an encrypted file whose passphrase is asked only
// when it is the backend in use), as a clause that starts "; " ("" when
// there is none): where a secret not found here may still be.
func (s *Store) Unread() string {
	_, skipped, err := s.readers()
	if err != nil {
		return ""
	}
	return notRead(skipped)
}

// notRead says which backends were passed over because reading them would
// ask for something ("" when none was).
func notRead(skipped []Backend) string {
	if len(skipped) == 0 {
		return ""
	}
	labels := make([]string, len(skipped))
	for i, b := range skipped {
		labels[i] = b.Label()
	}
	return fmt.Sprintf("; %s exists but was not read (its passphrase is asked only when it is the backend in use: %s=file)", strings.Join(labels, ", "), EnvBackend)
}

// get reads name from the first reader holding it and says which one
// that is. Not found anywhere, the error wraps ErrNotFound and names every
// backend looked in; a backend after the first that failed otherwise makes
// the error its own (the secret may be there).
func (s *Store) get(name string) (string, Backend, error) {
	if err := checkName(name); err != nil {
		return "", nil, err
	}
	rs, skipped, err := s.readers()
	if err != nil {
		return "", nil, err
	}
	var failed error
	labels := make([]string, 0, len(rs))
	for i, b := range rs {
		v, err := b.Get(name)
		switch {
		case err == nil:
			return v, b, nil
		case errors.Is(err, ErrNotFound):
			labels = append(labels, b.Label())
		case i == 0:
			return "", b, fmt.Errorf("%s: get %q: %w", b.Label(), name, err)
		case failed == nil:
			failed = fmt.Errorf("%s: get %q: %w", b.Label(), name, err)
		}
	}
	if failed != nil {
		return "", rs[0], failed
	}
	return "", rs[0], fmt.Errorf("%s: get %q: %w%s", strings.Join(labels, ", "), name, ErrNotFound, notRead(skipped))
}

// Get reads a secret from the first usable backend holding it: the one
// writes go to first, then (auto mode) the later ones of the chain.
func (s *Store) Get(name string) (string, error) {
	v, _, err := s.get(name)
	return v, err
}

// Set compacts value (when it is a JSON object or array), checks it
// against the selected backend's size limit, and writes it there, and
// over the copies other readable backends hold of it. It never writes to
// the environment.
func (s *Store) Set(name, value string) error {
	_, err := s.put(name, value)
	return err
}

// put is Set, which also replaces the copies other readable backends
// hold of name (so that a later session reading one of those reads the
// same value). It returns every backend written, the selected one first.
func (s *Store) put(name, value string) ([]Backend, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	b, err := s.writable()
	if err != nil {
		return nil, err
	}
	value = Compact(value)
	if err := checkSize(b, name, value); err != nil {
		return nil, err
	}
	if err := b.Set(name, value); err != nil {
		return nil, fmt.Errorf("%s: set %q: %w", b.Label(), name, err)
	}
	written := []Backend{b}
	rs, _, _ := s.readers()
	for _, o := range rs {
		if o == b {
			continue
		}
		if _, err := o.Get(name); err != nil {
			continue // no copy there (or none readable)
		}
		err := checkSize(o, name, value)
		if err == nil {
			err = o.Set(name, value)
		}
		if err != nil {
			return written, fmt.Errorf("%q is stored in %s, but its older copy in %s was not replaced: %w", name, b.Label(), o.Label(), err)
		}
		written = append(written, o)
	}
	return written, nil
}

// Delete removes a secret from every readable backend holding it;
// ErrNotFound (wrapped) when it was in none.
func (s *Store) Delete(name string) error {
	_, err := s.remove(name, nil)
	return err
}

// remove is Delete, which with unindex (reporting whether the index held
// the item) also removes the item from each backend's index. It returns
// the backends the secret (or its index entry) was removed from.
func (s *Store) remove(name string, unindex func(*index) bool) ([]Backend, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	rs, skipped, err := s.readers()
	if err != nil {
		return nil, err
	}
	var from []Backend
	labels := make([]string, 0, len(rs))
	for _, b := range rs {
		delErr := b.Delete(name)
		if delErr != nil && !errors.Is(delErr, ErrNotFound) {
			return from, fmt.Errorf("%s: delete %q: %w", b.Label(), name, delErr)
		}
		indexed := false
		if unindex != nil {
			ix, err := readIndexIn(b)
			if err != nil {
				return from, err
			}
			if indexed = unindex(&ix); indexed {
				if err := writeIndexIn(b, ix); err != nil {
					return from, err
				}
			}
		}
		if delErr == nil || indexed {
			from = append(from, b)
		} else {
			labels = append(labels, b.Label())
		}
	}
	if len(from) == 0 {
		return nil, fmt.Errorf("%s: delete %q: %w%s", strings.Join(labels, ", "), name, ErrNotFound, notRead(skipped))
	}
	return from, nil
}

// noneBackend stands for "nothing usable".
type noneBackend struct{ reasons []string }

func (noneBackend) Name() string  { return BackendNone }
func (noneBackend) Label() string { return "no usable secrets backend" }
func (n noneBackend) Probe() error {
	return n.err()
}
func (noneBackend) MaxSize() int                 { return 0 }
func (n noneBackend) Get(string) (string, error) { return "", n.err() }
func (n noneBackend) Set(string, string) error   { return n.err() }
func (n noneBackend) Delete(string) error        { return n.err() }
func (n noneBackend) err() error {
	if len(n.reasons) == 0 {
		return fmt.Errorf("%w (set %s=keyring|keyctl|file to choose one)", ErrNoBackend, EnvBackend)
	}
	return fmt.Errorf("%w: %s (set %s=keyring|keyctl|file to choose one)", ErrNoBackend, strings.Join(n.reasons, "; "), EnvBackend)
}

// envBackend serves SKYSQL_API_KEY for the API key of any profile.
type envBackend struct{ getenv func(string) string }

func (e *envBackend) Name() string  { return BackendEnv }
func (e *envBackend) Label() string { return "environment " + EnvAPIKey + " (read-only)" }
func (e *envBackend) Probe() error {
	if e.value() == "" {
		return fmt.Errorf("%s is not set", EnvAPIKey)
	}
	return nil
}
func (e *envBackend) value() string { return strings.TrimSpace(e.getenv(EnvAPIKey)) }
func (e *envBackend) MaxSize() int  { return 0 }
func (e *envBackend) Get(name string) (string, error) {
	if strings.HasPrefix(name, apiKeyPrefix) {
		if v := e.value(); v != "" {
			return v, nil
		}
	}
	return "", ErrNotFound
}
func (e *envBackend) Set(string, string) error {
	return fmt.Errorf("%w: %s cannot be written; it is only read", ErrReadOnly, EnvAPIKey)
}
func (e *envBackend) Delete(string) error {
	return fmt.Errorf("%w: %s cannot be deleted by skytui; unset it in your shell", ErrReadOnly, EnvAPIKey)
}

// tildePath shortens a path under $HOME to ~/...
func tildePath(p string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" || home == "/" {
		return p
	}
	if rel, err := filepath.Rel(home, p); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		return "~" + string(filepath.Separator) + rel
	}
	return p
}
