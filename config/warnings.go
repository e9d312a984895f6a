package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// LoadError is a config file that could not be used, with the warnings
// found before it failed: `[[profiles]]` for `[[profile]]` is reported as an
// unknown table and then as a default_profile that does not exist, and the
// warning is the explanation. Error is Err's text; callers show Warnings
// first (see Warnings).
type LoadError struct {
	Err      error
	Warnings []string
}

func (e *LoadError) Error() string { return e.Err.Error() }
func (e *LoadError) Unwrap() error { return e.Err }

// Warnings returns the warnings carried by an error of LoadFile (nil for
// any other error).
func Warnings(err error) []string {
	var le *LoadError
	if errors.As(err, &le) {
		return le.Warnings
	}
	return nil
}

// The names the file format knows, from the struct tags.
var (
	topKeys     = tomlKeys(reflect.TypeOf(fileConfig{}))
	profileKeys = tomlKeys(reflect.TypeOf(fileProfile{}))
)

const profileTable = "profile"

func tomlKeys(t reflect.Type) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("toml"), ",")
		if name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	return keys
}

// displayPath shortens a path in the home directory to ~/….
func displayPath(path string) string {
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return path
	}
	if rel, err := filepath.Rel(home, path); err == nil && filepath.IsAbs(path) && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.Join("~", rel)
	}
	return path
}

// locator names places in one file: "FILE:LINE" and which [[profile]] a
// line belongs to.
type locator struct {
	file     string
	profiles []Profile // as decoded, in file order
	headers  []int     // line of each [[profile]] header, in file order
	lines    [][]byte
}

func newLocator(path string, data []byte, fc fileConfig) *locator {
	l := &locator{file: displayPath(path), lines: bytes.Split(data, []byte("\n"))}
	for _, fp := range fc.Profiles {
		l.profiles = append(l.profiles, Profile{Name: strings.TrimSpace(fp.Name)})
	}
	walk(data, func(kind unstable.Kind, key []string, line int) {
		if kind == unstable.ArrayTable && len(key) == 1 && key[0] == profileTable {
			l.headers = append(l.headers, line)
		}
	})
	return l
}

func (l *locator) at(line int) string { return fmt.Sprintf("%s:%d", l.file, line) }

// inProfile describes the [[profile]] entry holding line: `[[profile]] "lab"`.
func (l *locator) inProfile(line int) string {
	i := -1
	for j, h := range l.headers {
		if h <= line {
			i = j
		}
	}
	if i < 0 || i >= len(l.profiles) {
		return "[[profile]]"
	}
	if n := l.profiles[i].Name; n != "" {
		return fmt.Sprintf("[[profile]] %q", n)
	}
	return fmt.Sprintf("[[profile]] #%d", i+1)
}

// isHeader reports whether line (1-based) is a [table] header.
func (l *locator) isHeader(line int) bool {
	return line >= 1 && line <= len(l.lines) && bytes.HasPrefix(bytes.TrimSpace(l.lines[line-1]), []byte("["))
}

// describe names key for a message: `key "base_ur" in [[profile]] "lab"`,
// with the known names it could have meant.
func (l *locator) describe(key []string, line int) (what string, known []string) {
	noun := "key"
	if l.isHeader(line) {
		noun = "table"
	}
	if len(key) > 1 && key[0] == profileTable {
		return fmt.Sprintf("%s %q in %s", noun, strings.Join(key[1:], "."), l.inProfile(line)), profileKeys
	}
	return fmt.Sprintf("%s %q", noun, strings.Join(key, ".")), topKeys
}

