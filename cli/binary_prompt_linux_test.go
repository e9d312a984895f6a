package cli

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// The built binary's prompts on a terminal (a pty it has as its
// controlling terminal): ctrl+c at any of them ends the command at once,
// stores nothing, exits 130 and leaves the terminal's echo on.

// ptyRun is the binary running on a pty.
type ptyRun struct {
	t    *testing.T
	cmd  *exec.Cmd
	ptmx *os.File // the terminal's side: what is typed, what is shown
	tty  *os.File // the program's side, kept open to read its mode after
	out  syncBuffer
	done chan struct{}
	err  error // Wait's, once done is closed
}

// startOnPty starts the binary with args in h's environment on a new pty.
func (h *binSandbox) startOnPty(args ...string) *ptyRun {
	h.t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		h.t.Skipf("no pty: %v", err)
	}
	h.argvs = append(h.argvs, strings.Join(args, " "))
	r := &ptyRun{t: h.t, ptmx: ptmx, tty: tty, done: make(chan struct{})}
	r.cmd = exec.Command(h.bin, args...)
	r.cmd.Env = h.env
	r.cmd.Stdin, r.cmd.Stdout, r.cmd.Stderr = tty, tty, tty
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true}
	if err := r.cmd.Start(); err != nil {
		h.t.Fatal(err)
	}
	go func() { _, _ = io.Copy(&r.out, ptmx) }()
	go func() { r.err = r.cmd.Wait(); close(r.done) }()
	h.t.Cleanup(func() {
		select {
		case <-r.done:
		default:
			_ = r.cmd.Process.Kill()
			<-r.done
		}
		ptmx.Close()
		tty.Close()
		if l := h.leaks(r.out.String()); l != "" {
			h.t.Errorf("%v: a secret (%s) was shown", args, l)
		}
	})
	return r
}

// waitFor waits until the terminal shows s.
func (r *ptyRun) waitFor(s string) {
	r.t.Helper()
	for end := time.Now().Add(10 * time.Second); !strings.Contains(r.out.String(), s); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			r.t.Fatalf("the terminal does not show %q:\n%s", s, r.out.String())
		}
	}
}

// typeIn types s at the terminal.
func (r *ptyRun) typeIn(s string) {
	r.t.Helper()
	if _, err := r.ptmx.WriteString(s); err != nil {
		r.t.Fatal(err)
	}
}

// exit waits (at most 5 s) for the program to end and returns its status.
func (r *ptyRun) exit() int {
	r.t.Helper()
	select {
	case <-r.done:
	case <-time.After(5 * time.Second):
		r.t.Fatalf("still running 5 s after ctrl+c; the terminal shows:\n%s", r.out.String())
	}
	var ee *exec.ExitError
	if errors.As(r.err, &ee) {
		return ee.ExitCode()
	}
	return r.cmd.ProcessState.ExitCode()
}

// echoOn says whether the terminal echoes what is typed.
func (r *ptyRun) echoOn() bool {
	r.t.Helper()
	tio, err := unix.IoctlGetTermios(int(r.tty.Fd()), unix.TCGETS)
	if err != nil {
		r.t.Fatal(err)
	}
	return tio.Lflag&unix.ECHO != 0
}

// interrupt presses ctrl+c at the prompt (at, for the messages): the
// command ends with 130 and the terminal's echo is on.
func (r *ptyRun) interrupt(at string) {
	r.t.Helper()
	r.typeIn("\x03")
	if code := r.exit(); code != 130 {
		r.t.Errorf("ctrl+c at %s: exit %d, want 130", at, code)
	}
	if !r.echoOn() {
		r.t.Errorf("ctrl+c at %s: the terminal's echo is left off", at)
	}
}

