package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/skytui/skytui/sandbox"
)

// TestCredsAddS3PipedTakesOnlyTheSecret: with standard input not a
// terminal, it holds the secret alone; the access key ID and the region
// must be flags (exit 2 naming the missing one, before anything is read),
// so no order of piped lines can store the secret as the access key ID
// (which `creds list` shows). A value refused is never echoed: it may be
// the secret.
func TestCredsAddS3PipedTakesOnlyTheSecret(t *testing.T) {
	h := newHarness(t)
	const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	const keyID = "AKIAIOSFODNN7EXAMPLE"
	for _, c := range []struct {
		stdin string
		args  []string
		want  string
	}{
		// the QA's runs: the secret first, the ID second, each flag missing
		{secret + "\n" + keyID + "\n", []string{"--region", "eu-west-1"},
			"skytui: --access-key-id is required when standard input is not a terminal: only the secret access key is read from it (nothing was stored)\n"},
		{"eu-west-1\n" + secret + "\n", []string{"--access-key-id", keyID},
			"skytui: --region is required when standard input is not a terminal: only the secret access key is read from it (nothing was stored)\n"},
		{secret + "\n", []string{"--region", "eu-west-1"}, "skytui: --access-key-id is required when standard input is not a terminal"},
		// the secret given where a shown value goes
		{"x\n", []string{"--access-key-id", secret, "--region", "eu-west-1"}, "skytui: --access-key-id: invalid access key ID: an access key ID is 16 to 128 capital letters and digits"},
		{"x\n", []string{"--access-key-id", "AKIA", "--region", "eu-west-1"}, "skytui: --access-key-id: invalid access key ID"},
		{"x\n", []string{"--access-key-id", strings.ToLower(keyID), "--region", "eu-west-1"}, "skytui: --access-key-id: invalid access key ID"},
		{"x\n", []string{"--access-key-id", keyID, "--region", secret}, "skytui: --region: not a region: a region is shaped like us-east-1 or eu-west-1"},
		{"", []string{"--access-key-id", keyID, "--region", "eu-west-1"}, "skytui: no secret access key on standard input (nothing was stored)\n"},
	} {
		args := append([]string{"creds", "add", "s3", "qa-s3"}, c.args...)
		stdout, stderr, err := h.runSplitStdin(c.stdin, args...)
		var eb bytes.Buffer
		code := reportError(&eb, err)
		stderr += eb.String()
		if code != exitUsage || stdout != "" || !strings.HasPrefix(stderr, c.want) {
			t.Errorf("%q | %v: exit %d, stdout %q, stderr %q; want exit 2 and %q", c.stdin, args, code, stdout, stderr, c.want)
		}
		if strings.Contains(stderr, secret) || strings.Contains(stderr, strings.ToLower(keyID)) {
			t.Errorf("%v: the value refused is echoed: %q", args, stderr)
		}
	}
	if out, err := h.run("", "creds", "list", "--no-headers"); err != nil || out != "" {
		t.Fatalf("stored by refused adds: %v %q", err, out)
	}
	// the flags and the secret alone on standard input: stored
	if out, err := h.run(secret+"\n", "creds", "add", "s3", "qa-s3", "--access-key-id", keyID, "--region", "eu-west-1"); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	if out := h.ok("creds", "list", "--no-headers"); !strings.Contains(out, keyID+" (eu-west-1)") || strings.Contains(out, secret) {
		t.Errorf("creds list:\n%s", out)
	}
}

// TestCredsAddS3HelpSaysWhatIsRead: the help says that piped standard
// input holds the secret alone and the flags are then required.
func TestCredsAddS3HelpSaysWhatIsRead(t *testing.T) {
	h := newHarness(t)
	out := h.ok("creds", "add", "s3", "--help")
	for _, want := range []string{
		"When standard input is not a terminal, it holds the secret alone",
		"--access-key-id and --region are required",
		"required when standard input is not a terminal",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("creds add s3 --help lacks %q:\n%s", want, out)
		}
	}
}

// readCounter is standard input that counts the reads made of it.
type readCounter struct {
	r     *strings.Reader
	reads int
}

