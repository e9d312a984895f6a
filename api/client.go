// Package api is the typed client of the backup, restore and provisioning
// interface, the validation rules it shares with the sandbox, and the SQL
// client for the replication procedures. It knows nothing of terminals.
package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net/http"
	"net/http/httptrace"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// Defaults of the interface document.
const (
	DefaultProvisioningPrefix = "/provisioning/v1"
	DefaultBackupPrefix       = "/backup/v1"
	LiveBackupPrefix          = "/skybackup/v1"
	DefaultTimeout            = 15 * time.Second
	DefaultMaxRetries         = 3
	// MaxRetryAfter is the longest Retry-After the client waits for itself;
	// a longer one is returned to the caller (whose poller backs off).
	MaxRetryAfter = 20 * time.Second
	pageSize      = 100
	maxPages      = 1000
	// MaxBody is the largest single answer the client reads.
	MaxBody = 32 << 20
	// MaxListItems and MaxListBytes bound a listing across all its pages: a
	// server that keeps handing out next pages cannot exhaust memory.
	MaxListItems = 20_000
	MaxListBytes = 32 << 20
)

// Config holds the settings of a Client.
type Config struct {
	BaseURL            string
	APIKey             string
	Org                string // sent as X-MDB-Org when set
	ProvisioningPrefix string // default /provisioning/v1
	BackupPrefix       string // default /backup/v1; the live service uses /skybackup/v1
	UserAgent          string // default skytui/dev
	HTTPClient         *http.Client
	Timeout            time.Duration // per request; default 15 s
	MaxRetries         int           // GET, and a DELETE read again first; default 3, negative for none
	BaseBackoff        time.Duration // default 300 ms
	Logger             *slog.Logger  // debug log; never sees the API key
	// Sleep waits between retries; tests replace it.
	Sleep func(ctx context.Context, d time.Duration) error
	// ServerClock is the server's own clock when the server runs in this
	// process (the demo's sandbox, whose clock runs fast); nil: Now follows
	// the Date headers of the answers.
	ServerClock func() time.Time
}

// Client calls the interface. It is safe for concurrent use.
type Client struct {
	cfg  Config
	base *url.URL
	// statusUnsupported is set once the backup status call proved absent,
	// so pollers stop asking.
	statusUnsupported atomic.Bool
	// clockOffset is the server's clock minus ours (nanoseconds), from the
	// Date header of the last answer; see Now.
	clockOffset atomic.Int64
}

// Now is the server's time as best known: our clock moved by the
// difference the last answer's Date header showed (to the second). Ages
// and elapsed times are measured against it, so a server whose clock runs
// ahead (a skewed jump host, the sandbox's fast demo clock) shows "3m ago"
// where it means three minutes, not a time in the future.
func (c *Client) Now() time.Time {
	if c.cfg.ServerClock != nil {
		return c.cfg.ServerClock()
	}
	return time.Now().Add(time.Duration(c.clockOffset.Load()))
}

// noteDate takes the server's clock from an answer's Date header.
func (c *Client) noteDate(h http.Header, received time.Time) {
	d, err := http.ParseTime(h.Get("Date"))
	if err != nil {
		return
	}
	// the header is whole seconds: half a second is the best guess of the rest
	c.clockOffset.Store(int64(d.Add(500 * time.Millisecond).Sub(received)))
}

// New validates the settings and returns a client.
func New(cfg Config) (*Client, error) {
	if err := ValidateBaseURL(cfg.BaseURL); err != nil {
		return nil, err
	}
	u, _ := url.Parse(strings.TrimRight(cfg.BaseURL, "/"))
	if cfg.ProvisioningPrefix == "" {
		cfg.ProvisioningPrefix = DefaultProvisioningPrefix
	}
	if cfg.BackupPrefix == "" {
		cfg.BackupPrefix = DefaultBackupPrefix
	}
	cfg.ProvisioningPrefix = "/" + strings.Trim(cfg.ProvisioningPrefix, "/")
	cfg.BackupPrefix = "/" + strings.Trim(cfg.BackupPrefix, "/")
	if cfg.UserAgent == "" {
		cfg.UserAgent = "skytui/dev"
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = &http.Client{}
	}
	// A redirect is never followed: the API key would go with it (to
	// another host, or over plain HTTP), and a change would turn into a
	// GET. The 3xx answer is reported as an error, with where it pointed.
	hc := *cfg.HTTPClient
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	cfg.HTTPClient = &hc
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = DefaultMaxRetries
	} else if cfg.MaxRetries < 0 {
		cfg.MaxRetries = 0
	}
	if cfg.BaseBackoff <= 0 {
		cfg.BaseBackoff = 300 * time.Millisecond
	}
	if cfg.Sleep == nil {
		cfg.Sleep = sleepCtx
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Client{cfg: cfg, base: u}, nil
}

