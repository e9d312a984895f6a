package cli

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3filter"

	"github.com/skytui/skytui/internal/openapispec"
	"github.com/skytui/skytui/sandbox"
)

// The built binary against `skytui sandbox` in a subprocess, as a runbook
// runs it: the API key only in SKYSQL_API_KEY, every exit status, JSON
// parsed, --wait to the end state, the refusals with nothing sent, and no
// secret in any output, argv or the sandbox's log. The harness is here;
// the commands' tests are in binary_*_test.go.

var (
	binOnce sync.Once
	binDir  string
	binPath string
	binErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// builtBinary builds skytui once for the package's tests.
func builtBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	binOnce.Do(func() {
		if binDir, binErr = os.MkdirTemp("", "skytui-bin-"); binErr != nil {
			return
		}
		binPath = filepath.Join(binDir, "skytui")
		if out, err := exec.Command("go", "build", "-o", binPath, "github.com/skytui/skytui").CombinedOutput(); err != nil {
			binErr = fmt.Errorf("build: %v\n%s", err, out)
		}
	})
	if binErr != nil {
		t.Fatal(binErr)
	}
	return binPath
}

// binSandbox is one `skytui sandbox` process and the environment the
// commands run in: a fresh HOME, a config file with the profiles "audit"
// (read-only) and "sandbox" (the live service's prefixes, the default),
// both on the sandbox's URL, and a random key in SKYSQL_API_KEY.
type binSandbox struct {
	t       *testing.T
	bin     string
	dir     string // HOME
	url     string
	key     string
	env     []string
	log     syncBuffer // the sandbox's stderr: one line per request
	secrets []string   // never in an output, argv or the log
	argvs   []string
}

// startBinSandbox starts `skytui sandbox` with args (besides --listen and
// --log-requests) and stops it when the test ends.
func startBinSandbox(t *testing.T, args ...string) *binSandbox {
	t.Helper()
	h := &binSandbox{t: t, bin: builtBinary(t), dir: t.TempDir()}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	h.key = "skysql.bin." + hex.EncodeToString(b)
	h.secrets = []string{h.key}
	cfg := filepath.Join(h.dir, "config.toml")
	h.env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + h.dir, "XDG_CACHE_HOME=" + filepath.Join(h.dir, "cache"),
		"XDG_CONFIG_HOME=" + filepath.Join(h.dir, "config"), "XDG_STATE_HOME=" + filepath.Join(h.dir, "state"),
		"SKYTUI_CONFIG=" + cfg, "SKYSQL_API_KEY=" + h.key, "NO_COLOR=1", "TZ=UTC"}

	ctx, cancel := context.WithCancel(context.Background())
	sbArgs := append([]string{"sandbox", "--listen", "127.0.0.1:0", "--log-requests"}, args...)
	h.argvs = append(h.argvs, strings.Join(sbArgs, " "))
	sb := exec.CommandContext(ctx, h.bin, sbArgs...)
	sb.Env = h.env
	sb.Stderr = &h.log
	out, err := sb.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sb.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = sb.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	url, ok := strings.CutPrefix(strings.TrimSpace(line), "sandbox listening on ")
	if err != nil || !ok {
		t.Fatalf("sandbox: %q %v\n%s", line, err, h.log.String())
	}
	go func() { _, _ = bytes.NewBuffer(nil).ReadFrom(out) }()
	h.url = url
	conf := "default_profile = \"sandbox\"\n\n" +
		"[[profile]]\nname = \"sandbox\"\nbase_url = \"" + url + "\"\nbackup_prefix = \"/skybackup/v1\"\n\n" +
		"[[profile]]\nname = \"audit\"\nbase_url = \"" + url + "\"\nbackup_prefix = \"/skybackup/v1\"\nread_only = true\n"
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.checkSecrets)
	t.Cleanup(h.checkRequests)
	return h
}

var requestLine = regexp.MustCompile(`method=(\S+) path=(\S+) query=("(?:[^"\\]|\\.)*"|\S*)`)

