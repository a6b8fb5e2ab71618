package sse

import "github.com/toolsim/toolsim/internal/jsonscan"

// Fast decoders of the OpenAI dialects' events: see fastAnthropic.

// members returns the members of a nested object value, when a fast
// decoder may decode them with the field names known; null=true for null.
func members(val []byte, known ...string) (ms []jsonscan.Member, null, ok bool) {
	ms, null, ok = jsonscan.ObjectMembers(val, nil)
	if !ok || null {
		return nil, null, ok
	}
	return ms, false, jsonscan.Plain(ms, known...)
}

// fastChatChunk decodes a chat.completion.chunk (or error object).
func fastChatChunk(data []byte, c *chatChunk, buf *scratch) bool {
	ms, ok := jsonscan.TopObject(data, buf.top[:0])
	buf.top = ms
	if !ok || !jsonscan.Plain(ms, "id", "object", "choices", "usage", "error") {
		return false
	}
	for _, m := range ms {
		switch name, _ := jsonscan.Key(m.Key); string(name) {
		case "id":
			ok = jsonscan.StringInto(m.Val, &c.ID)
		case "object":
			ok = jsonscan.StringInto(m.Val, &c.Object)
		case "choices":
			ok = fastSlice(m.Val, &c.Choices, fastChatChoice)
		case "usage":
			jsonscan.RawInto(m.Val, (*[]byte)(&c.Usage))
		case "error":
			ok = jsonscan.IsNull(m.Val) // an error object: encoding/json decodes its code
		}
		if !ok {
			return false
		}
	}
	return true
}

// fastSlice decodes an array value (a member of a checked object) as
// json.Unmarshal into a slice does (null gives nil, a null element the
// zero value).
func fastSlice[T any](val []byte, dst *[]T, elem func([]jsonscan.Member, *T) bool) bool {
	if jsonscan.IsNull(val) {
		*dst = nil
		return true
	}
	if len(val) == 0 || val[0] != '[' {
		return false
	}
	elems := jsonscan.CheckedElements(val, nil) // a member of a checked object
	out := make([]T, len(elems))
	for i, e := range elems {
		ms, null, ok := jsonscan.ObjectMembers(e, nil)
		if !ok || !null && !elem(ms, &out[i]) {
			return false
		}
	}
	*dst = out
	return true
}

func fastChatChoice(ms []jsonscan.Member, ch *chatChoice) bool {
	if !jsonscan.Plain(ms, "index", "delta", "finish_reason") {
		return false
	}
	ok := true
	for _, m := range ms {
		switch name, _ := jsonscan.Key(m.Key); string(name) {
		case "index":
			ok = jsonscan.IntInto(m.Val, &ch.Index)
		case "delta":
			ok = fastChatDelta(m.Val, &ch.Delta)
		case "finish_reason":
			ok = jsonscan.StringPtrInto(m.Val, &ch.FinishReason)
		}
		if !ok {
			return false
		}
	}
	return true
}

func fastChatDelta(val []byte, d *chatDelta) bool {
	ms, null, ok := members(val, "content", "refusal", "reasoning_content", "reasoning", "tool_calls", "function_call")
	if !ok || null {
		return ok
	}
	for _, m := range ms {
		switch name, _ := jsonscan.Key(m.Key); string(name) {
		case "content":
			ok = jsonscan.StringPtrInto(m.Val, &d.Content)
		case "refusal":
			ok = jsonscan.StringPtrInto(m.Val, &d.Refusal)
		case "reasoning_content":
			ok = jsonscan.StringPtrInto(m.Val, &d.ReasoningContent)
		case "reasoning":
			ok = jsonscan.StringPtrInto(m.Val, &d.Reasoning)
		case "tool_calls":
			ok = fastSlice(m.Val, &d.ToolCalls, FastChatToolCall)
		case "function_call":
			jsonscan.RawInto(m.Val, (*[]byte)(&d.FunctionCall))
		}
		if !ok {
			return false
		}
	}
	return true
}

