package codextui

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/internal/codex"
)

// msg is a codex_event's msg: the members of the event types mapped.
type msg struct {
	Type             string          `json:"type"`
	Delta            string          `json:"delta"`
	Message          string          `json:"message"`
	Text             string          `json:"text"`
	Reason           string          `json:"reason"`
	CallID           string          `json:"call_id"`
	Command          json.RawMessage `json:"command"`
	Cwd              string          `json:"cwd"`
	Chunk            json.RawMessage `json:"chunk"`
	Stdout           string          `json:"stdout"`
	Stderr           string          `json:"stderr"`
	AggregatedOutput *string         `json:"aggregated_output"`
	ExitCode         *int            `json:"exit_code"`
	Duration         json.RawMessage `json:"duration"`
	Changes          map[string]any  `json:"changes"`
	Success          *bool           `json:"success"`
	Invocation       *invocation     `json:"invocation"`
	Result           json.RawMessage `json:"result"`
	Query            string          `json:"query"`
	Plan             json.RawMessage `json:"plan"`
	Explanation      *string         `json:"explanation"`
}

// invocation names an MCP tool call.
type invocation struct {
	Server    string          `json:"server"`
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
}

// codexEvent maps a codex_event line by its msg.type.
func (s *state) codexEvent(p *payload) error {
	if p == nil || p.Msg == nil || p.Msg.Type == "" {
		return s.b.Problem(s.n, "codex_event without a readable payload.msg.type: skipped")
	}
	m := p.Msg
	if s.text(m) || s.tool(m) {
		return nil
	}
	switch m.Type {
	case "task_started":
		s.closeTurn()
		s.openTurn()
	case "task_complete":
		s.closeTurn()
	case "turn_aborted":
		s.openTurn()
		s.emit(event.Event{Kind: event.KindCancel, Reason: orDefault(m.Reason, "turn aborted")})
		s.closeTurn()
	case "error":
		s.emit(event.Event{Kind: event.KindError, Message: orDefault(m.Message, "error")})
	case "user_message":
		if m.Message != s.lastPrompt || m.Message == "" {
			s.prompt(m.Message)
		}
		s.lastPrompt = ""
	default:
		s.ignore("codex_event " + m.Type)
	}
	return nil
}

// text maps the model's text and reasoning; it reports whether m was one.
func (s *state) text(m *msg) bool {
	switch m.Type {
	case "agent_message_delta":
		s.openTurn()
		s.textDelta = true
		s.emit(event.Event{Kind: event.KindText, Text: m.Delta})
	case "agent_message":
		if !s.textDelta && m.Message != "" {
			s.openTurn()
			s.emit(event.Event{Kind: event.KindText, Text: m.Message})
		}
		s.textDelta = false
	case "agent_reasoning_delta":
		s.openTurn()
		s.thinkDelta = true
		s.emit(event.Event{Kind: event.KindThinking, Text: m.Delta})
	case "agent_reasoning":
		if !s.thinkDelta && strings.TrimSpace(m.Text) != "" {
			s.openTurn()
			s.emit(event.Event{Kind: event.KindThinking, Text: m.Text})
		}
		s.thinkDelta = false
	default:
		return false
	}
	return true
}

// tool maps the events of tool calls; it reports whether m was one.
func (s *state) tool(m *msg) bool {
	switch m.Type {
	case "exec_approval_request":
		s.start(s.callID(m.CallID), "shell", execArgs(m))
		s.emit(event.Event{Kind: event.KindPermission, ID: m.CallID, State: event.PermissionAsked})
	case "exec_command_begin":
		s.start(s.callID(m.CallID), "shell", execArgs(m))
	case "exec_command_output_delta":
		s.emit(event.Event{Kind: event.KindToolProgress, ID: m.CallID, Output: chunkText(m.Chunk)})
	case "exec_command_end":
		s.emit(execDone(m))
	case "apply_patch_approval_request", "patch_apply_begin":
		s.start(s.callID(m.CallID), "apply_patch", patchArgs(m.Changes))
		if m.Type == "patch_apply_begin" {
			s.begun[m.CallID] = s.b.Clock(s.ts, s.ok)
		}
		if m.Type == "apply_patch_approval_request" {
			s.emit(event.Event{Kind: event.KindPermission, ID: m.CallID, State: event.PermissionAsked})
		}
	case "patch_apply_end":
		ok := m.Success == nil || *m.Success
		done := event.Event{Kind: event.KindToolDone, ID: m.CallID, OK: ok, Output: m.Stdout, Error: failText(ok, m.Stderr, "patch failed")}
		if t0, ok := s.begun[m.CallID]; ok {
			// The patch ran from its begin, not from the approval request.
			d := max(s.b.Clock(s.ts, s.ok)-t0, 0)
			done.DurationMS = &d
		}
		s.emit(done)
	case "mcp_tool_call_begin", "mcp_tool_call_end":
		s.mcp(m)
	case "web_search_begin":
		s.start(s.callID(m.CallID), "web_search", map[string]any{})
	case "web_search_end":
		s.emit(event.Event{Kind: event.KindToolUpdate, ID: m.CallID, Args: mustJSON(map[string]string{"query": m.Query})})
		s.emit(event.Event{Kind: event.KindToolDone, ID: m.CallID, OK: true})
	case "plan_update":
		id := s.callID("")
		s.start(id, "update_plan", map[string]any{"plan": m.Plan, "explanation": m.Explanation})
		s.emit(event.Event{Kind: event.KindToolDone, ID: id, OK: true})
	default:
		return false
	}
	return true
}

