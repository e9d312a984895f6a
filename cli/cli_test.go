package cli

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/skytui/skytui/api/replsetup"
	"github.com/skytui/skytui/config"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/sandbox"
)

const goodKey = "skysql.1zzz.test.5aXjdy87c113e7"

type harness struct {
	t       *testing.T
	url     string
	secrets string
	cfgPath string
	// setupSteps stands in front of replication setup's engine (env.setupSteps)
	setupSteps func(*replsetup.Engine) setupSteps
}

// serveHarness serves a sandbox made with opts (and the key goodKey) on
// loopback, keeps the config file and the secrets in a temporary
// directory, and sets SKYSQL_API_KEY to envKey ("" for none).
func serveHarness(t *testing.T, opts sandbox.Options, envKey string) (*harness, *sandbox.Server) {
	t.Helper()
	opts.APIKey = goodKey
	sb := sandbox.New(opts)
	url, err := sb.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sb.Close() })
	dir := t.TempDir()
	h := &harness{t: t, url: url, secrets: filepath.Join(dir, "secrets.age"), cfgPath: filepath.Join(dir, "config.toml")}
	t.Setenv(config.EnvConfig, h.cfgPath)
	t.Setenv(keystore.EnvAPIKey, envKey)
	return h, sb
}

// newHarness serves an empty sandbox; no key is in the environment.
func newHarness(t *testing.T) *harness {
	t.Helper()
	h, _ := serveHarness(t, sandbox.Options{}, "")
	return h
}

// run executes the command line with stdin and returns stdout followed by
// stderr, and the error.
func (h *harness) run(stdin string, args ...string) (string, error) {
	h.t.Helper()
	stdout, stderr, err := h.runSplitStdin(stdin, args...)
	return stdout + stderr, err
}

// addProfile puts a profile name at the sandbox's URL in the config file,
// with a new profile's defaults (the interface document's prefixes).
func (h *harness) addProfile(name string) {
	h.t.Helper()
	cfg, err := config.LoadFile(h.cfgPath)
	if err == nil {
		err = cfg.Upsert(config.NewProfile(name, h.url))
	}
	if err == nil {
		err = cfg.SaveFile(h.cfgPath)
	}
	if err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) noSecretOnDisk(secrets ...string) {
	h.t.Helper()
	for _, p := range []string{h.cfgPath, h.secrets} {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		for _, s := range secrets {
			if bytes.Contains(b, []byte(s)) {
				h.t.Errorf("%s holds a secret in clear text", p)
			}
		}
	}
}

func TestAuthLoginChecksAndStoresKey(t *testing.T) {
	h := newHarness(t)
	out, err := h.run(goodKey+"\n", "auth", "login", "--profile", "lab", "--api-url", h.url)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "Stored the API key of profile lab") || !strings.Contains(out, keystore.Fingerprint(goodKey)) {
		t.Errorf("output: %s", out)
	}
	if strings.Contains(out, goodKey) {
		t.Fatal("the key was printed")
	}
	cfg, err := config.LoadFile(h.cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if p, err := cfg.Profile("lab"); err != nil || p.BaseURL != h.url {
		t.Errorf("profile not saved: %+v %v", p, err)
	}
	st, err := os.Stat(h.cfgPath)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("config file mode: %v %v", st.Mode(), err)
	}
	h.noSecretOnDisk(goodKey)

	out, err = h.run("", "auth", "status", "--profile", "lab")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"profile:   lab", h.url, keystore.Fingerprint(goodKey), "encrypted file"} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, goodKey) {
		t.Fatal("status printed the key")
	}

	out, err = h.run("", "auth", "logout", "--profile", "lab")
	if err != nil || !strings.Contains(out, "Removed the API key") {
		t.Fatalf("logout: %v %s", err, out)
	}
	out, _ = h.run("", "auth", "status", "--profile", "lab")
	if !strings.Contains(out, "API key:   none") {
		t.Errorf("after logout: %s", out)
	}
}

