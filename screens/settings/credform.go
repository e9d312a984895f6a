package settings

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
)

// The form that adds a bucket credential (a): what was typed, the rules
// each field is checked by, and the store of the answer.

// credDraft is what was typed. The secret is cleared on cancel (esc) and
// the whole draft dropped once stored; after a refusal everything is
// kept for the next try.
type credDraft struct {
	kind, name, keyFile, accessKeyID, secret, region string
	// key is the key file as read at its field (enter there reads it):
	// its document is a secret, kept only until the form is done
	key keyFile
}

// keyFile is a GCS key file read and checked: the path, the document,
// or why it cannot serve.
type keyFile struct {
	path string
	doc  []byte
	err  error
}

// maxKeyFile is the largest key file read: a service-account key is a
// few KB.
const maxKeyFile = 1 << 20

// expandHome is path with a leading "~/" (or a bare "~") made the home
// directory: no shell expands the field's path. "~user" is left as
// typed.
func expandHome(path string) (string, error) {
	rest, ok := strings.CutPrefix(path, "~")
	if !ok || (rest != "" && rest[0] != '/' && rest[0] != filepath.Separator) {
		return path, nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return path, fmt.Errorf("%s: no home directory for ~: %w", path, err)
	}
	return filepath.Join(home, rest), nil
}

// readKeyFile reads the key file at path (in a command: I/O; "~" is the
// home directory) and checks it as the keystore will: a regular file (a
// FIFO would block the read), readable, not too big, a service-account
// key (keystore's GCSCredential rule). Each error starts "key file: ",
// the field's name, and names the path read.
func readKeyFile(name, typed string) keyFile {
	k := keyFile{path: typed} // what the field's rule compares
	fail := func(format string, a ...any) keyFile {
		k.err = fmt.Errorf("key file: "+format, a...)
		return k
	}
	path, err := expandHome(typed)
	if err != nil {
		return fail("%v", err)
	}
	// "PATH: no such file or directory", without os's "stat" or "open"
	failed := func(err error) keyFile {
		if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
			return fail("%s: %v", path, pe.Err)
		}
		return fail("%v", err)
	}
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return failed(err)
	case fi.IsDir():
		return fail("%s is a directory", path)
	case !fi.Mode().IsRegular():
		return fail("%s is not a regular file", path)
	case fi.Size() > maxKeyFile:
		return fail("%s is %d bytes: too big for a service-account key (a few KB)", path, fi.Size())
	}
	f, err := os.Open(path)
	if err != nil {
		return failed(err)
	}
	defer f.Close()
	doc, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
	switch {
	case err != nil:
		return failed(err)
	case len(doc) > maxKeyFile:
		return fail("%s is over %d bytes: too big for a service-account key (a few KB)", path, maxKeyFile)
	}
	if err := (keystore.GCSCredential{Name: name, KeyJSON: doc}).Validate(); err != nil {
		return fail("%v", err)
	}
	k.doc = doc
	return k
}

func (d *credDraft) credential() (keystore.BucketCredential, error) {
	switch d.kind {
	case keystore.KindGCS:
		path := strings.TrimSpace(d.keyFile)
		k := d.key
		if k.path != path || k.doc == nil {
			k = readKeyFile(strings.TrimSpace(d.name), path)
		}
		if k.err != nil {
			return nil, k.err
		}
		c := keystore.GCSCredential{Name: strings.TrimSpace(d.name), KeyJSON: k.doc}
		return c, c.Validate()
	default:
		c := keystore.S3Credential{Name: strings.TrimSpace(d.name), AccessKeyID: strings.TrimSpace(d.accessKeyID),
			SecretAccessKey: strings.TrimSpace(d.secret), Region: strings.TrimSpace(d.region)}
		return c, c.Validate()
	}
}

func notEmpty(field string) func(string) error {
	return func(v string) error {
		if strings.TrimSpace(v) == "" {
			return errors.New(field + ": required")
		}
		return nil
	}
}

// nameRule is the keystore's rule for a credential's name, checked on the
// name's step, before any secret is typed ("invalid S3 credential name
// "bad name!": use letters, …").
func nameRule(kind, name string) error {
	if kind == keystore.KindGCS {
		return keystore.CheckName("GCS credential", name)
	}
	return keystore.CheckName("S3 credential", name)
}

