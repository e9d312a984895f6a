package sandbox

import (
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"net/netip"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/sandbox/demosql"
)

// The replication a managed service offers, simulated for SQLDemo: the sky
// procedures a demosql endpoint receives, answered from the store, with
// the rules a real pair of servers applies (reachability through the
// primary's allow list, the grant, the binary log positions that exist).

const (
	// replUserPrefix names the replication user a secondary creates.
	replUserPrefix = "skysql_replication_"
	// binlogRetention is how long a primary keeps its binary logs.
	binlogRetention = 4 * 24 * time.Hour
	// binlog coordinates: events per file and bytes per event.
	eventsPerBinlog = 50000
	bytesPerEvent   = 317
	// connectRetry is the replica's connect retry shown in IO errors.
	connectRetry = 60
)

// binlogCoords is the binary log file and position after GTID sequence seq.
func binlogCoords(seq int64) (string, int64) {
	return fmt.Sprintf("mariadb-bin.%06d", 1+seq/eventsPerBinlog), 4 + (seq%eventsPerBinlog)*bytesPerEvent
}

var binlogFileRe = regexp.MustCompile(`^[A-Za-z0-9_-]+-bin\.(\d{6,})$`)

// seqOfCoords inverts binlogCoords (false: no such file or position).
func seqOfCoords(file string, pos int64) (int64, bool) {
	m := binlogFileRe.FindStringSubmatch(file)
	if m == nil || pos < 4 || (pos-4)%bytesPerEvent != 0 || (pos-4)/bytesPerEvent >= eventsPerBinlog {
		return 0, false
	}
	n, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil || n < 1 {
		return 0, false
	}
	return (n-1)*eventsPerBinlog + (pos-4)/bytesPerEvent, true
}

// gtid is one domain-server-sequence triple.
type gtid struct {
	domain, server uint32
	seq            int64
}

func (g gtid) String() string { return fmt.Sprintf("%d-%d-%d", g.domain, g.server, g.seq) }

// parseGTIDList reads "d-s-n[,d-s-n…]" (empty is the empty list).
func parseGTIDList(s string) ([]gtid, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, true
	}
	var out []gtid
	seen := map[uint32]bool{}
	for _, part := range strings.Split(s, ",") {
		f := strings.Split(strings.TrimSpace(part), "-")
		if len(f) != 3 {
			return nil, false
		}
		d, err1 := strconv.ParseUint(f[0], 10, 32)
		sv, err2 := strconv.ParseUint(f[1], 10, 32)
		n, err3 := strconv.ParseUint(f[2], 10, 63)
		if err1 != nil || err2 != nil || err3 != nil || seen[uint32(d)] {
			return nil, false
		}
		seen[uint32(d)] = true
		out = append(out, gtid{uint32(d), uint32(sv), int64(n)})
	}
	return out, true
}

// replica is a service's configuration as a secondary.
type replica struct {
	managed bool // configured by managed replication: the platform's own user, no allow list or grant to check
	host    string
	port    int
	useGTID bool
	gtid    string // configured start (GTID mode)
	start   gtid   // its domain 0 part
	startOK bool   // GTID: it has a domain 0 part; file/position: the coordinates exist in principle
	file    string // configured start (file/position mode)
	pos     int64
	ssl     bool

	user, password, egress, grant string

	running bool
	// what the IO thread last read and the SQL thread last applied
	ioPos              string
	readFile, execFile string
	readPos, execPos   int64
	applied            gtid
	// the last IO error, kept while stopped as a real server does
	ioErrno int
	ioError string
}

