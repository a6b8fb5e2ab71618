package store

import (
	"encoding/json"
	"strconv"
	"time"
)

// LogVersion identifies the log format in its header line.
const LogVersion = "toolsim-log/1"

// RecordVersion is the record version the writer emits (member "v").
const RecordVersion = 1

// TimeLayout is the timestamp layout: UTC, millisecond resolution, so
// records a millisecond apart or less tie.
const TimeLayout = "2006-01-02T15:04:05.000Z"

// Record types.
const (
	TypeTurnStart     = "turn_start"
	TypeTurnEnd       = "turn_end"
	TypeUserMessage   = "user_message"
	TypeAssistant     = "assistant_message" // coarse: a whole text segment
	TypeThinking      = "thinking"          // coarse: a whole thinking segment
	TypeTextDelta     = "text_delta"        // fine-grained
	TypeThinkingDelta = "thinking_delta"    // fine-grained
	TypeToolCall      = "tool_call"
	TypeToolProgress  = "tool_progress"
	TypeToolResult    = "tool_result"
	TypeToolLifecycle = "tool_lifecycle" // a call, its progress and its result in one record
	TypePermission    = "permission"
	TypeCancel        = "cancel"
	TypeError         = "error"
	TypeRawEvent      = "raw_event" // a canonical event of a kind the log has no record for
)

// Header is the first line of a log.
type Header struct {
	Log    string   `json:"log"`              // LogVersion
	T0     string   `json:"t0"`               // wall time of trace t=0, in TimeLayout
	Writer string   `json:"writer,omitempty"` // who wrote it
	Faults []string `json:"faults,omitempty"` // the faults the writer applied
	Seed   uint64   `json:"seed,omitempty"`
}

// Record is one line of a log. Which members are used depends on Type;
// see docs/persisted-log.md.
type Record struct {
	V      int    `json:"v"`
	ID     string `json:"id"`               // unique per record; a retried write repeats it
	Seq    *int64 `json:"seq,omitempty"`    // position in event order, when the writer numbers records
	Parent string `json:"parent,omitempty"` // id of the record before this one in event order
	TS     string `json:"ts"`               // wall time, TimeLayout
	Type   string `json:"type"`

	Role        string          `json:"role,omitempty"`
	Text        string          `json:"text,omitempty"`
	Interrupted bool            `json:"interrupted,omitempty"`
	CallID      string          `json:"call_id,omitempty"`
	Name        string          `json:"name,omitempty"`
	Args        json.RawMessage `json:"args,omitempty"`
	Batch       string          `json:"batch,omitempty"`
	ParentCall  string          `json:"parent_call,omitempty"`
	Output      string          `json:"output,omitempty"`
	Details     json.RawMessage `json:"details,omitempty"`
	OK          *bool           `json:"ok,omitempty"`
	Error       string          `json:"error,omitempty"`
	DurationMS  *int64          `json:"duration_ms,omitempty"`
	State       string          `json:"state,omitempty"`
	Reason      string          `json:"reason,omitempty"`
	Message     string          `json:"message,omitempty"`
	Event       json.RawMessage `json:"event,omitempty"` // raw_event: the canonical event

	// Lifecycle records: the folded progress, and where the result part
	// sits in event order.
	Updates   int    `json:"updates,omitempty"`  // progress updates folded in
	Progress  string `json:"progress,omitempty"` // their output, joined
	EndTS     string `json:"end_ts,omitempty"`
	EndSeq    *int64 `json:"end_seq,omitempty"`
	EndParent string `json:"end_parent,omitempty"`
}

// FormatTime renders a wall time as the log does. A year past 9999 (a
// trace clock may run for 10^18 ms) is written with all its digits.
func FormatTime(t time.Time) string { return t.UTC().Format(TimeLayout) }

// ParseTime reads a log timestamp, including one with a year of more than
// four digits (as FormatTime writes it).
func ParseTime(s string) (time.Time, error) {
	const rest = len(TimeLayout) - len("2006") // "-01-02T15:04:05.000Z"
	if len(s) <= len(TimeLayout) {
		return time.Parse(TimeLayout, s)
	}
	year, err := strconv.Atoi(s[:len(s)-rest])
	if err != nil || year < 10000 {
		return time.Parse(TimeLayout, s) // its error names the layout
	}
	// Parse the rest in a year of the same leap-ness, then move it.
	stand := 2001
	if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
		stand = 2000
	}
	t, err := time.Parse(TimeLayout, strconv.Itoa(stand)+s[len(s)-rest:])
	if err != nil {
		return t, err
	}
	return t.AddDate(year-stand, 0, 0), nil
}
