package sandbox

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/skytui/skytui/sandbox/demosql"
)

// SQLMode says what answers SQL on a ready service's readwrite port.
type SQLMode int

const (
	// SQLNone opens nothing: services show the live ports (3306
	// read-write, 3307 read-only) or what Options.Ports answers. The zero
	// value, so that in-process sandboxes stay deterministic (screen
	// snapshots show the ports).
	SQLNone SQLMode = iota
	// SQLDemo opens a MySQL-protocol endpoint (package demosql) per ready
	// service on 127.0.0.1; its port is the service's readwrite and
	// readonly port. It authenticates with the service's current
	// credentials and answers the sky procedures and the replication grant
	// from the sandbox's simulated replication. For --demo and `skytui
	// sandbox`.
	SQLDemo
	// SQLMariaDB starts a real mariadbd (package mariadb) per ready
	// service, with its default user and the sky procedures; backups take
	// real dumps and restores load them. For `skytui sandbox --mariadb`;
	// use Open, which reports a missing mariadbd.
	SQLMariaDB
)

func (m SQLMode) String() string {
	switch m {
	case SQLNone:
		return "none"
	case SQLDemo:
		return "demo"
	case SQLMariaDB:
		return "mariadb"
	}
	return fmt.Sprintf("SQLMode(%d)", int(m))
}

// ParseSQLMode reads none, demo or mariadb.
func ParseSQLMode(s string) (SQLMode, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "none", "off", "":
		return SQLNone, nil
	case "demo":
		return SQLDemo, nil
	case "mariadb":
		return SQLMariaDB, nil
	}
	return SQLNone, fmt.Errorf("SQL mode %q: want none, demo or mariadb", s)
}

// ErrNoMariaDB is Open's error (test with errors.Is) when SQLMariaDB finds
// no MariaDB programs.
var ErrNoMariaDB = errors.New("--mariadb needs mariadbd: install mariadb-server")

// sqlLayer is what answers SQL on the services' ports.
type sqlLayer struct {
	mode SQLMode
	srv  *Server
	// broken: the mode could not be set up (New, which cannot fail):
	// every launch fails with this reason.
	broken error

	mu        sync.Mutex
	closed    bool
	endpoints map[string]*demosql.Endpoint
	real      *realSQL // SQLMariaDB
	once      sync.Once
}

func newSQLLayer(opts Options) (*sqlLayer, error) {
	l := &sqlLayer{mode: opts.SQL, endpoints: map[string]*demosql.Endpoint{}}
	switch opts.SQL {
	case SQLNone:
	case SQLDemo, SQLMariaDB:
		if opts.Ports != nil {
			return nil, fmt.Errorf("sandbox: Options.Ports and SQL mode %s both decide the ports; set one", opts.SQL)
		}
	default:
		return nil, fmt.Errorf("sandbox: unknown SQL mode %d", int(opts.SQL))
	}
	if opts.SQL == SQLMariaDB {
		if opts.DemoData {
			return nil, errors.New("sandbox: --mariadb starts a real server per ready service and cannot load demo data; start it empty (--no-demo-data)")
		}
		r, err := newRealSQL(opts.MariaDBDir)
		if err != nil {
			return nil, err
		}
		l.real = r
	}
	return l, nil
}

// assigner is the PortAssigner of the mode (nil: the default).
func (l *sqlLayer) assigner(custom PortAssigner) PortAssigner {
	switch {
	case l.broken != nil:
		err := l.broken
		return PortAssignerFunc(func(ServiceInfo) (Ports, error) { return Ports{}, err })
	case l.mode == SQLDemo:
		return PortAssignerFunc(l.listen)
	}
	return custom
}

// listen opens a service's demo endpoint. It runs with the store locked and
// must not call the Server: the endpoint calls back only per connection.
func (l *sqlLayer) listen(svc ServiceInfo) (Ports, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return Ports{}, errors.New("the sandbox is shutting down")
	}
	ep := l.endpoints[svc.ID]
	if ep == nil {
		var err error
		if ep, err = demosql.Listen(svc.ID, 0, demoBackend{l.srv}); err != nil {
			return Ports{}, fmt.Errorf("open the SQL endpoint: %w", err)
		}
		l.endpoints[svc.ID] = ep
	}
	return Ports{ReadWrite: ep.Port, ReadOnly: ep.Port}, nil
}

// close stops every endpoint and real server; later launches fail.
func (l *sqlLayer) close() {
	l.once.Do(func() {
		l.mu.Lock()
		l.closed = true
		eps := l.endpoints
		l.endpoints = map[string]*demosql.Endpoint{}
		l.mu.Unlock()
		for _, ep := range eps {
			ep.Close()
		}
		if l.real != nil {
			l.real.close()
		}
	})
}

// demoBackend gives the demo endpoints their meaning (demosql.Backend).
type demoBackend struct{ s *Server }

func (b demoBackend) Credentials(id string) (string, string, bool) { return b.s.Credentials(id) }

func (b demoBackend) Call(id, proc string, args []any) (*demosql.Result, error) {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	b.s.st.advance(b.s.clock.Now())
	return b.s.st.call(id, proc, args, b.s.st.now)
}

func (b demoBackend) Grant(id string, g demosql.Grant) error {
	b.s.mu.Lock()
	defer b.s.mu.Unlock()
	b.s.st.advance(b.s.clock.Now())
	return b.s.st.grant(id, g)
}
