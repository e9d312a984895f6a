package settings

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/theme"
	"github.com/skytui/skytui/tui/tuitest"
)

const pk = `-----BEGIN PRIVATE KEY-----\nMIIEsecretmaterial\n-----END PRIVATE KEY-----\n`

func newStore(t *testing.T) *keystore.Store { return tuitest.EmptySecrets(t) }

// putCreds stores cs in st, failing the test if one is refused.
func putCreds(t *testing.T, st *keystore.Store, cs ...keystore.BucketCredential) {
	t.Helper()
	for _, c := range cs {
		if err := st.PutBucketCredential(c); err != nil {
			t.Fatal(err)
		}
	}
}

// storeOfS3 is a keystore holding n S3 credentials, cred0 to cred<n-1>:
// a list longer than a short terminal shows.
func storeOfS3(t *testing.T, n int) *keystore.Store {
	t.Helper()
	st := newStore(t)
	for i := range n {
		name := fmt.Sprintf("cred%d", i)
		putCreds(t, st, keystore.S3Credential{Name: name, AccessKeyID: "AKIA" + name, SecretAccessKey: "x", Region: "us-east-1"})
	}
	return st
}

// driver runs the screen's commands synchronously. Actions are run as the
// action layer would after a "yes" (or, with no set, an action that asks
// ends as after a "no"), and their outcome is delivered back.
type driver struct {
	t       *testing.T
	s       *Screen
	actions []kit.Action
	toasts  []string
	logins  []string // the reasons of the key prompts asked for
	no      bool     // the answer to a confirmation is no
}

// addS3 is a driver of a w×h screen with an empty store whose add form
// has chosen S3 and asks the name.
func addS3(t *testing.T, w, h int) *driver {
	d := newDriver(t, newStore(t), w, h)
	d.openS3("enter")
	return d
}

// openS3 opens the add form and chooses S3 with next (enter or tab).
func (d *driver) openS3(next string) {
	d.key("a")
	d.key("down") // S3
	d.key(next)
}

// fill types each value into the form's next field, then next.
func (d *driver) fill(next string, values ...string) {
	for _, v := range values {
		d.typeText(v)
		d.key(next)
	}
}

// storedS3 is the S3 credential stored under name, which the form must
// have dropped its draft (and the secret in it) for.
func (d *driver) storedS3(st *keystore.Store, name string) keystore.S3Credential {
	d.t.Helper()
	c, err := st.BucketCredential(name)
	if err != nil {
		d.t.Fatalf("not stored: %v\n%s", err, d.view())
	}
	if d.s.draft != nil {
		d.t.Error("the draft, with its secret, must be dropped once stored")
	}
	return c.(keystore.S3Credential)
}

func newDriver(t *testing.T, st *keystore.Store, w, h int) *driver {
	c := tuitest.Common()
	c.Theme, c.Secrets, c.Profile = theme.New(theme.Options{Dark: true, NoColor: true}), st, "prod"
	d := &driver{t: t, s: New(c)}
	d.s.SetSize(w, h)
	d.run(d.s.Init())
	return d
}

// run runs a command; one that does not answer at once (a blink or a
// timer) is dropped, as nothing here waits on time.
func (d *driver) run(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	select {
	case msg := <-ch:
		d.handle(msg)
	case <-time.After(50 * time.Millisecond):
	}
}

func (d *driver) handle(msg tea.Msg) {
	switch msg := msg.(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			d.run(c)
		}
	case kit.ActionRequestMsg:
		d.actions = append(d.actions, msg.Action)
		if d.no && msg.Action.Confirm.Kind != kit.ConfirmNone {
			// what the action layer delivers after a "no"
			d.send(kit.ActionDoneMsg{Name: msg.Action.Name, Tag: msg.Action.Tag, Err: kit.ErrCancelled})
			return
		}
		res, err := msg.Action.Run(context.Background())
		d.send(kit.ActionDoneMsg{Name: msg.Action.Name, Tag: msg.Action.Tag, Result: res, Err: err})
	case kit.ToastMsg:
		d.toasts = append(d.toasts, msg.Text)
	case kit.LoginRequestMsg:
		d.logins = append(d.logins, msg.Reason)
	default:
		if reflect.TypeOf(msg).PkgPath() == "charm.land/bubbles/v2/cursor" {
			return
		}
		d.send(msg)
	}
}

func (d *driver) send(msg tea.Msg) {
	_, cmd := d.s.Update(msg)
	d.run(cmd)
}

func (d *driver) key(k string) { d.send(tuitest.KeyMsg(k)) }

