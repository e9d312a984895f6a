package api

import (
	"context"
	"crypto/tls"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/go-sql-driver/mysql"
)

// The replication procedures live in a schema of the service (sky on the
// live service) and run on the secondary. SQLClient calls them over the
// MySQL protocol and reads every result column by name.

// SQLTarget says where and how to connect to a service.
type SQLTarget struct {
	Host     string // the service's fqdn
	Port     int    // its readwrite port
	User     string
	Password string
	// TLS encrypts the connection and verifies the server certificate
	// against Host; set it when the service has SSL on. Loopback hosts
	// (the sandbox's endpoints) never leave the machine and are dialled
	// without TLS.
	TLS bool
	// Schema holds the procedures; default "sky".
	Schema string
	// Timeout bounds dialling and each statement; default 10 s.
	Timeout time.Duration
}

func (t SQLTarget) addr() string { return net.JoinHostPort(t.Host, strconv.Itoa(t.Port)) }

// SQLClient runs the sky procedures on one service.
type SQLClient struct {
	db      *sql.DB
	target  SQLTarget
	schema  string
	timeout time.Duration
}

var schemaRe = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// dialLoopbackNames dials *.localhost names on 127.0.0.1 (RFC 6761: such
// names are loopback), so sandbox FQDNs that keep the service ID as their
// first label reach the sandbox's listeners without DNS.
func dialLoopbackNames(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err == nil && IsLoopbackHost(host) && net.ParseIP(host) == nil {
		addr = net.JoinHostPort("127.0.0.1", port)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}

// OpenSQL prepares a connection pool to a service. It does not connect
// until the first call; Ping checks reachability and credentials.
func OpenSQL(t SQLTarget) (*SQLClient, error) {
	if t.Host == "" || t.Port == 0 {
		return nil, errors.New("the service has no fqdn or readwrite port yet (is it ready?)")
	}
	if t.Schema == "" {
		t.Schema = "sky"
	}
	if !schemaRe.MatchString(t.Schema) {
		return nil, fmt.Errorf("schema %q: letters, digits and underscores only", t.Schema)
	}
	if t.Timeout <= 0 {
		t.Timeout = 10 * time.Second
	}
	cfg := mysql.NewConfig()
	cfg.User = t.User
	cfg.Passwd = t.Password
	cfg.Net = "tcp"
	cfg.Addr = t.addr()
	cfg.Timeout = t.Timeout
	cfg.ReadTimeout = t.Timeout
	cfg.WriteTimeout = t.Timeout
	cfg.DialFunc = dialLoopbackNames
	// Arguments are escaped into the text of the CALL rather than sent as
	// server-side prepared statements: one round trip, and the same
	// statement text a DBA would type.
	cfg.InterpolateParams = true
	if t.TLS && !IsLoopbackHost(t.Host) {
		cfg.TLS = &tls.Config{ServerName: t.Host, MinVersion: tls.VersionTLS12}
	}
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, err
	}
	db := sql.OpenDB(conn)
	db.SetMaxOpenConns(2)
	db.SetConnMaxIdleTime(time.Minute)
	return &SQLClient{db: db, target: t, schema: t.Schema, timeout: t.Timeout}, nil
}

// Close releases the connections.
func (c *SQLClient) Close() error { return c.db.Close() }

// Ping connects and authenticates.
func (c *SQLClient) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	return c.wrap("connect", c.db.PingContext(ctx))
}

// SQLError explains a failed SQL step in words a user can act on.
type SQLError struct {
	Op     string // the procedure or step
	Target string // host:port
	Code   uint16 // MySQL error number, 0 when not from the server
	Reason string
	Err    error
}

// Error reads well on one line; the server's message in it is cleaned
// (CleanText).
func (e *SQLError) Error() string {
	if e.Code != 0 {
		return fmt.Sprintf("%s on %s: error %d: %s", e.Op, e.Target, e.Code, CleanText(e.Reason))
	}
	return fmt.Sprintf("%s on %s: %s", e.Op, e.Target, CleanText(e.Reason))
}

func (e *SQLError) Unwrap() error { return e.Err }

// MySQL error numbers worth naming.
const (
	ErAccessDenied     = 1045
	ErDBAccessDenied   = 1044
	ErProcAccessDenied = 1370
	ErSPDoesNotExist   = 1305
	ErBadDB            = 1049
)

