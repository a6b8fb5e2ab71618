package modelapi

import (
	"encoding/json"
	"strings"
)

// anthropicStream writes an Anthropic Messages stream: message_start
// (with usage), ping, a text block (content_block_start, text_delta…,
// content_block_stop), a tool_use block per call (content_block_start
// with empty input, one input_json_delta, content_block_stop),
// message_delta with stop_reason (tool_use or end_turn) and usage,
// message_stop.
type anthropicStream struct {
	s        *sink
	m        meta
	index    int // the index of the next content block
	textOpen bool
	sent     strings.Builder
}

func (e *anthropicStream) ev(typ string, kv ...any) {
	e.s.sse(typ, append(o("type", typ), o(kv...)...))
}

func (e *anthropicStream) begin() {
	msg := o("id", e.m.id, "type", "message", "role", "assistant", "model", e.m.model,
		"content", []any{}, "stop_reason", nil, "stop_sequence", nil,
		"usage", o("input_tokens", e.m.inTok, "cache_creation_input_tokens", 0,
			"cache_read_input_tokens", 0, "output_tokens", 1))
	e.ev("message_start", "message", msg)
	e.ev("ping")
}

func (e *anthropicStream) text(delta string) {
	if delta == "" {
		return
	}
	if !e.textOpen {
		e.textOpen = true
		e.ev("content_block_start", "index", e.index, "content_block", o("type", "text", "text", ""))
	}
	e.sent.WriteString(delta)
	e.ev("content_block_delta", "index", e.index, "delta", o("type", "text_delta", "text", delta))
}

func (e *anthropicStream) finish(r Reply) {
	e.text(r.Text)
	if e.textOpen {
		e.ev("content_block_stop", "index", e.index)
		e.index++
		e.textOpen = false
	}
	for _, c := range r.Calls {
		e.ev("content_block_start", "index", e.index,
			"content_block", o("type", "tool_use", "id", c.ID, "name", c.Name, "input", o()))
		e.ev("content_block_delta", "index", e.index,
			"delta", o("type", "input_json_delta", "partial_json", argString(c)))
		e.ev("content_block_stop", "index", e.index)
		e.index++
	}
	e.ev("message_delta", "delta", o("stop_reason", anthropicStop(r), "stop_sequence", nil),
		"usage", o("output_tokens", outTokens(e.sent.String(), r.Calls)))
	e.ev("message_stop")
}

func anthropicStop(r Reply) string {
	if len(r.Calls) > 0 {
		return "tool_use"
	}
	return "end_turn"
}

// anthropicWhole is the message of a non-streamed request.
func anthropicWhole(r Reply, m meta) any {
	content := []any{}
	if r.Text != "" {
		content = append(content, o("type", "text", "text", r.Text))
	}
	for _, c := range r.Calls {
		content = append(content, o("type", "tool_use", "id", c.ID, "name", c.Name, "input", json.RawMessage(argString(c))))
	}
	return o("id", m.id, "type", "message", "role", "assistant", "model", m.model,
		"content", content, "stop_reason", anthropicStop(r), "stop_sequence", nil,
		"usage", o("input_tokens", m.inTok, "cache_creation_input_tokens", 0,
			"cache_read_input_tokens", 0, "output_tokens", outTokens(r.Text, r.Calls)))
}
