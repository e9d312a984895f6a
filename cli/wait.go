package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/kit"
)

// Waiting: --wait on the changes, and `skytui wait service|restore`. A
// wait reads the state every few seconds (GETs only, which the client
// retries) until the end state, a failed end, the timeout or an interrupt.
// While stderr is a terminal one progress line is redrawn there; otherwise
// it is quiet. Giving up never stops the operation, and says how to check
// on it.

// waiter follows one operation.
type waiter struct {
	e        *env
	timeout  time.Duration
	poll     time.Duration
	what     string // "restore 5 into staging-eu"
	check    string // the command that shows the state later
	progress bool
	drawn    bool
	// afterChange: the wait follows a change just accepted, whose status
	// a read may not show yet: a service still ready after its stop (or
	// stopped after its start) is waited for, not called a dead end,
	// until changeSettles has passed.
	afterChange bool
	// svcs: the services listed before the wait, so a command it suggests
	// names a service by ID where its name is shared (argOf)
	svcs []api.Service
}

// changeSettles is how long a change just accepted may take to show in
// the service's status before a wait calls a status that will not move a
// dead end.
const changeSettles = time.Minute

func (e *env) newWaiter(c *changeFlags, what, check string) *waiter {
	w := &waiter{e: e, timeout: c.timeout, poll: c.poll, what: what, check: check, progress: isTerminal(e.stderr)}
	if w.timeout <= 0 {
		w.timeout = 30 * time.Minute
	}
	if w.poll <= 0 {
		w.poll = 3 * time.Second
	}
	return w
}

// endError is a failed end state: the wait is over and the command fails.
type endError struct{ err error }

func (e *endError) Error() string { return e.err.Error() }
func (e *endError) Unwrap() error { return e.err }

// stopPolling reports a poll error that waiting longer cannot fix.
func stopPolling(err error) bool {
	var end *endError
	return errors.As(err, &end) || api.IsUnauthorized(err) || api.IsNotFound(err)
}

// minRead is the least time one status read is given, however little of
// the wait's --timeout is left.
const minRead = 5 * time.Second

// run calls step until it reports done. step returns the state in words
// for the progress line; a failed end state is an *endError.
//
// goal is the end state waited for, as the progress line says it ("until
// stopped"); to, as the messages do ("to be stopped", "to finish").
func (w *waiter) run(ctx context.Context, goal, to string, step func(context.Context) (state string, done bool, err error)) error {
	start := time.Now()
	deadline := time.NewTimer(w.timeout)
	defer deadline.Stop()
	defer w.clear()
	var last string
	var lastErr error
	for {
		// a read is given at least minRead even near the deadline, so that
		// a timed-out wait still tells the last state it saw
		pollCtx, cancel := context.WithTimeout(ctx, max(w.timeout-time.Since(start), minRead))
		state, done, err := step(pollCtx)
		cancel()
		switch {
		case err != nil && stopPolling(err):
			var end *endError
			if errors.As(err, &end) {
				return end.err
			}
			return err
		case err != nil && ctx.Err() != nil:
		case err != nil:
			lastErr = err
			w.draw(fmt.Sprintf("%s: %s, until %s (reading again: %v)", w.what, kit.Or(last, "?"), goal, firstLine(err)), start)
		case done:
			return nil
		default:
			last, lastErr = state, nil
			w.draw(fmt.Sprintf("%s: %s, until %s", w.what, state, goal), start)
		}
		t := time.NewTimer(w.poll)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("interrupted while waiting for %s %s (last: %s); it goes on: check with `%s`", w.what, to, kit.Or(last, "unknown"), w.check)
		case <-deadline.C:
			t.Stop()
			msg := fmt.Sprintf("timed out after %s waiting for %s %s (last: %s)", w.timeout, w.what, to, kit.Or(last, "unknown"))
			if lastErr != nil {
				msg += fmt.Sprintf(", the last read failed: %v", firstLine(lastErr))
			}
			return fmt.Errorf("%s; it goes on: check with `%s`", msg, w.check)
		case <-t.C:
		}
	}
}

func (w *waiter) draw(line string, start time.Time) {
	if !w.progress {
		return
	}
	el := time.Since(start).Truncate(time.Second)
	fmt.Fprintf(w.e.stderr, "\r\x1b[K%s  %s", cell(line), el)
	w.drawn = true
}

func (w *waiter) clear() {
	if w.drawn {
		fmt.Fprint(w.e.stderr, "\r\x1b[K")
		w.drawn = false
	}
}

func firstLine(err error) string { return cell(err.Error()) }

// ---- what is waited for ----

// Service end states for --for.
const (
	forReady   = "ready"
	forStopped = "stopped"
	forDeleted = "deleted"
)