// nameHint is the name field's hint for the kind chosen: its example
// names that kind ("nightly-s3" for S3).
func nameHint(kind string) string {
	if kind == keystore.KindS3 {
		return "how forms will offer it, e.g. nightly-s3"
	}
	return "how forms will offer it, e.g. nightly-gcs"
}

// keyNotRead is the key file's rule until the file at the path typed has
// been read: enter reads it in a command (readKey) and is pressed again
// with the answer, so the field says why a file cannot serve and the form
// goes on only with one that can; no I/O in the rule (it runs in Update).
type keyNotRead struct{ ellipsis string }

func (e keyNotRead) Error() string { return "key file: reading" + e.ellipsis }

// keyRead is the key file's read under way: the keys typed meanwhile
// wait for its answer.
type keyRead struct{ queued []tea.Msg } // keys and pastes

// keyReadMsg is the key file's read, for the form that asked.
type keyReadMsg struct {
	form *huh.Form
	key  keyFile
}

func (s *Screen) openForm() tea.Cmd {
	if s.draft == nil {
		s.draft = &credDraft{kind: keystore.KindGCS}
	}
	d := s.draft
	d.key = keyFile{} // read again: it may have changed since
	s.reading = nil
	kind := huh.NewSelect[string]().Title("Kind").Options(
		huh.NewOption("GCS (gs://): a service-account JSON key file", keystore.KindGCS),
		huh.NewOption("S3 (s3://): an access key", keystore.KindS3),
	).Value(&d.kind)
	// each rule through kit.Back: shift+tab leaves a field whatever it
	// holds, keeping what was typed
	input := func(rule func(string) error) *huh.Input {
		in := huh.NewInput()
		return in.Validate(kit.Back(&s.ahead, in, rule))
	}
	name := input(func(n string) error {
		if err := notEmpty("name")(n); err != nil {
			return err
		}
		return nameRule(d.kind, strings.TrimSpace(n))
	}).Title("Name").DescriptionFunc(func() string { return nameHint(d.kind) }, &d.kind).Value(&d.name)
	notRead := keyNotRead{s.common.Theme.Glyphs.Ellipsis}
	keyField := input(func(p string) error {
		if err := notEmpty("key file")(p); err != nil {
			return err
		}
		if d.key.path != strings.TrimSpace(p) {
			return notRead
		}
		return d.key.err
	}).Title("Key file").Description("path of the service account's JSON key (Storage Admin role)").Value(&d.keyFile)
	akid := input(func(v string) error {
		if err := notEmpty("access key ID")(v); err != nil {
			return err
		}
		return keystore.CheckS3AccessKeyID(strings.TrimSpace(v)) // the command line's rule
	}).Title("Access key ID").Value(&d.accessKeyID)
	secret := input(notEmpty("secret access key")).Title("Secret access key").EchoMode(huh.EchoModePassword).Value(&d.secret)
	region := input(func(r string) error {
		// the name was checked on its step
		return keystore.S3Credential{Name: strings.TrimSpace(d.name), AccessKeyID: "x", SecretAccessKey: "x", Region: strings.TrimSpace(r)}.Validate()
	}).Title("Region").Description("the bucket's region, e.g. us-east-1").Value(&d.region)
	s.ahead = kit.TypeAhead{}
	s.keyField = keyField
	s.groups = [][]huh.Field{{kind, name}, {keyField}, {akid, secret, region}}
	s.fields = map[string]huh.Field{"kind": kind, "name": name, "key file": keyField,
		"access key ID": akid, "secret access key": secret, "region": region}
	s.form = kit.NewForm(s.common,
		huh.NewGroup(kind, name), // the screen's heading names the form
		huh.NewGroup(keyField).Title("GCS service-account key").
			WithHideFunc(func() bool { return d.kind != keystore.KindGCS }),
		huh.NewGroup(akid, secret, region).Title("S3 access key").
			WithHideFunc(func() bool { return d.kind != keystore.KindS3 }),
	)
	form := s.form
	s.form.SubmitCmd = func() tea.Msg { return formDoneMsg{form: form} }
	s.form.CancelCmd = func() tea.Msg { return formDoneMsg{form: form, cancel: true} }
	s.SetSize(s.width, s.height)
	return s.form.Init()
}