// BaseURL is the configured base URL.
func (c *Client) BaseURL() string { return c.base.String() }

// Host is the API endpoint host, for headers.
func (c *Client) Host() string { return c.base.Host }

// Org is the configured organisation, or "".
func (c *Client) Org() string { return c.cfg.Org }

// KeyFingerprint names the API key the client sends without revealing it,
// as keystore.Fingerprint does: "sha256:" and the first 8 hex digits of
// its SHA-256; "" when it sends none. Settings shows the key in use by it
// (after a key entered at the prompt it differs from SKYSQL_API_KEY).
func (c *Client) KeyFingerprint() string { return Fingerprint(c.cfg.APIKey) }

// Fingerprint names a secret without revealing it: "sha256:" and the
// first 8 hex digits of its SHA-256; "" for none. The keystore names
// stored secrets by it too.
func Fingerprint(secret string) string {
	if secret == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(secret))
	return "sha256:" + hex.EncodeToString(sum[:])[:8]
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (c *Client) prov(p string) string   { return c.cfg.ProvisioningPrefix + p }
func (c *Client) backup(p string) string { return c.cfg.BackupPrefix + p }

// BackupPath is the path of a backup-interface call as this client sends
// it ("/skybackup/v1/restores" on the live service): for the reviews that
// show the request.
func (c *Client) BackupPath(p string) string { return c.backup(p) }

// response is a successful answer.
type response struct {
	body   []byte
	header http.Header
	status int
	// unreadable says why the body of an accepted change was not read
	// (larger than MaxBody).
	unreadable string
}

// traceID is the answer's trace ID (X-Trace-Id), cleaned, or "".
func (r *response) traceID() string { return traceOf(r.header) }

// answerText says why an accepted change's answer could not be read:
// "202 answer to POST /provisioning/v1/services (trace 5f2c…): invalid
// character …". The trace ID comes before the reason, which may be long.
func (r *response) answerText(method, path string, why any) string {
	s := fmt.Sprintf("%d answer to %s %s", r.status, method, path)
	if t := r.traceID(); t != "" {
		s += " (trace " + t + ")"
	}
	return fmt.Sprintf("%s: %v", s, why)
}

// do sends one call. GET is retried on transport errors and on 429, 500,
// 502, 503 and 504; a change (POST, PUT, PATCH, DELETE) is sent once: a
// duplicated restore or backup is worse than an error. A DELETE that can
// read again what it removes goes through send with a recheck instead.
func (c *Client) do(ctx context.Context, method, path string, query url.Values, in any) (*response, error) {
	return c.send(ctx, method, path, query, in, nil)
}

// recheck reads again what a change was to do and reports whether it is
// in effect (what a DELETE removes is gone).
type recheck func(ctx context.Context) (done bool, err error)

// absent is a recheck's verdict on reading again what a DELETE removes:
// gone when the read finds nothing (404) or a record whose state says it
// went; a read that failed otherwise is its error.
func absent(err error, went func() bool) (bool, error) {
	if IsNotFound(err) {
		return true, nil
	}
	if err != nil {
		return false, err
	}
	return went(), nil
}

// send sends one call, retrying a GET (see do). A change with a recheck
// is never sent again blindly: after a failure a retry could mend (its
// answer lost, 429, 5xx) it waits as a retry would and reads again; a
// change found in effect was carried out (an empty 200 answer), one not in
// effect is sent again while retries remain, and one that cannot be read
// again keeps its error (an outcome unknown stays unknown).
func (c *Client) send(ctx context.Context, method, path string, query url.Values, in any, check recheck) (*response, error) {
	var payload []byte
	if in != nil {
		var err error
		if payload, err = json.Marshal(in); err != nil {
			return nil, fmt.Errorf("encode %s %s: %w", method, path, err)
		}
	}
	attempts := 1
	if method == http.MethodGet || check != nil {
		attempts += c.cfg.MaxRetries
	}
	for attempt := 1; ; attempt++ {
		resp, err := c.once(ctx, method, path, query, payload)
		if err == nil {
			return resp, nil
		}
		if !shouldRetry(ctx, err) {
			if check != nil && attempt > 1 && c.sentBefore(ctx, method, path, err, check) {
				return &response{status: http.StatusOK}, nil
			}
			return nil, err
		}
		more := attempt < attempts
		if more && c.pause(ctx, method, path, attempt, err) != nil {
			return nil, err
		}
		if check != nil {
			done, cerr := check(ctx)
			if cerr != nil {
				c.cfg.Logger.Debug("not sent again: could not read again", "method", method, "path", path, "err", cerr)
				return nil, err
			}
			if done {
				c.cfg.Logger.Debug("carried out, as read again", "method", method, "path", path, "err", err)
				return &response{status: http.StatusOK}, nil
			}
		}
		if !more {
			return nil, err
		}
	}
}

