package settings

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/tui/tuitest"
)

// focused is the value of the form's focused field.
func (d *driver) focused() string {
	d.t.Helper()
	if d.s.form == nil || d.s.form.GetFocusedField() == nil {
		d.t.Fatalf("no form with a focused field:\n%s", d.view())
	}
	v, _ := d.s.form.GetFocusedField().GetValue().(string)
	return v
}

// openGCS opens the add form, keeps GCS, names the credential name and
// goes on to the key file's field.
func (d *driver) openGCS(name string) {
	d.key("a")
	d.fill("enter", "", name)
}

// TestShiftTabGoesBackFromAnInvalidField: shift+tab goes back from a
// field that is empty or that its rule refuses, with nothing said
// against it, and keeps what was typed there; only going on is checked.
// On the empty "Access key ID" shift+tab said "! access key ID: required"
// and stayed (huh checks a field when it is left either way and keeps
// the form on a group that holds an error).
func TestShiftTabGoesBackFromAnInvalidField(t *testing.T) {
	d := addS3(t, 80, 20)
	d.fill("enter", "archive")
	d.key("shift+tab") // the access key ID, empty
	if v := d.view(); strings.Contains(v, "required") || d.focused() != "archive" {
		t.Fatalf("shift+tab from the empty access key ID did not go back to the name:\n%s", v)
	}
	d.key("enter")
	d.key("enter") // going on is checked
	if v := d.view(); !strings.Contains(v, "! access key ID: required") {
		t.Fatalf("enter on the empty access key ID went on:\n%s", v)
	}
	// an ID that is not one (a secret pasted in the wrong field, too
	// short) is refused at the field by the command line's rule
	d.fill("enter", "AKIA")
	if v := flat(d.view()); !strings.Contains(v, "an access key ID is 16 to 128 capital letters and digits") {
		t.Fatalf("a short access key ID went on:\n%s", d.view())
	}
	for range 4 {
		d.key("backspace")
	}
	// within the group: an empty secret, then a refused region, each left
	// by shift+tab with what was typed in it
	d.fill("enter", "AKIAIOSFODNN7EXAMPLE")
	d.key("shift+tab") // the secret, empty
	if d.focused() != "AKIAIOSFODNN7EXAMPLE" || strings.Contains(d.view(), "required") {
		t.Fatalf("shift+tab from the empty secret:\n%s", d.view())
	}
	d.fill("enter", "", "wJalrSECRET") // the key ID kept; the secret
	d.typeText("nowhere land")
	d.key("enter")
	if !strings.Contains(flat(d.view()), `field "region" contains spaces`) {
		t.Fatalf("a bad region went on:\n%s", d.view())
	}
	d.key("shift+tab")
	if v := d.view(); strings.Contains(flat(v), "contains spaces") || d.focused() != "wJalrSECRET" {
		t.Fatalf("shift+tab from a refused region did not go back to the secret:\n%s", v)
	}
	d.key("shift+tab")
	d.key("shift+tab") // the access key ID, then back to the name's group
	if d.focused() != "archive" {
		t.Fatalf("shift+tab did not go back to the name:\n%s", d.view())
	}
	if dr := d.s.draft; dr.accessKeyID != "AKIAIOSFODNN7EXAMPLE" || dr.secret != "wJalrSECRET" || dr.region != "nowhere land" {
		t.Errorf("what was typed was not kept: %+v", dr)
	}
	if len(d.actions) != 0 {
		t.Errorf("nothing was to be stored: %+v", d.actions)
	}

	// GCS: the empty key file, and one that was refused, go back too
	g := newDriver(t, newStore(t), 80, 20)
	g.key("a")
	g.fill("enter", "", "nightly") // GCS; the name
	g.key("shift+tab")
	if g.focused() != "nightly" || strings.Contains(g.view(), "required") {
		t.Fatalf("shift+tab from the empty key file:\n%s", g.view())
	}
	g.key("enter")
	missing := filepath.Join(t.TempDir(), "nonexist.json")
	g.typeText(missing)
	g.key("enter")
	g.key("shift+tab")
	if g.focused() != "nightly" || strings.Contains(g.view(), "no such file") {
		t.Fatalf("shift+tab from a refused key file:\n%s", g.view())
	}
	if g.s.draft.keyFile != missing {
		t.Errorf("the key file's path was not kept: %q", g.s.draft.keyFile)
	}
}