func (c *readCounter) Read(p []byte) (int, error) { c.reads++; return c.r.Read(p) }

// TestAuthLoginRefusesABadProfileNameFirst: a new profile whose name the
// config file cannot hold is refused (exit 2) before the key is read or
// anything is sent, as creds add checks its name first.
func TestAuthLoginRefusesABadProfileNameFirst(t *testing.T) {
	h, sb := serveHarness(t, sandbox.Options{}, "")
	in := &readCounter{r: strings.NewReader(goodKey + "\n")}
	var out, errOut bytes.Buffer
	e := h.newEnv("", &out, &errOut)
	e.stdin = in
	cmd := newRootCmd(e)
	cmd.SetArgs([]string{"auth", "login", "--profile", "qa bad", "--api-url", h.url})
	err := cmd.ExecuteContext(context.Background())
	var eb bytes.Buffer
	code := reportError(&eb, err)
	const want = `skytui: --profile: profile name "qa bad": use letters, digits and . _ - (at most 64, not starting with a symbol)` + "\n"
	if code != exitUsage || eb.String() != want || out.Len() != 0 {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out.String(), errOut.String()+eb.String(), want)
	}
	if in.reads != 0 || sb.Stats().Total != 0 {
		t.Errorf("%d reads of standard input, %d requests: want none", in.reads, sb.Stats().Total)
	}
}

// TestRestoreUnknownEncryptionKeyIsNotFound: an --encryption-key that is
// not stored exits 4 (as an unknown --creds), saying where keys are kept
// and how one is stored, not the keystore's own error; nothing is sent.
func TestRestoreUnknownEncryptionKeyIsNotFound(t *testing.T) {
	h, sb := newChangeHarness(t)
	const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	if out, err := h.run(secret+"\n", "creds", "add", "s3", "archive", "--access-key-id", "AKIAIOSFODNN7EXAMPLE", "--region", "eu-west-1"); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	before := sb.Stats().Count("POST", "/skybackup/v1/restores")
	se := h.fails(exitNotFound, "skytui: --encryption-key nokey: no restore encryption key of that name is stored in the encrypted file",
		h.live("restores", "create", "--service", sandbox.DemoStaging, "--bucket", "s3://acme-exports/", "--file", "orders/dump.sql.gz",
			"--method", "mysqldump", "--creds", "archive", "--encryption-key", "nokey", "--yes", "--confirm", sandbox.DemoStaging)...)
	for _, want := range []string{"Settings (5)", `"keep the key in the keystore"`, "(nothing was sent)"} {
		if !strings.Contains(se, want) {
			t.Errorf("stderr lacks %q: %s", want, se)
		}
	}
	if strings.Contains(se, "secret not found") || strings.Contains(se, `"enckey/`) {
		t.Errorf("the keystore's own error: %s", se)
	}
	if n := sb.Stats().Count("POST", "/skybackup/v1/restores") - before; n != 0 {
		t.Errorf("%d restores sent", n)
	}
}

// TestAuthLoginWithNoKeyIsUsage: a key not given, an empty standard
// input or an empty line, exits 2, as any input missing does, not 1;
// nothing is sent.
func TestAuthLoginWithNoKeyIsUsage(t *testing.T) {
	for stdin, want := range map[string]string{"": "no input (standard input is empty)", "\n": "no API key entered"} {
		h, sb := serveHarness(t, sandbox.Options{}, "")
		var out, errOut bytes.Buffer
		e := h.newEnv("", &out, &errOut)
		e.stdin = strings.NewReader(stdin)
		cmd := newRootCmd(e)
		cmd.SetArgs([]string{"auth", "login", "--profile", "empty", "--api-url", h.url})
		err := cmd.ExecuteContext(context.Background())
		var eb bytes.Buffer
		if code := reportError(&eb, err); code != exitUsage || !strings.Contains(eb.String(), want) || sb.Stats().Total != 0 {
			t.Errorf("stdin %q: exit %d, %q, %d requests; want exit 2 saying %q, none sent", stdin, code, eb.String(), sb.Stats().Total, want)
		}
	}
}
