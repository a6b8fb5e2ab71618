package sse

import (
	"encoding/json"
	"slices"
	"strings"
)

// anthropicDecoder maps Anthropic Messages streaming events.
type anthropicDecoder struct {
	t      *Turn
	blocks map[int]*block // open tool blocks by content block index
	buf    scratch
}

type block struct {
	line       int
	typ        string
	id, name   string
	input      []byte // the start's "input" (used when no delta came)
	args       []byte // input_json_delta partial_json joined
	haveDeltas bool
}

type anthropicEvent struct {
	Type    string `json:"type"`
	Index   *int   `json:"index"`
	Message *struct {
		ID string `json:"id"`
	} `json:"message"`
	ContentBlock *ContentBlock `json:"content_block"`
	Delta        *struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Thinking    string `json:"thinking"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	} `json:"delta"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// ContentBlock is an Anthropic content block, as streamed in
// content_block_start and as found in a whole message.
type ContentBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// Anthropic stop reasons that mean the response was cut short.
var anthropicCutStops = map[string]bool{"max_tokens": true, "model_context_window_exceeded": true, "refusal": true}

// event maps one event of a Messages stream.
func (d *anthropicDecoder) event(ev *Event) error {
	t := d.t
	var m anthropicEvent
	if !fastAnthropic(ev.Data, &m, &d.buf) {
		m = anthropicEvent{}
		if ok, err := unmarshal(t, ev, &m); !ok {
			return err
		}
	}
	typ, err := eventType(t, ev, m.Type)
	if err != nil {
		return err
	}
	switch typ {
	case "message_start":
		id := ""
		if m.Message != nil {
			id = m.Message.ID
		}
		return t.Begin(ev.Line, id)
	case "content_block_start":
		return d.blockStart(ev, &m)
	case "content_block_delta":
		return d.blockDelta(ev, &m)
	case "content_block_stop":
		return d.blockStop(ev, &m)
	case "message_delta":
		d.messageDelta(&m)
	case "message_stop":
		if err := d.flush(true); err != nil {
			return err
		}
		t.End()
	case "ping":
		t.Ignore("ping")
	case "error":
		msg := "error"
		if m.Error != nil {
			msg = strings.TrimPrefix(m.Error.Type+": "+m.Error.Message, ": ")
		}
		t.Fail(msg)
	default:
		return t.Problem(ev.Line, "unknown event type %q: skipped", typ)
	}
	return nil
}

// blockStop maps content_block_stop: a tool call block is complete and
// starts; other blocks have nothing to close.
func (d *anthropicDecoder) blockStop(ev *Event, m *anthropicEvent) error {
	t := d.t
	if m.Index == nil {
		return t.Problem(ev.Line, "content_block_stop without an index: skipped")
	}
	b := d.blocks[*m.Index]
	if b == nil {
		t.Ignore("content_block_stop") // a text or thinking block: nothing to close
		return nil
	}
	delete(d.blocks, *m.Index)
	return d.emit(b, false)
}

// messageDelta maps message_delta: a stop reason that cut the response
// short is a notice; the rest (usage) is ignored.
func (d *anthropicDecoder) messageDelta(m *anthropicEvent) {
	t := d.t
	if m.Delta != nil && anthropicCutStops[m.Delta.StopReason] {
		t.Notice("stop_reason " + m.Delta.StopReason + ": the response was cut short")
		return
	}
	t.Ignore("message_delta")
}

// blockStart maps content_block_start.
func (d *anthropicDecoder) blockStart(ev *Event, m *anthropicEvent) error {
	t := d.t
	cb := m.ContentBlock
	if m.Index == nil || cb == nil {
		return t.Problem(ev.Line, "content_block_start without index or content_block: skipped")
	}
	if !t.Active() {
		if err := t.Problem(ev.Line, "content block before message_start"); err != nil {
			return err
		}
	}
	t.ensure(ev.Line)
	switch {
	case cb.Type == "text":
		t.Text(cb.Text)
	case cb.Type == "thinking":
		t.Thinking(cb.Thinking)
	case cb.Type == "redacted_thinking":
		t.Ignore("redacted_thinking")
	case cb.Type == "tool_use" || cb.Type == "server_tool_use" || cb.Type == "mcp_tool_use":
		if old := d.blocks[*m.Index]; old != nil {
			if err := d.emit(old, true); err != nil {
				return err
			}
		}
		d.blocks[*m.Index] = &block{line: ev.Line, typ: cb.Type, id: cb.ID, name: cb.Name, input: cb.Input}
	case cb.ToolUseID != "": // web_search_tool_result, mcp_tool_result, ...: a server tool's result
		ok, errText := ServerResult(cb)
		t.ToolDone(cb.ToolUseID, ok, "", errText)
	default:
		return t.Problem(ev.Line, "unknown content block type %q: skipped", cb.Type)
	}
	return nil
}

func (d *anthropicDecoder) blockDelta(ev *Event, m *anthropicEvent) error {
	t := d.t
	if m.Index == nil || m.Delta == nil {
		return t.Problem(ev.Line, "content_block_delta without index or delta: skipped")
	}
	switch m.Delta.Type {
	case "text_delta":
		t.ensure(ev.Line)
		t.Text(m.Delta.Text)
	case "thinking_delta":
		t.ensure(ev.Line)
		t.Thinking(m.Delta.Thinking)
	case "input_json_delta":
		b := d.blocks[*m.Index]
		if b == nil {
			return t.Problem(ev.Line, "input_json_delta for content block %d, which is not an open tool_use block: skipped", *m.Index)
		}
		b.args = append(b.args, m.Delta.PartialJSON...)
		b.haveDeltas = true
	case "signature_delta", "citations_delta":
		t.Ignore(m.Delta.Type)
	default:
		return t.Problem(ev.Line, "unknown delta type %q: skipped", m.Delta.Type)
	}
	return nil
}

// emit issues the tool_start of a tool block.
func (d *anthropicDecoder) emit(b *block, incomplete bool) error {
	args := b.args
	if !b.haveDeltas {
		args = b.input
	}
	return d.t.ToolCall(Call{Line: b.line, ID: b.id, Name: b.name, Args: args, Incomplete: incomplete, Server: b.typ == "server_tool_use"})
}

// flush emits the tool blocks never stopped, in index order.
func (d *anthropicDecoder) flush(incomplete bool) error {
	idx := make([]int, 0, len(d.blocks))
	for i := range d.blocks {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	for _, i := range idx {
		b := d.blocks[i]
		delete(d.blocks, i)
		if err := d.emit(b, incomplete); err != nil {
			return err
		}
	}
	return nil
}

func (d *anthropicDecoder) end(last int) error {
	if err := d.flush(true); err != nil {
		return err
	}
	return d.t.Finish(last)
}

// ServerResult tells whether a server tool's result block (e.g.
// web_search_tool_result) reports success: its content is an object whose
// type ends in "_error" on failure (error_code says why), or is_error is
// set (mcp_tool_result).
func ServerResult(cb *ContentBlock) (ok bool, errText string) {
	if cb.IsError {
		return false, ResultText(cb.Content)
	}
	var e struct {
		Type      string `json:"type"`
		ErrorCode string `json:"error_code"`
	}
	if json.Unmarshal(cb.Content, &e) == nil && strings.HasSuffix(e.Type, "_error") {
		if e.ErrorCode == "" {
			e.ErrorCode = e.Type
		}
		return false, e.ErrorCode
	}
	return true, ""
}

// ResultText is the text of a tool result's content: a string, or the
// text parts of a list of content blocks joined by newlines, other parts
// shown as [type].
func ResultText(content json.RawMessage) string {
	if len(content) == 0 || string(content) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(content, &parts) == nil {
		var out []string
		for _, p := range parts {
			switch {
			case p.Text != "" || p.Type == "text" || p.Type == "input_text" || p.Type == "output_text":
				out = append(out, p.Text)
			default:
				out = append(out, "["+p.Type+"]")
			}
		}
		return strings.Join(out, "\n")
	}
	return string(content)
}