func TestAuthLoginRefusedKeyStoresNothing(t *testing.T) {
	h := newHarness(t)
	out, err := h.run("wrong-key\n", "auth", "login", "--profile", "lab", "--api-url", h.url)
	if err == nil || !strings.Contains(err.Error(), "refused") || !strings.Contains(err.Error(), "nothing was stored") {
		t.Fatalf("want refusal, got %v\n%s", err, out)
	}
	if _, err := os.Stat(h.secrets); err == nil {
		t.Error("a refused key must not create the secrets file")
	}
	if strings.Contains(err.Error(), "wrong-key") {
		t.Error("the refused key was echoed")
	}
}

// TestAuthLoginUncheckedSaysTheWholeCommand: when the key cannot be
// checked (the API is not reachable), the way round is a whole command,
// because the same check runs at skytui's start, which has no --no-check.
func TestAuthLoginUncheckedSaysTheWholeCommand(t *testing.T) {
	h := newHarness(t)
	_, err := h.run(goodKey+"\n", "auth", "login", "--profile", "lab", "--api-url", "http://127.0.0.1:1")
	// with the URL given: the key is stored for that endpoint (a hint
	// without it stored it under the profile's old URL, or none)
	if err == nil || !strings.Contains(err.Error(), "nothing was stored (`skytui auth login --profile lab --no-check --api-url http://127.0.0.1:1` stores it without the check)") {
		t.Fatalf("err %v", err)
	}
}

func TestAuthLoginRefusesPlainHTTP(t *testing.T) {
	h := newHarness(t)
	_, err := h.run(goodKey+"\n", "auth", "login", "--profile", "x", "--api-url", "http://api.example.com")
	if err == nil || !strings.Contains(err.Error(), "HTTPS is required") {
		t.Fatalf("err %v", err)
	}
}