// checkRequests runs when the test ends: every request the commands sent
// (as the sandbox logged them, without bodies, which the request-validation
// test in api checks) is an operation of the live service's published
// description, with its path and query parameters valid.
func (h *binSandbox) checkRequests() {
	if p, err := openapispec.Path(); err == nil && os.Getenv("CI") != "true" {
		if _, err := os.Stat(p); err != nil {
			return // openapispec.Load would skip: the description lives beside the project
		}
	}
	doc := openapispec.Load(h.t)
	seen := map[string]bool{}
	defer func() { h.t.Logf("%d distinct requests checked against the description", len(seen)) }()
	for _, m := range requestLine.FindAllStringSubmatch(h.log.String(), -1) {
		method, path, query := m[1], m[2], m[3]
		if q, err := strconv.Unquote(query); err == nil {
			query = q
		}
		if seen[method+path+query] {
			continue
		}
		seen[method+path+query] = true
		route, params := openapispec.Find(doc, method, path)
		if route == nil || route.Operation == nil {
			h.t.Errorf("%s %s: no such operation in the description", method, path)
			continue
		}
		req, err := http.NewRequest(method, "http://sandbox"+path+"?"+query, nil)
		if err != nil {
			h.t.Error(err)
			continue
		}
		err = openapi3filter.ValidateRequest(context.Background(), &openapi3filter.RequestValidationInput{
			Request: req, PathParams: params, Route: route,
			Options: &openapi3filter.Options{ExcludeRequestBody: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
		})
		if err != nil {
			h.t.Errorf("%s %s?%s does not match the description: %v", method, path, query, err)
		}
	}
}

// secret adds values that must never appear in an output, argv or the
// sandbox's log (nor their base64 forms).
func (h *binSandbox) secret(s ...string) { h.secrets = append(h.secrets, s...) }

func (h *binSandbox) leaks(s string) string {
	for _, sec := range h.secrets {
		for _, form := range []string{sec, base64.StdEncoding.EncodeToString([]byte(sec)), base64.RawURLEncoding.EncodeToString([]byte(sec))} {
			if strings.Contains(s, form) {
				return sec[:min(6, len(sec))] + "…"
			}
		}
	}
	return ""
}

// checkSecrets runs when the test ends: no argv the tests passed and no
// line of the sandbox's log holds a secret.
func (h *binSandbox) checkSecrets() {
	for _, a := range h.argvs {
		if l := h.leaks(a); l != "" {
			h.t.Errorf("a secret (%s) in argv: %s", l, a)
		}
	}
	if l := h.leaks(h.log.String()); l != "" {
		h.t.Errorf("the sandbox log holds a secret (%s)", l)
	}
}

// run runs the binary with args and wants the exit status want; it returns
// stdout and stderr. The profile is the config's default (the sandbox)
// unless args name one. No secret may be in either output.
func (h *binSandbox) run(want int, args ...string) (string, string) {
	h.t.Helper()
	return h.runIn("", want, args...)
}

// runIn is run with stdin.
func (h *binSandbox) runIn(stdin string, want int, args ...string) (string, string) {
	h.t.Helper()
	so, se := h.exec(stdin, want, args...)
	if l := h.leaks(so + se); l != "" {
		h.t.Fatalf("%v: a secret (%s) was printed", args, l)
	}
	return so, se
}

// exec runs the binary and checks its exit status only.
func (h *binSandbox) exec(stdin string, want int, args ...string) (string, string) {
	h.t.Helper()
	h.argvs = append(h.argvs, strings.Join(args, " "))
	cmd := exec.Command(h.bin, args...)
	cmd.Env = h.env
	cmd.Stdin = strings.NewReader(stdin)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		h.t.Fatal(err)
	}
	if code != want {
		h.t.Fatalf("skytui %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, want, so.String(), se.String())
	}
	if code != exitOK && so.Len() > 0 {
		h.t.Errorf("skytui %s: exit %d with output on stdout:\n%s", strings.Join(args, " "), code, so.String())
	}
	return so.String(), se.String()
}

// fails runs a command that must exit with code, print nothing on stdout
// and say wantErr on stderr.
func (h *binSandbox) fails(code int, wantErr string, args ...string) string {
	h.t.Helper()
	_, se := h.run(code, args...)
	if !strings.Contains(se, wantErr) {
		h.t.Errorf("skytui %s: stderr does not say %q:\n%s", strings.Join(args, " "), wantErr, se)
	}
	return se
}

// refused runs a change that must be refused with exit 3 before anything
// is sent, saying wantErr.
func (h *binSandbox) refused(wantErr string, args ...string) {
	h.t.Helper()
	n := h.changes()
	h.fails(exitRefused, wantErr, args...)
	if d := h.changes() - n; d != 0 {
		h.t.Errorf("skytui %s: refused, yet %d changes were sent", strings.Join(args, " "), d)
	}
}

// unsent runs a command that must fail with code and wantErr without
// sending a change.
func (h *binSandbox) unsent(code int, wantErr string, args ...string) {
	h.t.Helper()
	n := h.changes()
	h.fails(code, wantErr, args...)
	if d := h.changes() - n; d != 0 {
		h.t.Errorf("skytui %s: %d changes were sent", strings.Join(args, " "), d)
	}
}

// changes counts the changes the sandbox received (anything but GET).
func (h *binSandbox) changes() int {
	n := 0
	for _, m := range []string{"POST", "PATCH", "PUT", "DELETE"} {
		n += strings.Count(h.log.String(), "method="+m+" ")
	}
	return n
}

// sent counts the requests of method whose path matches the pattern.
func (h *binSandbox) sent(method, pathRE string) int {
	re := regexp.MustCompile(`method=` + method + ` path=` + pathRE + ` `)
	return len(re.FindAllString(h.log.String(), -1))
}

// binPoll is a fast --poll-interval for --wait against the sandbox.
var binPoll = []string{"--poll-interval", "50ms"}

// serviceID reads a service's ID with `services get NAME -o json`.
func (h *binSandbox) serviceID(name string) string {
	h.t.Helper()
	id, _ := jsonOf[map[string]any](h.t, first(h.run(0, "services", "get", name, "-o", "json")))["id"].(string)
	if id == "" {
		h.t.Fatalf("no ID for %s", name)
	}
	return id
}

// table runs a command that prints a table whose header is head, and
// returns the table.
func (h *binSandbox) table(head string, args ...string) string {
	h.t.Helper()
	so, _ := h.run(0, args...)
	if got := strings.Join(tableRows(so)[0], " "); got != head {
		h.t.Errorf("skytui %s: header %s, want %s", strings.Join(args, " "), got, head)
	}
	return so
}

// jsonOf decodes a command's -o json output.
func jsonOf[T any](t *testing.T, s string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
	return v
}

// tableRows splits a table into its rows, each into its cells; the
// header is the first row.
func tableRows(s string) [][]string {
	var rows [][]string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		if l != "" {
			rows = append(rows, strings.Fields(l))
		}
	}
	return rows
}