// sentBefore reports that a change sent again was refused because an
// earlier sending had carried it out: what a DELETE removes is not found
// at its path, or a read finds it gone (a server whose reads lagged behind
// its writes when the change was read back before sending it again).
func (c *Client) sentBefore(ctx context.Context, method, path string, err error, check recheck) bool {
	if method == http.MethodDelete && IsNotFound(err) {
		c.cfg.Logger.Debug("carried out before: sent again, not found", "method", method, "path", path)
		return true
	}
	done, cerr := check(ctx)
	if cerr == nil && done {
		c.cfg.Logger.Debug("carried out before: sent again, refused, read again", "method", method, "path", path, "err", err)
	}
	return cerr == nil && done
}

// pause waits before retry attempt+1 after err: the backoff, or the
// server's Retry-After.
func (c *Client) pause(ctx context.Context, method, path string, attempt int, err error) error {
	wait := c.backoff(attempt)
	var he *Error
	if errors.As(err, &he) && he.RetryAfter > 0 {
		wait = he.RetryAfter
	}
	c.cfg.Logger.Debug("retry", "method", method, "path", path, "attempt", attempt+1, "wait", wait)
	return c.cfg.Sleep(ctx, wait)
}

func (c *Client) backoff(attempt int) time.Duration {
	d := c.cfg.BaseBackoff << (attempt - 1)
	if d > 8*time.Second {
		d = 8 * time.Second
	}
	// full jitter in [d/2, d)
	return d/2 + time.Duration(rand.Int64N(int64(d/2)+1))
}

func shouldRetry(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	if e.Status == 0 {
		return true // transport error
	}
	switch e.Status {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		// a longer Retry-After (maintenance) is said, not slept through
		return e.RetryAfter <= MaxRetryAfter
	}
	return false
}

func (c *Client) once(ctx context.Context, method, path string, query url.Values, payload []byte) (*response, error) {
	if c.cfg.APIKey == "" {
		return nil, &Error{Method: method, Path: path, Err: ErrNoAPIKey}
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.Timeout)
	defer cancel()
	u := *c.base
	u.Path = c.base.Path + path
	if len(query) > 0 {
		u.RawQuery = query.Encode()
	}
	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), body)
	if err != nil {
		return nil, &Error{Method: method, Path: path, Err: err}
	}
	req.Header.Set("Accept", "application/json")
	if payload != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	if c.cfg.APIKey != "" {
		req.Header.Set("X-API-Key", c.cfg.APIKey)
	}
	if c.cfg.Org != "" {
		req.Header.Set("X-MDB-Org", c.cfg.Org)
	}
	// sent records that the request was written in full: a change whose
	// answer is then lost may have been carried out (its outcome is
	// unknown), unlike one that never left (a refused connection).
	var sent atomic.Bool
	req = req.WithContext(httptrace.WithClientTrace(req.Context(), &httptrace.ClientTrace{
		WroteRequest: func(i httptrace.WroteRequestInfo) {
			if i.Err == nil {
				sent.Store(true)
			}
		},
	}))
	change := method != http.MethodGet && method != http.MethodHead
	start := time.Now()
	res, err := c.cfg.HTTPClient.Do(req)
	if err != nil {
		c.cfg.Logger.Debug("request failed", "method", method, "path", path, "headers", RedactHeaders(req.Header), "err", err, "sent", sent.Load())
		return nil, &Error{Method: method, Path: path, Err: transportError(err), Unknown: change && sent.Load()}
	}
	defer res.Body.Close()
	c.noteDate(res.Header, time.Now())
	tooBig := func() (*response, error) {
		why := fmt.Sprintf("the answer is larger than %d MiB, the most the client reads", MaxBody>>20)
		if change && res.StatusCode/100 == 2 {
			// accepted all the same: the status is the server's word
			return &response{header: res.Header, status: res.StatusCode, unreadable: why}, nil
		}
		return nil, &Error{Method: method, Path: path, Status: res.StatusCode, Err: errors.New(why), TraceID: traceOf(res.Header)}
	}
	if res.ContentLength > MaxBody {
		// said up front: not read, so a huge answer costs nothing
		return tooBig()
	}
	data, err := io.ReadAll(io.LimitReader(res.Body, MaxBody+1))
	c.cfg.Logger.Debug("request", "method", method, "path", path, "status", res.StatusCode,
		"duration", time.Since(start).Round(time.Millisecond), "bytes", len(data),
		"headers", RedactHeaders(req.Header), "trace_id", res.Header.Get("X-Trace-Id"))
	if err != nil {
		// the server answered with a status and the body broke off: the
		// status is its word (a 2xx: the change was accepted; else refused)
		switch {
		case res.StatusCode/100 != 2:
			return nil, ErrorFromResponse(method, path, res.StatusCode, res.Header, data)
		case change:
			return &response{body: data, header: res.Header, status: res.StatusCode}, nil
		}
		return nil, &Error{Method: method, Path: path, Err: transportError(err), TraceID: traceOf(res.Header)}
	}
	if len(data) > MaxBody {
		return tooBig()
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return nil, ErrorFromResponse(method, path, res.StatusCode, res.Header, data)
	}
	return &response{body: data, header: res.Header, status: res.StatusCode}, nil
}

