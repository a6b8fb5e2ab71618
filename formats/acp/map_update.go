package acp

import (
	"encoding/json"

	acpsdk "github.com/coder/acp-go-sdk"
	"github.com/toolsim/toolsim/event"
)

// rawUpdate holds the members of a tool call that the SDK decodes into
// interface values: kept raw so that numbers and key order survive.
type rawUpdate struct {
	Update rawToolCall `json:"update"`
}

// rawToolCall is the raw form of a tool call's members that the SDK
// decodes into interface values.
type rawToolCall struct {
	RawInput  json.RawMessage `json:"rawInput"`
	RawOutput json.RawMessage `json:"rawOutput"`
	Content   json.RawMessage `json:"content"`
	Locations json.RawMessage `json:"locations"`
}

// Kinds of session/update that the timeline has no place for.
var ignoredUpdates = set(
	"plan", "available_commands_update", "current_mode_update",
	"config_option_update", "session_info_update", "usage_update",
)

// update maps a session/update notification.
func (s *state) update(t int64, params json.RawMessage) {
	var n acpsdk.SessionNotification
	if !present(params) {
		s.flushUser()
		s.problem("session/update without params")
		return
	}
	if !fastNotification(params, &n, &s.members) {
		n = acpsdk.SessionNotification{}
		if err := json.Unmarshal(params, &n); err != nil {
			s.flushUser()
			s.problem("session/update: bad params: %v", err)
			return
		}
	}
	s.session(string(n.SessionId))
	u := &n.Update
	kind := updateKind(u)
	if kind != "user_message_chunk" {
		s.flushUser()
	}
	switch kind {
	case "user_message_chunk":
		s.userChunkText(t, u.UserMessageChunk.Content)
	case "agent_message_chunk":
		s.chunk(t, event.KindText, u.AgentMessageChunk.Content, kind)
	case "agent_thought_chunk":
		s.chunk(t, event.KindThinking, u.AgentThoughtChunk.Content, kind)
	case "tool_call":
		s.toolCall(t, params, u.ToolCall)
	case "tool_call_update":
		s.toolCallUpdate(t, params, u.ToolCallUpdate)
	default:
		s.otherUpdate(kind)
	}
}

// userChunkText gathers the text of a user_message_chunk; flushUser emits
// it.
func (s *state) userChunkText(t int64, c acpsdk.ContentBlock) {
	text, _ := blockText(c)
	if !s.userChunk {
		s.userChunk, s.userT = true, t
	}
	s.userText.WriteString(text)
}

// toolCall maps a tool_call update: a tool_start, then a patch for what
// the announcement carries beyond the start. The same id announced again
// in its turn is a patch.
func (s *state) toolCall(t int64, params json.RawMessage, c *acpsdk.SessionUpdateToolCall) {
	f := toolFields{
		id: string(c.ToolCallId), status: string(c.Status), title: c.Title, kind: string(c.Kind),
		locations: c.Locations, content: c.Content, raw: rawToolCallOf(params, "update", &s.members),
	}
	f.hasStatus, f.hasTitle, f.hasKind = f.status != "", f.title != "", f.kind != ""
	if tl := s.tools[f.id]; tl != nil && tl.turn == s.turn && s.turnOpen {
		// The same id announced again in its turn: a patch (SPEC §7).
		s.patch(t, f, true)
		return
	}
	s.startTool(t, f, nil)
	f.hasTitle, f.hasKind, f.raw.RawInput, f.raw.Locations = false, false, nil, nil
	// What the announcement carries beyond the start: a status past
	// in_progress, content or output.
	if st := acpsdk.ToolCallStatus(f.status); (st != "" && st != acpsdk.ToolCallStatusPending && st != acpsdk.ToolCallStatusInProgress) ||
		present(f.raw.Content) || present(f.raw.RawOutput) {
		s.patch(t, f, false)
	}
}

// toolCallUpdate maps a tool_call_update: a patch of the members given.
func (s *state) toolCallUpdate(t int64, params json.RawMessage, c *acpsdk.SessionToolCallUpdate) {
	f := toolFields{id: string(c.ToolCallId), locations: c.Locations, content: c.Content, raw: rawToolCallOf(params, "update", &s.members)}
	if c.Status != nil {
		f.status, f.hasStatus = string(*c.Status), true
	}
	if c.Title != nil {
		f.title, f.hasTitle = *c.Title, true
	}
	if c.Kind != nil {
		f.kind, f.hasKind = string(*c.Kind), true
	}
	s.patch(t, f, false)
}

// otherUpdate maps a session/update of no kind, of a kind the timeline
// has no place for (counted as ignored), or of an unknown kind.
func (s *state) otherUpdate(kind string) {
	switch {
	case kind == "":
		s.problem("session/update without a sessionUpdate kind")
	case ignoredUpdates[kind]:
		s.ignore("session/update " + kind)
	default:
		s.problem("unknown session/update kind %q", kind)
	}
}

// updateKind is the sessionUpdate discriminator of a decoded update. The
// SDK falls back on matching members when the discriminator is unknown
// (an unknown kind with "content" decodes as a user_message_chunk), so
// the kind is read from the variant's own discriminator field: an unknown
// kind stays unknown.
func updateKind(u *acpsdk.SessionUpdate) string {
	switch {
	case u.UserMessageChunk != nil:
		return u.UserMessageChunk.SessionUpdate
	case u.AgentMessageChunk != nil:
		return u.AgentMessageChunk.SessionUpdate
	case u.AgentThoughtChunk != nil:
		return u.AgentThoughtChunk.SessionUpdate
	case u.ToolCall != nil:
		return u.ToolCall.SessionUpdate
	case u.ToolCallUpdate != nil:
		return u.ToolCallUpdate.SessionUpdate
	case u.Plan != nil:
		return u.Plan.SessionUpdate
	case u.AvailableCommandsUpdate != nil:
		return u.AvailableCommandsUpdate.SessionUpdate
	case u.CurrentModeUpdate != nil:
		return u.CurrentModeUpdate.SessionUpdate
	case u.ConfigOptionUpdate != nil:
		return u.ConfigOptionUpdate.SessionUpdate
	case u.SessionInfoUpdate != nil:
		return u.SessionInfoUpdate.SessionUpdate
	case u.UsageUpdate != nil:
		return u.UsageUpdate.SessionUpdate
	}
	return ""
}

// chunk maps an agent message or thought chunk.
func (s *state) chunk(t int64, kind event.Kind, c acpsdk.ContentBlock, what string) {
	text, _ := blockText(c)
	if text == "" {
		s.ignore("session/update " + what + " (empty)")
		return
	}
	s.ensureTurn(t)
	s.emit(t, event.Event{Kind: kind, Text: text})
	s.runBroken = true
}
