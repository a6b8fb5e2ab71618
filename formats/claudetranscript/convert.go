package claudetranscript

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/internal/claudecode"
	"github.com/toolsim/toolsim/importer"
)

// conv maps records with the shared Claude Code turn machinery.
type conv struct {
	*claudecode.Turns
	b        *importer.Builder
	nested   map[string]bool // uuids of nested (progress) messages already mapped
	boundary *record         // a compact_boundary waiting for its summary
}

// newConv starts the mapping onto b, counting ignored kinds in ignored.
func newConv(b *importer.Builder, ignored map[string]int) *conv {
	return &conv{Turns: claudecode.NewTurns(b, ignored), b: b, nested: map[string]bool{}}
}

// finish ends the import: the last turn is closed only when it visibly
// ended (its last record is a final assistant message and no call awaits a
// result); a file cut off mid-turn leaves the turn open, its tools live.
func (c *conv) finish() {
	c.compact(c.b.Now(), nil)
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
	if c.boundary != nil && !r.compactSummary {
		c.compact(c.b.Now(), nil) // a boundary without its summary
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
	case r.typ == "system" && r.subtype != "api_error" && r.level != "error" && r.subtype != "compact_boundary":
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
	if r.compactSummary && !it.side {
		c.compact(t, r)
		return nil
	}
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
				prompt = append(prompt, commandText(b.text))
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

// commandTag finds the slash command Claude Code records as
// "<command-name>/compact</command-name> … <command-args>ARGS</command-args>".
var commandTag = regexp.MustCompile(`(?s)^\s*<command-name>([^<]*)</command-name>.*?(?:<command-args>([^<]*)</command-args>)?\s*$`)

// commandText is a prompt as the user typed it: a recorded slash command
// becomes "/name args"; other text is kept.
func commandText(text string) string {
	m := commandTag.FindStringSubmatch(text)
	if m == nil {
		return text
	}
	return strings.TrimSpace(strings.TrimSpace(m[1]) + " " + strings.TrimSpace(m[2]))
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
				c.Ignore("empty thinking")
			default:
				c.Content(t, event.Event{Kind: event.KindThinking, Text: text, Extra: claudecode.UUIDField(r.uuid)})
			}
		case "tool_use", "server_tool_use", "mcp_tool_use":
			hasTool = true
			c.ToolStart(t, r.uuid, r.msgID, b.common(), it.scope())
		default:
			if err := c.OtherBlock(t, r.line, r.uuid, b.common()); err != nil {
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

// compact maps a /compact: the compact_boundary waiting in c.boundary and
// summary, the synthetic user message that carries the summary (nil when
// none came), become one compact event between turns. Nothing is emitted
// when neither is there.
func (c *conv) compact(t int64, summary *record) {
	if c.boundary == nil && summary == nil {
		return
	}
	c.CloseTurn(t)
	ev := event.Event{Kind: event.KindCompact}
	if b := c.boundary; b != nil {
		ev.Extra = append(ev.Extra, claudecode.Field("boundary_uuid", b.uuid))
		c.boundary = nil
	}
	if summary != nil {
		var parts []string
		for _, b := range summary.blocks {
			if b.typ == "text" {
				parts = append(parts, b.text)
			}
		}
		ev.Text = strings.Join(parts, "\n")
		ev.Extra = append(ev.Extra, claudecode.UUIDField(summary.uuid)...)
	}
	c.Put(t, ev)
}

// system maps an error system record, or notes a compact boundary (the
// others were skipped).
func (c *conv) system(t int64, r *record) {
	if r.subtype == "compact_boundary" {
		c.compact(t, nil) // an earlier boundary that got no summary
		c.boundary = r
		return
	}
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

// result maps a tool_result block (claudecode.Turns.Result), with the
// record's interrupted flag and duration.
func (c *conv) result(t int64, r *record, b block) {
	var d *int64
	if r.hasDuration {
		v := r.durationMS
		d = &v
	}
	c.Result(t, r.uuid, b.common(), r.interrupted, d)
}

// common is the block as the shared Claude code reads it.
func (b block) common() claudecode.Block {
	return claudecode.Block{Type: b.typ, Text: b.text, ID: b.id, Name: b.name, Input: b.input, ToolUseID: b.toolUseID, IsError: b.isError}
}

// scope is the item's place for the shared Claude code.
func (it item) scope() claudecode.Scope { return claudecode.Scope{Side: it.side, Parent: it.parent} }
