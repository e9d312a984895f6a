package services

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
)

// Connecting to a service: its credentials (c: the password masked until
// v, copied with y; the mariadb command with Y) and the database shell
// (m), which reads the same credentials.

// The database shell (m): the mariadb client (else mysql) on a ready
// service, run in the terminal while the UI is suspended (tea.Exec). A
// command reads the service's credentials and finds the client; the
// password reaches the client only through an option file, mode 0600 in a
// private 0700 directory, written just before the client starts and
// removed as soon as it exits, whatever happened: never argv, never the
// environment (which also loses the API key's variable).
//
// A read-only profile may open it: a shell changes nothing of the account
// through the API, and the same credentials are readable (c) and copyable
// there anyway; what the shell does to the data is the database's own
// grants' business.

// shellClients are the clients looked for in PATH, in order.
var shellClients = []string{"mariadb", "mysql"}

// errNoClient is said when neither client is installed.
var errNoClient = errors.New("no mariadb or mysql client in PATH: install the MariaDB client (mariadb-client) to open a shell here")

// caBundles are where the system's CA certificates usually are; the first
// present one verifies the service's certificate.
var caBundles = []string{
	"/etc/ssl/certs/ca-certificates.crt", // Debian, Ubuntu, Alpine
	"/etc/pki/tls/certs/ca-bundle.crt",   // Fedora, RHEL
	"/etc/ssl/cert.pem",                  // macOS, BSDs
	"/etc/ssl/ca-bundle.pem",             // openSUSE
}

// shellTarget is what the option file says.
type shellTarget struct {
	Name, ID       string // the service, for the prompt and the file's comment
	Host           string
	Port           int
	User, Password string
	TLS            bool   // the service has SSL on: encrypt and verify
	CA             string // a CA bundle to verify with ("": the client's default)
	MariaDB        bool   // the client is MariaDB's (else Oracle's mysql)
}

// optionFileValue quotes v for an option file: double quotes, with the
// escapes the clients' option-file reader undoes (a '#' inside quotes is
// no comment).
func optionFileValue(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", `\r`, "\t", `\t`, "\b", `\b`)
	return `"` + r.Replace(v) + `"`
}

// safePromptName is a service name that may go into the prompt as it is.
var safePromptName = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// optionFile is the option file's text.
func (t shellTarget) optionFile() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# skytui: the database shell of %s; removed when the client exits\n", t.ID)
	b.WriteString("[client]\n")
	fmt.Fprintf(&b, "user=%s\n", optionFileValue(t.User))
	fmt.Fprintf(&b, "password=%s\n", optionFileValue(t.Password))
	fmt.Fprintf(&b, "host=%s\n", optionFileValue(t.Host))
	fmt.Fprintf(&b, "port=%d\n", t.Port)
	switch {
	case !t.TLS && t.MariaDB:
		b.WriteString("skip-ssl\n")
	case !t.TLS:
		b.WriteString("ssl-mode=DISABLED\n")
	case t.MariaDB:
		b.WriteString("ssl\nssl-verify-server-cert\n")
	default:
		b.WriteString("ssl-mode=VERIFY_IDENTITY\n")
	}
	if t.TLS && t.CA != "" {
		fmt.Fprintf(&b, "ssl-ca=%s\n", optionFileValue(t.CA))
	}
	if safePromptName.MatchString(t.Name) {
		// the client's own group: a prompt naming the service
		fmt.Fprintf(&b, "[mysql]\nprompt=%s\n", optionFileValue(t.Name+` [\d]> `))
	}
	return b.String()
}

// shellRun is the client's run, a tea.ExecCommand: Run writes the option
// file, runs the client on the terminal and removes the file.
type shellRun struct {
	client string // the client's path
	target shellTarget
	env    []string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// tail keeps the end of what the client wrote on stderr, for the
	// toast when it fails (the terminal is the UI's again by then).
	tail tailWriter
	// onStart sees the command and its option file while the client runs
	// (tests).
	onStart func(cmd *exec.Cmd, file string)
}

