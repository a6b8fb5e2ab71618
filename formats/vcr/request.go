package vcr

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolsim/toolsim/formats/internal/sse"
	"github.com/toolsim/toolsim/internal/jsonscan"
)

// message is one request message (or Responses input item), reduced to
// what the trace needs.
type message struct {
	model   bool       // produced by the model: assistant message, function_call, reasoning
	system  bool       // a system or developer message (or the request's system field): not mapped
	texts   []string   // user or assistant text
	calls   []sse.Call // the model's tool calls (history)
	results []result   // tool results
}

type result struct {
	id     string
	ok     bool
	output string
}

type request struct {
	msgs []message
	// chained: a Responses request with previous_response_id, whose input
	// holds only the new items.
	chained bool
	// gemini: a Gemini API request; contents is how many it held (the
	// index of the model content its response adds).
	gemini   bool
	contents int
}

type requestBody struct {
	System             json.RawMessage   `json:"system"`
	Instructions       string            `json:"instructions"`
	Messages           []json.RawMessage `json:"messages"`
	Input              json.RawMessage   `json:"input"`
	PreviousResponseID string            `json:"previous_response_id"`
}

// parseRequest reads a request body: Anthropic Messages or OpenAI Chat
// ("messages"), or OpenAI Responses ("input"). nil, nil: not a model
// request. A message it cannot read goes to report and takes its position
// empty. A top-level system prompt (Anthropic "system", Responses
// "instructions") becomes a first system message: it is never mapped, but
// it tells conversations apart.
func parseRequest(body []byte, url string, t *sse.Turn, report func(reason string) error) (*request, error) {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil, nil
	}
	var rb requestBody
	if !fastRequestBody(body, &rb) {
		rb = requestBody{}
		if err := json.Unmarshal(body, &rb); err != nil {
			return nil, fmt.Errorf("body is not JSON: %v", err)
		}
	}
	if rb.Messages == nil && len(rb.Input) == 0 {
		return parseGeminiRequest(body, url, t, report)
	}
	req := &request{chained: rb.PreviousResponseID != ""}
	if sys := sse.ResultText(rb.System) + rb.Instructions; sys != "" {
		req.add(&message{system: true, texts: []string{sys}})
	}
	add := func(m *message, err error) error {
		req.add(m)
		if err != nil {
			return report(err.Error())
		}
		return nil
	}
	switch {
	case rb.Messages != nil:
		for _, raw := range rb.Messages {
			if err := add(chatMessage(raw, t)); err != nil {
				return nil, err
			}
		}
	case len(rb.Input) > 0:
		var s string
		if json.Unmarshal(rb.Input, &s) == nil {
			req.add(&message{texts: []string{s}})
			break
		}
		var items []json.RawMessage
		if jerr := json.Unmarshal(rb.Input, &items); jerr != nil {
			return nil, fmt.Errorf("input is neither a string nor a list: %v", jerr)
		}
		for _, raw := range items {
			if err := add(inputItem(raw, t)); err != nil {
				return nil, err
			}
		}
	default:
		return nil, nil
	}
	return req, nil
}

// add appends m; a nil m (an ignored or unreadable message) still takes
// its position, which the next request's prefix is counted in.
func (r *request) add(m *message) {
	if m == nil {
		m = &message{}
	}
	r.msgs = append(r.msgs, *m)
}

// chatMsg is an Anthropic Messages or OpenAI Chat message.
type chatMsg struct {
	Role       string             `json:"role"`
	Content    json.RawMessage    `json:"content"`
	ToolCallID string             `json:"tool_call_id"`
	ToolCalls  []sse.ChatToolCall `json:"tool_calls"`
}

