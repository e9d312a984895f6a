// Package sandbox is the whole backup, restore and provisioning interface,
// in memory: an HTTP server that lets skytui run and be tested without an
// account. It keeps a store of services, backups, schedules and restores,
// runs their state machines on a Clock (lazily, at the start of each
// request), applies the interface's rules with api's validation, answers
// with api's wire types and the live error body, and can inject faults.
// It knows nothing of terminals.
//
// SQL (Options.SQL): with SQLDemo every ready service's readwrite port is a
// MySQL-protocol endpoint on 127.0.0.1 that answers the sky replication
// procedures and the replication grant from a simulation kept in the store
// (replication.go); with SQLMariaDB it is a real mariadbd (real.go).
//
// Routes: the provisioning interface under /provisioning/v1 and the backup
// interface under both /backup/v1 (the interface document) and
// /skybackup/v1 (the live service). Where the two differ in shape (restore
// listing and single restore), each prefix answers its own; so they do in
// request rules: /skybackup/v1 requires service_id to list restores and
// schedules, lists backups of every service without it, and has no backup
// status call, while /backup/v1 requires service_id for backups only and
// offers /backups/status.
package sandbox

import (
	"bufio"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options configure a Server.
type Options struct {
	// APIKey is the key every request must carry in X-API-Key. Empty
	// accepts any non-empty key.
	APIKey string
	// TimeScale makes sandbox time run this many times faster than real
	// time (default 1). Ignored when Clock is set.
	TimeScale float64
	// Clock overrides TimeScale (tests use a ManualClock).
	Clock Clock
	// DemoData fills the store with services, backups, schedules and
	// restores in many states.
	DemoData bool
	// Faults are injected into API requests from the start.
	Faults Faults
	// RateLimit is requests per second per API key (token bucket, burst of
	// twice the rate); 0 is unlimited. Excess requests get 429 with
	// Retry-After.
	RateLimit float64
	// Seed makes IDs, passwords, demo data and fault draws reproducible.
	Seed int64
	// Logger receives one debug line per request (never the API key).
	Logger *slog.Logger
	// Ports decides the ports of a service becoming ready (default: the
	// live 3306 read-write and 3307 read-only). Only with SQL = SQLNone.
	Ports PortAssigner
	// SQL says what answers SQL on a ready service's readwrite port:
	// nothing (SQLNone, the zero value), a demo endpoint with simulated
	// replication (SQLDemo: --demo and `skytui sandbox`), or a real
	// mariadbd (SQLMariaDB: `skytui sandbox --mariadb`, which cannot load
	// DemoData). Server.Close stops them all.
	SQL SQLMode
	// MariaDBDir is where SQLMariaDB makes its run directory (the real
	// servers' data directories and the backups' dumps): a new
	// skytui-mariadb-* directory in it, kept after Close. Default: one in
	// the system's temporary directory, removed by Close.
	MariaDBDir string
	// Hostile spoils the answers' text (service, backup, schedule and
	// restore records, the credentials, every error body) with terminal
	// control sequences and, with DemoData, adds a service with a
	// 5,000-character name (hostile.go): a test of the client's cleaning.
	Hostile bool
}

// Server is the sandbox HTTP server. It is safe for concurrent use.
type Server struct {
	opts   Options
	clock  Clock
	log    *slog.Logger
	faults *faultInjector
	limit  *rateLimiter
	routes []*route

	mu sync.Mutex // guards st
	st *store

	sql *sqlLayer

	statsMu sync.Mutex
	stats   Stats

	lnMu   sync.Mutex
	srv    *http.Server
	closed chan struct{}
	once   sync.Once
}

// New builds a server; it serves once mounted with ServeHTTP or Start. It
// cannot fail: when Open would fail (SQLMariaDB without mariadbd, or
// options that contradict each other), the server still serves and every
// launch of a service fails with the reason. Prefer Open with SQLMariaDB.
func New(opts Options) *Server {
	layer, err := newSQLLayer(opts)
	if err != nil {
		if opts.Logger != nil {
			opts.Logger.Error("sandbox SQL setup failed; launches will fail", "err", err)
		}
		layer = &sqlLayer{mode: SQLNone, broken: err, endpoints: nil}
	}
	return build(opts, layer)
}

// Open builds a server like New and reports what New cannot: with
// SQLMariaDB, a missing mariadbd (an error wrapping ErrNoMariaDB, saying
// to install mariadb-server) or a failed template data directory; and
// options that contradict each other (Ports with an SQL mode, DemoData
// with SQLMariaDB).
func Open(opts Options) (*Server, error) {
	layer, err := newSQLLayer(opts)
	if err != nil {
		return nil, err
	}
	return build(opts, layer), nil
}

func build(opts Options, layer *sqlLayer) *Server {
	clock := opts.Clock
	if clock == nil {
		clock = NewScaledClock(time.Now().UTC().Truncate(time.Second), opts.TimeScale)
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{
		opts:   opts,
		clock:  clock,
		log:    log,
		faults: newFaultInjector(opts.Faults, opts.Seed),
		limit:  newRateLimiter(opts.RateLimit),
		st:     newStore(clock.Now(), opts.Seed, layer.assigner(opts.Ports)),
		stats:  Stats{Requests: map[string]int{}, Faults: map[string]int{}},
		closed: make(chan struct{}),
		sql:    layer,
	}
	layer.srv = s
	if layer.real != nil {
		layer.real.srv = s
		s.st.slow = layer.real
		s.st.loopbackEgress = true
	}
	s.routes = buildRoutes()
	if opts.DemoData {
		loadDemo(s.st, clock.Now())
		if opts.Hostile {
			loadHostile(s.st, clock.Now())
		}
	}
	return s
}

// Clock is the sandbox's clock.
func (s *Server) Clock() Clock { return s.clock }

// SetFaults replaces the injected faults at run time.
func (s *Server) SetFaults(f Faults) { s.faults.set(f, s.opts.Seed) }

// FailNextBackup makes the next backup job of the service (once, cron or
// nightly) end Failed.
func (s *Server) FailNextBackup(serviceID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if svc, ok := s.st.services[serviceID]; ok {
		svc.failNext++
	}
}

// SetDataSize sets the simulated database size of a service, from now on
// (backup and restore durations grow with it).
func (s *Server) SetDataSize(serviceID string, bytes int64) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.advance(s.clock.Now())
	svc, ok := s.st.services[serviceID]
	if !ok {
		return fmt.Errorf("sandbox: no service %s", serviceID)
	}
	svc.gtidBase = svc.gtidSeqAt(s.st.now)
	svc.dataBytes, svc.dataAt = bytes, s.st.now
	return nil
}

// Credentials are a service's current default username and password, once
// it has launched (a restore replaces them). It locks the store: a
// PortAssigner, which runs with the store locked, must not call it.
func (s *Server) Credentials(serviceID string) (username, password string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.st.advance(s.clock.Now())
	svc, found := s.st.services[serviceID]
	if !found || !svc.launched {
		return "", "", false
	}
	return svc.username, svc.password, true
}

// ServiceIDs lists the services' IDs in creation order.
func (s *Server) ServiceIDs() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]string, 0, len(s.st.order))
	for _, svc := range s.st.order {
		out = append(out, svc.id)
	}
	return out
}

