// Engine: the connections it opens (the HTTP client, SQL with a
// service's default credentials) and the words for what failed.

package replsetup

import (
	"context"
	"errors"
	"time"

	"github.com/skytui/skytui/api"
)

// Engine runs the steps' calls: the HTTP API through Client and the sky
// procedures over SQL. Its methods change nothing they are given and are
// safe to run in tea.Cmds.
type Engine struct {
	Client *api.Client
	Now    func() time.Time
	// Open connects to a service (default api.OpenSQL).
	Open func(api.SQLTarget) (*api.SQLClient, error)
	// SQLTimeout bounds dialling and each statement (default 10 s).
	SQLTimeout time.Duration
	// ScanTimeout bounds RefuseBusy's reading of the other services over
	// SQL, all of them together (default: SQLTimeout, else 10 s): one not
	// read by then is said to be unread, as one this machine cannot reach
	// is, so an account with many unreachable services does not hold a
	// step for tens of seconds.
	ScanTimeout time.Duration
	// Saved reads the pairs saved on this machine for the profile (nil:
	// none), for RefuseBusy; it runs in commands.
	Saved func() ([]Pair, error)
	// BusyFix words the way out of a follower RefuseBusy refuses, in the
	// caller's keys or commands (nil: plain words).
	BusyFix func(Busy) string
}

func (e *Engine) now() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}

func (e *Engine) scanTimeout() time.Duration {
	switch {
	case e.ScanTimeout > 0:
		return e.ScanTimeout
	case e.SQLTimeout > 0:
		return e.SQLTimeout
	}
	return 10 * time.Second
}

func (e *Engine) client() (*api.Client, error) {
	if e.Client == nil {
		return nil, errors.New("no API client")
	}
	return e.Client, nil
}

// target is how to connect to a service with the given credentials: its
// fqdn and readwrite port, TLS when the service has SSL on.
func (e *Engine) target(s *api.Service, c *api.Credentials) api.SQLTarget {
	return api.SQLTarget{Host: s.FQDN, Port: s.ReadWritePort(), User: c.Username, Password: c.Password,
		TLS: s.SSLEnabled, Timeout: e.SQLTimeout}
}

func (e *Engine) open(s *api.Service, c *api.Credentials) (*api.SQLClient, error) {
	open := e.Open
	if open == nil {
		open = api.OpenSQL
	}
	return open(e.target(s, c))
}

// connect opens an SQL connection to a service with its current default
// credentials.
func (e *Engine) connect(ctx context.Context, s *api.Service) (*api.SQLClient, error) {
	cl, err := e.client()
	if err != nil {
		return nil, err
	}
	creds, err := cl.GetCredentials(ctx, s.ID)
	if err != nil {
		return nil, err
	}
	return e.open(s, creds)
}

// connectID reads service id and connects to it as connect does. The
// service is nil when reading it failed, and the error then the API's.
func (e *Engine) connectID(ctx context.Context, id string) (*api.Service, *api.SQLClient, error) {
	svcs, err := e.services(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	db, err := e.connect(ctx, svcs[0])
	return svcs[0], db, err
}

func (e *Engine) services(ctx context.Context, ids ...string) ([]*api.Service, error) {
	cl, err := e.client()
	if err != nil {
		return nil, err
	}
	out := make([]*api.Service, len(ids))
	for i, id := range ids {
		s, err := cl.GetService(ctx, id)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

func fail(step Step, err error, problem, fix string) Outcome {
	if problem == "" && err != nil {
		problem = err.Error()
	}
	return Outcome{Step: step, Verdict: Fail, Err: err, Problem: problem, Fix: fix}
}

// apiFix explains an HTTP error of the API met by a read-only check of
// the wizard (c checks again).
func apiFix(err error) string { return apiFixRetry(err, retryCheck) }

// apiFixRetry explains an HTTP error of the API, with retry the words for
// trying again where it is shown.
func apiFixRetry(err error, retry string) string {
	switch {
	case api.IsUnauthorized(err):
		return "the API key was refused: :login to enter a valid one"
	case api.IsNotFound(err):
		return "it no longer exists: check the Services screen"
	case api.IsConflict(err):
		return "the service is busy (a pending state): wait until it is ready, then try again"
	case api.IsRateLimited(err):
		return "too many requests: wait a moment, then try again"
	}
	return retry + "; if it persists, quote the trace ID to support"
}

// How to try a wizard step again: a read-only check (the allow list, the
// backups, the restore, the grant read again) with c, a step that
// changes a service (the allow list's entry, the restore, change
// primary, the grant, the start) and the pair's choice with enter.
const (
	retryCheck = "try again (c)"
	retryRun   = "try again (enter)"
)

// SQLFix explains an SQL error on a service (role: primary or secondary)
// met by a step that changes a service (enter runs it again).
func SQLFix(err error, role, name string, step Step) (problem, fix string) {
	return SQLFixRetry(err, role, name, step, retryRun)
}

// notReadyError is a secondary that cannot answer SQL: its state
// (stopped, pending, failed), which ServiceState explains.
type notReadyError struct{ svc api.Service }

func (e *notReadyError) Error() string {
	return SvcName(&e.svc) + " is " + api.OrID(e.svc.Status, "not ready") + ": its status can be read once it is ready"
}

// NotReady reports an error of PairStatus that is the secondary's state
// (stopped, pending, failed), not a failed read: the PairStatus returned
// with it holds the secondary, whose state ServiceState explains.
func NotReady(err error) bool {
	var nr *notReadyError
	return errors.As(err, &nr)
}

// SQLFixRetry is SQLFix with the words for trying again.
func SQLFixRetry(err error, role, name string, step Step, retry string) (problem, fix string) {
	var nr *notReadyError
	if errors.As(err, &nr) {
		problem, fix = ServiceState(role, &nr.svc)
		if nr.svc.Pending() && !api.StatusIs(nr.svc.Status, "pending_stop") {
			fix += "; " + retry
		}
		return problem, fix
	}
	var se *api.SQLError
	if !errors.As(err, &se) {
		if api.StatusOf(err) != 0 {
			return err.Error(), apiFixRetry(err, retry)
		}
		return err.Error(), retry
	}
	switch se.Code {
	case api.ErAccessDenied, api.ErDBAccessDenied, api.ErProcAccessDenied:
		if role == "secondary" && step >= StepChange {
			return se.Error(), "the " + role + " " + name + " refused its default credentials; after the restore they are the primary's: " + retry + ", which fetches them again"
		}
		return se.Error(), "the " + role + " " + name + " refused its default credentials: check them on the Services screen (c)"
	case api.ErSPDoesNotExist, api.ErBadDB:
		return se.Error(), name + " has no sky replication procedures: replication needs a MariaDB Cloud service"
	case 1200:
		return se.Error(), "replication is not configured on " + name + ": run step 4 first"
	case 1941:
		return se.Error(), "the GTID position is not valid: choose another backup (step 2)"
	}
	if se.Code == 0 {
		return se.Error(), "this machine must reach " + name + ": its address must be in " + name + "'s allow list (Services screen, a)"
	}
	return se.Error(), "read the error; " + retry
}
