package codexexec

import (
	"encoding/json"

	"github.com/toolsim/toolsim/internal/jsonscan"
)

// The fast decoders below read lines and items with jsonscan and answer
// only where they are sure to agree with encoding/json (see jsonscan's
// fields.go); otherwise the caller decodes with encoding/json as before,
// so every problem text stays the same.

// decodeLine decodes one line of the stream as json.Unmarshal does.
func decodeLine(raw []byte, l *line, buf *[]jsonscan.Member) error {
	if fastLine(raw, l, buf) {
		return nil
	}
	*l = line{}
	return json.Unmarshal(raw, l)
}

func fastLine(raw []byte, l *line, buf *[]jsonscan.Member) bool {
	members, ok := jsonscan.TopObject(raw, (*buf)[:0])
	*buf = members
	if !ok || !jsonscan.Plain(members, "type", "thread_id", "item", "usage", "error", "message") {
		return false
	}
	for _, m := range members {
		name, _ := jsonscan.Key(m.Key)
		switch string(name) {
		case "type":
			ok = jsonscan.StringInto(m.Val, &l.Type)
		case "thread_id":
			ok = jsonscan.StringInto(m.Val, &l.ThreadID)
		case "item":
			jsonscan.RawInto(m.Val, (*[]byte)(&l.Item))
		case "usage":
			jsonscan.RawInto(m.Val, (*[]byte)(&l.Usage))
		case "error":
			ok = fastLineError(m.Val, l, members[len(members):])
		case "message":
			ok = jsonscan.StringInto(m.Val, &l.Message)
		}
		if !ok {
			return false
		}
	}
	return true
}

func fastLineError(val []byte, l *line, buf []jsonscan.Member) bool {
	members, null, ok := jsonscan.ObjectMembers(val, buf)
	if !ok || null {
		if null {
			l.Error = nil
		}
		return ok
	}
	if !jsonscan.Plain(members, "message") {
		return false
	}
	l.Error = &struct {
		Message string `json:"message"`
	}{}
	for _, m := range members {
		if name, _ := jsonscan.Key(m.Key); string(name) == "message" && !jsonscan.StringInto(m.Val, &l.Error.Message) {
			return false
		}
	}
	return true
}

// itemFields are the members of item, in its order.
var itemFields = []string{
	"id", "type", "item_type", "text", "command", "aggregated_output", "exit_code", "status", "server", "tool",
	"arguments", "result", "error", "changes", "query", "action", "items", "message", "prompt",
	"sender_thread_id", "receiver_thread_ids", "agents_states",
}

// decodeItemJSON decodes an item as json.Unmarshal does.
func decodeItemJSON(raw []byte, it *item, buf *[]jsonscan.Member) error {
	if fastItem(raw, it, buf) {
		return nil
	}
	*it = item{}
	return json.Unmarshal(raw, it)
}

func fastItem(raw []byte, it *item, buf *[]jsonscan.Member) bool {
	members, ok := jsonscan.TopObject(raw, (*buf)[:0])
	*buf = members
	if !ok || !jsonscan.Plain(members, itemFields...) {
		return false
	}
	for _, m := range members {
		name, _ := jsonscan.Key(m.Key)
		if !it.member(string(name), m.Val) {
			return false
		}
	}
	return true
}

// member decodes one member of an item; false when the fast path cannot.
func (it *item) member(name string, val []byte) bool {
	raw := func(dst *json.RawMessage) bool { jsonscan.RawInto(val, (*[]byte)(dst)); return true }
	switch name {
	case "id":
		return jsonscan.StringPtrInto(val, &it.ID)
	case "type":
		return jsonscan.StringInto(val, &it.Type)
	case "item_type":
		return jsonscan.StringInto(val, &it.ItemType)
	case "text":
		return jsonscan.StringPtrInto(val, &it.Text)
	case "command":
		return raw(&it.Command)
	case "aggregated_output":
		return jsonscan.StringPtrInto(val, &it.AggregatedOut)
	case "exit_code":
		return jsonscan.IntPtrInto(val, &it.ExitCode)
	case "status":
		return jsonscan.StringInto(val, &it.Status)
	case "server":
		return jsonscan.StringInto(val, &it.Server)
	case "tool":
		return jsonscan.StringInto(val, &it.Tool)
	case "arguments":
		return raw(&it.Arguments)
	case "result":
		return raw(&it.Result)
	case "error":
		return raw(&it.Error)
	case "changes":
		return raw(&it.Changes)
	case "query":
		return jsonscan.StringPtrInto(val, &it.Query)
	case "action":
		return raw(&it.Action)
	case "items":
		return raw(&it.Items)
	case "message":
		return jsonscan.StringPtrInto(val, &it.Message)
	case "prompt":
		return jsonscan.StringPtrInto(val, &it.Prompt)
	case "sender_thread_id":
		return jsonscan.StringPtrInto(val, &it.SenderThreadID)
	case "receiver_thread_ids":
		return raw(&it.ReceiverThreads)
	case "agents_states":
		return raw(&it.AgentsStates)
	}
	return true
}