// hostMatches is MariaDB's host match of a grant: exact, or a pattern with
// % and _.
func hostMatches(pattern, ip string) bool {
	if !strings.ContainsAny(pattern, "%_") {
		return strings.EqualFold(pattern, ip)
	}
	var b strings.Builder
	b.WriteString("(?i)^")
	for _, r := range pattern {
		switch r {
		case '%':
			b.WriteString(".*")
		case '_':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	ok, _ := regexp.MatchString(b.String(), ip)
	return ok
}

// grantFor finds the password of the account a connection of user from ip
// logs in as: the exact host first, then the most specific pattern.
func (s *service) grantFor(user, ip string) (string, bool) {
	user = strings.ToLower(user)
	if pw, ok := s.grants[user+"@"+strings.ToLower(ip)]; ok {
		return pw, true
	}
	best, bestPW, found := -1, "", false
	for k, pw := range s.grants {
		u, host, _ := strings.Cut(k, "@")
		if u != user || !hostMatches(host, ip) {
			continue
		}
		// more literal characters: more specific
		spec := len(strings.NewReplacer("%", "", "_", "").Replace(host))
		if spec > best {
			best, bestPW, found = spec, pw, true
		}
	}
	return bestPW, found
}

// allows reports whether the allow list admits ip.
func (s *service) allows(ip string) bool {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	for _, e := range s.allow {
		p, err := netip.ParsePrefix(api.NormalizeAllowListIP(e.IP))
		if err == nil && p.Contains(a) {
			return true
		}
	}
	return false
}

// egress is the address the service's replica connects from: its first
// outbound IP, which the grant names.
func (s *service) egress() string {
	if len(s.outbound) > 0 {
		return s.outbound[0]
	}
	return "%"
}

func (s *service) binlogGTID(t time.Time) gtid {
	return gtid{0, uint32(s.gtidServer), s.gtidSeqAt(t)}
}

// connError is why a replica's IO thread is not streaming.
type connError struct {
	state string // Connecting or No
	errno int
	msg   string
}

func connecting(errno int, format string, a ...any) *connError {
	return &connError{"Connecting", errno, fmt.Sprintf(format, a...)}
}

// resolve finds the service a replica's host and port reach.
func (st *store) resolve(host string, port int) (*service, *connError) {
	h := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(host)), ".")
	refused := connecting(2003, `Can't connect to server on '%s' (111 "Connection refused")`, host)
	byPort := func() (*service, *connError) {
		for _, s := range st.order {
			if s.launched && (s.ports.ReadWrite == port || s.ports.ReadOnly == port) && port > 0 {
				return s, nil
			}
		}
		return nil, refused
	}
	switch {
	case strings.HasSuffix(h, ".sandbox.localhost"):
		id, _, _ := strings.Cut(h, ".")
		s, ok := st.services[id]
		if !ok || !s.launched {
			return nil, connecting(2005, "Unknown server host '%s' (-2)", host)
		}
		if port <= 0 || (s.ports.ReadWrite != port && s.ports.ReadOnly != port) {
			return nil, refused
		}
		return s, nil
	case api.IsLoopbackHost(h):
		return byPort()
	}
	if _, err := netip.ParseAddr(strings.Trim(h, "[]")); err == nil {
		return nil, connecting(2003, `Can't connect to server on '%s' (110 "Connection timed out")`, host)
	}
	return nil, connecting(2005, "Unknown server host '%s' (-2)", host)
}

const (
	errGTIDNotInBinlog = "Got fatal error 1236 from master when reading data from binary log: 'Error: connecting slave requested to start from GTID %s, which is not in the master's binlog'"
	errGTIDPurged      = "Got fatal error 1236 from master when reading data from binary log: 'Could not find GTID state requested by slave in any binlog files. Probably the slave state is too old and required binlog files have been purged.'"
	errNoLogFile       = "Got fatal error 1236 from master when reading data from binary log: 'Could not find first log file name in binary log index file'"
)

// ioThread decides what the secondary's IO thread does at t: stream from
// the primary, or fail to connect (Connecting) or to read (No).
func (st *store) ioThread(sec *service, r *replica, t time.Time) (*service, *connError) {
	p, cerr := st.resolve(r.host, r.port)
	if cerr != nil {
		return nil, cerr
	}
	if p == sec {
		return nil, &connError{"No", 1593, "Fatal error: The slave I/O thread stops because master and slave have equal MariaDB server ids; these ids must be different for replication to work (or the --replicate-same-server-id option must be used on slave but this does not always make sense; please check the manual before using it)."}
	}
	if p.status != statusReady {
		return nil, connecting(2003, `Can't connect to server on '%s' (111 "Connection refused")`, r.host)
	}
	if !r.managed && !p.allows(r.egress) {
		return nil, connecting(2003, `Can't connect to server on '%s' (110 "Connection timed out")`, r.host)
	}
	if pw, ok := p.grantFor(r.user, r.egress); !r.managed && (!ok || pw != r.password) {
		return nil, connecting(1045, "Access denied for user '%s'@'%s' (using password: YES)", r.user, r.egress)
	}
	now := p.gtidSeqAt(t)
	oldest := p.gtidSeqAt(t.Add(-binlogRetention))
	if r.useGTID {
		if !r.startOK || r.start.seq < oldest {
			// from the beginning, or from before what the primary keeps
			return nil, &connError{"No", 1236, errGTIDPurged}
		}
		if r.start.server != uint32(p.gtidServer) || r.start.seq > now {
			return nil, &connError{"No", 1236, fmt.Sprintf(errGTIDNotInBinlog, r.start)}
		}
		return p, nil
	}
	seq, _ := seqOfCoords(r.file, r.pos)
	if !r.startOK || seq > now || seq < oldest {
		return nil, &connError{"No", 1236, errNoLogFile}
	}
	return p, nil
}

