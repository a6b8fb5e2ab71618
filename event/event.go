package event

import "encoding/json"

// Version is the trace format identifier written in the header line.
const Version = "toolsim/v1"

// Revision is the revision of format v1 this package implements. Revision 2
// added the kinds tool_update and compact; a reader of revision 1 keeps
// them as unknown kinds and its engine ignores them (docs/trace-format.md),
// so the version string did not change.
const Revision = 2

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

	// Revision 2.
	KindToolUpdate Kind = "tool_update" // a live call's name or args became known
	KindCompact    Kind = "compact"     // the conversation was compacted; text is the summary
)

// Known reports whether k is one of the kinds of format v1.
func (k Kind) Known() bool {
	return k == KindTurnEnd || specOf(k).allowed != 0
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
	Text       string          // user, thinking, text, compact
	ID         string          // tool_start, tool_update, tool_progress, tool_done, permission
	Name       string          // tool_start, tool_update
	Args       json.RawMessage // tool_start, tool_update: a JSON object
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

// MetaClock is the header meta member that describes the trace clock, and
// ClockSynthetic its value when no event's time came from the source: the
// clock counts events (1 ms each), so a renderer shows no durations
// measured on it (docs/trace-format.md).
const (
	MetaClock      = "clock"
	ClockSynthetic = "synthetic"
)

// SyntheticClock reports whether the header's meta says the trace clock is
// synthetic ("clock":"synthetic"). A nil header has a real clock.
func (h *Header) SyntheticClock() bool {
	if h == nil || len(h.Meta) == 0 {
		return false
	}
	var m struct {
		Clock string `json:"clock"`
	}
	return json.Unmarshal(h.Meta, &m) == nil && m.Clock == ClockSynthetic
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

// fieldByName maps a raw (unescaped) member name to a known field; 0 if
// unknown. A key written with escapes is looked up as an unknown name and
// kept verbatim.
func fieldByName(name []byte) field {
	switch string(name) {
	case "role":
		return fRole
	case "text":
		return fText
	case "id":
		return fID
	case "name":
		return fName
	case "args":
		return fArgs
	case "batch":
		return fBatch
	case "parent":
		return fParent
	case "output":
		return fOutput
	case "details":
		return fDetails
	case "ok":
		return fOK
	case "error":
		return fError
	case "duration_ms":
		return fDuration
	case "state":
		return fState
	case "reason":
		return fReason
	case "message":
		return fMessage
	}
	return 0
}

// knownKind returns the Kind constant spelled by raw, or "".
func knownKind(raw []byte) Kind {
	switch string(raw) {
	case "turn_start":
		return KindTurnStart
	case "user":
		return KindUser
	case "thinking":
		return KindThinking
	case "text":
		return KindText
	case "tool_start":
		return KindToolStart
	case "tool_progress":
		return KindToolProgress
	case "tool_done":
		return KindToolDone
	case "permission":
		return KindPermission
	case "cancel":
		return KindCancel
	case "error":
		return KindError
	case "turn_end":
		return KindTurnEnd
	case "tool_update":
		return KindToolUpdate
	case "compact":
		return KindCompact
	}
	return ""
}

// kindSpec is the set of fields a kind defines and the subset it requires.
type kindSpec struct{ allowed, required field }

// specOf returns the field spec of a kind; unknown kinds define none.
func specOf(k Kind) kindSpec {
	switch k {
	case KindTurnStart:
		return kindSpec{fRole, fRole}
	case KindUser, KindThinking, KindText:
		return kindSpec{fText, fText}
	case KindToolStart:
		return kindSpec{fID | fName | fArgs | fBatch | fParent, fID | fName}
	case KindToolUpdate:
		return kindSpec{fID | fName | fArgs, fID}
	case KindCompact:
		return kindSpec{fText, 0}
	case KindToolProgress:
		return kindSpec{fID | fOutput | fDetails, fID}
	case KindToolDone:
		return kindSpec{fID | fOK | fOutput | fError | fDuration, fID | fOK}
	case KindPermission:
		return kindSpec{fID | fState, fID | fState}
	case KindCancel:
		return kindSpec{fReason, 0}
	case KindError:
		return kindSpec{fMessage, fMessage}
	}
	return kindSpec{}
}

// String returns the JSON member name of a known field.
func (f field) String() string {
	for _, fn := range fieldNames {
		if fn.f == f {
			return fn.name
		}
	}
	return "?"
}
