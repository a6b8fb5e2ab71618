package event

import "encoding/json"

// Version is the trace format identifier written in the header line.
const Version = "toolsim/v1"

// Kind names what an event does. Kinds outside the list below are legal and
// kept on round trip; engines ignore them.
type Kind string

// The kinds of trace format v1.
const (
	KindTurnStart    Kind = "turn_start"
	KindUser         Kind = "user"
	KindThinking     Kind = "thinking"
	KindText         Kind = "text"
	KindToolStart    Kind = "tool_start"
	KindToolProgress Kind = "tool_progress"
	KindToolDone     Kind = "tool_done"
	KindPermission   Kind = "permission"
	KindCancel       Kind = "cancel"
	KindError        Kind = "error"
	KindTurnEnd      Kind = "turn_end"
)

// Known reports whether k is one of the kinds of format v1.
func (k Kind) Known() bool {
	_, ok := kindFields[k]
	return ok
}

// Role of a turn_start event.
const (
	RoleAssistant = "assistant"
	RoleUser      = "user"
)

// Permission states of a permission event.
const (
	PermissionAsked   = "asked"
	PermissionGranted = "granted"
	PermissionDenied  = "denied"
)

// Event is one line of a trace. Which fields are meaningful depends on Kind;
// see docs/trace-format.md. Args and Details hold compact JSON objects.
type Event struct {
	Seq  int64 // 1-based, strictly increasing
	T    int64 // milliseconds on the trace clock, non-decreasing
	Kind Kind

	Role       string          // turn_start
	Text       string          // user, thinking, text
	ID         string          // tool_start, tool_progress, tool_done, permission
	Name       string          // tool_start
	Args       json.RawMessage // tool_start: a JSON object
	Batch      string          // tool_start: the source's grouping key
	Parent     string          // tool_start: id of the enclosing tool
	Output     string          // tool_progress (a delta), tool_done
	Details    json.RawMessage // tool_progress: a JSON object
	OK         bool            // tool_done
	Error      string          // tool_done
	DurationMS *int64          // tool_done, optional
	State      string          // permission: asked, granted or denied
	Reason     string          // cancel
	Message    string          // error

	// Extra holds fields this kind does not define, in the order read.
	// They are written back sorted by key.
	Extra []Field
}

// Field is a JSON member kept verbatim (compacted).
type Field struct {
	Key   string
	Value json.RawMessage
}

// Header is the optional first line of a trace.
type Header struct {
	Trace  string          // always Version once decoded
	Source string          // sim, claude-code, codex, acp, ...
	Seed   *int64          // the simulator seed, when there is one
	Meta   json.RawMessage // a JSON object, optional
	Extra  []Field         // unknown header fields
}

// field identifies a known event member.
type field uint16

const (
	fRole field = 1 << iota
	fText
	fID
	fName
	fArgs
	fBatch
	fParent
	fOutput
	fDetails
	fOK
	fError
	fDuration
	fState
	fReason
	fMessage
)

// kindFields lists, per kind, the fields it defines and the ones it requires.
var kindFields = map[Kind]struct{ allowed, required field }{
	KindTurnStart:    {fRole, fRole},
	KindUser:         {fText, fText},
	KindThinking:     {fText, fText},
	KindText:         {fText, fText},
	KindToolStart:    {fID | fName | fArgs | fBatch | fParent, fID | fName},
	KindToolProgress: {fID | fOutput | fDetails, fID},
	KindToolDone:     {fID | fOK | fOutput | fError | fDuration, fID | fOK},
	KindPermission:   {fID | fState, fID | fState},
	KindCancel:       {fReason, 0},
	KindError:        {fMessage, fMessage},
	KindTurnEnd:      {0, 0},
}

// fieldNames maps JSON member names to known fields, in encoding order.
var fieldNames = []struct {
	name string
	f    field
}{
	{"role", fRole}, {"text", fText}, {"id", fID}, {"name", fName},
	{"args", fArgs}, {"batch", fBatch}, {"parent", fParent},
	{"output", fOutput}, {"details", fDetails}, {"ok", fOK},
	{"error", fError}, {"duration_ms", fDuration}, {"state", fState},
	{"reason", fReason}, {"message", fMessage},
}

func fieldByName(name string) field {
	for _, fn := range fieldNames {
		if fn.name == name {
			return fn.f
		}
	}
	return 0
}

func (f field) String() string {
	for _, fn := range fieldNames {
		if fn.f == f {
			return fn.name
		}
	}
	return "?"
}
