package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// Saving a file that exists changes only what changed: a value is replaced
// where it stands, a missing key is added after its profile's last key, a
// new profile is appended at the end. Comments, blank lines, unknown keys
// and tables, quoting and order stay as they were. When an edit cannot be
// made safely (profiles written as inline tables, a profile to remove that
// holds comments, a file that no longer loads), the file is left alone and
// SaveFile returns a *ManualEditError with the lines to add or change.

// ManualEditError is a change SaveFile did not make to an existing config
// file because it could not make it without touching what the user wrote.
// The file is unchanged; Lines are what to add or change, as TOML (the
// comment lines say where).
type ManualEditError struct {
	Path   string
	Reason string
	Lines  []string
}

func (e *ManualEditError) Error() string {
	return fmt.Sprintf("config %s: left unchanged (%s); make the change yourself: %s", e.Path, e.Reason, strings.Join(e.Lines, " | "))
}

// state is what a file says, normalized: what Save compares.
type state struct {
	def      string
	profiles []Profile
}

func (s *state) find(name string) (Profile, int) {
	for i, p := range s.profiles {
		if p.Name == name {
			return p, i
		}
	}
	return Profile{}, -1
}

func (s *state) clone() *state {
	return &state{def: s.def, profiles: slices.Clone(s.profiles)}
}

func (s *state) equal(o *state) bool {
	return s.def == o.def && slices.Equal(s.profiles, o.profiles)
}

// field is one key of a [[profile]]: its TOML value and how to copy it.
type field struct {
	key  string
	lit  func(Profile) string
	copy func(dst *Profile, src Profile)
}

var fields = []field{
	{"name", func(p Profile) string { return quote(p.Name) }, func(d *Profile, s Profile) { d.Name = s.Name }},
	{"base_url", func(p Profile) string { return quote(p.BaseURL) }, func(d *Profile, s Profile) { d.BaseURL = s.BaseURL }},
	{"provisioning_prefix", func(p Profile) string { return quote(p.ProvisioningPrefix) }, func(d *Profile, s Profile) { d.ProvisioningPrefix = s.ProvisioningPrefix }},
	{"backup_prefix", func(p Profile) string { return quote(p.BackupPrefix) }, func(d *Profile, s Profile) { d.BackupPrefix = s.BackupPrefix }},
	{"org", func(p Profile) string { return quote(p.Org) }, func(d *Profile, s Profile) { d.Org = s.Org }},
	{"refresh_seconds", func(p Profile) string { return strconv.Itoa(p.RefreshSeconds) }, func(d *Profile, s Profile) { d.RefreshSeconds = s.RefreshSeconds }},
	{"fast_refresh_seconds", func(p Profile) string { return strconv.Itoa(p.FastRefreshSeconds) }, func(d *Profile, s Profile) { d.FastRefreshSeconds = s.FastRefreshSeconds }},
	{"read_only", func(p Profile) string { return strconv.FormatBool(p.ReadOnly) }, func(d *Profile, s Profile) { d.ReadOnly = s.ReadOnly }},
	{"bell", func(p Profile) string { return strconv.FormatBool(p.Bell) }, func(d *Profile, s Profile) { d.Bell = s.Bell }},
}

func fieldByKey(key string) field {
	for _, f := range fields {
		if f.key == key {
			return f
		}
	}
	panic("config: no field " + key)
}

// quote is s as a TOML basic string.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// blockLines is a new [[profile]] entry: name, base_url and what differs
// from the defaults.
func blockLines(p Profile) []string {
	lines := []string{"[[profile]]"}
	d := NewProfile(p.Name, p.BaseURL)
	for i, f := range fields {
		if i < 2 || f.lit(p) != f.lit(d) {
			lines = append(lines, f.key+" = "+f.lit(p))
		}
	}
	return lines
}

// ---- the changes ----

type opKind int

const (
	opUpsert  opKind = iota // add p, or set keys (all when nil) of p
	opRemove                // remove the profile name
	opDefault               // set default_profile to name
)

type op struct {
	kind opKind
	p    Profile
	keys []string
	name string
}

