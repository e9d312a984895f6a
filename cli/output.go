package cli

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
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
	return fmt.Errorf("%w: --%s is a flag of the terminal UI (skytui --%s), not of %q", err, name, name, c.CommandPath())
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

// unknown sets the cells of the columns headed cols to "unknown" in
// every row: what an answer that could not be read did not say.
func (t *table) unknown(cols ...string) {
	for i, h := range t.head {
		if slices.Contains(cols, h) {
			for _, r := range t.rows {
				r[i] = "unknown"
			}
		}
	}
}

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

// writeJSON writes v as one indented JSON document, every record with
// all its keys (fullJSON).
func writeJSON(w io.Writer, v any) error {
	raw, err := fullJSON(v)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	if err := json.Indent(&b, raw, "", "  "); err != nil {
		return err
	}
	b.WriteByte('\n')
	_, err = w.Write(b.Bytes())
	return err
}

// fullJSON encodes v as encoding/json does (the same keys, in the same
// order; a type's own MarshalJSON or MarshalText), except that every field
// is there whatever its value: omitempty and omitzero are ignored, so a
// script finds the same keys in every record. What is not known is null (a
// nil pointer, a zero time.Time), a list without entries [] (a nil slice),
// a map without entries {}.
func fullJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	err := encodeFull(&b, reflect.ValueOf(v))
	return b.Bytes(), err
}

var (
	jsonMarshalerType = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	timeType          = reflect.TypeFor[time.Time]()
)

// marshals reports whether v encodes itself (MarshalJSON or MarshalText,
// on the value or, when v is addressable, its pointer).
func marshals(v reflect.Value) bool {
	t := v.Type()
	if t.Implements(jsonMarshalerType) || t.Implements(textMarshalerType) {
		return true
	}
	pt := reflect.PointerTo(t)
	return v.CanAddr() && (pt.Implements(jsonMarshalerType) || pt.Implements(textMarshalerType))
}

func encodeFull(b *bytes.Buffer, v reflect.Value) error {
	if !v.IsValid() {
		b.WriteString("null")
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			b.WriteString("null")
			return nil
		}
		return encodeFull(b, v.Elem()) // a pointer's value is addressable: its pointer methods count
	}
	switch {
	case v.Type() == timeType && v.CanInterface() && v.Interface().(time.Time).IsZero():
		b.WriteString("null")
		return nil
	case v.CanInterface() && marshals(v):
		if v.CanAddr() {
			v = v.Addr()
		}
		return encodeScalar(b, v.Interface())
	}
	switch v.Kind() {
	case reflect.Struct:
		return encodeStruct(b, v)
	case reflect.Map:
		return encodeMap(b, v)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			break // bytes: base64, as encoding/json writes them
		}
		if v.IsNil() {
			b.WriteString("[]")
			return nil
		}
		fallthrough
	case reflect.Array:
		b.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := encodeFull(b, v.Index(i)); err != nil {
				return err
			}
		}
		b.WriteByte(']')
		return nil
	}
	if !v.CanInterface() {
		return fmt.Errorf("json: cannot encode an unexported %s", v.Type())
	}
	return encodeScalar(b, v.Interface())
}

// encodeScalar writes v as encoding/json does, but for <, > and &, which
// stay as they are: a script (jq) and a reader see "a -> b", not
// "a -\u003e b".
func encodeScalar(b *bytes.Buffer, v any) error {
	var one bytes.Buffer
	enc := json.NewEncoder(&one)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Write(bytes.TrimSuffix(one.Bytes(), []byte("\n")))
	return nil
}

func encodeStruct(b *bytes.Buffer, v reflect.Value) error {
	b.WriteByte('{')
	for i, f := range fullFields(v.Type()) {
		if i > 0 {
			b.WriteByte(',')
		}
		_ = encodeScalar(b, f.name)
		b.WriteByte(':')
		fv, err := v.FieldByIndexErr(f.index)
		if err != nil { // through a nil embedded pointer: not known
			fv = reflect.Value{}
		}
		if f.quoted && fv.IsValid() {
			var inner bytes.Buffer
			if err := encodeFull(&inner, fv); err != nil {
				return err
			}
			_ = encodeScalar(b, inner.String())
			continue
		}
		if err := encodeFull(b, fv); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

func encodeMap(b *bytes.Buffer, v reflect.Value) error {
	if v.IsNil() || v.Len() == 0 {
		b.WriteString("{}")
		return nil
	}
	// the keys as encoding/json writes them, sorted as it sorts them
	keys := make([]string, 0, v.Len())
	vals := make(map[string]reflect.Value, v.Len())
	for it := v.MapRange(); it.Next(); {
		k, err := mapKey(it.Key())
		if err != nil {
			return err
		}
		keys = append(keys, k)
		vals[k] = it.Value()
	}
	slices.Sort(keys)
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		_ = encodeScalar(b, k)
		b.WriteByte(':')
		if err := encodeFull(b, vals[k]); err != nil {
			return err
		}
	}
	b.WriteByte('}')
	return nil
}

// mapKey is a map key as encoding/json writes it.
func mapKey(k reflect.Value) (string, error) {
	switch {
	case k.Kind() == reflect.String:
		return k.String(), nil
	case k.Type().Implements(textMarshalerType):
		b, err := k.Interface().(encoding.TextMarshaler).MarshalText()
		return string(b), err
	}
	switch k.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(k.Uint(), 10), nil
	}
	return "", fmt.Errorf("json: unsupported map key type %s", k.Type())
}

// fullField is a struct field as encoding/json names it: its key, its
// index path (through embedded structs) and the ",string" option.
type fullField struct {
	name   string
	index  []int
	tagged bool
	quoted bool
}

// fullFields are t's fields as encoding/json encodes them: exported, named
// by their tag, "-" left out, the fields of an embedded struct without a
// name promoted, and of two fields with one name the shallower one (at the
// same depth the tagged one, else neither).
func fullFields(t reflect.Type) []fullField {
	var all []fullField
	var walk func(t reflect.Type, index []int)
	walk = func(t reflect.Type, index []int) {
		for i := range t.NumField() {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			at := append(slices.Clone(index), i)
			if sf.Anonymous {
				ft := sf.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name == "" && ft.Kind() == reflect.Struct {
					walk(ft, at)
					continue
				}
			}
			if !sf.IsExported() {
				continue
			}
			f := fullField{name: name, index: at, tagged: name != ""}
			if name == "" {
				f.name = sf.Name
			}
			if slices.Contains(strings.Split(opts, ","), "string") {
				switch sf.Type.Kind() {
				case reflect.Bool, reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
					reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
					f.quoted = true
				}
			}
			all = append(all, f)
		}
	}
	walk(t, nil)
	out := all[:0:0]
	for _, f := range all {
		dominant := true
		for _, g := range all {
			if g.name != f.name || slices.Equal(g.index, f.index) {
				continue
			}
			switch {
			case len(g.index) < len(f.index),
				len(g.index) == len(f.index) && (g.tagged || !f.tagged):
				dominant = false
			}
		}
		if dominant {
			out = append(out, f)
		}
	}
	return out
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
