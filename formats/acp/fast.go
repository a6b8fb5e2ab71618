package acp

import (
	"encoding/json"

	acpsdk "github.com/coder/acp-go-sdk"
	"github.com/toolsim/toolsim/internal/jsonscan"
)

// The fast decoders below read what the importer decodes on every line
// with jsonscan, and answer only where they are sure to agree with
// encoding/json (see jsonscan's fields.go); otherwise (bad JSON, a member
// of another type, a key encoding/json would fold or a repeated one) the
// caller decodes with encoding/json as before, so every problem text stays
// the same.

// fastEnvelope decodes a JSON-RPC message's envelope as json.Unmarshal
// would. buf is scratch space for the member list.
func fastEnvelope(data []byte, env *envelope, buf *[]jsonscan.Member) bool {
	members, ok := jsonscan.TopObject(data, (*buf)[:0])
	*buf = members
	if !ok || !jsonscan.Plain(members, "jsonrpc", "id", "method", "params", "result", "error") {
		return false
	}
	for _, m := range members {
		name, _ := jsonscan.Key(m.Key)
		switch string(name) {
		case "jsonrpc":
			ok = jsonscan.StringInto(m.Val, &env.JSONRPC)
		case "method":
			ok = jsonscan.StringInto(m.Val, &env.Method)
		case "id":
			jsonscan.RawInto(m.Val, (*[]byte)(&env.ID))
		case "params":
			jsonscan.RawInto(m.Val, (*[]byte)(&env.Params))
		case "result":
			jsonscan.RawInto(m.Val, (*[]byte)(&env.Result))
		case "error":
			jsonscan.RawInto(m.Val, (*[]byte)(&env.Error))
		}
		if !ok {
			return false
		}
	}
	return true
}

// rawToolCallOf decodes the raw members of the tool call under key
// ("update", "toolCall") of params, as json.Unmarshal into a struct with
// that one member would (errors ignored, as the callers do).
func rawToolCallOf(params json.RawMessage, key string, buf *[]jsonscan.Member) rawToolCall {
	var raw rawToolCall
	if fastRawToolCall(params, key, &raw, buf) {
		return raw
	}
	raw = rawToolCall{}
	if key == "toolCall" {
		var p struct {
			ToolCall rawToolCall `json:"toolCall"`
		}
		_ = json.Unmarshal(params, &p)
		return p.ToolCall
	}
	var p rawUpdate
	_ = json.Unmarshal(params, &p)
	return p.Update
}

// fastRawToolCall is rawToolCallOf's fast path.
func fastRawToolCall(params []byte, key string, raw *rawToolCall, buf *[]jsonscan.Member) bool {
	members, ok := jsonscan.TopObject(params, (*buf)[:0])
	*buf = members
	if !ok || !jsonscan.Plain(members, key) {
		return false
	}
	var val []byte
	for _, m := range members {
		if name, _ := jsonscan.Key(m.Key); string(name) == key {
			val = m.Val
		}
	}
	if val == nil {
		return true
	}
	inner, null, ok := jsonscan.ObjectMembers(val, members[len(members):])
	if !ok || null {
		return ok
	}
	if !jsonscan.Plain(inner, "rawInput", "rawOutput", "content", "locations") {
		return false
	}
	for _, m := range inner {
		name, _ := jsonscan.Key(m.Key)
		switch string(name) {
		case "rawInput":
			jsonscan.RawInto(m.Val, (*[]byte)(&raw.RawInput))
		case "rawOutput":
			jsonscan.RawInto(m.Val, (*[]byte)(&raw.RawOutput))
		case "content":
			jsonscan.RawInto(m.Val, (*[]byte)(&raw.Content))
		case "locations":
			jsonscan.RawInto(m.Val, (*[]byte)(&raw.Locations))
		}
	}
	return true
}

// fastNotification decodes session/update params as json.Unmarshal into
// an acpsdk.SessionNotification would, without the SDK's generic union
// decoder (which decodes the update three times: as a map, for its
// discriminator, and as the variant): the discriminator is read with
// jsonscan and the update decoded once into its variant, as the SDK does
// for a known discriminator. Unknown kinds, _meta and anything unusual
// go to the SDK.
func fastNotification(params []byte, n *acpsdk.SessionNotification, buf *[]jsonscan.Member) bool {
	members, ok := jsonscan.TopObject(params, (*buf)[:0])
	*buf = members
	if !ok || !jsonscan.Plain(members, "sessionId", "update", "_meta") {
		return false
	}
	var update []byte
	for _, m := range members {
		switch name, _ := jsonscan.Key(m.Key); string(name) {
		case "sessionId":
			var id string
			if !jsonscan.StringInto(m.Val, &id) {
				return false
			}
			n.SessionId = acpsdk.SessionId(id)
		case "update":
			update = m.Val
		case "_meta":
			return false
		}
	}
	inner, null, ok := jsonscan.ObjectMembers(update, members[len(members):])
	if !ok || null || !jsonscan.Plain(inner, "sessionUpdate") {
		return false
	}
	var disc string
	for _, m := range inner {
		if name, _ := jsonscan.Key(m.Key); string(name) == "sessionUpdate" {
			if _, isString := jsonscan.String(m.Val); !isString || !jsonscan.StringInto(m.Val, &disc) {
				return false
			}
		}
	}
	return decodeVariant(update, disc, &n.Update)
}

// decodeVariant decodes an update of the known kind disc into its
// variant, as the SDK's union decoder does; false for other kinds and
// for a variant that does not decode.
func decodeVariant(b []byte, disc string, u *acpsdk.SessionUpdate) bool {
	switch disc {
	case "user_message_chunk":
		return variant(b, &u.UserMessageChunk)
	case "agent_message_chunk":
		return variant(b, &u.AgentMessageChunk)
	case "agent_thought_chunk":
		return variant(b, &u.AgentThoughtChunk)
	case "tool_call":
		return variant(b, &u.ToolCall)
	case "tool_call_update":
		return variant(b, &u.ToolCallUpdate)
	case "plan":
		return variant(b, &u.Plan)
	case "available_commands_update":
		return variant(b, &u.AvailableCommandsUpdate)
	case "current_mode_update":
		return variant(b, &u.CurrentModeUpdate)
	case "config_option_update":
		return variant(b, &u.ConfigOptionUpdate)
	case "session_info_update":
		return variant(b, &u.SessionInfoUpdate)
	case "usage_update":
		return variant(b, &u.UsageUpdate)
	}
	return false
}

// variant decodes b into a new T at *dst.
func variant[T any](b []byte, dst **T) bool {
	v := new(T)
	if json.Unmarshal(b, v) != nil {
		return false
	}
	*dst = v
	return true
}
