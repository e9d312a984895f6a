package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skytui/skytui/sandbox"
)

// readmeRunbook is the README's runbook (between <!-- runbook --> and
// <!-- /runbook -->) split into its scripts, which blank lines separate.
func readmeRunbook(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok1 := strings.Cut(string(b), "<!-- runbook -->\n```sh\n")
	body, _, ok2 := strings.Cut(rest, "```\n<!-- /runbook -->")
	if !ok1 || !ok2 {
		t.Fatal("README.md: no runbook between <!-- runbook --> and <!-- /runbook -->")
	}
	scripts := strings.Split(strings.TrimSpace(body), "\n\n")
	if len(scripts) != 3 || !strings.Contains(scripts[0], "26 hours") || !strings.Contains(scripts[1], "restores create") || !strings.Contains(scripts[2], "services list") {
		t.Fatalf("README.md's runbook is not the three scripts this test knows:\n%s", body)
	}
	return scripts
}

// bash runs a script with the binary first on PATH, in dir, and wants the
// exit status want.
func (h *binSandbox) bash(dir, script string, want int) (string, string) {
	h.t.Helper()
	for _, tool := range []string{"bash", "jq", "date", "awk"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") == "true" {
				h.t.Fatalf("the runbook needs %s: %v", tool, err)
			}
			h.t.Skipf("the runbook needs %s: %v", tool, err)
		}
	}
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir = dir
	cmd.Env = append(append([]string{}, h.env...), "PATH="+filepath.Dir(h.bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	var so, se strings.Builder
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		h.t.Fatal(err)
	}
	if code != want {
		h.t.Fatalf("exit %d, want %d:\n%s\nstdout: %s\nstderr: %s\nsandbox log:\n%s", code, want, script, so.String(), se.String(), h.log.String())
	}
	if l := h.leaks(so.String() + se.String()); l != "" {
		h.t.Fatalf("a secret (%s) was printed:\n%s", l, script)
	}
	return so.String(), se.String()
}

// TestBinaryREADMERunbook runs the README's runbook as it is written: the
// backup check passes once orders-prod has a fresh full backup and fails
// naming the newest one when it is older than 26 hours (or there is
// none); staging is restored from production's newest backup and waited
// for; the ready services are named one per line.
func TestBinaryREADMERunbook(t *testing.T) {
	scripts := readmeRunbook(t)
	work := t.TempDir()

	// The demo's stopped legacy-batch has backups only from a week ago,
	// broken-import none: the check fails, naming the newest or none.
	demo := startBinSandbox(t, "--time-scale", "1")
	for name, want := range map[string]string{
		sandbox.DemoLegacy: "no full backup of legacy-batch in 26 hours (newest: 20",
		sandbox.DemoBroken: "no full backup of broken-import in 26 hours (newest: none)",
	} {
		if _, se := demo.bash(work, strings.ReplaceAll(scripts[0], sandbox.DemoOrders, name), exitFailed); !strings.Contains(se, want) {
			t.Errorf("the backup check on %s said:\n%s", name, se)
		}
	}

	// In the demo data staging-eu is on another provider than orders-prod:
	// the restore is refused, and the runbook stops there with its exit
	// status instead of going on.
	if _, se := demo.bash(work, scripts[1], exitUsage); !strings.Contains(se, "the restore of staging-eu did not succeed (exit 2)") {
		t.Errorf("the refused restore did not stop the runbook:\n%s", se)
	}

	// A production and a staging service on the same provider, as the
	// runbook has them; the script lines run unchanged.
	h := startBinSandbox(t, "--no-demo-data", "--time-scale", "600")
	for _, name := range []string{sandbox.DemoOrders, sandbox.DemoStaging} {
		h.run(0, "services", "create", "--name", name, "--provider", "aws", "--region", "us-east-1", "--topology", "es-single",
			"--size", "sky-2x8", "--storage", "100", "--wait", "--poll-interval", "50ms")
	}
	h.run(0, "backups", "create", "--service", sandbox.DemoOrders, "--type", "full", "--wait", "--poll-interval", "50ms")
	if so, se := h.bash(work, scripts[0], 0); so != "" || se != "" {
		t.Errorf("the backup check passed, yet said:\n%s%s", so, se)
	}
	prodCreds := first(h.run(0, "services", "credentials", sandbox.DemoOrders, "-o", "json"))
	h.secret(jsonOf[map[string]any](t, prodCreds)["password"].(string))
	restores := h.sent("POST", "/skybackup/v1/restores")
	h.bash(work, scripts[1], 0)
	if n := h.sent("POST", "/skybackup/v1/restores") - restores; n != 1 {
		t.Errorf("the runbook sent %d restores, want 1", n)
	}
	b, err := os.ReadFile(filepath.Join(work, "restore.json"))
	if err != nil {
		t.Fatal(err)
	}
	r := jsonOf[map[string]any](t, string(b))
	// the newest when the script listed them: by the time the restore was
	// made (the sandbox's clock runs 600 times faster: a real second is 10
	// minutes) the platform's nightly may have ended in between, and since
	made, _ := time.Parse(time.RFC3339, fmt.Sprint(r["created_at"]))
	key, _ := h.newestFullAt(sandbox.DemoOrders, made)
	listed, _ := h.newestFullAt(sandbox.DemoOrders, made.Add(-10*time.Minute))
	if r["status"] != "Succeeded" || r["service_name"] != sandbox.DemoStaging || r["key"] != key && r["key"] != listed || made.IsZero() {
		t.Errorf("restore.json: %v (the newest full backup then was %s, a real second before %s)", r, key, listed)
	}
	stagingCreds := first(h.exec("", 0, "services", "credentials", sandbox.DemoStaging, "-o", "json")) // holds the secret
	if jsonOf[map[string]any](t, stagingCreds)["password"] != jsonOf[map[string]any](t, prodCreds)["password"] {
		t.Error("after the restore staging-eu's password is not orders-prod's")
	}

	so, _ := h.bash(work, scripts[2], 0)
	names := strings.Fields(so)
	slices.Sort(names)
	if strings.Join(names, " ") != sandbox.DemoOrders+" "+sandbox.DemoStaging || strings.Count(so, "\n") != 2 {
		t.Errorf("the ready services:\n%s", so)
	}

	// a listing that fails (the key refused) fails each script, with
	// skytui's exit status and its error; nothing is taken for an answer
	h.env = append(h.env, "SKYSQL_API_KEY=refused-key")
	for i, script := range scripts {
		so, se := h.bash(work, script, exitFailed)
		if !strings.Contains(se, "401") || so != "" || strings.Contains(se, "no full backup of") || strings.Contains(se, "has no successful full backup") {
			t.Errorf("script %d with the key refused:\nstdout %q\nstderr %s", i+1, so, se)
		}
	}
}
