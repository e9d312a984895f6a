package services

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/skytui/skytui/kit"
	"github.com/skytui/skytui/sandbox"
	"github.com/skytui/skytui/sandbox/mariadb"
	"github.com/skytui/skytui/sandbox/mariadb/mariadbtest"
	"github.com/skytui/skytui/tui/tuitest"
)

// A password with everything an option file could misread: a comment
// sign, both quotes, a backslash, spaces, a semicolon.
const oddPassword = `p#ss "wo'rd\ x;y `

func toolPath(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return p
}

// checkRunning checks, while the client runs, its option file (0600 in a
// 0700 directory, holding the password) and that neither its argv nor its
// environment holds the password or the API key.
func checkRunning(t *testing.T, secrets ...string) (func(*exec.Cmd, string), *string) {
	var seen string
	return func(cmd *exec.Cmd, file string) {
		seen = file
		st, err := os.Stat(file)
		if err != nil {
			t.Errorf("option file while the client runs: %v", err)
			return
		}
		if st.Mode().Perm() != 0o600 {
			t.Errorf("option file mode %v, want 0600", st.Mode().Perm())
		}
		if dst, err := os.Stat(filepath.Dir(file)); err != nil || dst.Mode().Perm() != 0o700 {
			t.Errorf("option file's directory: %v %v, want 0700", dst, err)
		}
		if want := []string{cmd.Path, "--defaults-file=" + file}; strings.Join(cmd.Args[1:], " ") != strings.Join(want[1:], " ") {
			t.Errorf("argv %q, want only the option file", cmd.Args)
		}
		if cmd.Env == nil {
			t.Errorf("the client inherits the environment unfiltered")
		}
		for _, s := range secrets {
			if strings.Contains(strings.Join(cmd.Args, "\x00"), s) {
				t.Errorf("argv holds a secret: %q", cmd.Args)
			}
			for _, kv := range cmd.Env {
				if strings.Contains(kv, s) {
					t.Errorf("environment holds a secret: %q", kv)
				}
			}
		}
	}, &seen
}

func TestShellOptionFileIsPrivateAndRemoved(t *testing.T) {
	const apiKey = "skysql.apikey-must-not-pass"
	t.Setenv("SKYSQL_API_KEY", apiKey)
	t.Setenv("MYSQL_PWD", "stale")
	target := shellTarget{Name: "orders-prod", ID: "dbtaf1", Host: "db.example.net", Port: 3306,
		User: "dbpgf1", Password: oddPassword, TLS: true, CA: "/etc/ssl/certs/ca-certificates.crt", MariaDB: true}
	text := target.optionFile()
	for _, want := range []string{"[client]\n", `user="dbpgf1"`, `password="p#ss \"wo'rd\\ x;y "`, `host="db.example.net"`,
		"port=3306\n", "ssl\n", "ssl-verify-server-cert\n", `ssl-ca="/etc/ssl/certs/ca-certificates.crt"`, `prompt="orders-prod [\\d]> "`} {
		if !strings.Contains(text, want) {
			t.Errorf("option file lacks %s:\n%s", want, text)
		}
	}
	for _, c := range []struct {
		client string
		fails  bool
	}{{toolPath(t, "true"), false}, {toolPath(t, "false"), true}} {
		run := &shellRun{client: c.client, target: target, env: shellEnv(os.Environ())}
		check, file := checkRunning(t, oddPassword, apiKey, "stale")
		run.onStart = check
		err := run.Run()
		if (err != nil) != c.fails {
			t.Errorf("%s: Run = %v", c.client, err)
		}
		if *file == "" {
			t.Fatalf("%s: the client never ran", c.client)
		}
		if _, err := os.Stat(filepath.Dir(*file)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: option file's directory left behind: %v", c.client, err)
		}
		if run.target.Password != "" {
			t.Errorf("%s: the password is kept after the run", c.client)
		}
	}
	// a client that cannot start: the file goes too
	dirs := func() []string { m, _ := filepath.Glob(filepath.Join(os.TempDir(), "skytui-shell-*")); return m }
	before := len(dirs())
	run := &shellRun{client: filepath.Join(t.TempDir(), "no-such-client"), target: target, env: shellEnv(os.Environ())}
	if err := run.Run(); err == nil {
		t.Fatal("a missing client ran")
	}
	if after := len(dirs()); after > before {
		t.Errorf("a failed start left its option file: %v", dirs())
	}
}

