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

// assistant maps an assistant record: its content blocks in order.
func (c *conv) assistant(t int64, r *record, it item) error {
	for _, b := range r.blocks {
		switch b.typ {
		case "text":
			c.Text(t, r.uuid, b.common(), it.scope())
		case "thinking", "redacted_thinking":
			text := b.text
			if b.typ == "redacted_thinking" {
				text = "[redacted thinking]"
			}
			switch {
			case it.side:
				c.Ignore("sub-agent thinking")
			case strings.TrimSpace(text) == "":
				c.Ignore("empty thinking") // a signature-only block: nothing to show
			default:
				c.Content(t, event.Event{Kind: event.KindThinking, Text: text, Extra: claudecode.UUIDField(r.uuid)})
			}
		case "tool_use", "server_tool_use", "mcp_tool_use":
			c.ToolStart(t, r.uuid, r.msgID, b.common(), it.scope())
		default:
			if err := c.OtherBlock(t, r.line, r.uuid, b.common()); err != nil {
				return err
			}
		}
	}
	return nil
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

// result maps a tool_result block (claudecode.Turns.Result), with the
// record's interrupted flag and duration.
func (c *conv) result(t int64, r *record, b block) {
	var d *int64
	if r.hasDuration {
		v := r.durationMS
		d = &v
	}
	if c.Result(t, r.uuid, b.common(), r.interrupted, d) {
		c.denied[b.toolUseID] = true
	}
}

// common is the block as the shared Claude code reads it.
func (b block) common() claudecode.Block {
	return claudecode.Block{Type: b.typ, Text: b.text, ID: b.id, Name: b.name, Input: b.input, ToolUseID: b.toolUseID, IsError: b.isError}
}

// scope is the item's place for the shared Claude code.
func (it item) scope() claudecode.Scope { return claudecode.Scope{Side: it.side, Parent: it.parent} }