func TestCredsAddListRemove(t *testing.T) {
	h := newHarness(t)
	const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	out, err := h.run(secret+"\n", "creds", "add", "s3", "backups", "--access-key-id", "AKIAIOSFODNN7EXAMPLE", "--region", "eu-west-1")
	if err != nil {
		t.Fatalf("%v %s", err, out)
	}
	keyFile := filepath.Join(t.TempDir(), "sa.json")
	const pk = "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n-----END PRIVATE KEY-----\\n"
	doc := `{"type": "service_account", "project_id": "p", "client_email": "bk@p.iam.gserviceaccount.com", "private_key": "` + pk + `"}`
	if err := os.WriteFile(keyFile, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := h.run("", "creds", "add", "gcs", "gcs-main", "--key-file", keyFile); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	out, err = h.run("", "creds", "list")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"backups", "s3", "AKIAIOSFODNN7EXAMPLE (eu-west-1)", "gcs-main", "bk@p.iam.gserviceaccount.com"} {
		if !strings.Contains(out, want) {
			t.Errorf("list lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, secret) || strings.Contains(out, "MIIEvQ") {
		t.Fatal("list printed a secret")
	}
	h.noSecretOnDisk(secret, "MIIEvQ")
	if out, err := h.run("", "creds", "remove", "backups"); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	out, _ = h.run("", "creds", "list")
	if strings.Contains(out, "AKIAIOSFODNN7EXAMPLE") || !strings.Contains(out, "gcs-main") {
		t.Errorf("after remove:\n%s", out)
	}
}

func TestCredsRejectsBadInputNamingTheField(t *testing.T) {
	h := newHarness(t)
	_, err := h.run("secret\n", "creds", "add", "s3", "x", "--access-key-id", "AKIAIOSFODNN7EXAMPLE", "--region", "nowhere")
	if err == nil || !strings.Contains(err.Error(), "--region: not a region") {
		t.Errorf("bad region: %v", err)
	}
	bad := filepath.Join(t.TempDir(), "user.json")
	_ = os.WriteFile(bad, []byte(`{"type":"authorized_user"}`), 0o600)
	_, err = h.run("", "creds", "add", "gcs", "y", "--key-file", bad)
	if err == nil || !strings.Contains(err.Error(), "service_account") {
		t.Errorf("non service-account key: %v", err)
	}
}

// TestCredsExitStatuses: creds add's and remove's bad input is a usage
// error (exit 2) naming the flag or the rule; removing a name that is not
// stored is not found (exit 4), said in a sentence, not the keystore's
// error; nothing is stored by a refused add.
func TestCredsExitStatuses(t *testing.T) {
	h := newHarness(t)
	notJSON := filepath.Join(t.TempDir(), "key.txt")
	_ = os.WriteFile(notJSON, []byte("not json"), 0o600)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"creds", "add", "gcs", "bad name", "--key-file", notJSON}, exitUsage, `skytui: invalid bucket credential name "bad name": use letters, digits`},
		{[]string{"creds", "add", "s3", "bad/name", "--access-key-id", "AKIAIOSFODNN7EXAMPLE", "--region", "eu-west-1"}, exitUsage, `skytui: invalid bucket credential name "bad/name"`},
		{[]string{"creds", "add", "gcs", "nightly"}, exitUsage, "skytui: --key-file is required: the service account's JSON key file\n"},
		{[]string{"creds", "add", "gcs", "nightly", "--key-file", notJSON + ".missing"}, exitUsage, "skytui: --key-file: open " + notJSON + ".missing: no such file or directory\n"},
		{[]string{"creds", "add", "gcs", "nightly", "--key-file", notJSON}, exitUsage, `skytui: invalid GCS credential "nightly": `},
		{[]string{"creds", "remove", "nosuch"}, exitNotFound, "skytui: no stored bucket credential nosuch (see `skytui creds list`)\n"},
	} {
		h.fails(c.code, c.want, c.args...)
	}
	if out, err := h.run("", "creds", "list", "--no-headers"); err != nil || out != "" {
		t.Errorf("stored by refused adds: %v %q", err, out)
	}
}

// TestCredsAddRefusesANameInUse: creds add under a name that is stored
// already is refused (exit 3) before the secret is asked, naming
// --replace; with --replace the new one takes its place, as the TUI's
// "Replace credential NAME?".
func TestCredsAddRefusesANameInUse(t *testing.T) {
	h := newHarness(t)
	add := func(keyID string, more ...string) []string {
		return append([]string{"creds", "add", "s3", "nightly", "--access-key-id", keyID, "--region", "eu-west-1"}, more...)
	}
	if out, err := h.run("secret-one\n", add("AKIAFIRST0000000")...); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	h.fails(exitRefused, "skytui: a bucket credential named nightly is stored already: pass --replace to replace it (nothing was stored)\n", add("AKIASECOND000000")...)
	if out, _ := h.run("", "creds", "list"); !strings.Contains(out, "AKIAFIRST0000000") || strings.Contains(out, "AKIASECOND000000") {
		t.Errorf("after the refusal:\n%s", out)
	}
	if out, err := h.run("secret-two\n", add("AKIASECOND000000", "--replace")...); err != nil {
		t.Fatalf("--replace: %v %s", err, out)
	}
	if out, _ := h.run("", "creds", "list"); strings.Contains(out, "AKIAFIRST0000000") || !strings.Contains(out, "AKIASECOND000000") {
		t.Errorf("after --replace:\n%s", out)
	}
}

func TestSandboxFlagsValidated(t *testing.T) {
	h := newHarness(t)
	if _, err := h.run("", "sandbox", "--faults", "error=2"); err == nil {
		t.Error("an error rate of 2 must be refused")
	}
	if _, err := h.run("", "sandbox", "--listen", "0.0.0.0:8080"); err == nil || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("a sandbox on every interface must be refused: %v", err)
	}
	if _, err := h.run("", "sandbox", "--time-scale", "0"); err == nil {
		t.Error("time scale 0 must be refused")
	}
	if _, err := h.run("", "--refresh", "1s"); err == nil || !strings.Contains(err.Error(), "at least 2s") {
		t.Errorf("refresh floor: %v", err)
	}
}