func TestShellOptionFileTLS(t *testing.T) {
	cases := []struct {
		t          shellTarget
		want, none []string
	}{
		{shellTarget{Host: "127.0.0.1", MariaDB: true}, []string{"skip-ssl\n"}, []string{"ssl-verify", "ssl-ca"}},
		{shellTarget{Host: "127.0.0.1"}, []string{"ssl-mode=DISABLED\n"}, []string{"ssl-ca"}},
		{shellTarget{Host: "h", TLS: true, CA: "/ca.pem"}, []string{"ssl-mode=VERIFY_IDENTITY\n", `ssl-ca="/ca.pem"`}, []string{"skip-ssl"}},
		{shellTarget{Host: "h", TLS: true, MariaDB: true, Name: "x\x1b]0;evil"}, []string{"ssl-verify-server-cert\n"}, []string{"prompt", "ssl-ca", "evil"}},
	}
	for _, c := range cases {
		text := c.t.optionFile()
		for _, w := range c.want {
			if !strings.Contains(text, w) {
				t.Errorf("%+v: lacks %q:\n%s", c.t, w, text)
			}
		}
		for _, w := range c.none {
			if strings.Contains(text, w) {
				t.Errorf("%+v: holds %q:\n%s", c.t, w, text)
			}
		}
	}
	if got := shellHost("", "dbtaf1.sandbox.localhost"); got != "127.0.0.1" {
		t.Errorf("sandbox host = %s", got)
	}
	if got := shellHost("db.example.net", "x.sandbox.localhost"); got != "db.example.net" {
		t.Errorf("credentials' host = %s", got)
	}
}