// unknownKeys decodes data strictly and turns each unknown key or table
// into a warning. What is below an unknown table (its keys, its subtables,
// the same table again) is not reported again.
func unknownKeys(path string, data []byte, fc fileConfig) []string {
	var probe fileConfig
	err := toml.NewDecoder(bytes.NewReader(data)).DisallowUnknownFields().Decode(&probe)
	var missing *toml.StrictMissingError
	if !errors.As(err, &missing) {
		return nil
	}
	l := newLocator(path, data, fc)
	var out []string
	var tables [][]string // unknown tables reported: what is below them is not
	for _, e := range missing.Errors {
		key := []string(e.Key())
		line, _ := e.Position()
		if len(key) == 0 || within(tables, key) {
			continue
		}
		if l.isHeader(line) {
			tables = append(tables, key)
		}
		what, known := l.describe(key, line)
		msg := fmt.Sprintf("%s: unknown %s", l.at(line), what)
		local := key
		if len(key) > 1 && key[0] == profileTable {
			local = key[1:]
		}
		switch {
		case len(key) > 1 && key[0] == profileTable && len(local) == 1 && contains(topKeys, local[0]):
			msg += fmt.Sprintf(" (%s belongs before the first [[profile]])", local[0])
		case len(key) == 1 && contains(profileKeys, key[0]):
			msg += fmt.Sprintf(" (%s belongs in a [[profile]] table)", key[0])
		default:
			if s := suggest(local[0], known); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
		}
		out = append(out, msg)
	}
	return out
}

// within reports whether key is one of seen or below one of them.
func within(seen [][]string, key []string) bool {
	for _, s := range seen {
		if len(s) <= len(key) && reflect.DeepEqual(s, key[:len(s)]) {
			return true
		}
	}
	return false
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// checkSecrets refuses any key or table anywhere in the file (known or not,
// inside an unknown table or an inline table too) whose name looks like a
// secret. The error names the file, the line and the key, never the value.
func checkSecrets(path string, data []byte) error {
	var bad []string
	var badLine int
	walk(data, func(_ unstable.Kind, key []string, line int) {
		if bad != nil {
			return
		}
		for _, part := range key {
			if secretKeyRe.MatchString(part) {
				bad, badLine = key, line
				return
			}
		}
	})
	if bad == nil {
		return nil
	}
	var fc fileConfig
	_ = toml.Unmarshal(data, &fc)
	l := newLocator(path, data, fc)
	what, _ := l.describe(bad, badLine)
	return fmt.Errorf("%s: %s looks like a secret; secrets do not belong in the config file (use `skytui auth login`)", l.at(badLine), what)
}

// walk calls fn for every table header and every key (with its table's
// prefix, inline tables included) of a document that parses.
func walk(data []byte, fn func(kind unstable.Kind, key []string, line int)) {
	var p unstable.Parser
	p.Reset(data)
	var table []string
	var visit func(prefix []string, n *unstable.Node)
	visit = func(prefix []string, n *unstable.Node) {
		switch n.Kind {
		case unstable.KeyValue:
			key, line := keyOf(&p, n)
			full := append(append([]string(nil), prefix...), key...)
			fn(n.Kind, full, line)
			visit(full, n.Value())
		case unstable.InlineTable, unstable.Array:
			it := n.Children()
			for it.Next() {
				visit(prefix, it.Node())
			}
		}
	}
	for p.NextExpression() {
		n := p.Expression()
		switch n.Kind {
		case unstable.Table, unstable.ArrayTable:
			key, line := keyOf(&p, n)
			table = key
			fn(n.Kind, key, line)
		case unstable.KeyValue:
			visit(table, n)
		}
	}
}

func keyOf(p *unstable.Parser, n *unstable.Node) ([]string, int) {
	var key []string
	line := 0
	it := n.Key()
	for it.Next() {
		k := it.Node()
		if line == 0 {
			line = p.Shape(k.Raw).Start.Line
		}
		key = append(key, string(k.Data))
	}
	return key, line
}

// suggest returns the known name closest to s when it is close enough: at
// most two edits apart, or one a prefix of the other (ignoring case, _ and
// -), else "".
func suggest(s string, known []string) string {
	norm := func(x string) string {
		return strings.NewReplacer("_", "", "-", "").Replace(strings.ToLower(x))
	}
	ns := norm(s)
	best, bestD := "", 3
	for _, k := range known {
		nk := norm(k)
		d := editDistance(ns, nk)
		// one a prefix of the other ("refresh"), or both sharing a long
		// beginning, most of the shorter ("refresh_secs")
		if d > 2 && len(ns) >= 4 && (strings.HasPrefix(nk, ns) || strings.HasPrefix(ns, nk) ||
			commonPrefix(ns, nk) >= max(6, 3*min(len(ns), len(nk))/4)) {
			d = 2
		}
		if d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

// commonPrefix is the length of the longest common beginning of a and b.
func commonPrefix(a, b string) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

// editDistance is the Levenshtein distance of two short strings.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
