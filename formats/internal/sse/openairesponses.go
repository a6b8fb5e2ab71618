package sse

import (
	"encoding/json"
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/internal/jsonscan"
)

// responsesDecoder maps OpenAI Responses streaming events.
type responsesDecoder struct {
	t     *Turn
	items map[string]*item // tool call items by item id
	order []string         // item ids in the order added
	buf   scratch
}

// item is a tool call item being streamed.
type item struct {
	line    int
	typ     string
	id      string // item_id (fc_…)
	callID  string // call_id (call_…): what results link to
	name    string
	args    []byte
	custom  bool // custom_tool_call: free-text input, kept as {"input": ...}
	server  bool // run by the provider: a result follows in the stream
	emitted bool
}

// ResponsesItem is an output item of the Responses API, as streamed in
// response.output_item.* and as found in a whole response.
type ResponsesItem struct {
	ID        string          `json:"id"`
	Type      string          `json:"type"`
	Status    string          `json:"status"`
	CallID    string          `json:"call_id"`
	Name      string          `json:"name"`
	Arguments string          `json:"arguments"`
	Input     string          `json:"input"`
	Action    json.RawMessage `json:"action"`
	Error     json.RawMessage `json:"error"`
}

// ResponsesOutcome is how an OpenAI Responses response ended, as its
// response object says: its status, and why it failed or stopped short.
// The stream's response.* events carry one, and so does a whole response
// body (formats/vcr); both word it with Failure and Incomplete.
type ResponsesOutcome struct {
	Status string `json:"status"`
	Error  *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	IncompleteDetails *struct {
		Reason string `json:"reason"`
	} `json:"incomplete_details"`
}

// Failure is what a failed response reports: "code: message", or
// "response failed" when it gives no error (or o is nil).
func (o *ResponsesOutcome) Failure() string {
	if o == nil || o.Error == nil {
		return "response failed"
	}
	return joinCode(o.Error.Code, o.Error.Message)
}

// Incomplete is the notice of a response cut short: "response
// incomplete: " and its reason, or "unknown reason" when it gives none
// (or o is nil).
func (o *ResponsesOutcome) Incomplete() string {
	reason := "unknown reason"
	if o != nil && o.IncompleteDetails != nil && o.IncompleteDetails.Reason != "" {
		reason = o.IncompleteDetails.Reason
	}
	return "response incomplete: " + reason
}

// responsesResponse is the response object of response.* events: its id
// and how it ended.
type responsesResponse struct {
	ID string `json:"id"`
	ResponsesOutcome
}

// outcome is r's outcome, nil when the event carried no response.
func (r *responsesResponse) outcome() *ResponsesOutcome {
	if r == nil {
		return nil
	}
	return &r.ResponsesOutcome
}

// responsesEvent is one Responses stream event: the members of every
// event type.
type responsesEvent struct {
	Type      string             `json:"type"`
	Response  *responsesResponse `json:"response"`
	Item      *ResponsesItem     `json:"item"`
	ItemID    string             `json:"item_id"`
	Delta     json.RawMessage    `json:"delta"`
	Arguments *string            `json:"arguments"`
	Input     *string            `json:"input"`
	Code      *string            `json:"code"`
	Message   string             `json:"message"`
}

// responsesIgnored are event types that carry nothing the trace needs (the
// text they repeat was already streamed as deltas).
var responsesIgnored = map[string]bool{
	"response.queued": true, "response.in_progress": true,
	"response.output_text.done": true, "response.refusal.done": true,
	"response.content_part.added": true, "response.content_part.done": true,
	"response.output_text.annotation.added": true,
	"response.reasoning_summary_part.added": true, "response.reasoning_summary_part.done": true,
	"response.reasoning_summary_text.done": true, "response.reasoning_text.done": true,
}

// responsesIgnoredPrefixes are the progress events of the provider's own
// tools; their items' added/done events carry the call and its result.
var responsesIgnoredPrefixes = []string{
	"response.web_search_call.", "response.file_search_call.",
	"response.code_interpreter_call.", "response.code_interpreter_call_code.",
	"response.image_generation_call.", "response.mcp_call.", "response.mcp_call_arguments.",
	"response.mcp_list_tools.", "response.audio.", "response.audio_transcript.",
}