func (r *shellRun) SetStdin(in io.Reader)   { r.stdin = in }
func (r *shellRun) SetStdout(out io.Writer) { r.stdout = out }
func (r *shellRun) SetStderr(w io.Writer)   { r.stderr = w }

// command is the client's command line: the option file only.
func (r *shellRun) command(file string) *exec.Cmd {
	// --defaults-file, first: the client reads this file alone, so a
	// [client] section of the user's ~/.my.cnf cannot send it elsewhere
	// or with other credentials
	cmd := exec.Command(r.client, "--defaults-file="+file)
	cmd.Env = r.env
	cmd.Stdin, cmd.Stdout = r.stdin, r.stdout
	if r.stderr != nil {
		cmd.Stderr = io.MultiWriter(r.stderr, &r.tail)
	} else {
		cmd.Stderr = &r.tail
	}
	return cmd
}

// Run implements tea.ExecCommand.
func (r *shellRun) Run() error {
	defer func() { r.target.Password = "" }() // once run, not kept
	dir, err := os.MkdirTemp("", "skytui-shell-")
	if err != nil {
		return fmt.Errorf("option file: %w", err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "client.cnf")
	if err := writePrivate(file, r.target.optionFile()); err != nil {
		return fmt.Errorf("option file: %w", err)
	}
	cmd := r.command(file)
	if r.onStart != nil {
		if err := cmd.Start(); err != nil {
			return err
		}
		r.onStart(cmd, file)
		return cmd.Wait()
	}
	return cmd.Run()
}

// writePrivate writes a new file readable by its owner alone (0600
// whatever the umask), created exclusively.
func writePrivate(path, text string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// tailWriter keeps the last bytes written to it.
type tailWriter struct{ b []byte }

func (t *tailWriter) Write(p []byte) (int, error) {
	t.b = append(t.b, p...)
	if over := len(t.b) - 2048; over > 0 {
		t.b = t.b[over:]
	}
	return len(p), nil
}

// lastLine is the last line written that is not blank, cleaned for the
// screen.
func (t *tailWriter) lastLine() string {
	lines := strings.Split(strings.TrimSpace(string(t.b)), "\n")
	return api.CleanText(strings.TrimSpace(lines[len(lines)-1]))
}

// shellEnv is the environment the client gets: this process's, less the
// API key's variable and a MYSQL_PWD that would stand for the password.
func shellEnv(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		if name == keystore.EnvAPIKey || name == "MYSQL_PWD" {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// shellHost is where the client connects: the credentials' host, else the
// service's; a *.localhost name (the sandbox's) is 127.0.0.1, which the
// client would not resolve itself.
func shellHost(credHost, fqdn string) string {
	h := credHost
	if h == "" {
		h = fqdn
	}
	if api.IsLoopbackHost(h) && net.ParseIP(strings.Trim(h, "[]")) == nil {
		return "127.0.0.1" // localhost too: the client would take it for its socket
	}
	return h
}

// findClient finds the first client in PATH and whether it is MariaDB's
// (its --version says so; a mariadb binary always is).
func findClient(ctx context.Context) (path string, mariaDB bool, err error) {
	for _, name := range shellClients {
		p, err := exec.LookPath(name)
		if err != nil {
			continue
		}
		if name == "mariadb" {
			return p, true, nil
		}
		v := exec.CommandContext(ctx, p, "--version")
		v.Env = shellEnv(os.Environ())
		out, _ := v.Output()
		return p, strings.Contains(string(out), "MariaDB"), nil
	}
	return "", false, errNoClient
}

// systemCA is the first CA bundle present, or "".
func systemCA() string {
	for _, p := range caBundles {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// shellReadyMsg carries the client's run, or why there is none.
type shellReadyMsg struct {
	name string
	run  *shellRun
	err  error
}

// shellDoneMsg says how the client ended.
type shellDoneMsg struct {
	name   string
	err    error
	stderr string
}

// openShell starts the database shell of v: a ready check, then the
// credentials and the client, read in a command.
func (s *Screen) openShell(v api.Service) tea.Cmd {
	if !v.Ready() {
		return s.refuseStatus(v, "a database shell needs a ready service")
	}
	port := v.ReadWritePort()
	if port <= 0 {
		return kit.Toast(kit.ToastWarn, v.Name+" has no read-write port yet: no shell")
	}
	client, ctx := s.common.Client, s.common.Ctx()
	find := s.findClient
	if find == nil {
		find = findClient
	}
	return func() tea.Msg {
		path, mariaDB, err := find(ctx)
		if err != nil {
			return shellReadyMsg{name: v.Name, err: err}
		}
		cr, err := client.GetCredentials(ctx, v.ID)
		if err != nil {
			return shellReadyMsg{name: v.Name, err: err}
		}
		t := shellTarget{Name: v.Name, ID: v.ID, Host: shellHost(cr.Host, v.FQDN), Port: port,
			User: cr.Username, Password: cr.Password, MariaDB: mariaDB}
		// loopback (the sandbox's endpoints) never leaves the machine and
		// speaks no TLS, as for the replication's SQL client
		t.TLS = v.SSLEnabled && !api.IsLoopbackHost(t.Host)
		if t.TLS {
			t.CA = systemCA()
		}
		return shellReadyMsg{name: v.Name, run: &shellRun{client: path, target: t, env: shellEnv(os.Environ())}}
	}
}

// onShellReady suspends the UI and runs the client; its end comes back to
// this screen.
func (s *Screen) onShellReady(msg shellReadyMsg) tea.Cmd {
	if msg.err != nil {
		if errors.Is(msg.err, errNoClient) {
			return kit.Toast(kit.ToastError, msg.err.Error())
		}
		return kit.Toast(kit.ToastError, "database shell of "+msg.name+": "+msg.err.Error())
	}
	run, name := msg.run, msg.name
	return s.exec(run, func(err error) tea.Msg {
		return kit.Addressed{To: ID, Msg: shellDoneMsg{name: name, err: err, stderr: run.tail.lastLine()}}
	})
}

// onShellDone says how the client ended.
func (s *Screen) onShellDone(msg shellDoneMsg) tea.Cmd {
	if msg.err == nil {
		return kit.Toast(kit.ToastInfo, "left the database shell of "+msg.name)
	}
	text := "database shell of " + msg.name + ": " + msg.err.Error()
	var ee *exec.ExitError
	if errors.As(msg.err, &ee) {
		text = "database shell of " + msg.name + " ended with exit status " + strconv.Itoa(ee.ExitCode())
	}
	if msg.stderr != "" {
		text += ": " + msg.stderr
	}
	return kit.Toast(kit.ToastError, text)
}

// credsMsg carries the answer of a credentials read.
type credsMsg struct {
	id    string
	creds *api.Credentials
	err   error
}

// credsView shows a ready service's default credentials: username, the
// password masked until revealed, and a ready-to-paste mariadb command. The
// password lives only while the view is open.
type credsView struct {
	common  *kit.Common
	keys    keyMap
	width   int
	height  int
	svc     api.Service
	loading bool
	creds   *api.Credentials
	err     error
	reveal  bool
}

func newCredsView(c *kit.Common, keys keyMap, v api.Service) *credsView {
	return &credsView{common: c, keys: keys, svc: v}
}

// CapturesKeys implements kit.Pane.
func (c *credsView) CapturesKeys() bool { return false }

// KeyMap implements kit.Pane: the copy keys and v while there are
// credentials, a read again when the read failed.
func (c *credsView) KeyMap() kit.Keys {
	k := c.keys
	b := []key.Binding{k.Back}
	if c.creds != nil {
		b = []key.Binding{k.CopyPassword, k.CopyCommand, k.CopyUser, k.Reveal, k.Back}
	}
	if c.err != nil {
		b = append(b, k.Retry)
	}
	keys := kit.KeysOf(b...)
	keys.Title = "Credentials" // in ?
	return keys
}

// SetSize implements kit.Pane.
func (c *credsView) SetSize(w, h int) { c.width, c.height = w, h }

// load reads the credentials if the service is ready; before that the
// view explains and waits (the listing keeps being polled).
func (c *credsView) load() tea.Cmd {
	if !c.svc.Ready() || c.loading || c.creds != nil {
		return nil
	}
	c.loading = true
	c.err = nil
	client, id, ctx := c.common.Client, c.svc.ID, c.common.Ctx()
	return func() tea.Msg {
		cr, err := client.GetCredentials(ctx, id)
		return credsMsg{id: id, creds: cr, err: err}
	}
}

// Update implements kit.PaneUpdater: the credentials it asked for.
func (c *credsView) Update(msg tea.Msg) tea.Cmd {
	if m, ok := msg.(credsMsg); ok {
		c.onLoaded(m)
	}
	return nil
}

func (c *credsView) onLoaded(msg credsMsg) {
	if msg.id != c.svc.ID {
		return
	}
	c.loading = false
	c.creds, c.err = msg.creds, msg.err
}

// onService follows the service's status: when it turns ready while the
// explanation is shown, the credentials are read.
func (c *credsView) onService(v api.Service) tea.Cmd {
	c.svc = v
	if v.Ready() && c.creds == nil && !c.loading && c.err == nil {
		return c.load()
	}
	return nil
}

func (c *credsView) host() string {
	if c.creds != nil && c.creds.Host != "" {
		return c.creds.Host
	}
	return c.svc.FQDN
}

// command is the mariadb client line; -p makes it prompt for the
// password, so the password never lands in shell history.
func (c *credsView) command() string {
	if c.creds == nil {
		return ""
	}
	parts := []string{"mariadb", "--host", c.host()}
	if p := c.svc.ReadWritePort(); p > 0 {
		parts = append(parts, "--port", strconv.Itoa(p))
	}
	parts = append(parts, "--user", c.creds.Username, "-p")
	if c.svc.SSLEnabled {
		parts = append(parts, "--ssl-verify-server-cert")
	}
	return kit.ShellCommand(parts...) // a username like x;curl … stays one word
}

// noCreds says why a copy key or v has nothing to work on: the
// credentials are not there (the service is not ready, they are being
// read, or the read failed).
func (c *credsView) noCreds() string {
	switch {
	case !c.svc.Ready():
		return fmt.Sprintf("nothing to copy while %s is %s", c.svc.Name, kit.OrDash(c.svc.Status))
	case c.err != nil:
		return "nothing to copy: the credentials could not be read (" + c.keys.Retry.Help().Key + " reads them again)"
	}
	return "nothing to copy yet: reading the credentials of " + c.svc.Name
}

func (s *Screen) onCredsKey(msg tea.KeyPressMsg) tea.Cmd {
	k, c := s.keys, s.creds
	if key.Matches(msg, k.Back) {
		s.creds = nil // drop the password
		s.mode = modeList
		return nil
	}
	if c.creds == nil && (key.Matches(msg, k.Reveal, k.CopyPassword, k.CopyUser, k.CopyCommand)) {
		return kit.Toast(kit.ToastInfo, c.noCreds())
	}
	switch {
	case key.Matches(msg, k.Reveal):
		c.reveal = !c.reveal
		return nil
	case key.Matches(msg, k.CopyPassword):
		return kit.Copy(s.common, "password of "+c.svc.Name, c.creds.Password)
	case key.Matches(msg, k.CopyUser):
		return kit.Copy(s.common, "username of "+c.svc.Name, c.creds.Username)
	case key.Matches(msg, k.CopyCommand):
		return kit.Copy(s.common, "mariadb command for "+c.svc.Name, c.command())
	case key.Matches(msg, k.Retry):
		if c.err != nil {
			c.err = nil
			return c.load()
		}
	}
	return nil
}

// View implements kit.Pane. On a short area (60x16) the credentials keep
// what connecting needs (host, port, user, the password masked, the
// command) and the copy keys' line: "esc back" (which the footer keeps)
// and the blank lines go first, from the bottom up.
func (c *credsView) View() string {
	w, h := c.width, c.height
	lines, spare := c.lines()
	for i := len(lines) - 1; i >= 0 && len(lines) > h; i-- {
		if spare[i] {
			lines = append(lines[:i], lines[i+1:]...)
		}
	}
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, c.common.Theme.Glyphs.Ellipsis)
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	return strings.Join(lines, "\n")
}

// lines are the view's lines and which of them a short area leaves out
// (spare): the blank lines and "esc back".
func (c *credsView) lines() (lines []string, spare []bool) {
	th, w := c.common.Theme, c.width
	g := th.Glyphs
	add := func(s string, sp bool) {
		for _, l := range strings.Split(s, "\n") {
			lines, spare = append(lines, l), append(spare, sp)
		}
	}
	gap := func() { add("", true) }
	add(th.Bold.Render(" Credentials")+"  "+c.svc.Name+" "+th.Muted.Render("("+c.svc.ID+")"), false)
	gap()
	row := func(label, value string) {
		add("  "+th.Label.Render(fmt.Sprintf("%-9s", label))+"  "+value, false)
	}
	switch {
	case !c.svc.Ready():
		why := "Credentials are readable once the service is ready again."
		if api.StatusIs(c.svc.Status, "failed") {
			why = failedWhy(c.svc)
		} else if api.StatusIs(c.svc.Status, "pending_create") {
			why = "Credentials exist once the service is ready. A launch takes about 5 minutes; " +
				"this view fills in by itself when the service is ready."
		} else if c.svc.Pending() {
			why = "The service is changing; its credentials are readable when it is ready again. " +
				"This view fills in by itself."
		}
		add("  "+th.Status(c.svc.Status).Render(statusText(&c.svc, c.common.Time())), false)
		gap()
		add(indent(kit.Wrap(why, max(20, w-4)), "  "), false)
	case c.loading:
		add("  reading credentials"+g.Ellipsis, false)
	case c.err != nil:
		add("  "+th.Error.Render("Could not read the credentials."), false)
		add(indent(kit.Wrap(credsErrText(c.err), max(20, w-4)), "  "), false)
		gap()
		add(th.Muted.Render("  enter to try again, esc to go back"), false)
	case c.creds != nil:
		pw := strings.Repeat(g.Mask, min(12, max(8, len([]rune(c.creds.Password)))))
		if c.reveal {
			pw = c.creds.Password
		}
		port := "-"
		if p := c.svc.ReadWritePort(); p > 0 {
			port = strconv.Itoa(p) + " (readwrite)"
		}
		ssl := "off"
		if c.svc.SSLEnabled {
			ssl = "on"
		}
		row("Host", c.host())
		row("Port", port)
		row("Username", c.creds.Username)
		row("Password", pw+th.Muted.Render("   v "+map[bool]string{false: "reveal", true: "hide"}[c.reveal]))
		row("SSL", ssl)
		gap()
		add("  "+th.Bold.Render("Connect")+th.Muted.Render(" (prompts for the password)"), false)
		for _, l := range kit.CommandLines(c.command(), max(20, w-4), true) {
			add("    "+th.Code.Render(l), false)
		}
		gap()
		k := c.keys
		copyKeys := fmt.Sprintf("  %s copy password   %s copy command   %s copy username",
			k.CopyPassword.Help().Key, k.CopyCommand.Help().Key, k.CopyUser.Help().Key)
		if note := "   (OSC 52; works over SSH)"; ansi.StringWidth(copyKeys+note) <= w {
			copyKeys += note // where it fits: the keys are not cut for it
		}
		add(th.Muted.Render(copyKeys), false)
	}
	gap()
	add(th.Muted.Render("  "+c.keys.Back.Help().Key+" back"), true)
	return lines, spare
}

// failedWhy is what the credentials of a failed service say, in the
// CLI's words: why it failed, from its record (the API's text, cleaned
// at decode), and that it has no credentials to read (it will not
// become ready).
func failedWhy(v api.Service) string {
	why := v.NameOrID() + " is " + v.Status
	if len(v.Errors) > 0 {
		why += ": " + strings.Join(v.Errors, "; ")
	}
	return why + "; it has no credentials to read."
}

// credsErrText explains a failed credentials read in words.
func credsErrText(err error) string {
	switch {
	case api.IsConflict(err):
		return "The service is not ready yet (" + err.Error() + ")."
	case api.IsNotFound(err):
		return "The service or its credentials were not found; it may have been deleted."
	case api.IsUnauthorized(err):
		return "The API key was refused."
	}
	return err.Error()
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