// FastChatToolCall decodes the members of a tool_calls element as
// json.Unmarshal into a ChatToolCall does; false when it cannot be sure
// to agree.
func FastChatToolCall(ms []jsonscan.Member, c *ChatToolCall) bool {
	if !jsonscan.Plain(ms, "index", "id", "type", "function") {
		return false
	}
	ok := true
	for _, m := range ms {
		switch name, _ := jsonscan.Key(m.Key); string(name) {
		case "index":
			ok = jsonscan.IntPtrInto(m.Val, &c.Index)
		case "id":
			ok = jsonscan.StringInto(m.Val, &c.ID)
		case "type":
			ok = jsonscan.StringInto(m.Val, &c.Type)
		case "function":
			ok = fastFunction(m.Val, c)
		}
		if !ok {
			return false
		}
	}
	return true
}

func fastFunction(val []byte, c *ChatToolCall) bool {
	ms, null, ok := members(val, "name", "arguments")
	if !ok || null {
		return ok
	}
	for _, m := range ms {
		switch name, _ := jsonscan.Key(m.Key); string(name) {
		case "name":
			ok = jsonscan.StringInto(m.Val, &c.Function.Name)
		case "arguments":
			ok = jsonscan.StringInto(m.Val, &c.Function.Arguments)
		}
		if !ok {
			return false
		}
	}
	return true
}

// fastResponsesEvent decodes a Responses stream event.
func fastResponsesEvent(data []byte, e *responsesEvent, buf *scratch) bool {
	ms, ok := jsonscan.TopObject(data, buf.top[:0])
	buf.top = ms
	if !ok || !jsonscan.Plain(ms, "type", "response", "item", "item_id", "delta", "arguments", "input", "code", "message") {
		return false
	}
	for _, m := range ms {
		switch name, _ := jsonscan.Key(m.Key); string(name) {
		case "type":
			ok = jsonscan.StringInto(m.Val, &e.Type)
		case "response":
			ok = fastResponse(m.Val, e)
		case "item":
			ok = fastResponsesItem(m.Val, &e.Item)
		case "item_id":
			ok = jsonscan.StringInto(m.Val, &e.ItemID)
		case "delta":
			jsonscan.RawInto(m.Val, (*[]byte)(&e.Delta))
		case "arguments":
			ok = jsonscan.StringPtrInto(m.Val, &e.Arguments)
		case "input":
			ok = jsonscan.StringPtrInto(m.Val, &e.Input)
		case "code":
			ok = jsonscan.StringPtrInto(m.Val, &e.Code)
		case "message":
			ok = jsonscan.StringInto(m.Val, &e.Message)
		}
		if !ok {
			return false
		}
	}
	return true
}

// fastResponse decodes an event's response member; an error or
// incomplete_details object in it goes to encoding/json.
func fastResponse(val []byte, e *responsesEvent) bool {
	ms, null, ok := members(val, "id", "status", "error", "incomplete_details")
	if !ok || null {
		if null {
			e.Response = nil
		}
		return ok
	}
	e.Response = &responsesResponse{}
	for _, m := range ms {
		switch name, _ := jsonscan.Key(m.Key); string(name) {
		case "id":
			ok = jsonscan.StringInto(m.Val, &e.Response.ID)
		case "status":
			ok = jsonscan.StringInto(m.Val, &e.Response.Status)
		case "error", "incomplete_details":
			ok = jsonscan.IsNull(m.Val)
		}
		if !ok {
			return false
		}
	}
	return true
}

// fastResponsesItem decodes an output item.
func fastResponsesItem(val []byte, dst **ResponsesItem) bool {
	ms, null, ok := members(val, "id", "type", "status", "call_id", "name", "arguments", "input", "action", "error")
	if !ok || null {
		if null {
			*dst = nil
		}
		return ok
	}
	it := &ResponsesItem{}
	*dst = it
	for _, m := range ms {
		var s *string
		switch name, _ := jsonscan.Key(m.Key); string(name) {
		case "id":
			s = &it.ID
		case "type":
			s = &it.Type
		case "status":
			s = &it.Status
		case "call_id":
			s = &it.CallID
		case "name":
			s = &it.Name
		case "arguments":
			s = &it.Arguments
		case "input":
			s = &it.Input
		case "action":
			jsonscan.RawInto(m.Val, (*[]byte)(&it.Action))
		case "error":
			jsonscan.RawInto(m.Val, (*[]byte)(&it.Error))
		}
		if s != nil && !jsonscan.StringInto(m.Val, s) {
			return false
		}
	}
	return true
}
