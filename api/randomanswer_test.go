package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/skytui/skytui/api"
	"github.com/skytui/skytui/internal/openapispec"
)

// Answers generated at random from the response schemas of the live
// service's description never break the client: every call still succeeds,
// and no string of what it returns holds a control character, an escape
// sequence's introducer or a bidi control (the client cleans text at decode).
//
// Reproduce a run with SKYTUI_SEED=<seed printed by the test>; set
// SKYTUI_RANDOM_N to change the number of answers per call.

// randomSeed is SKYTUI_SEED, or a fresh seed.
func randomSeed(t *testing.T) uint64 {
	t.Helper()
	if s := os.Getenv("SKYTUI_SEED"); s != "" {
		n, err := strconv.ParseUint(s, 0, 64)
		if err != nil {
			t.Fatalf("SKYTUI_SEED=%q: %v", s, err)
		}
		return n
	}
	return rand.Uint64()
}

// ---- the generator ----

// answerGen writes a random JSON value that a schema allows.
type answerGen struct {
	r   *rand.Rand
	buf bytes.Buffer
}

const maxGenDepth = 12

// shape is a schema with its allOf parts merged in.
type shape struct {
	types    []string
	enum     []any
	konst    any
	hasConst bool
	nullable bool
	props    map[string]*openapi3.SchemaRef
	required []string
	items    *openapi3.SchemaRef
	addl     *openapi3.SchemaRef // schema of additional properties
	noAddl   bool                // additionalProperties: false
	alts     openapi3.SchemaRefs // oneOf / anyOf: one of them is taken
	min, max *float64
	minLen   uint64
	maxLen   *uint64
	minItems uint64
	maxItems *uint64
	examples []any
	pattern  bool
}

func flatten(s *openapi3.Schema) shape {
	var sh shape
	var add func(s *openapi3.Schema)
	add = func(s *openapi3.Schema) {
		if s == nil {
			return
		}
		if s.Type != nil && len(sh.types) == 0 {
			sh.types = slices.Clone(*s.Type)
		}
		if len(s.Enum) > 0 && sh.enum == nil {
			sh.enum = s.Enum
		}
		if s.Const != nil && !sh.hasConst {
			sh.konst, sh.hasConst = s.Const, true
		}
		sh.nullable = sh.nullable || s.Nullable
		for k, v := range s.Properties {
			if sh.props == nil {
				sh.props = map[string]*openapi3.SchemaRef{}
			}
			if _, ok := sh.props[k]; !ok {
				sh.props[k] = v
			}
		}
		sh.required = append(sh.required, s.Required...)
		if s.Items != nil && sh.items == nil {
			sh.items = s.Items
		}
		if s.AdditionalProperties.Schema != nil && sh.addl == nil {
			sh.addl = s.AdditionalProperties.Schema
		}
		if s.AdditionalProperties.Has != nil && !*s.AdditionalProperties.Has {
			sh.noAddl = true
		}
		if len(s.OneOf) > 0 && sh.alts == nil {
			sh.alts = s.OneOf
		} else if len(s.AnyOf) > 0 && sh.alts == nil {
			sh.alts = s.AnyOf
		}
		if s.Min != nil && sh.min == nil {
			sh.min = s.Min
		}
		if s.Max != nil && sh.max == nil {
			sh.max = s.Max
		}
		if s.ExclusiveMin.Value != nil && sh.min == nil {
			v := math.Floor(*s.ExclusiveMin.Value) + 1
			sh.min = &v
		}
		if s.ExclusiveMax.Value != nil && sh.max == nil {
			v := math.Ceil(*s.ExclusiveMax.Value) - 1
			sh.max = &v
		}
		sh.minLen = max(sh.minLen, s.MinLength)
		if s.MaxLength != nil && sh.maxLen == nil {
			sh.maxLen = s.MaxLength
		}
		sh.minItems = max(sh.minItems, s.MinItems)
		if s.MaxItems != nil && sh.maxItems == nil {
			sh.maxItems = s.MaxItems
		}
		sh.examples = append(sh.examples, s.Examples...)
		sh.pattern = sh.pattern || s.Pattern != ""
		for _, a := range s.AllOf {
			add(a.Value)
		}
	}
	add(s)
	return sh
}

