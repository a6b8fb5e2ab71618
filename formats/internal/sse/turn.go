package sse

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/internal/jsonscan"
)

// Turn maps model responses onto canonical events through an
// importer.Builder, and keeps the assistant-turn state across them: a
// response opens an assistant turn unless one is open, and closes it with
// turn_end at its end marker unless it issued tool calls, whose results
// only the next request carries. A stream importer uses one Turn for its
// one response; the vcr-cassette importer shares one across all the
// responses of a cassette, adding the user turns and tool results it reads
// from the requests.
type Turn struct {
	B *importer.Builder
	// Clock gives the trace time of the next event; nil means the synthetic
	// clock (Builder.Clock with no timestamp).
	Clock func() int64
	// LineOffset is added to every line number a problem reports (a stream
	// embedded in a larger file).
	LineOffset int
	// Ignored counts known-but-irrelevant records by name: the header meta
	// "ignored".
	Ignored map[string]int
	// Mark, when set, is added to the unknown fields of every event the
	// turn emits (the vcr importer marks side conversations with it).
	Mark []event.Field

	open    bool // an assistant turn is open
	resp    response
	lastErr string
}

// response is the state of the response being decoded.
type response struct {
	active bool   // begun, end marker not seen
	batch  string // the response / message id
	line   int    // where it began (LineOffset applied)
	calls  int    // client tool calls issued: they await results
	failed bool   // ended by an error
}

// NewTurn starts turn state on b with the synthetic clock.
func NewTurn(b *importer.Builder) *Turn {
	return &Turn{B: b, Ignored: map[string]int{}}
}

func (t *Turn) now() int64 {
	if t.Clock != nil {
		return t.Clock()
	}
	return t.B.Clock(zeroTime, false)
}

// Emit appends ev at the turn's clock.
func (t *Turn) Emit(ev event.Event) {
	if len(t.Mark) > 0 {
		ev.Extra = append(ev.Extra, t.Mark...)
	}
	t.B.Emit(t.now(), ev)
}

// Problem reports a line (shifted by LineOffset) the import could not fully
// map. Under strict imports it returns the error that stops the import.
func (t *Turn) Problem(line int, format string, args ...any) error {
	if line > 0 {
		line += t.LineOffset
	}
	return t.B.Problem(line, fmt.Sprintf(format, args...))
}

// Ignore counts one known-but-irrelevant record.
func (t *Turn) Ignore(name string) {
	if t.Ignored == nil {
		t.Ignored = map[string]int{}
	}
	t.Ignored[name]++
}

// TurnOpen reports whether an assistant turn is open.
func (t *Turn) TurnOpen() bool { return t.open }

// OpenTurn emits turn_start{assistant} unless an assistant turn is open.
func (t *Turn) OpenTurn() {
	if !t.open {
		t.Emit(event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant})
		t.open = true
	}
}

// CloseTurn emits turn_end if an assistant turn is open.
func (t *Turn) CloseTurn() {
	if t.open {
		t.Emit(event.Event{Kind: event.KindTurnEnd})
		t.open = false
	}
}

// Active reports whether a response has begun and not reached its end.
func (t *Turn) Active() bool { return t.resp.active }

// Batch is the id of the current response: the batch of its tool calls.
func (t *Turn) Batch() string { return t.resp.batch }

// Begin starts a response with id batch (the batch of its tool calls) at
// line, opening an assistant turn if none is open. A response that begins
// while another is still active is reported: the earlier one was cut off.
func (t *Turn) Begin(line int, batch string) error {
	if t.resp.active {
		if err := t.Problem(line, "a new response (%s) begins before the one of line %d ended: that one was cut off", batch, t.resp.line); err != nil {
			return err
		}
	}
	t.resp = response{active: true, batch: batch, line: line + t.LineOffset}
	t.lastErr = ""
	t.OpenTurn()
	return nil
}

// ensure begins an implicit response for content that came before any
// begin marker.
func (t *Turn) ensure(line int) {
	if !t.resp.active {
		t.resp = response{active: true, batch: t.resp.batch, line: line + t.LineOffset}
		t.OpenTurn()
	}
}

// Text emits an assistant text delta (empty deltas are skipped).
func (t *Turn) Text(s string) {
	if s != "" {
		t.Emit(event.Event{Kind: event.KindText, Text: s})
	}
}

// Thinking emits a thinking delta (empty deltas are skipped).
func (t *Turn) Thinking(s string) {
	if s != "" {
		t.Emit(event.Event{Kind: event.KindThinking, Text: s})
	}
}