func transportError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("timed out: %w", err)
	}
	return err
}

// RedactHeaders renders headers for a log with secrets replaced.
func RedactHeaders(h http.Header) string {
	var parts []string
	for k, vs := range h {
		v := strings.Join(vs, ",")
		switch http.CanonicalHeaderKey(k) {
		case "X-Api-Key", "Authorization", "Cookie", "Proxy-Authorization":
			v = "[REDACTED]"
		}
		parts = append(parts, k+"="+v)
	}
	slices.Sort(parts)
	return strings.Join(parts, " ")
}

func parseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil {
		if n < 0 {
			return 0
		}
		return time.Duration(n) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

func decodeInto(method, path string, r *response, out any) error {
	if err := unmarshalLenient(r.body, out); err != nil {
		return malformed(method, path, r, err)
	}
	return nil
}

// malformed is the error for a successful answer that cannot be read: its
// status, the request and its trace ID, as an API error's.
func malformed(method, path string, r *response, err error) error {
	return &Error{Method: method, Path: path, Status: r.status, TraceID: r.traceID(), Err: fmt.Errorf("malformed response: %w", err)}
}

func (c *Client) get(ctx context.Context, path string, q url.Values, out any) error {
	r, err := c.do(ctx, http.MethodGet, path, q, nil)
	if err != nil {
		return err
	}
	return decodeInto(http.MethodGet, path, r, out)
}

// change sends a mutation (never retried) and decodes its answer into out.
// A 2xx answer is the server's acceptance, whatever its body looks like:
// when the body cannot be read, change returns no error and says why in
// the returned text, which the caller puts in the record's
// Meta.Unreadable ("accepted; the answer could not be read: …").
func (c *Client) change(ctx context.Context, method, path string, in, out any) (unreadable string, err error) {
	return c.changeChecked(ctx, method, path, in, out, nil)
}

// remove sends a DELETE as change does, retried only after gone, reading
// again, finds what it removes still there (see send).
func (c *Client) remove(ctx context.Context, path string, in, out any, gone recheck) (unreadable string, err error) {
	return c.changeChecked(ctx, http.MethodDelete, path, in, out, gone)
}

func (c *Client) changeChecked(ctx context.Context, method, path string, in, out any, check recheck) (unreadable string, err error) {
	r, err := c.send(ctx, method, path, nil, in, check)
	if err != nil {
		return "", err
	}
	if r.unreadable != "" {
		return r.answerText(method, path, r.unreadable), nil
	}
	if out == nil || len(bytes.TrimSpace(r.body)) == 0 {
		return "", nil
	}
	if err := unmarshalLenient(r.body, out); err != nil {
		c.cfg.Logger.Debug("unreadable answer to an accepted change", "method", method, "path", path, "status", r.status, "err", err, "trace_id", r.traceID())
		return r.answerText(method, path, err), nil
	}
	return "", nil
}

// create validates req and posts it to path (never retried). An accepted
// answer that cannot be read is replaced by standIn, which says why; one
// that carries no record (no body, {} or null) by standIn("").
func create[T any, PT interface {
	*T
	hasRecord() bool
}](ctx context.Context, c *Client, path string, req interface{ Validate() error }, standIn func(why string) *T) (*T, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	var out T
	why, err := c.change(ctx, http.MethodPost, path, req, &out)
	if err != nil {
		return nil, err
	}
	if why != "" || !PT(&out).hasRecord() {
		return standIn(why), nil
	}
	return &out, nil
}

// post validates req and posts it to path (never retried).
func (c *Client) post(ctx context.Context, path string, req interface{ Validate() error }) (*response, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return c.do(ctx, http.MethodPost, path, nil, req)
}

// getOne reads one record: an object, or a one-element array.
func getOne[T any](ctx context.Context, c *Client, path string) (*T, error) {
	r, err := c.do(ctx, http.MethodGet, path, nil, nil)
	if err != nil {
		return nil, err
	}
	out, err := decodeOne[T](r.body)
	if err != nil {
		return nil, malformed(http.MethodGet, path, r, err)
	}
	return out, nil
}

// getList reads one page of a listing: its items (a bare array, or under
// one of keys in an envelope), the envelope's pages_count, and the answer.
func getList[T any](ctx context.Context, c *Client, path string, q url.Values, keys ...string) ([]T, int, *response, error) {
	r, err := c.do(ctx, http.MethodGet, path, q, nil)
	if err != nil {
		return nil, 0, nil, err
	}
	items, pages, err := decodeList[T](r.body, keys...)
	if err != nil {
		return nil, 0, nil, malformed(http.MethodGet, path, r, err)
	}
	return items, pages, r, nil
}

// listOptions reads an option listing (under data or items), every page
// of it.
func listOptions[T any](ctx context.Context, c *Client, path string, q url.Values) ([]T, error) {
	return tokenList[T](ctx, c, path, q, "data", "items")
}

// listOnce reads a listing that is not paged (the providers, a service's
// allow lists): one call, under data or items.
func listOnce[T any](ctx context.Context, c *Client, path string) ([]T, error) {
	out, _, _, err := getList[T](ctx, c, path, nil, "data", "items")
	return out, err
}

// tokenList reads a listing page by page (page_size, then page_token),
// following X-SkySQL-Page-Token-Next until there is none.
func tokenList[T any](ctx context.Context, c *Client, path string, q url.Values, keys ...string) ([]T, error) {
	q = maps.Clone(q)
	if q == nil {
		q = url.Values{}
	}
	q.Set("page_size", strconv.Itoa(pageSize))
	var all []T
	var bound listBound
	seen := map[string]bool{}
	for page := 0; page < maxPages; page++ {
		items, _, r, err := getList[T](ctx, c, path, q, keys...)
		if err != nil {
			return nil, err
		}
		if err := bound.add(http.MethodGet, path, len(items), r); err != nil {
			return nil, err
		}
		all = append(all, items...)
		token := r.header.Get("X-SkySQL-Page-Token-Next")
		if token == "" || seen[token] || len(items) == 0 {
			break
		}
		seen[token] = true
		q.Set("page_token", token)
	}
	return all, nil
}

func optQuery(kv ...string) url.Values {
	q := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			q.Set(kv[i], kv[i+1])
		}
	}
	return q
}

