// Package demosql serves a MySQL-protocol endpoint per sandbox service on
// loopback. It speaks the wire protocol (authentication with the service's
// current credentials, text queries) and parses the statements a replication
// setup sends — the sky procedures and the returned GRANT — into typed calls;
// what they mean is the Backend's business (the sandbox store). The demo
// thereby runs the same go-sql-driver/mysql code path as a real service.
package demosql

import (
	"context"
	"crypto/subtle"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	vtlog "github.com/dolthub/vitess/go/vt/log"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

func init() {
	// The protocol library logs through the standard logger to stderr,
	// which would draw over the terminal UI. The endpoints report through
	// their results instead.
	quiet := func(...any) {}
	quietf := func(string, ...any) {}
	vtlog.Info, vtlog.Warning, vtlog.Error = quiet, quiet, quiet
	vtlog.Infof, vtlog.Warningf, vtlog.Errorf = quietf, quietf, quietf
}

// Result is a result set: column names and rows of string, int64 or nil.
type Result struct {
	Columns []string
	Rows    [][]any
}

// Error is a MySQL error the endpoint returns.
type Error struct {
	Code  int
	State string
	Msg   string
}

func (e *Error) Error() string { return fmt.Sprintf("error %d (%s): %s", e.Code, e.State, e.Msg) }

// Errorf builds an Error with the generic SQL state HY000.
func Errorf(code int, format string, a ...any) *Error {
	return &Error{Code: code, State: "HY000", Msg: fmt.Sprintf(format, a...)}
}

// Grant is a parsed GRANT REPLICATION SLAVE … IDENTIFIED BY … statement.
type Grant struct {
	User, Host, Password string
	Statement            string
}

// Backend gives the endpoints their meaning.
type Backend interface {
	// Credentials are the service's current default username and password.
	Credentials(serviceID string) (user, password string, ok bool)
	// Call runs a procedure of the sky schema on the service.
	Call(serviceID, proc string, args []any) (*Result, error)
	// Grant runs a replication grant on the service (as a primary).
	Grant(serviceID string, g Grant) error
}

// Endpoint is one service's listener.
type Endpoint struct {
	ServiceID string
	Port      int
	l         *mysql.Listener
	done      chan struct{}
}

// Listen opens an endpoint for the service on 127.0.0.1 (port 0 picks a
// free one) and serves it until Close.
func Listen(serviceID string, port int, b Backend) (*Endpoint, error) {
	h := &handler{serviceID: serviceID, b: b}
	auth := &authServer{serviceID: serviceID, b: b}
	auth.methods = []mysql.AuthMethod{mysql.NewMysqlNativeAuthMethod(auth, auth)}
	l, err := mysql.NewListenerWithConfig(mysql.ListenerConfig{
		Protocol:         "tcp",
		Address:          fmt.Sprintf("127.0.0.1:%d", port),
		AuthServer:       auth,
		Handler:          h,
		ConnReadTimeout:  time.Minute,
		ConnWriteTimeout: time.Minute,
		MaxConns:         64,
	})
	if err != nil {
		return nil, err
	}
	l.ServerVersion = "10.11.9-MariaDB-sandbox"
	e := &Endpoint{ServiceID: serviceID, Port: l.Addr().(*net.TCPAddr).Port, l: l, done: make(chan struct{})}
	go func() {
		defer close(e.done)
		l.Accept()
	}()
	return e, nil
}

// Close stops accepting and closes the listener.
func (e *Endpoint) Close() {
	e.l.Close()
	<-e.done
}

// ---- authentication against the service's current credentials ----

type authServer struct {
	serviceID string
	b         Backend
	methods   []mysql.AuthMethod
}

func (a *authServer) AuthMethods() []mysql.AuthMethod { return a.methods }

func (a *authServer) DefaultAuthMethodDescription() mysql.AuthMethodDescription {
	return mysql.MysqlNativePassword
}

func (a *authServer) HandleUser(string, net.Addr) bool { return true }

type userData struct{ user string }

func (u userData) Get() *querypb.VTGateCallerID { return &querypb.VTGateCallerID{Username: u.user} }

func (a *authServer) UserEntryWithHash(_ []*x509.Certificate, salt []byte, user string, authResponse []byte, addr net.Addr) (mysql.Getter, error) {
	want, pw, ok := a.b.Credentials(a.serviceID)
	denied := mysql.NewSQLError(mysql.ERAccessDeniedError, mysql.SSAccessDeniedError,
		"Access denied for user '%s'@'%s' (using password: %s)", user, hostOf(addr), yesNo(len(authResponse) > 0))
	if !ok || user != want {
		return nil, denied
	}
	expect := mysql.ScrambleMysqlNativePassword(salt, []byte(pw))
	if subtle.ConstantTimeCompare(expect, authResponse) != 1 {
		return nil, denied
	}
	return userData{user}, nil
}

func hostOf(a net.Addr) string {
	if a == nil {
		return "localhost"
	}
	h, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return a.String()
	}
	return h
}