// TestKeyFileCheckedAtItsField: the GCS key file is read and checked
// when enter (or tab) leaves its field, in a command (the field's rule
// does no I/O), and the form stays on the field with why a file cannot
// serve next to it: a path that does not exist, a directory, a file that
// is not JSON, a JSON key that is not a service account's. A nonexistent
// path closed the form and the store failed after ("error: store gcs
// credential … failed: key file: open …"), and the keys typed next went
// to the list (its / filter). Keys typed while the file is read wait for
// the answer; a file fixed meanwhile is read again on the next enter.
func TestKeyFileCheckedAtItsField(t *testing.T) {
	// short paths, relative to the test's directory: each key typed here
	// costs the driver's wait for a cursor blink
	t.Chdir(t.TempDir())
	write := func(name, doc string) string {
		if err := os.WriteFile(name, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		return name
	}
	if err := os.Mkdir("keys", 0o700); err != nil {
		t.Fatal(err)
	}
	good := `{"type":"service_account","client_email":"bk@p.iam.gserviceaccount.com","private_key":"` + pk + `"}`
	for _, tc := range []struct{ path, says string }{
		{"nonexist.json", "key file: nonexist.json: no such file or directory"},
		{"keys", "keys is a directory"},
		{write("notes.txt", "not json"), "key is not valid JSON"},
		{write("user.json", `{"type":"authorized_user"}`), `"type" must be "service_account"`},
	} {
		for _, size := range [][2]int{{80, 20}, {60, 12}} {
			what := fmt.Sprintf("%s at %dx%d", tc.path, size[0], size[1])
			st := newStore(t)
			d := newDriver(t, st, size[0], size[1])
			d.openGCS("nightly")
			d.typeText(tc.path)
			// enter asks for the read; the rule did not read the file
			_, cmd := d.s.Update(tuitest.KeyMsg("enter"))
			if cmd == nil || d.s.reading == nil || !strings.Contains(d.view(), "key file: reading") {
				t.Fatalf("%s: enter does not read the file in a command:\n%s", what, d.view())
			}
			d.run(cmd)
			v := flat(d.view())
			if d.s.form == nil || !strings.Contains(v, "! key file: ") || !strings.Contains(v, tc.says) {
				t.Fatalf("%s: the field does not say why the file cannot serve:\n%s", what, d.view())
			}
			tuitest.CheckFits(t, what, d.s.View(), size[0], size[1])
			if len(d.actions) != 0 {
				t.Fatalf("%s: a key file refused was submitted: %+v", what, d.actions)
			}
			// the path typed again, of a good file: it goes on
			p := write("good.json", good)
			d.key("ctrl+u") // the path typed is cleared
			d.typeText(p)
			d.key("enter")
			if d.s.form != nil || len(d.actions) != 1 {
				t.Fatalf("%s: a good key file did not go on (actions %+v):\n%s", what, d.actions, d.view())
			}
			c, err := st.BucketCredential("nightly")
			if err != nil || c.(keystore.GCSCredential).ClientEmail() != "bk@p.iam.gserviceaccount.com" {
				t.Fatalf("%s: not stored: %v", what, err)
			}
			if d.s.draft != nil {
				t.Errorf("%s: the draft (the key with it) was kept after the store", what)
			}
		}
	}
	// a key typed while the file is read waits for the answer, then goes
	// to the field, which stays (it went to the list: its / filter)
	d0 := newDriver(t, newStore(t), 80, 20)
	d0.openGCS("nightly")
	missing := "nonexist.json"
	d0.typeText(missing)
	_, cmd := d0.s.Update(tuitest.KeyMsg("enter"))
	d0.s.Update(tuitest.KeyMsg("/"))
	if d0.s.draft.keyFile != missing {
		t.Fatalf("a key typed during the read did not wait: %q", d0.s.draft.keyFile)
	}
	d0.s.Update(tea.PasteMsg{Content: "x"})
	if d0.s.draft.keyFile != missing {
		t.Fatalf("a paste during the read did not wait: %q", d0.s.draft.keyFile)
	}
	d0.run(cmd)
	if d0.s.form == nil || d0.s.Capturing() || d0.s.draft.keyFile != missing+"/x" {
		t.Fatalf("the key and the paste typed during the read did not reach the field in order (%q):\n%s", d0.s.draft.keyFile, d0.view())
	}

	// a file fixed between two enters on the same path is read again
	st := newStore(t)
	d := newDriver(t, st, 80, 20)
	d.openGCS("nightly")
	p := write("later.json", "{}")
	d.fill("enter", p)
	if !strings.Contains(flat(d.view()), `"type" is missing`) {
		t.Fatalf("the empty key is not refused at its field:\n%s", d.view())
	}
	write("later.json", good)
	d.key("enter")
	if _, err := st.BucketCredential("nightly"); err != nil || d.s.form != nil {
		t.Fatalf("the key file fixed was not read again: %v\n%s", err, d.view())
	}
}

// TestListHintWholeOrLeftOut: the hint after the list's title and count
// is whole or left out, never cut: a filter's "0 of 4" left it "(never
// shown; a to add, d to re~" at 80 columns. The longest form that fits
// shows, else none.
func TestListHintWholeOrLeftOut(t *testing.T) {
	full, short := "(never shown; a to add, d to remove)", "(never shown)"
	for _, tc := range []struct {
		w       int
		filter  string
		hint    string // "" for none
		without string
	}{
		{80, "", full, ""},
		{80, "zzz", short, full},
		{60, "", short, full},
		{60, "zzz", "", short},
	} {
		what := fmt.Sprintf("%d columns, filter %q", tc.w, tc.filter)
		st := newStore(t)
		for _, n := range []string{"archive", "nightly", "weekly", "monthly"} {
			if err := st.PutBucketCredential(keystore.S3Credential{Name: n, AccessKeyID: "AKIAIOSFODNN7EXAMPLE", SecretAccessKey: "x", Region: "eu-west-1"}); err != nil {
				t.Fatal(err)
			}
		}
		d := newDriver(t, st, tc.w, 30)
		if tc.filter != "" {
			d.key("/")
			d.typeText(tc.filter)
			d.key("enter")
		}
		var status string
		for _, l := range strings.Split(d.view(), "\n") {
			if strings.HasPrefix(l, " "+listTitle) {
				status = l
			}
		}
		if status == "" {
			t.Fatalf("%s: no status line:\n%s", what, d.view())
		}
		if strings.Contains(status, "~") || (tc.hint != "" && !strings.Contains(status, tc.hint)) ||
			(tc.hint == "" && strings.Contains(status, "(")) || (tc.without != "" && strings.Contains(status, tc.without)) {
			t.Errorf("%s: the status line reads %q, want the hint %q whole", what, status, tc.hint)
		}
	}
}

// TestAddFormHeadingOnceNameHintFollowsKind: the add form says "Add a
// bucket credential" once (the screen's heading, not the form's too), and
// the name's hint gives an example of the kind chosen: nightly-gcs for
// GCS, nightly-s3 once S3 is chosen, and back.
func TestAddFormHeadingOnceNameHintFollowsKind(t *testing.T) {
	d := newDriver(t, newStore(t), 80, 24)
	d.key("a")
	if n := strings.Count(d.view(), "Add a bucket credential"); n != 1 {
		t.Fatalf("the heading shows %d times:\n%s", n, d.view())
	}
	if v := d.view(); !strings.Contains(v, "e.g. nightly-gcs") || strings.Contains(v, "nightly-s3") {
		t.Fatalf("the name's hint for GCS:\n%s", v)
	}
	d.key("down") // S3
	if v := d.view(); !strings.Contains(v, "e.g. nightly-s3") || strings.Contains(v, "nightly-gcs") {
		t.Fatalf("the name's hint does not follow S3 as it is chosen:\n%s", v)
	}
	d.key("enter") // on the name
	if v := d.view(); !strings.Contains(v, "e.g. nightly-s3") || strings.Contains(v, "nightly-gcs") ||
		strings.Count(v, "Add a bucket credential") != 1 || d.focused() != "" {
		t.Fatalf("on the name after choosing S3:\n%s", v)
	}
	d.key("shift+tab")
	d.key("up") // GCS again
	if v := d.view(); !strings.Contains(v, "e.g. nightly-gcs") || strings.Contains(v, "nightly-s3") {
		t.Fatalf("the name's hint does not follow GCS chosen again:\n%s", v)
	}
}

// TestKeyFileTildeIsHome: there is no shell to expand "~" in the key
// file's field: a leading "~/" (and a bare "~") is the home directory
// ("~/sa.json" of a file in $HOME said "no such file or directory"), and
// a refusal names the path read.
func TestKeyFileTildeIsHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Chdir(t.TempDir()) // no "~" directory here to find instead
	good := `{"type":"service_account","client_email":"bk@p.iam.gserviceaccount.com","private_key":"` + pk + `"}`
	if err := os.WriteFile(filepath.Join(home, "sa.json"), []byte(good), 0o600); err != nil {
		t.Fatal(err)
	}
	st := newStore(t)
	d := newDriver(t, st, 100, 20)
	d.openGCS("nightly")
	for path, says := range map[string]string{
		"~":        home + " is a directory",
		"~/x.json": "key file: " + filepath.Join(home, "x.json") + ": no such file or directory",
	} {
		d.key("ctrl+u")
		d.fill("enter", path)
		if v := flat(d.view()); d.s.form == nil || !strings.Contains(v, says) {
			t.Fatalf("%s: the field should say %q:\n%s", path, says, d.view())
		}
	}
	d.key("ctrl+u")
	d.fill("enter", "~/sa.json")
	if c, err := st.BucketCredential("nightly"); err != nil || c.(keystore.GCSCredential).ClientEmail() != "bk@p.iam.gserviceaccount.com" {
		t.Fatalf("~/sa.json of a file in $HOME: not stored (%v):\n%s", err, d.view())
	}
}

// TestS3StepFitsOrSaysWhatIsBelow: at 60x16 (the screen's 12 lines) the
// S3 step shows its three fields whole (the Region input was cut off, a
// blank line to spare); on less room the step's last line names the
// field below and its key, as the other forms' do.
func TestS3StepFitsOrSaysWhatIsBelow(t *testing.T) {
	d := addS3(t, 60, 12)
	d.fill("enter", "archive")
	lines := strings.Split(d.view(), "\n")
	region := -1
	for i, l := range lines {
		if strings.TrimSpace(l) == "Region" {
			region = i
		}
	}
	if region < 0 || region+2 >= len(lines) || !strings.HasPrefix(strings.TrimSpace(lines[region+2]), ">") {
		t.Fatalf("the Region field is not shown whole at 60x16:\n%s", d.view())
	}

	d = addS3(t, 60, 9)
	d.fill("enter", "archive")
	if v := d.view(); !strings.Contains(v, "below: region (enter/tab)") {
		t.Fatalf("a cut S3 step does not say the region is below:\n%s", v)
	}
}
