// Package config reads and writes skytui's profiles file
// (os.UserConfigDir()/skytui/config.toml, or $SKYTUI_CONFIG).
//
// The file holds no secrets: API keys and credentials live in package
// keystore. A key that looks like a secret in the file is an error.
package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"

	"github.com/skytui/skytui/api"
)

// EnvConfig overrides the config file path.
const EnvConfig = "SKYTUI_CONFIG"

// Defaults.
const (
	PresetSkySQL              = "skysql"
	DefaultProvisioningPrefix = "/provisioning/v1"
	DefaultBackupPrefix       = "/backup/v1"
	DefaultRefreshSeconds     = 30
	DefaultFastRefreshSeconds = 2
	MinRefreshSeconds         = 2
)

// Profile is one API endpoint and its UI preferences. It has no secret
// fields on purpose.
type Profile struct {
	Name               string
	BaseURL            string
	ProvisioningPrefix string // default "/provisioning/v1"
	BackupPrefix       string // default "/backup/v1"
	Org                string
	RefreshSeconds     int // slow poll interval; 0 = off; otherwise at least 2
	FastRefreshSeconds int // default 2; at least 2
	ReadOnly           bool
	Bell               bool // default true
}

// Config is the whole file.
type Config struct {
	DefaultProfile string
	Profiles       []Profile
	// Warnings are what the file holds that was ignored (unknown keys and
	// tables), one line each: "FILE:LINE: unknown key ...". Empty for a
	// clean file. Save leaves what they name in the file as it is.
	Warnings []string

	path   string // file it was loaded from / is saved to
	loaded *state // what the file said when loaded or last saved (nil: never)
}

// NewProfile returns a profile with every default filled in.
func NewProfile(name, baseURL string) Profile {
	return Profile{
		Name:               name,
		BaseURL:            baseURL,
		ProvisioningPrefix: DefaultProvisioningPrefix,
		BackupPrefix:       DefaultBackupPrefix,
		RefreshSeconds:     DefaultRefreshSeconds,
		FastRefreshSeconds: DefaultFastRefreshSeconds,
		Bell:               true,
	}
}

// Preset returns the built-in "skysql" profile.
func Preset() Profile {
	p := NewProfile(PresetSkySQL, "https://api.skysql.com")
	p.BackupPrefix = "/skybackup/v1"
	return p
}

// Path is $SKYTUI_CONFIG, or os.UserConfigDir()/skytui/config.toml.
func Path() (string, error) {
	if p := os.Getenv(EnvConfig); p != "" {
		return p, nil
	}
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("config: no user config dir (set %s): %w", EnvConfig, err)
	}
	return filepath.Join(dir, "skytui", "config.toml"), nil
}

// StateDir is where debug logs and resumable progress files go:
// $XDG_STATE_HOME/skytui, else ~/.local/state/skytui (on Windows
// %LocalAppData%\skytui\state). It is not created; see EnsureStateDir.
func StateDir() (string, error) {
	if x := os.Getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "skytui"), nil
	}
	if runtime.GOOS == "windows" {
		if la := os.Getenv("LocalAppData"); la != "" {
			return filepath.Join(la, "skytui", "state"), nil
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("state dir: %w", err)
	}
	return filepath.Join(home, ".local", "state", "skytui"), nil
}

// EnsureStateDir returns StateDir, created with mode 0700.
func EnsureStateDir() (string, error) {
	dir, err := StateDir()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("state dir: %w", err)
	}
	return dir, nil
}

// ---- file format ----

// fileProfile uses pointers to tell "absent" (default) from zero values.
type fileProfile struct {
	Name               string `toml:"name"`
	BaseURL            string `toml:"base_url"`
	ProvisioningPrefix string `toml:"provisioning_prefix,omitempty"`
	BackupPrefix       string `toml:"backup_prefix,omitempty"`
	Org                string `toml:"org,omitempty"`
	RefreshSeconds     *int   `toml:"refresh_seconds,omitempty"`
	FastRefreshSeconds *int   `toml:"fast_refresh_seconds,omitempty"`
	ReadOnly           *bool  `toml:"read_only,omitempty"`
	Bell               *bool  `toml:"bell,omitempty"`
}

type fileConfig struct {
	DefaultProfile string        `toml:"default_profile,omitempty"`
	Profiles       []fileProfile `toml:"profile"`
}

