package cli

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestEveryCommandsBadFlagIsUsage: an unknown flag is a usage error, exit
// 2, on every command of the tree (the root, auth, creds, sandbox,
// version, completion and help as the commands for scripts), as the
// README's exit statuses say.
func TestEveryCommandsBadFlagIsUsage(t *testing.T) {
	h := newHarness(t)
	root := newRootCmd(h.newEnv("", io.Discard, io.Discard))
	root.InitDefaultHelpCmd()
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		if !c.DisableFlagParsing {
			paths = append(paths, path)
		}
		for _, sub := range c.Commands() {
			walk(sub, append(append([]string{}, path...), sub.Name()))
		}
	}
	walk(root, nil)
	if len(paths) < 40 {
		t.Fatalf("only %d commands walked", len(paths))
	}
	for _, p := range paths {
		for _, bad := range []string{"--bogus", "-Z"} {
			a := append(append([]string{}, p...), bad)
			_, stderr, code := h.script(a...)
			if code != exitUsage || !strings.Contains(stderr, "unknown") {
				t.Errorf("skytui %s: exit %d, want %d (usage)\nstderr: %s", strings.Join(a, " "), code, exitUsage, stderr)
			}
		}
	}
}

// TestBadArgumentIsUsage: an argument the root or a command outside the
// commands for scripts does not take is a usage error too.
func TestBadArgumentIsUsage(t *testing.T) {
	h := newHarness(t)
	for _, a := range [][]string{
		{"bogus"},
		{"version", "extra"},
		{"auth", "status", "extra"},
		{"creds", "remove"},
		{"sandbox", "extra"},
		{"auth", "bogus"},
		{"creds", "add", "bogus"},
		{"creds", "list", "-o", "yaml"},
	} {
		_, stderr, code := h.script(a...)
		if code != exitUsage {
			t.Errorf("skytui %s: exit %d, want %d (usage)\nstderr: %s", strings.Join(a, " "), code, exitUsage, stderr)
		}
	}
	// a noun alone still shows its help
	if out, err := h.run("", "auth"); err != nil || !strings.Contains(out, "login") {
		t.Errorf("skytui auth: %v\n%s", err, out)
	}
}

// TestCredsListJSON: creds list takes -o json as the other lists do: the
// names, kinds and identities as one document, never a secret; and
// --no-headers leaves only the rows.
func TestCredsListJSON(t *testing.T) {
	h := newHarness(t)
	if out, err := h.run("", "creds", "list", "-o", "json"); err != nil || strings.TrimSpace(out) != "[]" {
		t.Errorf("no credentials: %v %q", err, out)
	}
	const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	if out, err := h.run(secret+"\n", "creds", "add", "s3", "backups", "--access-key-id", "AKIAIOSFODNN7EXAMPLE", "--region", "eu-west-1"); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	stdout, stderr, err := h.runSplit("creds", "list", "-o", "json")
	if err != nil || stderr != "" {
		t.Fatalf("%v %s", err, stderr)
	}
	got := decodeJSON[[]map[string]string](t, stdout)
	// every key in every record: an s3 credential has an empty client_email
	want := map[string]string{"name": "backups", "kind": "s3", "client_email": "", "access_key_id": "AKIAIOSFODNN7EXAMPLE", "region": "eu-west-1", "unreadable": "", "backend": "file"}
	if len(got) != 1 || fmt.Sprint(got[0]) != fmt.Sprint(want) {
		t.Errorf("creds list -o json = %v, want [%v]", got, want)
	}
	if strings.Contains(stdout, secret) {
		t.Fatal("creds list -o json printed the secret")
	}
	stdout, _, err = h.runSplit("creds", "list", "--no-headers")
	if err != nil || strings.Fields(stdout)[0] != "backups" || strings.Count(stdout, "\n") != 1 {
		t.Errorf("creds list --no-headers: %v %q", err, stdout)
	}
}

