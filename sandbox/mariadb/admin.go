package mariadb

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
)

// What a managed service does to its server besides the sky procedures:
// the default (admin) user, logical dumps that a backup keeps, and loading
// one into another server as a restore.

// systemSchemas are never dumped, dropped or loaded: the server's own and
// the sky procedures (local to each service).
var systemSchemas = map[string]bool{
	"mysql": true, "sky": true, "sys": true,
	"information_schema": true, "performance_schema": true,
}

// ClientBinaries locates mariadb-dump and the mariadb client, which backups
// and restores of real servers use.
func ClientBinaries() (dump, client string, err error) {
	p, err := locate("mariadb-client", []string{"mariadb-dump", "mysqldump"}, []string{"mariadb", "mysql"})
	if err != nil {
		return "", "", err
	}
	return p[0], p[1], nil
}

// Pid is the server's process ID (0 before it started).
func (s *Server) Pid() int {
	if s.cmd == nil || s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

// Exited reports whether the server process has ended.
func (s *Server) Exited() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// Quote is a MariaDB string literal of v.
func Quote(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`, "\x00", `\0`, "\n", `\n`, "\r", `\r`)
	return "'" + r.Replace(v) + "'"
}

// admin runs statements as root on one connection that does not write the
// binary log: what the platform does to a service is not a transaction a
// replica of it should see.
func (s *Server) admin(ctx context.Context, stmts ...string) error {
	return s.unlogged(ctx, func(conn *sql.Conn) error {
		for _, st := range stmts {
			if _, err := conn.ExecContext(ctx, st); err != nil {
				return fmt.Errorf("%s: %w", strings.SplitN(st, " IDENTIFIED", 2)[0], err)
			}
		}
		return nil
	})
}

// SetAdmin makes user@'%' the service's default user with password and the
// privileges a managed service's admin has (everything, with grant option:
// REPLICATION SLAVE grants, EXECUTE on sky, CREATE USER). A non-empty
// replaces names the previous default user, which is dropped (a restore
// brings the source service's user).
func (s *Server) SetAdmin(ctx context.Context, user, password, replaces string) error {
	var stmts []string
	if replaces != "" && replaces != user {
		stmts = append(stmts, "DROP USER IF EXISTS "+Quote(replaces)+"@'%'")
	}
	stmts = append(stmts,
		"CREATE OR REPLACE USER "+Quote(user)+"@'%' IDENTIFIED BY "+Quote(password),
		"GRANT ALL PRIVILEGES ON *.* TO "+Quote(user)+"@'%' WITH GRANT OPTION")
	return s.admin(ctx, stmts...)
}

// ResetReplication forgets the server's replica configuration, its GTID
// replica position, the grant the sky procedures made and the replication
// users granted on it: what a restore does, since it replaces the data.
func (s *Server) ResetReplication(ctx context.Context) error {
	stmts := []string{"STOP SLAVE", "RESET SLAVE ALL", "SET GLOBAL gtid_slave_pos = ''", "DELETE FROM sky.replication_state"}
	db, err := s.DB()
	if err != nil {
		return err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, "SELECT User, Host FROM mysql.user WHERE User LIKE 'skysql\\_replication\\_%'")
	if err != nil {
		return err
	}
	for rows.Next() {
		var u, h string
		if err := rows.Scan(&u, &h); err != nil {
			rows.Close()
			return err
		}
		stmts = append(stmts, "DROP USER IF EXISTS "+Quote(u)+"@"+Quote(h))
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	return s.admin(ctx, stmts...)
}

// UserSchemas lists the schemas that are the service's data (not the
// server's own, not sky).
func (s *Server) UserSchemas(ctx context.Context) ([]string, error) {
	db, err := s.DB()
	if err != nil {
		return nil, err
	}
	defer db.Close()
	return userSchemas(ctx, db)
}

func userSchemas(ctx context.Context, db *sql.DB) ([]string, error) {
	rows, err := db.QueryContext(ctx, "SHOW DATABASES")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, err
		}
		if !systemSchemas[strings.ToLower(name)] {
			out = append(out, name)
		}
	}
	return out, rows.Err()
}

// Position is where a dump stands in the server's binary log.
type Position struct {
	GTID string // @@gtid_binlog_pos at the dump's consistent point
	File string // SHOW MASTER STATUS at the same point
	Pos  int64
}

var (
	dumpFilePos = regexp.MustCompile(`^-- CHANGE MASTER TO MASTER_LOG_FILE='([^']*)', MASTER_LOG_POS=(\d+);`)
	dumpGTID    = regexp.MustCompile(`^-- SET GLOBAL gtid_slave_pos='([^']*)';`)
)

// Dump writes a logical copy of the user schemas to path (mariadb-dump
// --single-transaction --master-data=2 --gtid, without the mysql, sky and
// system schemas) and returns the binary log position of its consistent
// point, read from the dump itself.
func (s *Server) Dump(ctx context.Context, path string) (Position, error) {
	bin, _, err := ClientBinaries()
	if err != nil {
		return Position{}, err
	}
	args := []string{"--no-defaults", "--protocol=tcp", "--host=127.0.0.1", "--port=" + strconv.Itoa(s.Port), "--user=root",
		"--single-transaction", "--master-data=2", "--gtid", "--routines", "--events", "--triggers",
		"--all-databases", "--result-file=" + path}
	for name := range systemSchemas {
		args = append(args, "--ignore-database="+name)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return Position{}, fmt.Errorf("mariadb-dump: %v\n%s", err, tail(out))
	}
	f, err := os.Open(path)
	if err != nil {
		return Position{}, err
	}
	defer f.Close()
	var pos Position
	var sawFile, sawGTID bool
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 64<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "-- ") {
			continue
		}
		if m := dumpFilePos.FindStringSubmatch(line); m != nil {
			pos.File = m[1]
			pos.Pos, _ = strconv.ParseInt(m[2], 10, 64)
			sawFile = true
		} else if m := dumpGTID.FindStringSubmatch(line); m != nil {
			pos.GTID = m[1]
			sawGTID = true
		}
	}
	if err := sc.Err(); err != nil {
		return Position{}, err
	}
	if !sawFile || !sawGTID {
		return Position{}, fmt.Errorf("mariadb-dump: %s holds no binary log position (is log-bin on?)", path)
	}
	return pos, nil
}

// Load replaces the server's user schemas by a dump made with Dump: it
// drops them, then runs the dump without writing the binary log (the
// loaded rows are the source's transactions, which a replica of the
// source must not see twice).
func (s *Server) Load(ctx context.Context, path string) error {
	_, bin, err := ClientBinaries()
	if err != nil {
		return err
	}
	schemas, err := s.UserSchemas(ctx)
	if err != nil {
		return err
	}
	var drops []string
	for _, name := range schemas {
		drops = append(drops, "DROP DATABASE `"+strings.ReplaceAll(name, "`", "``")+"`")
	}
	if err := s.admin(ctx, drops...); err != nil {
		return err
	}
	if path == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	cmd := exec.CommandContext(ctx, bin, "--no-defaults", "--protocol=tcp", "--host=127.0.0.1", "--port="+strconv.Itoa(s.Port), "--user=root", "--batch")
	cmd.Stdin = io.MultiReader(strings.NewReader("SET SESSION sql_log_bin = 0;\n"), f)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("load %s: %v\n%s", path, err, tail(out))
	}
	return nil
}
