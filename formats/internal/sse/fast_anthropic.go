package sse

import (
	"encoding/json"

	"github.com/toolsim/toolsim/internal/jsonscan"
)

// fastAnthropic decodes an Anthropic event as json.Unmarshal would, on
// the fast path of jsonscan; ok is false when it cannot be sure to agree
// (bad JSON, a member of an unexpected type, a key encoding/json would
// fold), and the caller then decodes with encoding/json.
func fastAnthropic(data []byte, m *anthropicEvent, buf *scratch) bool {
	members, ok := jsonscan.TopObject(data, buf.top[:0])
	buf.top = members
	if !ok || !jsonscan.Plain(members, "type", "index", "message", "content_block", "delta", "error") {
		return false
	}
	for _, mb := range members {
		name, _ := jsonscan.Key(mb.Key)
		switch string(name) {
		case "type":
			ok = jsonscan.StringInto(mb.Val, &m.Type)
		case "index":
			ok = jsonscan.IntPtrInto(mb.Val, &m.Index)
		case "message":
			ok = fastMessage(mb.Val, m, buf)
		case "content_block":
			ok = fastContentBlock(mb.Val, &m.ContentBlock, buf)
		case "delta":
			ok = fastDelta(mb.Val, m, buf)
		case "error":
			ok = fastError(mb.Val, m, buf)
		}
		if !ok {
			return false
		}
	}
	return true
}

// scratch holds the member lists of the fast decoders between events:
// top for the event's object, inner for one nested object at a time.
type scratch struct {
	top, inner []jsonscan.Member
}

// object returns the members of a nested object value that a fast decoder
// may decode (in buf.inner); null=true for null; ok is false otherwise.
func object(val []byte, buf *scratch, known ...string) (members []jsonscan.Member, null, ok bool) {
	members, null, ok = jsonscan.ObjectMembers(val, buf.inner[:0])
	buf.inner = members
	if !ok || null {
		return nil, null, ok
	}
	return members, false, jsonscan.Plain(members, known...)
}

func fastMessage(val []byte, m *anthropicEvent, buf *scratch) bool {
	members, null, ok := object(val, buf, "id")
	if !ok || null {
		if null {
			m.Message = nil
		}
		return ok
	}
	m.Message = &struct {
		ID string `json:"id"`
	}{}
	for _, mb := range members {
		if name, _ := jsonscan.Key(mb.Key); string(name) == "id" && !jsonscan.StringInto(mb.Val, &m.Message.ID) {
			return false
		}
	}
	return true
}

func fastDelta(val []byte, m *anthropicEvent, buf *scratch) bool {
	members, null, ok := object(val, buf, "type", "text", "thinking", "partial_json", "stop_reason")
	if !ok || null {
		if null {
			m.Delta = nil
		}
		return ok
	}
	m.Delta = &struct {
		Type        string `json:"type"`
		Text        string `json:"text"`
		Thinking    string `json:"thinking"`
		PartialJSON string `json:"partial_json"`
		StopReason  string `json:"stop_reason"`
	}{}
	d := m.Delta
	for _, mb := range members {
		name, _ := jsonscan.Key(mb.Key)
		var dst *string
		switch string(name) {
		case "type":
			dst = &d.Type
		case "text":
			dst = &d.Text
		case "thinking":
			dst = &d.Thinking
		case "partial_json":
			dst = &d.PartialJSON
		case "stop_reason":
			dst = &d.StopReason
		default:
			continue
		}
		if !jsonscan.StringInto(mb.Val, dst) {
			return false
		}
	}
	return true
}

func fastError(val []byte, m *anthropicEvent, buf *scratch) bool {
	members, null, ok := object(val, buf, "type", "message")
	if !ok || null {
		if null {
			m.Error = nil
		}
		return ok
	}
	m.Error = &struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	}{}
	for _, mb := range members {
		name, _ := jsonscan.Key(mb.Key)
		switch string(name) {
		case "type":
			ok = jsonscan.StringInto(mb.Val, &m.Error.Type)
		case "message":
			ok = jsonscan.StringInto(mb.Val, &m.Error.Message)
		}
		if !ok {
			return false
		}
	}
	return true
}

// fastContentBlock decodes a content block (see fastAnthropic).
func fastContentBlock(val []byte, dst **ContentBlock, buf *scratch) bool {
	members, null, ok := object(val, buf, "type", "text", "thinking", "id", "name", "input", "tool_use_id", "content", "is_error")
	if !ok || null {
		if null {
			*dst = nil
		}
		return ok
	}
	cb := &ContentBlock{}
	*dst = cb
	for _, mb := range members {
		name, _ := jsonscan.Key(mb.Key)
		switch string(name) {
		case "type":
			ok = jsonscan.StringInto(mb.Val, &cb.Type)
		case "text":
			ok = jsonscan.StringInto(mb.Val, &cb.Text)
		case "thinking":
			ok = jsonscan.StringInto(mb.Val, &cb.Thinking)
		case "id":
			ok = jsonscan.StringInto(mb.Val, &cb.ID)
		case "name":
			ok = jsonscan.StringInto(mb.Val, &cb.Name)
		case "input":
			jsonscan.RawInto(mb.Val, (*[]byte)(&cb.Input))
		case "tool_use_id":
			ok = jsonscan.StringInto(mb.Val, &cb.ToolUseID)
		case "content":
			jsonscan.RawInto(mb.Val, (*[]byte)(&cb.Content))
		case "is_error":
			ok = jsonscan.BoolInto(mb.Val, &cb.IsError)
		}
		if !ok {
			return false
		}
	}
	return true
}

// ContentBlocks decodes a list of content blocks as json.Unmarshal into a
// []ContentBlock does (its error included), reading it with jsonscan where
// that is sure to agree.
func ContentBlocks(raw []byte) ([]ContentBlock, error) {
	if blocks, ok := fastContentBlocks(raw); ok {
		return blocks, nil
	}
	var blocks []ContentBlock
	err := json.Unmarshal(raw, &blocks)
	return blocks, err
}

// fastContentBlocks is ContentBlocks' fast path.
func fastContentBlocks(raw []byte) ([]ContentBlock, bool) {
	if i := jsonscan.SkipSpace(raw, 0); i >= len(raw) || raw[i] != '[' {
		return nil, false
	}
	elems, err := jsonscan.Array(raw, nil)
	if err != nil {
		return nil, false
	}
	blocks := make([]ContentBlock, len(elems))
	var buf scratch
	for i, e := range elems {
		var cb *ContentBlock
		if !fastContentBlock(e, &cb, &buf) {
			return nil, false
		}
		if cb != nil {
			blocks[i] = *cb
		}
	}
	return blocks, true
}
