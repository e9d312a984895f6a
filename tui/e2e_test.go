package tui

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skytui/skytui/keystore"
)

// The end-to-end tests run the BUILT binary in tmux against `skytui
// sandbox`, through the scripts in testdata/e2e (which can be run by hand;
// see their headers). Without tmux they are skipped, except in CI
// (CI=true), where that is a failure.

// e2ePrereqs skips (or, in CI, fails) when the end-to-end tests cannot run.
func e2ePrereqs(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is required in CI for the end-to-end tests (apt-get install tmux)")
		}
		t.Skip("tmux is not installed: skipping the end-to-end test (apt-get install tmux)")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("bash is required in CI for the end-to-end tests")
		}
		t.Skip("bash is not installed")
	}
	return bash
}

// e2eBuild builds the binary into a temporary directory.
func e2eBuild(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "skytui")
	build := exec.Command("go", "build", "-o", bin, "github.com/skytui/skytui")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

// e2eRun runs a script of testdata/e2e with env (nothing else of the
// test's environment but PATH) and work as its E2E_WORK. On failure it
// logs every screen capture the script took, the sandbox log and the argv
// it saw, and fails the test. It returns the script's output.
func e2eRun(t *testing.T, bash, script, work string, env []string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("..", "testdata", "e2e", script))
	if err != nil {
		t.Fatal(err)
	}
	// the scripts bound every wait; this bounds a script that hangs anyway
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, path)
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) } // its trap cleans up
	cmd.WaitDelay = 15 * time.Second
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "E2E_WORK=" + work}, env...)
	if v := os.Getenv("E2E_TIMEOUT"); v != "" {
		cmd.Env = append(cmd.Env, "E2E_TIMEOUT="+v)
	}
	start := time.Now()
	out, err := cmd.CombinedOutput()
	if err != nil {
		for _, f := range []string{"captures.txt", "sandbox.log", "cmdlines.txt"} {
			b, _ := os.ReadFile(filepath.Join(work, f))
			t.Logf("---- %s ----\n%s", f, b)
		}
		// the script's own words first: a long log is cut from the top
		var why []string
		for _, l := range strings.Split(string(out), "\n") {
			if strings.Contains(l, "e2e FAILED") {
				why = append(why, l)
			}
		}
		t.Fatalf("%s failed after %s: %v\n%s\n%s", script, time.Since(start).Round(time.Second), err, strings.Join(why, "\n"), out)
	}
	t.Logf("%s (%s)", strings.TrimSpace(string(out)), time.Since(start).Round(100*time.Millisecond))
	// the script's tmux socket (named after its PID) is gone with it
	tmp := os.Getenv("TMUX_TMPDIR")
	if tmp == "" {
		tmp = "/tmp"
	}
	left, _ := filepath.Glob(filepath.Join(tmp, fmt.Sprintf("tmux-%d", os.Getuid()), fmt.Sprintf("skytui-*-%d-*", cmd.Process.Pid)))
	if len(left) > 0 {
		t.Errorf("%s left its tmux socket behind: %v", script, left)
	}
	return string(out)
}

// TestE2EServices: the Services screen in tmux: listed, header, help, a
// service created through the form becomes ready, q quits.
func TestE2EServices(t *testing.T) {
	bash := e2ePrereqs(t)
	bin := e2eBuild(t)
	e2eRun(t, bash, "services.sh", t.TempDir(), []string{"SKYTUI_BIN=" + bin})
}

// TestE2ESignals: skytui run from an interactive bash in tmux ends on
// SIGHUP, SIGINT, SIGQUIT and SIGTERM (the first and third sent twice) with
// the terminal restored (main screen, cursor shown, echo and icanon) and
// exit status 128 + the signal; ctrl+z suspends to the shell and fg
// resumes without the shell's input in the UI, --accessible too.
func TestE2ESignals(t *testing.T) {
	bash := e2ePrereqs(t)
	bin := e2eBuild(t)
	e2eRun(t, bash, "signals.sh", t.TempDir(), []string{"SKYTUI_BIN=" + bin, "E2E_WIDTH=80", "E2E_HEIGHT=24"})
}

// TestE2ELive runs the built binary with the built-in skysql profile (the
// live service's prefixes) against `skytui sandbox`, at 80x24 and 60x16.
func TestE2ELive(t *testing.T) {
	bash := e2ePrereqs(t)
	bin := e2eBuild(t)
	for _, size := range [][2]int{{80, 24}, {60, 16}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			e2eRun(t, bash, "live.sh", t.TempDir(), []string{"SKYTUI_BIN=" + bin,
				fmt.Sprintf("E2E_WIDTH=%d", size[0]), fmt.Sprintf("E2E_HEIGHT=%d", size[1])})
		})
	}
}

