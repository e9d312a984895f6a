package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/skytui/skytui/api"
)

// Exit statuses of the commands for scripts.
const (
	exitOK       = 0
	exitFailed   = 1 // an API error, the network, the keystore
	exitUsage    = 2 // a bad flag, argument or -o value
	exitNotFound = 4 // an unknown service or restore
)

// exitError carries an exit status other than 1 with its error; its text
// is the error's own.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageErr(err error) error { return &exitError{code: exitUsage, err: err} }

func usageErrf(format string, a ...any) error { return usageErr(fmt.Errorf(format, a...)) }

func notFoundErrf(format string, a ...any) error {
	return &exitError{code: exitNotFound, err: fmt.Errorf(format, a...)}
}

// exitCode is the process exit status for err: 0 for nil, the status an
// exitError carries, else 1.
func exitCode(err error) int {
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	return exitFailed
}

// reportError writes err as main does, "skytui: <error>", and returns the
// exit status.
func reportError(w io.Writer, err error) int {
	if err != nil {
		fmt.Fprintln(w, "skytui:", err)
	}
	return exitCode(err)
}

// usageArgs wraps a cobra argument check so its error exits 2.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return usageErr(err)
		}
		return nil
	}
}

// usageTree makes every usage error of the command tree under root exit
// 2: a flag that does not parse (the flag error function every command
// inherits from root), an argument a command does not take, and an
// unknown verb after a noun that only holds verbs (auth, creds, creds add),
// which cobra would answer with the noun's help and exit 0.
func usageTree(root *cobra.Command) {
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usageErr(uiFlagHint(root, c, err)) })
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		switch {
		case !c.Runnable() && c.HasSubCommands():
			c.Args = cobra.ArbitraryArgs
			c.RunE = func(cmd *cobra.Command, args []string) error {
				if len(args) > 0 {
					return usageErrf("unknown command %q for %q", args[0], cmd.CommandPath())
				}
				return cmd.Help()
			}
		case c.Args != nil:
			c.Args = usageArgs(c.Args)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// uiFlagHint adds to the error of a flag c does not know, when it is one of
// the terminal UI's (root's own), whose flag it is; for --demo, how the
// commands reach a sandbox instead.
func uiFlagHint(root, c *cobra.Command, err error) error {
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok || c == root || root.LocalNonPersistentFlags().Lookup(name) == nil {
		return err
	}
	if takenBy(root, name) {
		// the commands' too (--api-url): only this one does not take it
		return fmt.Errorf("%w: `%s` does not take --%s", err, c.CommandPath(), name)
	}
	if name == "demo" {
		return fmt.Errorf("%w: --demo starts the terminal UI on a built-in sandbox (skytui --demo); the commands take --profile or --api-url instead, "+
			"such as a sandbox's: run `skytui sandbox` and pass the URL and key it prints (--api-url URL, the key in SKYSQL_API_KEY)", err)
	}
	return fmt.Errorf("%w: --%s is a flag of the terminal UI (skytui --%s), not of `%s`", err, name, name, c.CommandPath())
}

// takenBy reports whether a command below root has a flag of that name.
func takenBy(root *cobra.Command, name string) bool {
	for _, c := range root.Commands() {
		if c.LocalFlags().Lookup(name) != nil || takenBy(c, name) {
			return true
		}
	}
	return false
}

// Output formats.
const (
	outTable = "table"
	outWide  = "wide"
	outJSON  = "json"
)

// outputFlags are the flags every command for scripts takes: the profile
// and API URL as the TUI takes them, and the output format.
type outputFlags struct {
	profile   string
	apiURL    string
	output    string
	noHeaders bool
}

func (f *outputFlags) register(cmd *cobra.Command) {
	pf := cmd.PersistentFlags()
	pf.StringVar(&f.profile, "profile", "", "profile to use (default: the config file's default, else skysql)")
	pf.StringVar(&f.apiURL, "api-url", "", "API base URL, overriding the profile's (HTTPS unless loopback)")
	pf.StringVarP(&f.output, "output", "o", outTable, "output format: table, wide (more columns) or json (the API's records, one document)")
	pf.BoolVar(&f.noHeaders, "no-headers", false, "leave out the header line of a table (for shell loops)")
}

func (f *outputFlags) validate() error {
	switch f.output {
	case outTable, outWide, outJSON:
		return nil
	}
	return usageErrf("-o %q: must be table, wide or json", f.output)
}

// table is a tabwriter table: columns, then the wide mode's extra columns.
type table struct {
	head, wideHead []string
	rows           [][]string // each row holds the base cells then the wide ones
}

func (t *table) add(cells ...string) { t.rows = append(t.rows, cells) }

// write renders the table to w: aligned, cells cleaned to one line, "-"
// for an empty cell.
func (t *table) write(w io.Writer, wide, noHeaders bool) error {
	n := len(t.head)
	if wide {
		n += len(t.wideHead)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	line := func(cells []string) {
		out := make([]string, n)
		for i := range n {
			c := ""
			if i < len(cells) {
				c = cell(cells[i])
			}
			if c == "" {
				c = "-"
			}
			out[i] = c
		}
		fmt.Fprintln(tw, strings.Join(out, "\t"))
	}
	if !noHeaders {
		line(append(append([]string{}, t.head...), t.wideHead...))
	}
	for _, r := range t.rows {
		line(r)
	}
	return tw.Flush()
}

// cell cleans a value for a table cell: no control sequences, no tabs or
// line breaks, one line.
func cell(s string) string {
	return strings.Join(strings.Fields(api.CleanText(s)), " ")
}

// writeJSON writes v as one indented JSON document.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// emit writes a list (or one record) to stdout in the chosen format. The
// whole output is made first, so a failure leaves stdout empty.
func (f *outputFlags) emit(w io.Writer, records any, t *table) error {
	var buf bytes.Buffer
	var err error
	if f.output == outJSON {
		err = writeJSON(&buf, records)
	} else {
		err = t.write(&buf, f.output == outWide, f.noHeaders)
	}
	if err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// fmtTime is a time in UTC RFC 3339; "?" when the answer held a value that
// is not a time, "" (shown "-") when there is none.
func fmtTime(t time.Time, raw string) string {
	switch {
	case t.IsZero() && raw != "":
		return "?"
	case t.IsZero():
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func apiTime(t api.Time) string      { return fmtTime(t.Time, t.Raw) }
func unixTime(t api.UnixTime) string { return fmtTime(t.Time, t.Raw) }
