package config

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

func TestLoadMissingFileGivesDefaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nope", "config.toml")
	c, err := LoadFile(path)
	if err != nil {
		t.Fatalf("missing file: %v", err)
	}
	if len(c.Profiles) != 0 || c.DefaultProfile != "" || c.Path() != path {
		t.Fatalf("config = %+v", c)
	}
	p, err := c.Profile("")
	if err != nil {
		t.Fatal(err)
	}
	if p != Preset() {
		t.Fatalf("default profile = %+v, want preset", p)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatal("Load created the file")
	}
}

func TestPreset(t *testing.T) {
	p := Preset()
	want := Profile{Name: "skysql", BaseURL: "https://api.skysql.com", ProvisioningPrefix: "/provisioning/v1",
		BackupPrefix: "/skybackup/v1", RefreshSeconds: 30, FastRefreshSeconds: 2, Bell: true}
	if p != want {
		t.Fatalf("preset = %+v", p)
	}
	c := &Config{}
	if got, err := c.Profile("skysql"); err != nil || got != want {
		t.Fatalf("Profile(skysql) = %+v, %v", got, err)
	}
	if _, err := c.Profile("staging"); err == nil || !strings.Contains(err.Error(), `"staging" not found`) || !strings.Contains(err.Error(), "skysql") {
		t.Fatalf("unknown profile = %v", err)
	}
	// A file entry overrides the preset; removing it restores the preset.
	o := Preset()
	o.Org = "org-123"
	if err := c.Upsert(o); err != nil {
		t.Fatal(err)
	}
	if got, _ := c.Profile("skysql"); got.Org != "org-123" {
		t.Fatal("override ignored")
	}
	if err := c.Remove("skysql"); err != nil {
		t.Fatal(err)
	}
	if got, _ := c.Profile("skysql"); got != want {
		t.Fatal("preset not restored")
	}
	if names := c.ProfileNames(); !reflect.DeepEqual(names, []string{"skysql"}) {
		t.Fatalf("names = %v", names)
	}
}

func TestSaveLoadRoundTripAndModes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "skytui")
	path := filepath.Join(dir, "config.toml")
	c, _ := LoadFile(path)
	local := NewProfile("local", "http://127.0.0.1:8080/")
	local.ReadOnly, local.Bell, local.RefreshSeconds, local.Org = true, false, 0, "acme"
	prod := NewProfile("prod", "https://api.example.com")
	prod.RefreshSeconds, prod.FastRefreshSeconds = 1, 1 // floors
	for _, p := range []Profile{local, prod} {
		if err := c.Upsert(p); err != nil {
			t.Fatal(err)
		}
	}
	c.DefaultProfile = "prod"
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
			t.Fatalf("file mode %v, %v; want 0600", fi.Mode().Perm(), err)
		}
		if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
			t.Fatalf("dir mode %v, %v; want 0700", fi.Mode().Perm(), err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Fatalf("leftover temp files: %v", ents)
	}
	c2, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if c2.DefaultProfile != "prod" || len(c2.Profiles) != 2 {
		t.Fatalf("reloaded = %+v", c2)
	}
	gl, _ := c2.Profile("local")
	wantLocal := Profile{Name: "local", BaseURL: "http://127.0.0.1:8080", ProvisioningPrefix: "/provisioning/v1",
		BackupPrefix: "/backup/v1", Org: "acme", RefreshSeconds: 0, FastRefreshSeconds: 2, ReadOnly: true, Bell: false}
	if gl != wantLocal {
		t.Fatalf("local = %+v\nwant   %+v", gl, wantLocal)
	}
	gp, _ := c2.Profile("")
	if gp.Name != "prod" || gp.RefreshSeconds != 2 || gp.FastRefreshSeconds != 2 || !gp.Bell {
		t.Fatalf("default profile = %+v", gp)
	}
	// Upsert replaces; Remove clears the default.
	gp.Org = "o2"
	if err := c2.Upsert(gp); err != nil || len(c2.Profiles) != 2 {
		t.Fatalf("upsert replace: %v, %d", err, len(c2.Profiles))
	}
	if err := c2.Remove("prod"); err != nil || c2.DefaultProfile != "" {
		t.Fatalf("remove: %v, default %q", err, c2.DefaultProfile)
	}
	if err := c2.Remove("prod"); err == nil {
		t.Fatal("removing a missing profile succeeded")
	}
}

func TestDefaultsForAbsentKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.toml")
	body := `default_profile = "a"

[[profile]]
name = "a"
base_url = "https://a.example.com"

[[profile]]
name = "b"
base_url = "https://b.example.com"
refresh_seconds = 0
bell = false
fast_refresh_seconds = 5
some_future_option = true
`
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := c.Profile("")
	if a.RefreshSeconds != 30 || a.FastRefreshSeconds != 2 || !a.Bell || a.ProvisioningPrefix != "/provisioning/v1" || a.BackupPrefix != "/backup/v1" || a.ReadOnly {
		t.Fatalf("defaults not applied: %+v", a)
	}
	b, _ := c.Profile("b")
	if b.RefreshSeconds != 0 || b.Bell || b.FastRefreshSeconds != 5 {
		t.Fatalf("explicit values lost: %+v", b)
	}
}

