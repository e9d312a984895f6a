package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// Decoding is per field. An answer is decoded field by field into the
// client's types: a value of the wrong type, an unparseable timestamp or an
// out-of-range number costs that one field (left at its zero value and named
// in the record's Meta.Unread), never the record, the list or the call.
// Every string is cleaned here (CleanText), once, so nothing downstream —
// screens, clipboard, stderr — ever sees a control sequence from the API.

// Meta is what the client learnt while decoding a record. It is not part of
// the wire format.
type Meta struct {
	// Unread names the fields the answer held that could not be read, with
	// their paths inside the record ("created_on", "endpoints[0].ports").
	Unread []string `json:"-"`
	// Unreadable is set on the record a change returns when the server
	// accepted the change (2xx) but its answer could not be read at all.
	Unreadable string `json:"-"`
}

// Known reports whether a field was read: false when the answer held a
// value for it that could not be decoded. Show such a field as "?".
func (m Meta) Known(field string) bool {
	for _, u := range m.Unread {
		if u == field || strings.HasPrefix(u, field+".") || strings.HasPrefix(u, field+"[") {
			return false
		}
	}
	return true
}

// AnswerUnreadable is non-empty when a change was accepted but its answer
// could not be read; it says why.
func (m Meta) AnswerUnreadable() string { return m.Unreadable }

// AnswerUnreadableError is the interface the action layer and the command
// line use to tell an accepted change with an unreadable answer.
type AnswerUnreadableError interface{ AnswerUnreadable() string }

var (
	metaType        = reflect.TypeFor[Meta]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
)

// unmarshalLenient decodes data into v (a pointer) field by field. It fails
// only when data is not JSON, or its top level is not of v's kind (an object
// for a struct, an array for a slice).
func unmarshalLenient(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return fmt.Errorf("decode into %T: not a pointer", v)
	}
	data = bytes.TrimSpace(data)
	if !json.Valid(data) {
		// encoding/json's message names the offending byte.
		var x any
		if err := json.Unmarshal(data, &x); err != nil {
			return err
		}
		return fmt.Errorf("invalid JSON")
	}
	// Fast path: most answers are well formed, and encoding/json reads them
	// several times faster. It fails as a whole on one odd field, and then
	// the answer is read again field by field.
	if err := json.Unmarshal(data, v); err == nil {
		cleanStrings(rv.Elem())
		return nil
	}
	rv.Elem().SetZero()
	var bad []string
	return decodeValue(data, rv.Elem(), "", &bad, true)
}

// cleanStrings applies CleanText to every settable string inside v.
func cleanStrings(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			if c := CleanText(v.String()); c != v.String() {
				v.SetString(c)
			}
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			e := v.Elem()
			if v.Kind() == reflect.Interface && e.Kind() == reflect.String {
				if v.CanSet() {
					v.Set(reflect.ValueOf(CleanText(e.String())).Convert(e.Type()))
				}
				return
			}
			cleanStrings(e)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				cleanStrings(v.Field(i))
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.Type().Elem().Kind() == reflect.Uint8 {
			return // bytes, not text
		}
		for i := 0; i < v.Len(); i++ {
			cleanStrings(v.Index(i))
		}
	case reflect.Map:
		cleanValue(v)
	}
}

// decodeValue decodes raw into dst. A failure to decode a nested value is
// recorded in bad (by path) and leaves dst zero; the error is returned only
// for the top-level value (strict), so callers can tell "not this shape".
func decodeValue(raw []byte, dst reflect.Value, path string, bad *[]string, strict bool) error {
	fail := func(err error) error {
		dst.SetZero()
		if strict {
			return err
		}
		*bad = append(*bad, strings.TrimPrefix(path, "."))
		return nil
	}
	raw = bytes.TrimSpace(raw)
	isNull := bytes.Equal(raw, []byte("null"))

	// Types with their own decoding (Time, FlexInt, Backup, ...) decide.
	if dst.CanAddr() && reflect.PointerTo(dst.Type()).Implements(unmarshalerType) {
		if isNull && dst.Kind() != reflect.Struct {
			dst.SetZero()
			return nil
		}
		u := dst.Addr().Interface().(json.Unmarshaler)
		if err := u.UnmarshalJSON(raw); err != nil {
			return fail(err)
		}
		return nil
	}
	switch dst.Kind() {
	case reflect.Pointer:
		if isNull {
			dst.SetZero()
			return nil
		}
		p := reflect.New(dst.Type().Elem())
		if err := decodeValue(raw, p.Elem(), path, bad, strict); err != nil {
			return err
		}
		dst.Set(p)
		return nil
	case reflect.Struct:
		return decodeStruct(raw, dst, path, bad, fail, isNull)
	case reflect.Slice:
		if isNull {
			dst.SetZero()
			return nil
		}
		if len(raw) == 0 || raw[0] != '[' {
			return fail(fmt.Errorf("expected an array, got %s", preview(raw)))
		}
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return fail(err)
		}
		out := reflect.MakeSlice(dst.Type(), 0, len(items))
		elem := reflect.New(dst.Type().Elem()).Elem()
		for i, it := range items {
			elem.SetZero()
			p := path + "[" + strconv.Itoa(i) + "]"
			// an element that is not of the element's kind at all is
			// dropped; the rest of the list stays
			if err := decodeValue(it, elem, p, bad, true); err != nil {
				*bad = append(*bad, strings.TrimPrefix(p, "."))
				continue
			}
			out = reflect.Append(out, elem)
		}
		dst.Set(out)
		return nil
	case reflect.Map:
		m := reflect.New(dst.Type())
		if err := json.Unmarshal(raw, m.Interface()); err != nil {
			return fail(err)
		}
		cleanValue(m.Elem())
		dst.Set(m.Elem())
		return nil
	case reflect.String:
		if isNull {
			dst.SetString("")
			return nil
		}
		if len(raw) > 0 && raw[0] == '"' {
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				return fail(err)
			}
			dst.SetString(CleanText(s))
			return nil
		}
		// a number where a string was expected keeps its text
		var n json.Number
		if err := json.Unmarshal(raw, &n); err == nil {
			dst.SetString(n.String())
			return nil
		}
		return fail(fmt.Errorf("expected a string, got %s", preview(raw)))
	case reflect.Bool:
		if isNull {
			dst.SetBool(false)
			return nil
		}
		var b bool
		if err := json.Unmarshal(raw, &b); err == nil {
			dst.SetBool(b)
			return nil
		}
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			if b, err := strconv.ParseBool(strings.TrimSpace(s)); err == nil {
				dst.SetBool(b)
				return nil
			}
		}
		return fail(fmt.Errorf("expected true or false, got %s", preview(raw)))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if isNull {
			dst.SetInt(0)
			return nil
		}
		n, err := parseJSONInt(raw)
		if err != nil || dst.OverflowInt(n) {
			return fail(fmt.Errorf("expected a whole number, got %s", preview(raw)))
		}
		dst.SetInt(n)
		return nil
	case reflect.Float32, reflect.Float64:
		if isNull {
			dst.SetFloat(0)
			return nil
		}
		var f float64
		if err := json.Unmarshal(raw, &f); err != nil {
			return fail(err)
		}
		dst.SetFloat(f)
		return nil
	case reflect.Interface:
		var x any
		if err := json.Unmarshal(raw, &x); err != nil {
			return fail(err)
		}
		if x != nil {
			dst.Set(reflect.ValueOf(x))
		}
		return nil
	}
	return fail(fmt.Errorf("cannot decode into %s", dst.Type()))
}

