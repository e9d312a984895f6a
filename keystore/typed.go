package keystore

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/skytui/skytui/api"
)

// Secret names inside the backends.
const (
	apiKeyPrefix = "apikey/"
	bucketPrefix = "bucket/"
	encKeyPrefix = "enckey/"
	indexName    = "meta/index"
)

// Bucket credential kinds.
const (
	KindGCS = "gcs"
	KindS3  = "s3"
)

var itemNameRe = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$`)

// CheckName applies the rule every stored item's name follows (a bucket
// credential's, an encryption key's, a profile's) so a form can refuse a
// name when it is typed, before any secret is asked: what names the item
// in the message ("encryption key"). The error wraps ErrInvalid.
func CheckName(what, name string) error { return checkItemName(what, name) }

func checkItemName(what, name string) error {
	if !itemNameRe.MatchString(name) {
		return fmt.Errorf("%w %s name %q: use letters, digits and . _ @ - (at most 128, not starting with a symbol)", ErrInvalid, what, name)
	}
	return nil
}

// ---- API keys ----

// APIKey returns the API key of profile and where it came from.
// SKYSQL_API_KEY, when set, overrides every stored key; otherwise it is
// read from the first usable backend holding it (see Get).
func (s *Store) APIKey(profile string) (string, Backend, error) {
	if err := checkItemName("profile", profile); err != nil {
		return "", nil, err
	}
	if v, err := s.env.Get(apiKeyPrefix + profile); err == nil {
		return v, s.env, nil
	}
	if _, err := s.writable(); err != nil {
		return "", nil, fmt.Errorf("no API key for profile %q: %s is not set and %w", profile, EnvAPIKey, err)
	}
	v, b, err := s.get(apiKeyPrefix + profile)
	if err != nil {
		return "", b, fmt.Errorf("API key for profile %q: %w", profile, err)
	}
	return v, b, nil
}

// SetAPIKey stores the API key of profile in the selected backend (never in
// the environment).
func (s *Store) SetAPIKey(profile, key string) error {
	if err := checkItemName("profile", profile); err != nil {
		return err
	}
	key = strings.TrimSpace(key)
	if key == "" {
		return fmt.Errorf("%w API key for profile %q: empty", ErrInvalid, profile)
	}
	if strings.ContainsFunc(key, func(r rune) bool { return r < 0x21 || r == 0x7f }) {
		return fmt.Errorf("%w API key for profile %q: contains spaces or control characters", ErrInvalid, profile)
	}
	return s.Set(apiKeyPrefix+profile, key)
}

// DeleteAPIKey removes the stored API key of profile from every backend
// holding it and says which (ErrNotFound, wrapped, when there was none).
// It cannot remove SKYSQL_API_KEY.
func (s *Store) DeleteAPIKey(profile string) ([]Backend, error) {
	if err := checkItemName("profile", profile); err != nil {
		return nil, err
	}
	return s.remove(apiKeyPrefix+profile, nil)
}

// ---- bucket credentials ----

// BucketCredential is a GCSCredential or an S3Credential.
type BucketCredential interface {
	CredentialName() string
	Kind() string
	Validate() error
}

// GCSCredential is a Google service-account JSON key document.
type GCSCredential struct {
	Name    string
	KeyJSON []byte
}

// CredentialName implements BucketCredential.
func (c GCSCredential) CredentialName() string { return c.Name }

// Kind implements BucketCredential.
func (c GCSCredential) Kind() string { return KindGCS }

// Validate checks the name and that KeyJSON is a JSON object with "type":
// "service_account", "client_email" and "private_key". Errors name the
// field, never a value.
func (c GCSCredential) Validate() error {
	if err := checkItemName("GCS credential", c.Name); err != nil {
		return err
	}
	return validateGCSKey(c.Name, c.KeyJSON)
}

func validateGCSKey(name string, doc []byte) error {
	if err := api.ValidateGCSKey(doc); err != nil {
		return fmt.Errorf("%w GCS credential %q: %v", ErrInvalid, name, err)
	}
	return nil
}

// ClientEmail returns the service account's client_email ("" if invalid).
func (c GCSCredential) ClientEmail() string {
	var m struct {
		ClientEmail string `json:"client_email"`
	}
	_ = json.Unmarshal(c.KeyJSON, &m)
	return m.ClientEmail
}

// S3Credential is an S3 access key pair and region.
type S3Credential struct {
	Name            string
	AccessKeyID     string
	SecretAccessKey string
	Region          string
}

// CredentialName implements BucketCredential.
func (c S3Credential) CredentialName() string { return c.Name }

// Kind implements BucketCredential.
func (c S3Credential) Kind() string { return KindS3 }

// Validate checks the name and the fields with api.S3Credentials' rules:
// every field present without whitespace, a region shaped like us-east-1.
// Errors name the field, never a secret.
func (c S3Credential) Validate() error {
	if err := checkItemName("S3 credential", c.Name); err != nil {
		return err
	}
	if err := c.API().Validate(); err != nil {
		return fmt.Errorf("%w S3 credential %q: %v", ErrInvalid, c.Name, err)
	}
	return nil
}

// API returns the credential in the form the interface encodes.
func (c S3Credential) API() api.S3Credentials {
	return api.S3Credentials{AccessKeyID: c.AccessKeyID, SecretAccessKey: c.SecretAccessKey, Region: c.Region}
}

type s3Stored struct {
	Kind            string `json:"kind"`
	AccessKeyID     string `json:"access_key_id"`
	SecretAccessKey string `json:"secret_access_key"`
	Region          string `json:"region"`
}

// CredentialInfo names a stored credential without its secret.
type CredentialInfo struct {
	Name    string
	Kind    string // KindGCS or KindS3
	Backend string // the name of the backend it is read from: keyring, keyctl, file
	Where   string // that backend's label
}

type index struct {
	Buckets        map[string]string `json:"buckets,omitempty"`         // name -> kind
	EncryptionKeys []string          `json:"encryption_keys,omitempty"` // sorted names
}

// readIndexIn reads b's index: keyrings cannot enumerate reliably, so
// each backend keeps the names it holds in an index entry.
func readIndexIn(b Backend) (index, error) {
	var ix index
	v, err := b.Get(indexName)
	if errors.Is(err, ErrNotFound) {
		return ix, nil
	}
	if err != nil {
		return ix, fmt.Errorf("%s: get %q: %w", b.Label(), indexName, err)
	}
	if err := json.Unmarshal([]byte(v), &ix); err != nil {
		return index{}, fmt.Errorf("secrets index %q in %s is damaged; re-add the credentials", indexName, b.Label())
	}
	return ix, nil
}

func writeIndexIn(b Backend, ix index) error {
	sort.Strings(ix.EncryptionKeys)
	v, err := json.Marshal(ix)
	if err != nil {
		return err
	}
	if err := checkSize(b, indexName, string(v)); err != nil {
		return err
	}
	if err := b.Set(indexName, string(v)); err != nil {
		return fmt.Errorf("%s: set %q: %w", b.Label(), indexName, err)
	}
	return nil
}

// putIndexed stores prefix+name (see put) and adds it, with add, to the
// index of every backend written. Caller holds s.mu.
func (s *Store) putIndexed(name, value string, add func(*index)) error {
	written, err := s.put(name, value)
	for _, b := range written {
		ix, ierr := readIndexIn(b)
		if ierr == nil {
			add(&ix)
			ierr = writeIndexIn(b, ix)
		}
		if ierr != nil && err == nil {
			err = ierr
		}
	}
	return err
}

// indexes reads the index of every readable backend, the one writes go
// to first.
func (s *Store) indexes() ([]Backend, []index, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rs, _, err := s.readers()
	if err != nil {
		return nil, nil, err
	}
	ixs := make([]index, len(rs))
	for i, b := range rs {
		if ixs[i], err = readIndexIn(b); err != nil {
			return nil, nil, err
		}
	}
	return rs, ixs, nil
}

// PutBucketCredential validates c and stores it (compacted, raw JSON for
// GCS) under its name, replacing one of the same name.
func (s *Store) PutBucketCredential(c BucketCredential) error {
	if c == nil {
		return fmt.Errorf("%w bucket credential: nil", ErrInvalid)
	}
	if err := c.Validate(); err != nil {
		return err
	}
	var value string
	switch c := c.(type) {
	case GCSCredential:
		value = Compact(string(c.KeyJSON))
	case *GCSCredential:
		value = Compact(string(c.KeyJSON))
	case S3Credential:
		value = s3Value(c)
	case *S3Credential:
		value = s3Value(*c)
	default:
		return fmt.Errorf("%w bucket credential %q: unknown kind %q", ErrInvalid, c.CredentialName(), c.Kind())
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.putIndexed(bucketPrefix+c.CredentialName(), value, func(ix *index) {
		if ix.Buckets == nil {
			ix.Buckets = map[string]string{}
		}
		ix.Buckets[c.CredentialName()] = c.Kind()
	})
}

func s3Value(c S3Credential) string {
	b, _ := json.Marshal(s3Stored{Kind: KindS3, AccessKeyID: c.AccessKeyID, SecretAccessKey: c.SecretAccessKey, Region: c.Region})
	return string(b)
}

// BucketCredential returns the credential named name: a GCSCredential or
// an S3Credential.
func (s *Store) BucketCredential(name string) (BucketCredential, error) {
	if err := checkItemName("bucket credential", name); err != nil {
		return nil, err
	}
	v, err := s.Get(bucketPrefix + name)
	if err != nil {
		return nil, err
	}
	var probe struct {
		Kind string `json:"kind"`
		Type string `json:"type"`
	}
	if err := json.Unmarshal([]byte(v), &probe); err != nil {
		return nil, fmt.Errorf("bucket credential %q: stored value is %w", name, ErrDamaged)
	}
	switch {
	case probe.Type == "service_account":
		return GCSCredential{Name: name, KeyJSON: []byte(v)}, nil
	case probe.Kind == KindS3:
		var st s3Stored
		if err := json.Unmarshal([]byte(v), &st); err != nil {
			return nil, fmt.Errorf("bucket credential %q: stored value is %w", name, ErrDamaged)
		}
		return S3Credential{Name: name, AccessKeyID: st.AccessKeyID, SecretAccessKey: st.SecretAccessKey, Region: st.Region}, nil
	}
	return nil, fmt.Errorf("bucket credential %q: stored value is %w (of an unknown kind)", name, ErrDamaged)
}

// ListBucketCredentials lists stored credentials (names, kinds and where
// each is read from, never a secret) of every readable backend, sorted by
// name. One held by two backends is listed once, where it is read from.
func (s *Store) ListBucketCredentials() ([]CredentialInfo, error) {
	rs, ixs, err := s.indexes()
	if err != nil {
		return nil, err
	}
	out := []CredentialInfo{}
	seen := map[string]bool{}
	for i, ix := range ixs {
		for n, k := range ix.Buckets {
			if !seen[n] {
				seen[n] = true
				out = append(out, CredentialInfo{Name: n, Kind: k, Backend: rs[i].Name(), Where: rs[i].Label()})
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// DeleteBucketCredential removes a credential and its index entry from
// every backend holding either, and says which. It is an ErrNotFound
// (wrapped) only when none did.
func (s *Store) DeleteBucketCredential(name string) ([]Backend, error) {
	return s.deleteIndexed("bucket credential", bucketPrefix, name, func(ix *index) bool {
		if _, ok := ix.Buckets[name]; !ok {
			return false
		}
		delete(ix.Buckets, name)
		return true
	})
}

// deleteIndexed removes the item prefix+name and, with unindex (which
// reports whether there was one), its index entry, from every backend
// holding either.
func (s *Store) deleteIndexed(what, prefix, name string, unindex func(*index) bool) ([]Backend, error) {
	if err := checkItemName(what, name); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.remove(prefix+name, unindex)
}

// ---- restore encryption keys ----

// PutEncryptionKey stores a restore encryption key under name.
func (s *Store) PutEncryptionKey(name, key string) error {
	if err := checkItemName("encryption key", name); err != nil {
		return err
	}
	if strings.TrimSpace(key) == "" {
		return fmt.Errorf("%w encryption key %q: empty", ErrInvalid, name)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.putIndexed(encKeyPrefix+name, key, func(ix *index) {
		if !slices.Contains(ix.EncryptionKeys, name) {
			ix.EncryptionKeys = append(ix.EncryptionKeys, name)
		}
	})
}

// EncryptionKey returns the encryption key stored under name.
func (s *Store) EncryptionKey(name string) (string, error) {
	if err := checkItemName("encryption key", name); err != nil {
		return "", err
	}
	return s.Get(encKeyPrefix + name)
}

// ListEncryptionKeys lists the names of stored encryption keys, of every
// readable backend.
func (s *Store) ListEncryptionKeys() ([]string, error) {
	_, ixs, err := s.indexes()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, ix := range ixs {
		for _, n := range ix.EncryptionKeys {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// DeleteEncryptionKey removes the key and its index entry from every
// backend holding either, and says which.
func (s *Store) DeleteEncryptionKey(name string) ([]Backend, error) {
	return s.deleteIndexed("encryption key", encKeyPrefix, name, func(ix *index) bool {
		before := len(ix.EncryptionKeys)
		ix.EncryptionKeys = slices.DeleteFunc(ix.EncryptionKeys, func(n string) bool { return n == name })
		return len(ix.EncryptionKeys) < before
	})
}