func (c *SQLClient) wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	e := &SQLError{Op: op, Target: c.target.addr(), Err: err}
	var me *mysql.MySQLError
	var ne net.Error
	switch {
	case errors.As(err, &me):
		e.Code = me.Number
		switch me.Number {
		case ErAccessDenied, ErDBAccessDenied, ErProcAccessDenied:
			e.Reason = "access denied: " + me.Message + " — check the username and password (after a restore they are the source service's)"
		case ErSPDoesNotExist:
			e.Reason = "unknown procedure: " + me.Message + " — the service has no " + c.schema + " replication procedures"
		case ErBadDB:
			e.Reason = "unknown schema " + c.schema + ": the service has no replication procedures"
		default:
			e.Reason = me.Message
		}
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout()):
		e.Reason = fmt.Sprintf("timed out after %s — is the host reachable and this machine's address in the service's allow list?", c.timeout)
	default:
		var oe *net.OpError
		if errors.As(err, &oe) || errors.Is(err, mysql.ErrInvalidConn) {
			e.Reason = "unreachable: " + err.Error() + " — check the host, the port and the allow list"
		} else {
			e.Reason = err.Error()
		}
	}
	return e
}

// call runs CALL schema.proc(args…) and returns the first row by column name
// (nil values as ""), or nil when the procedure returned no row.
func (c *SQLClient) call(ctx context.Context, proc string, args ...any) (map[string]sql.NullString, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	marks := strings.TrimSuffix(strings.Repeat("?,", len(args)), ",")
	q := fmt.Sprintf("CALL %s.%s(%s)", c.schema, proc, marks)
	rows, err := c.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, c.wrap(proc, err)
	}
	defer rows.Close()
	row, err := firstRow(rows)
	if err != nil {
		return nil, c.wrap(proc, err)
	}
	// drain further result sets (a CALL ends with a status result)
	for rows.NextResultSet() {
	}
	return row, c.wrap(proc, rows.Err())
}

func firstRow(rows *sql.Rows) (map[string]sql.NullString, error) {
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	if !rows.Next() {
		return nil, rows.Err()
	}
	vals := make([]sql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		return nil, err
	}
	out := make(map[string]sql.NullString, len(cols))
	for i, c := range cols {
		out[strings.ToLower(c)] = vals[i]
	}
	for rows.Next() {
	}
	return out, nil
}

// col is a column's value, cleaned (CleanText) like every string of the
// HTTP API: the server's text is shown, never interpreted by a terminal.
func col(row map[string]sql.NullString, name string) string {
	return CleanText(row[strings.ToLower(name)].String)
}

// GrantColumn is the column the change procedures return the grant in.
const GrantColumn = "Run_this_grant_on_your_external_primary"

func (c *SQLClient) grantFrom(op string, row map[string]sql.NullString) (string, error) {
	g := row[strings.ToLower(GrantColumn)].String // verbatim: it is run as it came
	if g == "" {
		return "", &SQLError{Op: op, Target: c.target.addr(), Reason: "returned no " + GrantColumn + " column"}
	}
	return g, nil
}

// ChangeExternalPrimaryGTID points the secondary at a primary from a GTID
// position and returns the grant to run on the primary, verbatim.
func (c *SQLClient) ChangeExternalPrimaryGTID(ctx context.Context, host string, port int, gtid string, useSSL bool) (string, error) {
	row, err := c.call(ctx, "change_external_primary_gtid", host, port, gtid, useSSL)
	if err != nil {
		return "", err
	}
	return c.grantFrom("change_external_primary_gtid", row)
}

// ChangeExternalPrimary does the same from a binlog file and position.
func (c *SQLClient) ChangeExternalPrimary(ctx context.Context, host string, port int, file string, pos int64, useSSL bool) (string, error) {
	row, err := c.call(ctx, "change_external_primary", host, port, file, pos, useSSL)
	if err != nil {
		return "", err
	}
	return c.grantFrom("change_external_primary", row)
}

// ReplicationGrants returns the grant again.
func (c *SQLClient) ReplicationGrants(ctx context.Context) (string, error) {
	row, err := c.call(ctx, "replication_grants")
	if err != nil {
		return "", err
	}
	return c.grantFrom("replication_grants", row)
}

func (c *SQLClient) message(ctx context.Context, proc string) (string, error) {
	row, err := c.call(ctx, proc)
	if err != nil {
		return "", err
	}
	return col(row, "Message"), nil
}