// ServerToolItems are Responses item types the provider runs itself.
var ServerToolItems = map[string]bool{
	"web_search_call": true, "file_search_call": true, "code_interpreter_call": true,
	"image_generation_call": true, "mcp_call": true,
}

// event maps one event of a Responses stream.
func (d *responsesDecoder) event(ev *Event) error {
	t := d.t
	var m responsesEvent
	if !fastResponsesEvent(ev.Data, &m, &d.buf) {
		m = responsesEvent{}
		if ok, err := unmarshal(t, ev, &m); !ok {
			return err
		}
	}
	typ, err := eventType(t, ev, m.Type)
	if err != nil {
		return err
	}
	switch typ {
	case "response.created":
		id := ""
		if m.Response != nil {
			id = m.Response.ID
		}
		return t.Begin(ev.Line, id)
	case "response.output_item.added":
		return d.itemAdded(ev, m.Item)
	case "response.output_item.done":
		return d.itemDone(ev, m.Item)
	case "response.function_call_arguments.delta", "response.custom_tool_call_input.delta":
		it, err := d.lookup(ev, m.ItemID)
		if it == nil {
			return err
		}
		it.args = append(it.args, deltaString(m.Delta)...)
	case "response.function_call_arguments.done", "response.custom_tool_call_input.done":
		return d.argsDone(ev, &m)
	case "response.output_text.delta", "response.refusal.delta":
		t.ensure(ev.Line)
		t.Text(deltaString(m.Delta))
	case "response.reasoning_summary_text.delta", "response.reasoning_text.delta":
		t.ensure(ev.Line)
		t.Thinking(deltaString(m.Delta))
	default:
		return d.endEvent(ev, typ, &m)
	}
	return nil
}

// argsDone maps the end of a call's arguments (or custom input): the
// whole value replaces the deltas, and the call starts.
func (d *responsesDecoder) argsDone(ev *Event, m *responsesEvent) error {
	it, err := d.lookup(ev, m.ItemID)
	if it == nil {
		return err
	}
	switch {
	case m.Arguments != nil:
		it.args = []byte(*m.Arguments)
	case m.Input != nil:
		it.args = []byte(*m.Input)
	}
	return d.emit(it, false)
}

// endEvent maps the events that end a response (completed, incomplete,
// failed, error) and the rest: ignored types, or unknown ones.
func (d *responsesDecoder) endEvent(ev *Event, typ string, m *responsesEvent) error {
	t := d.t
	switch typ {
	case "response.completed":
		if err := d.flush(true); err != nil {
			return err
		}
		t.End()
	case "response.incomplete":
		if err := d.flush(true); err != nil {
			return err
		}
		t.Notice(m.Response.outcome().Incomplete())
		t.End()
	case "response.failed":
		t.Fail(m.Response.outcome().Failure())
	case "error":
		code := ""
		if m.Code != nil {
			code = *m.Code
		}
		t.Fail(joinCode(code, m.Message))
	default:
		return d.otherEvent(ev, typ)
	}
	return nil
}

// otherEvent counts an event type the trace does not need, or reports an
// unknown one.
func (d *responsesDecoder) otherEvent(ev *Event, typ string) error {
	t := d.t
	if responsesIgnored[typ] {
		t.Ignore(typ)
		return nil
	}
	for _, p := range responsesIgnoredPrefixes {
		if strings.HasPrefix(typ, p) {
			t.Ignore(typ)
			return nil
		}
	}
	return t.Problem(ev.Line, "unknown event type %q: skipped", typ)
}

// joinCode joins an error code and message, either of which may be empty.
func joinCode(code, msg string) string {
	switch {
	case code == "":
		return msg
	case msg == "":
		return code
	}
	return code + ": " + msg
}

// lookup finds the tool call item an arguments event is for.
func (d *responsesDecoder) lookup(ev *Event, id string) (*item, error) {
	if it := d.items[id]; it != nil {
		return it, nil
	}
	return nil, d.t.Problem(ev.Line, "arguments for item %q, which no output_item.added announced as a tool call: skipped", id)
}