// Call is a tool call whose arguments are complete (or never will be).
type Call struct {
	Line int    // where the call began in the source
	ID   string // the id results link to
	Name string
	// Args is the joined argument JSON. Empty means no arguments ({}).
	// Anything that is not a JSON object is kept as {"raw": Args} and
	// reported.
	Args []byte
	// Incomplete marks a call the stream ended (or moved on) before
	// closing: it is emitted, and reported.
	Incomplete bool
	// Server marks a call the provider runs itself (its result comes in the
	// same stream): it does not keep the turn open.
	Server bool
	Extra  []event.Field
}

// ToolCall emits tool_start for a complete call, batched with the current
// response.
func (t *Turn) ToolCall(c Call) error {
	args, ok := ObjectArgs(c.Args)
	var err error
	switch {
	case c.Incomplete && !ok:
		err = t.Problem(c.Line, "the stream ended in the middle of the arguments of call %q (%s): kept raw: %s", c.ID, c.Name, clip(c.Args))
	case c.Incomplete:
		err = t.Problem(c.Line, "the stream ended before call %q (%s) was closed; its arguments are complete", c.ID, c.Name)
	case !ok:
		err = t.Problem(c.Line, "the arguments of call %q (%s) are not a JSON object: kept raw: %s", c.ID, c.Name, clip(c.Args))
	}
	if c.ID == "" && err == nil {
		err = t.Problem(c.Line, "call %s has no id", c.Name)
	}
	if err != nil {
		return err
	}
	t.ensure(c.Line)
	t.Emit(event.Event{Kind: event.KindToolStart, ID: c.ID, Name: c.Name, Args: args, Batch: t.resp.batch, Extra: c.Extra})
	if !c.Server {
		t.resp.calls++
	}
	return nil
}

// ToolDone emits the result of a call the provider ran itself.
func (t *Turn) ToolDone(id string, ok bool, output, errText string) {
	t.Emit(event.Event{Kind: event.KindToolDone, ID: id, OK: ok, Output: output, Error: errText})
}

// Notice emits a stream-level error event that does not end the response
// (e.g. a response cut at its token limit).
func (t *Turn) Notice(msg string) {
	t.Emit(event.Event{Kind: event.KindError, Message: msg})
}

// Fail emits an error event for an error that ends the response. A
// repetition of the same message within the response (an "error" event
// then "response.failed") is emitted once. The turn stays open: the
// harness retries, or the trace ends there.
func (t *Turn) Fail(msg string) {
	if t.resp.failed && msg == t.lastErr {
		t.Ignore("repeated error")
		return
	}
	t.Emit(event.Event{Kind: event.KindError, Message: msg})
	t.lastErr = msg
	t.resp.failed = true
	t.resp.active = false
}

// End handles a response's end marker: turn_end, unless tool calls await
// their results (or the response failed).
func (t *Turn) End() {
	t.resp.active = false
	if t.resp.calls == 0 && !t.resp.failed {
		t.CloseTurn()
	}
}

// Finish is called at the end of a stream's input (last: its last line):
// a response still active was cut off.
func (t *Turn) Finish(last int) error {
	if t.resp.active {
		t.resp.active = false
		return t.Problem(last, "the stream ended before the end of the response begun at line %d: cut off", t.resp.line)
	}
	return nil
}

// ObjectArgs turns joined argument JSON into a compact JSON object: empty
// (or blank) means {}; a JSON object is compacted; anything else is kept
// as {"raw": "..."} and ok is false.
func ObjectArgs(raw []byte) (args json.RawMessage, ok bool) {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 {
		return json.RawMessage(`{}`), true
	}
	if trimmed[0] == '{' {
		if out, ok := jsonscan.Compact(trimmed); ok {
			return out, true
		}
	}
	if trimmed[0] == '{' && json.Valid(trimmed) {
		var buf bytes.Buffer
		if json.Compact(&buf, trimmed) == nil {
			return buf.Bytes(), true
		}
	}
	b, _ := json.Marshal(map[string]string{"raw": string(raw)})
	return b, false
}

// StringField returns a JSON string as an event.Field value.
func StringField(key, value string) event.Field {
	b, _ := json.Marshal(value)
	return event.Field{Key: key, Value: b}
}

func clip(b []byte) string {
	const max = 60
	if len(b) > max {
		return fmt.Sprintf("%q… (%d bytes)", b[:max], len(b))
	}
	return fmt.Sprintf("%q", b)
}
