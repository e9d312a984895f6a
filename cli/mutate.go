package cli

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/keystore"
	"github.com/skytui/skytui/kit"
)

// The commands that change the account, for scripts and runbooks. They
// share the TUI's profiles, keystore, client and request rules, and its
// safety: a read-only profile refuses every change before anything is
// sent (exit 3); destructive changes need --yes, and a restore or a delete
// also --confirm with the target's exact name (exit 3 when missing or
// different); a POST is sent once and never retried; a change whose answer
// was lost is "outcome unknown" with the command that shows what
// happened, never an invitation to send it again; a 2xx answer that could
// not be read is an accepted change (exit 0).

// exitRefused is the exit status of a change refused before it was sent:
// a read-only profile, a missing or wrong confirmation.
const exitRefused = 3

func refusedErrf(format string, a ...any) error {
	return &exitError{code: exitRefused, err: fmt.Errorf(format, a...)}
}

// isTerminal reports whether w is a terminal; tests replace it.
var isTerminal = func(w io.Writer) bool {
	if h, ok := w.(hintWriter); ok {
		w = h.w
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// cmdFlags reads the shared flags (--profile, --api-url, -o, --no-headers)
// of the noun a verb belongs to, wherever they were given.
func cmdFlags(cmd *cobra.Command) *outputFlags {
	str := func(name string) string {
		if f := cmd.Flags().Lookup(name); f != nil {
			return f.Value.String()
		}
		return ""
	}
	f := &outputFlags{profile: str("profile"), apiURL: str("api-url"), output: str("output")}
	if f.output == "" {
		f.output = outTable
	}
	f.noHeaders, _ = cmd.Flags().GetBool("no-headers")
	return f
}

// changeFlags are the flags of the commands that change something.
type changeFlags struct {
	yes     bool
	confirm string
	wait    bool
	timeout time.Duration
	poll    time.Duration
}

// needs are the flags a change takes besides its own.
type needs int

const (
	withYes     needs = 1 << iota // a destructive change: --yes
	withConfirm                   // --confirm with the target's exact name
	withWait                      // --wait, --timeout and the hidden --poll-interval

	changeOnly needs = 0 // its own flags only
)

// verb is verb for a command that changes something, with the flags of
// what it needs (register).
func (c *changeFlags) verb(n needs, use, short, long string, args cobra.PositionalArgs, run func(*cobra.Command, []string) error) *cobra.Command {
	cmd := verb(use, short, long, args, run)
	c.register(cmd, n)
	return cmd
}

// register adds to a changing command the flags of what it needs.
// --read-only is the noun's (addReadOnlyFlag), so it may come before the
// verb too.
func (c *changeFlags) register(cmd *cobra.Command, n needs) {
	fl := cmd.Flags()
	if n&withYes != 0 {
		fl.BoolVar(&c.yes, "yes", false, "confirm a destructive change (required)")
	}
	if n&withConfirm != 0 {
		fl.StringVar(&c.confirm, "confirm", "", "the target service's exact name, as the TUI asks you to type it (required)")
	}
	if n&withWait != 0 {
		fl.BoolVar(&c.wait, "wait", false, "follow the operation to its end state (progress on stderr when it is a terminal)")
		c.registerTimeout(cmd, "with --wait: give up waiting after this long (the operation goes on)")
		cmd.PreRunE = waitAlone
	}
}

// waitAlone refuses --timeout (and the hidden --poll-interval) given
// without --wait (exit 2, nothing sent): without it nothing is waited
// for, and a runbook that says --timeout 2h must not believe it waited.
func waitAlone(cmd *cobra.Command, _ []string) error {
	if wait, _ := cmd.Flags().GetBool("wait"); wait {
		return nil
	}
	for _, name := range []string{"timeout", "poll-interval"} {
		if cmd.Flags().Changed(name) {
			return usageErrf("--%s goes with --wait: without --wait %s does not wait (add --wait, or leave --%s out)", name, cmd.CommandPath(), name)
		}
	}
	return nil
}

// registerTimeout adds --timeout, with usage for its help, and the hidden
// --poll-interval.
func (c *changeFlags) registerTimeout(cmd *cobra.Command, usage string) {
	fl := cmd.Flags()
	c.timeout = 30 * time.Minute
	fl.Var((*positiveDuration)(&c.timeout), "timeout", usage)
	fl.DurationVar(&c.poll, "poll-interval", 3*time.Second, "how often to read the state while waiting")
	_ = fl.MarkHidden("poll-interval")
}

// positiveDuration is a duration flag that takes only a positive value: a
// negative or zero one is refused as the flag is parsed (exit 2, naming
// the flag and the rule), never taken as "no timeout".
type positiveDuration time.Duration

func (d *positiveDuration) Set(s string) error {
	v, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return errors.New("must be a duration such as 30m, 2h or 90s")
	case v <= 0:
		return errors.New("must be positive, such as 30m, 2h or 90s")
	}
	*d = positiveDuration(v)
	return nil
}

func (d *positiveDuration) String() string { return time.Duration(*d).String() }
func (d *positiveDuration) Type() string   { return "duration" }

// addReadOnlyFlag gives a noun with changing verbs the persistent
// --read-only flag.
func addReadOnlyFlag(noun *cobra.Command) {
	noun.PersistentFlags().Bool("read-only", false, "refuse every change, as a read-only profile does (nothing is sent)")
}

// addKeystoreReadOnlyFlag gives auth and creds the --read-only the other
// commands take, so a runbook that passes it to every call runs these
// too. It changes nothing here: it refuses changes to the account, and
// these change only what is kept on this machine, which stays writable
// (as the terminal UI's --read-only says).
func addKeystoreReadOnlyFlag(noun *cobra.Command) {
	noun.PersistentFlags().Bool("read-only", false, "accepted and changes nothing here: --read-only refuses changes to the account; the local keystore (API keys, bucket credentials) stays writable")
}

func readOnlyFlag(cmd *cobra.Command) bool {
	v, _ := cmd.Flags().GetBool("read-only")
	return v
}

// changeSession is an open profile with its client, cleared for a change.
type changeSession struct {
	*session
	client *api.Client
	out    *outputFlags
	// svcs is the services listing a service argument was resolved in
	// (arg names a service by ID where its name is shared)
	svcs []api.Service
}

// openChange opens the profile for a change: a read-only profile (or
// --read-only) is refused here, before the key is read or anything sent.
// what names the change for the refusal ("services create").
func (e *env) openChange(cmd *cobra.Command, c *changeFlags, what string) (*changeSession, error) {
	s, f, err := e.openScript(cmd)
	if err != nil {
		return nil, err
	}
	switch {
	case s.profile.ReadOnly:
		return nil, refusedErrf("profile %s is read-only: %s refused, nothing was sent", s.profile.Name, what)
	case readOnlyFlag(cmd):
		return nil, refusedErrf("--read-only: %s refused, nothing was sent", what)
	}
	return e.connect(s, f)
}

// openDestructive is openChange for a change that needs --yes, asked
// after the read-only refusal.
func (e *env) openDestructive(cmd *cobra.Command, c *changeFlags, what string) (*changeSession, error) {
	s, err := e.openChange(cmd, c, what)
	if err != nil {
		return nil, err
	}
	return s, needYes(c, what)
}

// openScript validates -o and opens the session of the command's profile.
func (e *env) openScript(cmd *cobra.Command) (*session, *outputFlags, error) {
	f := cmdFlags(cmd)
	if err := f.validate(); err != nil {
		return nil, nil, err
	}
	s, err := e.openSession(f.profile, f.apiURL)
	if err != nil {
		return nil, nil, err
	}
	return s, f, nil
}

// connect reads the profile's key and makes its client.
func (e *env) connect(s *session, f *outputFlags) (*changeSession, error) {
	key, _, err := s.apiKey()
	if err != nil {
		return nil, err
	}
	c, err := s.client(key, e.version, slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, err
	}
	return &changeSession{session: s, client: c, out: f}, nil
}

// openRead is openChange for a command that reads only.
func (e *env) openRead(cmd *cobra.Command) (*changeSession, error) {
	s, f, err := e.openScript(cmd)
	if err != nil {
		return nil, err
	}
	return e.connect(s, f)
}

// needYes refuses a destructive change without --yes.
func needYes(c *changeFlags, what string) error {
	if !c.yes {
		return refusedErrf("%s is destructive: pass --yes to confirm it (nothing was sent)", what)
	}
	return nil
}

// needYesConfirm refuses a destructive change to target without --yes or
// with a --confirm that is missing or not target's exact name, in one
// refusal that says all that is to pass ("pass --yes --confirm
// staging-eu"), asked once the target is read. what names the change
// in the --yes refusals, short in the --confirm ones.
func needYesConfirm(c *changeFlags, what, short string, target *api.Service) error {
	if !c.yes && c.confirm != target.NameOrID() {
		return refusedErrf("%s is destructive: pass --yes --confirm %s (the target service's exact name; nothing was sent)", what, kit.ShellQuote(target.NameOrID()))
	}
	if err := needYes(c, what); err != nil {
		return err
	}
	return needConfirm(c, short, target)
}

// needConfirm refuses a change to target whose --confirm is missing or
// does not match target's exact name, saying what to pass. It is asked
// once the target is read (a read sends no change), so the refusal names
// it.
func needConfirm(c *changeFlags, what string, target *api.Service) error {
	name := target.NameOrID()
	switch {
	case strings.TrimSpace(c.confirm) == "":
		return refusedErrf("%s needs --confirm with the target service's exact name: pass --confirm %s (nothing was sent)", what, kit.ShellQuote(name))
	case c.confirm != name:
		return refusedErrf("%s: --confirm %q does not match the target service's name: pass --confirm %s (nothing was sent)", what, c.confirm, kit.ShellQuote(name))
	}
	return nil
}

// requestErr turns a broken request rule into exit 2, naming the flag
// and the field with its rule. flags maps a field to its flag.
func requestErr(err error, flags map[string]string) error {
	var fields []*api.FieldError
	var ve api.ValidationErrors
	var fe *api.FieldError
	switch {
	case errors.As(err, &ve):
		fields = ve
	case errors.As(err, &fe):
		fields = []*api.FieldError{fe}
	default:
		return err
	}
	parts := make([]string, len(fields))
	for i, f := range fields {
		field := f.Field
		if j := strings.IndexByte(field, '['); j > 0 {
			field = field[:j]
		}
		if fl := flags[field]; fl != "" {
			parts[i] = fmt.Sprintf("%s (%s): %s", fl, f.Field, f.Rule)
		} else {
			parts[i] = f.Error()
		}
	}
	return usageErrf("invalid request: %s (nothing was sent)", strings.Join(parts, "; "))
}

// sentErr reports a change that was sent and failed. An unknown outcome
// says so and names the command that shows what happened; it never
// invites sending the change again.
func sentErr(err error, check string) error {
	switch {
	case err == nil:
		return nil
	case api.IsOutcomeUnknown(err):
		return fmt.Errorf("%w; it may have been carried out: check with `%s` before sending it again", err, check)
	case api.IsNotFound(err):
		return &exitError{code: exitNotFound, err: err}
	}
	return err
}

// readErr maps a 404 answer to a read to exit 4.
func readErr(err error) error {
	if api.IsNotFound(err) {
		return &exitError{code: exitNotFound, err: err}
	}
	return err
}

// notReadAgain reports a change accepted (2xx) whose record could not be
// read again after it: said (what, cleaned) on stderr with the command to
// check it with, and under -o json the accepted object ("answer": "not
// read again") with what the request named, so a script's jq reads
// accepted, never nothing. Exit 0: the change was made.
func (e *env) notReadAgain(c *changeSession, what, check string, named map[string]any) error {
	fmt.Fprintf(e.stderr, "skytui: %s; check with `%s`\n", api.CleanText(what), check)
	if c.out.output != outJSON {
		return nil
	}
	return c.out.emit(e.stdout, acceptedJSON(c.out.suggest(check), named, "not read again", what), nil)
}

// noteUnreadable says on stderr that a change was accepted though its
// answer could not be read.
func (e *env) noteUnreadable(why string, check string) {
	fmt.Fprintf(e.stderr, "skytui: accepted; the answer could not be read: %s", api.CleanText(why))
	if check != "" {
		fmt.Fprintf(e.stderr, "; check with `%s`", check)
	}
	fmt.Fprintln(e.stderr)
}

// answered reports the answer to a change that answers a record (ans,
// read only when err is nil): a refusal naming a field is that flag's
// usage error (requestErr; flags maps a field to its flag); any other
// error is sentErr's, naming check; an accepted answer that could not be
// read is noted on stderr (noteUnreadable) and is no failure.
func (e *env) answered(ans api.AnswerUnreadableError, err error, flags map[string]string, check string) error {
	if err != nil {
		if verr := requestErr(err, flags); verr != err {
			return verr
		}
		return sentErr(err, check)
	}
	if why := ans.AnswerUnreadable(); why != "" {
		e.noteUnreadable(why, check)
	}
	return nil
}

// unreadJSON is what -o json prints for a change the server accepted
// (2xx) whose answer ans could not be read, and true; else false. Not a
// record: the client's stand-in for it, made from the request, has no ID
// and a guessed status, and a script reading .id must not take it for the
// server's. It says the change was accepted, that its answer was
// unreadable and why, the command that shows the record (check), and what
// the request named (named: service, name, type…).
func (f *outputFlags) unreadJSON(ans api.AnswerUnreadableError, check string, named map[string]any) (map[string]any, bool) {
	why := ans.AnswerUnreadable()
	if why == "" || f.output != outJSON {
		return nil, false
	}
	return acceptedJSON(f.suggest(check), named, "unreadable", why), true
}

// acceptedJSON is -o json's object for a change the server accepted whose
// answer gave no record (answer: "unreadable", "no record"; why: the
// reason), with the command that shows it and what the request named.
func acceptedJSON(check string, named map[string]any, answer, why string) map[string]any {
	v := map[string]any{}
	for k, x := range named {
		v[k] = x
	}
	v["accepted"], v["answer"], v["reason"], v["check"] = true, answer, api.CleanText(why), check
	return v
}

// emitAnswer emits the record a change answered (its table t), or under
// -o json, when the answer could not be read, unreadJSON's object.
// A table of an unreadable answer says the status, which the client
// cannot know, is unknown: its stand-in's is not the server's.
func (f *outputFlags) emitAnswer(w io.Writer, ans api.AnswerUnreadableError, t *table, check string, named map[string]any) error {
	if v, ok := f.unreadJSON(ans, check, named); ok {
		return f.emit(w, v, nil)
	}
	if ans.AnswerUnreadable() != "" {
		t.unknown("STATUS")
	}
	return f.emit(w, ans, t)
}

// encodeStored reads the named bucket credentials from the keystore and
// encodes them for a bucket path by the rules the TUI's forms use
// (keystore.EncodeForBucket): the kind is checked against the scheme, and
// no secret is ever in an error. A missing credential is not found (exit
// 4), a mismatched one a usage error; nothing was sent.
func encodeStored(store *keystore.Store, name, path, field string) (string, error) {
	enc, err := keystore.EncodeForBucket(store, name, path)
	var fe *api.FieldError
	switch {
	case err == nil:
		return enc, nil
	case errors.Is(err, keystore.ErrNotFound):
		return "", notFoundErrf("--creds %s: no stored bucket credentials of that name (see `skytui creds list`; store them with `%s`)", name,
			strings.ReplaceAll(keystore.AddHint(keystore.SchemeOf(path)), "NAME", kit.ShellQuote(name)))
	case errors.As(err, &fe):
		return "", usageErrf("--creds (%s): %s", field, fe.Rule)
	}
	return "", usageErrf("--creds %s: %v", name, err)
}

// serviceOp is what a command does to the one service its argument names.
type serviceOp struct {
	what    string       // the command, in a refusal: "services stop"
	arg     string       // the argument, in a refusal: "service", "secondary"
	cf      *changeFlags // the change's flags; nil for a read
	yes     bool         // a destructive change: needs --yes
	confirm bool         // needs --confirm with the service's exact name
}

// openService checks the argument, opens the profile (openRead, or
// openChange: a read-only profile is refused before --yes and --confirm
// are asked) and finds the service by name or ID, with the listing; then
// --confirm is asked, naming the service.
func (e *env) openService(cmd *cobra.Command, op serviceOp, arg string) (*changeSession, *api.Service, []api.Service, error) {
	if err := checkServiceArg(op.arg, arg); err != nil {
		return nil, nil, nil, err
	}
	var c *changeSession
	var err error
	switch {
	case op.cf == nil:
		c, err = e.openRead(cmd)
	case op.yes && !op.confirm:
		c, err = e.openDestructive(cmd, op.cf, op.what)
	default:
		c, err = e.openChange(cmd, op.cf, op.what)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	s, svcs, err := c.serviceByArg(cmd, op.arg, arg)
	switch {
	case err == nil && op.confirm && op.yes:
		err = needYesConfirm(op.cf, op.what, op.what, s)
	case err == nil && op.confirm:
		err = needConfirm(op.cf, op.what, s)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	return c, s, svcs, nil
}

// serviceByArg lists the services and finds one by name or ID.
func (c *changeSession) serviceByArg(cmd *cobra.Command, what, arg string) (*api.Service, []api.Service, error) {
	if err := checkServiceArg(what, arg); err != nil {
		return nil, nil, err
	}
	svcs, err := c.client.ListServices(cmd.Context())
	if err != nil {
		return nil, nil, err
	}
	c.svcs = svcs
	s, err := resolveService(svcs, arg)
	return s, svcs, err
}
