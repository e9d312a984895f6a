package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Time is a timestamp that decodes from the shapes the live service uses:
// a JSON number (epoch seconds, or milliseconds when implausibly large for
// seconds), a numeric string, or an RFC 3339 / common date-time string.
// It encodes as an RFC 3339 string, or null when zero.
//
// A value that is none of those never fails the answer: the time stays zero
// and Raw keeps the text as it came (cleaned), to be shown as it is.
type Time struct {
	time.Time
	// Raw is the answer's value when it could not be read as a time.
	Raw string
}

// UnixTime decodes like Time but encodes as integer epoch seconds, the shape
// of provisioning fields such as created_on.
type UnixTime struct {
	time.Time
	// Raw is the answer's value when it could not be read as a time.
	Raw string
}

// Unread reports a value that was present but could not be read as a time.
func (t Time) Unread() bool { return t.IsZero() && t.Raw != "" }

// Unread reports a value that was present but could not be read as a time.
func (t UnixTime) Unread() bool { return t.IsZero() && t.Raw != "" }

// decodeTime reads a timestamp; what it cannot read it keeps as raw text.
func decodeTime(b []byte) (time.Time, string) {
	v, err := parseFlexTime(b)
	if err == nil {
		return v, ""
	}
	raw := strings.TrimSpace(string(b))
	var s string
	if json.Unmarshal(b, &s) == nil {
		raw = s
	}
	raw = CleanText(raw)
	if raw == "" {
		raw = "?"
	}
	return time.Time{}, raw
}

var timeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05",
	"2006-01-02 15:04:05Z07:00",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04:05 -0700 MST",
	"2006-01-02",
}

// jsonScalar reads a JSON value the way the flexible types take it: null,
// a string (its text, quoted true), or anything else as it stands (white
// space trimmed, quoted false).
func jsonScalar(b []byte) (text string, quoted, null bool, err error) {
	b = bytes.TrimSpace(b)
	switch {
	case bytes.Equal(b, []byte("null")):
		return "", false, true, nil
	case len(b) > 0 && b[0] == '"':
		err = json.Unmarshal(b, &text)
		return text, true, false, err
	}
	return string(b), false, false, nil
}

func parseFlexTime(b []byte) (time.Time, error) {
	s, quoted, null, err := jsonScalar(b)
	if err != nil {
		return time.Time{}, err
	}
	s = strings.TrimSpace(s)
	if null || s == "" {
		return time.Time{}, nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return epoch(f), nil
	}
	if !quoted {
		return time.Time{}, fmt.Errorf("unrecognised time %s", s)
	}
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("unrecognised time %q", s)
}

func epoch(f float64) time.Time {
	if f == 0 {
		return time.Time{}
	}
	// Values past the year 5138 in seconds are milliseconds; past the
	// range of time.Time they are not times at all.
	if f > 1e17 || f < -1e17 || f != f {
		return time.Time{}
	}
	if f > 1e11 {
		return time.UnixMilli(int64(f)).UTC()
	}
	sec := int64(f)
	return time.Unix(sec, int64((f-float64(sec))*1e9)).UTC()
}

// UnmarshalJSON implements json.Unmarshaler.
func (t *Time) UnmarshalJSON(b []byte) error {
	t.Time, t.Raw = decodeTime(b)
	return nil
}

// MarshalJSON implements json.Marshaler.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		if t.Raw != "" {
			return json.Marshal(t.Raw)
		}
		return []byte("null"), nil
	}
	return json.Marshal(t.UTC().Format(time.RFC3339))
}

// UnmarshalJSON implements json.Unmarshaler.
func (t *UnixTime) UnmarshalJSON(b []byte) error {
	t.Time, t.Raw = decodeTime(b)
	return nil
}

// MarshalJSON implements json.Marshaler.
func (t UnixTime) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("0"), nil
	}
	return []byte(strconv.FormatInt(t.Unix(), 10)), nil
}