// mcp maps an MCP tool call's begin and end.
func (s *state) mcp(m *msg) {
	name, args := "mcp", json.RawMessage(`{}`)
	if inv := m.Invocation; inv != nil {
		name = inv.Server + "." + inv.Tool
		if len(inv.Arguments) > 0 && inv.Arguments[0] == '{' {
			args = inv.Arguments
		}
	}
	if m.Type == "mcp_tool_call_begin" {
		s.start(s.callID(m.CallID), name, args)
		return
	}
	ok, text, errText := mcpResult(m.Result)
	done := event.Event{Kind: event.KindToolDone, ID: m.CallID, OK: ok, Output: text, Error: failText(ok, errText+text, "tool call failed")}
	done.DurationMS = duration(m.Duration)
	s.emit(done)
}

// execArgs are a shell call's args: its argv and working directory.
func execArgs(m *msg) map[string]any {
	args := map[string]any{}
	if len(m.Command) > 0 {
		args["command"] = m.Command
	}
	if m.Cwd != "" {
		args["cwd"] = m.Cwd
	}
	return args
}

// patchArgs are a patch's args: its files, the first as the path.
func patchArgs(changes map[string]any) map[string]any {
	files := make([]string, 0, len(changes))
	for f := range changes {
		files = append(files, f)
	}
	sortStrings(files)
	args := map[string]any{"files": files}
	if len(files) > 0 {
		args["path"] = files[0]
	}
	return args
}

// execDone builds a shell call's result.
func execDone(m *msg) event.Event {
	out := m.Stdout + m.Stderr
	if m.AggregatedOutput != nil {
		out = *m.AggregatedOutput
	}
	ok := m.ExitCode == nil || *m.ExitCode == 0
	ev := event.Event{Kind: event.KindToolDone, ID: m.CallID, OK: ok, Output: out, DurationMS: duration(m.Duration)}
	if !ok {
		ev.Error = "exit code " + strconv.Itoa(*m.ExitCode)
		if first := orDefault(firstLine(m.Stderr), firstLine(out)); first != "" {
			ev.Error += ": " + first
		}
	}
	return ev
}

// mcpResult reads an MCP call's result: {"Ok": {content, isError}} (its
// text is the output) or {"Err": "message"} (the error).
func mcpResult(raw json.RawMessage) (ok bool, text, errText string) {
	var r struct {
		Ok *struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		} `json:"Ok"`
		Err *string `json:"Err"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return true, "", ""
	}
	if r.Err != nil {
		return false, "", *r.Err
	}
	if r.Ok == nil {
		return true, "", ""
	}
	var parts []string
	for _, c := range r.Ok.Content {
		parts = append(parts, c.Text)
	}
	return !r.Ok.IsError, strings.Join(parts, "\n"), ""
}

// chunkText decodes an output chunk: base64 bytes (how Codex writes
// them), an array of byte values, or plain text.
func chunkText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if b, err := base64.StdEncoding.DecodeString(s); err == nil {
			return string(b)
		}
		return s
	}
	var bs []byte
	var ints []int
	if json.Unmarshal(raw, &ints) == nil {
		for _, v := range ints {
			bs = append(bs, byte(v))
		}
	}
	return string(bs)
}

// duration reads a duration: Codex's own ({"secs", "nanos"}, "1.2s",
// "1s 200ms"), or a number of milliseconds. Unreadable gives nil.
func duration(raw json.RawMessage) *int64 {
	var num float64
	if len(raw) > 0 && json.Unmarshal(raw, &num) == nil {
		if num < 0 {
			return nil
		}
		ms := int64(num)
		return &ms
	}
	return codex.Duration(raw)
}

// failText is the error of a failed call: the first line of text, else
// fallback; "" for a call that succeeded.
func failText(ok bool, text, fallback string) string {
	if ok {
		return ""
	}
	return orDefault(firstLine(text), fallback)
}

func firstLine(s string) string {
	for line := range strings.Lines(s) {
		if line = strings.TrimSpace(line); line != "" {
			return line
		}
	}
	return ""
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func mustJSON(v any) json.RawMessage {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("codextui: marshal %T: %v", v, err))
	}
	return raw
}