func yesNo(b bool) string {
	if b {
		return "YES"
	}
	return "NO"
}

// ---- queries ----

type handler struct {
	serviceID string
	b         Backend
	mu        sync.Mutex
}

func (h *handler) NewConnection(*mysql.Conn)                   {}
func (h *handler) ConnectionClosed(*mysql.Conn)                {}
func (h *handler) ConnectionAborted(*mysql.Conn, string) error { return nil }
func (h *handler) ComInitDB(*mysql.Conn, string) error         { return nil }
func (h *handler) WarningCount(*mysql.Conn) uint16             { return 0 }
func (h *handler) ComResetConnection(*mysql.Conn) error        { return nil }
func (h *handler) ParserOptionsForConnection(*mysql.Conn) (sqlparser.ParserOptions, error) {
	return sqlparser.ParserOptions{}, nil
}

func (h *handler) ComMultiQuery(ctx context.Context, c *mysql.Conn, query string, cb mysql.ResultSpoolFn) (string, error) {
	return "", h.ComQuery(ctx, c, query, cb)
}

func (h *handler) ComPrepare(context.Context, *mysql.Conn, string, *mysql.PrepareData) ([]*querypb.Field, error) {
	return nil, mysql.NewSQLError(mysql.ERNotSupportedYet, mysql.SSUnknownSQLState, "prepared statements are not supported by the sandbox endpoint; use text queries")
}

func (h *handler) ComStmtExecute(context.Context, *mysql.Conn, *mysql.PrepareData, func(*sqltypes.Result) error) error {
	return mysql.NewSQLError(mysql.ERNotSupportedYet, mysql.SSUnknownSQLState, "prepared statements are not supported by the sandbox endpoint")
}

func (h *handler) ComQuery(_ context.Context, _ *mysql.Conn, query string, cb mysql.ResultSpoolFn) error {
	res, err := h.run(query)
	if err != nil {
		var e *Error
		if errors.As(err, &e) {
			return mysql.NewSQLError(e.Code, e.State, "%s", e.Msg)
		}
		return mysql.NewSQLError(mysql.ERUnknownError, mysql.SSUnknownSQLState, "%s", err.Error())
	}
	return cb(toSQL(res), false)
}

func (h *handler) run(query string) (*Result, error) {
	st, err := Parse(query)
	if err != nil {
		return nil, err
	}
	switch st := st.(type) {
	case Call:
		return h.b.Call(h.serviceID, st.Proc, st.Args)
	case Grant:
		return nil, h.b.Grant(h.serviceID, st)
	case selectConst:
		return &Result{Columns: []string{st.col}, Rows: [][]any{{st.val}}}, nil
	}
	return nil, Errorf(1064, "unsupported statement")
}

func toSQL(r *Result) *sqltypes.Result {
	out := &sqltypes.Result{}
	if r == nil {
		return out
	}
	for _, c := range r.Columns {
		out.Fields = append(out.Fields, &querypb.Field{Name: c, Type: querypb.Type_VARCHAR, Charset: 33})
	}
	for _, row := range r.Rows {
		vals := make([]sqltypes.Value, len(row))
		for i, v := range row {
			switch v := v.(type) {
			case nil:
				vals[i] = sqltypes.NULL
			case string:
				vals[i] = sqltypes.NewVarChar(v)
			case int:
				vals[i] = sqltypes.NewVarChar(fmt.Sprint(v))
			case int64:
				vals[i] = sqltypes.NewVarChar(fmt.Sprint(v))
			default:
				vals[i] = sqltypes.NewVarChar(fmt.Sprint(v))
			}
		}
		out.Rows = append(out.Rows, vals)
	}
	out.RowsAffected = uint64(len(out.Rows))
	return out
}