func decodeStruct(raw []byte, dst reflect.Value, path string, bad *[]string, fail func(error) error, isNull bool) error {
	if isNull {
		dst.SetZero()
		return nil
	}
	if len(raw) == 0 || raw[0] != '{' {
		return fail(fmt.Errorf("expected an object, got %s", preview(raw)))
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return fail(err)
	}
	fs := fieldsOf(dst.Type())
	var local []string
	for name, val := range obj {
		f, ok := fs.byName[name]
		if !ok {
			f, ok = fs.byFold(name)
		}
		if !ok {
			continue
		}
		_ = decodeValue(val, dst.FieldByIndex(f.index), "."+name, &local, false)
	}
	if len(local) > 0 {
		if fs.meta != nil {
			m := dst.FieldByIndex(fs.meta).Addr().Interface().(*Meta)
			m.Unread = append(m.Unread, local...)
		}
		for _, l := range local {
			*bad = append(*bad, strings.TrimPrefix(path+"."+l, "."))
		}
	}
	return nil
}

type structField struct {
	index []int
	depth int
}

type structFields struct {
	byName map[string]structField
	meta   []int
}

func (s structFields) byFold(name string) (structField, bool) {
	for k, f := range s.byName {
		if strings.EqualFold(k, name) {
			return f, true
		}
	}
	return structField{}, false
}

var fieldCache sync.Map // reflect.Type -> structFields

// fieldsOf lists a struct's JSON fields the way encoding/json does: by tag
// name, embedded structs flattened, the shallower of two same-named fields
// winning.
func fieldsOf(t reflect.Type) structFields {
	if v, ok := fieldCache.Load(t); ok {
		return v.(structFields)
	}
	out := structFields{byName: map[string]structField{}}
	var walk func(t reflect.Type, index []int, depth int)
	walk = func(t reflect.Type, index []int, depth int) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			idx := append(append([]int(nil), index...), i)
			if f.Type == metaType {
				if out.meta == nil || len(idx) < len(out.meta) {
					out.meta = idx
				}
				continue
			}
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, _, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" {
				ft := f.Type
				if ft.Kind() == reflect.Struct && !reflect.PointerTo(ft).Implements(unmarshalerType) {
					walk(ft, idx, depth+1)
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			if prev, ok := out.byName[name]; ok && prev.depth <= depth {
				continue
			}
			out.byName[name] = structField{index: idx, depth: depth}
		}
	}
	walk(t, nil, 0)
	fieldCache.Store(t, out)
	return out
}

func parseJSONInt(raw []byte) (int64, error) {
	s := string(raw)
	if len(raw) > 0 && raw[0] == '"' {
		if err := json.Unmarshal(raw, &s); err != nil {
			return 0, err
		}
		s = strings.TrimSpace(s)
		if s == "" {
			return 0, nil
		}
	}
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		return n, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, err
	}
	return floatToInt(f)
}

// floatToInt converts a JSON number to an int64 when it is a whole number in
// range; 9.9e18 or 1.5 are not.
func floatToInt(f float64) (int64, error) {
	if f != f || f >= 9.223372036854775807e18 || f < -9.223372036854775808e18 {
		return 0, fmt.Errorf("%g is out of range", f)
	}
	if f != float64(int64(f)) {
		return 0, fmt.Errorf("%g is not a whole number", f)
	}
	return int64(f), nil
}

// cleanValue cleans every string inside a value decoded by encoding/json
// (maps of strings, interfaces).
func cleanValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		if v.CanSet() {
			v.SetString(CleanText(v.String()))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := v.MapIndex(k)
			if e.Kind() == reflect.String {
				v.SetMapIndex(k, reflect.ValueOf(CleanText(e.String())).Convert(e.Type()))
			}
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			cleanValue(v.Index(i))
		}
	}
}

func preview(raw []byte) string {
	const max = 40
	s := string(raw)
	if len(s) > max {
		s = s[:max] + "…"
	}
	return CleanText(s)
}
