package codexrollout

import (
	"encoding/json"

	"github.com/toolsim/toolsim/internal/jsonscan"
)

// The fast decoder below reads a rollout line with jsonscan and answers
// only where it is sure to agree with encoding/json (see jsonscan's
// fields.go); otherwise the line is decoded with encoding/json as before,
// so every problem text stays the same.

// decodeEnvelope decodes a rollout line as json.Unmarshal does. The fast
// path decodes the payload into scratch, which holds it until the next
// line: nothing keeps a payload past its line.
func decodeEnvelope(line []byte, env *envelope, buf *[]jsonscan.Member, scratch *payload) error {
	if fastEnvelope(line, env, buf, scratch) {
		return nil
	}
	*env = envelope{}
	return json.Unmarshal(line, env)
}

func fastEnvelope(line []byte, env *envelope, buf *[]jsonscan.Member, scratch *payload) bool {
	members, ok := jsonscan.TopObject(line, (*buf)[:0])
	*buf = members
	if !ok || !jsonscan.Plain(members, "timestamp", "type", "payload") {
		return false
	}
	for _, m := range members {
		name, _ := jsonscan.Key(m.Key)
		switch string(name) {
		case "timestamp":
			ok = jsonscan.StringPtrInto(m.Val, &env.Timestamp)
		case "type":
			ok = jsonscan.StringInto(m.Val, &env.Type)
		case "payload":
			ok = fastPayload(m.Val, env, members[len(members):], scratch)
		}
		if !ok {
			return false
		}
	}
	return true
}

// payloadFields are the members of payload.
var payloadFields = []string{
	"type", "role", "content", "summary", "name", "arguments", "input", "call_id", "id", "status", "action",
	"output", "phase", "reason", "turn_id", "message", "duration_ms", "duration", "cwd", "cli_version",
	"originator", "model_provider", "source", "git", "model", "item",
}

func fastPayload(val []byte, env *envelope, buf []jsonscan.Member, scratch *payload) bool {
	members, null, ok := jsonscan.ObjectMembers(val, buf)
	if !ok || null {
		if null {
			env.Payload = nil
		}
		return ok
	}
	if !jsonscan.Plain(members, payloadFields...) {
		return false
	}
	p := scratch
	// The reset is what makes reuse safe: jsonscan.RawInto writes into a
	// field's backing array, and the raw values of earlier lines are kept
	// (in meta, in events' args).
	*p = payload{}
	env.Payload = p
	for _, m := range members {
		name, _ := jsonscan.Key(m.Key)
		if !p.member(string(name), m.Val) {
			return false
		}
	}
	return true
}

// member decodes one member of a payload; false when the fast path
// cannot.
func (p *payload) member(name string, val []byte) bool {
	var dst *json.RawMessage
	switch name {
	case "type":
		return jsonscan.StringInto(val, &p.Type)
	case "role":
		return jsonscan.StringInto(val, &p.Role)
	case "name":
		return jsonscan.StringInto(val, &p.Name)
	case "call_id":
		return jsonscan.StringPtrInto(val, &p.CallID)
	case "content":
		dst = &p.Content
	case "summary":
		dst = &p.Summary
	case "arguments":
		dst = &p.Arguments
	case "input":
		dst = &p.Input
	case "id":
		dst = &p.ID
	case "status":
		dst = &p.Status
	case "action":
		dst = &p.Action
	case "output":
		dst = &p.Output
	case "phase":
		dst = &p.Phase
	default:
		dst = p.metaMember(name)
	}
	if dst != nil {
		jsonscan.RawInto(val, (*[]byte)(dst))
	}
	return true
}

// metaMember is the raw field of an event_msg, session_meta or
// turn_context member; nil for a member the payload does not keep.
func (p *payload) metaMember(name string) *json.RawMessage {
	switch name {
	case "reason":
		return &p.Reason
	case "turn_id":
		return &p.TurnID
	case "message":
		return &p.Message
	case "duration_ms":
		return &p.Duration
	case "duration":
		return &p.ExecTime
	case "cwd":
		return &p.Cwd
	case "cli_version":
		return &p.CLIVersion
	case "originator":
		return &p.Originator
	case "model_provider":
		return &p.ModelProvider
	case "source":
		return &p.Source
	case "git":
		return &p.Git
	case "model":
		return &p.Model
	case "item":
		return &p.Item
	}
	return nil
}

// contentPart is an element of a message's content list.
type contentPart struct {
	Type string  `json:"type"`
	Text *string `json:"text"`
}

// fastParts decodes a content list as json.Unmarshal would (null gives
// nil, a null element the zero value); false when it cannot be sure.
func fastParts(raw []byte, parts *[]contentPart) bool {
	if jsonscan.IsNull(raw) {
		*parts = nil
		return true
	}
	if len(raw) == 0 || raw[0] != '[' {
		return false
	}
	elems, err := jsonscan.Array(raw, nil)
	if err != nil {
		return false
	}
	out := make([]contentPart, len(elems))
	var buf []jsonscan.Member
	for i, e := range elems {
		if jsonscan.IsNull(e) {
			continue
		}
		members, ok := jsonscan.TopObject(e, buf[:0])
		buf = members
		if !ok || !jsonscan.Plain(members, "type", "text") {
			return false
		}
		for _, m := range members {
			switch name, _ := jsonscan.Key(m.Key); string(name) {
			case "type":
				ok = jsonscan.StringInto(m.Val, &out[i].Type)
			case "text":
				ok = jsonscan.StringPtrInto(m.Val, &out[i].Text)
			}
			if !ok {
				return false
			}
		}
	}
	*parts = out
	return true
}