func (d *driver) typeText(s string) {
	for _, k := range tuitest.Typed(s) {
		d.send(k)
	}
}

func (d *driver) view() string { return tuitest.View(d.s) }

func TestShowsWhereSecretsAreAndNeverTheSecrets(t *testing.T) {
	st := newStore(t)
	if err := st.SetAPIKey("prod", "skysql.key.supersecret"); err != nil {
		t.Fatal(err)
	}
	putCreds(t, st, keystore.GCSCredential{Name: "nightly", KeyJSON: []byte(`{"type":"service_account","client_email":"bk@p.iam.gserviceaccount.com","private_key":"` + pk + `"}`)})
	putCreds(t, st, keystore.S3Credential{Name: "archive", AccessKeyID: "AKIAIOSFODNN7EXAMPLE", SecretAccessKey: "wJalrSECRET", Region: "eu-west-1"})
	d := newDriver(t, st, 100, 30)
	v := d.view()
	for _, want := range []string{"memory (test)", keystore.Fingerprint("skysql.key.supersecret"), "nightly", "bk@p.iam.gserviceaccount.com", "archive", "AKIAIOSFODNN7EXAMPLE (eu-west-1)"} {
		if !strings.Contains(v, want) {
			t.Errorf("settings should show %q:\n%s", want, v)
		}
	}
	for _, secret := range []string{"supersecret", "MIIEsecretmaterial", "wJalrSECRET"} {
		if strings.Contains(v, secret) {
			t.Fatalf("a secret is on screen:\n%s", v)
		}
	}
	d.key("K")
	if len(d.logins) != 1 {
		t.Error("K should ask the root for the key prompt")
	}
}

func TestAddS3CredentialThroughTheForm(t *testing.T) {
	st := newStore(t)
	d := newDriver(t, st, 100, 30)
	d.key("a")
	if !strings.Contains(d.view(), "Add a bucket credential") {
		t.Fatalf("a opens the form:\n%s", d.view())
	}
	d.key("down") // S3
	d.key("enter")
	d.typeText("archive")
	d.key("enter")
	d.typeText("AKIAIOSFODNN7EXAMPLE")
	d.key("enter")
	d.typeText("wJalrSECRET")
	if strings.Contains(d.view(), "wJalrSECRET") {
		t.Fatal("the secret access key must be masked as it is typed")
	}
	d.key("enter")
	d.typeText("eu-west-1")
	d.key("enter")
	if len(d.actions) != 1 || d.actions[0].Mutating {
		t.Fatalf("one local (non-mutating) action expected, got %+v", d.actions)
	}
	if s3 := d.storedS3(st, "archive"); s3.SecretAccessKey != "wJalrSECRET" || s3.Region != "eu-west-1" {
		t.Errorf("stored %+v", s3)
	}
	if !strings.Contains(d.view(), "AKIAIOSFODNN7EXAMPLE (eu-west-1)") {
		t.Errorf("the list should show the new credential:\n%s", d.view())
	}
}