// itemAdded maps response.output_item.added: a tool call item is
// remembered (and a provider-run one shown running).
func (d *responsesDecoder) itemAdded(ev *Event, it *ResponsesItem) error {
	t := d.t
	if it == nil {
		return t.Problem(ev.Line, "output_item.added without an item: skipped")
	}
	t.ensure(ev.Line)
	switch {
	case it.Type == "message" || it.Type == "reasoning":
		t.Ignore("response.output_item.added")
	case it.Type == "function_call" || it.Type == "custom_tool_call" || strings.HasSuffix(it.Type, "_call"):
		x := &item{line: ev.Line, typ: it.Type, id: it.ID, callID: it.CallID, name: it.Name,
			custom: it.Type == "custom_tool_call", server: ServerToolItems[it.Type]}
		switch {
		case it.Type == "function_call":
			x.args = []byte(it.Arguments)
		case x.custom:
			x.args = []byte(it.Input)
		default:
			x.args = it.Action
		}
		if x.name == "" {
			x.name = strings.TrimSuffix(it.Type, "_call")
		}
		d.items[it.ID] = x
		d.order = append(d.order, it.ID)
		if x.server { // the provider runs it now: show it running
			return d.emit(x, false)
		}
	default:
		return t.Problem(ev.Line, "unknown output item type %q: skipped", it.Type)
	}
	return nil
}

// itemDone maps response.output_item.done: the call of an item whose
// arguments did not stream, or a provider-run call's result.
func (d *responsesDecoder) itemDone(ev *Event, it *ResponsesItem) error {
	t := d.t
	if it == nil {
		return t.Problem(ev.Line, "output_item.done without an item: skipped")
	}
	x := d.items[it.ID]
	if x == nil {
		if it.Type == "message" || it.Type == "reasoning" {
			t.Ignore("response.output_item.done")
			return nil
		}
		if err := d.itemAdded(ev, it); err != nil { // done without added: take it whole
			return err
		}
		if x = d.items[it.ID]; x == nil {
			return nil
		}
	}
	if x.server {
		return d.serverItemDone(x, it)
	}
	if x.emitted {
		t.Ignore("response.output_item.done")
		return nil
	}
	switch {
	case it.Type == "function_call":
		x.args = []byte(it.Arguments)
	case x.custom:
		x.args = []byte(it.Input)
	case len(it.Action) > 0:
		x.args = it.Action
	}
	return d.emit(x, false)
}

// serverItemDone maps the done item of a tool the provider ran: the call
// (if not shown yet) and its result.
func (d *responsesDecoder) serverItemDone(x *item, it *ResponsesItem) error {
	t := d.t
	if !x.emitted {
		if err := d.emit(x, false); err != nil {
			return err
		}
	}
	ok := it.Status != "failed" && it.Status != "incomplete"
	errText := ""
	if !ok {
		errText = it.Status
		if len(it.Error) > 0 && string(it.Error) != "null" {
			errText = string(it.Error)
		}
	}
	t.ToolDone(x.callIDOrID(), ok, "", errText)
	delete(d.items, it.ID)
	return nil
}

// callIDOrID is the id results link to: the call_id, else the item id.
func (x *item) callIDOrID() string {
	if x.callID != "" {
		return x.callID
	}
	return x.id
}

// emit issues the tool_start of an item: id = call_id (results link by
// it), item_id kept as an extra field.
func (d *responsesDecoder) emit(x *item, incomplete bool) error {
	if x.emitted {
		return nil
	}
	x.emitted = true
	args := x.args
	if x.custom {
		args, _ = json.Marshal(map[string]string{"input": string(x.args)})
	}
	var extra []event.Field
	if x.id != "" && x.callID != "" && x.id != x.callID {
		extra = append(extra, StringField("item_id", x.id))
	}
	return d.t.ToolCall(Call{Line: x.line, ID: x.callIDOrID(), Name: x.name, Args: args, Incomplete: incomplete, Server: x.server, Extra: extra})
}

// flush emits the calls whose arguments never completed.
func (d *responsesDecoder) flush(incomplete bool) error {
	for _, id := range d.order {
		if x := d.items[id]; x != nil && !x.emitted {
			if err := d.emit(x, incomplete); err != nil {
				return err
			}
		}
	}
	d.order = d.order[:0]
	clear(d.items)
	return nil
}

func (d *responsesDecoder) end(last int) error {
	if err := d.flush(true); err != nil {
		return err
	}
	return d.t.Finish(last)
}

// deltaString is a "delta" member that is a JSON string (else empty).
func deltaString(raw json.RawMessage) string {
	s, _ := jsonscan.String(raw) // raw is checked JSON: the string encoding/json decodes
	return s
}
