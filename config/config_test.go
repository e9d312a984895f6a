package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
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
	if err == nil || !strings.Contains(err.Error(), path+":4: ") || !strings.Contains(err.Error(), `key "api_key" in [[profile]] "p" looks like a secret`) {
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

func writeConfig(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestUnknownTableWarnsWithLineAndSuggestion(t *testing.T) {
	path := writeConfig(t, `# mine
[[profiles]]
name = "lab"
base_url = "https://lab.example.com"

[[profile]]
name = "prod"
base_url = "https://api.example.com"
`)
	c, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{path + `:2: unknown table "profiles" (did you mean "profile"?)`}
	if !reflect.DeepEqual(c.Warnings, want) {
		t.Fatalf("warnings = %q\nwant       %q", c.Warnings, want)
	}
	if _, err := c.Profile("prod"); err != nil {
		t.Fatalf("the rest of the file did not load: %v", err)
	}
}

func TestUnknownTableExplainsMissingDefaultProfile(t *testing.T) {
	// The README's old example: the profile is under the wrong table name,
	// so default_profile fails; the error carries the warning that says why.
	path := writeConfig(t, "default_profile = \"lab\"\n\n[[profiles]]\nname = \"lab\"\nbase_url = \"https://lab.example.com\"\n")
	_, err := LoadFile(path)
	if err == nil || !strings.Contains(err.Error(), `profile "lab" not found`) {
		t.Fatalf("err = %v", err)
	}
	want := []string{path + `:3: unknown table "profiles" (did you mean "profile"?)`}
	if got := Warnings(err); !reflect.DeepEqual(got, want) {
		t.Fatalf("Warnings(err) = %q, want %q", got, want)
	}
	if Warnings(errors.New("other")) != nil {
		t.Fatal("warnings from a plain error")
	}
}

func TestUnknownKeyInProfileWarns(t *testing.T) {
	path := writeConfig(t, `default_profile = "lab"
colour = "blue"

[[profile]]
name = "prod"
base_url = "https://api.example.com"

[[profile]]
name = "lab"
base_url = "https://lab.example.com"
base_ur = "https://typo.example.com"
refresh = 10
default_profile = "prod"
some_future_option = true
refresh_secs = 10
`)
	c, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		path + `:2: unknown key "colour"`,
		path + `:11: unknown key "base_ur" in [[profile]] "lab" (did you mean "base_url"?)`,
		path + `:12: unknown key "refresh" in [[profile]] "lab" (did you mean "refresh_seconds"?)`,
		path + `:13: unknown key "default_profile" in [[profile]] "lab" (default_profile belongs before the first [[profile]])`,
		path + `:14: unknown key "some_future_option" in [[profile]] "lab"`,
		path + `:15: unknown key "refresh_secs" in [[profile]] "lab" (did you mean "refresh_seconds"?)`,
	}
	if !reflect.DeepEqual(c.Warnings, want) {
		t.Fatalf("warnings:\n%s\nwant:\n%s", strings.Join(c.Warnings, "\n"), strings.Join(want, "\n"))
	}
	if p, _ := c.Profile(""); p.Name != "lab" || p.BaseURL != "https://lab.example.com" || p.RefreshSeconds != 30 {
		t.Fatalf("profile = %+v", p)
	}
}

func TestSecretKeyIsStillAnError(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		// a known table
		{"[[profile]]\nname = \"p\"\nbase_url = \"https://x.example.com\"\napi_key = \"sk-live-1\"\n",
			`:4: key "api_key" in [[profile]] "p" looks like a secret`},
		// inside an unknown table, which is otherwise only a warning
		{"[[profiles]]\nname = \"p\"\ntoken = \"sk-live-1\"\n", `:3: key "profiles.token" looks like a secret`},
		// inside an inline table
		{"[[profile]]\nname = \"p\"\nbase_url = \"https://x.example.com\"\nextra = { client_secret = \"sk-live-1\" }\n",
			`:4: key "extra.client_secret" in [[profile]] "p" looks like a secret`},
		{"[credentials]\nx = 1\n", `:1: table "credentials" looks like a secret`},
	} {
		path := writeConfig(t, c.body)
		_, err := LoadFile(path)
		if err == nil || !strings.Contains(err.Error(), path+c.want) {
			t.Errorf("body %q: err = %v, want %q", c.body, err, path+c.want)
			continue
		}
		if strings.Contains(err.Error(), "sk-live-1") {
			t.Errorf("error leaks the secret: %v", err)
		}
	}
}

func TestValidFileHasNoWarnings(t *testing.T) {
	c := &Config{DefaultProfile: "a"}
	a := NewProfile("a", "https://a.example.com")
	a.Org, a.ReadOnly = "acme", true
	if err := c.Upsert(a); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "config.toml")
	if err := c.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, writeConfig(t, "# empty\n"), filepath.Join(t.TempDir(), "missing.toml")} {
		got, err := LoadFile(p)
		if err != nil || len(got.Warnings) != 0 {
			t.Fatalf("%s: warnings %q, err %v", p, got.Warnings, err)
		}
	}
}

func TestWarningPathUsesTilde(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	path := filepath.Join(home, ".config", "skytui", "config.toml")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("[[profiles]]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join("~", ".config", "skytui", "config.toml") + `:1: unknown table "profiles" (did you mean "profile"?)`
	if len(c.Warnings) != 1 || c.Warnings[0] != want {
		t.Fatalf("warnings = %q, want %q", c.Warnings, want)
	}
}

func TestSuggest(t *testing.T) {
	for in, want := range map[string]string{
		"profiles": "profile", "base_ur": "base_url", "baseURL": "base_url", "readonly": "read_only",
		"refresh": "refresh_seconds", "fast_refresh": "fast_refresh_seconds", "colour": "", "x": "",
	} {
		known := profileKeys
		if in == "profiles" {
			known = topKeys
		}
		if got := suggest(in, known); got != want {
			t.Errorf("suggest(%q) = %q, want %q", in, got, want)
		}
	}
}

var (
	tomlFenceRe  = regexp.MustCompile("(?ms)^```toml\n(.*?)^```")
	readmeNameRe = regexp.MustCompile(`(?m)^\s*name\s*=\s*"([^"]+)"`)
)

// Every ```toml block of the README loads with the real loader, without an
// error or a warning, and declares the profiles it names.
func TestREADMEConfigExamplesLoad(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := tomlFenceRe.FindAllStringSubmatch(string(readme), -1)
	if len(blocks) == 0 {
		t.Fatal("README.md has no ```toml block")
	}
	for i, b := range blocks {
		path := writeConfig(t, b[1])
		c, err := LoadFile(path)
		if err != nil {
			t.Errorf("README toml block %d: %v\nwarnings: %q\n%s", i+1, err, Warnings(err), b[1])
			continue
		}
		if len(c.Warnings) != 0 {
			t.Errorf("README toml block %d warns:\n%s", i+1, strings.Join(c.Warnings, "\n"))
		}
		names := readmeNameRe.FindAllStringSubmatch(b[1], -1)
		if len(names) == 0 {
			t.Errorf("README toml block %d declares no profile", i+1)
		}
		for _, n := range names {
			if !slices.ContainsFunc(c.Profiles, func(p Profile) bool { return p.Name == n[1] }) {
				t.Errorf("README toml block %d: profile %q not loaded (got %v)", i+1, n[1], c.ProfileNames())
			}
		}
		if c.DefaultProfile != "" {
			if _, err := c.Profile(""); err != nil {
				t.Errorf("README toml block %d: %v", i+1, err)
			}
		}
	}
}