// Stats counts requests per route and injected faults.
type Stats struct {
	// Requests counts every request that matched a route, whatever its
	// outcome, by "METHOD /pattern" such as "POST /backup/v1/restores" or
	// "GET /provisioning/v1/services/{id}".
	Requests map[string]int
	// Faults counts injected faults by kind (drop, timeout, error, 429,
	// malformed, unreadable, drop-after; the last two drawn or armed) and
	// refusals of Options.RateLimit ("ratelimit").
	Faults map[string]int
	// Total is the number of requests, matched or not.
	Total int
}

// Count is Requests[method+" "+pattern].
func (st Stats) Count(method, pattern string) int { return st.Requests[method+" "+pattern] }

// Stats returns a copy of the counters.
func (s *Server) Stats() Stats {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	out := Stats{Requests: map[string]int{}, Faults: map[string]int{}, Total: s.stats.Total}
	for k, v := range s.stats.Requests {
		out.Requests[k] = v
	}
	for k, v := range s.stats.Faults {
		out.Faults[k] = v
	}
	return out
}

func (s *Server) count(key string) {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	s.stats.Total++
	if key != "" {
		s.stats.Requests[key]++
	}
}

// Start listens on addr (such as "127.0.0.1:0") and serves in the
// background. It returns the base URL, such as "http://127.0.0.1:41234".
func (s *Server) Start(addr string) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("sandbox: %w", err)
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	s.lnMu.Lock()
	s.srv = srv
	s.lnMu.Unlock()
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("sandbox server stopped", "err", err)
		}
	}()
	return "http://" + ln.Addr().String(), nil
}

// Close stops the server, releases requests held by injected timeouts,
// and closes every service's SQL endpoint or stops its real server (and
// waits for them).
func (s *Server) Close() error {
	s.once.Do(func() { close(s.closed) })
	s.lnMu.Lock()
	srv := s.srv
	s.lnMu.Unlock()
	var err error
	if srv != nil {
		err = srv.Close()
	}
	s.sql.close()
	return err
}

// ---- request handling ----

// reqCtx is one request as a handler sees it.
type reqCtx struct {
	r       *http.Request
	params  map[string]string
	prefix  string      // /provisioning/v1, /backup/v1 or /skybackup/v1
	live    bool        // under /skybackup/v1
	header  http.Header // response headers
	now     time.Time   // sandbox time of the request
	traceID string
}

