package codexexec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/importer"
)

// Importer imports the codex-exec-json format.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return "codex-exec-json" }

// Source is the header's source member for traces from Codex.
const Source = "codex"

// execTypes are the top-level event types of `codex exec --json`.
var execTypes = map[string]bool{
	"thread.started": true, "turn.started": true, "turn.completed": true, "turn.failed": true,
	"item.started": true, "item.updated": true, "item.completed": true, "item.plan.delta": true,
	"request_user_input": true, "error": true,
}

// Detect implements importer.Importer: the complete lines of the head (up
// to 32) are JSON objects whose "type" is a codex exec event type, and at
// least one of them is a thread.*, turn.* or item.* event (a lone
// {"type":"error"} is too common a shape to claim). Types under those
// three prefixes are accepted even when unknown, so that a newer stream is
// still recognised (its unknown lines are then reported as problems).
func (Importer) Detect(head []byte) bool {
	dotted := false
	seen := 0
	for len(head) > 0 && seen < 32 {
		line, rest, complete := bytes.Cut(head, []byte{'\n'})
		head = rest
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if !complete {
			// The head may end inside a line: judge its start only.
			if seen == 0 {
				return bytes.HasPrefix(line, []byte(`{"type":"thread.`)) ||
					bytes.HasPrefix(line, []byte(`{"type":"turn.`)) ||
					bytes.HasPrefix(line, []byte(`{"type":"item.`))
			}
			break
		}
		var probe struct {
			Type string `json:"type"`
		}
		if line[0] != '{' || json.Unmarshal(line, &probe) != nil {
			return false
		}
		lifecycle := strings.HasPrefix(probe.Type, "thread.") || strings.HasPrefix(probe.Type, "turn.") ||
			strings.HasPrefix(probe.Type, "item.")
		if !lifecycle && !execTypes[probe.Type] {
			return false
		}
		dotted = dotted || lifecycle
		seen++
	}
	return dotted
}

// Import implements importer.Importer.
func (Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	s := &state{
		b:       importer.NewBuilder(Source, opts),
		ignored: map[string]int{},
		meta:    map[string]any{"format": "codex-exec-json"},
		items:   map[string]*itemState{},
	}
	err := importer.EachLine(r, s.line, func(n int) error {
		return s.b.Problem(n, fmt.Sprintf("line longer than %d bytes: skipped", importer.MaxLine))
	})
	if err != nil {
		return nil, err
	}
	if len(s.threads) > 0 {
		s.meta["thread_id"] = s.threads[0]
		if len(s.threads) > 1 {
			s.meta["thread_ids"] = s.threads
		}
	}
	if len(s.ignored) > 0 {
		s.meta["ignored"] = s.ignored
	}
	s.b.SetMeta(s.meta)
	return s.b.Result(), nil
}

type state struct {
	b       *importer.Builder
	meta    map[string]any
	ignored map[string]int
	threads []string
	n       int

	turnOpen bool
	items    map[string]*itemState // by item id
}

// itemState is what was emitted for one item id so far.
type itemState struct {
	kind    string // item type
	started bool   // a tool_start was emitted
	done    bool   // the item completed
	output  string // aggregated_output already emitted as progress
	text    string // text already emitted (agent_message, reasoning, plan)
}

// line is one event of the stream.
type line struct {
	Type     string          `json:"type"`
	ThreadID string          `json:"thread_id"`
	Item     json.RawMessage `json:"item"`
	Usage    json.RawMessage `json:"usage"`
	Error    *struct {
		Message string `json:"message"`
	} `json:"error"`
	Message string `json:"message"`
}

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

func (it *item) kind() string {
	if it.Type != "" {
		return it.Type
	}
	return it.ItemType
}

func (s *state) emit(ev event.Event) {
	s.b.Emit(s.b.Clock(time.Time{}, false), ev)
}

func (s *state) ignore(what string) { s.ignored[what]++ }

