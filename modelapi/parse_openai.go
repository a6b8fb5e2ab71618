package modelapi

import (
	"encoding/json"
	"fmt"
)

// responsesBody is a Responses API request.
type responsesBody struct {
	Model  string            `json:"model"`
	Stream bool              `json:"stream"`
	Input  json.RawMessage   `json:"input"`
	Tools  []json.RawMessage `json:"tools"`
	Text   *struct {
		Format *responseFormat `json:"format"`
	} `json:"text"`
}

// responsesItem is an element of a Responses request's input.
type responsesItem struct {
	Type      string          `json:"type"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Namespace string          `json:"namespace"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	Action    json.RawMessage `json:"action"`
	Output    json.RawMessage `json:"output"`
}

// responsesKnown are input item types that carry nothing a Request
// records.
var responsesKnown = map[string]bool{
	"reasoning": true, "web_search_call": true, "compaction": true, "compaction_summary": true,
	"item_reference": true, "tool_search_call": true, "tool_search_output": true,
	"image_generation_call": true, "mcp_list_tools": true, "ghost_snapshot": true,
}

func parseResponses(r *Request, body []byte) error {
	var b responsesBody
	if err := json.Unmarshal(body, &b); err != nil {
		return err
	}
	r.Model, r.Stream = b.Model, b.Stream
	if b.Text != nil {
		r.Schema = schemaOf(b.Text.Format)
	}
	r.Tools = responsesTools(r, b.Tools)
	var s string
	if json.Unmarshal(b.Input, &s) == nil {
		r.LastUser = userText([]string{s})
		return nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal(b.Input, &items); err != nil && len(b.Input) > 0 {
		return fmt.Errorf("input: neither a string nor an array of items: %w", err)
	}
	for i, raw := range items {
		var it responsesItem
		if err := json.Unmarshal(raw, &it); err != nil {
			r.unknown("input[%d]: not an item object: %v", i, err)
			continue
		}
		responsesInput(r, i, &it)
	}
	return nil
}

// responsesInput records one input item.
func responsesInput(r *Request, i int, it *responsesItem) {
	where := fmt.Sprintf("input[%d]", i)
	switch it.Type {
	case "message", "":
		if it.Role == "" {
			r.unknown("%s: item without type or role", where)
		} else if text, ok := userContent(it.Content); !ok {
			r.unknown("%s: message content is neither text nor parts", where)
		} else if it.Role == "user" && text != "" {
			r.LastUser = text
		}
	case "function_call":
		r.Calls = append(r.Calls, Call{ID: it.CallID, Name: it.Name, Namespace: it.Namespace, Args: argsObject(r, where, it.Arguments)})
	case "custom_tool_call":
		args, _ := marshal(map[string]string{"input": it.Input})
		r.Calls = append(r.Calls, Call{ID: it.CallID, Name: it.Name, Args: args})
	case "local_shell_call":
		r.Calls = append(r.Calls, Call{ID: it.CallID, Name: "local_shell", Args: compactJSON(it.Action)})
	case "function_call_output", "custom_tool_call_output", "local_shell_call_output":
		r.Results = append(r.Results, responsesResult(r, where, it))
	default:
		if !responsesKnown[it.Type] {
			r.unknown("%s: item type %q", where, it.Type)
		}
	}
}

// responsesResult reads a *_output item: output a string, content items,
// or an object {content, success}.
func responsesResult(r *Request, where string, it *responsesItem) Result {
	res := Result{CallID: it.CallID}
	if text, ok := contentText(it.Output, true); ok {
		res.Text = text
		return res
	}
	var payload struct {
		Content json.RawMessage `json:"content"`
		Success *bool           `json:"success"`
	}
	if json.Unmarshal(it.Output, &payload) != nil {
		r.unknown("%s: output is neither text, content items nor {content, success}", where)
		res.Text = string(it.Output)
		return res
	}
	res.Text, _ = contentText(payload.Content, true)
	res.IsError = payload.Success != nil && !*payload.Success
	return res
}

// responsesTools flattens a Responses tools list (see Request.Tools).
func responsesTools(r *Request, tools []json.RawMessage) []string {
	var names []string
	for i, raw := range tools {
		var t struct {
			Type     string            `json:"type"`
			Name     string            `json:"name"`
			Tools    []json.RawMessage `json:"tools"`
			Function *struct {
				Name string `json:"name"`
			} `json:"function"`
		}
		if json.Unmarshal(raw, &t) != nil {
			r.unknown("tools[%d]: not a tool object", i)
			continue
		}
		switch {
		case t.Type == "namespace":
			for _, sub := range responsesTools(r, t.Tools) {
				names = append(names, t.Name+"."+sub)
			}
		case t.Name != "":
			names = append(names, t.Name)
		case t.Function != nil && t.Function.Name != "":
			names = append(names, t.Function.Name)
		case t.Type != "":
			names = append(names, t.Type)
		default:
			r.unknown("tools[%d]: a tool with neither name nor type", i)
		}
	}
	return names
}

// chatBody is a Chat Completions request.
type chatBody struct {
	Model     string            `json:"model"`
	Stream    bool              `json:"stream"`
	Messages  []json.RawMessage `json:"messages"`
	Tools     []json.RawMessage `json:"tools"`
	Functions []struct {
		Name string `json:"name"`
	} `json:"functions"`
	ResponseFormat *responseFormat `json:"response_format"`
}

// chatMessage is an element of a Chat request's messages.
type chatMessage struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	ToolCalls []struct {
		ID       string `json:"id"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
	ToolCallID string `json:"tool_call_id"`
}

func parseChat(r *Request, body []byte) error {
	var b chatBody
	if err := json.Unmarshal(body, &b); err != nil {
		return err
	}
	r.Model, r.Stream, r.Schema = b.Model, b.Stream, schemaOf(b.ResponseFormat)
	for i, raw := range b.Tools {
		var t struct {
			Type     string `json:"type"`
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		}
		switch {
		case json.Unmarshal(raw, &t) != nil:
			r.unknown("tools[%d]: not a tool object", i)
		case t.Function.Name != "":
			r.Tools = append(r.Tools, t.Function.Name)
		default:
			r.unknown("tools[%d]: a tool without function.name (type %q)", i, t.Type)
		}
	}
	for _, f := range b.Functions {
		r.Tools = append(r.Tools, f.Name)
	}
	for i, raw := range b.Messages {
		var m chatMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			r.unknown("messages[%d]: not a message object: %v", i, err)
			continue
		}
		chatInput(r, i, &m)
	}
	return nil
}

// chatInput records one message.
func chatInput(r *Request, i int, m *chatMessage) {
	where := fmt.Sprintf("messages[%d]", i)
	text, ok := contentText(m.Content, m.Role == "tool" || m.Role == "function")
	if !ok {
		r.unknown("%s: content is neither text nor parts", where)
	}
	switch m.Role {
	case "user":
		if text, _ := userContent(m.Content); text != "" {
			r.LastUser = text
		}
	case "assistant":
		for j, tc := range m.ToolCalls {
			r.Calls = append(r.Calls, Call{ID: tc.ID, Name: tc.Function.Name,
				Args: argsObject(r, fmt.Sprintf("%s.tool_calls[%d]", where, j), tc.Function.Arguments)})
		}
	case "tool":
		r.Results = append(r.Results, Result{CallID: m.ToolCallID, Text: text})
	case "function":
		r.Results = append(r.Results, Result{Name: m.Name, Text: text})
	case "system", "developer":
	default:
		r.unknown("%s: role %q", where, m.Role)
	}
}