// TestE2EHostile runs the built binary against `skytui sandbox --hostile`
// (control sequences in every text the API sends, a 5,000-character
// service name) at 80x24 and scans the terminal's raw output, the OSC 52
// copies and the stderr of a refused `auth login` for anything injected;
// the confirmation dialog's buttons are checked at 60x16 too.
func TestE2EHostile(t *testing.T) {
	bash := e2ePrereqs(t)
	if _, err := exec.LookPath("perl"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("perl is required in CI for the hostile end-to-end test")
		}
		t.Skip("perl is not installed")
	}
	bin := e2eBuild(t)
	e2eRun(t, bash, "hostile.sh", t.TempDir(), []string{"SKYTUI_BIN=" + bin, "E2E_WIDTH=80", "E2E_HEIGHT=24"})
}

func randomHex(t *testing.T, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// e2eSecret is one real-looking secret of a tour: a recognisable prefix
// and a random part.
type e2eSecret struct {
	what, prefix, random string
}

func (s e2eSecret) value() string { return s.prefix + s.random }

// fragmentLen: any run of this many characters of a secret's random part
// counts as a leak (a screen truncates a long value to its column, "~"
// after it). 12 hex digits: a chance match is about 1 in 10^14 per place.
const fragmentLen = 12

// e2eSecrets are the secrets of one tour.
type e2eSecrets struct {
	apiKey, s3Secret, gcsBody e2eSecret
}

func (s e2eSecrets) all() []e2eSecret { return []e2eSecret{s.apiKey, s.s3Secret, s.gcsBody} }

// leak reports the first way b shows a secret: whole, base64-encoded (how
// bucket credentials travel), or a fragment of its random part.
func (s e2eSecrets) leak(b []byte) (string, int) {
	for _, sec := range s.all() {
		if i := bytes.Index(b, []byte(sec.value())); i >= 0 {
			return sec.what, i
		}
		if i := bytes.Index(b, []byte(base64.StdEncoding.EncodeToString([]byte(sec.value())))); i >= 0 {
			return "base64 of " + sec.what, i
		}
		for j := 0; j+fragmentLen <= len(sec.random); j++ {
			if i := bytes.Index(b, []byte(sec.random[j:j+fragmentLen])); i >= 0 {
				return fmt.Sprintf("%d characters of %s", fragmentLen, sec.what), i
			}
		}
	}
	return "", -1
}

// TestE2ETour drives the built binary through every screen and the long
// operations (service -> ready, backup -> completed, restore -> Succeeded,
// point-in-time restore -> Succeeded, a schedule edited and deleted,
// replication -> IO Yes / SQL Yes, the service stopped, started, scaled
// and deleted) at 80x24 and 160x48, with real secrets
// in a real keystore backend (the kernel keyring; the encrypted file with
// its passphrase typed into tmux where keyctl is blocked, or with
// E2E_SECRETS_BACKEND=file), then scans every screen, log, argv and file
// written for the secrets.
func TestE2ETour(t *testing.T) {
	bash := e2ePrereqs(t)
	backend := os.Getenv("E2E_SECRETS_BACKEND")
	if backend == keystore.BackendKeyctl {
		if err := keyctlUsable(); err != nil {
			if os.Getenv("CI") == "true" {
				t.Fatalf("E2E_SECRETS_BACKEND=keyctl, and the kernel keyring is unusable here: %v", err)
			}
			t.Skipf("E2E_SECRETS_BACKEND=keyctl, and the kernel keyring is unusable here: %v", err)
		}
	}
	if backend == "" {
		backend = keystore.BackendFile
		if err := keyctlUsable(); err == nil {
			backend = keystore.BackendKeyctl
		} else {
			t.Logf("the kernel keyring is unusable here (%v): the encrypted file backend is used, its passphrase typed into tmux", err)
		}
	}
	bin := e2eBuild(t)
	for _, size := range [][2]int{{80, 24}, {160, 48}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			e2eTour(t, bash, bin, backend, size[0], size[1])
		})
	}
}