// TestProfileAndAPIURLFlagsAreUsage: a --profile that is not there and an
// --api-url the rules refuse are usage errors (exit 2) naming the flag and
// the rule, on the commands for scripts, auth and the TUI's start alike;
// not a failure blamed on the profile.
func TestProfileAndAPIURLFlagsAreUsage(t *testing.T) {
	h := newHarness(t)
	for _, cmd := range [][]string{{"services", "list"}, {"auth", "login"}, {}} {
		for _, c := range []struct {
			flags []string
			want  string
		}{
			{[]string{"--api-url", "http://10.0.0.1:1"}, "skytui: --api-url: base URL http://10.0.0.1:1: HTTPS is required for non-loopback hosts\n"},
			{[]string{"--api-url", "ftp://example.com"}, `skytui: --api-url: base URL ftp://example.com: scheme "ftp" not supported (want https)` + "\n"},
			{[]string{"--profile", "nosuchprof"}, `skytui: --profile nosuchprof: profile "nosuchprof" not found (known: skysql); a new profile is made by ` + "`skytui auth login --profile nosuchprof --api-url URL`\n"},
			// a name no profile can have: its rule, not a login that would be refused
			{[]string{"--profile", "bad name"}, `skytui: --profile: profile name "bad name": use letters, digits and . _ - (at most 64, not starting with a symbol)` + "\n"},
			// empty (a script's unset variable): refused, never the default profile
			{[]string{"--profile", ""}, "skytui: --profile is empty: give a profile name, or leave the flag out for the default\n"},
			{[]string{"--api-url", " "}, "skytui: --api-url is empty: give a URL, or leave the flag out for the default\n"},
		} {
			h.fails(exitUsage, c.want, append(append([]string{}, cmd...), c.flags...)...)
		}
	}
	// with --api-url too: a typo of a read-only profile's name must not
	// reach the API as a new, writable profile (only auth login makes one)
	h.addProfile("prod")
	for _, cmd := range [][]string{{"allowlist", "add", "orders-prod", "192.0.2.99"}, {}} {
		h.fails(exitUsage, `skytui: --profile prdo: profile "prdo" not found (known: prod, skysql); a new profile is made by `+"`skytui auth login --profile prdo --api-url "+h.url+"`\n",
			append(append([]string{}, cmd...), "--profile", "prdo", "--api-url", h.url)...)
	}
	// auth login's help says what --api-url does, whole
	out, err := h.run("", "auth", "login", "--help")
	if err != nil || !strings.Contains(out, "required for a new profile; for an existing one, it replaces the profile's URL") {
		t.Errorf("auth login --help: %v\n%s", err, out)
	}
}

// TestUIFlagOnACommandSaysWhose: a flag of the terminal UI given to a
// command says it is the UI's; --demo also says how the commands reach a
// sandbox (--api-url, the key in SKYSQL_API_KEY). Exit 2.
func TestUIFlagOnACommandSaysWhose(t *testing.T) {
	h := newHarness(t)
	h.fails(exitUsage, "skytui: unknown flag: --demo: --demo starts the terminal UI on a built-in sandbox (skytui --demo); the commands take --profile or --api-url instead, "+
		"such as a sandbox's: run `skytui sandbox` and pass the URL and key it prints (--api-url URL, the key in SKYSQL_API_KEY)\n", "--demo", "services", "list")
	h.fails(exitUsage, "skytui: unknown flag: --demo: --demo starts the terminal UI", "services", "list", "--demo")
	h.fails(exitUsage, "skytui: unknown flag: --accessible: --accessible is a flag of the terminal UI (skytui --accessible), not of \"skytui backups list\"\n", "backups", "list", "--accessible")
	// a flag other commands take too is only not this command's
	h.fails(exitUsage, "skytui: unknown flag: --api-url: `skytui auth status` does not take --api-url\n", "auth", "status", "--api-url", "http://127.0.0.1:1")
	// a flag nobody has stays as it was
	h.fails(exitUsage, "skytui: unknown flag: --bogus\n", "services", "list", "--bogus")
}

// TestUIFlagRefusalNamesNoCommand: the refused command is named, not
// suggested: a run with --profile and --api-url does not get them added
// to it as if it were a command to copy.
func TestUIFlagRefusalNamesNoCommand(t *testing.T) {
	h, _ := newChangeHarness(t)
	h.fails(exitUsage, `skytui: unknown flag: --debug: --debug is a flag of the terminal UI (skytui --debug), not of "skytui backups list"`+"\n",
		h.live("backups", "list", "--debug")...)
}