const header = "# skytui configuration. No secrets here: API keys and credentials are kept\n" +
	"# by `skytui auth` in the OS keyring, the kernel keyring or an encrypted file.\n\n"

var secretKeyRe = regexp.MustCompile(`(?i)(api_?key|secret|token|password|passphrase|private_?key|credential)`)

// Load reads the file at Path(). A missing file gives the defaults.
func Load() (*Config, error) {
	p, err := Path()
	if err != nil {
		return nil, err
	}
	return LoadFile(p)
}

// LoadFile reads path. A missing file gives an empty config (the skysql
// preset is always available), not an error. A malformed file is an error
// naming the path and line.
//
// Unknown keys and tables do not stop the file loading (a newer version may
// have written them): each becomes a line of Config.Warnings naming the file,
// the line and the key, with a suggestion when a known key is close. A key
// that looks like a secret is an error wherever it is. LoadFile prints
// nothing. When the file fails after warnings were found, the error is a
// *LoadError that carries them (an unknown table often explains the failure).
//
// On Unix a file other users can change is refused, since it decides where
// the API key is sent: one that is group- or world-writable, or that sits
// in a directory they can write (not sticky); the error names the file, its
// mode and the chmod that fixes it.
func LoadFile(path string) (*Config, error) {
	data, err := readFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Config{path: path, loaded: &state{}}, nil
	}
	if err != nil {
		return nil, err
	}
	c, err := decode(path, data)
	if err != nil {
		return nil, err
	}
	c.loaded = c.state()
	return c, nil
}

// readFile reads the config file after checking that other users cannot
// change it (see checkPermissions). A missing file is fs.ErrNotExist as is.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	defer f.Close()
	if err := checkPermissions(path, f); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("config %s: %w", path, err)
	}
	return data, nil
}

// decode parses and validates the bytes of the file at path.
func decode(path string, data []byte) (*Config, error) {
	c := &Config{path: path}
	var fc fileConfig
	if err := toml.Unmarshal(data, &fc); err != nil {
		return nil, decodeError(path, err)
	}
	if err := checkSecrets(path, data); err != nil {
		return nil, err
	}
	c.Warnings = unknownKeys(path, data, fc)
	fail := func(err error) (*Config, error) {
		if len(c.Warnings) > 0 {
			return nil, &LoadError{Err: err, Warnings: c.Warnings}
		}
		return nil, err
	}
	c.DefaultProfile = fc.DefaultProfile
	seen := map[string]bool{}
	for _, fp := range fc.Profiles {
		p := fromFile(fp)
		if err := p.Validate(); err != nil {
			return fail(fmt.Errorf("config %s: %w", path, err))
		}
		if seen[p.Name] {
			return fail(fmt.Errorf("config %s: profile %q is defined twice", path, p.Name))
		}
		seen[p.Name] = true
		c.Profiles = append(c.Profiles, p)
	}
	if c.DefaultProfile != "" {
		if _, err := c.Profile(c.DefaultProfile); err != nil {
			return fail(fmt.Errorf("config %s: default_profile: %w", path, err))
		}
	}
	return c, nil
}

// state is a copy of what c holds, as Save compares it.
func (c *Config) state() *state {
	s := &state{def: c.DefaultProfile}
	for _, p := range c.Profiles {
		s.profiles = append(s.profiles, p.Normalize())
	}
	return s
}

func decodeError(path string, err error) error {
	var de *toml.DecodeError
	if errors.As(err, &de) {
		row, col := de.Position()
		if k := de.Key(); len(k) > 0 {
			return fmt.Errorf("config %s: line %d, column %d (key %s): %s", path, row, col, strings.Join(k, "."), de.Error())
		}
		return fmt.Errorf("config %s: line %d, column %d: %s", path, row, col, de.Error())
	}
	return fmt.Errorf("config %s: %w", path, err)
}

func fromFile(fp fileProfile) Profile {
	p := NewProfile(fp.Name, fp.BaseURL)
	if fp.ProvisioningPrefix != "" {
		p.ProvisioningPrefix = fp.ProvisioningPrefix
	}
	if fp.BackupPrefix != "" {
		p.BackupPrefix = fp.BackupPrefix
	}
	p.Org = fp.Org
	if fp.RefreshSeconds != nil {
		p.RefreshSeconds = *fp.RefreshSeconds
	}
	if fp.FastRefreshSeconds != nil {
		p.FastRefreshSeconds = *fp.FastRefreshSeconds
	}
	if fp.ReadOnly != nil {
		p.ReadOnly = *fp.ReadOnly
	}
	if fp.Bell != nil {
		p.Bell = *fp.Bell
	}
	return p.Normalize()
}