// waitService follows a service to the wanted state and returns it (nil
// once deleted).
func (w *waiter) waitService(ctx context.Context, c *api.Client, id, want string) (*api.Service, error) {
	var last *api.Service
	begin := time.Now()
	settled := func() bool { return !w.afterChange || time.Since(begin) >= changeSettles }
	err := w.run(ctx, want, "to be "+want, func(ctx context.Context) (string, bool, error) {
		s, err := c.GetService(ctx, id)
		if want == forDeleted && api.IsNotFound(err) {
			last = nil
			return "deleted", true, nil
		}
		if api.IsNotFound(err) {
			// gone while waited for: it will never be ready or stopped
			name := id
			if last != nil {
				name = last.NameOrID()
			}
			return "deleted", true, &endError{notFoundErrf("%s was deleted: it will not become %s", name, want)}
		}
		if err != nil {
			return "", false, err
		}
		last = s
		switch {
		case want != forDeleted && api.StatusIs(s.Status, "pending_delete", "deleting", "deleted", "retired"):
			return s.Status, true, &endError{fmt.Errorf("%s is %s: it will not become %s", s.NameOrID(), s.Status, want)}
		case want == forReady && s.Ready(),
			want == forStopped && api.StatusIs(s.Status, "stopped"),
			want == forDeleted && api.StatusIs(s.Status, "deleted", "retired"):
			return s.Status, true, nil
		case api.StatusIs(s.Status, "failed"):
			return s.Status, true, &endError{errors.New(failedText(s))}
		case want == forReady && api.StatusIs(s.Status, "stopped") && !s.Pending() && settled():
			return s.Status, true, &endError{fmt.Errorf("%s is stopped: it will not become ready until it is started: start it with `skytui services start %s --wait`", s.NameOrID(), argOf(s, w.svcs))}
		case want == forDeleted && api.StatusIs(s.Status, "ready", "stopped") && !s.Pending() && settled():
			// --confirm takes the exact name, whatever names the service
			return s.Status, true, &endError{fmt.Errorf("%s is %s and nothing is deleting it: delete it with `skytui services delete %s --yes --confirm %s`", s.NameOrID(), s.Status, argOf(s, w.svcs), kit.ShellQuote(s.NameOrID()))}
		case want == forStopped && api.StatusIs(s.Status, "ready") && !s.Pending() && settled():
			return s.Status, true, &endError{fmt.Errorf("%s is ready and nothing is stopping it: stop it with `skytui services stop %s --yes`", s.NameOrID(), argOf(s, w.svcs))}
		}
		return kit.Or(s.Status, "?"), false, nil
	})
	return last, err
}

// failedText says that a failed service failed, with the reasons it gives:
// "broken-import is failed: launch failed: …".
func failedText(s *api.Service) string {
	msg := fmt.Sprintf("%s is %s", s.NameOrID(), s.Status)
	if len(s.Errors) > 0 {
		msg += ": " + strings.Join(s.Errors, "; ")
	}
	return msg
}

// waitRestore follows a restore until it succeeded (nil) or failed.
func (w *waiter) waitRestore(ctx context.Context, c *api.Client, id int64) (*api.Restore, error) {
	var last *api.Restore
	err := w.run(ctx, "finished", "to finish", func(ctx context.Context) (string, bool, error) {
		r, err := c.GetRestore(ctx, id)
		if err != nil {
			return "", false, err
		}
		last = r
		switch {
		case r.Succeeded():
			return r.Status, true, nil
		case r.Failed():
			return r.Status, true, &endError{fmt.Errorf("restore %d %s: %s", id, strings.ToLower(r.Status), kit.Or(r.Message, "no message"))}
		}
		state := kit.Or(r.Status, "?")
		if r.Message != "" {
			state += " (" + r.Message + ")"
		}
		return state, false, nil
	})
	return last, err
}

// followRestore follows restore id into target (waitRestore): restores
// create --wait and replication setup follow the restore they start.
func (e *env) followRestore(ctx context.Context, c *api.Client, cf *changeFlags, id int64, target string) (*api.Restore, error) {
	w := e.newWaiter(cf, fmt.Sprintf("restore %d into %s", id, target), "skytui restores get "+strconv.FormatInt(id, 10))
	return w.waitRestore(ctx, c, id)
}

// waitBackup follows a backup of a service, by key, until it completed or
// failed. find picks the backup from the listing when the key is not yet
// known (nil: not listed yet).
func (w *waiter) waitBackup(ctx context.Context, c *api.Client, serviceID string, find func([]api.Backup) *api.Backup) (*api.Backup, error) {
	var last *api.Backup
	err := w.run(ctx, "completed", "to complete", func(ctx context.Context) (string, bool, error) {
		list, err := c.ListBackups(ctx, serviceID)
		if err != nil {
			return "", false, err
		}
		b := find(list)
		if b == nil {
			return "not listed yet", false, nil
		}
		last = b
		switch api.BackupState(b.Status) {
		case api.BackupCompleted:
			return b.Status, true, nil
		case api.BackupFailed:
			return b.Status, true, &endError{fmt.Errorf("backup %s of %s %s", api.ShortKey(b.Key), serviceID, strings.ToLower(b.Status))}
		}
		return kit.Or(b.Status, "?"), false, nil
	})
	return last, err
}