func (g *answerGen) chance(p float64) bool { return g.r.Float64() < p }

func (g *answerGen) raw(v any) {
	b, _ := json.Marshal(v)
	g.buf.Write(b)
}

// value writes a value of the schema; name is the property it is for.
func (g *answerGen) value(ref *openapi3.SchemaRef, name string, depth int) {
	if ref == nil || ref.Value == nil || depth > maxGenDepth {
		g.anyValue(depth, true)
		return
	}
	sh := flatten(ref.Value)
	if len(sh.alts) > 0 && len(sh.types) == 0 && sh.props == nil {
		g.value(sh.alts[g.r.IntN(len(sh.alts))], name, depth+1)
		return
	}
	if sh.hasConst {
		g.raw(sh.konst)
		return
	}
	types := sh.types
	if sh.nullable && !slices.Contains(types, "null") {
		types = append(slices.Clone(types), "null")
	}
	if len(sh.enum) > 0 {
		// null is allowed when the type says so, even if the enum omits it
		if slices.Contains(types, "null") && g.chance(0.1) {
			g.buf.WriteString("null")
			return
		}
		g.raw(sh.enum[g.r.IntN(len(sh.enum))])
		return
	}
	if sh.pattern && len(sh.examples) > 0 {
		g.raw(sh.examples[g.r.IntN(len(sh.examples))])
		return
	}
	if len(types) == 0 {
		switch {
		case sh.props != nil || sh.addl != nil:
			types = []string{"object"}
		case sh.items != nil:
			types = []string{"array"}
		default:
			// An empty schema allows anything. Not null, though, which
			// JSON Schema 2020-12 allows but kin-openapi's validator
			// (the generator's self-check) refuses as "not nullable".
			g.anyValue(depth, false)
			return
		}
	}
	switch t := types[g.r.IntN(len(types))]; t {
	case "null":
		g.buf.WriteString("null")
	case "boolean":
		g.raw(g.chance(0.5))
	case "integer":
		g.integer(sh, name)
	case "number":
		g.number(sh)
	case "string":
		g.str(g.text(sh.minLen, sh.maxLen))
	case "array":
		g.array(sh, name, depth)
	case "object":
		g.object(sh, depth)
	default:
		g.anyValue(depth, true)
	}
}

func (g *answerGen) integer(sh shape, name string) {
	if name == "pages_count" {
		// Bounded so that a run ends: the client follows pages_count (up
		// to its own bound of 1000 pages), asking again for each page.
		g.raw(g.r.IntN(4))
		return
	}
	var n float64
	switch g.r.IntN(8) {
	case 0:
		n = 0
	case 1:
		n = float64(g.r.IntN(10))
	case 2:
		n = -float64(g.r.IntN(1000))
	case 3:
		n = float64(g.r.Int64N(1 << 53))
	case 4:
		n = float64(g.r.Int32())
	case 5:
		n = []float64{math.MaxInt64, math.MinInt64, 1 << 53, 1e20, -1e20, 1e300, 1785549600, 1785549600000}[g.r.IntN(8)]
	case 6:
		n = float64(g.r.IntN(100000))
	default:
		n = float64(g.r.Int64())
	}
	if sh.min != nil && n < *sh.min {
		n = *sh.min + float64(g.r.IntN(5))
	}
	if sh.max != nil && n > *sh.max {
		n = *sh.max - float64(g.r.IntN(5))
		if sh.min != nil && n < *sh.min {
			n = *sh.min
		}
	}
	// JSON Schema counts 1.0 and 1e3 as integers too.
	switch {
	case math.Abs(n) < 1e15 && g.chance(0.05):
		g.buf.WriteString(strconv.FormatFloat(n, 'f', 1, 64))
	case math.Abs(n) >= 1e15 || g.chance(0.05):
		g.buf.WriteString(strconv.FormatFloat(n, 'e', -1, 64))
	default:
		g.buf.WriteString(strconv.FormatFloat(n, 'f', -1, 64))
	}
}