// TestBinaryCtrlCEndsAPrompt: ctrl+c at `creds add s3`'s shown prompt, at
// its hidden one and at `auth login`'s key prompt ends the command at
// once with exit 130 (128 + SIGINT, as the README says of signals),
// nothing stored, and the terminal's echo back on.
func TestBinaryCtrlCEndsAPrompt(t *testing.T) {
	h := startBinSandbox(t)
	h.useKeyring()
	name := "bin-ctrlc-" + h.key[len(h.key)-8:]
	stored := func() bool {
		so, _ := h.run(0, "creds", "list", "--no-headers")
		return strings.Contains(so, name)
	}
	t.Cleanup(func() { // should ctrl+c be ignored
		if stored() {
			h.exec("", 0, "creds", "remove", name)
		}
	})

	r := h.startOnPty("creds", "add", "s3", name, "--region", "eu-west-1")
	r.waitFor("Access key ID: ")
	r.interrupt("the access key ID")

	// a bad ID typed (shown, as typed) is refused as the answer typed,
	// not as a flag nobody gave, and not said to be hidden
	r = h.startOnPty("creds", "add", "s3", name, "--region", "eu-west-1")
	r.waitFor("Access key ID: ")
	r.typeIn("akia-bad\r")
	r.waitFor("(nothing was stored)")
	if code := r.exit(); code != 2 || !strings.Contains(r.out.String(), "skytui: the access key ID typed: invalid access key ID: an access key ID is 16 to 128") ||
		strings.Contains(r.out.String(), "--access-key-id") || strings.Contains(r.out.String(), "not shown") {
		t.Errorf("a bad access key ID typed: exit %d\n%s", code, r.out.String())
	}

	r = h.startOnPty("creds", "add", "s3", name, "--region", "eu-west-1")
	r.waitFor("Access key ID: ")
	r.typeIn("AKIAIOSFODNN7EXAMPLE\r")
	r.waitFor("Secret access key: ")
	r.typeIn("wJalrXUtnF")
	time.Sleep(100 * time.Millisecond) // typed before ctrl+c, never shown
	r.interrupt("the secret")
	if strings.Contains(r.out.String(), "wJalrXUtnF") {
		t.Errorf("the secret typed was echoed:\n%s", r.out.String())
	}
	if stored() {
		t.Errorf("credential %s stored after ctrl+c", name)
	}

	r = h.startOnPty("auth", "login", "--profile", "ctrlc", "--api-url", h.url)
	r.waitFor("API key for profile ctrlc")
	r.interrupt("the API key")
	if strings.Contains(r.out.String(), "no-check") || strings.Contains(r.out.String(), "could not check") {
		t.Errorf("auth login after ctrl+c:\n%s", r.out.String())
	}
	h.fails(exitUsage, "--profile ctrlc: ", "auth", "status", "--profile", "ctrlc") // no profile was made

	// the encrypted file's passphrase, asked (on the terminal) when the
	// file is made to store the credential
	h.env = append(h.env[:len(h.env):len(h.env)], "SKYTUI_SECRETS_BACKEND=file")
	r = h.startOnPty("creds", "add", "s3", name, "--region", "eu-west-1", "--access-key-id", "AKIAIOSFODNN7EXAMPLE")
	r.waitFor("Secret access key: ")
	r.typeIn("wJalrXUtnF\r")
	file := filepath.Join(h.dir, "config", "skytui", "secrets.age")
	r.waitFor("Secrets go to the encrypted file " + file)
	r.waitFor("New passphrase: ")
	r.interrupt("the passphrase")
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the encrypted file after ctrl+c at its passphrase: %v", err)
	}
}

// waitForCount waits until the terminal has shown s n times.
func (r *ptyRun) waitForCount(s string, n int) {
	r.t.Helper()
	for end := time.Now().Add(20 * time.Second); strings.Count(r.out.String(), s) < n; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			r.t.Fatalf("the terminal does not show %q %d times:\n%s", s, n, r.out.String())
		}
	}
}

