package cli

import (
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/tui/tuitest"
)

// TestTimeoutWithoutWaitIsUsage: --timeout (and --poll-interval) on a
// command that waits only with --wait is refused without it (exit 2,
// nothing sent): a runbook that says --timeout 2h must not believe it
// waited. On wait service|restore and replication setup it applies by
// itself.
func TestTimeoutWithoutWaitIsUsage(t *testing.T) {
	h, sb := newChangeHarness(t)
	h.fails(exitUsage, "skytui: --timeout goes with --wait: without --wait skytui backups create does not wait (add --wait, or leave --timeout out)\n",
		h.live("backups", "create", "--service", sandbox.DemoOrders, "--type", "full", "--timeout", "1s")...)
	h.fails(exitUsage, "skytui: --timeout goes with --wait: without --wait skytui services start does not wait",
		h.live("services", "start", sandbox.DemoLegacy, "--timeout", "5m")...)
	h.fails(exitUsage, "skytui: --poll-interval goes with --wait", h.live("services", "stop", sandbox.DemoOrders, "--yes", "--poll-interval", "1s")...)

	// every command with --wait and --timeout
	var cmds [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		if c.Flags().Lookup("wait") != nil && c.Flags().Lookup("timeout") != nil {
			p := append([]string{}, path...)
			if c.Args != nil && c.Args(c, nil) != nil {
				p = append(p, sandbox.DemoOrders) // its SERVICE argument
			}
			cmds = append(cmds, p)
		}
		for _, sub := range c.Commands() {
			walk(sub, append(append([]string{}, path...), sub.Name()))
		}
	}
	walk(newRootCmd(h.newEnv("", io.Discard, io.Discard)), nil)
	if len(cmds) < 7 {
		t.Fatalf("only %d commands take --wait and --timeout: %v", len(cmds), cmds)
	}
	for _, c := range cmds {
		h.fails(exitUsage, "skytui: --timeout goes with --wait: without --wait skytui "+strings.Join(c[:2], " ")+" does not wait",
			h.live(append(c, "--timeout", "2h")...)...)
	}
	if n := tuitest.Changes(sb); n != 0 {
		t.Fatalf("%d changes sent", n)
	}
	// with --wait it is taken; where it applies by itself too
	h.fails(exitFailed, "skytui: timed out", h.live("services", "stop", sandbox.DemoOrders, "--yes", "--wait", "--timeout", "1ms", "--poll-interval", "1h")...)
	h.fails(exitFailed, "skytui: timed out", h.live("wait", "service", sandbox.DemoOrders, "--for", "ready", "--timeout", "1ms", "--poll-interval", "1h")...)
}

// TestReadOnlyTakenEverywhere: --read-only, which the terminal UI's help
// says leaves the local keystore writable, is taken by every command a
// runbook calls: auth and creds (changing only the keystore, as they do
// without it) and wait (which changes nothing) as the other commands.
func TestReadOnlyTakenEverywhere(t *testing.T) {
	h := newScriptHarness(t)
	var walk func(c *cobra.Command, path []string)
	n := 0
	walk = func(c *cobra.Command, path []string) {
		switch c.Name() {
		case "sandbox", "version", "completion", "help":
			return // not a call to an account
		}
		if len(path) > 0 {
			n++
			a := append(append([]string{}, path...), "--read-only", "--help")
			if out, err := h.run("", a...); err != nil || !strings.Contains(out, "--read-only") {
				t.Errorf("skytui %s: %v\n%s", strings.Join(a, " "), err, out)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub, append(append([]string{}, path...), sub.Name()))
		}
	}
	walk(newRootCmd(h.newEnv("", io.Discard, io.Discard)), nil)
	if n < 40 {
		t.Fatalf("only %d commands walked", n)
	}

	// the keystore stays writable
	const secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	if out, err := h.run(secret+"\n", "creds", "add", "s3", "backups", "--access-key-id", "AKIAIOSFODNN7EXAMPLE", "--region", "eu-west-1", "--read-only"); err != nil {
		t.Fatalf("creds add --read-only: %v %s", err, out)
	}
	if out, err := h.run("", "--read-only", "creds", "list", "--no-headers"); err != nil || !strings.HasPrefix(out, "backups ") {
		t.Errorf("creds list --read-only: %v %q", err, out)
	}
	if out, err := h.run("", "creds", "--read-only", "remove", "backups"); err != nil {
		t.Errorf("creds remove --read-only: %v %s", err, out)
	}
	if out, err := h.run("", "auth", "status", "--read-only"); err != nil || !strings.Contains(out, "skysql") {
		t.Errorf("auth status --read-only: %v %s", err, out)
	}
	if out, err := h.run("", "wait", "service", sandbox.DemoOrders, "--read-only", "--api-url", h.url); err != nil || !strings.Contains(out, sandbox.DemoOrders) {
		t.Errorf("wait service --read-only: %v %s", err, out)
	}
	// a change is still refused with it
	h.fails(exitRefused, "skytui: --read-only: services stop refused, nothing was sent", h.live("services", "stop", sandbox.DemoOrders, "--yes", "--read-only")...)
}