func toFile(p Profile) fileProfile {
	r, f, ro, bell := p.RefreshSeconds, p.FastRefreshSeconds, p.ReadOnly, p.Bell
	return fileProfile{
		Name: p.Name, BaseURL: p.BaseURL,
		ProvisioningPrefix: p.ProvisioningPrefix, BackupPrefix: p.BackupPrefix, Org: p.Org,
		RefreshSeconds: &r, FastRefreshSeconds: &f, ReadOnly: &ro, Bell: &bell,
	}
}

// Path is the file this config was loaded from (and Save writes).
func (c *Config) Path() string { return c.path }

// Save writes the config to the path it was loaded from (or Path()).
func (c *Config) Save() error {
	p := c.path
	if p == "" {
		var err error
		if p, err = Path(); err != nil {
			return err
		}
	}
	return c.SaveFile(p)
}

// SaveFile validates the config and writes it to path.
//
// A file that does not exist yet is written whole, with mode 0600 (its
// directory created 0700). A file that exists is changed only where the
// config differs from what was loaded from it (or, for a config not loaded
// from path, from what the file holds): values replaced in place, missing
// keys and new [[profile]] tables added; comments, unknown keys and the
// rest of the text stay as they are. When that cannot be done safely the
// file is left unchanged and the error is a *ManualEditError with the lines
// to add or change. A symbolic link is written through: its target is
// replaced atomically (in the target's directory) and the link stays.
func (c *Config) SaveFile(path string) error {
	fc := fileConfig{DefaultProfile: c.DefaultProfile}
	seen := map[string]bool{}
	want := &state{def: c.DefaultProfile}
	for _, p := range c.Profiles {
		p = p.Normalize()
		if err := p.Validate(); err != nil {
			return fmt.Errorf("config %s: %w", path, err)
		}
		if seen[p.Name] {
			return fmt.Errorf("config %s: profile %q is defined twice", path, p.Name)
		}
		seen[p.Name] = true
		fc.Profiles = append(fc.Profiles, toFile(p))
		want.profiles = append(want.profiles, p)
	}
	if want.def != "" && !seen[want.def] && want.def != PresetSkySQL {
		return fmt.Errorf("config %s: default_profile: profile %q not found", path, want.def)
	}
	target, err := resolveLink(path)
	if err != nil {
		return fmt.Errorf("config %s: %w", path, err)
	}
	old, err := os.ReadFile(target)
	var body []byte
	switch {
	case errors.Is(err, fs.ErrNotExist):
		b, err := toml.Marshal(fc)
		if err != nil {
			return fmt.Errorf("config %s: %w", path, err)
		}
		body = append([]byte(header), b...)
	case err != nil:
		return fmt.Errorf("config %s: %w", path, err)
	default:
		base := c.loaded
		if c.path != path {
			base = nil
		}
		if body, err = editFile(path, old, base, want); err != nil {
			return err
		}
		if bytes.Equal(body, old) {
			body = nil // nothing to change
		}
	}
	if body != nil {
		if err := WriteFileAtomic(target, body); err != nil {
			return fmt.Errorf("config %s: %w", path, err)
		}
	}
	c.path = path
	c.loaded = want
	return nil
}

// WriteFileAtomic writes data to path with mode 0600 (its directory 0700)
// through a temporary file and a rename, so a reader never sees half a
// file and a crash never leaves one. The config file and the state files
// all go through it.
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+"-*.tmp")
	if err != nil {
		return err
	}
	name := tmp.Name()
	ok := false
	defer func() {
		if !ok {
			_ = tmp.Close()
			_ = os.Remove(name)
		}
	}()
	if err := tmp.Chmod(0o600); err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(name, path); err != nil {
		return err
	}
	ok = true
	return nil
}

// Profile returns the named profile with defaults applied. An empty name
// means DefaultProfile, else "skysql". The "skysql" preset is available
// even when the file does not define it (a file entry overrides it).
func (c *Config) Profile(name string) (Profile, error) {
	if name == "" {
		name = c.DefaultProfile
	}
	if name == "" {
		name = PresetSkySQL
	}
	for _, p := range c.Profiles {
		if p.Name == name {
			return p.Normalize(), nil
		}
	}
	if name == PresetSkySQL {
		return Preset(), nil
	}
	return Profile{}, fmt.Errorf("profile %q not found (known: %s)", name, strings.Join(c.ProfileNames(), ", "))
}

