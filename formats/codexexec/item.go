package codexexec

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/toolsim/toolsim/event"
)

// item is a thread item: the members of every item type.
type item struct {
	ID              *string         `json:"id"`
	Type            string          `json:"type"`
	ItemType        string          `json:"item_type"` // before codex 0.47
	Text            *string         `json:"text"`
	Command         json.RawMessage `json:"command"`
	AggregatedOut   *string         `json:"aggregated_output"`
	ExitCode        *int            `json:"exit_code"`
	Status          string          `json:"status"`
	Server          string          `json:"server"`
	Tool            string          `json:"tool"`
	Arguments       json.RawMessage `json:"arguments"`
	Result          json.RawMessage `json:"result"`
	Error           json.RawMessage `json:"error"`
	Changes         json.RawMessage `json:"changes"`
	Query           *string         `json:"query"`
	Action          json.RawMessage `json:"action"`
	Items           json.RawMessage `json:"items"`
	Message         *string         `json:"message"`
	Prompt          *string         `json:"prompt"`
	SenderThreadID  *string         `json:"sender_thread_id"`
	ReceiverThreads json.RawMessage `json:"receiver_thread_ids"`
	AgentsStates    json.RawMessage `json:"agents_states"`
}

// kind is the item's type, under either member name.
func (it *item) kind() string {
	if it.Type != "" {
		return it.Type
	}
	return it.ItemType
}

// item maps an item.started, item.updated or item.completed event.
func (s *state) item(typ string, raw json.RawMessage) error {
	it, stop, err := s.decodeItem(typ, raw)
	if stop {
		return err
	}
	if it.ID == nil {
		return s.b.Problem(s.n, typ+": item without an id: cannot pair it")
	}
	id := *it.ID
	st := s.items[id]
	if st == nil || (st.done && typ == "item.started") {
		st = &itemState{kind: it.kind()}
		s.items[id] = st
	}
	completed := typ == "item.completed"
	switch k := it.kind(); k {
	case "agent_message", "assistant_message", "reasoning", "plan":
		s.text(&it, st, k)
	case "error":
		if completed {
			s.itemError(id, &it)
		}
	case "command_execution", "mcp_tool_call", "web_search", "file_change", "todo_list", "collab_tool_call":
		s.tool(typ, id, &it, st)
	case "":
		return s.b.Problem(s.n, typ+`: item without a "type"`)
	default:
		return s.b.Problem(s.n, fmt.Sprintf("%s: unknown item type %q", typ, k))
	}
	st.done = st.done || completed
	return nil
}

// decodeItem decodes an event's item. stop is true when the item cannot
// be mapped (err is then what item returns); a member of an unexpected
// type is left out and the rest of the item is mapped.
func (s *state) decodeItem(typ string, raw json.RawMessage) (it item, stop bool, _ error) {
	if len(raw) == 0 || string(raw) == "null" {
		return it, true, s.b.Problem(s.n, typ+" without an item")
	}
	if err := decodeItemJSON(raw, &it, &s.members); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) || te.Field == "" {
			return it, true, s.b.Problem(s.n, typ+": item is not an object")
		}
		if err := s.b.Problem(s.n, typ+": "+typeProblem(te)); err != nil {
			return it, true, err
		}
	}
	return it, false, nil
}

// itemError maps a completed error item: an error event.
func (s *state) itemError(id string, it *item) {
	msg := str(it.Message)
	if msg == "" {
		msg = "error"
	}
	s.openTurn()
	s.emit(event.Event{Kind: event.KindError, Message: msg, Extra: []event.Field{field("item_id", id)}})
}

// text emits the part of an item's text not emitted yet: items usually
// arrive whole in item.completed, but a streamed one grows by updates.
func (s *state) text(it *item, st *itemState, k string) {
	text := str(it.Text)
	var extra []event.Field
	if !strings.HasPrefix(text, st.text) {
		// The text was rewritten: emit it whole, noting the restart.
		st.text = ""
		extra = append(extra, field("rewritten", true))
	}
	delta := text[len(st.text):]
	if delta == "" {
		return
	}
	st.text = text
	kind := event.KindText
	if k == "reasoning" {
		kind = event.KindThinking
	}
	if k == "plan" {
		extra = append(extra, field("item_type", k))
	}
	s.openTurn()
	s.emit(event.Event{Kind: kind, Text: delta, Extra: extra})
}
