// Package mariadb starts throwaway local MariaDB servers on loopback ports,
// each with the sky schema of replication procedures, so that restores,
// grants and replication can be real in tests and in `skytui sandbox
// --mariadb`.
package mariadb

import (
	"bytes"
	"context"
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	_ "github.com/go-sql-driver/mysql" // registers "mysql"
)

//go:embed sky.sql
var skySQL string

// Statements returns the sky schema as single statements.
func Statements() []string {
	var out []string
	for _, s := range strings.Split(skySQL, "$$") {
		var lines []string
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(strings.TrimSpace(l), "--") {
				continue
			}
			lines = append(lines, l)
		}
		if st := strings.TrimSpace(strings.Join(lines, "\n")); st != "" {
			out = append(out, st)
		}
	}
	return out
}

// Binaries locates mariadbd and mariadb-install-db; an error says what is missing.
func Binaries() (server, installDB string, err error) {
	p, err := locate("mariadb-server", []string{"mariadbd"}, []string{"mariadb-install-db"})
	if err != nil {
		return "", "", err
	}
	return p[0], p[1], nil
}

// programDirs are where MariaDB's programs are looked for when not on PATH.
var programDirs = []string{"/usr/sbin", "/usr/bin", "/usr/local/bin", "/usr/local/mysql/bin"}

// findProgram is the path of the first of names found on PATH or in
// programDirs, or "".
func findProgram(names ...string) string {
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
		for _, dir := range programDirs {
			p := filepath.Join(dir, name)
			if st, err := os.Stat(p); err == nil && !st.IsDir() {
				return p
			}
		}
	}
	return ""
}

// locate finds one program per entry of progs (each its alternative
// names); an error names the missing ones and the package to install.
func locate(pkg string, progs ...[]string) ([]string, error) {
	paths := make([]string, len(progs))
	var missing []string
	for i, names := range progs {
		if paths[i] = findProgram(names...); paths[i] == "" {
			missing = append(missing, names[0])
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("%s not found (install the %s package)", strings.Join(missing, " and "), pkg)
	}
	return paths, nil
}

// Cluster makes servers from one template data directory.
type Cluster struct {
	dir      string
	server   string
	template string
	mu       sync.Mutex
	servers  []*Server
	next     int
	closed   bool
}

// NewCluster initialises a template data directory under dir (once, under a
// second) from which every server is copied.
func NewCluster(ctx context.Context, dir string) (*Cluster, error) {
	server, installDB, err := Binaries()
	if err != nil {
		return nil, err
	}
	tmpl := filepath.Join(dir, "template")
	// a temporary directory of its own: bootstraps running at once (tests
	// in parallel) otherwise share /tmp for their temporary tables
	tmp := filepath.Join(dir, "install-tmp")
	if err := os.MkdirAll(tmp, 0o700); err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, installDB, "--no-defaults", "--user="+currentUser(), "--datadir="+tmpl,
		"--auth-root-authentication-method=normal", "--skip-test-db", "--tmpdir="+tmp)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("mariadb-install-db: %v\n%s", err, tail(out))
	}
	return &Cluster{dir: dir, server: server, template: tmpl}, nil
}

func currentUser() string {
	if u := os.Getenv("USER"); u != "" {
		return u
	}
	if os.Getuid() == 0 {
		return "root"
	}
	return strconv.Itoa(os.Getuid())
}

func tail(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 2000 {
		s = "…" + s[len(s)-2000:]
	}
	return s
}

// Server is one running mariadbd.
type Server struct {
	Name    string
	Port    int
	dir     string
	cmd     *exec.Cmd
	done    chan struct{}
	waitErr error
	logPath string
}

// Options of one server.
type Options struct {
	Name      string // for directories and logs
	ServiceID string // makes the replication user skysql_replication_<id>
	// OutboundIP is the address the grant allows (the service's egress
	// address); default "%" locally.
	OutboundIP string
}