// lagAt is Seconds_Behind_Master of a streaming secondary: a few seconds
// that change every five seconds of sandbox time, with an occasional
// spike, the same for the same service and time.
func lagAt(id string, t time.Time) int64 {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s|%d", id, t.Unix()/5)
	v := h.Sum64()
	if v%29 == 0 {
		return 20 + int64(v/29%70)
	}
	return int64(v % 6)
}

// status is the replica_status row at t; it also advances what the
// threads have read and applied.
func (st *store) status(sec *service, t time.Time) *demosql.Result {
	r := sec.repl
	res := &demosql.Result{Columns: statusColumns}
	if r == nil {
		return res
	}
	ioRun, sqlRun, ioState, sqlState := "No", "No", "", ""
	var lag any
	if r.running {
		sqlRun, sqlState = "Yes", "Slave has read all relay log; waiting for more updates"
		p, cerr := st.ioThread(sec, r, t)
		if cerr != nil {
			ioRun, r.ioErrno = cerr.state, cerr.errno
			r.ioError = cerr.msg
			if cerr.errno == 1045 || cerr.errno == 2003 || cerr.errno == 2005 {
				r.ioError = fmt.Sprintf("error connecting to master '%s@%s:%d' - retry-time: %d  maximum-retries: 100000  message: %s",
					r.user, r.host, r.port, connectRetry, cerr.msg)
			}
			if ioRun == "Connecting" {
				ioState = "Connecting to master"
			}
		} else {
			ioRun, ioState = "Yes", "Waiting for master to send event"
			r.ioErrno, r.ioError = 0, ""
			head := p.binlogGTID(t)
			r.ioPos = head.String()
			r.readFile, r.readPos = binlogCoords(head.seq)
			d := lagAt(sec.id, t)
			lag = d
			// the SQL thread is d seconds behind, and never goes back
			applied := p.binlogGTID(t.Add(-time.Duration(d) * time.Second))
			if applied.server == r.applied.server && applied.seq < r.applied.seq {
				applied = r.applied
			}
			r.applied = applied
			r.execFile, r.execPos = binlogCoords(applied.seq)
			sec.gtidSlavePos = applied.String()
		}
	}
	usingGTID := "No"
	if r.useGTID {
		usingGTID = "Slave_Pos"
	}
	ssl := "No"
	if r.ssl {
		ssl = "Yes"
	}
	row := map[string]any{
		"Slave_IO_State": ioState, "Master_Host": r.host, "Master_User": r.user, "Master_Port": int64(r.port),
		"Connect_Retry": int64(connectRetry), "Master_Log_File": r.readFile, "Read_Master_Log_Pos": r.readPos,
		"Relay_Log_File": sec.id + "-relay-bin.000002", "Relay_Log_Pos": int64(4 + r.readPos%100000),
		"Relay_Master_Log_File": r.execFile, "Slave_IO_Running": ioRun, "Slave_SQL_Running": sqlRun,
		"Last_Errno": int64(0), "Last_Error": "", "Skip_Counter": int64(0), "Exec_Master_Log_Pos": r.execPos,
		"Relay_Log_Space": int64(256 + r.readPos%100000), "Until_Condition": "None", "Master_SSL_Allowed": ssl,
		"Seconds_Behind_Master": lag, "Master_SSL_Verify_Server_Cert": "No",
		"Last_IO_Errno": int64(r.ioErrno), "Last_IO_Error": r.ioError, "Last_SQL_Errno": int64(0), "Last_SQL_Error": "",
		"Master_Server_Id": int64(0), "Using_Gtid": usingGTID, "Gtid_IO_Pos": r.ioPos,
		"Parallel_Mode": "optimistic", "SQL_Delay": int64(0), "SQL_Remaining_Delay": nil, "Slave_SQL_Running_State": sqlState,
	}
	if ioRun == "Yes" {
		if p, _ := st.resolve(r.host, r.port); p != nil {
			row["Master_Server_Id"] = int64(p.gtidServer)
		}
	}
	vals := make([]any, len(statusColumns))
	for i, c := range statusColumns {
		vals[i] = row[c]
	}
	res.Rows = [][]any{vals}
	return res
}