// shellScreen is the Services screen on the demo sandbox with its SQL
// endpoints, the listing fed, and exec recorded instead of run.
func shellScreen(t *testing.T, o sandbox.Options) (*Screen, *[]tea.ExecCommand, *[]tea.ExecCallback) {
	o.DemoData, o.Seed = true, 7
	_, _, client := tuitest.SandboxWith(t, o)
	c := tuitest.Common()
	c.Client, c.ReadOnly = client, true
	s := New(c)
	s.SetSize(120, 30)
	svcs, err := client.ListServices(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	feed(s, svcs)
	var runs []tea.ExecCommand
	var fns []tea.ExecCallback
	s.exec = func(c tea.ExecCommand, fn tea.ExecCallback) tea.Cmd {
		runs, fns = append(runs, c), append(fns, fn)
		return nil
	}
	return s, &runs, &fns
}

// pressShell selects the service by name and presses m, running the
// command it returns into the screen; it returns the toast, if any.
func pressShell(t *testing.T, s *Screen, name string) string {
	t.Helper()
	s.Table.Select(idOf(t, s, name))
	cmd := press(s, "m")
	if cmd == nil {
		t.Fatal("m did nothing")
	}
	msg := cmd()
	if tm, ok := msg.(kit.ToastMsg); ok {
		return tm.Text
	}
	_, cmd = s.Update(msg)
	if cmd != nil {
		if tm, ok := cmd().(kit.ToastMsg); ok {
			return tm.Text
		}
	}
	return ""
}

func idOf(t *testing.T, s *Screen, name string) string {
	t.Helper()
	for _, v := range s.services {
		if v.Name == name {
			return v.ID
		}
	}
	t.Fatalf("no service %s", name)
	return ""
}

func TestShellKeyRunsTheClientOnAReadyService(t *testing.T) {
	s, runs, fns := shellScreen(t, sandbox.Options{})
	s.findClient = func(context.Context) (string, bool, error) { return toolPath(t, "true"), true, nil }

	if toast := pressShell(t, s, "staging-eu"); !strings.Contains(toast, "staging-eu is pending_modifying: a database shell needs a ready service") {
		t.Errorf("a pending service: toast %q", toast)
	}
	if len(*runs) != 0 {
		t.Fatal("a client ran for a service that is not ready")
	}
	// read-only profile: a shell is allowed (no change through the API)
	if toast := pressShell(t, s, "orders-prod"); toast != "" {
		t.Fatalf("orders-prod: toast %q", toast)
	}
	if len(*runs) != 1 {
		t.Fatalf("%d clients run, want 1", len(*runs))
	}
	run := (*runs)[0].(*shellRun)
	cr, err := s.common.Client.GetCredentials(context.Background(), idOf(t, s, "orders-prod"))
	if err != nil {
		t.Fatal(err)
	}
	if run.target.Host != "127.0.0.1" || run.target.TLS || run.target.User != cr.Username || run.target.Password != cr.Password {
		t.Errorf("target %+v", run.target)
	}
	check, file := checkRunning(t, cr.Password)
	run.onStart = check
	done := (*fns)[0](run.Run())
	if *file == "" {
		t.Fatal("the client never ran")
	}
	a, ok := done.(kit.Addressed)
	if !ok || a.To != ID {
		t.Fatalf("the client's end is not addressed to the screen: %#v", done)
	}
	_, cmd := s.Update(a.Msg)
	if tm := cmd().(kit.ToastMsg); tm.Text != "left the database shell of orders-prod" {
		t.Errorf("toast %q", tm.Text)
	}
}

func TestShellWithoutClientSaysSo(t *testing.T) {
	s, runs, _ := shellScreen(t, sandbox.Options{})
	t.Setenv("PATH", t.TempDir())
	if toast := pressShell(t, s, "orders-prod"); !strings.Contains(toast, "no mariadb or mysql client in PATH") {
		t.Errorf("toast %q", toast)
	}
	if len(*runs) != 0 {
		t.Error("a client ran")
	}
}

func TestShellFailureToastsTheClientsError(t *testing.T) {
	s, _, _ := shellScreen(t, sandbox.Options{})
	run := &shellRun{}
	run.tail.Write([]byte("ERROR 2002 (HY000): Can't connect to server on '127.0.0.1' (111)\n"))
	err := exec.Command(toolPath(t, "false")).Run()
	_, cmd := s.Update(shellDoneMsg{name: "orders-prod", err: err, stderr: run.tail.lastLine()})
	want := "database shell of orders-prod ended with exit status 1: ERROR 2002 (HY000): Can't connect to server on '127.0.0.1' (111)"
	if tm := cmd().(kit.ToastMsg); tm.Text != want {
		t.Errorf("toast %q, want %q", tm.Text, want)
	}
}

// mariadbClient is the real client, or the test is skipped (failed
// under CI=true).
func mariadbClient(t *testing.T) string {
	t.Helper()
	p, mdb, err := findClient(context.Background())
	if err != nil {
		mariadbtest.Missing(t, err)
	}
	if !mdb {
		t.Skip("the client is not MariaDB's")
	}
	return p
}

// query runs the client with q on its standard input and returns what it
// printed; the test fails if the client does.
func query(t *testing.T, run *shellRun, q string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	run.SetStdin(strings.NewReader(q + "\n"))
	run.SetStdout(&out)
	run.SetStderr(&errOut)
	if err := run.Run(); err != nil {
		t.Fatalf("client: %v: %s", err, errOut.String())
	}
	return out.String()
}

// The real client on the demo's SQL endpoint, through the screen: the
// credentials read, the option file written, a query answered.
func TestShellRealClientOnDemoEndpoint(t *testing.T) {
	mariadbClient(t)
	s, runs, _ := shellScreen(t, sandbox.Options{SQL: sandbox.SQLDemo})
	if toast := pressShell(t, s, "orders-prod"); toast != "" {
		t.Fatalf("toast %q", toast)
	}
	if out := query(t, (*runs)[0].(*shellRun), "select 1;"); !strings.Contains(out, "1") {
		t.Errorf("select 1 answered %q", out)
	}
}

// The option file read by the real client against a real MariaDB, with a
// password that has everything an option file could misread.
func TestShellRealClientOddPassword(t *testing.T) {
	mariadbtest.Require(t)
	client := mariadbClient(t)
	srv := mariadbtest.Start(t, mariadb.Options{Name: "shell"})[0]
	db, err := srv.DB()
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	quoted := strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(oddPassword)
	mariadbtest.Exec(t, db, "CREATE USER 'shelluser'@'%' IDENTIFIED BY '"+quoted+"'")
	run := &shellRun{client: client, env: shellEnv(os.Environ()),
		target: shellTarget{Name: "odd", ID: "dbtaf1", Host: "127.0.0.1", Port: srv.Port, User: "shelluser", Password: oddPassword, MariaDB: true}}
	if out := query(t, run, "select current_user();"); !strings.Contains(out, "shelluser@%") {
		t.Errorf("current_user() = %q", out)
	}
}