func TestBadInputNamesTheFieldAndKeepsTheRest(t *testing.T) {
	st := newStore(t)
	d := newDriver(t, st, 100, 30)
	d.key("a")
	d.key("enter") // GCS
	d.typeText("nightly")
	d.key("enter")
	bad := filepath.Join(t.TempDir(), "user.json")
	if err := os.WriteFile(bad, []byte(`{"type":"authorized_user"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	d.typeText(bad)
	d.key("enter")
	if v := flat(d.view()); !strings.Contains(v, `! key file: `) || !strings.Contains(v, `"type" must be "service_account"`) {
		t.Fatalf("a key file that is not a service-account key is refused at its field, naming the field and the rule:\n%s", d.view())
	}
	if _, err := st.BucketCredential("nightly"); err == nil || len(d.actions) != 0 {
		t.Fatal("a refused key file must not be stored")
	}
	d.key("esc")
	d.key("a")
	if d.s.draft == nil || d.s.draft.name != "nightly" || d.s.draft.keyFile != bad {
		t.Errorf("what was typed should come back: %+v", d.s.draft)
	}
}

func TestRemoveGoesThroughAConfirmedAction(t *testing.T) {
	st := newStore(t)
	putCreds(t, st, keystore.S3Credential{Name: "archive", AccessKeyID: "AKIA", SecretAccessKey: "x", Region: "us-east-1"})
	d := newDriver(t, st, 100, 30)
	d.key("d")
	if len(d.actions) != 1 || d.actions[0].Confirm.Kind != kit.ConfirmYesNo {
		t.Fatalf("remove must ask yes/no: %+v", d.actions)
	}
	if got := d.actions[0].Success(nil); got != "s3 credential archive removed" {
		t.Errorf("the toast after removing says %q", got)
	}
	if _, err := st.BucketCredential("archive"); err == nil {
		t.Error("still stored after remove")
	}
	if strings.Contains(d.view(), "archive") {
		t.Errorf("the list should reload:\n%s", d.view())
	}
}

func TestNoKeystoreSaysSo(t *testing.T) {
	d := newDriver(t, nil, 100, 30)
	if !strings.Contains(d.view(), "no keystore is open") {
		t.Errorf("view:\n%s", d.view())
	}
	d.key("a")
	if d.s.form != nil || len(d.toasts) == 0 {
		t.Error("adding without a keystore should explain, not open a form")
	}
}

func TestConfigWarningsAreListed(t *testing.T) {
	d := newDriver(t, newStore(t), 80, 40)
	if v := d.view(); strings.Contains(v, "Config warnings") {
		t.Fatalf("a clean config shows a warnings section:\n%s", v)
	}
	ws := []string{
		`~/.config/skytui/config.toml:12: unknown table "profiles" (did you mean "profile"?)`,
		`~/.config/skytui/config.toml:15: unknown key "base_ur" in [[profile]] "lab" (did you mean "base_url"?)`,
	}
	d.s.WithConfigWarnings(ws)
	v := d.view()
	flat := strings.Join(strings.Fields(v), " ") // warnings wrap at the width
	for _, want := range append([]string{"Config warnings"}, ws...) {
		if !strings.Contains(flat, want) {
			t.Errorf("view lacks %q:\n%s", want, v)
		}
	}
	tuitest.CheckFits(t, "config warnings", v, 80, 40)
	// Profile first, then the warnings, then the secrets.
	if p, c, s := strings.Index(v, "Profile"), strings.Index(v, "Config warnings"), strings.Index(v, "Secrets"); !(p < c && c < s) {
		t.Errorf("section order: profile %d, warnings %d, secrets %d", p, c, s)
	}
	// Many warnings: the first few, then a count.
	var many []string
	for i := range 8 {
		many = append(many, fmt.Sprintf("config.toml:%d: unknown key \"k%d\"", i+1, i))
	}
	d.s.WithConfigWarnings(many)
	v = d.view()
	if !strings.Contains(v, `config.toml:5: unknown key "k4"`) || strings.Contains(v, `"k5"`) || !strings.Contains(v, "+3 more: `skytui auth status` prints them all") {
		t.Errorf("many warnings:\n%s", v)
	}
}

// TestShortTerminalScrollsTheList: at 60x16 (a body of 12 lines) the text
// above is cut, not the list; the list scrolls to its last entry, and d
// removes the entry under the cursor.
func TestShortTerminalScrollsTheList(t *testing.T) {
	st := storeOfS3(t, 8)
	d := newDriver(t, st, 60, 12)
	check := func() string {
		t.Helper()
		v := d.view()
		tuitest.CheckFits(t, "body of 60x12", v, 60, 12)
		if t.Failed() {
			t.FailNow()
		}
		return v
	}
	if v := check(); !strings.Contains(v, "Bucket credentials") || !strings.Contains(v, "Profile") || !strings.Contains(v, "more lines") {
		t.Fatalf("the list and the top of the text above it should show:\n%s", v)
	}
	for range 7 {
		d.key("j")
	}
	last, ok := d.s.row(d.s.SelectedID())
	if !ok {
		t.Fatal("nothing selected")
	}
	if v := check(); !strings.Contains(v, "AKIA"+last.name) {
		t.Fatalf("the list did not scroll to %s:\n%s", last.name, v)
	}
	d.key("d")
	if len(d.actions) != 1 || !strings.Contains(d.actions[0].Name, last.name) {
		t.Fatalf("d should remove %s: %+v", last.name, d.actions)
	}
	// the detail pane takes the body; esc gives the text back
	d.key("enter")
	if v := check(); !strings.Contains(v, "Bucket credential cred") || strings.Contains(v, "Profile") {
		t.Fatalf("the pane should show:\n%s", v)
	}
	d.key("esc")
	if v := check(); !strings.Contains(v, "Profile") {
		t.Fatalf("esc should close the pane:\n%s", v)
	}
}

// TestAddingUnderAStoredNameAsksFirst: a credential stored under a name
// that is taken replaces the stored one only after a yes; a new name is
// stored without a question.
func TestAddingUnderAStoredNameAsksFirst(t *testing.T) {
	st := newStore(t)
	d := newDriver(t, st, 100, 30)
	if a := d.addS3As("archive", "first"); a.Confirm.Kind != kit.ConfirmNone {
		t.Fatalf("a new name asked %+v", a.Confirm)
	}
	a := d.addS3As("archive", "second")
	if a.Confirm.Kind != kit.ConfirmYesNo || a.Confirm.Title != "Replace credential archive?" ||
		!strings.Contains(a.Confirm.Detail, "s3 credential named archive (AKIAIOSFODNN7EXAMPLE (eu-west-1))") {
		t.Fatalf("a taken name: confirm %+v", a.Confirm)
	}
	if a := d.addS3As("archive-2", "third"); a.Confirm.Kind != kit.ConfirmNone {
		t.Fatalf("another new name asked %+v", a.Confirm)
	}
}

// addS3As adds an S3 credential named name with secret through the form
// (a name kept from the last try is cleared first) and returns the store
// action it asked for.
func (d *driver) addS3As(name, secret string) kit.Action {
	d.t.Helper()
	n := len(d.actions)
	d.openS3("enter")
	for range 40 {
		d.key("backspace") // the name kept from the last try
	}
	d.fill("enter", name, "AKIAIOSFODNN7EXAMPLE", secret, "eu-west-1")
	if len(d.actions) != n+1 {
		d.t.Fatalf("adding %s: no action\n%s", name, d.view())
	}
	return d.actions[n]
}

// TestRefreshShowsWhatOthersStored: an encryption key kept from the
// restore form (another screen) shows in Settings at the next refresh of
// its polled keystore listing (r, or coming back to the screen).
func TestRefreshShowsWhatOthersStored(t *testing.T) {
	st := newStore(t)
	d := newDriver(t, st, 100, 30)
	if strings.Contains(d.view(), "nightly-enc") {
		t.Fatal("the key is listed before it exists")
	}
	if err := st.PutEncryptionKey("nightly-enc", "0123456789abcdef0123456789abcdef"); err != nil {
		t.Fatal(err)
	}
	res := d.s.Resources()
	if len(res) != 1 {
		t.Fatalf("Settings polls %d resources, want its keystore listing", len(res))
	}
	data, err := res[0].Fetch(context.Background())
	d.send(kit.DataMsg{Key: res[0].Key, Data: data, Err: err})
	if !strings.Contains(d.view(), "nightly-enc") {
		t.Fatalf("after a refresh the new key is not listed:\n%s", d.view())
	}
}

// TestRefusedFieldSaysWhy: an empty name and a region that is not one
// keep the form on the field, and the field says why (the form's
// validation errors were drawn below its area, so enter seemed to do
// nothing), at the areas of an 80x24 and a 60x16 terminal.
func TestRefusedFieldSaysWhy(t *testing.T) {
	for _, size := range [][2]int{{80, 20}, {60, 12}} {
		what := fmt.Sprintf("%dx%d", size[0], size[1])
		d := addS3(t, size[0], size[1])
		d.key("enter") // no name
		if v := d.view(); !strings.Contains(v, "! name: required") {
			t.Errorf("%s: an empty name is refused silently:\n%s", what, v)
		}
		tuitest.CheckFits(t, what, d.s.View(), size[0], size[1])
		d.typeText("archive")
		d.key("enter")
		d.typeText("AKIAIOSFODNN7EXAMPLE")
		d.key("enter")
		d.typeText("wJalrSECRET")
		d.key("enter")
		d.typeText("nowhere land")
		d.key("enter")
		if v := d.view(); !strings.Contains(flat(v), `field "region" contains spaces or control characters`) {
			t.Errorf("%s: a bad region is refused silently:\n%s", what, v)
		}
		tuitest.CheckFits(t, what, d.s.View(), size[0], size[1])
		if len(d.actions) != 0 {
			t.Fatalf("%s: refused input was submitted: %+v", what, d.actions)
		}
	}
}

// TestNameRefusedOnItsStep: a name the keystore would refuse is refused
// on its own step, by the keystore's rule, before any secret is asked,
// and the field says why.
func TestNameRefusedOnItsStep(t *testing.T) {
	for _, size := range [][2]int{{80, 20}, {60, 12}} {
		what := fmt.Sprintf("%dx%d", size[0], size[1])
		d := addS3(t, size[0], size[1])
		d.typeText("bad name!")
		d.key("enter")
		v := d.view()
		if !strings.Contains(flat(v), `! invalid S3 credential name "bad name!": use letters, digits`) {
			t.Errorf("%s: the keystore's name rule is not applied on the name's step:\n%s", what, v)
		}
		if strings.Contains(v, "Access key ID") {
			t.Errorf("%s: the form went on to the secrets:\n%s", what, v)
		}
		tuitest.CheckFits(t, what, d.s.View(), size[0], size[1])
	}
	if err := nameRule(keystore.KindGCS, "nightly-gcs"); err != nil {
		t.Errorf("a good GCS name refused: %v", err)
	}
	if err := nameRule(keystore.KindGCS, "-x"); err == nil || !strings.Contains(err.Error(), `GCS credential name "-x"`) {
		t.Errorf("a GCS name starting with a symbol: %v", err)
	}
}

// flat is a form's view as one line of words, without the focused field's
// bar: a message wrapped at a narrow width reads as one.
func flat(v string) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(v, "| ", " ")), " ")
}

// TestRefusalAfterTheSecretKeepsIt: a credential refused once the secret
// was typed (by the credential's own check: the secret holds a space, which
// no field's rule catches) comes back whole with a, the secret too, so
// only the part at fault is typed again.
func TestRefusalAfterTheSecretKeepsIt(t *testing.T) {
	st := newStore(t)
	d := newDriver(t, st, 100, 30)
	d.openS3("enter")
	d.fill("enter", "archive", "AKIAIOSFODNN7EXAMPLE", "wJalr SECRET", "eu-west-1")
	if len(d.actions) != 1 || !strings.Contains(d.view(), "contains spaces") {
		t.Fatalf("the refusal is not shown:\n%s", d.view())
	}
	d.key("a")
	if dr := d.s.draft; dr == nil || dr.name != "archive" || dr.accessKeyID != "AKIAIOSFODNN7EXAMPLE" || dr.secret != "wJalr SECRET" || dr.region != "eu-west-1" {
		t.Fatalf("what was typed did not come back: %+v", d.s.draft)
	}
	d.key("enter") // S3, kept
	d.key("enter") // archive, kept
	d.key("enter") // the key ID, kept
	for range len(" SECRET") {
		d.key("backspace")
	}
	d.typeText("SECRET")
	d.key("enter")
	d.key("enter") // the region, kept
	if s3 := d.storedS3(st, "archive"); s3.SecretAccessKey != "wJalrSECRET" || s3.AccessKeyID != "AKIAIOSFODNN7EXAMPLE" {
		t.Errorf("stored %+v", s3)
	}
}

// TestDetailScrollKeysAreTheOnesListed: K is the API key in Settings, so
// with the detail shown the footer and the help name the keys that scroll
// it (ctrl+d/ctrl+u), never K, and those keys scroll it; K still asks for
// the key.
func TestDetailScrollKeysAreTheOnesListed(t *testing.T) {
	st := newStore(t)
	putCreds(t, st, keystore.S3Credential{Name: "archive", AccessKeyID: "AKIAIOSFODNN7EXAMPLE", SecretAccessKey: "x", Region: "eu-west-1"})
	d := newDriver(t, st, 60, 12)
	d.key("enter")
	if !d.s.DetailShown() {
		t.Fatal("enter should show the detail")
	}
	km := d.s.KeyMap()
	var footer []string
	for _, b := range km.ShortHelp() {
		footer = append(footer, b.Help().Key+" "+b.Help().Desc)
	}
	if !slices.Contains(footer, "ctrl+d/ctrl+u scroll") {
		t.Errorf("the footer should name the scroll keys: %q", footer)
	}
	// every key listed (footer and help) does one thing: K is the API key
	meaning := map[string]string{}
	for _, group := range append(km.FullHelp(), km.ShortHelp()) {
		for _, b := range group {
			for _, k := range b.Keys() {
				desc := b.Help().Desc
				switch {
				case strings.Contains(desc, "scroll"):
					desc = "scroll"
				case desc == "close": // esc hides the pane: its "back"
					desc = "back"
				}
				if m, ok := meaning[k]; ok && m != desc {
					t.Errorf("key %s is listed as %q and as %q", k, m, desc)
				}
				meaning[k] = desc
			}
			if strings.Contains(b.Help().Key, "K") && b.Help().Desc != "enter API key" {
				t.Errorf("the help lists %q %q: K enters the API key here", b.Help().Key, b.Help().Desc)
			}
		}
	}
	before := d.view()
	d.send(tuitest.KeyMsg("ctrl+d"))
	after := d.view()
	if after == before {
		t.Fatalf("ctrl+d did not scroll the detail:\n%s", after)
	}
	d.send(tuitest.KeyMsg("ctrl+u"))
	if d.view() != before {
		t.Errorf("ctrl+u did not scroll back:\n%s", d.view())
	}
	d.key("K")
	if len(d.logins) != 1 {
		t.Error("K should still ask for the API key with the detail shown")
	}
}

// TestDemoSaysNoKeyIsNeeded: the demo's sandbox takes no API key, so the
// key's line says so and neither it nor the footer offers K.
func TestDemoSaysNoKeyIsNeeded(t *testing.T) {
	c := tuitest.Common()
	c.Theme, c.Secrets, c.Profile, c.Demo = theme.New(theme.Options{Dark: true, NoColor: true}), newStore(t), "demo", true
	d := &driver{t: t, s: New(c)}
	d.s.SetSize(100, 30)
	d.run(d.s.Init())
	v := d.view()
	if !strings.Contains(v, "API key       none needed: the demo's sandbox is built in") || strings.Contains(v, "K to enter") {
		t.Errorf("the demo's API key line:\n%s", v)
	}
	for _, b := range d.s.KeyMap().ShortHelp() {
		if b.Help().Key == "K" {
			t.Errorf("the demo's footer offers K: %q", b.Help().Desc)
		}
	}
}

// deadKeyring is a keyring backend that cannot be used, for a long reason.
type deadKeyring struct{ keystore.Backend }

const deadReason = "no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set and no bus socket was found at /run/user/1000/bus"

func (deadKeyring) Name() string  { return "keyring" }
func (deadKeyring) Label() string { return "OS keyring (Secret Service)" }
func (deadKeyring) Probe() error  { return errors.New(deadReason) }

// TestEveryLineAboveTheListIsReachable: at 60x16, and at 80x24 with config
// warnings, the text above the list is taller than its room; ctrl+d
// (which the footer and the line under the text name) scrolls it to its
// last line, so every backend, its reason (wrapped, not cut) and the API
// key's fingerprint can be read; ctrl+u scrolls back to the profile.
func TestEveryLineAboveTheListIsReachable(t *testing.T) {
	warnings := []string{
		`~/.config/skytui/config.toml:3: unknown key "colour" (did you mean "color"?)`,
		`~/.config/skytui/config.toml:7: unknown key "refresh" in [[profile]] "prod" (did you mean "refresh_seconds"?)`,
		`~/.config/skytui/config.toml:9: unknown key "bel" in [[profile]] "prod" (did you mean "bell"?)`,
	}
	for _, size := range [][2]int{{60, 12}, {80, 20}} {
		what := fmt.Sprintf("%dx%d", size[0], size[1])
		st, err := keystore.Open(keystore.Options{
			Backends: []keystore.Backend{deadKeyring{}, keystore.NewMemoryBackend("memory (test)")},
			Getenv:   func(string) string { return "" },
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := st.SetAPIKey("prod", "skysql.key.supersecret"); err != nil {
			t.Fatal(err)
		}
		d := newDriver(t, st, size[0], size[1])
		if size[0] == 80 {
			d.s.WithConfigWarnings(warnings)
		}
		if !d.s.headCut() {
			t.Fatalf("%s: the text above fits; the test needs it cut:\n%s", what, d.view())
		}
		var footer []string
		for _, b := range d.s.KeyMap().ShortHelp() {
			footer = append(footer, b.Help().Key+" "+b.Help().Desc)
		}
		if !slices.Contains(footer, "ctrl+d/ctrl+u scroll text") {
			t.Errorf("%s: the footer does not say how to scroll the text above: %q", what, footer)
		}
		first := d.view()
		seen := map[string]bool{}
		for range 30 {
			v := d.view()
			tuitest.CheckFits(t, what, v, size[0], size[1])
			for _, l := range strings.Split(v, "\n") {
				seen[strings.TrimRight(l, " ")] = true
			}
			d.send(tuitest.KeyMsg("ctrl+d"))
		}
		head := tuitest.View(&lines{d.s.head()})
		for _, l := range strings.Split(head, "\n") {
			if !seen[strings.TrimRight(l, " ")] {
				t.Errorf("%s: the line %q above the list is never shown", what, l)
			}
		}
		// wrapped lines read as one (a path may wrap after a slash)
		flatHead := strings.Join(strings.Fields(strings.ReplaceAll(head, "\u2013", "-")), "")
		for _, want := range append([]string{
			"keyring OS keyring (Secret Service) - unusable: " + deadReason,
			"API key " + keystore.Fingerprint("skysql.key.supersecret") + " from memory (test)",
			"memory memory (test) - usable",
		}, warnings[:min(len(d.s.configWarnings), 3)]...) {
			if !strings.Contains(flatHead, strings.Join(strings.Fields(want), "")) {
				t.Errorf("%s: the text above lacks %q (cut?):\n%s", what, want, head)
			}
		}
		if !strings.Contains(d.view(), "above") {
			t.Errorf("%s: at the end the line under the text should say what is above:\n%s", what, d.view())
		}
		for range 30 {
			d.send(tuitest.KeyMsg("ctrl+u"))
		}
		if d.view() != first {
			t.Errorf("%s: ctrl+u does not scroll back to the top:\n%s", what, d.view())
		}
		if v := d.view(); !strings.Contains(v, "none yet: a adds one (or `skytui creds add gcs|s3 NAME`)") {
			t.Errorf("%s: the empty list's line is cut:\n%s", what, v)
		}
	}
}

// lines is text to strip of its styles (tuitest.View).
type lines struct{ l []string }

func (l *lines) View() string { return strings.Join(l.l, "\n") }

// TestShowsTheKeyInUse: after a 401 for the key of SKYSQL_API_KEY a key
// entered at the prompt is in use (and stored); Settings shows that key's
// fingerprint and where it came from, and names the environment's key as
// not used, not the refused key as the one in use.
func TestShowsTheKeyInUse(t *testing.T) {
	const refused, typed = "skysql.key.refused-from-env", "skysql.key.typed-at-prompt"
	st, err := keystore.Open(keystore.Options{
		Backends: []keystore.Backend{keystore.NewMemoryBackend("memory (test)")},
		Getenv: func(k string) string {
			if k == keystore.EnvAPIKey {
				return refused
			}
			return ""
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	client := func(key string) *api.Client {
		c, err := api.New(api.Config{BaseURL: "http://127.0.0.1:1", APIKey: key})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	open := func(key string) string {
		c := tuitest.Common()
		c.Theme, c.Secrets, c.Profile, c.Client = theme.New(theme.Options{Dark: true, NoColor: true}), st, "prod", client(key)
		d := &driver{t: t, s: New(c)}
		d.s.SetSize(120, 40)
		d.run(d.s.Init())
		return strings.Join(strings.Fields(d.view()), " ")
	}
	// at start the session sends SKYSQL_API_KEY's key
	if v := open(refused); !strings.Contains(v, "API key "+keystore.Fingerprint(refused)+" from environment SKYSQL_API_KEY") {
		t.Errorf("the environment's key in use:\n%s", v)
	}
	// the API refused it; the key typed at the prompt is stored and sent
	if err := st.SetAPIKey("prod", typed); err != nil {
		t.Fatal(err)
	}
	v := open(typed)
	if !strings.Contains(v, "API key "+keystore.Fingerprint(typed)+" entered at the prompt (in use)") {
		t.Errorf("Settings should show the key in use, the one typed:\n%s", v)
	}
	if strings.Contains(v, keystore.Fingerprint(refused)+" from environment") ||
		!strings.Contains(v, "environment SKYSQL_API_KEY (read-only) holds "+keystore.Fingerprint(refused)+": not used now, but read first at the next start") {
		t.Errorf("the refused key is shown as in use, or its note is missing:\n%s", v)
	}
}

// TestTabOnTheLastFieldStores: the form's footer says "enter/tab next";
// tab on its last field (the region) stores the credential as enter does,
// instead of doing nothing.
func TestTabOnTheLastFieldStores(t *testing.T) {
	st := newStore(t)
	d := newDriver(t, st, 100, 30)
	d.openS3("tab")
	d.fill("tab", "archive", "AKIAIOSFODNN7EXAMPLE", "wJalrSECRET", "eu-west-1")
	if len(d.actions) != 1 {
		t.Fatalf("tab on the last field should store the credential, got actions %+v:\n%s", d.actions, d.view())
	}
	if s3 := d.storedS3(st, "archive"); s3.Region != "eu-west-1" {
		t.Errorf("stored %+v", s3)
	}
}

// TestCutListSaysWhatIsBelow: on a short body with more entries than the
// list shows, a line under the rows says how many are below and which key
// moves there; at the bottom it says what is above.
func TestCutListSaysWhatIsBelow(t *testing.T) {
	st := storeOfS3(t, 4)
	d := newDriver(t, st, 60, 12) // the body of a 60x16 terminal
	v := d.view()
	tuitest.CheckFits(t, "body of 60x12", v, 60, 12)
	if !strings.Contains(v, "down/j: 1 more entry") || !strings.Contains(v, "cred2") {
		t.Fatalf("three rows and a line saying one more is below should show:\n%s", v)
	}
	for range 3 {
		d.key("j")
	}
	if v := d.view(); !strings.Contains(v, "cred3") || !strings.Contains(v, "up/k: 1 entry above") {
		t.Fatalf("at the bottom the line should say what is above:\n%s", v)
	}
}

// TestCutListSaysWhatIsBelowWithTheDetailOpen: with an entry's detail
// open, the list (cut to its three rows) still says what is above and
// below, on a line between its rows and the pane, at both widths.
func TestCutListSaysWhatIsBelowWithTheDetailOpen(t *testing.T) {
	for _, c := range []struct {
		w, n, at          int
		name, above, more string
	}{
		{60, 6, 4, "cred4", "up/k: 2 entries above", "down/j: 1 more entry"}, // the body of a 60x16 terminal
		// in the names' order: cred0, cred1, cred10 ... cred13, cred2 ...
		{130, 14, 12, "cred8", "up/k: 4 entries above", "down/j: 1 more entry"},
	} {
		w := c.w
		d := newDriver(t, storeOfS3(t, c.n), w, 12)
		for range c.at {
			d.key("j")
		}
		d.key("enter")
		v := d.view()
		tuitest.CheckFits(t, fmt.Sprintf("body of %dx12", w), v, w, 12)
		if !strings.Contains(v, "Bucket credential "+c.name) {
			t.Fatalf("width %d: the entry's detail should be open:\n%s", w, v)
		}
		if !strings.Contains(v, c.above) || !strings.Contains(v, c.more) {
			t.Fatalf("width %d: with the detail open the list should say what is above and below:\n%s", w, v)
		}
		if w < kit.WideWidth {
			lines := strings.Split(v, "\n")
			at := slices.IndexFunc(lines, func(l string) bool { return strings.Contains(l, "entries above") })
			if at < 0 || at+1 >= len(lines) || !strings.HasPrefix(lines[at+1], d.s.common.Theme.Glyphs.HRule) || !strings.Contains(lines[at-1], "cred4") {
				t.Fatalf("width %d: the line should be under the rows (cred4 last), above the pane's rule:\n%s", w, v)
			}
		}
	}
}

// TestKeyPromptSaysWhetherAKeyIsReplaced: K asks for the key prompt; with
// no key stored its reason says the key is stored once the API accepts
// it (it said "replaces the stored one" with none stored), with one
// stored that it replaces it.
func TestKeyPromptSaysWhetherAKeyIsReplaced(t *testing.T) {
	d := newDriver(t, newStore(t), 100, 30)
	if !strings.Contains(d.view(), "none stored (K to enter one)") {
		t.Fatalf("the empty keystore's key line:\n%s", d.view())
	}
	d.key("K")
	if len(d.logins) != 1 || strings.Contains(d.logins[0], "replaces") ||
		d.logins[0] != "Enter an API key for profile prod; it is stored once the API accepts it." {
		t.Errorf("K with no key stored asks %q", d.logins)
	}
	st := newStore(t)
	if err := st.SetAPIKey("prod", "skysql.key.stored"); err != nil {
		t.Fatal(err)
	}
	d = newDriver(t, st, 100, 30)
	d.key("K")
	if len(d.logins) != 1 || d.logins[0] != "Enter a new API key for profile prod; it replaces the stored one once the API accepts it." {
		t.Errorf("K with a key stored asks %q", d.logins)
	}
}

// TestNoToReplacingLeavesNoError: a "no" to "Replace credential NAME?"
// is not an error: Settings' text gets no "! cancelled" line (it stayed
// for the session, and the text above grew by two lines), the stored
// credential is kept, and a brings back what was typed.
func TestNoToReplacingLeavesNoError(t *testing.T) {
	st := newStore(t)
	d := newDriver(t, st, 100, 30)
	d.addS3As("archive", "first")
	lines := len(d.s.head())
	d.no = true
	if a := d.addS3As("archive", "second"); a.Confirm.Kind != kit.ConfirmYesNo {
		t.Fatalf("a taken name did not ask: %+v", a.Confirm)
	}
	if v := d.view(); strings.Contains(v, "cancelled") || strings.Contains(v, "! ") || len(d.s.head()) != lines {
		t.Errorf("a no left an error in the text (%d lines, were %d):\n%s", len(d.s.head()), lines, v)
	}
	if c, err := st.BucketCredential("archive"); err != nil || c.(keystore.S3Credential).SecretAccessKey != "first" {
		t.Errorf("a no replaced the credential: %v", err)
	}
	d.key("a")
	if d.s.draft == nil || d.s.draft.secret != "second" {
		t.Errorf("a does not bring back what was typed: %+v", d.s.draft)
	}
}