// ProfileNames lists the profiles (the preset included), sorted.
func (c *Config) ProfileNames() []string {
	names := []string{PresetSkySQL}
	for _, p := range c.Profiles {
		if p.Name != PresetSkySQL {
			names = append(names, p.Name)
		}
	}
	sort.Strings(names)
	return names
}

// Upsert validates p (after Normalize) and adds it or replaces the profile
// of the same name.
func (c *Config) Upsert(p Profile) error {
	p = p.Normalize()
	if err := p.Validate(); err != nil {
		return err
	}
	for i := range c.Profiles {
		if c.Profiles[i].Name == p.Name {
			c.Profiles[i] = p
			return nil
		}
	}
	c.Profiles = append(c.Profiles, p)
	return nil
}

// Remove deletes the named profile; it clears DefaultProfile if that was
// it. Removing the preset only removes its overrides.
func (c *Config) Remove(name string) error {
	for i := range c.Profiles {
		if c.Profiles[i].Name == name {
			c.Profiles = append(c.Profiles[:i:i], c.Profiles[i+1:]...)
			if c.DefaultProfile == name {
				c.DefaultProfile = ""
			}
			return nil
		}
	}
	return fmt.Errorf("profile %q not found in the config file", name)
}

// Normalize fills empty prefixes with defaults, trims trailing slashes and
// applies the refresh floors (RefreshSeconds 0 stays off).
func (p Profile) Normalize() Profile {
	p.Name = strings.TrimSpace(p.Name)
	p.BaseURL = strings.TrimRight(strings.TrimSpace(p.BaseURL), "/")
	if p.ProvisioningPrefix == "" {
		p.ProvisioningPrefix = DefaultProvisioningPrefix
	}
	if p.BackupPrefix == "" {
		p.BackupPrefix = DefaultBackupPrefix
	}
	p.ProvisioningPrefix = trimPrefix(p.ProvisioningPrefix)
	p.BackupPrefix = trimPrefix(p.BackupPrefix)
	if p.RefreshSeconds > 0 && p.RefreshSeconds < MinRefreshSeconds {
		p.RefreshSeconds = MinRefreshSeconds
	}
	if p.FastRefreshSeconds >= 0 && p.FastRefreshSeconds < MinRefreshSeconds {
		p.FastRefreshSeconds = MinRefreshSeconds
	}
	return p
}

func trimPrefix(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 1 {
		s = strings.TrimRight(s, "/")
	}
	return s
}

var profileNameRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// ValidateProfileName checks a profile's name: letters, digits and . _ -,
// at most 64, not starting with a symbol.
func ValidateProfileName(name string) error {
	if !profileNameRe.MatchString(name) {
		return fmt.Errorf("profile name %q: use letters, digits and . _ - (at most 64, not starting with a symbol)", name)
	}
	return nil
}

// Validate checks the name, the base URL, the prefixes and the intervals.
func (p Profile) Validate() error {
	if err := ValidateProfileName(p.Name); err != nil {
		return err
	}
	if err := ValidateBaseURL(p.BaseURL); err != nil {
		return fmt.Errorf("profile %q: %w", p.Name, err)
	}
	for _, f := range []struct{ key, v string }{
		{"provisioning_prefix", p.ProvisioningPrefix},
		{"backup_prefix", p.BackupPrefix},
	} {
		if !strings.HasPrefix(f.v, "/") || strings.ContainsAny(f.v, "?# \t\r\n") {
			return fmt.Errorf("profile %q: %s %q must be a path starting with /", p.Name, f.key, f.v)
		}
	}
	if strings.ContainsFunc(p.Org, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return fmt.Errorf("profile %q: org contains control characters", p.Name)
	}
	if p.RefreshSeconds < 0 {
		return fmt.Errorf("profile %q: refresh_seconds must be 0 (off) or at least %d", p.Name, MinRefreshSeconds)
	}
	if p.FastRefreshSeconds < 0 {
		return fmt.Errorf("profile %q: fast_refresh_seconds must be at least %d", p.Name, MinRefreshSeconds)
	}
	return nil
}

// ValidateBaseURL is api.ValidateBaseURL: HTTPS for anything but loopback.
func ValidateBaseURL(raw string) error { return api.ValidateBaseURL(raw) }
