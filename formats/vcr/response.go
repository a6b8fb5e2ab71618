package vcr

import (
	"encoding/json"
	"strings"

	"github.com/toolsim/toolsim/formats/internal/sse"
)

// wholeResponse covers the three non-streamed response bodies: an
// Anthropic message, an OpenAI chat.completion and an OpenAI response.
type wholeResponse struct {
	ID         string             `json:"id"`
	Type       string             `json:"type"`   // Anthropic: "message"
	Object     string             `json:"object"` // "chat.completion", "response"
	Content    []sse.ContentBlock `json:"content"`
	StopReason string             `json:"stop_reason"`
	Choices    []struct {
		Index   int `json:"index"`
		Message struct {
			Content          *string            `json:"content"`
			Refusal          *string            `json:"refusal"`
			ReasoningContent *string            `json:"reasoning_content"`
			ToolCalls        []sse.ChatToolCall `json:"tool_calls"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Output []struct {
		sse.ResponsesItem
		Role    string `json:"role"`
		Content []struct {
			Type    string `json:"type"`
			Text    string `json:"text"`
			Refusal string `json:"refusal"`
		} `json:"content"`
		Summary []struct {
			Text string `json:"text"`
		} `json:"summary"`
	} `json:"output"`
	sse.ResponsesOutcome
}

// jsonResponse maps a non-streamed response body; ok is false when the
// body is none of the three shapes. line is the body's first line.
func (s *state) jsonResponse(body []byte, line int) (ok bool, err error) {
	var w wholeResponse
	if json.Unmarshal(body, &w) != nil {
		return false, nil
	}
	switch {
	case w.Type == "message":
		return true, s.wholeMessage(&w, line)
	case w.Object == "chat.completion":
		return true, s.wholeChat(&w, line)
	case w.Object == "response":
		return true, s.wholeResponses(&w, line)
	}
	if msg := errorMessage(body); msg != "" {
		s.t.Fail(msg)
		return true, nil
	}
	return false, nil
}

// wholeMessage maps a whole Anthropic message: its content blocks in
// order.
func (s *state) wholeMessage(w *wholeResponse, line int) error {
	t := s.t
	if err := t.Begin(line, w.ID); err != nil {
		return err
	}
	for i := range w.Content {
		cb := &w.Content[i]
		switch {
		case cb.Type == "text":
			t.Text(cb.Text)
		case cb.Type == "thinking":
			t.Thinking(cb.Thinking)
		case cb.Type == "tool_use" || cb.Type == "server_tool_use" || cb.Type == "mcp_tool_use":
			if err := t.ToolCall(sse.Call{Line: line, ID: cb.ID, Name: cb.Name, Args: cb.Input, Server: cb.Type == "server_tool_use"}); err != nil {
				return err
			}
		case cb.ToolUseID != "":
			ok, errText := sse.ServerResult(cb)
			t.ToolDone(cb.ToolUseID, ok, "", errText)
		default:
			t.Ignore("content block " + cb.Type)
		}
	}
	if cut[w.StopReason] {
		t.Notice("stop_reason " + w.StopReason + ": the response was cut short")
	}
	t.End()
	return nil
}

// wholeChat maps a whole OpenAI chat.completion: choice 0's reasoning,
// text and tool calls (other choices are problems).
func (s *state) wholeChat(w *wholeResponse, line int) error {
	t := s.t
	if err := t.Begin(line, w.ID); err != nil {
		return err
	}
	for i := range w.Choices {
		ch := &w.Choices[i]
		if ch.Index != 0 {
			if err := t.Problem(line, "choice %d not mapped: only choice 0 is (n > 1)", ch.Index); err != nil {
				return err
			}
			continue
		}
		msg := &ch.Message
		for _, p := range []*string{msg.ReasoningContent} {
			if p != nil {
				t.Thinking(*p)
			}
		}
		for _, p := range []*string{msg.Content, msg.Refusal} {
			if p != nil {
				t.Text(*p)
			}
		}
		for _, tc := range msg.ToolCalls {
			if err := t.ToolCall(sse.Call{Line: line, ID: tc.ID, Name: tc.Function.Name, Args: []byte(tc.Function.Arguments)}); err != nil {
				return err
			}
		}
		if cut[ch.FinishReason] {
			t.Notice("finish_reason " + ch.FinishReason + ": the response was cut short")
		}
	}
	t.End()
	return nil
}

// wholeResponses maps a whole OpenAI response: its output items in order,
// then its status.
func (s *state) wholeResponses(w *wholeResponse, line int) error {
	t := s.t
	if err := t.Begin(line, w.ID); err != nil {
		return err
	}
	for i := range w.Output {
		it := &w.Output[i]
		switch {
		case it.Type == "message":
			for _, c := range it.Content {
				t.Text(c.Text + c.Refusal)
			}
		case it.Type == "reasoning":
			for _, sm := range it.Summary {
				t.Thinking(sm.Text)
			}
		case strings.HasSuffix(it.Type, "_call"):
			if err := s.responsesCall(&it.ResponsesItem, line); err != nil {
				return err
			}
		default:
			if err := t.Problem(line, "unknown output item type %q: skipped", it.Type); err != nil {
				return err
			}
		}
	}
	s.responsesStatus(w)
	return nil
}

// responsesStatus ends a whole OpenAI response by its status: failed,
// incomplete (cut short) or done.
func (s *state) responsesStatus(w *wholeResponse) {
	t := s.t
	switch {
	case w.Status == "failed":
		t.Fail(w.Failure())
	case w.Status == "incomplete":
		t.Notice(w.Incomplete())
		t.End()
	default:
		t.End()
	}
}

// cut are stop and finish reasons that mean a response was cut short.
var cut = map[string]bool{"max_tokens": true, "model_context_window_exceeded": true, "refusal": true, "length": true, "content_filter": true}

// responsesCall emits a tool call item of a whole Responses response.
func (s *state) responsesCall(it *sse.ResponsesItem, line int) error {
	t := s.t
	id := it.CallID
	if id == "" {
		id = it.ID
	}
	name := it.Name
	if name == "" {
		name = strings.TrimSuffix(it.Type, "_call")
	}
	args := []byte(it.Arguments)
	switch {
	case it.Type == "custom_tool_call":
		args, _ = json.Marshal(map[string]string{"input": it.Input})
	case it.Type != "function_call":
		args = it.Action
	}
	server := sse.ServerToolItems[it.Type]
	c := sse.Call{Line: line, ID: id, Name: name, Args: args, Server: server}
	if it.ID != "" && it.ID != id {
		c.Extra = append(c.Extra, sse.StringField("item_id", it.ID))
	}
	if err := t.ToolCall(c); err != nil {
		return err
	}
	if server {
		ok := it.Status != "failed" && it.Status != "incomplete"
		errText := ""
		if !ok {
			errText = it.Status
		}
		t.ToolDone(id, ok, "", errText)
	}
	return nil
}

// errorMessage is the message of an API error body: Anthropic
// {"type":"error","error":{"type","message"}} or OpenAI
// {"error":{"message","type","code"}}; empty if the body is neither.
func errorMessage(body []byte) string {
	var e struct {
		Error *struct {
			Type    string `json:"type"`
			Message string `json:"message"`
			Code    any    `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(body, &e) != nil || e.Error == nil {
		return ""
	}
	return strings.TrimPrefix(e.Error.Type+": "+e.Error.Message, ": ")
}