// chatMessage reads an Anthropic or OpenAI Chat message.
func chatMessage(raw json.RawMessage, t *sse.Turn) (*message, error) {
	var cm chatMsg
	if !fastChatMsg(raw, &cm) {
		cm = chatMsg{}
		if err := json.Unmarshal(raw, &cm); err != nil {
			return nil, fmt.Errorf("a message is not a JSON object: %v", err)
		}
	}
	m := &message{}
	switch cm.Role {
	case "system", "developer":
		t.Ignore("system message")
		m.system = true
	case "assistant":
		m.model = true
		for _, tc := range cm.ToolCalls {
			m.calls = append(m.calls, sse.Call{ID: tc.ID, Name: tc.Function.Name, Args: []byte(tc.Function.Arguments)})
		}
	case "tool":
		m.results = append(m.results, result{id: cm.ToolCallID, ok: true, output: sse.ResultText(cm.Content)})
		return m, nil
	case "user":
	default:
		return nil, fmt.Errorf("message role %q not mapped", cm.Role)
	}
	if s, isString := jsonscan.String(cm.Content); isString || jsonscan.IsNull(cm.Content) {
		if s != "" {
			m.texts = append(m.texts, s)
		}
		return m, nil
	}
	var blocks []sse.ContentBlock
	if len(cm.Content) > 0 && string(cm.Content) != "null" {
		var err error
		if blocks, err = sse.ContentBlocks(cm.Content); err != nil {
			return nil, fmt.Errorf("%s message content is neither a string nor a list of blocks: %v", cm.Role, err)
		}
	}
	m.addBlocks(blocks, cm.Role, t)
	return m, nil
}

// addBlocks reads the content blocks of a message: text, tool calls and
// tool results (a server tool's result included); other blocks are
// counted as ignored.
func (m *message) addBlocks(blocks []sse.ContentBlock, role string, t *sse.Turn) {
	for i := range blocks {
		bl := &blocks[i]
		switch bl.Type {
		case "text", "input_text", "output_text":
			m.texts = append(m.texts, bl.Text)
		case "tool_use", "server_tool_use", "mcp_tool_use":
			m.calls = append(m.calls, sse.Call{ID: bl.ID, Name: bl.Name, Args: bl.Input, Server: bl.Type == "server_tool_use"})
		case "tool_result", "mcp_tool_result":
			ok := !bl.IsError
			m.results = append(m.results, result{id: bl.ToolUseID, ok: ok, output: sse.ResultText(bl.Content)})
		default:
			if bl.ToolUseID != "" { // web_search_tool_result and kin, in the history
				ok, errText := sse.ServerResult(bl)
				m.results = append(m.results, result{id: bl.ToolUseID, ok: ok, output: errText})
				continue
			}
			t.Ignore(role + " " + bl.Type) // thinking, image, document, ...
		}
	}
}

type inputItemJSON struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	CallID    string          `json:"call_id"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	Action    json.RawMessage `json:"action"`
	Output    json.RawMessage `json:"output"`
	Summary   []struct {
		Text string `json:"text"`
	} `json:"summary"`
}

// inputItem reads an OpenAI Responses input item.
func inputItem(raw json.RawMessage, t *sse.Turn) (*message, error) {
	var it inputItemJSON
	if err := json.Unmarshal(raw, &it); err != nil {
		return nil, fmt.Errorf("an input item is not a JSON object: %v", err)
	}
	switch {
	case it.Type == "" || it.Type == "message":
		return chatMessage(raw, t)
	case it.Type == "reasoning":
		return &message{model: true}, nil
	case strings.HasSuffix(it.Type, "_output"):
		id := it.CallID
		if id == "" {
			id = it.ID
		}
		return &message{results: []result{{id: id, ok: true, output: sse.ResultText(it.Output)}}}, nil
	case strings.HasSuffix(it.Type, "_call"):
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
		return &message{model: true, calls: []sse.Call{{ID: id, Name: name, Args: args, Server: sse.ServerToolItems[it.Type]}}}, nil
	case it.Type == "item_reference":
		t.Ignore("item_reference")
		return nil, nil
	}
	return nil, fmt.Errorf("input item type %q not mapped", it.Type)
}