// statusColumns are SHOW SLAVE STATUS's columns the sandbox fills.
var statusColumns = []string{
	"Slave_IO_State", "Master_Host", "Master_User", "Master_Port", "Connect_Retry", "Master_Log_File", "Read_Master_Log_Pos",
	"Relay_Log_File", "Relay_Log_Pos", "Relay_Master_Log_File", "Slave_IO_Running", "Slave_SQL_Running",
	"Last_Errno", "Last_Error", "Skip_Counter", "Exec_Master_Log_Pos", "Relay_Log_Space", "Until_Condition",
	"Master_SSL_Allowed", "Seconds_Behind_Master", "Master_SSL_Verify_Server_Cert",
	"Last_IO_Errno", "Last_IO_Error", "Last_SQL_Errno", "Last_SQL_Error", "Master_Server_Id",
	"Using_Gtid", "Gtid_IO_Pos", "Parallel_Mode", "SQL_Delay", "SQL_Remaining_Delay", "Slave_SQL_Running_State",
}

// ---- the procedures ----

// procArgs are the procedures' parameter names, as the live schema has them.
var procArgs = map[string][]string{
	"change_external_primary_gtid": {"host", "port", "gtid", "use_ssl_encryption"},
	"change_external_primary":      {"host", "port", "logfile", "logpos", "use_ssl_encryption"},
	"replication_grants":           nil,
	"start_replication":            nil,
	"stop_replication":             nil,
	"reset_replication":            nil,
	"replication_status":           nil,
	"gtid_status":                  nil,
}

func message(msg string) *demosql.Result {
	return &demosql.Result{Columns: []string{"Message"}, Rows: [][]any{{msg}}}
}

func notConfigured() error {
	return demosql.Errorf(1200, "Misconfigured slave: MASTER_HOST was not set; Fix in config file or with CHANGE MASTER TO")
}

// call runs a sky procedure on service id at t.
func (st *store) call(id, proc string, args []any, t time.Time) (*demosql.Result, error) {
	s, ok := st.services[id]
	if !ok {
		return nil, demosql.Errorf(1049, "Unknown database 'sky'")
	}
	if s.status != statusReady {
		return nil, demosql.Errorf(1053, "Server shutdown in progress (service %s is %s)", s.id, s.status)
	}
	proc = strings.ToLower(proc)
	names, known := procArgs[proc]
	if !known {
		return nil, &demosql.Error{Code: 1305, State: "42000", Msg: "PROCEDURE sky." + proc + " does not exist"}
	}
	if len(args) != len(names) {
		return nil, &demosql.Error{Code: 1318, State: "42000",
			Msg: fmt.Sprintf("Incorrect number of arguments for PROCEDURE sky.%s; expected %d, got %d", proc, len(names), len(args))}
	}
	a := argReader{proc: proc, names: names, args: args}
	switch proc {
	case "change_external_primary_gtid":
		host, port, g, ssl := a.str(0), a.int(1), a.str(2), a.bool(3)
		if a.err != nil {
			return nil, a.err
		}
		list, ok := parseGTIDList(g)
		if !ok {
			return nil, demosql.Errorf(1941, "Could not parse GTID list")
		}
		r := &replica{host: host, port: int(port), useGTID: true, gtid: strings.TrimSpace(g), ssl: ssl, ioPos: strings.TrimSpace(g), readPos: 4, execPos: 4}
		for _, x := range list {
			if x.domain == 0 {
				r.start, r.startOK = x, true
			}
		}
		r.applied = r.start
		s.gtidSlavePos = r.gtid
		return st.configure(s, r), nil
	case "change_external_primary":
		host, port, file, pos, ssl := a.str(0), a.int(1), a.str(2), a.int(3), a.bool(4)
		if a.err != nil {
			return nil, a.err
		}
		r := &replica{host: host, port: int(port), file: file, pos: pos, ssl: ssl, readFile: file, readPos: pos, execFile: file, execPos: pos}
		var seq int64
		seq, r.startOK = seqOfCoords(file, pos)
		r.start = gtid{seq: seq}
		return st.configure(s, r), nil
	case "replication_grants":
		if s.repl == nil {
			return nil, demosql.Errorf(1200, "No replication is configured: call change_external_primary_gtid or change_external_primary first")
		}
		if s.repl.managed {
			return nil, demosql.Errorf(1200, "Replication of this service is managed by the platform: there is no grant to run")
		}
		return grantResult(s.repl.grant), nil
	case "start_replication":
		if s.repl == nil {
			return nil, notConfigured()
		}
		if !s.repl.running {
			s.repl.running = true
			s.repl.ioErrno, s.repl.ioError = 0, ""
		}
		return message("Replication started"), nil
	case "stop_replication":
		if s.repl != nil && s.repl.running {
			st.status(s, t) // what the threads had done until now
			s.repl.running = false
		}
		return message("Replication stopped"), nil
	case "reset_replication":
		s.repl = nil
		return message("Replication reset"), nil
	case "replication_status":
		return st.status(s, t), nil
	case "gtid_status":
		if s.repl != nil && s.repl.running {
			st.status(s, t)
		}
		binlog := s.binlogGTID(t).String()
		current := binlog
		if s.gtidSlavePos != "" {
			current = s.gtidSlavePos
		}
		return &demosql.Result{Columns: []string{"gtid_binlog_pos", "gtid_current_pos", "gtid_slave_pos"},
			Rows: [][]any{{binlog, current, s.gtidSlavePos}}}, nil
	}
	return nil, &demosql.Error{Code: 1305, State: "42000", Msg: "PROCEDURE sky." + proc + " does not exist"}
}

