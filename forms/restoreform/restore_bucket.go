package restoreform

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
)

// The own-bucket step: bucket URI (gs://NAME/ or s3://NAME/; a missing
// trailing slash, or a whole file path typed as the bucket, is fixed with
// one key), the backup file (a warning unless it ends in .gz), the method,
// a bucket credential from the keystore whose kind matches the scheme, and
// an optional encryption key: a stored one, or one typed (masked) and
// kept in the keystore only when "keep" is ticked. The credential is read
// and base64-encoded only inside the action's Run; the typed key leaves
// the form when the action is handed over (a key to keep comes back to it
// if the keystore did not take it).

type encMode int

const (
	encNone encMode = iota
	encStored
	encNew
)

type bucketField int

const (
	fieldBucket bucketField = iota
	fieldFile
	fieldMethod
	fieldCred
	fieldEnc
	fieldKey
	fieldKeep
	fieldKeepName
)

// secretsMsg carries the keystore's names (never a secret).
type secretsMsg struct {
	form  *bucketStep
	creds []keystore.CredentialInfo
	keys  []string
	err   error
}

type bucketStep struct {
	common *kit.Common
	note   string
	srcSvc string

	bucket, file kit.Input
	method       string
	credPrefill  string

	creds   []keystore.CredentialInfo
	cred    string
	encKeys []string
	loaded  bool
	loadErr error

	encMode   encMode
	encStored string
	encInput  kit.Input
	keep      bool
	keepName  kit.Input
	// kept is the key to keep handed to the last submit (runFunc), until
	// its answer (settleKeep)
	kept *keepAttempt

	focus bucketField
}

func newBucketStep(c *kit.Common, p BucketPrefill) *bucketStep {
	b := &bucketStep{common: c, note: p.Note, srcSvc: p.SourceService, method: p.Method, credPrefill: p.Credential}
	b.bucket = kit.NewInput("> ", "")
	b.bucket.SetValue(p.Bucket)
	b.file = kit.NewInput("> ", "")
	b.file.SetValue(p.File)
	b.encInput = kit.NewSecretInput("> ", "", []rune(c.Theme.Glyphs.Mask)[0])
	b.keepName = kit.NewInput("> ", "")
	if b.method == "" {
		b.method = api.MethodMariabackup
	}
	b.cred = p.Credential
	b.bucket.Focus()
	return b
}

// load reads the names of stored credentials and keys (a keyring may be
// slow: in a command).
func (b *bucketStep) load(r *Wizard) tea.Cmd {
	store := b.common.Secrets
	b.setFocus(b.focus)
	if store == nil {
		b.loaded = true
		b.loadErr = errors.New("no keystore is open, so no bucket credential can be read (see: skytui auth status)")
		return nil
	}
	return func() tea.Msg {
		creds, err := store.ListBucketCredentials()
		if err != nil {
			return secretsMsg{form: b, err: err}
		}
		keys, err := store.ListEncryptionKeys()
		return secretsMsg{form: b, creds: creds, keys: keys, err: err}
	}
}

