package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"
)

// ErrorBody is the error document both interfaces return.
type ErrorBody struct {
	Code      int           `json:"code"`
	Errors    []ErrorDetail `json:"errors"`
	Exception string        `json:"exception,omitempty"`
	Path      string        `json:"path,omitempty"`
	Timestamp UnixTime      `json:"timestamp,omitzero"` // a number or a date string
	TraceID   string        `json:"trace_id,omitempty"`
	// Error and Message are plain messages some gateways send instead of
	// errors[].
	Error   string `json:"error,omitempty"`
	Message string `json:"message,omitempty"`
}

// ErrorDetail is one entry of ErrorBody.Errors.
type ErrorDetail struct {
	Error    string `json:"error,omitempty"`
	Message  string `json:"message,omitempty"`
	Solution string `json:"solution,omitempty"`
	Type     string `json:"type,omitempty"`
	Location string `json:"location,omitempty"`
}

// ErrNoAPIKey: the client has no API key, so it sends nothing (the
// service would only refuse it; a first run asks for the key instead).
var ErrNoAPIKey = errors.New("no API key for this profile (:login in the UI, skytui auth login on the command line)")

// Error is the one error type of the client: an HTTP error answer, or a
// transport failure (Status 0) after retries.

type Error struct {
	Method   string
	Path     string
	Status   int
	Message  string
	Solution string
	Location string
	TraceID  string
	// RetryAfter is the server's Retry-After, when it sent one.
	RetryAfter time.Duration
	// Err is the underlying transport or decoding error, if any.
	Err error
	// Unknown is set on a change (POST, PUT, PATCH, DELETE) whose request
	// was sent but whose answer never came (the connection dropped, it
	// timed out): the server may or may not have carried it out.
	Unknown bool
}