// handler answers a request; it runs with the store locked and advanced.
type handler func(st *store, c *reqCtx) (int, any, *apiError)

func newTraceID() string {
	var b [16]byte
	for i := range b {
		b[i] = byte(rand.Uint32())
	}
	return hex.EncodeToString(b[:])
}

// ServeHTTP answers one request: authentication, rate limit, faults, then
// the route's handler.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	c := &reqCtx{r: r, header: w.Header(), traceID: newTraceID()}
	w.Header().Set("X-Trace-Id", c.traceID)
	// the sandbox's own clock (it may run fast): clients measure ages by it
	w.Header().Set("Date", s.clock.Now().UTC().Format(http.TimeFormat))
	path := strings.TrimRight(r.URL.Path, "/")
	rt, params, prefix := s.match(path)
	status := 0
	defer func() {
		s.log.Debug("sandbox request", "method", r.Method, "path", r.URL.Path, "query", r.URL.RawQuery, "status", status,
			"duration", time.Since(start).Round(time.Microsecond), "trace_id", c.traceID)
	}()
	fail := func(e *apiError) {
		status = e.status
		s.writeError(w, r, c.traceID, e)
	}
	key := ""
	if rt != nil {
		key = r.Method + " " + rt.pattern
	}
	s.count(key)

	// Authentication comes first, on every path.
	apiKey := r.Header.Get("X-API-Key")
	if apiKey == "" || (s.opts.APIKey != "" && apiKey != s.opts.APIKey) {
		e := errf(http.StatusUnauthorized, "X-API-Key", "missing or invalid API key")
		e.solution = "Send a valid API key in the X-API-Key header."
		fail(e)
		return
	}
	if rt == nil {
		fail(errf(http.StatusNotFound, "path", "no such route: %s %s", r.Method, r.URL.Path))
		return
	}
	h, ok := rt.methods[r.Method]
	if !ok {
		w.Header().Set("Allow", strings.Join(rt.allow(), ", "))
		fail(errf(http.StatusMethodNotAllowed, "method", "method %s is not allowed on %s (allowed: %s)", r.Method, rt.pattern, strings.Join(rt.allow(), ", ")))
		return
	}
	if ok, wait := s.limit.allow(apiKey); !ok {
		s.countFaultName("ratelimit")
		fail(&apiError{status: http.StatusTooManyRequests, message: "rate limit exceeded: too many requests for this API key", location: "X-API-Key",
			solution: "Wait for the time in the Retry-After header, then retry.", retryAfter: wait})
		return
	}

	// Faults are decided before the request is handled: a request faulted
	// here changes nothing. Unreadable and drop-after (drawn, or armed with
	// ArmFault) spoil the answer after the handler instead; they are
	// counted when they do.
	kind, latency, errStatus, retryAfter := s.faults.decide(changeMethod(r.Method))
	if latency > 0 && !s.sleep(r.Context(), latency) {
		return
	}
	if kind != faultNone && !kind.after() {
		s.countFault(kind)
	}
	switch kind {
	case faultDrop:
		status = -1
		dropConnection(w)
		return
	case faultTimeout:
		t := time.NewTimer(30 * time.Second)
		defer t.Stop()
		select {
		case <-r.Context().Done():
			return
		case <-s.closed:
			dropConnection(w)
			return
		case <-t.C:
			fail(errf(http.StatusGatewayTimeout, "", "upstream request timeout"))
			return
		}
	case faultError:
		msg := "internal server error"
		if errStatus == http.StatusServiceUnavailable {
			msg = "service temporarily unavailable"
		}
		fail(errf(errStatus, "", "%s", msg))
		return
	case faultRateLimit:
		fail(&apiError{status: http.StatusTooManyRequests, message: "rate limit exceeded", solution: "Wait for the time in the Retry-After header, then retry.", retryAfter: retryAfter})
		return
	}
	// empty, null, endless and huge (faults.go) replace a GET's answer
	if code := s.serveGETFault(w, r, rt, kind); code != 0 {
		status = code
		return
	}

	c.params = params
	c.prefix = prefix
	c.live = prefix == liveBackupPrefix
	var code int
	var body any
	var aerr *apiError
	s.mu.Lock()
	s.st.advance(s.clock.Now())
	c.now = s.st.now
	code, body, aerr = h(s.st, c)
	s.mu.Unlock()
	change := r.Method != http.MethodGet
	if aerr != nil {
		if kind != faultMalformed || change {
			// a change refused is said so, malformed or not: a 2xx
			// would claim what was not done
			fail(aerr)
			return
		}
		body = aerr.body(r.URL.Path, c.traceID, s.clock.Now())
	}
	data, err := json.Marshal(body)
	if err != nil {
		fail(errf(http.StatusInternalServerError, "", "encoding the answer: %v", err))
		return
	}
	if kind == faultMalformed {
		// a read: 200 with half its JSON; a change: carried out, then its
		// own 2xx status with half its JSON
		if !change {
			code = http.StatusOK
		}
		data = data[:len(data)/2]
	} else if code >= 200 && code < 300 && s.spoilAnswer(w, r, rt, path, kind, code, data) {
		status = -1
		return
	}
	status = code
	if s.opts.Hostile {
		data = hostileAnswer(path, data)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(data)
	if kind != faultMalformed {
		w.Write([]byte("\n"))
	}
}