func (s *state) line(n int, raw []byte) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	s.n = n
	var l line
	if err := json.Unmarshal(raw, &l); err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te) && te.Field != "type" && te.Field != "":
			// One member has an unexpected type: map what decoded.
			if err := s.b.Problem(n, typeProblem(te)); err != nil {
				return err
			}
		case errors.As(err, &te):
			return s.b.Problem(n, typeProblem(te))
		case err.Error() == "unexpected end of JSON input":
			return s.b.Problem(n, "truncated JSON (unexpected end of input)")
		default:
			return s.b.Problem(n, "not JSON: "+err.Error())
		}
	}
	switch l.Type {
	case "thread.started":
		s.ignore(l.Type)
		if l.ThreadID != "" {
			s.threads = append(s.threads, l.ThreadID)
		}
	case "turn.started":
		if s.turnOpen {
			// A new turn began: the previous one is over, whatever it left.
			s.emit(event.Event{Kind: event.KindTurnEnd, Extra: []event.Field{field("ended_by", "turn.started")}})
		}
		s.emit(event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant})
		s.turnOpen = true
	case "turn.completed":
		var extra []event.Field
		if len(l.Usage) > 0 && string(l.Usage) != "null" {
			extra = append(extra, event.Field{Key: "usage", Value: compact(l.Usage)})
		}
		s.openTurn()
		s.emit(event.Event{Kind: event.KindTurnEnd, Extra: extra})
		s.turnOpen = false
	case "turn.failed":
		msg := "turn failed"
		if l.Error != nil && l.Error.Message != "" {
			msg = l.Error.Message
		}
		s.openTurn()
		s.emit(event.Event{Kind: event.KindError, Message: msg, Extra: []event.Field{field("event", l.Type)}})
		s.emit(event.Event{Kind: event.KindTurnEnd})
		s.turnOpen = false
	case "error":
		msg := l.Message
		if msg == "" {
			msg = "error"
		}
		s.emit(event.Event{Kind: event.KindError, Message: msg})
	case "item.started", "item.updated", "item.completed":
		return s.item(l.Type, l.Item)
	case "item.plan.delta", "request_user_input":
		s.ignore(l.Type)
	case "":
		return s.b.Problem(n, `no "type" member`)
	default:
		return s.b.Problem(n, fmt.Sprintf("unknown event type %q", l.Type))
	}
	return nil
}

// openTurn opens a turn for output that comes without turn.started (a
// stream whose start was cut).
func (s *state) openTurn() {
	if !s.turnOpen {
		s.emit(event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant})
		s.turnOpen = true
	}
}

func (s *state) item(typ string, raw json.RawMessage) error {
	var it item
	if len(raw) == 0 || string(raw) == "null" {
		return s.b.Problem(s.n, typ+" without an item")
	}
	if err := json.Unmarshal(raw, &it); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) || te.Field == "" {
			return s.b.Problem(s.n, typ+": item is not an object")
		}
		if err := s.b.Problem(s.n, typ+": "+typeProblem(te)); err != nil {
			return err
		}
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
			msg := str(it.Message)
			if msg == "" {
				msg = "error"
			}
			s.openTurn()
			s.emit(event.Event{Kind: event.KindError, Message: msg, Extra: []event.Field{field("item_id", id)}})
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

// tool maps the lifecycle of a tool item.
func (s *state) tool(typ, id string, it *item, st *itemState) {
	if !st.started {
		s.openTurn()
		name, args := toolCall(it)
		s.emit(event.Event{Kind: event.KindToolStart, ID: id, Name: name, Args: args,
			Extra: []event.Field{field("item_type", it.kind())}})
		st.started = true
	}
	switch typ {
	case "item.updated", "item.started":
		if typ == "item.started" && str(it.AggregatedOut) == "" {
			return
		}
		s.progress(id, it, st)
	case "item.completed":
		if it.Status == "declined" {
			s.emit(event.Event{Kind: event.KindPermission, ID: id, State: event.PermissionDenied,
				Extra: []event.Field{field("status", it.Status)}})
			return
		}
		s.emit(s.done(id, it))
	}
}

// progress emits what aggregated_output gained since the last update, and
// the item's current state as details for the other item types.
func (s *state) progress(id string, it *item, st *itemState) {
	ev := event.Event{Kind: event.KindToolProgress, ID: id}
	if it.AggregatedOut != nil {
		out := *it.AggregatedOut
		if strings.HasPrefix(out, st.output) {
			ev.Output = out[len(st.output):]
		} else {
			// Not an extension of what was shown: keep it whole aside.
			ev.Extra = append(ev.Extra, field("aggregated_output", out))
		}
		st.output = out
	}
	if len(it.Items) > 0 && string(it.Items) != "null" {
		ev.Details = mustObject(map[string]json.RawMessage{"items": compact(it.Items)})
	}
	if len(it.AgentsStates) > 0 && string(it.AgentsStates) != "null" {
		ev.Details = mustObject(map[string]json.RawMessage{"agents_states": compact(it.AgentsStates)})
	}
	s.emit(ev)
}