func (g *answerGen) number(sh shape) {
	n := []float64{0, -0.5, 3.14159, 1e-300, 1e300, -1e300, g.r.NormFloat64() * 1e6, g.r.Float64()}[g.r.IntN(8)]
	if sh.min != nil && n < *sh.min {
		n = *sh.min
	}
	if sh.max != nil && n > *sh.max {
		n = *sh.max
	}
	g.buf.WriteString(strconv.FormatFloat(n, 'g', -1, 64))
}

func (g *answerGen) array(sh shape, name string, depth int) {
	n := int(sh.minItems) + g.r.IntN(4)
	if sh.maxItems != nil && uint64(n) > *sh.maxItems {
		n = int(*sh.maxItems)
	}
	g.buf.WriteByte('[')
	for i := range n {
		if i > 0 {
			g.buf.WriteByte(',')
		}
		g.value(sh.items, name, depth+1)
	}
	g.buf.WriteByte(']')
}

func (g *answerGen) object(sh shape, depth int) {
	keys := make([]string, 0, len(sh.props))
	for k := range sh.props {
		keys = append(keys, k)
	}
	sort.Strings(keys) // the same seed gives the same answer
	g.r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	g.buf.WriteByte('{')
	first := true
	sep := func() {
		if !first {
			g.buf.WriteByte(',')
		}
		first = false
	}
	for _, k := range keys {
		if !slices.Contains(sh.required, k) && g.chance(0.5) {
			continue
		}
		sep()
		g.str([]rune(k))
		g.buf.WriteByte(':')
		g.value(sh.props[k], k, depth+1)
	}
	// Properties the schema does not name are allowed unless it says
	// additionalProperties: false.
	if !sh.noAddl && g.chance(0.2) {
		for range 1 + g.r.IntN(2) {
			k := g.text(0, nil)
			if _, ok := sh.props[string(k)]; ok {
				continue
			}
			sep()
			g.str(k)
			g.buf.WriteByte(':')
			if sh.addl != nil {
				g.value(sh.addl, "", depth+1)
			} else {
				g.anyValue(depth+1, true)
			}
		}
	}
	g.buf.WriteByte('}')
}

// anyValue writes any JSON value.
func (g *answerGen) anyValue(depth int, null bool) {
	n := 6
	if depth > 4 {
		n = 4 // no deeper containers
	}
	switch k := g.r.IntN(n); {
	case k == 0 && null:
		g.buf.WriteString("null")
	case k == 0:
		g.raw(0)
	case k == 1:
		g.raw(g.chance(0.5))
	case k == 2:
		g.integer(shape{}, "")
	case k == 3:
		g.str(g.text(0, nil))
	case k == 4:
		g.array(shape{}, "", depth)
	default:
		g.object(shape{}, depth)
	}
}

// Text that a terminal must never see raw.
var hostile = []string{
	"\x1b]0;pwned\x07", "\x1b[31m", "\x1b[2J\x1b[H", "\x1b[", "\x1b", "\x9b31m", "\x1bP1$r\x1b\\", "\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\",
	"\x1b]52;c;cm0gLXJmIH4=\x07", "\x9d0;title\x9c", "\x1b_apc\x1b\\", "\x1bc", "\r\n", "\t", "\x00", "\x7f", "\u0085", "\u009f",
	"\u202e", "\u202a", "\u2066", "\u2069", "\u200e", "\u200f", "\u061c", "\u2028", "\u2029", "\ufeff", "\ufffd", "\uffff",
	"2026-08-01T02:00:00Z", "1785549600", "1e400", "-0", "null", "true", "", " ", "</script>", "\\", "\"", "%s%n",
}

// runePalette draws one rune of every kind: printable, controls, bidi,
// astral, combining, and lone surrogates (written as \u escapes only).
func (g *answerGen) rune() rune {
	switch g.r.IntN(12) {
	case 0:
		return rune(g.r.IntN(0x20)) // C0
	case 1:
		return rune(0x7f + g.r.IntN(0x21)) // DEL and C1
	case 2:
		return []rune{0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c}[g.r.IntN(12)]
	case 3:
		return rune(0x1f300 + g.r.IntN(0x300)) // astral
	case 4:
		return rune(0x300 + g.r.IntN(0x70)) // combining
	case 5:
		return rune(0xd800 + g.r.IntN(0x800)) // a lone surrogate
	case 6:
		return rune(0xa0 + g.r.IntN(0xd800-0xa0))
	case 7:
		return rune(0xe000 + g.r.IntN(0x2000))
	default:
		return rune(0x20 + g.r.IntN(0x5f))
	}
}

