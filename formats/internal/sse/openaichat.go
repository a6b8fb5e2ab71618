package sse

import (
	"encoding/json"
	"slices"
)

// chatDecoder maps OpenAI Chat Completions streaming chunks.
type chatDecoder struct {
	t         *Turn
	calls     map[int]*chatCall // by tool_calls[].index
	badChoice map[int]bool      // choices other than 0 already reported
	finished  bool              // finish_reason seen
	reason    string            // the finish_reason seen
	buf       scratch
}

// chatCall is a tool call being streamed.
type chatCall struct {
	line     int
	index    int
	id, name string
	args     []byte
}

// ChatToolCall is one element of a chat delta's or message's tool_calls.
type ChatToolCall struct {
	Index    *int   `json:"index"`
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// chatChunk is one chat.completion.chunk (or an error object).
type chatChunk struct {
	ID      string          `json:"id"`
	Object  string          `json:"object"`
	Choices []chatChoice    `json:"choices"`
	Usage   json.RawMessage `json:"usage"`
	Error   *struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code"`
	} `json:"error"`
}

// chatChoice is one element of a chunk's choices.
type chatChoice struct {
	Index        int       `json:"index"`
	Delta        chatDelta `json:"delta"`
	FinishReason *string   `json:"finish_reason"`
}

// chatDelta is what a chunk adds to a choice.
type chatDelta struct {
	Content          *string         `json:"content"`
	Refusal          *string         `json:"refusal"`
	ReasoningContent *string         `json:"reasoning_content"`
	Reasoning        *string         `json:"reasoning"`
	ToolCalls        []ChatToolCall  `json:"tool_calls"`
	FunctionCall     json.RawMessage `json:"function_call"`
}

// Chat finish reasons that mean the response was cut short.
var chatCutFinish = map[string]bool{"length": true, "content_filter": true}

// event maps one event of a Chat Completions stream: a chunk, an error
// or [DONE].
func (d *chatDecoder) event(ev *Event) error {
	t := d.t
	if ev.Type != "" && ev.Type != "error" {
		return t.Problem(ev.Line, "unknown event type %q: skipped", ev.Type)
	}
	if ev.Done() {
		t.Ignore("[DONE]")
		if !d.finished { // [DONE] without a finish_reason: the calls are complete
			return d.finish("")
		}
		return nil
	}
	var c chatChunk
	if !fastChatChunk(ev.Data, &c, &d.buf) {
		c = chatChunk{}
		if ok, err := unmarshal(t, ev, &c); !ok {
			return err
		}
	}
	if c.Error != nil || ev.Type == "error" {
		t.Fail(chatErrorMessage(&c))
		return nil
	}
	if c.Object != "" && c.Object != "chat.completion.chunk" {
		return t.Problem(ev.DataLine, "unknown object %q: skipped", c.Object)
	}
	if !t.Active() && !d.finished {
		if err := t.Begin(ev.Line, c.ID); err != nil {
			return err
		}
	}
	if len(c.Choices) == 0 {
		if len(c.Usage) > 0 && string(c.Usage) != "null" {
			t.Ignore("usage")
		} else {
			t.Ignore("empty chunk")
		}
		return nil
	}
	for i := range c.Choices {
		if err := d.choice(ev, &c.Choices[i]); err != nil {
			return err
		}
	}
	return nil
}

// chatErrorMessage words an error chunk: its type and message.
func chatErrorMessage(c *chatChunk) string {
	msg := "error"
	if c.Error != nil {
		msg = c.Error.Message
		if c.Error.Type != "" {
			msg = c.Error.Type + ": " + msg
		}
	}
	return msg
}

// choice maps one choice of a chunk: choice 0's delta and finish reason,
// until it finished; other choices are reported once.
func (d *chatDecoder) choice(ev *Event, ch *chatChoice) error {
	t := d.t
	if ch.Index != 0 {
		if !d.badChoice[ch.Index] {
			d.badChoice[ch.Index] = true
			return t.Problem(ev.DataLine, "choice %d not mapped: only choice 0 is (n > 1)", ch.Index)
		}
		return nil
	}
	if d.finished {
		return d.afterFinish(ev, ch)
	}
	if err := d.delta(ev, &ch.Delta); err != nil {
		return err
	}
	if ch.FinishReason != nil && *ch.FinishReason != "" {
		return d.finish(*ch.FinishReason)
	}
	return nil
}