// StartReplication starts replication; it returns the procedure's message.
func (c *SQLClient) StartReplication(ctx context.Context) (string, error) {
	return c.message(ctx, "start_replication")
}

// StopReplication stops replication.
func (c *SQLClient) StopReplication(ctx context.Context) (string, error) {
	return c.message(ctx, "stop_replication")
}

// ReplicationStatus is the part of SHOW REPLICA STATUS the screens show.
type ReplicationStatus struct {
	Configured          bool // false when the procedure returned no row
	MasterHost          string
	MasterPort          int
	IORunning           string // Yes, No, Connecting
	SQLRunning          string
	SecondsBehindMaster *int64 // nil while stopped (NULL)
	LastIOErrno         int
	LastIOError         string
	LastSQLErrno        int
	LastSQLError        string
	GTIDIOPos           string
	UsingGTID           string
	MasterLogFile       string
	ReadMasterLogPos    int64
}

// Running reports whether both threads run.
func (s *ReplicationStatus) Running() bool {
	return strings.EqualFold(s.IORunning, "Yes") && strings.EqualFold(s.SQLRunning, "Yes")
}

// ReplicationStatus reads the replica status by column name.
func (c *SQLClient) ReplicationStatus(ctx context.Context) (*ReplicationStatus, error) {
	row, err := c.call(ctx, "replication_status")
	if err != nil {
		return nil, err
	}
	if row == nil {
		return &ReplicationStatus{}, nil
	}
	atoi := func(name string) int64 {
		n, _ := strconv.ParseInt(col(row, name), 10, 64)
		return n
	}
	s := &ReplicationStatus{
		Configured:       true,
		MasterHost:       col(row, "Master_Host"),
		MasterPort:       int(atoi("Master_Port")),
		IORunning:        col(row, "Slave_IO_Running"),
		SQLRunning:       col(row, "Slave_SQL_Running"),
		LastIOErrno:      int(atoi("Last_IO_Errno")),
		LastIOError:      col(row, "Last_IO_Error"),
		LastSQLErrno:     int(atoi("Last_SQL_Errno")),
		LastSQLError:     col(row, "Last_SQL_Error"),
		GTIDIOPos:        col(row, "Gtid_IO_Pos"),
		UsingGTID:        col(row, "Using_Gtid"),
		MasterLogFile:    col(row, "Master_Log_File"),
		ReadMasterLogPos: atoi("Read_Master_Log_Pos"),
	}
	if v := row[strings.ToLower("Seconds_Behind_Master")]; v.Valid {
		if n, err := strconv.ParseInt(v.String, 10, 64); err == nil {
			s.SecondsBehindMaster = &n
		}
	}
	return s, nil
}

// GTIDStatus are the server's GTID positions.
type GTIDStatus struct {
	BinlogPos  string
	CurrentPos string
	SlavePos   string
}

// GTIDStatus reads gtid_binlog_pos, gtid_current_pos and gtid_slave_pos.
func (c *SQLClient) GTIDStatus(ctx context.Context) (*GTIDStatus, error) {
	row, err := c.call(ctx, "gtid_status")
	if err != nil {
		return nil, err
	}
	return &GTIDStatus{
		BinlogPos:  col(row, "gtid_binlog_pos"),
		CurrentPos: col(row, "gtid_current_pos"),
		SlavePos:   col(row, "gtid_slave_pos"),
	}, nil
}

// RunGrant runs the grant statement the procedure returned, exactly as
// returned, on the primary. Only GRANT statements are accepted.
func (c *SQLClient) RunGrant(ctx context.Context, grant string) error {
	g := strings.TrimSpace(grant)
	if !strings.HasPrefix(strings.ToUpper(g), "GRANT ") {
		return &SQLError{Op: "grant", Target: c.target.addr(), Reason: "refusing to run a statement that is not a GRANT"}
	}
	g = strings.TrimSuffix(g, ";")
	if strings.Contains(unquoted(g), ";") {
		return &SQLError{Op: "grant", Target: c.target.addr(), Reason: "refusing to run more than one statement"}
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	_, err := c.db.ExecContext(ctx, g)
	return c.wrap("grant", err)
}

// unquoted drops the quoted parts of a statement, so a semicolon inside a
// password does not count as a statement separator.
func unquoted(stmt string) string {
	var b strings.Builder
	for r, quoted := range Quoting(stmt, false) {
		if !quoted {
			b.WriteRune(r)
		}
	}
	return b.String()
}