// diff lists the changes from base to want, field by field.
func diff(base, want *state) []op {
	var ops []op
	for _, p := range want.profiles {
		bp, i := base.find(p.Name)
		if i < 0 {
			ops = append(ops, op{kind: opUpsert, p: p})
			continue
		}
		var keys []string
		for _, f := range fields {
			if f.lit(bp) != f.lit(p) {
				keys = append(keys, f.key)
			}
		}
		if len(keys) > 0 {
			ops = append(ops, op{kind: opUpsert, p: p, keys: keys})
		}
	}
	for _, p := range base.profiles {
		if _, i := want.find(p.Name); i < 0 {
			ops = append(ops, op{kind: opRemove, name: p.Name})
		}
	}
	if base.def != want.def {
		ops = append(ops, op{kind: opDefault, name: want.def})
	}
	return ops
}

// manualLines says in TOML what ops do to a file in state disk (nil when
// the file does not load).
func manualLines(ops []op, disk *state) []string {
	var lines []string
	for _, o := range ops {
		switch o.kind {
		case opUpsert:
			j := -1
			if disk != nil {
				_, j = disk.find(o.p.Name)
			}
			if j < 0 {
				lines = append(lines, "# add at the end:")
				lines = append(lines, blockLines(o.p)...)
				continue
			}
			lines = append(lines, fmt.Sprintf("# in the [[profile]] with name = %s, set:", quote(o.p.Name)))
			for _, f := range fields {
				if f.lit(disk.profiles[j]) != f.lit(o.p) {
					lines = append(lines, f.key+" = "+f.lit(o.p))
				}
			}
		case opRemove:
			lines = append(lines, fmt.Sprintf("# delete the [[profile]] with name = %s and its keys", quote(o.name)))
		case opDefault:
			lines = append(lines, "# before the first [[profile]]:", "default_profile = "+quote(o.name))
		}
	}
	return lines
}

// ---- the document ----

// tkv is one `key = value` of the file, by byte offsets.
type tkv struct {
	key          []string
	start, end   int // the whole expression
	vstart, vend int // the value
	str          string
	isStr        bool
}

// tsection is a [table] or [[table]] header and the keys below it.
type tsection struct {
	key   []string
	array bool
	start int // first byte of the header's line
	kvs   []tkv
}

type document struct {
	data     []byte
	top      []tkv
	sections []tsection
	profiles []int // the section of each decoded profile, in order
}

func parseDocument(data []byte, profiles []Profile) (*document, error) {
	d := &document{data: data}
	var p unstable.Parser
	p.Reset(data)
	for p.NextExpression() {
		n := p.Expression()
		switch n.Kind {
		case unstable.Table, unstable.ArrayTable:
			var key []string
			off := -1
			it := n.Key()
			for it.Next() {
				k := it.Node()
				if off < 0 {
					off = int(k.Raw.Offset)
				}
				key = append(key, string(k.Data))
			}
			d.sections = append(d.sections, tsection{key: key, array: n.Kind == unstable.ArrayTable, start: lineStart(data, off)})
		case unstable.KeyValue:
			var key []string
			it := n.Key()
			for it.Next() {
				key = append(key, string(it.Node().Data))
			}
			v := n.Value()
			kv := tkv{
				key:   key,
				start: int(n.Raw.Offset), end: int(n.Raw.Offset + n.Raw.Length),
				vstart: int(v.Raw.Offset), vend: int(v.Raw.Offset + v.Raw.Length),
			}
			if v.Kind == unstable.String {
				kv.str, kv.isStr = string(v.Data), true
			}
			if len(d.sections) == 0 {
				d.top = append(d.top, kv)
			} else {
				s := &d.sections[len(d.sections)-1]
				s.kvs = append(s.kvs, kv)
			}
		}
	}
	if err := p.Error(); err != nil {
		return nil, err
	}
	for i, s := range d.sections {
		if s.array && len(s.key) == 1 && s.key[0] == profileTable {
			d.profiles = append(d.profiles, i)
		}
	}
	if len(d.profiles) != len(profiles) {
		return nil, errors.New("its profiles are not all [[profile]] tables")
	}
	for j, i := range d.profiles {
		kv := d.sections[i].kv("name")
		if kv == nil || !kv.isStr || strings.TrimSpace(kv.str) != profiles[j].Name {
			return nil, fmt.Errorf("cannot find the [[profile]] table of %q", profiles[j].Name)
		}
	}
	return d, nil
}

func (s *tsection) kv(key string) *tkv {
	for i := range s.kvs {
		if len(s.kvs[i].key) == 1 && s.kvs[i].key[0] == key {
			return &s.kvs[i]
		}
	}
	return nil
}

func lineStart(data []byte, off int) int {
	return bytes.LastIndexByte(data[:off], '\n') + 1
}