// text returns random text within the length bounds (in runes).
func (g *answerGen) text(minLen uint64, maxLen *uint64) []rune {
	var rs []rune
	switch g.r.IntN(10) {
	case 0:
	case 1, 2:
		n := g.r.IntN(12)
		for range n {
			rs = append(rs, rune(0x20+g.r.IntN(0x5f)))
		}
	case 3, 4, 5:
		n := g.r.IntN(24)
		for range n {
			rs = append(rs, g.rune())
		}
	case 6, 7:
		for range 1 + g.r.IntN(4) {
			if g.chance(0.5) {
				rs = append(rs, []rune(hostile[g.r.IntN(len(hostile))])...)
			} else {
				rs = append(rs, []rune("ok")...)
			}
		}
	case 8:
		rs = []rune(hostile[g.r.IntN(len(hostile))])
	default:
		if g.chance(0.2) {
			// very long, with a sting in it
			n := 1000 + g.r.IntN(60000)
			rs = make([]rune, 0, n+8)
			for range n {
				rs = append(rs, rune('a'+g.r.IntN(26)))
			}
			at := g.r.IntN(len(rs))
			rs = slices.Insert(rs, at, []rune("\x1b]0;x\x07\u202e")...)
		} else {
			rs = []rune("dbtgf" + strconv.Itoa(g.r.IntN(1e8)))
		}
	}
	for uint64(len(rs)) < minLen {
		rs = append(rs, rune('a'+g.r.IntN(26)))
	}
	if maxLen != nil && uint64(len(rs)) > *maxLen {
		rs = rs[:*maxLen]
	}
	return rs
}

// str writes runes as a JSON string, escaping each rune in one of the ways
// JSON allows (lone surrogates always as \u escapes, as they must be).
func (g *answerGen) str(rs []rune) {
	const hex = "0123456789abcdef"
	u := func(r rune) {
		h := hex
		if g.chance(0.3) {
			h = "0123456789ABCDEF"
		}
		g.buf.WriteString(`\u`)
		for s := 12; s >= 0; s -= 4 {
			g.buf.WriteByte(h[(r>>s)&0xf])
		}
	}
	g.buf.WriteByte('"')
	for _, r := range rs {
		switch {
		case r >= 0xd800 && r <= 0xdfff:
			u(r)
		case r == '"' || r == '\\':
			g.buf.WriteByte('\\')
			g.buf.WriteRune(r)
		case r < 0x20:
			short := map[rune]string{'\b': `\b`, '\f': `\f`, '\n': `\n`, '\r': `\r`, '\t': `\t`}[r]
			if short != "" && g.chance(0.5) {
				g.buf.WriteString(short)
			} else {
				u(r)
			}
		case r == '/' && g.chance(0.5):
			g.buf.WriteString(`\/`)
		case r > 0xffff && g.chance(0.3):
			r1, r2 := utf16Pair(r)
			u(r1)
			u(r2)
		case r >= 0x7f && r <= 0xffff && g.chance(0.3):
			u(r)
		default:
			g.buf.WriteRune(r)
		}
	}
	g.buf.WriteByte('"')
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}

// ---- serving the answers ----

// randomServer answers every request with a random 2xx answer of the
// operation's description, from a generator seeded by the run's seed, the
// call, the iteration and the request, so concurrent requests (the restore
// sweep) do not change what is answered.
type randomServer struct {
	t   *testing.T
	doc *openapi3.T
	srv *httptest.Server

	mu       sync.Mutex
	base     uint64
	counts   map[string]uint64
	served   []string // "METHOD URI → status body" of this iteration
	validate bool     // check each answer against its schema (the generator's own check)
	bad      []string
}

func (s *randomServer) reset(base uint64, validate bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.base, s.counts, s.served, s.validate, s.bad = base, map[string]uint64{}, nil, validate, nil
}