// Error reads well on one line:
// "400 Bad Request: external_source.bucket must end with '/' (POST /backup/v1/restores, trace 5f2c…)".
func (e *Error) Error() string {
	var b strings.Builder
	switch {
	case e.Status > 0:
		fmt.Fprintf(&b, "%d %s", e.Status, http.StatusText(e.Status))
	case e.Unknown:
		b.WriteString("outcome unknown: the request was sent and no answer came back")
	case errors.Is(e.Err, ErrNoAPIKey):
		b.WriteString("not sent")
	case errors.As(e.Err, new(*ListTooLongError)):
		// it says itself what happened: every page was answered
	default:
		b.WriteString("request failed")
	}
	msg := e.Message
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	if msg != "" {
		if b.Len() > 0 {
			b.WriteString(": ")
		}
		b.WriteString(oneLine(msg))
	}
	if e.Solution != "" {
		b.WriteString(" — ")
		b.WriteString(oneLine(e.Solution))
	}
	var where []string
	if e.RetryAfter > 0 {
		// when the server asks to be asked again (a longer wait than the
		// client takes itself is reported, not waited out)
		where = append(where, "retry after "+e.RetryAfter.Round(time.Second).String())
	}
	if e.Method != "" || e.Path != "" {
		where = append(where, strings.TrimSpace(e.Method+" "+e.Path))
	}
	if e.TraceID != "" {
		where = append(where, "trace "+e.TraceID)
	}
	if len(where) > 0 {
		b.WriteString(" (")
		b.WriteString(strings.Join(where, ", "))
		b.WriteString(")")
	}
	return b.String()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// ListTooLongError is the Err of an *Error for a listing that goes on past
// what the client reads (MaxListItems, MaxListBytes); the *Error carries
// the trace ID of the last page's answer.
type ListTooLongError struct {
	What string // "20000 items", "32 MiB"
}

func (e *ListTooLongError) Error() string {
	return "the listing goes on past " + e.What + ", the most the client reads"
}

// oneLine cleans s (an underlying transport or decoding error's text can
// carry the server's bytes), folds it to one line and cuts it at a rune
// boundary.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(CleanText(s)), " ")
	const max = 300
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// AsError returns err as an *Error, or nil.
func AsError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// StatusOf returns the HTTP status of err, or 0.
func StatusOf(err error) int {
	if e := AsError(err); e != nil {
		return e.Status
	}
	return 0
}

// IsOutcomeUnknown reports a change that was sent but never answered: it
// may have been carried out. Never report it as refused, and never send it
// again without the user's explicit choice.
func IsOutcomeUnknown(err error) bool {
	e := AsError(err)
	return e != nil && e.Unknown
}

// IsUnauthorized reports a refused API key (401).
func IsUnauthorized(err error) bool { return StatusOf(err) == http.StatusUnauthorized }

// IsNotFound reports 404.
func IsNotFound(err error) bool { return StatusOf(err) == http.StatusNotFound }

// IsConflict reports a conflict or a service in a pending state: 409, or a
// 400 whose message says "pending state".
func IsConflict(err error) bool {
	e := AsError(err)
	if e == nil {
		return false
	}
	if e.Status == http.StatusConflict {
		return true
	}
	return e.Status == http.StatusBadRequest && strings.Contains(strings.ToLower(e.Message), "pending state")
}

// IsRateLimited reports 429.
func IsRateLimited(err error) bool { return StatusOf(err) == http.StatusTooManyRequests }

// ErrorFromResponse builds an *Error from a non-2xx answer and its body.
func ErrorFromResponse(method, path string, status int, header http.Header, body []byte) *Error {
	e := &Error{Method: method, Path: path, Status: status}
	if header != nil {
		e.RetryAfter = parseRetryAfter(header.Get("Retry-After"), time.Now())
		e.TraceID = traceOf(header)
	}
	var eb ErrorBody
	if err := unmarshalLenient(body, &eb); err == nil {
		if len(eb.Errors) > 0 {
			d := eb.Errors[0]
			e.Message = d.Message
			if e.Message == "" {
				e.Message = d.Error
			}
			e.Solution = d.Solution
			e.Location = d.Location
		}
		// else the first plain message there is; the exception only when it
		// says more than the status line ("Bad Request")
		for _, m := range []string{eb.Message, eb.Error, eb.Exception} {
			if e.Message == "" && !strings.EqualFold(strings.TrimSpace(m), http.StatusText(status)) {
				e.Message = strings.TrimSpace(m)
			}
		}
		if eb.TraceID != "" {
			e.TraceID = eb.TraceID
		}
	}
	if status/100 == 3 {
		// never followed (see New): say where it pointed
		e.Message = "redirected to " + redirectTarget(header) + "; skytui does not follow redirects (the API key would go with it): check the API URL"
	}
	if e.Message == "" {
		text := strings.TrimSpace(string(body))
		if text != "" && !strings.HasPrefix(text, "{") && !strings.HasPrefix(text, "<") {
			e.Message = CleanText(text)
		}
	}
	return e
}

// traceOf is an answer's trace ID (X-Trace-Id), cleaned, or "".
func traceOf(h http.Header) string {
	if h == nil {
		return ""
	}
	return CleanText(strings.TrimSpace(h.Get("X-Trace-Id")))
}

// redirectTarget is where a redirect pointed, cleaned, or "another address".
func redirectTarget(h http.Header) string {
	if h == nil || strings.TrimSpace(h.Get("Location")) == "" {
		return "another address"
	}
	return CleanText(strings.TrimSpace(h.Get("Location")))
}

// NewErrorBody builds the live error document for a status and message; the
// sandbox answers with it.
func NewErrorBody(status int, path, message, solution, location, traceID string, now time.Time) ErrorBody {
	return ErrorBody{
		Code: status,
		Errors: []ErrorDetail{{
			Error:    http.StatusText(status),
			Message:  message,
			Solution: solution,
			Type:     "error",
			Location: location,
		}},
		Exception: http.StatusText(status),
		Path:      path,
		Timestamp: UnixTime{Time: now},
		TraceID:   traceID,
	}
}
