package claudestream

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolsim/toolsim/formats/internal/sse"
)

// line is one stream-json message as decoded by encoding/json.
type line struct {
	Type            string          `json:"type"`
	Subtype         string          `json:"subtype"`
	SessionID       string          `json:"session_id"`
	UUID            string          `json:"uuid"`
	ParentToolUseID *string         `json:"parent_tool_use_id"`
	Message         *message        `json:"message"`
	ToolUseResult   json.RawMessage `json:"tool_use_result"`

	// system init
	Model             string          `json:"model"`
	CWD               string          `json:"cwd"`
	Tools             json.RawMessage `json:"tools"`
	PermissionMode    string          `json:"permissionMode"`
	ClaudeCodeVersion string          `json:"claude_code_version"`

	// result
	IsError           bool            `json:"is_error"`
	Result            string          `json:"result"`
	DurationMS        *int64          `json:"duration_ms"`
	NumTurns          *int64          `json:"num_turns"`
	TotalCostUSD      *float64        `json:"total_cost_usd"`
	PermissionDenials []denial        `json:"permission_denials"`
	Errors            json.RawMessage `json:"errors"`
}

type message struct {
	ID         string          `json:"id"`
	Model      string          `json:"model"`
	StopReason string          `json:"stop_reason"`
	Content    json.RawMessage `json:"content"`
}

type denial struct {
	ToolName  string          `json:"tool_name"`
	ToolUseID string          `json:"tool_use_id"`
	ToolInput json.RawMessage `json:"tool_input,omitempty"`
}

// record is a line reduced to what the mapping uses (the same shape as the
// transcript importer's, so the two mappings read alike).
type record struct {
	line   int
	typ    string
	uuid   string
	msgID  string
	stop   string
	blocks []block

	interrupted bool
	durationMS  int64
	hasDuration bool
}

type block struct {
	typ       string
	text      string
	id, name  string
	input     []byte
	toolUseID string
	isError   bool
}

// decode parses one line. An error means the line is not JSON. A member
// of the wrong type leaves the rest decoded and is described by partial.
func decode(raw []byte) (l *line, partial string, err error) {
	l = &line{}
	if fastLine(raw, l) {
		return l, "", nil
	}
	*l = line{}
	err = json.Unmarshal(raw, l)
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return l, "", nil
	case errors.As(err, &te):
		return l, fmt.Sprintf("member %q: want %s, got a JSON %s: partly mapped", te.Field, te.Type, te.Value), nil
	default:
		return nil, "", err
	}
}

// toRecord converts a decoded user or assistant line, with what it could
// not read.
func toRecord(n int, l *line) (*record, []string) {
	r := &record{line: n, typ: l.Type, uuid: l.UUID}
	var issues []string
	if m := l.Message; m != nil {
		r.msgID, r.stop = m.ID, m.StopReason
		r.blocks, issues = content(m.Content)
	}
	if len(l.ToolUseResult) > 0 && l.ToolUseResult[0] == '{' {
		var tur struct {
			Interrupted     bool     `json:"interrupted"`
			DurationMS      *float64 `json:"durationMs"`
			TotalDurationMS *float64 `json:"totalDurationMs"` // a Task's
		}
		if json.Unmarshal(l.ToolUseResult, &tur) == nil {
			r.interrupted = tur.Interrupted
			if tur.DurationMS == nil {
				tur.DurationMS = tur.TotalDurationMS
			}
			if tur.DurationMS != nil && *tur.DurationMS >= 0 {
				r.durationMS, r.hasDuration = int64(*tur.DurationMS), true
			}
		}
	}
	return r, issues
}

// content reads message.content: a string (one text block) or an array of
// blocks.
func content(raw json.RawMessage) ([]block, []string) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, []string{"message.content: " + err.Error()}
		}
		return []block{{typ: "text", text: s}}, nil
	}
	raws, err := sse.ContentBlocks(raw) // the Messages API's content blocks
	if err != nil {
		return nil, []string{"message.content: " + err.Error()}
	}
	out := make([]block, 0, len(raws))
	var issues []string
	for _, rb := range raws {
		b := block{typ: rb.Type, text: rb.Text, id: rb.ID, name: rb.Name, input: rb.Input,
			toolUseID: rb.ToolUseID, isError: rb.IsError}
		if rb.Type == "thinking" {
			b.text = rb.Thinking
		}
		if len(rb.Content) > 0 {
			text, err := resultText(rb.Content)
			if err != nil {
				issues = append(issues, "tool_result content: "+err.Error())
			}
			b.text = text
		}
		out = append(out, b)
	}
	return out, issues
}

// resultText joins a tool_result's content: a string, or text parts joined
// by newlines with a placeholder such as "[image]" for every other part.
func resultText(raw json.RawMessage) (string, error) {
	switch raw[0] {
	case '"':
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	case '[':
		var parts []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(raw, &parts); err != nil {
			return "", err
		}
		var out []string
		for _, p := range parts {
			if p.Type == "text" {
				out = append(out, p.Text)
			} else {
				out = append(out, placeholder(p.Type))
			}
		}
		return strings.Join(out, "\n"), nil
	case 'n':
		return "", nil
	}
	return "", fmt.Errorf("want a string or an array, got %.20s", raw)
}

func placeholder(typ string) string {
	if typ == "" {
		typ = "untyped content"
	}
	return "[" + typ + "]"
}
