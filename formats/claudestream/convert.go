package claudestream

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/internal/claudecode"
	"github.com/toolsim/toolsim/importer"
)

// conv maps records with the shared Claude Code turn machinery.
type conv struct {
	*claudecode.Turns
	b      *importer.Builder
	denied map[string]bool // ids already shown as denied
}

func newConv(b *importer.Builder, ignored map[string]int) *conv {
	return &conv{Turns: claudecode.NewTurns(b, ignored), b: b, denied: map[string]bool{}}
}

// finish ends the import. Only a result line ends a run: a stream cut
// off before it leaves the turn open, its tools live.
func (c *conv) finish() { c.Flush() }

func (c *conv) user(t int64, r *record, it item) error {
	var prompt []string
	var markers []string
	for _, b := range r.blocks {
		switch b.typ {
		case "tool_result":
			c.result(t, r, b)
		case "text":
			switch {
			case claudecode.IsMarker(b.text):
				markers = append(markers, strings.TrimSpace(b.text))
			case b.text != "":
				prompt = append(prompt, b.text)
			}
		case "image", "document":
			prompt = append(prompt, placeholder(b.typ))
		default:
			prompt = append(prompt, placeholder(b.typ))
			if err := c.b.Problem(r.line, fmt.Sprintf("user content block of unknown type %q: kept as %s", b.typ, placeholder(b.typ))); err != nil {
				return err
			}
		}
	}
	for _, m := range markers {
		if it.side {
			c.Ignore("sub-agent interrupt marker")
			continue
		}
		c.Cancel(t, m, r.uuid)
	}
	if len(prompt) > 0 {
		if it.side {
			c.Ignore("sub-agent prompt")
		} else {
			c.Prompt(t, strings.Join(prompt, "\n"), r.uuid)
		}
	}
	return nil
}

// result maps a tool_result block.
func (c *conv) result(t int64, r *record, b block) {
	id, text := b.toolUseID, b.text
	switch {
	case b.isError && claudecode.IsRejection(text):
		c.Emit(t, event.Event{Kind: event.KindPermission, ID: id, State: event.PermissionDenied,
			Extra: append(claudecode.UUIDField(r.uuid), claudecode.Field("result", text))})
		c.Resolved(id)
		c.denied[id] = true
	case r.interrupted || b.isError && claudecode.IsMarker(text):
		c.Interrupted(t, id, text, r.uuid)
	default:
		ev := event.Event{Kind: event.KindToolDone, ID: id, OK: !b.isError, Output: text, Extra: claudecode.UUIDField(r.uuid)}
		if b.isError {
			ev.Error = text
		}
		if r.hasDuration {
			d := r.durationMS
			ev.DurationMS = &d
		}
		c.Emit(t, ev)
		c.Resolved(id)
	}
}

// assistant maps an assistant record: its content blocks in order.
func (c *conv) assistant(t int64, r *record, it item) error {
	for _, b := range r.blocks {
		switch b.typ {
		case "text":
			c.assistantText(t, r, b, it)
		case "thinking", "redacted_thinking":
			text := b.text
			if b.typ == "redacted_thinking" {
				text = "[redacted thinking]"
			}
			switch {
			case it.side:
				c.Ignore("sub-agent thinking")
			case text != "":
				c.Content(t, event.Event{Kind: event.KindThinking, Text: text, Extra: claudecode.UUIDField(r.uuid)})
			}
		case "tool_use", "server_tool_use", "mcp_tool_use":
			c.toolStart(t, r, b, it)
		default:
			if err := c.otherBlock(t, r, b); err != nil {
				return err
			}
		}
	}
	return nil
}

// assistantText maps a text block: text in the main conversation, progress
// of its Task call in a sub-agent's message.
func (c *conv) assistantText(t int64, r *record, b block, it item) {
	switch {
	case b.text == "":
	case !it.side:
		c.Content(t, event.Event{Kind: event.KindText, Text: b.text, Extra: claudecode.UUIDField(r.uuid)})
	case it.parent != "":
		out := b.text
		if !strings.HasSuffix(out, "\n") {
			out += "\n"
		}
		c.Emit(t, event.Event{Kind: event.KindToolProgress, ID: it.parent, Output: out, Extra: claudecode.UUIDField(r.uuid)})
	default:
		c.Ignore("sub-agent text (Task unknown)")
	}
}

// otherBlock maps a server tool's result block (*_tool_result) to its
// tool_done; any other block type is a problem.
func (c *conv) otherBlock(t int64, r *record, b block) error {
	if strings.HasSuffix(b.typ, "_tool_result") && b.toolUseID != "" {
		ev := event.Event{Kind: event.KindToolDone, ID: b.toolUseID, OK: !b.isError, Output: b.text, Extra: claudecode.UUIDField(r.uuid)}
		if b.isError {
			ev.Error = b.text
		}
		c.Emit(t, ev)
		c.Resolved(b.toolUseID)
		return nil
	}
	return c.b.Problem(r.line, fmt.Sprintf("assistant content block of unknown type %q: skipped", b.typ))
}

// toolStart maps a tool_use block: a tool_start, under its Task call in a
// sub-agent's message.
func (c *conv) toolStart(t int64, r *record, b block, it item) {
	args := json.RawMessage(b.input)
	extra := claudecode.UUIDField(r.uuid)
	if len(args) == 0 || args[0] != '{' {
		if len(args) > 0 && string(args) != "null" {
			extra = append(extra, event.Field{Key: "input", Value: args})
		}
		args = json.RawMessage(`{}`)
	}
	parent := ""
	if it.side {
		parent = it.parent
	}
	c.Content(t, event.Event{Kind: event.KindToolStart, ID: b.id, Name: b.name, Args: args,
		Batch: r.msgID, Parent: parent, Extra: extra})
	c.Started(b.id)
}

// item is one record with its sub-agent scope.
type item struct {
	rec    *record
	side   bool   // a sub-agent message (parent_tool_use_id set)
	parent string // the Task call it runs under
}

// runEnd maps a result line: it ends the run's assistant turn. A subtype
// other than success, or is_error, becomes an error notice; permission
// denials of calls still live become permission denied. It returns the
// denials it could not map: the call is unknown, or it already has a
// result other than a denial.
func (c *conv) runEnd(t int64, l *line) []denial {
	var rest []denial
	for _, d := range l.PermissionDenials {
		if c.denied[d.ToolUseID] {
			continue // already shown as denied by its result
		}
		if d.ToolUseID == "" || c.Live[d.ToolUseID] == 0 {
			rest = append(rest, d)
			continue
		}
		c.Emit(t, event.Event{Kind: event.KindPermission, ID: d.ToolUseID, State: event.PermissionDenied,
			Extra: append(claudecode.UUIDField(l.UUID), claudecode.Field("source", "permission_denials"))})
		c.Resolved(d.ToolUseID)
		c.denied[d.ToolUseID] = true
	}
	if l.Subtype != "success" || l.IsError {
		msg := "run ended: " + l.Subtype
		if l.Result != "" {
			msg += ": " + l.Result
		} else if errs := errorList(l.Errors); errs != "" {
			msg += ": " + errs
		}
		c.Emit(t, event.Event{Kind: event.KindError, Message: msg, Extra: claudecode.UUIDField(l.UUID)})
	}
	c.CloseTurn(t)
	return rest
}

// errorList joins a result's "errors" member when it is a list of strings.
func errorList(raw json.RawMessage) string {
	var errs []string
	if json.Unmarshal(raw, &errs) != nil {
		return ""
	}
	return strings.Join(errs, "; ")
}