// done builds the tool_done of a completed item.
func (s *state) done(id string, it *item) event.Event {
	ev := event.Event{Kind: event.KindToolDone, ID: id, OK: true}
	if it.AggregatedOut != nil {
		ev.Output = *it.AggregatedOut
	}
	if it.Status != "" {
		ev.Extra = append(ev.Extra, field("status", it.Status))
	}
	if it.Status == "failed" {
		ev.OK, ev.Error = false, "failed"
	}
	if it.ExitCode != nil {
		ev.Extra = append(ev.Extra, field("exit_code", *it.ExitCode))
		if *it.ExitCode != 0 {
			ev.OK, ev.Error = false, "exit code "+strconv.Itoa(*it.ExitCode)
		}
	}
	if msg := errorMessage(it.Error); msg != "" {
		ev.OK, ev.Error = false, msg
	}
	if len(it.Result) > 0 && string(it.Result) != "null" {
		var res struct {
			Content []struct {
				Type string  `json:"type"`
				Text *string `json:"text"`
			} `json:"content"`
		}
		if json.Unmarshal(it.Result, &res) == nil {
			var texts []string
			for _, c := range res.Content {
				if c.Text != nil {
					texts = append(texts, *c.Text)
				}
			}
			ev.Output = strings.Join(texts, "\n")
		}
		ev.Extra = append(ev.Extra, event.Field{Key: "result", Value: compact(it.Result)})
	}
	if !ev.OK && (ev.Error == "failed" || strings.HasPrefix(ev.Error, "exit code ")) {
		if first := firstLine(ev.Output); first != "" {
			ev.Error += ": " + first
		}
	}
	return ev
}

// toolCall names a tool item and builds its args.
func toolCall(it *item) (string, json.RawMessage) {
	args := map[string]json.RawMessage{}
	put := func(k string, v json.RawMessage) {
		if len(v) > 0 && string(v) != "null" {
			args[k] = compact(v)
		}
	}
	name := it.kind()
	switch name {
	case "command_execution":
		name = "shell"
		put("command", it.Command)
	case "mcp_tool_call":
		name = it.Tool
		if name == "" {
			name = "mcp_tool_call"
		}
		if obj := compact(it.Arguments); len(obj) > 0 && obj[0] == '{' {
			var m map[string]json.RawMessage
			if json.Unmarshal(obj, &m) == nil {
				args = m
			}
		} else {
			put("arguments", it.Arguments)
		}
		if it.Server != "" {
			if _, taken := args["server"]; !taken {
				args["server"] = mustObject(it.Server)
			}
		}
	case "web_search":
		if it.Query != nil {
			args["query"] = mustObject(*it.Query)
		}
		put("action", it.Action)
	case "file_change":
		name = "apply_patch"
		put("changes", it.Changes)
	case "todo_list":
		name = "update_plan" // a meta tool: the plan Codex keeps
		put("items", it.Items)
	case "collab_tool_call":
		if it.Tool != "" {
			name = it.Tool
		}
		if it.Prompt != nil {
			args["prompt"] = mustObject(*it.Prompt)
		}
		put("receiver_thread_ids", it.ReceiverThreads)
	}
	return name, mustObject(args)
}

// errorMessage reads an item's error: {"message": …} or a string.
func errorMessage(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var e struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &e) == nil && e.Message != "" {
		return e.Message
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(compact(raw))
}

// typeProblem words a member of the wrong JSON type; the member is left
// out and the rest of the line is mapped.
func typeProblem(te *json.UnmarshalTypeError) string {
	if te.Field == "" {
		return "not a JSON object: got " + te.Value
	}
	return fmt.Sprintf("member %q: unexpected JSON %s: left out", te.Field, te.Value)
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}

func compact(b []byte) json.RawMessage {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return mustObject(string(b))
	}
	return buf.Bytes()
}

// mustObject marshals values that cannot fail: strings, numbers, booleans
// and maps of compacted raw JSON.
func mustObject(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage(`{}`)
	}
	return b
}

func field(key string, v any) event.Field { return event.Field{Key: key, Value: mustObject(v)} }

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
