package settings

import (
	"context"
	"errors"
	"fmt"
	"os"
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
}

func (d *credDraft) credential() (keystore.BucketCredential, error) {
	switch d.kind {
	case keystore.KindGCS:
		doc, err := os.ReadFile(strings.TrimSpace(d.keyFile))
		if err != nil {
			return nil, fmt.Errorf("key file: %v", err)
		}
		c := keystore.GCSCredential{Name: strings.TrimSpace(d.name), KeyJSON: doc}
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

func (s *Screen) openForm() tea.Cmd {
	if s.draft == nil {
		s.draft = &credDraft{kind: keystore.KindGCS}
	}
	d := s.draft
	kind := huh.NewSelect[string]().Title("Kind").Options(
		huh.NewOption("GCS (gs://): a service-account JSON key file", keystore.KindGCS),
		huh.NewOption("S3 (s3://): an access key", keystore.KindS3),
	).Value(&d.kind)
	name := huh.NewInput().Title("Name").Description("how forms will offer it, e.g. nightly-gcs").Value(&d.name).
		Validate(func(n string) error {
			if err := notEmpty("name")(n); err != nil {
				return err
			}
			return nameRule(d.kind, strings.TrimSpace(n))
		})
	// the file is read and checked when the form is submitted, in a command
	keyFile := huh.NewInput().Title("Key file").Description("path of the service account's JSON key (Storage Admin role)").
		Value(&d.keyFile).Validate(notEmpty("key file"))
	akid := huh.NewInput().Title("Access key ID").Value(&d.accessKeyID).Validate(notEmpty("access key ID"))
	secret := huh.NewInput().Title("Secret access key").EchoMode(huh.EchoModePassword).Value(&d.secret).
		Validate(notEmpty("secret access key"))
	region := huh.NewInput().Title("Region").Description("the bucket's region, e.g. us-east-1").Value(&d.region).Validate(func(r string) error {
		// the name was checked on its step
		return keystore.S3Credential{Name: strings.TrimSpace(d.name), AccessKeyID: "x", SecretAccessKey: "x", Region: strings.TrimSpace(r)}.Validate()
	})
	s.ahead = kit.TypeAhead{}
	s.form = kit.NewForm(s.common,
		huh.NewGroup(kind, name).Title("Add a bucket credential"),
		huh.NewGroup(keyFile).Title("GCS service-account key").
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
	var cmd tea.Cmd
	s.form, cmd = s.ahead.Update(s.form, msg)
	return cmd
}

func (s *Screen) formDone(msg formDoneMsg) tea.Cmd {
	if s.form == nil || msg.form != s.form {
		return nil
	}
	s.form = nil
	d := s.draft
	if msg.cancel {
		d.secret = "" // never kept past the form
		return kit.Toast(kit.ToastInfo, "cancelled; a brings back what you typed (but the secret)")
	}
	// what the command reads; the draft keeps the secret until it is
	// stored, so a refusal (or a "no" to replacing) loses nothing typed
	typed := *d
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