func e2eTour(t *testing.T, bash, bin, backend string, width, height int) {
	work := t.TempDir()
	tag := randomHex(t, 3)
	sec := e2eSecrets{
		apiKey:   e2eSecret{"the API key", "skysql.e2e.", randomHex(t, 32)},
		s3Secret: e2eSecret{"the S3 secret access key", "s3e2e", randomHex(t, 20)},
		gcsBody:  e2eSecret{"the GCS private key body", "MIIE2EPRIVATEKEYBODY", strings.ToUpper(randomHex(t, 24))},
	}
	input := filepath.Join(work, "input") // the test's own fixtures: not scanned
	if err := os.MkdirAll(input, 0o700); err != nil {
		t.Fatal(err)
	}
	keyFile := filepath.Join(input, "sa.json")
	doc := `{"type":"service_account","project_id":"e2e","private_key_id":"0",` +
		`"private_key":"-----BEGIN PRIVATE KEY-----\n` + sec.gcsBody.value() + `\n-----END PRIVATE KEY-----\n",` +
		`"client_email":"e2e@e2e.iam.gserviceaccount.com","client_id":"1"}`
	if err := os.WriteFile(keyFile, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	if backend == keystore.BackendKeyctl {
		// what the tour stores, and how skytui removes it (the index of
		// bucket credentials follows)
		left := map[string][]string{
			"apikey/e2e-" + tag:     {"auth", "logout", "--profile", "e2e-" + tag},
			"bucket/e2e-s3-" + tag:  {"creds", "remove", "e2e-s3-" + tag},
			"bucket/e2e-gcs-" + tag: {"creds", "remove", "e2e-gcs-" + tag},
		}
		indexBefore := keyctlExists("meta/index")
		t.Cleanup(func() {
			keyctlCleanup(t, left, !indexBefore, func(args []string) error {
				cmd := exec.Command(bin, args...)
				cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(work, "home"),
					"XDG_CONFIG_HOME=" + filepath.Join(work, "config"), "XDG_STATE_HOME=" + filepath.Join(work, "state"),
					"SKYTUI_SECRETS_BACKEND=keyctl"}
				out, err := cmd.CombinedOutput()
				if err != nil {
					return fmt.Errorf("skytui %s: %v: %s", strings.Join(args, " "), err, out)
				}
				return nil
			})
		})
	}
	env := []string{
		"SKYTUI_BIN=" + bin,
		fmt.Sprintf("E2E_WIDTH=%d", width),
		fmt.Sprintf("E2E_HEIGHT=%d", height),
		"E2E_TAG=" + tag,
		"SKYSQL_API_KEY=" + sec.apiKey.value(),
		"E2E_S3_SECRET=" + sec.s3Secret.value(),
		"E2E_GCS_KEY_FILE=" + keyFile,
		"E2E_KEY_FINGERPRINT=" + keystore.Fingerprint(sec.apiKey.value()),
		"SKYTUI_SECRETS_BACKEND=" + backend,
	}
	if backend == keystore.BackendFile {
		env = append(env, "E2E_PASSPHRASE=e2e-pass-"+randomHex(t, 8))
	}
	e2eRun(t, bash, "tour.sh", work, env)
	e2eScan(t, work, input, sec)
}

// e2eScan checks, after a tour, that no secret appears in any file under
// work but the test's own input: the screen captures, the sandbox's
// output, the argv of every skytui process, the config file, the debug
// log and everything else written under the config, state and home
// directories. It also checks that these are there (an empty scan proves
// nothing), and that the config file and everything under the config and
// state directories are readable by the owner only.
func e2eScan(t *testing.T, work, input string, sec e2eSecrets) {
	t.Helper()
	scanned := map[string]bool{}
	err := filepath.WalkDir(work, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(work, path)
		if path == input {
			return filepath.SkipDir
		}
		if !d.Type().IsRegular() { // directories; FIFOs are gone, sockets hold no text
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if what, i := sec.leak(b); i >= 0 {
			t.Errorf("%s appears in %s (line %d)", what, rel, bytes.Count(b[:i], []byte("\n"))+1)
		}
		scanned[filepath.ToSlash(rel)] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"captures.txt", "sandbox.log", "cmdlines.txt",
		"config/skytui/config.toml", "state/skytui/debug.log"} {
		if !scanned[want] {
			t.Errorf("%s was not written, so it was not scanned", want)
		}
	}
	read := func(rel string) string {
		b, _ := os.ReadFile(filepath.Join(work, rel))
		return string(b)
	}
	// the scan covered the real thing: many screens, requests that carried
	// the key, the argv of the running TUI and sandbox
	if n := strings.Count(read("captures.txt"), "\n==== "); n < 50 {
		t.Errorf("only %d screen captures were taken", n)
	}
	if !strings.Contains(read("state/skytui/debug.log"), "X-Api-Key=[REDACTED]") {
		t.Error("the debug log shows no request with its key redacted")
	}
	cmdlines := read("cmdlines.txt")
	for _, want := range []string{"tui running pid", "sandbox pid", " --profile e2e-", " sandbox --listen "} {
		if !strings.Contains(cmdlines, want) {
			t.Errorf("no argv with %q was read from /proc:\n%s", want, cmdlines)
		}
	}
	// owner only
	cfg := filepath.Join(work, "config", "skytui", "config.toml")
	if st, err := os.Stat(cfg); err != nil {
		t.Error(err)
	} else if st.Mode().Perm() != 0o600 {
		t.Errorf("the config file is mode %v, want 0600", st.Mode().Perm())
	}
	for _, dir := range []string{"config", "state"} {
		_ = filepath.WalkDir(filepath.Join(work, dir, "skytui"), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if st, err := d.Info(); err == nil && st.Mode().Perm()&0o077 != 0 {
				rel, _ := filepath.Rel(work, path)
				t.Errorf("%s is mode %v: readable by others", rel, st.Mode().Perm())
			}
			return nil
		})
	}
}