func (s *randomServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	route, _ := openapispec.Find(s.doc, r.Method, r.URL.Path)
	if route == nil || route.Operation == nil {
		http.Error(w, "not in the description", http.StatusNotFound)
		return
	}
	key := r.Method + " " + r.URL.RequestURI()
	h := fnv.New64a()
	h.Write([]byte(key))
	s.mu.Lock()
	n := s.counts[key]
	s.counts[key]++
	g := &answerGen{r: rand.New(rand.NewPCG(s.base, h.Sum64()+n))}
	validate := s.validate
	s.mu.Unlock()

	var statuses []int
	for code := range route.Operation.Responses.Map() {
		if c, err := strconv.Atoi(code); err == nil && c >= 200 && c < 300 {
			statuses = append(statuses, c)
		}
	}
	sort.Ints(statuses)
	if len(statuses) == 0 {
		http.Error(w, "no 2xx answer in the description", http.StatusNotImplemented)
		return
	}
	status := statuses[g.r.IntN(len(statuses))]
	resp := route.Operation.Responses.Status(status).Value
	var schema *openapi3.SchemaRef
	if resp != nil {
		if mt := resp.Content.Get("application/json"); mt != nil {
			schema = mt.Schema
		}
	}
	if schema != nil {
		g.value(schema, "", 0)
		w.Header().Set("Content-Type", "application/json")
	}
	body := g.buf.Bytes()
	if schema != nil && validate {
		var v any
		err := json.Unmarshal(body, &v)
		if err == nil {
			err = schema.Value.VisitJSON(v, openapi3.EnableJSONSchema2020(), openapi3.MultiErrors())
		}
		if err != nil {
			s.mu.Lock()
			s.bad = append(s.bad, fmt.Sprintf("%s: generated answer the description does not allow: %v\n%s", key, err, clip(body)))
			s.mu.Unlock()
		}
	}
	s.mu.Lock()
	s.served = append(s.served, fmt.Sprintf("%s → %d %s", key, status, clip(body)))
	s.mu.Unlock()
	w.WriteHeader(status)
	w.Write(body)
}

func clip(b []byte) string {
	const max = 4000
	if len(b) > max {
		return fmt.Sprintf("%s… (%d bytes)", b[:max], len(b))
	}
	return string(b)
}

// ---- checking what the client returns ----

// badRune reports a rune the client must have cleaned away.
func badRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x200e, r == 0x200f, r == 0x061c:
		return true
	}
	return false
}

// dirtyStrings walks v and returns the paths of strings that are not clean.
func dirtyStrings(v reflect.Value, path string, out *[]string) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			dirtyStrings(v.Elem(), path, out)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if f := v.Type().Field(i); f.IsExported() {
				dirtyStrings(v.Field(i), path+"."+f.Name, out)
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			dirtyStrings(v.Index(i), fmt.Sprintf("%s[%d]", path, i), out)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			dirtyStrings(k, path+"{key}", out)
			dirtyStrings(v.MapIndex(k), fmt.Sprintf("%s[%q]", path, k), out)
		}
	case reflect.String:
		s := v.String()
		if !utf8.ValidString(s) {
			*out = append(*out, fmt.Sprintf("%s: invalid UTF-8 %q", path, clip([]byte(s))))
			return
		}
		for _, r := range s {
			if badRune(r) {
				*out = append(*out, fmt.Sprintf("%s: holds %U in %q", path, r, clip([]byte(s))))
				return
			}
		}
	}
}

