package cli

import (
	"errors"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skytui/skytui/sandbox"
)

// TestBinarySignalEndsAWait: SIGINT (ctrl+c) or SIGTERM while a command
// waits (--wait) ends it at once with 128 + the signal's number, as a
// shell reports a process the signal ended, so a runbook's loop stops
// there instead of going on to the next service; it says what it was
// waiting for and that the change goes on.
func TestBinarySignalEndsAWait(t *testing.T) {
	h := startBinSandbox(t, "--time-scale", "1") // a stop stays pending
	for _, c := range []struct {
		sig  syscall.Signal
		code int
		args []string
	}{
		{syscall.SIGINT, 130, []string{"services", "stop", sandbox.DemoReplica, "--wait", "--yes"}},
		// the stop goes on: waiting for it to end
		{syscall.SIGTERM, 143, []string{"wait", "service", sandbox.DemoReplica, "--for", "stopped"}},
	} {
		h.argvs = append(h.argvs, strings.Join(c.args, " "))
		cmd := exec.Command(h.bin, append(c.args, "--api-url", h.url, "--profile", "sandbox")...)
		cmd.Env = h.env
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(700 * time.Millisecond) // sent, now waiting
		_ = cmd.Process.Signal(c.sig)
		err := cmd.Wait()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != c.code {
			t.Errorf("%s during --wait: %v, want exit %d\n%s", c.sig, err, c.code, stderr.String())
		}
		if !strings.Contains(stderr.String(), "interrupted while waiting for") {
			t.Errorf("%s during --wait: stderr %q", c.sig, stderr.String())
		}
	}
}

// TestBinarySignalEndsARead: ctrl+c while a listing is read ends it with
// 130 and says it was interrupted, not "context canceled".
func TestBinarySignalEndsARead(t *testing.T) {
	h := startBinSandbox(t, "--faults", "latency=5s")
	h.argvs = append(h.argvs, "services list")
	cmd := exec.Command(h.bin, "services", "list", "--api-url", h.url, "--profile", "sandbox")
	cmd.Env = h.env
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(700 * time.Millisecond) // the request is out
	_ = cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 || !strings.HasPrefix(stderr.String(), "skytui: interrupted (interrupt)") || strings.Contains(stderr.String(), "context canceled") {
		t.Errorf("ctrl+c during a read: %v\n%s", err, stderr.String())
	}
}