func (s *Server) countFault(k faultKind) { s.countFaultName(k.String()) }

func (s *Server) countFaultName(name string) {
	s.statsMu.Lock()
	s.stats.Faults[name]++
	s.statsMu.Unlock()
}

// spoilAnswer answers a change the store has accepted (code, data) as an
// unreadable or drop-after fault says, drawn (kind) or armed; false when
// no such fault applies and the answer is still to be written.
func (s *Server) spoilAnswer(w http.ResponseWriter, r *http.Request, rt *route, path string, kind faultKind, code int, data []byte) bool {
	var f ArmedFault
	switch kind {
	case faultUnreadable:
		f = ArmedFault{Kind: AnswerUnreadable}
	case faultDropAfter:
		f = ArmedFault{Kind: AnswerDropped}
	case faultNone:
		var ok bool
		if f, ok = s.faults.takeArmed(r.Method, rt.pattern, path); !ok {
			return false
		}
	default:
		return false
	}
	s.countFaultName(string(f.Kind))
	if f.Kind == AnswerDropped {
		dropConnection(w)
		return true
	}
	if f.Status != 0 {
		code = f.Status
	}
	body, ctype := []byte(f.Body), "text/html; charset=utf-8"
	switch {
	case f.Body != "":
		if !strings.HasPrefix(strings.TrimSpace(f.Body), "<") {
			ctype = "application/json" // such as a truncated {"id": 4
		}
	case f.Truncate:
		body, ctype = data[:len(data)/2], "application/json"
	default:
		body = []byte(DefaultUnreadableBody)
	}
	w.Header().Set("Content-Type", ctype)
	w.WriteHeader(code)
	w.Write(body)
	return true
}

// sleep waits d of real time; false when the client or the server gave up.
func (s *Server) sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-s.closed:
		return false
	case <-t.C:
		return true
	}
}

// dropConnection closes the connection without an answer.
func dropConnection(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler)
}

func (s *Server) writeError(w http.ResponseWriter, r *http.Request, traceID string, e *apiError) {
	if e.retryAfter > 0 || e.status == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", strconv.Itoa(retryAfterSeconds(e.retryAfter)))
	}
	data, _ := json.Marshal(e.body(r.URL.Path, traceID, s.clock.Now()))
	if s.opts.Hostile {
		data = hostileAnswer("error", data)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.status)
	w.Write(append(data, '\n'))
}

// ---- routing ----

const (
	provPrefix       = "/provisioning/v1"
	backupPrefix     = "/backup/v1"
	liveBackupPrefix = "/skybackup/v1"
)

// decodeBody reads a JSON request body into v.
func decodeBody(c *reqCtx, v any) *apiError {
	dec := json.NewDecoder(bufio.NewReader(http.MaxBytesReader(nil, c.r.Body, 1<<20)))
	if err := dec.Decode(v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return errf(http.StatusBadRequest, te.Field, "%s: must be a JSON %s (got %s)", te.Field, jsonKind(te.Type.Kind()), te.Value)
		}
		if err.Error() == "EOF" {
			return errf(http.StatusBadRequest, "body", "a JSON request body is required")
		}
		return errf(http.StatusBadRequest, "body", "the request body is not valid JSON: %v", err)
	}
	return nil
}

// bodyField reads a JSON request body of one field, name, as a T (other
// fields are ignored), with decodeBody's refusals.
func bodyField[T any](c *reqCtx, name string) (T, *apiError) {
	one := reflect.New(reflect.StructOf([]reflect.StructField{{
		Name: "Value", Type: reflect.TypeFor[T](), Tag: reflect.StructTag(`json:"` + name + `"`)}}))
	if err := decodeBody(c, one.Interface()); err != nil {
		var zero T
		return zero, err
	}
	return one.Elem().Field(0).Interface().(T), nil
}

// decodeValid reads a JSON request body into v and applies v's own rules.
func decodeValid(c *reqCtx, v interface{ Validate() error }) *apiError {
	if err := decodeBody(c, v); err != nil {
		return err
	}
	if err := v.Validate(); err != nil {
		return validation(err)
	}
	return nil
}

func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.Bool:
		return "boolean"
	case reflect.String:
		return "string"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct, reflect.Pointer:
		return "object"
	}
	return "number"
}
