package event

import (
	"bytes"
	"encoding/json"
	"errors"
)

// JSON is the narrow JSON back end of the codec. The decode fast path is
// hand-written (a one-pass validator that also splits members, and a string
// unescaper); what remains goes through this interface: the writer's syntax
// check of raw members and the compaction of raw values that hold white
// space. [StdJSON] (encoding/json) is the default; a faster library can
// replace it through [ReaderOptions.JSON].
type JSON interface {
	// Check returns nil for well-formed JSON, else an error with the byte
	// offset of the problem.
	Check(data []byte) error
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

// Compact implements [JSON].
func (StdJSON) Compact(dst *bytes.Buffer, src []byte) error {
	return json.Compact(dst, src)
}