// ---- skytui wait ----

func newWaitCmd(e *env) *cobra.Command {
	long := `Wait for a service or a restore to reach its end state, then print it.

  skytui wait service orders-prod --for ready
  skytui wait restore 12 --timeout 2h

A failed end state exits 1; so does the timeout (the operation goes on).
--for deleted of a service already gone is done at once (exit 0): by ID
when reading it answers 404, by name when the listing does not hold it
(stderr says so: a name never created reads the same).
Progress goes to stderr when it is a terminal; otherwise waiting is quiet.` + scriptHelpTail

	var sf changeFlags
	var want string
	svc := verb("service SERVICE --for ready|stopped|deleted", "Wait until a service is ready, stopped or deleted", "", cobra.ExactArgs(1), func(cmd *cobra.Command, args []string) error {
		switch want {
		case forReady, forStopped, forDeleted:
		default:
			return usageErrf("--for %q: must be ready, stopped or deleted", want)
		}
		if err := checkServiceArg("service", args[0]); err != nil {
			return err
		}
		c, err := e.openRead(cmd)
		if err != nil {
			return err
		}
		s, _, err := c.serviceByArg(cmd, "service", args[0])
		if want == forDeleted && exitCode(err) == exitNotFound {
			// gone before the wait began: the state asked for is reached
			// (a delete without --wait that was quick)
			if s, err = e.goneAlready(cmd.Context(), c, args[0]); err != nil || s == nil {
				return err
			}
		}
		if err != nil {
			return err
		}
		w := e.newWaiter(&sf, s.NameOrID(), "skytui services get "+c.arg(s))
		return e.followService(cmd.Context(), c, w, s, want)
	})
	svc.Flags().StringVar(&want, "for", forReady, "the state to wait for: ready, stopped or deleted")
	sf.registerTimeout(svc, "give up waiting after this long (the operation goes on)")

	var rf changeFlags
	rst := e.newRestoreCmd("restore ID", "Wait until a restore succeeded (exit 0) or failed (exit 1)", func(cmd *cobra.Command, c *api.Client, id int64) (*api.Restore, error) {
		arg := strconv.FormatInt(id, 10)
		w := e.newWaiter(&rf, "restore "+arg, "skytui restores get "+arg)
		return w.waitRestore(cmd.Context(), c, id)
	})
	rf.registerTimeout(rst, "give up waiting after this long (the restore goes on)")
	cmd := newNoun("wait", "Wait for a service or a restore to reach its end state", svc, rst)
	cmd.Long = long
	return cmd
}

// emitRestore prints a restore, with its target's name in a table.
func (c *changeSession) emitRestore(ctx context.Context, e *env, r *api.Restore) error {
	var names map[string]string
	if c.out.output != outJSON && r.ServiceName == "" {
		if svcs, err := c.client.ListServices(ctx); err == nil {
			names = serviceNames(svcs)
		} else if errors.Is(err, context.Canceled) {
			return err
		}
	}
	return c.out.emit(e.stdout, r, restoresTable([]api.Restore{*r}, names))
}

// goneAlready answers `wait service ARG --for deleted` for a service the
// listing does not hold. An ID is read: a 404 is deleted; a service the
// read still finds is returned, to be followed. A name is taken as
// deleted, the message saying it was not listed and may never have been
// created (a name followed until it went prints no such line). Deleted
// is said on stderr and printed as a record with the status deleted
// (nil).
func (e *env) goneAlready(ctx context.Context, c *changeSession, arg string) (*api.Service, error) {
	gone := &api.Service{Name: arg, Status: forDeleted}
	why := "not in the listing: deleted, or never created under that name"
	if api.ValidateServiceID(arg) == nil {
		s, err := c.client.GetService(ctx, arg)
		switch {
		case err == nil:
			return s, nil
		case !api.IsNotFound(err):
			return nil, err
		}
		gone = &api.Service{ID: arg, Status: forDeleted}
		why = "not in the listing, and reading it answers 404: deleted"
	}
	fmt.Fprintf(e.stderr, "skytui: %s: %s\n", arg, api.CleanText(why))
	// what is known: no record was read; the other of id and name is ""
	rec := map[string]string{"id": gone.ID, "name": gone.Name, "status": forDeleted}
	return nil, c.out.emit(e.stdout, rec, servicesTable([]api.Service{*gone}))
}

// followService waits for s to reach want and prints it; a service that is
// gone prints as its last record, marked deleted.
func (e *env) followService(ctx context.Context, c *changeSession, w *waiter, s *api.Service, want string) error {
	w.svcs = c.svcs
	final, err := w.waitService(ctx, c.client, s.ID, want)
	if err != nil {
		return err
	}
	if final == nil {
		final = s
		final.Status = forDeleted
	}
	return c.out.emit(e.stdout, final, servicesTable([]api.Service{*final}))
}
