package claudecode

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolsim/toolsim/event"
)

// Block is one content block of a Claude message, as both formats carry
// it.
type Block struct {
	Type      string // text, thinking, tool_use, tool_result, *_tool_result, ...
	Text      string // text, thinking, or a tool_result's joined content
	ID, Name  string // tool_use
	Input     []byte // tool_use input, raw JSON
	ToolUseID string // tool_result
	IsError   bool   // tool_result
}

// Scope says where a message sits: in the main conversation, or in a
// sub-agent's (Side) under its Task call (Parent, "" when unknown).
type Scope struct {
	Side   bool
	Parent string
}

// Text maps a text block: text in the main conversation, progress of its
// Task call in a sub-agent's message.
func (c *Turns) Text(t int64, uuid string, b Block, s Scope) {
	switch {
	case b.Text == "":
	case !s.Side:
		c.Content(t, event.Event{Kind: event.KindText, Text: b.Text, Extra: UUIDField(uuid)})
	case s.Parent != "":
		out := b.Text
		if !strings.HasSuffix(out, "\n") {
			out += "\n"
		}
		c.Emit(t, event.Event{Kind: event.KindToolProgress, ID: s.Parent, Output: out, Extra: UUIDField(uuid)})
	default:
		c.Ignore("sub-agent text (Task unknown)")
	}
}

// OtherBlock maps a server tool's result block (*_tool_result) to its
// tool_done; any other block type is a problem at the given line.
func (c *Turns) OtherBlock(t int64, line int, uuid string, b Block) error {
	if strings.HasSuffix(b.Type, "_tool_result") && b.ToolUseID != "" {
		ev := event.Event{Kind: event.KindToolDone, ID: b.ToolUseID, OK: !b.IsError, Output: b.Text, Extra: UUIDField(uuid)}
		if b.IsError {
			ev.Error = b.Text
		}
		c.Emit(t, ev)
		c.Resolved(b.ToolUseID)
		return nil
	}
	return c.B.Problem(line, fmt.Sprintf("assistant content block of unknown type %q: skipped", b.Type))
}

// ToolStart maps a tool_use block to a tool_start in the message's batch,
// under its Task call in a sub-agent's message. Input that is not an object
// becomes {} and is kept as the unknown field "input".
func (c *Turns) ToolStart(t int64, uuid, batch string, b Block, s Scope) {
	args := json.RawMessage(b.Input)
	extra := UUIDField(uuid)
	if len(args) == 0 || args[0] != '{' {
		if len(args) > 0 && string(args) != "null" {
			extra = append(extra, event.Field{Key: "input", Value: args})
		}
		args = json.RawMessage(`{}`)
	}
	parent := ""
	if s.Side {
		parent = s.Parent
	}
	c.Content(t, event.Event{Kind: event.KindToolStart, ID: b.ID, Name: b.Name, Args: args,
		Batch: batch, Parent: parent, Extra: extra})
	c.Started(b.ID)
}

// Result maps a tool_result block: a rejection becomes permission denied,
// an interrupted call a held-back cancel (see Interrupted), anything else
// a tool_done with the source's duration when it has one. It reports
// whether the call was denied.
func (c *Turns) Result(t int64, uuid string, b Block, interrupted bool, duration *int64) (denied bool) {
	id, text := b.ToolUseID, b.Text
	switch {
	case b.IsError && IsRejection(text):
		c.Emit(t, event.Event{Kind: event.KindPermission, ID: id, State: event.PermissionDenied,
			Extra: append(UUIDField(uuid), Field("result", text))})
		c.Resolved(id)
		return true
	case interrupted || b.IsError && IsMarker(text):
		c.Interrupted(t, id, text, uuid)
	default:
		ev := event.Event{Kind: event.KindToolDone, ID: id, OK: !b.IsError, Output: text, Extra: UUIDField(uuid), DurationMS: duration}
		if b.IsError {
			ev.Error = text
		}
		c.Emit(t, ev)
		c.Resolved(id)
	}
	return false
}