// afterFinish handles a chunk for choice 0 after its finish_reason. Some
// OpenAI-compatible providers send one more (usage, or the same finish
// again): one that carries no new content is counted as ignored; one that
// does (text, reasoning, tool calls, or a different finish reason) is
// reported and skipped.
func (d *chatDecoder) afterFinish(ev *Event, ch *chatChoice) error {
	dl := &ch.Delta
	nonEmpty := func(p *string) bool { return p != nil && *p != "" }
	content := nonEmpty(dl.Content) || nonEmpty(dl.Refusal) || nonEmpty(dl.ReasoningContent) ||
		nonEmpty(dl.Reasoning) || len(dl.ToolCalls) > 0 || len(dl.FunctionCall) > 0 && string(dl.FunctionCall) != "null"
	reason := ""
	if ch.FinishReason != nil {
		reason = *ch.FinishReason
	}
	if !content && (reason == "" || reason == d.reason) {
		d.t.Ignore("chunk after finish_reason")
		return nil
	}
	if !content {
		return d.t.Problem(ev.DataLine, "a chunk for choice 0 after its finish_reason %q gives another, %q: skipped", d.reason, reason)
	}
	return d.t.Problem(ev.DataLine, "a chunk for choice 0 after its finish_reason carries new content: skipped")
}

// delta maps what a chunk adds to choice 0: reasoning, text, refusal and
// tool call deltas.
func (d *chatDecoder) delta(ev *Event, dl *chatDelta) error {
	t := d.t
	if dl.ReasoningContent != nil {
		t.Thinking(*dl.ReasoningContent)
	}
	if dl.Reasoning != nil {
		t.Thinking(*dl.Reasoning)
	}
	if dl.Content != nil {
		t.Text(*dl.Content)
	}
	if dl.Refusal != nil {
		t.Text(*dl.Refusal)
	}
	for j := range dl.ToolCalls {
		if err := d.toolDelta(ev, &dl.ToolCalls[j], j); err != nil {
			return err
		}
	}
	if len(dl.FunctionCall) > 0 && string(dl.FunctionCall) != "null" {
		return t.Problem(ev.DataLine, "legacy function_call delta (no call id) not mapped")
	}
	return nil
}

// toolDelta joins one tool_calls delta to its call by index: id and name
// come in the call's first delta, arguments are concatenated.
func (d *chatDecoder) toolDelta(ev *Event, tc *ChatToolCall, pos int) error {
	t := d.t
	idx := pos
	if tc.Index != nil {
		idx = *tc.Index
	}
	c := d.calls[idx]
	if c == nil {
		c = &chatCall{line: ev.DataLine, index: idx, id: tc.ID, name: tc.Function.Name}
		d.calls[idx] = c
	} else {
		if tc.ID != "" && tc.ID != c.id {
			if c.id != "" {
				if err := t.Problem(ev.DataLine, "tool call index %d: a second id %q (first %q): keeping the first", idx, tc.ID, c.id); err != nil {
					return err
				}
			} else {
				c.id = tc.ID
			}
		}
		if tc.Function.Name != "" && tc.Function.Name != c.name {
			if c.name != "" {
				if err := t.Problem(ev.DataLine, "tool call index %d: a second name %q (first %q): keeping the first", idx, tc.Function.Name, c.name); err != nil {
					return err
				}
			} else {
				c.name = tc.Function.Name
			}
		}
	}
	c.args = append(c.args, tc.Function.Arguments...)
	return nil
}

// finish ends choice 0: its calls are complete, in index order.
func (d *chatDecoder) finish(reason string) error {
	d.finished, d.reason = true, reason
	if err := d.flush(false); err != nil {
		return err
	}
	if chatCutFinish[reason] {
		d.t.Notice("finish_reason " + reason + ": the response was cut short")
	}
	d.t.End()
	return nil
}

func (d *chatDecoder) flush(incomplete bool) error {
	idx := make([]int, 0, len(d.calls))
	for i := range d.calls {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	for _, i := range idx {
		c := d.calls[i]
		delete(d.calls, i)
		if err := d.t.ToolCall(Call{Line: c.line, ID: c.id, Name: c.name, Args: c.args, Incomplete: incomplete}); err != nil {
			return err
		}
	}
	return nil
}

func (d *chatDecoder) end(last int) error {
	if err := d.flush(true); err != nil {
		return err
	}
	return d.t.Finish(last)
}
