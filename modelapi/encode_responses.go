package modelapi

import (
	"fmt"
	"strings"
)

// responsesStream writes an OpenAI Responses stream: response.created,
// response.in_progress; a message item (output_item.added,
// content_part.added, output_text.delta…, output_text.done,
// content_part.done, output_item.done); a function_call item per call
// (output_item.added, function_call_arguments.delta and .done,
// output_item.done); response.completed with the output and usage.
type responsesStream struct {
	s       *sink
	m       meta
	seq     int   // sequence_number of the next event
	out     []any // the items done, for response.completed
	msgOpen bool
	sent    strings.Builder
}

func (e *responsesStream) ev(typ string, kv ...any) {
	e.s.sse(typ, append(o("type", typ, "sequence_number", e.seq), o(kv...)...))
	e.seq++
}

func (e *responsesStream) begin() {
	e.ev("response.created", "response", responsesObject(e.m, "in_progress", nil, nil))
	e.ev("response.in_progress", "response", responsesObject(e.m, "in_progress", nil, nil))
}

func (e *responsesStream) msgID() string { return "msg_" + idPart(e.m.id) }

func (e *responsesStream) text(delta string) {
	if delta == "" {
		return
	}
	n := len(e.out)
	if !e.msgOpen {
		e.msgOpen = true
		e.ev("response.output_item.added", "output_index", n, "item", responsesMessage(e.msgID(), "in_progress", nil))
		e.ev("response.content_part.added", "item_id", e.msgID(), "output_index", n, "content_index", 0, "part", outputText(""))
	}
	e.sent.WriteString(delta)
	e.ev("response.output_text.delta", "item_id", e.msgID(), "output_index", n, "content_index", 0, "delta", delta, "logprobs", []any{})
}

func (e *responsesStream) closeMessage() {
	if !e.msgOpen {
		return
	}
	n, text := len(e.out), e.sent.String()
	e.ev("response.output_text.done", "item_id", e.msgID(), "output_index", n, "content_index", 0, "text", text, "logprobs", []any{})
	e.ev("response.content_part.done", "item_id", e.msgID(), "output_index", n, "content_index", 0, "part", outputText(text))
	item := responsesMessage(e.msgID(), "completed", &text)
	e.ev("response.output_item.done", "output_index", n, "item", item)
	e.out = append(e.out, item)
	e.msgOpen = false
}

func (e *responsesStream) call(i int, c Call) {
	n, id, args := len(e.out), e.callItemID(i), argString(c)
	e.ev("response.output_item.added", "output_index", n, "item", responsesCall(id, "in_progress", c, ""))
	e.ev("response.function_call_arguments.delta", "item_id", id, "output_index", n, "delta", args)
	e.ev("response.function_call_arguments.done", "item_id", id, "output_index", n, "arguments", args)
	item := responsesCall(id, "completed", c, args)
	e.ev("response.output_item.done", "output_index", n, "item", item)
	e.out = append(e.out, item)
}

func (e *responsesStream) callItemID(i int) string { return fmt.Sprintf("fc_%s_%d", idPart(e.m.id), i) }

func (e *responsesStream) finish(r Reply) {
	e.text(r.Text)
	e.closeMessage()
	for i, c := range r.Calls {
		e.call(i, c)
	}
	usage := responsesUsage(e.m.inTok, outTokens(e.sent.String(), r.Calls))
	e.ev("response.completed", "response", responsesObject(e.m, "completed", e.out, usage))
}

// responsesWhole is the response object of a non-streamed request.
func responsesWhole(r Reply, m meta) any {
	e := &responsesStream{m: m}
	var out []any
	if r.Text != "" {
		out = append(out, responsesMessage(e.msgID(), "completed", &r.Text))
	}
	for i, c := range r.Calls {
		out = append(out, responsesCall(e.callItemID(i), "completed", c, argString(c)))
	}
	return responsesObject(m, "completed", out, responsesUsage(m.inTok, outTokens(r.Text, r.Calls)))
}

// responsesObject is a response object; usage nil is null.
func responsesObject(m meta, status string, out []any, usage any) obj {
	if out == nil {
		out = []any{}
	}
	return o("id", m.id, "object", "response", "created_at", created, "status", status,
		"error", nil, "incomplete_details", nil, "model", m.model, "output", out,
		"parallel_tool_calls", true, "usage", usage)
}

// responsesMessage is an assistant message item; text nil means no
// content yet.
func responsesMessage(id, status string, text *string) obj {
	content := []any{}
	if text != nil {
		content = append(content, outputText(*text))
	}
	return o("id", id, "type", "message", "status", status, "role", "assistant", "content", content)
}

func outputText(text string) obj {
	return o("type", "output_text", "annotations", []any{}, "logprobs", []any{}, "text", text)
}

// responsesCall is a function_call item, with Codex's "namespace" member
// when the call has one.
func responsesCall(id, status string, c Call, args string) obj {
	item := o("id", id, "type", "function_call", "status", status, "arguments", args, "call_id", c.ID, "name", c.Name)
	if c.Namespace != "" {
		item = append(item, member{"namespace", c.Namespace})
	}
	return item
}

func responsesUsage(in, out int) obj {
	return o("input_tokens", in, "input_tokens_details", o("cached_tokens", 0),
		"output_tokens", out, "output_tokens_details", o("reasoning_tokens", 0), "total_tokens", in+out)
}
