package event

import (
	"errors"
	"fmt"
)

// ErrEmpty is returned (wrapped in a *DecodeError) for a trace that holds
// neither a header nor any event.
var ErrEmpty = errors.New("empty trace: no header and no events")

// ErrLineTooLong is wrapped by the *DecodeError for a line over the limit.
var ErrLineTooLong = errors.New("line too long")

// DecodeError describes why a line of a trace could not be used.
type DecodeError struct {
	Name   string // the file name, if the reader was given one
	Line   int    // 1-based line number; 0 when the error is about the whole trace
	Field  string // the JSON member at fault, if any
	Reason string // what is wrong, in words
	Err    error  // an underlying error, if any
}

// Error formats the error as "name:line: field: reason".
func (e *DecodeError) Error() string {
	where := e.Name
	if e.Line > 0 {
		if where != "" {
			where += ":"
		}
		where += fmt.Sprintf("line %d", e.Line)
	}
	if where == "" {
		where = "trace"
	}
	msg := where + ": "
	if e.Field != "" {
		msg += "field " + quote(e.Field) + ": "
	}
	return msg + e.Reason
}

// Unwrap returns the underlying error.
func (e *DecodeError) Unwrap() error { return e.Err }

func quote(s string) string { return `"` + s + `"` }

// lineError builds a DecodeError for the line being decoded.
func lineError(field, format string, args ...any) *DecodeError {
	return &DecodeError{Field: field, Reason: fmt.Sprintf(format, args...)}
}