func TestProfileSwitcher(t *testing.T) {
	h := labHarness(t)
	cfg, err := config.LoadFile(h.cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	ro := config.NewProfile("audit", h.url)
	ro.ReadOnly = true
	if err := cfg.Upsert(ro); err != nil {
		t.Fatal(err)
	}
	if err := cfg.SaveFile(h.cfgPath); err != nil {
		t.Fatal(err)
	}
	e := h.newEnv("", &bytes.Buffer{}, &bytes.Buffer{})
	s, err := e.openSession("lab", "")
	if err != nil {
		t.Fatal(err)
	}
	sw := e.profileSwitcher(s, false, slog.New(slog.DiscardHandler))
	p, err := sw("lab")
	if err != nil || p.Client == nil || p.ReadOnly {
		t.Fatalf("switch to lab: %+v %v", p, err)
	}
	if err := p.Client.Check(context.Background()); err != nil {
		t.Errorf("the switched client must carry lab's key: %v", err)
	}
	// a profile without a key opens with its client (no key) and the
	// keystore's not-found, so the UI asks for the key instead of failing
	if p, err := sw("audit"); err == nil || !strings.Contains(err.Error(), "auth login --profile audit") ||
		!errors.Is(err, keystore.ErrNotFound) || p.Client == nil || p.Name != "audit" || !p.ReadOnly {
		t.Errorf("a profile without a key must say how to add one and come with its client: %+v %v", p, err)
	}
	if _, err := sw("nope"); err == nil || !strings.Contains(err.Error(), "not found") {
		t.Errorf("unknown profile: %v", err)
	}
	if err := s.store.SetAPIKey("audit", goodKey); err != nil {
		t.Fatal(err)
	}
	if p, err := sw("audit"); err != nil || !p.ReadOnly {
		t.Errorf("a read-only profile stays read-only after a switch: %+v %v", p, err)
	}
}

func TestDemoSecretsAreLabelledAndSeeded(t *testing.T) {
	st, err := demoSecrets()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(st.Backend().Label(), "demo") {
		t.Errorf("label %q must say it is the demo's", st.Backend().Label())
	}
	infos, err := st.ListBucketCredentials()
	if err != nil || len(infos) != 2 {
		t.Fatalf("%v %v", infos, err)
	}
}

// TestSandboxKeyFromEnvironment: without --api-key the sandbox takes the key
// from SKYSQL_API_KEY (so it stays out of the process list) and never
// prints it; with neither, it makes one up and prints it.
func TestSandboxKeyFromEnvironment(t *testing.T) {
	const key = "skysql.env.only.0123456789abcdef"
	run := func() string {
		var out bytes.Buffer
		e := &env{version: "test", stdout: &out, stderr: &out}
		ctx, cancel := context.WithCancel(context.Background())
		cancel() // serve, print, and return at once
		if err := e.runSandbox(ctx, sandboxFlags{listen: "127.0.0.1:0", opts: sandbox.Options{TimeScale: 1}}); err != nil {
			t.Fatal(err)
		}
		return out.String()
	}
	t.Setenv(keystore.EnvAPIKey, key)
	out := run()
	if strings.Contains(out, key) {
		t.Fatalf("the sandbox printed the key from the environment:\n%s", out)
	}
	if !strings.Contains(out, "API key: the value of SKYSQL_API_KEY ("+keystore.Fingerprint(key)+")") {
		t.Fatalf("the sandbox does not say which key it accepts:\n%s", out)
	}
	t.Setenv(keystore.EnvAPIKey, "")
	if out := run(); !strings.Contains(out, "API key: sandbox.") {
		t.Fatalf("with no key anywhere the sandbox must print the one it made up:\n%s", out)
	}
}

// runSplit is run with stdout and stderr apart, and nothing on stdin.
func (h *harness) runSplit(args ...string) (stdout, stderr string, err error) {
	h.t.Helper()
	return h.runSplitStdin("", args...)
}

func TestConfigWarningsPrintedOnStderr(t *testing.T) {
	h := newHarness(t)
	body := "colour = \"blue\"\n\n[[profile]]\nname = \"lab\"\nbase_url = \"" + h.url + "\"\nbase_ur = \"typo\"\n"
	if err := os.WriteFile(h.cfgPath, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := h.runSplit("auth", "status", "--profile", "lab")
	if err != nil {
		t.Fatalf("%v\n%s%s", err, stdout, stderr)
	}
	want := "skytui: warning: " + h.cfgPath + ":1: unknown key \"colour\"\n" +
		"skytui: warning: " + h.cfgPath + ":6: unknown key \"base_ur\" in [[profile]] \"lab\" (did you mean \"base_url\"?)\n"
	if stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
	if !strings.Contains(stdout, "profile:   lab") || strings.Contains(stdout, "warning") {
		t.Errorf("stdout:\n%s", stdout)
	}

	// The TUI start (the root command): the warning comes before the error
	// it explains, and the UI never starts.
	body = "default_profile = \"lab\"\n\n[[profiles]]\nname = \"lab\"\nbase_url = \"" + h.url + "\"\n"
	if err := os.WriteFile(h.cfgPath, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	_, stderr, err = h.runSplit()
	if err == nil || !strings.Contains(err.Error(), `default_profile: profile "lab" not found`) {
		t.Fatalf("err = %v", err)
	}
	if want := "skytui: warning: " + h.cfgPath + ":3: unknown table \"profiles\" (did you mean \"profile\"?)\n"; stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
}

func TestConfigWarningsPrintedOnce(t *testing.T) {
	h := newHarness(t)
	body := "[[profile]]\nname = \"lab\"\nbase_url = \"" + h.url + "\"\nbell_sound = true\n"
	if err := os.WriteFile(h.cfgPath, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	var errOut bytes.Buffer
	e := &env{version: "test", stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &errOut, loadConfig: config.Load,
		openStore: func(keystore.PassphraseFunc) (*keystore.Store, error) {
			return keystore.Open(keystore.Options{Backends: []keystore.Backend{keystore.NewMemoryBackend("memory (test)")}})
		}}
	// runTUI opens a session, then auth login (a first key) opens another
	for range 2 {
		s, err := e.openSession("lab", "")
		if err != nil {
			t.Fatal(err)
		}
		if len(s.cfg.Warnings) != 1 {
			t.Fatalf("warnings = %q", s.cfg.Warnings)
		}
	}
	want := "skytui: warning: " + h.cfgPath + ":4: unknown key \"bell_sound\" in [[profile]] \"lab\" (did you mean \"bell\"?)\n"
	if errOut.String() != want {
		t.Errorf("stderr:\n%s\nwant once:\n%s", errOut.String(), want)
	}
}

// TestAuthLoginKeepsWhatTheUserWrote: adding a profile, and changing one's
// org, leaves the comments and unknown keys of the config file in place;
// a symbolic link to the file stays a link.
func TestAuthLoginKeepsWhatTheUserWrote(t *testing.T) {
	h := newHarness(t)
	realPath := filepath.Join(t.TempDir(), "dotfiles-skytui.toml")
	body := "# my profiles, see the wiki\n[[profile]]\nname = \"prod\" # the real one\nbase_url = \"" + h.url + "\"\ncolour = \"blue\"\n"
	if err := os.WriteFile(realPath, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(realPath, h.cfgPath); err != nil {
		t.Fatal(err)
	}
	out, err := h.run(goodKey+"\n", "auth", "login", "--profile", "lab", "--api-url", h.url)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	out, err = h.run(goodKey+"\n", "auth", "login", "--profile", "prod", "--org", "acme")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if fi, err := os.Lstat(h.cfgPath); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the config symlink was replaced by a file: %v", err)
	}
	got, _ := os.ReadFile(realPath)
	want := "# my profiles, see the wiki\n[[profile]]\nname = \"prod\" # the real one\nbase_url = \"" + h.url + "\"\ncolour = \"blue\"\norg = \"acme\"\n" +
		"\n[[profile]]\nname = \"lab\"\nbase_url = \"" + h.url + "\"\n"
	if string(got) != want {
		t.Fatalf("config file:\n%s\nwant:\n%s", got, want)
	}
	h.noSecretOnDisk(goodKey)
}

// TestAuthLoginPrintsLinesItCannotWrite: profiles written as inline tables
// are not rewritten; the key is stored and the lines to add are printed.
func TestAuthLoginPrintsLinesItCannotWrite(t *testing.T) {
	h := newHarness(t)
	body := "# mine\nprofile = [{ name = \"prod\", base_url = \"" + h.url + "\" }]\n"
	if err := os.WriteFile(h.cfgPath, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, err := h.runSplitStdin(goodKey+"\n", "auth", "login", "--profile", "lab", "--api-url", h.url)
	if err == nil || err.Error() != "the API key is stored, but profile lab is not in the config file "+h.cfgPath+" until you make the change above" {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(stdout, "Stored the API key of profile lab") {
		t.Errorf("stdout: %s", stdout)
	}
	want := "skytui: config " + h.cfgPath + " left unchanged (its profiles are not all [[profile]] tables); add or change these lines yourself:\n" +
		"# add at the end:\n[[profile]]\nname = \"lab\"\nbase_url = \"" + h.url + "\"\n"
	if stderr != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr, want)
	}
	if got, _ := os.ReadFile(h.cfgPath); string(got) != body {
		t.Errorf("the config file was changed:\n%s", got)
	}
}

func TestConfigOthersCanWriteIsRefused(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix modes")
	}
	h := newHarness(t)
	t.Setenv("HOME", t.TempDir()) // the hint names the path as it is
	if err := os.WriteFile(h.cfgPath, []byte("[[profile]]\nname = \"lab\"\nbase_url = \""+h.url+"\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(h.cfgPath, 0o666); err != nil {
		t.Fatal(err)
	}
	out, err := h.run(goodKey+"\n", "auth", "login", "--profile", "lab")
	if err == nil || !strings.Contains(err.Error(), "config "+h.cfgPath+": mode 0666 lets other users change it") || !strings.Contains(err.Error(), "(fix: chmod go-w "+h.cfgPath+")") {
		t.Fatalf("err = %v\n%s", err, out)
	}
	if _, err := os.Stat(h.secrets); err == nil {
		t.Error("a key was stored for a profile read from a file others can change")
	}
	if err := os.Chmod(h.cfgPath, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := h.run(goodKey+"\n", "auth", "login", "--profile", "lab"); err != nil {
		t.Fatalf("mode 0600: %v\n%s", err, out)
	}
}

// newEnv is the command line's environment in the harness: the config
// file's path from the environment, the secrets file in the temporary
// directory, its passphrase given without a prompt.
func (h *harness) newEnv(stdin string, stdout, stderr io.Writer) *env {
	return &env{version: "test", stdin: strings.NewReader(stdin), stdout: stdout, stderr: stderr, loadConfig: config.Load,
		openStore: func(keystore.PassphraseFunc) (*keystore.Store, error) {
			return keystore.Open(keystore.Options{Backend: "file", FilePath: h.secrets, FileWorkFactor: 10,
				Passphrase: func(string, bool) (string, error) { return "correct horse battery", nil }})
		}, setupSteps: h.setupSteps}
}

// runSplitStdin is runSplit with stdin.
func (h *harness) runSplitStdin(stdin string, args ...string) (stdout, stderr string, err error) {
	h.t.Helper()
	var out, errOut bytes.Buffer
	e := h.newEnv(stdin, &out, &errOut)
	cmd := newRootCmd(e)
	cmd.SetArgs(args)
	err = e.execute(context.Background(), cmd)
	return out.String(), errOut.String(), err
}

// TestKeystoreSaysWhereEachSecretIs: what an SSH session stored in the
// kernel keyring is read, listed and removed once the Secret Service is
// the backend in use, and each output says where each secret is.
func TestKeystoreSaysWhereEachSecretIs(t *testing.T) {
	h := newHarness(t)
	kc := keystore.NewMemoryBackend("kernel keyring (kept until reboot)")
	ss := keystore.NewMemoryBackend("Secret Service (OS keyring)")
	run := func(backends []keystore.Backend, stdin string, args ...string) string {
		t.Helper()
		var out bytes.Buffer
		e := h.newEnv(stdin, &out, io.Discard)
		e.openStore = func(keystore.PassphraseFunc) (*keystore.Store, error) {
			return keystore.Open(keystore.Options{Backends: backends})
		}
		cmd := newRootCmd(e)
		cmd.SetArgs(args)
		if err := cmd.ExecuteContext(context.Background()); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out.String())
		}
		return out.String()
	}
	ssh, desk := []keystore.Backend{kc}, []keystore.Backend{ss, kc}
	run(ssh, goodKey+"\n", "auth", "login", "--profile", "lab", "--api-url", h.url)
	run(ssh, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n", "creds", "add", "s3", "archive", "--access-key-id", "AKIAIOSFODNN7EXAMPLE", "--region", "eu-west-1")
	run(desk, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n", "creds", "add", "s3", "nightly", "--access-key-id", "AKIAIOSFODNN7EXAMPL2", "--region", "eu-west-1")
	for _, c := range []struct {
		out  string
		want []string
	}{
		{run(desk, "", "auth", "status", "--profile", "lab"), []string{"API key:   " + keystore.Fingerprint(goodKey) + " from kernel keyring (kept until reboot)\n"}},
		{run(desk, "", "creds", "list"), []string{"STORED IN", "archive  s3    AKIAIOSFODNN7EXAMPLE (eu-west-1)  the kernel keyring", "nightly  s3    AKIAIOSFODNN7EXAMPL2 (eu-west-1)  the Secret Service"}},
		{run(desk, "", "creds", "remove", "archive"), []string{"Removed bucket credential archive from the kernel keyring.\n"}},
		{run(desk, "", "creds", "list"), []string{"(stored in the Secret Service, OS keyring)\n"}},
		{run(desk, "", "auth", "logout", "--profile", "lab"), []string{"Removed the API key of profile lab from the kernel keyring.\n"}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.out, w) {
				t.Errorf("output:\n%s\nwant %q", c.out, w)
			}
		}
	}
}

// TestNothingFoundNamesTheFileNotRead: an API key and a credential kept in
// the encrypted file, looked for while another backend is in use (the file
// not read, its passphrase not asked): auth logout, creds remove and a
// command that needs the key say the file is there and how to read it,
// not only that nothing is stored (following "auth login" would make a
// second copy).
func TestNothingFoundNamesTheFileNotRead(t *testing.T) {
	h := labHarness(t)
	if out, err := h.run("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n", "creds", "add", "s3", "archive", "--access-key-id", "AKIAIOSFODNN7EXAMPLE", "--region", "eu-west-1"); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	asked := 0
	run := func(args ...string) (string, error) {
		t.Helper()
		var out bytes.Buffer
		e := h.newEnv("", &out, &out)
		e.openStore = func(keystore.PassphraseFunc) (*keystore.Store, error) {
			return keystore.Open(keystore.Options{Getenv: func(string) string { return "" }, Backends: []keystore.Backend{
				keystore.NewMemoryBackend("kernel keyring (kept until reboot)"),
				keystore.NewFileBackend(h.secrets, func(string, bool) (string, error) { asked++; return "correct horse battery", nil }, 10),
			}})
		}
		cmd := newRootCmd(e)
		cmd.SetArgs(args)
		err := cmd.ExecuteContext(context.Background())
		if err != nil {
			out.WriteString(err.Error())
		}
		return out.String(), err
	}
	note := "encrypted file " + h.secrets + " exists but was not read (its passphrase is asked only when it is the backend in use: SKYTUI_SECRETS_BACKEND=file)"
	if out, err := run("auth", "logout", "--profile", "lab"); err != nil || out != "Profile lab had no stored API key; "+note+".\n" {
		t.Errorf("auth logout: %v %q", err, out)
	}
	if out, err := run("creds", "remove", "archive"); exitCode(err) != exitNotFound || !strings.HasSuffix(out, "(see `skytui creds list`); "+note) {
		t.Errorf("creds remove: exit %d %q", exitCode(err), out)
	}
	if out, _ := run("services", "list", "--profile", "lab"); !strings.Contains(out, `no API key for profile "lab" in the keystore read; `+note+"; or run `skytui auth login --profile lab`") {
		t.Errorf("services list: %q", out)
	}
	if out, err := run("creds", "list", "-o", "json"); err != nil || !strings.Contains(out, "skytui: only the credentials of the keystore read are listed; "+note+"\n") {
		t.Errorf("creds list: %v %q", err, out)
	}
	if out, err := run("auth", "status", "--profile", "lab"); err != nil || !strings.Contains(out, "API key:   none in the keystore read; "+note+" (or run `skytui auth login --profile lab`)\n") {
		t.Errorf("auth status: %v %q", err, out)
	}
	if asked != 0 {
		t.Errorf("the file's passphrase was asked %d times", asked)
	}
}

// TestKeystorePlaceReadsAsASentence: the keystore's place is said in a
// sentence, its note as a clause: no "(kept in kernel keyring (kept until
// reboot))", and a removal does not say how long the key would be kept.
func TestKeystorePlaceReadsAsASentence(t *testing.T) {
	h := newHarness(t)
	st, err := keystore.Open(keystore.Options{Backends: []keystore.Backend{keystore.NewMemoryBackend("kernel keyring (kept until reboot)")}})
	if err != nil {
		t.Fatal(err)
	}
	run := func(stdin string, args ...string) string {
		t.Helper()
		var out bytes.Buffer
		e := h.newEnv(stdin, &out, io.Discard)
		e.openStore = func(keystore.PassphraseFunc) (*keystore.Store, error) { return st, nil }
		cmd := newRootCmd(e)
		cmd.SetArgs(args)
		if err := cmd.ExecuteContext(context.Background()); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out.String())
		}
		return out.String()
	}
	for _, c := range []struct {
		out, want string
	}{
		{run(goodKey+"\n", "auth", "login", "--profile", "lab", "--api-url", h.url),
			"Stored the API key of profile lab (" + keystore.Fingerprint(goodKey) + ") in the kernel keyring, kept until reboot.\n"},
		{run("", "creds", "list"), "No bucket credentials in the kernel keyring. Add one with"},
		{run("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n", "creds", "add", "s3", "backups", "--access-key-id", "AKIAIOSFODNN7EXAMPLE", "--region", "eu-west-1"),
			"Stored s3 credential backups in the kernel keyring, kept until reboot.\n"},
		{run("", "creds", "list"), "(stored in the kernel keyring, kept until reboot)\n"},
		{run("", "auth", "logout", "--profile", "lab"), "Removed the API key of profile lab from the kernel keyring.\n"},
	} {
		if !strings.Contains(c.out, c.want) || strings.Contains(c.out, "((") || strings.Contains(c.out, "))") {
			t.Errorf("output %q, want %q", c.out, c.want)
		}
	}
}
