package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func writeMode(t *testing.T, path, body string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

const labFile = "[[profile]]\nname = \"lab\"\nbase_url = \"https://lab.example.com\"\n"

func TestLoadRefusesConfigOthersCanWrite(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix modes")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	dir := filepath.Join(home, ".config", "skytui")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "config.toml")
	for _, c := range []struct {
		mode os.FileMode
		want string // "" = loads
	}{
		{0o666, "config " + path + ": mode 0666 lets other users change it (group- or world-writable), and it decides where your API key is sent; refusing to use it (fix: chmod go-w ~/.config/skytui/config.toml)"},
		{0o620, "config " + path + ": mode 0620 lets other users change it"},
		{0o602, "mode 0602"},
		{0o600, ""},
		{0o644, ""},
		{0o400, ""},
	} {
		writeMode(t, path, labFile, c.mode)
		cfg, err := LoadFile(path)
		if c.want == "" {
			if err != nil {
				t.Errorf("mode %04o: %v", c.mode, err)
			} else if _, err := cfg.Profile("lab"); err != nil {
				t.Errorf("mode %04o: %v", c.mode, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("mode %04o: err = %v\nwant %q", c.mode, err, c.want)
		}
	}

	// A directory others may write: the file can be replaced.
	writeMode(t, path, labFile, 0o600)
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	_, err := LoadFile(path)
	want := "config " + path + ": its directory " + dir + " has mode 0777 (group- or world-writable), so other users can replace the file that decides where your API key is sent; refusing to use it (fix: chmod go-w ~/.config/skytui)"
	if err == nil || err.Error() != want {
		t.Errorf("writable dir: err = %v\nwant %s", err, want)
	}
	// ... unless it is sticky, like /tmp: others cannot replace our file.
	if err := os.Chmod(dir, 0o777|os.ModeSticky); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFile(path); err != nil {
		t.Errorf("sticky dir: %v", err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}

	// Through a symbolic link: the target's mode counts, and both
	// directories; the hint names the path as given (chmod follows links).
	other := filepath.Join(t.TempDir(), "real.toml")
	writeMode(t, other, labFile, 0o666)
	link := filepath.Join(dir, "link.toml")
	if err := os.Symlink(other, link); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFile(link); err == nil || !strings.Contains(err.Error(), "mode 0666") || !strings.Contains(err.Error(), "chmod go-w ~/.config/skytui/link.toml") {
		t.Errorf("link to a 0666 file: %v", err)
	}
	_ = os.Chmod(other, 0o600)
	_ = os.Chmod(filepath.Dir(other), 0o777)
	if _, err := LoadFile(link); err == nil || !strings.Contains(err.Error(), "its directory "+filepath.Dir(other)+" has mode 0777") {
		t.Errorf("link into a writable dir: %v", err)
	}
	_ = os.Chmod(filepath.Dir(other), 0o700)
}

func TestShellPath(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for in, want := range map[string]string{
		filepath.Join(home, ".config/skytui/config.toml"):                     "~/.config/skytui/config.toml",
		filepath.Join(home, "Library/Application Support/skytui/config.toml"): "~/'Library/Application Support/skytui/config.toml'",
		"/etc/sky tui/it's.toml":                                              `'/etc/sky tui/it'\''s.toml'`,
		"/srv/skytui/config.toml":                                             "/srv/skytui/config.toml",
	} {
		if runtime.GOOS == "windows" {
			t.Skip("Unix paths")
		}
		if got := shellPath(in); got != want {
			t.Errorf("shellPath(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestSaveWritesThroughSymlink(t *testing.T) {
	realDir, linkDir := t.TempDir(), t.TempDir()
	target := filepath.Join(realDir, "skytui.toml")
	writeMode(t, target, "# kept in my dotfiles\n"+labFile, 0o600)
	link := filepath.Join(linkDir, "config.toml")
	if err := os.Symlink("../"+filepath.Base(realDir)+"/skytui.toml", link); err != nil {
		t.Fatal(err)
	}
	c, err := LoadFile(link)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Upsert(NewProfile("prod", "https://api.example.com")); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(link)
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	if dest, _ := os.Readlink(link); dest != "../"+filepath.Base(realDir)+"/skytui.toml" {
		t.Fatalf("the link points to %q now", dest)
	}
	got, _ := os.ReadFile(target)
	want := "# kept in my dotfiles\n" + labFile + "\n[[profile]]\nname = \"prod\"\nbase_url = \"https://api.example.com\"\n"
	if string(got) != want {
		t.Fatalf("target:\n%s\nwant:\n%s", got, want)
	}
	for _, d := range []string{realDir, linkDir} {
		if ents, _ := os.ReadDir(d); len(ents) != 1 {
			t.Errorf("%s: leftover files %v", d, ents)
		}
	}

	// A dangling link (the dotfiles link made before the file): the target
	// is created, the link stays.
	target2 := filepath.Join(realDir, "new", "skytui.toml")
	link2 := filepath.Join(linkDir, "dangling.toml")
	if err := os.Symlink(target2, link2); err != nil {
		t.Fatal(err)
	}
	c2, err := LoadFile(link2)
	if err != nil {
		t.Fatal(err)
	}
	_ = c2.Upsert(NewProfile("lab", "https://lab.example.com"))
	if err := c2.Save(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link2); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the dangling link was replaced: %v", err)
	}
	if c3, err := LoadFile(target2); err != nil || len(c3.Profiles) != 1 {
		t.Fatalf("target not written: %v", err)
	}
}

const commented = `# my skytui config
default_profile = 'prod' # the usual one

# production: do not touch
[[profile]]
name = 'prod'   # main
base_url = "https://api.example.com/" # trailing slash on purpose
colour = "blue"

[[profile]]
  name = "lab"
  base_url = "https://lab.example.com"
[profile.extra]
x = 1
# the end`

func TestSaveChangesOnlyWhatChanged(t *testing.T) {
	path := writeConfig(t, commented)
	c, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Warnings) != 2 {
		t.Fatalf("warnings %q", c.Warnings)
	}
	lab, _ := c.Profile("lab")
	lab.Org, lab.ReadOnly = "acme", true
	prod, _ := c.Profile("prod")
	prod.BaseURL = "https://new.example.com"
	for _, p := range []Profile{lab, prod, NewProfile("dev", "https://dev.example.com")} {
		if err := c.Upsert(p); err != nil {
			t.Fatal(err)
		}
	}
	c.DefaultProfile = "dev"
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	// The file as it was, with exactly these changes, and the new profile
	// at the end.
	want := strings.NewReplacer(
		`default_profile = 'prod'`, `default_profile = "dev"`,
		`base_url = "https://api.example.com/"`, `base_url = "https://new.example.com"`,
		`base_url = "https://lab.example.com"`, `base_url = "https://lab.example.com"`+"\n  org = \"acme\"\n  read_only = true",
	).Replace(commented) + `

[[profile]]
name = "dev"
base_url = "https://dev.example.com"
`
	if string(got) != want {
		t.Fatalf("file:\n%s\nwant:\n%s", got, want)
	}
	if runtime.GOOS != "windows" {
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
			t.Errorf("mode %v", fi.Mode())
		}
	}
	// Saving again with nothing changed leaves the file alone.
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if again, _ := os.ReadFile(path); string(again) != want {
		t.Fatalf("a save without a change rewrote the file:\n%s", again)
	}
	// A profile of only known keys can be removed; one with a sub-table
	// cannot without losing it: the file stays, the error says what to do.
	if err := c.Remove("dev"); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	got, _ = os.ReadFile(path)
	if strings.Contains(string(got), "dev") || !strings.HasPrefix(string(got), strings.Split(want, "default_profile")[0]) {
		t.Fatalf("after removing dev:\n%s", got)
	}
	before := string(got)
	_ = c.Remove("lab")
	err = c.Save()
	var me *ManualEditError
	if !errors.As(err, &me) || me.Path != path || !strings.Contains(me.Reason, `[[profile]] "lab" to remove holds comments, unknown keys or a sub-table`) {
		t.Fatalf("remove lab: %v", err)
	}
	if !reflect.DeepEqual(me.Lines, []string{`# delete the [[profile]] with name = "lab" and its keys`}) {
		t.Fatalf("lines %q", me.Lines)
	}
	if after, _ := os.ReadFile(path); string(after) != before {
		t.Fatal("a refused edit changed the file")
	}
}

func TestSaveKeepsAnotherWritersChanges(t *testing.T) {
	path := writeConfig(t, labFile)
	c, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// someone edits the file meanwhile
	edited := "# added by hand\n" + labFile + "org = \"hand\"\n"
	writeMode(t, path, edited, 0o600)
	_ = c.Upsert(NewProfile("prod", "https://api.example.com"))
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if want := edited + "\n[[profile]]\nname = \"prod\"\nbase_url = \"https://api.example.com\"\n"; string(got) != want {
		t.Fatalf("file:\n%s\nwant:\n%s", got, want)
	}
}

func TestSaveInlineProfilesGivesLinesToAdd(t *testing.T) {
	body := "# mine\nprofile = [{ name = \"lab\", base_url = \"https://lab.example.com\" }]\n"
	path := writeConfig(t, body)
	c, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p := NewProfile("prod", "https://api.example.com")
	p.Org = "acme"
	_ = c.Upsert(p)
	lab, _ := c.Profile("lab")
	lab.BaseURL = "https://lab2.example.com"
	_ = c.Upsert(lab)
	err = c.Save()
	var me *ManualEditError
	if !errors.As(err, &me) || me.Reason != "its profiles are not all [[profile]] tables" {
		t.Fatalf("err = %v", err)
	}
	want := []string{
		`# in the [[profile]] with name = "lab", set:`,
		`base_url = "https://lab2.example.com"`,
		"# add at the end:",
		"[[profile]]",
		`name = "prod"`,
		`base_url = "https://api.example.com"`,
		`org = "acme"`,
	}
	if !reflect.DeepEqual(me.Lines, want) {
		t.Fatalf("lines:\n%s\nwant:\n%s", strings.Join(me.Lines, "\n"), strings.Join(want, "\n"))
	}
	if got, _ := os.ReadFile(path); string(got) != body {
		t.Fatal("the file was changed")
	}
	if !strings.HasPrefix(err.Error(), "config "+path+": left unchanged (its profiles are not all [[profile]] tables); make the change yourself: ") {
		t.Fatalf("message: %v", err)
	}
}

func TestSaveNewFileIsWrittenWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	c := &Config{DefaultProfile: "lab"}
	_ = c.Upsert(NewProfile("lab", "https://lab.example.com"))
	if err := c.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if !strings.HasPrefix(string(got), header) || !strings.Contains(string(got), "refresh_seconds = 30") {
		t.Fatalf("new file:\n%s", got)
	}
	c.DefaultProfile = "ghost"
	if err := c.SaveFile(path); err == nil || !strings.Contains(err.Error(), `default_profile: profile "ghost" not found`) {
		t.Fatalf("a default that does not exist: %v", err)
	}
}

func TestSaveKeepsCRLF(t *testing.T) {
	path := writeConfig(t, "# dos\r\n[[profile]]\r\nname = \"lab\"\r\nbase_url = \"https://lab.example.com\"")
	c, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lab, _ := c.Profile("lab")
	lab.Org = "acme"
	_ = c.Upsert(lab)
	_ = c.Upsert(NewProfile("prod", "https://api.example.com"))
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	want := "# dos\r\n[[profile]]\r\nname = \"lab\"\r\nbase_url = \"https://lab.example.com\"\r\norg = \"acme\"\r\n\r\n[[profile]]\r\nname = \"prod\"\r\nbase_url = \"https://api.example.com\"\r\n"
	if string(got) != want {
		t.Fatalf("file %q\nwant %q", got, want)
	}
}