func TestMalformedFileNamesPathAndLine(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		body, want string
	}{
		{"default_profile = \"a\"\n\n[[profile]]\nname = \"a\"\nbase_url = https://x\n", "line 5"},
		{"[[profile]]\nname = \"a\"\nrefresh_seconds = \"fast\"\n", "line 3"},
		{"[[profile]\n", "line 1"},
	}
	for i, c := range cases {
		path := filepath.Join(dir, "bad"+string(rune('0'+i))+".toml")
		if err := os.WriteFile(path, []byte(c.body), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := LoadFile(path)
		if err == nil || !strings.Contains(err.Error(), "config "+path+": ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("case %d: err = %v, want path and %q", i, err, c.want)
		}
	}
	// Semantic errors name the path too.
	for _, body := range []string{
		"[[profile]]\nname = \"a\"\nbase_url = \"http://api.example.com\"\n",
		"[[profile]]\nname = \"a\"\nbase_url = \"https://a\"\n[[profile]]\nname = \"a\"\nbase_url = \"https://b\"\n",
		"default_profile = \"ghost\"\n",
		"[[profile]]\nname = \"a\"\nbase_url = \"https://a\"\nrefresh_seconds = -1\n",
	} {
		path := filepath.Join(dir, "sem.toml")
		_ = os.WriteFile(path, []byte(body), 0o600)
		if _, err := LoadFile(path); err == nil || !strings.Contains(err.Error(), "config "+path+": ") {
			t.Errorf("body %q: err = %v", body, err)
		}
	}
}

var secretWord = regexp.MustCompile(`(?i)key|secret|token|password|passphrase|credential`)

func TestNoSecretsInConfig(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeOf(Profile{}), reflect.TypeOf(Config{}), reflect.TypeOf(fileProfile{}), reflect.TypeOf(fileConfig{})} {
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			if secretWord.MatchString(f.Name) || secretWord.MatchString(string(f.Tag)) {
				t.Errorf("%s.%s looks like a secret field", typ.Name(), f.Name)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "config.toml")
	c := &Config{}
	_ = c.Upsert(NewProfile("p", "https://x.example.com"))
	if err := c.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "#") && secretWord.MatchString(line) {
			t.Errorf("written line looks like a secret: %q", line)
		}
	}
	// A secret pasted into the file is refused, naming the line.
	bad := "[[profile]]\nname = \"p\"\nbase_url = \"https://x.example.com\"\napi_key = \"sk-should-not-be-here\"\n"
	_ = os.WriteFile(path, []byte(bad), 0o600)
	_, err := LoadFile(path)
	if err == nil || !strings.Contains(err.Error(), "line 4") || !strings.Contains(err.Error(), "looks like a secret") {
		t.Fatalf("secret in file: %v", err)
	}
	if strings.Contains(err.Error(), "sk-should-not-be-here") {
		t.Fatal("error leaks the secret")
	}
}

func TestProfileRefusesPlainHTTP(t *testing.T) {
	c := &Config{}
	if err := c.Upsert(NewProfile("x", "http://x")); err == nil || !strings.Contains(err.Error(), "HTTPS is required") {
		t.Fatalf("Upsert of http profile = %v", err)
	}
}

func TestProfileValidation(t *testing.T) {
	c := &Config{}
	for _, p := range []Profile{
		NewProfile("", "https://x"),
		NewProfile("bad name", "https://x"),
		func() Profile { p := NewProfile("a", "https://x"); p.BackupPrefix = "backup/v1"; return p }(),
		func() Profile { p := NewProfile("a", "https://x"); p.RefreshSeconds = -5; return p }(),
	} {
		if err := c.Upsert(p); err == nil {
			t.Errorf("accepted %+v", p)
		}
	}
	if len(c.Profiles) != 0 {
		t.Fatal("invalid profiles stored")
	}
}

func TestPathAndStateDir(t *testing.T) {
	t.Setenv(EnvConfig, "/tmp/x/skytui.toml")
	if p, _ := Path(); p != "/tmp/x/skytui.toml" {
		t.Fatalf("Path with %s = %q", EnvConfig, p)
	}
	t.Setenv(EnvConfig, "")
	t.Setenv("XDG_CONFIG_HOME", "/cfg")
	if p, _ := Path(); runtime.GOOS == "linux" && p != "/cfg/skytui/config.toml" {
		t.Fatalf("Path = %q", p)
	}
	t.Setenv("XDG_STATE_HOME", "/state")
	if d, _ := StateDir(); d != "/state/skytui" {
		t.Fatalf("StateDir = %q", d)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_STATE_HOME", "")
	if runtime.GOOS != "windows" {
		if d, _ := StateDir(); d != filepath.Join(home, ".local", "state", "skytui") {
			t.Fatalf("StateDir = %q", d)
		}
		d, err := EnsureStateDir()
		if err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(d); err != nil || fi.Mode().Perm() != 0o700 {
			t.Fatalf("state dir mode: %v", err)
		}
	}
	// Load honours SKYTUI_CONFIG.
	cfg := filepath.Join(t.TempDir(), "c.toml")
	t.Setenv(EnvConfig, cfg)
	c, err := Load()
	if err != nil || c.Path() != cfg {
		t.Fatalf("Load = %v, %v", c, err)
	}
	_ = c.Upsert(NewProfile("p", "https://p.example.com"))
	if err := c.Save(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cfg); err != nil {
		t.Fatal(err)
	}
}
