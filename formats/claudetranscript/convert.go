package claudetranscript

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
	nested map[string]bool // uuids of nested (progress) messages already mapped
}

// newConv starts the mapping onto b, counting ignored kinds in ignored.
func newConv(b *importer.Builder, ignored map[string]int) *conv {
	return &conv{Turns: claudecode.NewTurns(b, ignored), b: b, nested: map[string]bool{}}
}

// finish ends the import: the last turn is closed only when it visibly
// ended (its last record is a final assistant message and no call awaits a
// result); a file cut off mid-turn leaves the turn open, its tools live.
func (c *conv) finish() {
	c.Flush()
	if c.Open && c.LastEnds && c.NLive == 0 {
		c.Put(c.b.Now(), event.Event{Kind: event.KindTurnEnd})
		c.Open = false
	}
}

// item maps one record.
func (c *conv) item(it item) error {
	r := it.rec
	switch r.typ {
	case "user", "assistant", "system", "progress":
	default:
		return nil // ignored or unknown: counted or reported when read
	}
	if c.skip(r) {
		return nil
	}
	if r.badTS != "" {
		if err := c.b.Problem(r.line, fmt.Sprintf("timestamp %q does not parse: synthetic clock used", r.badTS)); err != nil {
			return err
		}
	}
	t := c.b.Clock(r.ts, r.hasTS)
	switch r.typ {
	case "user":
		return c.user(t, r, it)
	case "assistant":
		return c.assistant(t, r, it)
	case "system":
		c.system(t, r)
	case "progress":
		return c.progress(t, r)
	}
	return nil
}

// skip counts a record that maps to nothing, before it can move the clock.
func (c *conv) skip(r *record) bool {
	switch {
	case r.typ == "user" && r.isMeta && !hasResult(r):
		c.Ignore("user (isMeta)")
	case r.typ == "system" && r.subtype != "api_error" && r.level != "error":
		c.Ignore("system:" + r.subtype)
	case r.typ == "progress" && (r.nested == nil || r.parentTool == "" || r.nested.typ != "user" && r.nested.typ != "assistant"):
		c.Ignore("progress:" + r.dataType)
	default:
		return false
	}
	return true
}

// hasResult reports whether a record holds a tool_result block.
func hasResult(r *record) bool {
	for _, b := range r.blocks {
		if b.typ == "tool_result" {
			return true
		}
	}
	return false
}

// user maps a user record: tool results, interrupt markers and the
// prompt.
func (c *conv) user(t int64, r *record, it item) error {
	hasResult := hasResult(r)
	if r.isMeta && !hasResult {
		c.Ignore("user (isMeta)")
		return nil
	}
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
	c.userEnd(t, r, it, hasResult, prompt, markers)
	return nil
}

// userEnd maps what a user record says after its tool results: its
// interrupt markers as cancels and its prompt as a user turn (both only
// counted in a sidechain).
func (c *conv) userEnd(t int64, r *record, it item, hasResult bool, prompt, markers []string) {
	if hasResult && !it.side {
		c.LastEnds = false
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
}

// result maps a tool_result block.
func (c *conv) result(t int64, r *record, b block) {
	id, text := b.toolUseID, b.text
	switch {
	case b.isError && claudecode.IsRejection(text):
		c.Emit(t, event.Event{Kind: event.KindPermission, ID: id, State: event.PermissionDenied,
			Extra: append(claudecode.UUIDField(r.uuid), claudecode.Field("result", text))})
		c.Resolved(id)
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

// assistant maps an assistant record: an API error, or its content
// blocks in order.
func (c *conv) assistant(t int64, r *record, it item) error {
	if r.apiError {
		c.apiError(t, r, it)
		return nil
	}
	hasTool := false
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
			hasTool = true
			c.toolStart(t, r, b, it)
		default:
			if err := c.otherBlock(t, r, b); err != nil {
				return err
			}
		}
	}
	if !it.side && len(r.blocks) > 0 {
		c.LastEnds = !hasTool && r.stop != "tool_use"
	}
	return nil
}

// apiError maps an API error message: an error event with its text.
func (c *conv) apiError(t int64, r *record, it item) {
	var parts []string
	for _, b := range r.blocks {
		if b.typ == "text" {
			parts = append(parts, b.text)
		}
	}
	c.Emit(t, event.Event{Kind: event.KindError, Message: strings.Join(parts, "\n"), Extra: claudecode.UUIDField(r.uuid)})
	if !it.side {
		c.LastEnds = true
	}
}

// assistantText maps a text block: text in the main conversation, progress
// of its Task call in a sidechain.
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
// sidechain.
func (c *conv) toolStart(t int64, r *record, b block, it item) {
	args := json.RawMessage(b.input)
	extra := claudecode.UUIDField(r.uuid)
	if len(args) == 0 || args[0] != '{' {
		if len(args) > 0 && !isNull(args) {
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

// system maps an error system record (the others were skipped).
func (c *conv) system(t int64, r *record) {
	msg := r.content
	if msg == "" {
		msg = "system " + r.subtype
	}
	c.Emit(t, event.Event{Kind: event.KindError, Message: msg, Extra: claudecode.UUIDField(r.uuid)})
}

// progress maps a progress record: a sub-agent's message nested in
// agent_progress runs under the Task call parentToolUseID names; other
// progress (hooks, streamed shell output) is ignored.
func (c *conv) progress(t int64, r *record) error {
	n := r.nested // skip let through only sub-agent messages
	if n.uuid != "" {
		if c.nested[n.uuid] {
			c.Ignore("progress:" + r.dataType + " (repeated message)")
			return nil
		}
		c.nested[n.uuid] = true
	}
	if n.hasTS {
		t = c.b.Clock(n.ts, true)
	}
	it := item{rec: n, side: true, parent: r.parentTool}
	if n.typ == "user" {
		return c.user(t, n, it)
	}
	return c.assistant(t, n, it)
}
