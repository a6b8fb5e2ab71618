package event

import (
	"bytes"
	"encoding/json"
	"errors"
)

// JSON is the narrow JSON back end of the codec: the syntax check of a whole
// line and the slow paths that a hand-written fast path does not cover.
// [StdJSON] (encoding/json) is the default; a faster library can replace it
// through [ReaderOptions.JSON].
type JSON interface {
	// Check returns nil for well-formed JSON, else an error with the byte
	// offset of the problem.
	Check(data []byte) error
	// UnquoteString decodes a JSON string literal, quotes included.
	UnquoteString(lit []byte) (string, error)
	// Compact appends src without insignificant white space to dst.
	Compact(dst *bytes.Buffer, src []byte) error
}

// StdJSON is the encoding/json implementation of [JSON].
type StdJSON struct{}

// Check implements [JSON].
func (StdJSON) Check(data []byte) error {
	if json.Valid(data) {
		return nil
	}
	var v any
	err := json.Unmarshal(data, &v)
	if err == nil {
		err = errors.New("invalid JSON")
	}
	return err
}

// UnquoteString implements [JSON].
func (StdJSON) UnquoteString(lit []byte) (string, error) {
	var s string
	err := json.Unmarshal(lit, &s)
	return s, err
}

// Compact implements [JSON].
func (StdJSON) Compact(dst *bytes.Buffer, src []byte) error {
	return json.Compact(dst, src)
}