// Start starts a server on a free loopback port with binary logging and the
// sky schema installed, and waits until it accepts connections.
func (c *Cluster) Start(ctx context.Context, opt Options) (*Server, error) {
	c.mu.Lock()
	c.next++
	id := c.next
	closed := c.closed
	c.mu.Unlock()
	if closed {
		return nil, errClosed
	}
	if opt.Name == "" {
		opt.Name = "srv" + strconv.Itoa(id)
	}
	dir := filepath.Join(c.dir, fmt.Sprintf("%s-%d", opt.Name, id))
	if err := exec.CommandContext(ctx, "cp", "-a", c.template, filepath.Join(dir)).Run(); err != nil {
		return nil, fmt.Errorf("copy template datadir: %w", err)
	}
	// A free port can be taken by another process between the probe and
	// mariadbd's bind (tests start servers in parallel): then the server
	// exits, or the port answers with someone else's server. Either way,
	// try another port.
	var s *Server
	for attempt := 1; ; attempt++ {
		var err error
		s, err = c.launch(ctx, opt, id, dir)
		if err == nil {
			break
		}
		if !errors.Is(err, errPortTaken) || attempt == 3 {
			return nil, err
		}
	}
	if err := s.install(ctx, opt); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

var errPortTaken = errors.New("port taken by another process")

// launch starts mariadbd on a free port and waits until it answers as
// itself (its own data directory).
func (c *Cluster) launch(ctx context.Context, opt Options, id int, dir string) (*Server, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	s := &Server{Name: opt.Name, Port: port, dir: dir, done: make(chan struct{}), logPath: filepath.Join(dir, "error.log")}
	args := []string{
		"--no-defaults", "--user=" + currentUser(),
		"--datadir=" + dir,
		"--tmpdir=" + dir,
		"--socket=" + filepath.Join(dir, "mysqld.sock"),
		"--pid-file=" + filepath.Join(dir, "mysqld.pid"),
		"--port=" + strconv.Itoa(port),
		"--bind-address=127.0.0.1",
		"--server-id=" + strconv.Itoa(1000+id),
		"--log-bin=mariadb-bin", "--log-basename=" + opt.Name,
		"--gtid-domain-id=0",
		"--skip-name-resolve",
		"--performance-schema=OFF",
		"--innodb-buffer-pool-size=32M",
		"--innodb-log-file-size=16M",
		"--log-error=" + s.logPath,
	}
	// not bound to ctx: the server outlives the call that started it
	s.cmd = exec.Command(c.server, args...)
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("start mariadbd: %w", err)
	}
	go func() {
		s.waitErr = s.cmd.Wait()
		close(s.done)
	}()
	c.mu.Lock()
	if c.closed { // Close ran while this server was starting
		c.mu.Unlock()
		s.Stop()
		return nil, errClosed
	}
	c.servers = append(c.servers, s)
	c.mu.Unlock()
	if err := s.waitReady(ctx); err != nil {
		s.Stop()
		if log := s.Log(); strings.Contains(log, "already in use") || strings.Contains(log, "Can't start server: Bind") {
			return nil, fmt.Errorf("%w: %v", errPortTaken, err)
		}
		return nil, err
	}
	if !s.answersAsItself(ctx) {
		s.Stop()
		return nil, errPortTaken
	}
	return s, nil
}

// answersAsItself checks that the server on the port is this one.
func (s *Server) answersAsItself(ctx context.Context) bool {
	db, err := s.DB()
	if err != nil {
		return false
	}
	defer db.Close()
	var d string
	if err := db.QueryRowContext(ctx, "SELECT @@datadir").Scan(&d); err != nil {
		return false
	}
	return filepath.Clean(d) == filepath.Clean(s.dir)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// DSN is a root connection string for the server.
func (s *Server) DSN() string {
	return fmt.Sprintf("root@tcp(127.0.0.1:%d)/?timeout=5s&readTimeout=10s&writeTimeout=10s", s.Port)
}

// DB opens a root connection pool.
func (s *Server) DB() (*sql.DB, error) { return sql.Open("mysql", s.DSN()) }

func (s *Server) waitReady(ctx context.Context) error {
	deadline := time.Now().Add(30 * time.Second)
	db, err := s.DB()
	if err != nil {
		return err
	}
	defer db.Close()
	for {
		select {
		case <-s.done:
			log, _ := os.ReadFile(s.logPath)
			return fmt.Errorf("mariadbd exited: %v\n%s", s.waitErr, tail(log))
		default:
		}
		pctx, cancel := context.WithTimeout(ctx, time.Second)
		err := db.PingContext(pctx)
		cancel()
		if err == nil {
			return nil
		}
		if ctx.Err() != nil || time.Now().After(deadline) {
			return fmt.Errorf("mariadbd on port %d not ready: %v", s.Port, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// unlogged runs fn on one root connection that does not write the binary
// log.
func (s *Server) unlogged(ctx context.Context, fn func(*sql.Conn) error) error {
	db, err := s.DB()
	if err != nil {
		return err
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SET SESSION sql_log_bin = 0"); err != nil {
		return fmt.Errorf("SET SESSION sql_log_bin = 0: %w", err)
	}
	return fn(conn)
}

// install creates the sky schema, which is local to each service, never
// replicated.
func (s *Server) install(ctx context.Context, opt Options) error {
	return s.unlogged(ctx, func(conn *sql.Conn) error {
		for _, st := range Statements() {
			if _, err := conn.ExecContext(ctx, st); err != nil {
				return fmt.Errorf("install sky schema: %w\n%s", err, st)
			}
		}
		set := func(k, v string) error {
			if v == "" {
				return nil
			}
			_, err := conn.ExecContext(ctx, "REPLACE INTO sky.settings (name, value) VALUES (?, ?)", k, v)
			return err
		}
		if err := set("service_id", opt.ServiceID); err != nil {
			return err
		}
		return set("outbound_ip", opt.OutboundIP)
	})
}

// Stop terminates the server and waits for it (TERM, then KILL after 10 s).
func (s *Server) Stop() {
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	select {
	case <-s.done:
		return
	default:
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
	}
}

var errClosed = errors.New("mariadb: the cluster is closed")

// Close stops every server of the cluster, and refuses to start more.
func (c *Cluster) Close() {
	c.mu.Lock()
	servers := c.servers
	c.servers = nil
	c.closed = true
	c.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range servers {
		wg.Add(1)
		go func() { defer wg.Done(); s.Stop() }()
	}
	wg.Wait()
}

// Log returns the server's error log, for test failures.
func (s *Server) Log() string {
	b, _ := os.ReadFile(s.logPath)
	return string(bytes.TrimSpace(b))
}
