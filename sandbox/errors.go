package sandbox

import (
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/skytui/skytui/api"
)

// apiError is an answer other than 2xx; the server renders it as the live
// error body (api.NewErrorBody).
type apiError struct {
	status     int
	message    string
	solution   string
	location   string
	more       []api.ErrorDetail // further broken rules after the first
	retryAfter time.Duration
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s", e.status, e.message) }

func errf(status int, location, format string, a ...any) *apiError {
	return &apiError{status: status, location: location, message: fmt.Sprintf(format, a...)}
}

// validation turns api's validation errors into a 400 that names each
// field: the message of errors[0] is "field: rule", its location the field.
func validation(err error) *apiError {
	var list api.ValidationErrors
	var one *api.FieldError
	switch {
	case errors.As(err, &list) && len(list) > 0:
	case errors.As(err, &one):
		list = api.ValidationErrors{one}
	default:
		return errf(http.StatusBadRequest, "", "%v", err)
	}
	e := &apiError{status: http.StatusBadRequest, message: list[0].Error(), location: list[0].Field}
	if len(list) > 1 {
		e.message = list.Error()
		for _, fe := range list[1:] {
			e.more = append(e.more, api.ErrorDetail{Error: http.StatusText(http.StatusBadRequest), Message: fe.Error(), Type: "error", Location: fe.Field})
		}
	}
	return e
}

// body renders the live error document.
func (e *apiError) body(path, traceID string, now time.Time) api.ErrorBody {
	b := api.NewErrorBody(e.status, path, e.message, e.solution, e.location, traceID, now)
	b.Errors = append(b.Errors, e.more...)
	return b
}
