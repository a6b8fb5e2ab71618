package modelapi

import (
	"encoding/json"
	"fmt"
)

// anthropicBody is a Messages API request.
type anthropicBody struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	Tools        []json.RawMessage `json:"tools"`
	OutputFormat *responseFormat   `json:"output_format"`
	OutputConfig *struct {
		Format *responseFormat `json:"format"`
	} `json:"output_config"`
}

// anthropicBlock is a content block of a request message.
type anthropicBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
}

// anthropicKnown are block types that carry nothing a Request records.
var anthropicKnown = map[string]bool{
	"image": true, "document": true, "thinking": true, "redacted_thinking": true,
	"server_tool_use": true, "web_search_tool_result": true, "web_fetch_tool_result": true,
	"mcp_tool_use": true, "mcp_tool_result": true, "search_result": true,
	"container_upload": true, "code_execution_tool_result": true,
}

func parseAnthropic(r *Request, body []byte) error {
	var b anthropicBody
	if err := json.Unmarshal(body, &b); err != nil {
		return err
	}
	r.Model, r.Stream = b.Model, b.Stream
	r.Schema = schemaOf(b.OutputFormat)
	if b.OutputConfig != nil && b.OutputConfig.Format != nil {
		r.Schema = schemaOf(b.OutputConfig.Format)
	}
	anthropicTools(r, b.Tools)
	for i, m := range b.Messages {
		where := fmt.Sprintf("messages[%d]", i)
		if m.Role != "user" && m.Role != "assistant" && m.Role != "system" {
			r.unknown("%s: role %q", where, m.Role)
		}
		var s string
		if json.Unmarshal(m.Content, &s) == nil {
			anthropicText(r, m.Role, []string{s})
			continue
		}
		var blocks []anthropicBlock
		if err := json.Unmarshal(m.Content, &blocks); err != nil {
			r.unknown("%s: content is neither text nor blocks", where)
			continue
		}
		anthropicBlocks(r, where, m.Role, blocks)
	}
	return nil
}

// anthropicTools records the names of the tools offered: a tool's
// name, else its type.
func anthropicTools(r *Request, tools []json.RawMessage) {
	for i, raw := range tools {
		var t struct {
			Type string `json:"type"`
			Name string `json:"name"`
		}
		switch {
		case json.Unmarshal(raw, &t) != nil:
			r.unknown("tools[%d]: not a tool object", i)
		case t.Name != "":
			r.Tools = append(r.Tools, t.Name)
		case t.Type != "":
			r.Tools = append(r.Tools, t.Type)
		default:
			r.unknown("tools[%d]: a tool with neither name nor type", i)
		}
	}
}

// anthropicBlocks records the blocks of one message.
func anthropicBlocks(r *Request, where, role string, blocks []anthropicBlock) {
	var texts []string
	for j, bl := range blocks {
		switch {
		case bl.Type == "text":
			texts = append(texts, bl.Text)
		case bl.Type == "tool_use" && role == "assistant":
			args, err := objectArgs(bl.Input)
			if err != nil {
				r.unknown("%s.content[%d]: tool_use input is not a JSON object", where, j)
				args = json.RawMessage(`{}`)
			}
			r.Calls = append(r.Calls, Call{ID: bl.ID, Name: bl.Name, Args: args})
		case bl.Type == "tool_result":
			text, ok := contentText(bl.Content, true)
			if !ok {
				r.unknown("%s.content[%d]: tool_result content is neither text nor blocks", where, j)
				text = string(bl.Content)
			}
			r.Results = append(r.Results, Result{CallID: bl.ToolUseID, Text: text, IsError: bl.IsError})
		case !anthropicKnown[bl.Type]:
			r.unknown("%s.content[%d]: block type %q", where, j, bl.Type)
		}
	}
	anthropicText(r, role, texts)
}

// anthropicText notes the text of a user message.
func anthropicText(r *Request, role string, texts []string) {
	if role != "user" {
		return
	}
	if text := userText(texts); text != "" {
		r.LastUser = text
	}
}