// lineEnd is the offset just after the newline ending the line holding off.
func lineEnd(data []byte, off int) int {
	if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(data)
}

func (d *document) sectionEnd(i int) int {
	if i+1 < len(d.sections) {
		return d.sections[i+1].start
	}
	return len(d.data)
}

// indent is the leading blanks of the line holding off.
func (d *document) indent(off int) string {
	ls := lineStart(d.data, off)
	i := ls
	for i < len(d.data) && (d.data[i] == ' ' || d.data[i] == '\t') {
		i++
	}
	return string(d.data[ls:i])
}

// textEdit replaces data[start:end] with text.
type textEdit struct {
	start, end int
	text       string
}

// setKey sets key in the keys kvs (those of one table) to lit: in place
// when it is there, else on a new line after the last key (or at at).
func (d *document) setKey(kvs []tkv, at int, key, lit string) textEdit {
	for _, kv := range kvs {
		if len(kv.key) == 1 && kv.key[0] == key {
			return textEdit{kv.vstart, kv.vend, lit}
		}
	}
	ind := ""
	if len(kvs) > 0 {
		last := kvs[len(kvs)-1]
		at = lineEnd(d.data, last.end)
		ind = d.indent(last.start)
	}
	return textEdit{at, at, ind + key + " = " + lit + "\n"}
}

// removable reports whether section i is a [[profile]] made only of its
// known keys and blank lines (no comment, nothing unknown, no sub-table
// after it), which can go without losing anything the user wrote.
func (d *document) removable(i int) bool {
	if i+1 < len(d.sections) && len(d.sections[i+1].key) > 1 && d.sections[i+1].key[0] == profileTable {
		return false
	}
	s := d.sections[i]
	head := d.data[s.start:lineEnd(d.data, s.start)]
	if bytes.IndexByte(head, '#') >= 0 {
		return false
	}
	end := d.sectionEnd(i)
	for off := lineEnd(d.data, s.start); off < end; {
		le := lineEnd(d.data, off)
		line := bytes.TrimSpace(d.data[off:le])
		if len(line) > 0 {
			ok := false
			for _, kv := range s.kvs {
				if lineStart(d.data, kv.start) == off && len(kv.key) == 1 && contains(profileKeys, kv.key[0]) &&
					lineEnd(d.data, kv.end) == le && len(bytes.TrimSpace(d.data[kv.end:le])) == 0 {
					ok = true
				}
			}
			if !ok {
				return false
			}
		}
		off = le
	}
	return true
}

// topInsert is where a new top-level key goes: after the last one, else
// above the first table (and the comment lines right above it).
func (d *document) topInsert() (at int, text string) {
	if len(d.top) > 0 {
		return lineEnd(d.data, d.top[len(d.top)-1].end), ""
	}
	if len(d.sections) == 0 {
		return len(d.data), ""
	}
	at = d.sections[0].start
	for at > 0 {
		ps := lineStart(d.data, at-1)
		if !bytes.HasPrefix(bytes.TrimSpace(d.data[ps:at]), []byte("#")) {
			break
		}
		at = ps
	}
	return at, "\n"
}

