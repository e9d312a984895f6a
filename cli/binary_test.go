package cli

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/skytui/skytui/sandbox"
)

// TestBinaryScripts runs the built binary against `skytui sandbox` in a
// subprocess, as a runbook would: the key only in SKYSQL_API_KEY, every
// exit status, JSON parsed, --wait to the end state, the refusals with
// nothing sent, and no secret in any output or argv.
func TestBinaryScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "skytui")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/skytui/skytui").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	key := "skysql.bin." + hex.EncodeToString(b)
	cfg := filepath.Join(dir, "config.toml")
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "XDG_CACHE_HOME=" + filepath.Join(dir, "cache"),
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "SKYTUI_CONFIG=" + cfg, "SKYSQL_API_KEY=" + key, "NO_COLOR=1"}

	// the sandbox: the key from the environment, requests logged
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sb := exec.CommandContext(ctx, bin, "sandbox", "--listen", "127.0.0.1:0", "--time-scale", "3000", "--log-requests")
	sb.Env = env
	var sbLog syncBuffer
	sb.Stderr = &sbLog
	out, err := sb.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sb.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); _ = sb.Wait() }()
	line, err := bufio.NewReader(out).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "sandbox listening on ")
	if err != nil || !ok {
		t.Fatalf("sandbox: %q %v\n%s", line, err, sbLog.String())
	}
	go func() { _, _ = bytes.NewBuffer(nil).ReadFrom(out) }()
	if err := os.WriteFile(cfg, []byte("[[profile]]\nname = \"audit\"\nbase_url = \""+url+"\"\nbackup_prefix = \"/skybackup/v1\"\nread_only = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	var argvs []string
	run := func(want int, args ...string) (string, string) {
		t.Helper()
		if args[0] != "__complete" && args[0] != "completion" {
			args = append(args, "--api-url", url)
			if !strings.Contains(strings.Join(args, " "), "--profile") {
				args = append(args, "--profile", "skysql")
			}
		}
		argvs = append(argvs, strings.Join(args, " "))
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		var so, se bytes.Buffer
		cmd.Stdout, cmd.Stderr = &so, &se
		err := cmd.Run()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		if code != want {
			t.Fatalf("%v: exit %d, want %d\nstdout: %s\nstderr: %s", args, code, want, so.String(), se.String())
		}
		if strings.Contains(so.String()+se.String(), key) {
			t.Fatalf("%v: the API key was printed", args)
		}
		return so.String(), se.String()
	}
	jsonOf := func(s string, v any) {
		t.Helper()
		if err := json.Unmarshal([]byte(s), v); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, s)
		}
	}
	posts := func() int {
		return strings.Count(sbLog.String(), "method=POST") + strings.Count(sbLog.String(), "method=DELETE")
	}

	// a service created and followed until ready
	so, _ := run(0, "services", "create", "--name", "bin-made", "--provider", "aws", "--region", "us-east-1", "--topology", "es-single",
		"--size", "sky-2x8", "--storage", "100", "--wait", "--poll-interval", "50ms", "-o", "json")
	var svc map[string]any
	jsonOf(so, &svc)
	if svc["status"] != "ready" || svc["name"] != "bin-made" {
		t.Fatalf("created: %v", svc)
	}

	// the runbook: restore replica-west from orders-prod's newest backup
	so, _ = run(0, "backups", "list", "--service", sandbox.DemoOrders, "--status", "succeeded", "-o", "json")
	var backups []map[string]any
	jsonOf(so, &backups)
	newest, start := "", ""
	for _, b := range backups {
		if s, _ := b["start_time"].(string); s >= start {
			newest, start = b["id"].(string), s
		}
	}
	n := posts()
	_, se := run(exitRefused, "restores", "create", "--service", sandbox.DemoReplica, "--backup", newest, "--yes")
	if !strings.Contains(se, "needs --confirm") {
		t.Errorf("no --confirm: %s", se)
	}
	run(exitRefused, "restores", "create", "--service", sandbox.DemoReplica, "--backup", newest, "--yes", "--confirm", "replica")
	run(exitRefused, "restores", "create", "--service", sandbox.DemoReplica, "--backup", newest, "--confirm", sandbox.DemoReplica)
	_, se = run(exitRefused, "backups", "create", "--service", sandbox.DemoOrders, "--type", "full", "--profile", "audit")
	if !strings.Contains(se, "profile audit is read-only") {
		t.Errorf("read-only: %s", se)
	}
	if posts() != n {
		t.Fatalf("refused commands sent %d changes:\n%s", posts()-n, sbLog.String())
	}
	so, _ = run(0, "restores", "create", "--service", sandbox.DemoReplica, "--backup", newest, "--yes", "--confirm", sandbox.DemoReplica,
		"--wait", "--poll-interval", "50ms", "-o", "json")
	var r map[string]any
	jsonOf(so, &r)
	if r["status"] != "Succeeded" {
		t.Fatalf("restore: %v", r)
	}
	if posts() != n+1 {
		t.Fatalf("the restore was sent %d times", posts()-n)
	}

	// the table masks the password
	so, _ = run(0, "services", "credentials", sandbox.DemoReplica)
	if !strings.Contains(so, "********") {
		t.Errorf("credentials:\n%s", so)
	}
	run(exitNotFound, "services", "credentials", "no-such-db")
	run(exitUsage, "allowlist", "add", sandbox.DemoOrders, "10.0.0.1/8")
	so, _ = run(0, "__complete", "allowlist", "list", "--profile", "skysql", "--api-url", url, "")
	if !strings.Contains(so, sandbox.DemoOrders) {
		t.Errorf("completion:\n%s", so)
	}
	if so, _ = run(0, "completion", "bash"); !strings.Contains(so, "__start_skytui") {
		t.Errorf("completion bash:\n%.300s", so)
	}

	// a refused key: exit 1, one line, never the key
	env[len(env)-2] = "SKYSQL_API_KEY=skysql.wrong.key.000"
	if _, se = run(exitFailed, "allowlist", "add", sandbox.DemoOrders, "192.0.2.9"); !strings.Contains(se, "401 Unauthorized") {
		t.Errorf("wrong key: %s", se)
	}
	for _, a := range argvs {
		if strings.Contains(a, key) || strings.Contains(a, "password") {
			t.Errorf("a secret in argv: %s", a)
		}
	}
	if strings.Contains(sbLog.String(), key) {
		t.Error("the sandbox log holds the key")
	}
}

// syncBuffer is a bytes.Buffer safe for a writing process and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