// pagedList fetches page=1..pages_count of an envelope listing. An
// answer that does not say how many pages there are (a bare array, an
// envelope without pages_count) is read on while its pages come back
// full, until a page repeats the one before (a server that does not
// page answers every page alike).
func pagedList[T any](ctx context.Context, c *Client, path string, q url.Values, keys ...string) ([]T, error) {
	q = maps.Clone(q)
	if q == nil {
		q = url.Values{}
	}
	var all []T
	var bound listBound
	var last []byte
	for page := 1; page <= maxPages; page++ {
		q.Set("page", strconv.Itoa(page))
		q.Set("page_size", strconv.Itoa(pageSize))
		items, pages, r, err := getList[T](ctx, c, path, q, keys...)
		if err != nil {
			return nil, err
		}
		if pages == 0 && page > 1 && bytes.Equal(r.body, last) {
			break
		}
		last = r.body
		if err := bound.add(http.MethodGet, path, len(items), r); err != nil {
			return nil, err
		}
		all = append(all, items...)
		more := page < pages || pages == 0 && len(items) >= pageSize
		if !more || len(items) == 0 {
			break
		}
	}
	return all, nil
}

// Check verifies the API key with the cheapest call there is: one page of
// one service. A refused key is an *Error with status 401.
func (c *Client) Check(ctx context.Context) error {
	_, err := c.do(ctx, http.MethodGet, c.prov("/services"), url.Values{"page_size": {"1"}}, nil)
	return err
}