// configure points s at a primary (stopping replication, as the procedure
// does) with a new replication user and password, and returns the grant.
func (st *store) configure(s *service, r *replica) *demosql.Result {
	pw := make([]byte, 12)
	for i := range pw {
		pw[i] = byte(st.rng.Uint32())
	}
	r.user = replUserPrefix + s.id
	r.password = strings.ToUpper(hex.EncodeToString(pw))
	r.egress = s.egress()
	r.grant = fmt.Sprintf("GRANT REPLICATION SLAVE ON *.* TO '%s'@'%s' IDENTIFIED BY '%s';", r.user, r.egress, r.password)
	s.repl = r
	return grantResult(r.grant)
}

func grantResult(g string) *demosql.Result {
	return &demosql.Result{Columns: []string{api.GrantColumn}, Rows: [][]any{{g}}}
}

// grant records a replication grant run on service id (as a primary).
func (st *store) grant(id string, g demosql.Grant) error {
	s, ok := st.services[id]
	if !ok {
		return demosql.Errorf(1049, "Unknown database 'mysql'")
	}
	if s.status != statusReady {
		return demosql.Errorf(1053, "Server shutdown in progress (service %s is %s)", s.id, s.status)
	}
	if g.User == "" || g.Host == "" {
		return &demosql.Error{Code: 1064, State: "42000", Msg: "You have an error in your SQL syntax: the grant names no user or host"}
	}
	if s.grants == nil {
		s.grants = map[string]string{}
	}
	s.grants[strings.ToLower(g.User)+"@"+strings.ToLower(g.Host)] = g.Password
	return nil
}

// argReader converts procedure arguments as MariaDB converts them to the
// parameter types; the first failure is kept in err.
type argReader struct {
	proc  string
	names []string
	args  []any
	err   error
}

func (a *argReader) null(i int) bool {
	if a.args[i] == nil && a.err == nil {
		a.err = demosql.Errorf(1210, "Incorrect arguments to %s: %s is NULL", a.proc, a.names[i])
	}
	return a.args[i] == nil
}

func (a *argReader) badInt(i int) {
	if a.err == nil {
		a.err = &demosql.Error{Code: 1366, State: "22007",
			Msg: fmt.Sprintf("Incorrect integer value: '%v' for column ``.``.`%s` at row 0", a.args[i], a.names[i])}
	}
}

func (a *argReader) str(i int) string {
	if a.null(i) {
		return ""
	}
	switch v := a.args[i].(type) {
	case string:
		return v
	case bool:
		if v {
			return "1"
		}
		return "0"
	default:
		return fmt.Sprint(v)
	}
}

func (a *argReader) int(i int) int64 {
	if a.null(i) {
		return 0
	}
	switch v := a.args[i].(type) {
	case int64:
		return v
	case bool:
		if v {
			return 1
		}
		return 0
	case string:
		n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		if err != nil {
			a.badInt(i)
		}
		return n
	}
	a.badInt(i)
	return 0
}

func (a *argReader) bool(i int) bool { return a.int(i) != 0 }
