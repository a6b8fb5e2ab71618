package modelapi

import "strings"

// chatStream writes an OpenAI Chat Completions stream of
// chat.completion.chunk objects: a role chunk, content deltas, per call a
// tool_calls delta with index, id, type and name then one with the
// arguments, a chunk with finish_reason (tool_calls or stop), a usage
// chunk (empty choices), and data: [DONE].
type chatStream struct {
	s    *sink
	m    meta
	sent strings.Builder
}

func (e *chatStream) chunk(delta obj, finish any) {
	choice := o("index", 0, "delta", delta, "logprobs", nil, "finish_reason", finish)
	e.s.sse("", append(e.head(), member{"choices", []any{choice}}))
}

func (e *chatStream) head() obj {
	return o("id", e.m.id, "object", "chat.completion.chunk", "created", created, "model", e.m.model)
}

func (e *chatStream) begin() { e.chunk(o("role", "assistant", "content", ""), nil) }

func (e *chatStream) text(delta string) {
	if delta != "" {
		e.sent.WriteString(delta)
		e.chunk(o("content", delta), nil)
	}
}

func (e *chatStream) finish(r Reply) {
	e.text(r.Text)
	for i, c := range r.Calls {
		e.chunk(o("tool_calls", []any{o("index", i, "id", c.ID, "type", "function",
			"function", o("name", c.Name, "arguments", ""))}), nil)
		e.chunk(o("tool_calls", []any{o("index", i, "function", o("arguments", argString(c)))}), nil)
	}
	e.chunk(o(), chatFinish(r))
	e.s.sse("", append(e.head(), member{"choices", []any{}}, member{"usage", chatUsage(e.m.inTok, outTokens(e.sent.String(), r.Calls))}))
	e.s.write([]byte("data: [DONE]\n\n"))
}

func chatFinish(r Reply) string {
	if len(r.Calls) > 0 {
		return "tool_calls"
	}
	return "stop"
}

func chatUsage(in, out int) obj {
	return o("prompt_tokens", in, "completion_tokens", out, "total_tokens", in+out)
}

// chatWhole is the chat.completion of a non-streamed request.
func chatWhole(r Reply, m meta) any {
	var content any
	if r.Text != "" {
		content = r.Text
	}
	msg := o("role", "assistant", "content", content)
	if len(r.Calls) > 0 {
		var calls []any
		for _, c := range r.Calls {
			calls = append(calls, o("id", c.ID, "type", "function", "function", o("name", c.Name, "arguments", argString(c))))
		}
		msg = append(msg, member{"tool_calls", calls})
	}
	choice := o("index", 0, "message", msg, "logprobs", nil, "finish_reason", chatFinish(r))
	return o("id", m.id, "object", "chat.completion", "created", created, "model", m.model,
		"choices", []any{choice}, "usage", chatUsage(m.inTok, outTokens(r.Text, r.Calls)))
}