func TestRandomAnswersFromTheDescription(t *testing.T) {
	doc := openapispec.Load(t)
	seed := randomSeed(t)
	t.Logf("seed %d (reproduce with SKYTUI_SEED=%d)", seed, seed)
	n := 300
	if testing.Short() {
		n = 40
	}
	if s := os.Getenv("SKYTUI_RANDOM_N"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			t.Fatalf("SKYTUI_RANDOM_N=%q: %v", s, err)
		}
	}
	rs := &randomServer{t: t, doc: doc}
	rs.srv = httptest.NewServer(rs)
	t.Cleanup(rs.srv.Close)
	c, err := api.New(api.Config{BaseURL: rs.srv.URL, APIKey: "skysql.test.key", BackupPrefix: api.LiveBackupPrefix,
		MaxRetries: -1, Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	start := time.Now()
	answers := 0
	for ci, cc := range clientCalls(t) {
		label := cc.method
		if cc.name != "" {
			label += " (" + cc.name + ")"
		}
		for i := range n {
			rs.reset(seed^uint64(ci)<<40^uint64(i)<<20, i < 25)
			got, err := cc.call(ctx, c)
			if errors.Is(err, api.ErrAllowListsDiffer) {
				// a refusal, before any change is sent, of a PUT that
				// would change the allow lists of endpoints not asked about
				err = nil
			}
			rs.mu.Lock()
			served, bad := rs.served, rs.bad
			answers += len(served)
			rs.mu.Unlock()
			for _, b := range bad {
				t.Errorf("%s, iteration %d, seed %d: %s", label, i, seed, b)
			}
			var dirty []string
			if got != nil {
				dirtyStrings(reflect.ValueOf(got), "result", &dirty)
			}
			if err != nil || len(dirty) > 0 || len(bad) > 0 {
				t.Errorf("%s failed on iteration %d (SKYTUI_SEED=%d): error %v\nunclean strings: %s\nanswers served:\n  %s",
					label, i, seed, err, strings.Join(dirty, "\n  "), strings.Join(served, "\n  "))
				break // one report per call
			}
		}
	}
	t.Logf("%d calls × %d iterations, %d random answers in %v", len(clientCalls(t)), n, answers, time.Since(start).Round(time.Millisecond))
}

// The checks of this test find what they look for.
func TestRandomAnswerChecks(t *testing.T) {
	var dirty []string
	dirtyStrings(reflect.ValueOf(&api.Restore{Status: "ok\x1b]0;x\x07", Bucket: "clean"}), "r", &dirty)
	dirtyStrings(reflect.ValueOf([]api.Service{{Errors: []string{"fine", "a\u202eb"}}}), "s", &dirty)
	dirtyStrings(reflect.ValueOf(map[string]any{"k": "\u0085"}), "m", &dirty)
	if len(dirty) != 3 {
		t.Errorf("dirty strings found: %q, want 3", dirty)
	}
	// The generated answers carry text that would reach the screen raw
	// without the client's cleaning: decoded plainly, the fields the client
	// reads hold control characters.
	doc := openapispec.Load(t)
	route, _ := openapispec.Find(doc, "GET", "/skybackup/v1/restores/7")
	schema := route.Operation.Responses.Status(200).Value.Content.Get("application/json").Schema
	gen := &answerGen{r: rand.New(rand.NewPCG(3, 4))}
	hits := 0
	for range 300 {
		gen.buf.Reset()
		gen.value(schema, "", 0)
		var plain struct{ Status, Message, ServiceID, Bucket, Type string }
		_ = json.Unmarshal(gen.buf.Bytes(), &plain)
		var d []string
		dirtyStrings(reflect.ValueOf(plain), "plain", &d)
		if len(d) > 0 {
			hits++
		}
	}
	if hits < 30 {
		t.Errorf("only %d of 300 generated restores hold text to clean", hits)
	}
	// The generator's self-check refuses an answer of the wrong type.
	if err := schema.Value.VisitJSON(map[string]any{"id": "seven"}, openapi3.EnableJSONSchema2020()); err == nil {
		t.Errorf("self-check accepts a string id")
	}

	// The generator's strings decode to what it meant, escapes included.
	g := &answerGen{r: rand.New(rand.NewPCG(1, 2))}
	for range 2000 {
		g.buf.Reset()
		rs := g.text(0, nil)
		g.str(rs)
		var s string
		if err := json.Unmarshal(g.buf.Bytes(), &s); err != nil {
			t.Fatalf("generated string %q is not JSON: %v", g.buf.Bytes(), err)
		}
		// as UTF-16, where lone surrogates decode to U+FFFD and a high
		// one followed by a low one to their pair
		var units []uint16
		for _, r := range rs {
			if r > 0xffff {
				r1, r2 := utf16Pair(r)
				units = append(units, uint16(r1), uint16(r2))
			} else {
				units = append(units, uint16(r))
			}
		}
		want := string(utf16.Decode(units))
		if s != want {
			t.Fatalf("generated %q decodes to %q, want %q", g.buf.Bytes(), s, want)
		}
	}
}
