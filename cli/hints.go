package cli

import (
	"context"
	"io"
	"regexp"
	"strings"

	"github.com/spf13/cobra"

	"github.com/skytui/skytui/kit"
)

// A command that skytui's words suggest (`skytui …` in backquotes: "check
// with `skytui services get orders`", "stop it first (`skytui replication
// stop replica-west --yes`)") runs where this run ran: the --profile and
// --api-url given on the command line are added to it. Without them a
// hint copied from a run against one account would read, or change, a
// service of the same name in the default profile's.

var hintRE = regexp.MustCompile("`skytui [^`]*`")

// selectionOf is the flags a suggested command takes to run where this
// run ran: the profile and API URL named on the command line ("": not
// named).
func selectionOf(profile, apiURL string) string {
	sel := ""
	if profile != "" {
		sel += " --profile " + kit.ShellQuote(profile)
	}
	if apiURL != "" {
		sel += " --api-url " + kit.ShellQuote(apiURL)
	}
	return sel
}

// noteSelection keeps the profile and API URL named on the command line
// for the hints said after.
func (e *env) noteSelection(profile, apiURL string) { e.selection = selectionOf(profile, apiURL) }

// suggest is a command (the "check" of a JSON answer) as it runs where
// this command ran.
func (f *outputFlags) suggest(cmd string) string {
	return hintFor(cmd, selectionOf(f.profile, f.apiURL))
}

// hintFor is cmd with sel added, flag by flag: the --profile unless cmd
// names one of its own, the --api-url likewise (a suggested `skytui auth
// login --profile lab` keeps the run's URL, so the key typed there is
// checked and stored for the endpoint it was meant for); nothing for the
// demo or the sandbox.
func hintFor(cmd, sel string) string {
	if sel == "" || strings.Contains(cmd, "--demo") || strings.HasPrefix(cmd, "skytui sandbox") {
		return cmd
	}
	profile, url := sel, ""
	if i := strings.Index(sel, " --api-url "); i >= 0 {
		profile, url = sel[:i], sel[i:]
	}
	if profile != "" && !strings.Contains(cmd, "--profile") {
		cmd += profile
	}
	if url != "" && !strings.Contains(cmd, "--api-url") {
		cmd += url
	}
	return cmd
}

// hinted is s with the selection added to each command it suggests that
// names no profile or URL of its own.
func (e *env) hinted(s string) string {
	if e.selection == "" || !strings.Contains(s, "`skytui ") {
		return s
	}
	return hintRE.ReplaceAllStringFunc(s, func(m string) string {
		body := m[1 : len(m)-1]
		if !e.takesSelection(body) {
			return m
		}
		return "`" + hintFor(body, e.selection) + "`"
	})
}

// takesSelection reports that the command body suggests (its words after
// skytui) takes both --profile and --api-url: creds, whose secrets no
// profile holds, takes neither, and is suggested as it is.
func (e *env) takesSelection(body string) bool {
	if e.root == nil {
		return true
	}
	args := strings.Fields(body)[1:]
	c, _, err := e.root.Find(args)
	return err == nil && c.Flag("profile") != nil && c.Flag("api-url") != nil
}

// hintWriter is the standard error every note and prompt is written to:
// each write's suggested commands carry the selection.
type hintWriter struct {
	w io.Writer
	e *env
}

func (h hintWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(h.w, h.e.hinted(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// hintedError is an error whose suggested commands carry the selection;
// what it wraps still decides the exit code.
type hintedError struct {
	err error
	msg string
}

func (h *hintedError) Error() string { return h.msg }
func (h *hintedError) Unwrap() error { return h.err }

// execute runs the command tree; its error's suggested commands carry the
// selection.
func (e *env) execute(ctx context.Context, root *cobra.Command) error {
	ran, err := root.ExecuteContextC(ctx)
	if err == nil {
		return nil
	}
	if e.selection == "" && ran != nil {
		// refused before a session was opened (a usage error): the flags
		// as given
		given := func(name string) string {
			if f := ran.Flag(name); f != nil && f.Changed {
				return f.Value.String()
			}
			return ""
		}
		e.noteSelection(given("profile"), given("api-url"))
	}
	if msg := e.hinted(err.Error()); msg != err.Error() {
		return &hintedError{err: err, msg: msg}
	}
	return err
}
