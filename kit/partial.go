package kit

import "strings"

// PartialError is what a Fetch returns with its data when parts of it
// failed (one service's listing of a view across services): the data is
// delivered, the parts logged (DataMsg.Parts).
type PartialError struct{ Parts []error }

func (e *PartialError) Error() string {
	texts := make([]string, len(e.Parts))
	for i, p := range e.Parts {
		texts[i] = p.Error()
	}
	return strings.Join(texts, "; ")
}

// Partial is the error a Fetch returns with data some parts of which
// failed: nil when none did.
func Partial(parts ...error) error {
	if len(parts) == 0 {
		return nil
	}
	return &PartialError{Parts: parts}
}

// SplitPartial separates a Fetch's error into the failure (nil when the
// data came, whole or in part) and the failed parts, as the engine
// delivers them.
func SplitPartial(err error) (error, []error) {
	if pe, ok := err.(*PartialError); ok {
		return nil, pe.Parts
	}
	return err, nil
}
