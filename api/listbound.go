package api

import "fmt"

// listBound counts what a listing read across its pages.
type listBound struct{ items, bytes int }

// add counts one page, r; past a bound, the error names it and carries
// the trace ID of r, the last page's answer.
func (b *listBound) add(method, path string, items int, r *response) error {
	b.items += items
	b.bytes += len(r.body)
	var what string
	switch {
	case b.items > MaxListItems:
		what = fmt.Sprintf("%d items", MaxListItems)
	case b.bytes > MaxListBytes:
		what = fmt.Sprintf("%d MiB", MaxListBytes>>20)
	default:
		return nil
	}
	return &Error{Method: method, Path: path, TraceID: r.traceID(), Err: &ListTooLongError{What: what}}
}