// tableRow is the row whose first cell is first, nil when none.
func tableRow(s, first string) []string {
	for _, r := range tableRows(s) {
		if len(r) > 0 && r[0] == first {
			return r
		}
	}
	return nil
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

// TestBinaryScripts is the runbook's path end to end: a service created
// and followed until ready, a restore refused without its confirmations
// and then run to Succeeded, a refused key.
func TestBinaryScripts(t *testing.T) {
	h := startBinSandbox(t, "--time-scale", "3000")

	// a service created and followed until ready
	so, _ := h.run(0, "services", "create", "--name", "bin-made", "--provider", "aws", "--region", "us-east-1", "--topology", "es-single",
		"--size", "sky-2x8", "--storage", "100", "--wait", "--poll-interval", "50ms", "-o", "json")
	svc := jsonOf[map[string]any](t, so)
	if svc["status"] != "ready" || svc["name"] != "bin-made" {
		t.Fatalf("created: %v", svc)
	}

	// restore replica-west from orders-prod's newest backup
	backups := jsonOf[[]map[string]any](t, first(h.run(0, "backups", "list", "--service", sandbox.DemoOrders, "--status", "succeeded", "-o", "json")))
	newest, start := "", ""
	for _, b := range backups {
		if s, _ := b["start_time"].(string); s >= start && b["is_external_storage"] == false {
			newest, start = b["id"].(string), s
		}
	}
	h.refused("a restore needs --confirm with the target service's exact name: pass --confirm replica-west (nothing was sent)", "restores", "create", "--service", sandbox.DemoReplica, "--backup", newest, "--yes")
	h.refused(`--confirm "replica" does not match the target service's name: pass --confirm replica-west`,
		"restores", "create", "--service", sandbox.DemoReplica, "--backup", newest, "--yes", "--confirm", "replica")
	h.refused("pass --yes", "restores", "create", "--service", sandbox.DemoReplica, "--backup", newest, "--confirm", sandbox.DemoReplica)
	h.refused("profile audit is read-only: backups create refused, nothing was sent",
		"backups", "create", "--service", sandbox.DemoOrders, "--type", "full", "--profile", "audit")
	n := h.changes()
	so, se := h.run(0, "restores", "create", "--service", sandbox.DemoReplica, "--backup", newest, "--yes", "--confirm", sandbox.DemoReplica,
		"--wait", "--poll-interval", "50ms", "-o", "json")
	if r := jsonOf[map[string]any](t, so); r["status"] != "Succeeded" {
		t.Fatalf("restore: %v", r)
	}
	if !strings.Contains(se, "succeeded: its default username and password are now the source service's") {
		t.Errorf("restore --wait said: %s", se)
	}
	if d := h.changes() - n; d != 1 {
		t.Fatalf("the restore was sent %d times", d)
	}

	// a refused key: exit 1, one line, never the key
	h.env = append(h.env, "SKYSQL_API_KEY=skysql.wrong.key.000") // the last one counts
	if se := h.fails(exitFailed, "401 Unauthorized", "allowlist", "add", sandbox.DemoOrders, "192.0.2.9"); strings.Count(se, "\n") != 1 {
		t.Errorf("not one line: %q", se)
	}
}

// first is the first of two results.
func first(a, _ string) string { return a }
