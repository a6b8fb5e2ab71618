package claudestream

import (
	"encoding/json"

	"github.com/toolsim/toolsim/internal/jsonscan"
)

// fastLine decodes a line as json.Unmarshal into a line does, with
// jsonscan; false when it cannot be sure to agree (bad JSON, a member of
// another type, a key encoding/json would fold or a repeated one), and
// decode then uses encoding/json as before, so problem texts are
// unchanged.
func fastLine(raw []byte, l *line) bool {
	members, ok := jsonscan.TopObject(raw, nil)
	if !ok || !jsonscan.Plain(members, lineFields...) {
		return false
	}
	for _, m := range members {
		name, _ := jsonscan.Key(m.Key)
		if !l.member(string(name), m.Val) {
			return false
		}
	}
	return true
}

// lineFields are the members of line.
var lineFields = []string{
	"type", "subtype", "session_id", "uuid", "parent_tool_use_id", "message", "tool_use_result", "model", "cwd",
	"tools", "permissionMode", "claude_code_version", "is_error", "result", "duration_ms", "num_turns",
	"total_cost_usd", "permission_denials", "errors",
}

// member decodes one member of a line; false when the fast path cannot.
func (l *line) member(name string, val []byte) bool {
	raw := func(dst *json.RawMessage) bool { jsonscan.RawInto(val, (*[]byte)(dst)); return true }
	switch name {
	case "type":
		return jsonscan.StringInto(val, &l.Type)
	case "subtype":
		return jsonscan.StringInto(val, &l.Subtype)
	case "session_id":
		return jsonscan.StringInto(val, &l.SessionID)
	case "uuid":
		return jsonscan.StringInto(val, &l.UUID)
	case "parent_tool_use_id":
		return jsonscan.StringPtrInto(val, &l.ParentToolUseID)
	case "message":
		return fastMessage(val, &l.Message)
	case "tool_use_result":
		return raw(&l.ToolUseResult)
	case "model":
		return jsonscan.StringInto(val, &l.Model)
	case "cwd":
		return jsonscan.StringInto(val, &l.CWD)
	case "tools":
		return raw(&l.Tools)
	case "permissionMode":
		return jsonscan.StringInto(val, &l.PermissionMode)
	case "claude_code_version":
		return jsonscan.StringInto(val, &l.ClaudeCodeVersion)
	case "is_error":
		return jsonscan.BoolInto(val, &l.IsError)
	case "result":
		return jsonscan.StringInto(val, &l.Result)
	case "duration_ms":
		return jsonscan.Int64PtrInto(val, &l.DurationMS)
	case "num_turns":
		return jsonscan.Int64PtrInto(val, &l.NumTurns)
	case "total_cost_usd":
		return jsonscan.Float64PtrInto(val, &l.TotalCostUSD)
	case "permission_denials":
		return fastDenials(val, &l.PermissionDenials)
	case "errors":
		return raw(&l.Errors)
	}
	return true
}

func fastMessage(val []byte, dst **message) bool {
	members, null, ok := jsonscan.ObjectMembers(val, nil)
	if !ok || null {
		if null {
			*dst = nil
		}
		return ok
	}
	if !jsonscan.Plain(members, "id", "model", "stop_reason", "content") {
		return false
	}
	m := &message{}
	*dst = m
	for _, mb := range members {
		name, _ := jsonscan.Key(mb.Key)
		switch string(name) {
		case "id":
			ok = jsonscan.StringInto(mb.Val, &m.ID)
		case "model":
			ok = jsonscan.StringInto(mb.Val, &m.Model)
		case "stop_reason":
			ok = jsonscan.StringInto(mb.Val, &m.StopReason)
		case "content":
			jsonscan.RawInto(mb.Val, (*[]byte)(&m.Content))
		}
		if !ok {
			return false
		}
	}
	return true
}

func fastDenials(val []byte, dst *[]denial) bool {
	return jsonscan.List(val, dst, fastDenial)
}

// fastDenial decodes one element of permission_denials.
func fastDenial(e []byte, d *denial) bool {
	members, _, ok := jsonscan.ObjectMembers(e, nil)
	if !ok || !jsonscan.Plain(members, "tool_name", "tool_use_id", "tool_input") {
		return false
	}
	for _, mb := range members {
		name, _ := jsonscan.Key(mb.Key)
		switch string(name) {
		case "tool_name":
			ok = jsonscan.StringInto(mb.Val, &d.ToolName)
		case "tool_use_id":
			ok = jsonscan.StringInto(mb.Val, &d.ToolUseID)
		case "tool_input":
			jsonscan.RawInto(mb.Val, (*[]byte)(&d.ToolInput))
		}
		if !ok {
			return false
		}
	}
	return true
}