// TestBinaryFilePassphrase: a new encrypted file's passphrase has its
// rule said before it is typed, and a short one or two entries that
// differ are asked again (what is typed next never falls through to the
// shell); three refusals end with exit 2, nothing stored. Starting the UI
// on the file, a wrong passphrase is said and asked again; after three
// the UI does not start (it started showing the file empty), and the
// right one starts it.
func TestBinaryFilePassphrase(t *testing.T) {
	h := startBinSandbox(t)
	pass := "horse-battery-" + h.key[len(h.key)-6:]
	h.secret(pass)
	h.env = append(h.env[:len(h.env):len(h.env)], "SKYTUI_SECRETS_BACKEND=file")
	file := filepath.Join(h.dir, "config", "skytui", "secrets.age")
	add := func() *ptyRun {
		r := h.startOnPty("creds", "add", "s3", "bin-pass", "--region", "eu-west-1", "--access-key-id", "AKIAIOSFODNN7EXAMPLE")
		r.waitFor("Secret access key: ")
		r.typeIn("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\r")
		r.waitFor("A passphrase has at least 8 characters; it is asked twice.")
		r.waitFor("New passphrase: ")
		return r
	}

	r := add()
	for i, typed := range []string{"short", "also-short"} {
		r.typeIn(typed + "\r")
		if i == 0 {
			r.waitFor("passphrase: at least 8 characters (5 typed): try again")
		} else {
			r.waitFor("Repeat the passphrase: ")
			r.typeIn("not-the-same\r")
			r.waitFor("passphrase: the two entries differ: try again")
		}
		r.waitForCount("New passphrase: ", i+2)
	}
	r.typeIn("tiny\r")
	r.waitFor("(3 tries; nothing was stored)")
	if code := r.exit(); code != exitUsage || strings.Contains(r.out.String(), "passphrase: passphrase:") {
		t.Errorf("three refused passphrases: exit %d, want %d\n%s", code, exitUsage, r.out.String())
	}
	if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the encrypted file after three refused passphrases: %v", err)
	}

	r = add()
	r.typeIn("short\r")
	r.waitForCount("New passphrase: ", 2)
	r.typeIn(pass + "\r")
	r.waitFor("Repeat the passphrase: ")
	r.typeIn(pass + "\r")
	if code := r.exit(); code != 0 {
		t.Fatalf("a passphrase asked again: exit %d\n%s", code, r.out.String())
	}

	// a wrong passphrase when another is added: the file was not read, no
	// name is in use (it said "pass --replace", exit 3)
	r = h.startOnPty("creds", "add", "s3", "bin-other", "--region", "eu-west-1", "--access-key-id", "AKIAIOSFODNN7EXAMPLE")
	r.waitFor("Passphrase for " + file)
	r.typeIn("wrong-passphrase\r")
	r.waitFor("wrong passphrase (nothing was stored)")
	if code := r.exit(); code != exitFailed || strings.Contains(r.out.String(), "--replace") {
		t.Errorf("a wrong passphrase at creds add: exit %d\n%s", code, r.out.String())
	}

	r = h.startOnPty()
	for i := 1; i <= 3; i++ {
		r.waitForCount("Passphrase for "+file, i)
		r.typeIn("wrong-passphrase\r")
	}
	r.waitForCount("skytui: wrong passphrase: try again", 2)
	r.waitFor("wrong passphrase (3 tries): the UI does not start with the secrets locked")
	if code := r.exit(); code != exitFailed {
		t.Errorf("the UI after three wrong passphrases: exit %d, want %d\n%s", code, exitFailed, r.out.String())
	}

	r = h.startOnPty()
	if err := pty.Setsize(r.ptmx, &pty.Winsize{Rows: 24, Cols: 80}); err != nil {
		t.Fatal(err)
	}
	r.waitFor("Passphrase for " + file)
	r.typeIn(pass + "\r")
	r.waitFor("Services")
	r.typeIn("5")
	r.waitFor("bin-pass")
	r.typeIn("q")
	if code := r.exit(); code != 0 {
		t.Errorf("the UI after the right passphrase: exit %d\n%s", code, r.out.String())
	}

	// the API key in the file too (none in the environment): a wrong
	// passphrase is asked again there as well (the key's read ended the
	// start at once)
	h.env = slices.DeleteFunc(h.env, func(v string) bool { return strings.HasPrefix(v, "SKYSQL_API_KEY=") })
	r = h.startOnPty("auth", "login", "--profile", "sandbox")
	r.waitFor("API key for profile sandbox")
	r.typeIn(h.key + "\r")
	r.waitFor("Passphrase for " + file)
	r.typeIn(pass + "\r")
	if code := r.exit(); code != 0 {
		t.Fatalf("auth login into the file: exit %d\n%s", code, r.out.String())
	}
	r = h.startOnPty()
	if err := pty.Setsize(r.ptmx, &pty.Winsize{Rows: 24, Cols: 80}); err != nil {
		t.Fatal(err)
	}
	r.waitFor("Passphrase for " + file)
	r.typeIn("wrong-passphrase\r")
	r.waitFor("skytui: wrong passphrase: try again")
	r.waitForCount("Passphrase for "+file, 2)
	r.typeIn(pass + "\r")
	r.waitFor("Services")
	r.typeIn("q")
	if code := r.exit(); code != 0 {
		t.Errorf("the UI with its key in the file, after a wrong passphrase: exit %d\n%s", code, r.out.String())
	}
}