// edit returns old with ops applied (old is what the file holds now, disk
// its state), and the state the result must read back as.
func (d *document) edit(ops []op, disk *state) ([]byte, *state, error) {
	expect := disk.clone()
	var edits []textEdit
	var appended []string
	for _, o := range ops {
		switch o.kind {
		case opUpsert:
			dp, j := disk.find(o.p.Name)
			if j < 0 {
				appended = append(appended, strings.Join(blockLines(o.p), "\n")+"\n")
				expect.profiles = append(expect.profiles, o.p)
				continue
			}
			keys := o.keys
			if keys == nil {
				for _, f := range fields {
					keys = append(keys, f.key)
				}
			}
			s := d.sections[d.profiles[j]]
			_, k := expect.find(o.p.Name)
			for _, key := range keys {
				f := fieldByKey(key)
				if f.lit(dp) == f.lit(o.p) {
					continue
				}
				edits = append(edits, d.setKey(s.kvs, lineEnd(d.data, s.start), key, f.lit(o.p)))
				f.copy(&expect.profiles[k], o.p)
			}
		case opRemove:
			_, j := disk.find(o.name)
			if j < 0 {
				continue
			}
			i := d.profiles[j]
			if !d.removable(i) {
				return nil, nil, fmt.Errorf("the [[profile]] %q to remove holds comments, unknown keys or a sub-table", o.name)
			}
			edits = append(edits, textEdit{d.sections[i].start, d.sectionEnd(i), ""})
			_, k := expect.find(o.name)
			expect.profiles = slices.Delete(expect.profiles, k, k+1)
		case opDefault:
			if expect.def == o.name {
				continue
			}
			lit := quote(o.name)
			found := false
			for _, kv := range d.top {
				if len(kv.key) == 1 && kv.key[0] == "default_profile" {
					edits = append(edits, textEdit{kv.vstart, kv.vend, lit})
					found = true
				}
			}
			if !found {
				at, after := d.topInsert()
				edits = append(edits, textEdit{at, at, "default_profile = " + lit + "\n" + after})
			}
			expect.def = o.name
		}
	}
	sort.SliceStable(edits, func(a, b int) bool {
		if edits[a].start != edits[b].start {
			return edits[a].start < edits[b].start
		}
		return edits[a].end < edits[b].end
	})
	// new lines end as the file's do
	nl := strings.NewReplacer()
	if bytes.Contains(d.data, []byte("\r\n")) {
		nl = strings.NewReplacer("\n", "\r\n")
	}
	var out bytes.Buffer
	last := 0
	for _, e := range edits {
		if e.start < last {
			return nil, nil, errors.New("two changes overlap")
		}
		out.Write(d.data[last:e.start])
		out.WriteString(nl.Replace(e.text))
		last = e.end
	}
	out.Write(d.data[last:])
	if len(appended) > 0 {
		b := out.Bytes()
		if len(b) > 0 && !bytes.HasSuffix(b, []byte("\n\n")) && !bytes.HasSuffix(b, []byte("\r\n\r\n")) {
			out.WriteString(nl.Replace("\n"))
		}
		out.WriteString(nl.Replace(strings.Join(appended, "\n")))
	}
	return out.Bytes(), expect, nil
}

// editFile returns old (the file's bytes now) changed from base to want,
// changing nothing else. base nil means the file's own state. The error is
// a *ManualEditError when it cannot be done safely.
func editFile(path string, old []byte, base, want *state) ([]byte, error) {
	var disk *state
	dc, err := decode(path, old)
	if err == nil {
		disk = &state{def: dc.DefaultProfile, profiles: dc.Profiles}
	}
	if base == nil {
		base = disk
		if base == nil {
			base = &state{}
		}
	}
	ops := diff(base, want)
	if len(ops) == 0 {
		return old, nil
	}
	manual := func(reason string) error {
		return &ManualEditError{Path: path, Reason: reason, Lines: manualLines(ops, disk)}
	}
	if err != nil {
		return nil, manual("it does not load: " + err.Error())
	}
	data := old
	if len(data) > 0 && data[len(data)-1] != '\n' {
		nl := "\n"
		if bytes.Contains(data, []byte("\r\n")) {
			nl = "\r\n"
		}
		data = append(slices.Clip(data), nl...)
	}
	d, err := parseDocument(data, disk.profiles)
	if err != nil {
		return nil, manual(err.Error())
	}
	out, expect, err := d.edit(ops, disk)
	if err != nil {
		return nil, manual(err.Error())
	}
	// The result must read back as intended, with what was unknown still
	// there: else the file stays as it is.
	got, err := decode(path, out)
	if err != nil || !(&state{def: got.DefaultProfile, profiles: got.Profiles}).equal(expect) || len(got.Warnings) != len(dc.Warnings) {
		return nil, manual("the edit did not read back as intended")
	}
	return out, nil
}

// ---- writing through a symbolic link ----

// resolveLink is the file a write to path must replace: path itself, or
// the end of its chain of symbolic links (a dangling link too), so that
// the link stays a link.
func resolveLink(path string) (string, error) {
	real, err := filepath.EvalSymlinks(path)
	if err == nil {
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	p := path
	for range 255 {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		t, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(p), t)
		}
		p = t
	}
	return "", fmt.Errorf("%s: too many levels of symbolic links", path)
}

// shellPath is path as a shell word for a command to paste: ~/… in the
// home directory, quoted when it holds anything but plain characters.
func shellPath(path string) string {
	plain := func(s string) bool {
		for _, r := range s {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("/._-+,:@%=", r)) {
				return false
			}
		}
		return s != ""
	}
	q := func(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
	d := displayPath(path)
	if rest, ok := strings.CutPrefix(d, "~/"); ok {
		if plain(rest) {
			return d
		}
		return "~/" + q(rest)
	}
	if plain(d) {
		return d
	}
	return q(d)
}