// FlexString decodes from a JSON string or number and encodes as a string.
// The live service sends binlog positions as strings; older pages show numbers.
type FlexString string

// UnmarshalJSON implements json.Unmarshaler.
func (s *FlexString) UnmarshalJSON(b []byte) error {
	v, quoted, null, err := jsonScalar(b)
	switch {
	case err != nil:
		return err
	case null:
		*s = ""
		return nil
	case quoted:
		*s = FlexString(CleanText(v))
		return nil
	}
	var n json.Number
	if err := json.Unmarshal([]byte(v), &n); err != nil {
		return fmt.Errorf("expected string or number, got %s", v)
	}
	*s = FlexString(n.String())
	return nil
}

// FlexInt decodes from a JSON number or numeric string and encodes as a number.
type FlexInt int64

// UnmarshalJSON implements json.Unmarshaler.
func (n *FlexInt) UnmarshalJSON(b []byte) error {
	s, quoted, null, err := jsonScalar(b)
	if err != nil {
		return err
	}
	if quoted {
		s = strings.TrimSpace(s)
	}
	if null || (quoted && s == "") {
		*n = 0
		return nil
	}
	v, err := parseJSONInt([]byte(s))
	switch {
	case err != nil && quoted:
		return fmt.Errorf("expected a whole number, got %q", CleanText(s))
	case err != nil:
		return fmt.Errorf("expected a whole number, got %s", preview([]byte(s)))
	}
	*n = FlexInt(v)
	return nil
}

// decodeList decodes either a bare JSON array or an envelope object holding
// the array under one of the given keys. It returns the envelope's
// pages_count (0 when absent or for a bare array).
//
// An empty or null body is an error, not an empty list: a list that went
// from eight services to none because a server sent nothing must not be
// shown as "no services". An envelope without the list (the description
// requires none of its fields) is an empty list.
func decodeList[T any](body []byte, keys ...string) ([]T, int, error) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil, 0, errors.New("empty answer where a list was expected")
	}
	if bytes.Equal(body, []byte("null")) {
		return nil, 0, errors.New("null answer where a list was expected")
	}
	if body[0] == '[' {
		var out []T
		if err := unmarshalLenient(body, &out); err != nil {
			return nil, 0, err
		}
		return out, 0, nil
	}
	var env map[string]json.RawMessage
	if err := json.Unmarshal(body, &env); err != nil {
		return nil, 0, fmt.Errorf("expected an array or an object with %s", quotedKeys(keys))
	}
	pages := 0
	if raw, ok := env["pages_count"]; ok {
		var p FlexInt
		if err := json.Unmarshal(raw, &p); err == nil {
			pages = int(p)
		}
	}
	for _, k := range keys {
		raw, ok := env[k]
		if !ok {
			continue
		}
		var out []T
		if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			return nil, pages, nil
		}
		if err := unmarshalLenient(raw, &out); err != nil {
			return nil, 0, fmt.Errorf("%q: %w", k, err)
		}
		return out, pages, nil
	}
	return nil, pages, nil
}

// decodeOne decodes a single object, or the first element of an array (the
// interface document returns single restores as a one-element array).
// noRecord reports an answer that carries no record: no body, {}, [] or
// null (all of which an accepted change may answer with).
func noRecord(body []byte) bool {
	switch string(bytes.Join(bytes.Fields(body), nil)) {
	case "", "{}", "[]", "null":
		return true
	}
	return false
}

func decodeOne[T any](body []byte) (*T, error) {
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		var arr []T
		if err := unmarshalLenient(body, &arr); err != nil {
			return nil, err
		}
		if len(arr) == 0 {
			return nil, fmt.Errorf("empty array")
		}
		return &arr[0], nil
	}
	var v T
	if err := unmarshalLenient(body, &v); err != nil {
		return nil, err
	}
	return &v, nil
}

// quotedKeys is "services" or "data".
func quotedKeys(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = strconv.Quote(k)
	}
	return strings.Join(q, " or ")
}