func (s *Screen) updateForm(msg tea.Msg) tea.Cmd {
	if _, paste := msg.(tea.PasteMsg); paste && s.reading != nil {
		// the key file is being read: a paste waits with the keys
		s.reading.queued = append(s.reading.queued, msg)
		return nil
	}
	if kp, ok := msg.(tea.KeyPressMsg); ok {
		if s.reading != nil {
			// the key file is being read: keys wait for its answer
			s.reading.queued = append(s.reading.queued, kp)
			return nil
		}
	}
	var cmd tea.Cmd
	s.form, cmd = s.ahead.Update(s.form, msg)
	return tea.Batch(cmd, s.readKey())
}

// readKey reads the key file, in a command, when enter (or tab) on its
// field asked for it: the field's rule said it has not been read.
func (s *Screen) readKey() tea.Cmd {
	f := s.form.GetFocusedField()
	if s.reading != nil || f == nil || f != s.keyField || !errors.As(f.Error(), new(keyNotRead)) {
		return nil
	}
	s.reading = &keyRead{}
	form, name, path := s.form, strings.TrimSpace(s.draft.name), strings.TrimSpace(s.draft.keyFile)
	return func() tea.Msg { return keyReadMsg{form: form, key: readKeyFile(name, path)} }
}

// keyDone takes the key file's answer: enter is pressed again, now that
// the field's rule knows (the form goes on, or the field says why the
// file cannot serve and stays), then the keys typed meanwhile.
func (s *Screen) keyDone(msg keyReadMsg) tea.Cmd {
	if s.form == nil || msg.form != s.form || s.reading == nil {
		return nil
	}
	queued := s.reading.queued
	s.reading = nil
	d := s.draft
	d.key = msg.key
	cmds := []tea.Cmd{s.updateForm(tea.KeyPressMsg{Code: tea.KeyEnter})}
	if d.key.err != nil {
		d.key = keyFile{} // the next enter reads it again (fixed meanwhile)
	}
	for _, k := range queued {
		cmds = append(cmds, s.updateForm(k))
	}
	return tea.Batch(cmds...)
}

func (s *Screen) formDone(msg formDoneMsg) tea.Cmd {
	if s.form == nil || msg.form != s.form {
		return nil
	}
	s.form, s.reading = nil, nil
	d := s.draft
	if msg.cancel {
		d.secret, d.key = "", keyFile{} // never kept past the form
		return kit.Toast(kit.ToastInfo, "cancelled; a brings back what you typed (but the secret)")
	}
	// what the command reads; the draft keeps the secret until it is
	// stored, so a refusal (or a "no" to replacing) loses nothing typed
	// (the key file is read again when the form is opened again)
	typed := *d
	d.key = keyFile{}
	st := s.common.Secrets
	s.lastErr = ""
	return kit.Do(kit.Action{
		Name:     "store " + typed.kind + " credential " + strings.TrimSpace(typed.name),
		Mutating: false,
		Origin:   ID,
		Tag:      storeTag{draft: d},
		Confirm:  s.replaceConfirm(strings.TrimSpace(typed.name)),
		Run: func(context.Context) (any, error) {
			cred, err := typed.credential() // reads the key file: I/O, here in the command
			if err != nil {
				return nil, err
			}
			return cred, st.PutBucketCredential(cred)
		},
		Success: func(r any) string {
			if c, ok := r.(keystore.BucketCredential); ok {
				return c.Kind() + " credential " + c.CredentialName() + " stored in " + st.Backend().Label()
			}
			return "credential stored"
		},
	})
}

// replaceConfirm asks before a new credential replaces a stored one of
// the same name; nothing to ask for a new name.
func (s *Screen) replaceConfirm(name string) kit.Confirm {
	if s.loaded == nil {
		return kit.Confirm{}
	}
	for _, r := range s.loaded.rows {
		if r.kind != "encryption key" && r.name == name {
			return kit.Confirm{Kind: kit.ConfirmYesNo, Title: "Replace credential " + name + "?",
				Detail: "A " + r.kind + " credential named " + name + " (" + r.identity + ") is stored in " + s.loaded.label +
					". Storing this one replaces it: backups and restores that name it will use the new one."}
		}
	}
	return kit.Confirm{}
}
