package vcr

import (
	"github.com/toolsim/toolsim/formats/internal/sse"
	"github.com/toolsim/toolsim/internal/jsonscan"
)

// The fast decoders below read request bodies with jsonscan and answer
// only where they are sure to agree with encoding/json (see jsonscan's
// fields.go); otherwise the caller decodes with encoding/json as before,
// so every problem text stays the same.

// fastRequestBody decodes a request body as json.Unmarshal would.
func fastRequestBody(body []byte, rb *requestBody) bool {
	members, ok := jsonscan.TopObject(body, nil)
	if !ok || !jsonscan.Plain(members, "system", "instructions", "messages", "input", "previous_response_id") {
		return false
	}
	for _, m := range members {
		name, _ := jsonscan.Key(m.Key)
		switch string(name) {
		case "system":
			jsonscan.RawInto(m.Val, (*[]byte)(&rb.System))
		case "instructions":
			ok = jsonscan.StringInto(m.Val, &rb.Instructions)
		case "messages":
			ok = rawList(m.Val, &rb.Messages)
		case "input":
			jsonscan.RawInto(m.Val, (*[]byte)(&rb.Input))
		case "previous_response_id":
			ok = jsonscan.StringInto(m.Val, &rb.PreviousResponseID)
		}
		if !ok {
			return false
		}
	}
	return true
}

// rawList decodes an array value into copies of its elements, as
// json.Unmarshal into a []json.RawMessage would (null gives nil).
func rawList[T ~[]byte](val []byte, dst *[]T) bool {
	if jsonscan.IsNull(val) {
		*dst = nil
		return true
	}
	if len(val) == 0 || val[0] != '[' {
		return false
	}
	elems, err := jsonscan.Array(val, nil)
	if err != nil {
		return false
	}
	out := make([]T, len(elems))
	for i, e := range elems {
		out[i] = T(append([]byte(nil), e...))
	}
	*dst = out
	return true
}

// fastChatMsg decodes a chat message as json.Unmarshal would.
func fastChatMsg(raw []byte, cm *chatMsg) bool {
	members, ok := jsonscan.TopObject(raw, nil)
	if !ok || !jsonscan.Plain(members, "role", "content", "tool_call_id", "tool_calls") {
		return false
	}
	for _, m := range members {
		name, _ := jsonscan.Key(m.Key)
		switch string(name) {
		case "role":
			ok = jsonscan.StringInto(m.Val, &cm.Role)
		case "content":
			jsonscan.RawInto(m.Val, (*[]byte)(&cm.Content))
		case "tool_call_id":
			ok = jsonscan.StringInto(m.Val, &cm.ToolCallID)
		case "tool_calls":
			ok = fastToolCalls(m.Val, &cm.ToolCalls)
		}
		if !ok {
			return false
		}
	}
	return true
}

// fastToolCalls decodes a chat message's tool_calls list.
func fastToolCalls(val []byte, dst *[]sse.ChatToolCall) bool {
	return jsonscan.List(val, dst, func(e []byte, call *sse.ChatToolCall) bool {
		ms, null, ok := jsonscan.ObjectMembers(e, nil)
		return ok && (null || sse.FastChatToolCall(ms, call))
	})
}
