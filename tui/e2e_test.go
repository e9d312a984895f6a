package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestE2EServices builds the binary and runs testdata/e2e/services.sh,
// which drives it in tmux against `skytui sandbox`. Without tmux it is
// skipped, except in CI (CI=true), where that is a failure.
func TestE2EServices(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end test skipped in -short mode")
	}
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("tmux is required in CI for the end-to-end test (apt-get install tmux)")
		}
		t.Skip("tmux is not installed: skipping the end-to-end test (apt-get install tmux)")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed")
	}
	bin := filepath.Join(t.TempDir(), "skytui")
	build := exec.Command("go", "build", "-o", bin, "github.com/skytui/skytui")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	script, err := filepath.Abs(filepath.Join("..", "testdata", "e2e", "services.sh"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bash, script)
	cmd.Env = append(os.Environ(), "SKYTUI_BIN="+bin)
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("services.sh: %v", err)
	}
}