func (b *bucketStep) onSecrets(msg secretsMsg) {
	b.loaded = true
	b.loadErr = msg.err
	b.creds = msg.creds
	b.encKeys = msg.keys
	b.fitCred()
	if b.encMode == encStored && !contains(b.encKeys, b.encStored) {
		b.encMode, b.encStored = encNone, ""
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// scheme is "gs", "s3" or "" from the bucket field.
func (b *bucketStep) scheme() string {
	s, _, _, err := api.ParseBucketURI(strings.TrimSpace(b.bucket.Value()))
	if err != nil && s == "" {
		return ""
	}
	return s
}

// matching are the stored credentials usable with the bucket's scheme.
func (b *bucketStep) matching() []keystore.CredentialInfo {
	kind := keystore.KindForScheme(b.scheme())
	var out []keystore.CredentialInfo
	for _, c := range b.creds {
		if kind == "" || c.Kind == kind {
			out = append(out, c)
		}
	}
	return out
}

// fitCred keeps the chosen credential when it fits the scheme, else picks
// the prefilled one or the first that fits.
func (b *bucketStep) fitCred() {
	m := b.matching()
	for _, c := range m {
		if c.Name == b.cred {
			return
		}
	}
	b.cred = ""
	for _, c := range m {
		if c.Name == b.credPrefill {
			b.cred = c.Name
			return
		}
	}
	if len(m) > 0 {
		b.cred = m[0].Name
	}
}

func (b *bucketStep) fields() []bucketField {
	f := []bucketField{fieldBucket, fieldFile, fieldMethod, fieldCred, fieldEnc}
	if b.encMode == encNew {
		f = append(f, fieldKey, fieldKeep)
		if b.keep {
			f = append(f, fieldKeepName)
		}
	}
	return f
}

func (b *bucketStep) setFocus(f bucketField) {
	b.focus = f
	for _, x := range []struct {
		f  bucketField
		in *kit.Input
	}{{fieldBucket, &b.bucket}, {fieldFile, &b.file}, {fieldKey, &b.encInput}, {fieldKeepName, &b.keepName}} {
		if x.f == f {
			x.in.Focus()
		} else {
			x.in.Blur()
		}
	}
}

func (b *bucketStep) move(d int) {
	fs := b.fields()
	i := 0
	for j, f := range fs {
		if f == b.focus {
			i = j
		}
	}
	b.setFocus(fs[step(i, d, len(fs))])
}

// step is the index d away from i among n, stopping at the ends (d 0:
// the next, round to the first after the last: space toggles).
func step(i, d, n int) int {
	if d == 0 {
		return (i + 1) % n
	}
	return min(max(i+d, 0), n-1)
}

func (b *bucketStep) input() *kit.Input {
	switch b.focus {
	case fieldBucket:
		return &b.bucket
	case fieldFile:
		return &b.file
	case fieldKey:
		return &b.encInput
	case fieldKeepName:
		return &b.keepName
	}
	return nil
}

// fixable describes the one-key fix of the bucket field ("" when none): a
// whole file path typed as the bucket is split into bucket and file (a
// folder keeps its slash: the file name is typed after it, or, typed
// already, goes after the folder); a missing trailing slash is appended.
func (b *bucketStep) fixable() string {
	v := strings.TrimSpace(b.bucket.Value())
	if v == "" {
		return ""
	}
	scheme, name, path, err := api.ParseBucketURI(v)
	if err != nil {
		return ""
	}
	if p := bucketPath(path); p != "" {
		switch f := b.splitFile(p); {
		case f == "":
			return ""
		case f != p:
			return "tab splits it: " + scheme + "://" + name + "/ and the file " + f
		case strings.HasSuffix(p, "/"):
			return "tab splits it: " + scheme + "://" + name + "/ and the file's folder " + p
		}
		return "tab splits it: " + scheme + "://" + name + "/ and the file " + p
	}
	if api.ValidateRestoreBucket(v) != nil && api.ValidateRestoreBucket(v+"/") == nil {
		return "tab adds the slash"
	}
	return ""
}

// splitFile is the file field once p, the path typed after the bucket's
// name, is moved there: p itself while the field is empty (or holds p), a
// folder's p before the file name typed already ("exports/" and
// "dump.sql.gz": "exports/dump.sql.gz"); "" where a file path typed in
// both leaves no one answer.
func (b *bucketStep) splitFile(p string) string {
	f := strings.TrimSpace(b.file.Value())
	switch {
	case f == "" || f == p:
		return p
	case strings.HasSuffix(p, "/") && strings.HasPrefix(f, p):
		return f // the folder is there already
	case strings.HasSuffix(p, "/"):
		return p + strings.TrimLeft(f, "/")
	}
	return ""
}

// bucketPath is the path typed after a bucket's name, as the file field
// takes it: without the slashes before it; a folder keeps its slash, a
// gzip file's path ("dumps/full.gz/", the rule's slash added to it) not
// ("" when it is only slashes).
func bucketPath(path string) string {
	p := strings.Trim(path, "/")
	if p == "" || !strings.HasSuffix(path, "/") || strings.HasSuffix(strings.ToLower(p), ".gz") {
		return p
	}
	return p + "/"
}

func (b *bucketStep) applyFix() bool {
	if b.fixable() == "" {
		return false
	}
	v := strings.TrimSpace(b.bucket.Value())
	scheme, name, path, _ := api.ParseBucketURI(v)
	if p := bucketPath(path); p != "" {
		b.bucket.SetValue(scheme + "://" + name + "/")
		b.file.SetValue(b.splitFile(p))
		b.file.CursorEnd()
	} else {
		b.bucket.SetValue(v + "/")
	}
	b.bucket.CursorEnd()
	b.fitCred()
	return true
}

func (b *bucketStep) encChoices() []string {
	out := []string{"none"}
	out = append(out, b.encKeys...)
	return append(out, "new key")
}

func (b *bucketStep) encChoice() string {
	switch b.encMode {
	case encStored:
		return b.encStored
	case encNew:
		return "new key"
	}
	return "none"
}

func (b *bucketStep) cycle(d int) {
	switch b.focus {
	case fieldMethod:
		methods := []string{api.MethodMariabackup, api.MethodMysqldump}
		b.method = methods[step(slices.Index(methods, b.method), d, len(methods))]
	case fieldCred:
		m := b.matching()
		if len(m) == 0 {
			return
		}
		i := 0
		for j, c := range m {
			if c.Name == b.cred {
				i = j
			}
		}
		b.cred = m[step(i, d, len(m))].Name
	case fieldEnc:
		ch := b.encChoices()
		i := 0
		for j, c := range ch {
			if c == b.encChoice() {
				i = j
			}
		}
		i = step(i, d, len(ch))
		switch {
		case i == 0:
			b.encMode, b.encStored = encNone, ""
		case i == len(ch)-1:
			b.encMode, b.encStored = encNew, ""
		default:
			b.encMode, b.encStored = encStored, ch[i]
		}
	case fieldKeep:
		b.keep = !b.keep
		if b.keep && strings.TrimSpace(b.keepName.Value()) == "" {
			_, name, _, _ := api.ParseBucketURI(strings.TrimSpace(b.bucket.Value()))
			if name != "" {
				b.keepName.SetValue(name)
			}
		}
	}
}

func (b *bucketStep) update(r *Wizard, msg tea.Msg) tea.Cmd {
	if kp, ok := msg.(tea.KeyPressMsg); ok {
		r.stepErr = ""
		k := r.keys
		switch {
		case key.Matches(kp, k.NextField):
			// tab fixes the bucket (the fix its hint names) and goes on,
			// so what is typed next goes to the next field; on the last
			// field it goes on as enter does (down stops there)
			tab := key.Matches(kp, k.Fix)
			if tab && b.focus == fieldBucket {
				b.applyFix()
			}
			if fs := b.fields(); tab && b.focus == fs[len(fs)-1] {
				return b.proceed(r)
			}
			b.move(1)
			return nil
		case key.Matches(kp, k.PrevField):
			b.move(-1)
			return nil
		case key.Matches(kp, k.Reload):
			return b.load(r)
		case key.Matches(kp, k.Proceed):
			fs := b.fields()
			if b.focus == fs[len(fs)-1] {
				return b.proceed(r)
			}
			b.move(1)
			return nil
		case key.Matches(kp, k.Toggle) && b.input() == nil:
			d := 0 // space: the next choice, round to the first
			switch {
			case key.Matches(kp, k.ToggleOn):
				d = 1
			case key.Matches(kp, k.ToggleBack):
				d = -1
			}
			b.cycle(d)
			return nil
		}
	}
	in := b.input()
	if in == nil {
		return nil
	}
	var cmd tea.Cmd
	*in, cmd = in.Update(msg)
	if b.focus == fieldBucket {
		b.fitCred()
	}
	return cmd
}

// problems checks every field with the API's rules; the first problem
// names its field.
func (b *bucketStep) problem() (bucketField, string) {
	bucket := strings.TrimSpace(b.bucket.Value())
	if err := api.ValidateRestoreBucket(bucket); err != nil {
		msg := err.Error()
		if f := b.fixable(); f != "" {
			msg += " (" + f + ")"
		}
		return fieldBucket, msg
	}
	if strings.TrimSpace(b.file.Value()) == "" {
		return fieldFile, "id: is required: the path of the backup file in the bucket"
	}
	if err := api.ValidateMethod(b.method); err != nil {
		return fieldMethod, err.Error()
	}
	if b.cred == "" {
		return fieldCred, "external_source.credentials: " + b.noCredText()
	}
	if b.encMode == encNew {
		if strings.TrimSpace(b.encInput.Value()) == "" {
			return fieldKey, "external_source.encryption_key: type the key, or choose none"
		}
		if b.keep {
			name := strings.TrimSpace(b.keepName.Value())
			if name == "" {
				return fieldKeepName, "name: is required to keep the key in the keystore"
			}
			if err := keepNameProblem(name); err != nil {
				return fieldKeepName, "name: " + err.Error()
			}
		}
	}
	return 0, ""
}

func (b *bucketStep) credKind() string {
	for _, c := range b.creds {
		if c.Name == b.cred {
			return c.Kind
		}
	}
	return keystore.KindForScheme(b.scheme())
}

func (b *bucketStep) noCredText() string {
	if b.loadErr != nil {
		return "the keystore could not be read: " + b.loadErr.Error()
	}
	if !b.loaded {
		return "reading the keystore" + b.common.Theme.Glyphs.Ellipsis
	}
	what := "none stored"
	if sc := b.scheme(); sc != "" {
		what = "none stored for " + sc + ":// buckets"
	}
	return what + ": add one with `" + keystore.AddHint(b.scheme()) + "`, then ctrl+r"
}

func (b *bucketStep) proceed(r *Wizard) tea.Cmd {
	if f, msg := b.problem(); msg != "" {
		b.setFocus(f)
		r.stepErr = msg
		return nil
	}
	b.bucket.SetValue(strings.TrimSpace(b.bucket.Value()))
	b.file.SetValue(strings.TrimSpace(b.file.Value()))
	es := api.ExternalSource{Bucket: b.bucket.Value(), Method: b.method,
		Credentials: fmt.Sprintf("<redacted: stored %s credential %q, base64-encoded when sent>", b.credKind(), b.cred)}
	switch b.encMode {
	case encStored:
		es.EncryptionKey = "<" + b.encStored + " from the keystore>"
	case encNew:
		es.EncryptionKey = strings.Repeat(b.common.Theme.Glyphs.Mask, 8)
	}
	req := api.BucketRestore(r.targetID, b.file.Value(), es)
	desc := fmt.Sprintf("file %s in your bucket %s (%s, credentials %s", b.file.Value(), b.bucket.Value(), b.method, b.cred)
	switch b.encMode {
	case encStored:
		desc += ", encryption key " + b.encStored
	case encNew:
		desc += ", encryption key typed"
		if b.keep {
			desc += ", kept as " + strings.TrimSpace(b.keepName.Value())
		}
	}
	desc += ")"
	r.prev = stageBucket
	r.openConfirm(desc, b.srcSvc, requestJSON(req))
	return nil
}

// keepAttempt is a typed key handed to the action with "keep" ticked. The
// action says whether the keystore took it; the wizard settles the form
// with it when the answer comes (settleKeep).
type keepAttempt struct {
	name, key string
	stored    atomic.Bool
}

// keepError is the keystore's refusal to keep the typed key: nothing was
// sent, and the form gets the key back.
type keepError struct {
	name string
	err  error
}

func (e *keepError) Error() string {
	return fmt.Sprintf("keeping the encryption key as %s: %v; nothing was sent", e.name, e.err)
}

func (e *keepError) Unwrap() error { return e.err }

// keepNameProblem is the keystore's rule for the name of an encryption
// key (nil when the name is fine).
func keepNameProblem(name string) error { return keystore.CheckName("encryption key", name) }

// runFunc captures what the action sends and drops the typed key from the
// form. A key to keep is remembered until the answer: settleKeep puts it
// back if the keystore did not take it, or switches the form to the
// stored key if it did, so a retry needs nothing retyped.
func (b *bucketStep) runFunc(c *kit.Common, targetID string) (func(ctx context.Context) (any, error), error) {
	if _, msg := b.problem(); msg != "" {
		return nil, errors.New(msg)
	}
	store, client := c.Secrets, c.Client
	bucket, file, method, credName := b.bucket.Value(), b.file.Value(), b.method, b.cred
	mode, stored, typed := b.encMode, b.encStored, b.encInput.Value()
	var keep *keepAttempt
	if b.keep && mode == encNew {
		keep = &keepAttempt{name: strings.TrimSpace(b.keepName.Value()), key: typed}
	}
	b.kept = keep
	b.encInput.SetValue("")
	return func(ctx context.Context) (any, error) {
		if store == nil {
			return nil, errors.New("no keystore is open: the bucket credential cannot be read; nothing was sent")
		}
		if client == nil {
			return nil, errors.New("no API client")
		}
		// the one place credentials are read and encoded (shared with the
		// backup form): kind checked against the scheme, secret never in
		// an error
		encoded, err := keystore.EncodeForBucket(store, credName, bucket)
		if err != nil {
			return nil, fmt.Errorf("%w; nothing was sent", err)
		}
		key := ""
		switch mode {
		case encStored:
			if key, err = store.EncryptionKey(stored); err != nil {
				return nil, fmt.Errorf("encryption key %s: %w; nothing was sent", stored, err)
			}
		case encNew:
			key = typed
			if keep != nil {
				if err := store.PutEncryptionKey(keep.name, key); err != nil {
					return nil, &keepError{name: keep.name, err: err}
				}
				keep.stored.Store(true)
			}
		}
		req := api.BucketRestore(targetID, file, api.ExternalSource{Bucket: bucket, Method: method, Credentials: encoded, EncryptionKey: key})
		return client.CreateRestore(ctx, req)
	}, nil
}

// settleKeep applies, after a failed or unanswered submit, what the
// keystore did with a key to keep: stored, the form uses the stored key
// (now a choice of Encryption); not stored, the key is back in its input
// with keep still ticked, as typed.
func (b *bucketStep) settleKeep() {
	k := b.kept
	b.kept = nil
	if k == nil {
		return
	}
	if k.stored.Load() {
		if !contains(b.encKeys, k.name) {
			b.encKeys = append(b.encKeys, k.name)
		}
		if b.encMode == encNew && b.keep {
			b.encMode, b.encStored, b.keep = encStored, k.name, false
		}
		return
	}
	if b.encMode == encNew && b.encInput.Value() == "" {
		b.encInput.SetValue(k.key)
	}
}
