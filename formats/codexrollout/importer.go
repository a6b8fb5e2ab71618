package codexrollout

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/importer"
)

// Importer imports the codex-rollout format.
type Importer struct{}

// Name implements importer.Importer.
func (Importer) Name() string { return "codex-rollout" }

// Source is the header's source member for traces from Codex.
const Source = "codex"

// lineShape is the start of every rollout line: Codex writes the members
// timestamp, type and payload in that order.
var lineShape = regexp.MustCompile(`^\{\s*"timestamp"\s*:\s*"[^"]*"\s*,\s*"type"\s*:\s*"(session_meta|response_item|event_msg|turn_context|compacted)"\s*,\s*"payload"\s*:`)

// Detect implements importer.Importer: the first non-blank line starts like
// a rollout line, {"timestamp":"…","type":"session_meta|response_item|
// event_msg|turn_context|compacted","payload":…}. Only the start of the line
// is looked at, so a first line longer than the head (a session_meta
// carrying whole instructions) is still recognised.
func (Importer) Detect(head []byte) bool {
	for len(head) > 0 {
		line, rest, _ := bytes.Cut(head, []byte{'\n'})
		if line = bytes.TrimSpace(line); len(line) > 0 {
			return lineShape.Match(line)
		}
		head = rest
	}
	return false
}

// Import implements importer.Importer.
func (Importer) Import(r io.Reader, opts importer.Options) (*importer.Result, error) {
	s := &state{
		b:       importer.NewBuilder(Source, opts),
		ignored: map[string]int{},
		meta:    map[string]any{"format": "codex-rollout"},
	}
	err := importer.EachLine(r, s.line, func(n int) error {
		return s.b.Problem(n, fmt.Sprintf("line longer than %d bytes: skipped", importer.MaxLine))
	})
	if err != nil {
		return nil, err
	}
	s.finish()
	if len(s.ignored) > 0 {
		s.meta["ignored"] = s.ignored
	}
	s.b.SetMeta(s.meta)
	return s.b.Result(), nil
}

// state is one import in progress.
type state struct {
	b       *importer.Builder
	meta    map[string]any
	ignored map[string]int

	// the line being mapped
	n  int
	ts time.Time
	ok bool // ts is usable

	asstOpen  bool // a turn_start{assistant} was emitted and not yet ended
	cancelled bool // the open assistant turn was aborted (turn_aborted)
	lifecycle bool // the rollout records task_started / task_complete
	srcTurn   bool // between task_started and task_complete / turn_aborted

	resp   int  // model responses seen: the batch key is resp-<resp>
	inResp bool // the current model response is still open

	genID int // generated ids handed out
}

// envelope is one rollout line. The payload is decoded in the same pass:
// payload holds the members of every payload kind that the mapping uses.
type envelope struct {
	Timestamp *string  `json:"timestamp"`
	Type      string   `json:"type"`
	Payload   *payload `json:"payload"`
}

// payload is the union of the payload members the importer reads. Members
// whose JSON type differs between payload kinds are kept raw.
type payload struct {
	Type string `json:"type"`

	// response_item
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Summary   json.RawMessage `json:"summary"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	CallID    *string         `json:"call_id"`
	ID        json.RawMessage `json:"id"`
	Status    json.RawMessage `json:"status"`
	Action    json.RawMessage `json:"action"`
	Output    json.RawMessage `json:"output"`
	Phase     json.RawMessage `json:"phase"`

	// event_msg
	Reason   json.RawMessage `json:"reason"`
	TurnID   json.RawMessage `json:"turn_id"`
	Message  json.RawMessage `json:"message"`
	Duration json.RawMessage `json:"duration_ms"`

	// session_meta, turn_context
	Cwd           json.RawMessage `json:"cwd"`
	CLIVersion    json.RawMessage `json:"cli_version"`
	Originator    json.RawMessage `json:"originator"`
	ModelProvider json.RawMessage `json:"model_provider"`
	Source        json.RawMessage `json:"source"`
	Git           json.RawMessage `json:"git"`
	Model         json.RawMessage `json:"model"`
}

func (s *state) line(n int, line []byte) error {
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	s.n = n
	line = dropEncrypted(line)
	var env envelope
	if err := json.Unmarshal(line, &env); err != nil {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) {
			return s.b.Problem(n, jsonProblem(err))
		}
		if te.Field == "type" || te.Field == "payload" || te.Field == "payload.type" || te.Field == "timestamp" {
			return s.b.Problem(n, fmt.Sprintf("member %q: want a JSON %s, got %s", te.Field, jsonKind(te.Type), te.Value))
		}
		// Another member has an unexpected type: map what decoded.
		if err := s.b.Problem(n, fmt.Sprintf("member %q: want a JSON %s, got %s: left out", te.Field, jsonKind(te.Type), te.Value)); err != nil {
			return err
		}
	}
	s.ts, s.ok = time.Time{}, false
	if env.Timestamp != nil {
		ts, err := time.Parse(time.RFC3339Nano, *env.Timestamp)
		if err != nil {
			if err := s.b.Problem(n, fmt.Sprintf("bad timestamp %q: synthetic time used", *env.Timestamp)); err != nil {
				return err
			}
		} else {
			s.ts, s.ok = ts, true
		}
	}
	if env.Type == "" {
		return s.b.Problem(n, `no "type" member`)
	}
	p := env.Payload
	if p == nil {
		return s.b.Problem(n, fmt.Sprintf("%s line without a payload", env.Type))
	}
	switch env.Type {
	case "session_meta":
		s.sessionMeta(p)
		return nil
	case "turn_context":
		s.turnContext(p)
		return nil
	case "compacted":
		s.ignore("compacted")
		s.inResp = false
		return nil
	case "response_item":
		return s.responseItem(p)
	case "event_msg":
		return s.eventMsg(p)
	}
	return s.b.Problem(n, fmt.Sprintf("unknown line type %q", env.Type))
}

var encryptedKey = []byte(`"encrypted_content":"`)

// dropEncrypted empties the value of an "encrypted_content" member in
// place. Encrypted reasoning is half the bytes of a typical rollout and the
// importer never reads it, so it is cut before decoding. Outside a string
// the key can only be a member name (inside one its quotes would be
// escaped), and the value is cut only when it is plain (no escapes, no
// control characters), so the line stays valid JSON exactly when it was.
func dropEncrypted(line []byte) []byte {
	i := bytes.Index(line, encryptedKey)
	if i < 0 {
		return line
	}
	start := i + len(encryptedKey)
	j := bytes.IndexByte(line[start:], '"')
	if j <= 0 {
		return line
	}
	for _, c := range line[start : start+j] {
		if c < 0x20 || c == '\\' {
			return line
		}
	}
	n := copy(line[start:], line[start+j:])
	return line[:start+n]
}

// jsonKind names the JSON type a Go type decodes from.
func jsonKind(t reflect.Type) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return "value"
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "object"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "number"
	}
	return t.String()
}

// jsonProblem words a decoding error.
func jsonProblem(err error) string {
	if err.Error() == "unexpected end of JSON input" {
		return "truncated JSON (unexpected end of input)"
	}
	return "not JSON: " + err.Error()
}

func (s *state) ignore(what string) { s.ignored[what]++ }

// emit appends an event at the line's time.
func (s *state) emit(ev event.Event) {
	s.b.Emit(s.b.Clock(s.ts, s.ok), ev)
}

func (s *state) sessionMeta(p *payload) {
	s.ignore("session_meta")
	for _, m := range []struct {
		key string
		val json.RawMessage
	}{
		{"session_id", p.ID}, {"cwd", p.Cwd}, {"cli_version", p.CLIVersion}, {"originator", p.Originator},
		{"model_provider", p.ModelProvider}, {"session_source", p.Source}, {"git", p.Git}, {"model", p.Model},
	} {
		if len(m.val) > 0 && string(m.val) != "null" {
			if _, have := s.meta[m.key]; !have {
				s.meta[m.key] = m.val
			}
		}
	}
}

func (s *state) turnContext(p *payload) {
	s.ignore("turn_context")
	s.inResp = false
	if _, have := s.meta["model"]; !have && len(p.Model) > 0 && string(p.Model) != "null" {
		s.meta["model"] = p.Model
	}
}

func (s *state) responseItem(it *payload) error {
	switch it.Type {
	case "message":
		return s.message(it)
	case "reasoning":
		return s.reasoning(it)
	case "function_call", "custom_tool_call":
		raw := it.Arguments
		if it.Type == "custom_tool_call" {
			raw = it.Input
		}
		args, extra := parseArguments(raw)
		extra = append(extra, field("call_type", it.Type))
		var id string
		if it.CallID != nil {
			id = *it.CallID // an empty one is kept: the engine reports missing_id
		} else {
			id = s.newID(&extra)
		}
		s.call(id, it.Name, args, extra, it)
		return nil
	case "local_shell_call":
		extra := []event.Field{field("call_type", it.Type)}
		id := str(it.CallID) // optional for this item: else its own id
		if id == "" {
			id = rawString(it.ID)
		}
		if id == "" {
			id = s.newID(&extra)
		}
		args := it.Action
		if !isObject(args) {
			args = nil
		}
		s.call(id, "local_shell", args, extra, it)
		return nil
	case "web_search_call":
		return s.webSearch(it)
	case "function_call_output", "custom_tool_call_output":
		return s.output(it)
	case "ghost_snapshot", "compaction", "other":
		s.ignore(it.Type)
		return nil
	case "":
		return s.b.Problem(s.n, `response_item without a "type"`)
	}
	return s.b.Problem(s.n, fmt.Sprintf("unknown response_item type %q", it.Type))
}

// contextPrefixes start the user messages Codex injects itself (workspace
// context, AGENTS.md, shell commands the user ran, abort markers): they
// are not prompts.
var contextPrefixes = []string{
	"<environment_context>", "<user_instructions>", "# agents.md instructions",
	"<user_shell_command>", "<turn_aborted>", "<permissions instructions>",
}

func isContext(text string) bool {
	t := strings.ToLower(strings.TrimLeft(text, " \t\r\n"))
	for _, p := range contextPrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

func (s *state) message(it *payload) error {
	text, images := contentText(it.Content)
	var extra []event.Field
	if images > 0 {
		extra = append(extra, field("images", images))
	}
	if phase := rawString(it.Phase); phase != "" {
		extra = append(extra, field("phase", phase))
	}
	switch it.Role {
	case "user":
		if isContext(text) {
			s.ignore("context_message")
			return nil
		}
		s.prompt(text, extra)
	case "assistant":
		if text == "" {
			s.ignore("empty_message")
			return nil
		}
		s.model()
		s.emit(event.Event{Kind: event.KindText, Text: text, Extra: extra})
	case "developer", "system":
		s.ignore(it.Role + "_message")
	default:
		return s.b.Problem(s.n, fmt.Sprintf("message with unknown role %q", it.Role))
	}
	return nil
}

// prompt maps a user message. A prompt normally ends the agent's previous
// turn and is a user turn of its own. When the rollout records turn
// lifecycle events and the source turn is still running, the message was
// typed into the running turn (Codex injects it): it is emitted as a user
// event inside the turn.
func (s *state) prompt(text string, extra []event.Field) {
	if s.lifecycle && s.srcTurn && s.asstOpen && !s.cancelled {
		s.emit(event.Event{Kind: event.KindUser, Text: text, Extra: append(extra, field("mid_turn", true))})
		s.inResp = false
		return
	}
	s.closeTurn(nil)
	s.emit(event.Event{Kind: event.KindTurnStart, Role: event.RoleUser})
	s.emit(event.Event{Kind: event.KindUser, Text: text, Extra: extra})
	s.emit(event.Event{Kind: event.KindTurnEnd})
	s.inResp = false
}

// model marks output of the model: it opens the assistant turn and the
// model response the batch key names.
func (s *state) model() {
	if s.asstOpen && s.cancelled {
		s.closeTurn(nil) // output after an abort belongs to a new turn
	}
	if !s.asstOpen {
		s.emit(event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant})
		s.asstOpen, s.cancelled = true, false
	}
	if !s.inResp {
		s.resp++
		s.inResp = true
	}
}

// closeTurn ends the open assistant turn.
func (s *state) closeTurn(extra []event.Field) {
	if s.asstOpen {
		s.emit(event.Event{Kind: event.KindTurnEnd, Extra: extra})
		s.asstOpen, s.cancelled = false, false
	}
	s.inResp = false
}

func (s *state) reasoning(it *payload) error {
	var parts []string
	for _, raw := range []json.RawMessage{it.Summary, it.Content} {
		var ps []struct {
			Text string `json:"text"`
		}
		if len(raw) > 0 && json.Unmarshal(raw, &ps) == nil {
			for _, p := range ps {
				if strings.TrimSpace(p.Text) != "" {
					parts = append(parts, p.Text)
				}
			}
		}
		if len(parts) > 0 {
			break // the summary, else the raw reasoning text
		}
	}
	if len(parts) == 0 {
		s.ignore("reasoning_without_text")
		return nil
	}
	s.model()
	s.emit(event.Event{Kind: event.KindThinking, Text: strings.Join(parts, "\n\n")})
	return nil
}

// newID hands out a generated id for a call the source gave none, and
// notes it in the event's Extra.
func (s *state) newID(extra *[]event.Field) string {
	s.genID++
	*extra = append(*extra, field("generated_id", true))
	return fmt.Sprintf("codex-call-%d", s.genID)
}

// call emits a tool_start with the given id and returns it.
func (s *state) call(id, name string, args json.RawMessage, extra []event.Field, it *payload) string {
	s.model()
	if status := rawString(it.Status); status != "" {
		extra = append(extra, field("status", status))
	}
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	s.emit(event.Event{Kind: event.KindToolStart, ID: id, Name: name, Args: args,
		Batch: "resp-" + strconv.Itoa(s.resp), Extra: extra})
	return id
}

// webSearch maps a web_search_call: the search ran on the model side and
// has no separate output record, so it starts and ends here.
func (s *state) webSearch(it *payload) error {
	args := it.Action
	if !isObject(args) {
		args = nil
	}
	extra := []event.Field{field("call_type", it.Type)}
	id := rawString(it.ID)
	if id == "" {
		id = s.newID(&extra)
	}
	s.call(id, "web_search", args, extra, it)
	done := event.Event{Kind: event.KindToolDone, ID: id, OK: rawString(it.Status) != "failed"}
	if !done.OK {
		done.Error = "web search failed"
	}
	s.emit(done)
	return nil
}

func (s *state) output(it *payload) error {
	if it.CallID == nil {
		return s.b.Problem(s.n, it.Type+" without a call_id: cannot pair it")
	}
	id := *it.CallID // an empty one is kept: the engine reports missing_id
	res := parseOutput(it.Output)
	done := event.Event{Kind: event.KindToolDone, ID: id, OK: res.ok, Output: res.text, Error: res.err,
		DurationMS: res.duration}
	if res.exit != nil {
		done.Extra = append(done.Extra, field("exit_code", *res.exit))
	}
	if res.unreadable {
		if err := s.b.Problem(s.n, it.Type+": output is neither text nor content items: kept raw"); err != nil {
			return err
		}
	}
	s.emit(done)
	return nil
}

func (s *state) eventMsg(ev *payload) error {
	var extra []event.Field
	if id := rawString(ev.TurnID); id != "" {
		extra = append(extra, field("turn_id", id))
	}
	switch ev.Type {
	case "token_count":
		s.ignore(ev.Type)
		s.inResp = false // written when a model response completes
	case "task_started", "turn_started":
		s.ignore(ev.Type)
		if s.asstOpen {
			// A new task: the previous turn is over, aborted or cut off.
			var why []event.Field
			if !s.cancelled {
				why = []event.Field{field("ended_by", ev.Type)}
			}
			s.closeTurn(why)
		}
		s.lifecycle, s.srcTurn = true, true
		s.inResp = false
	case "task_complete", "turn_complete":
		if len(ev.Duration) > 0 && string(ev.Duration) != "null" {
			extra = append(extra, event.Field{Key: "duration_ms", Value: compact(ev.Duration)})
		}
		s.lifecycle, s.srcTurn = true, false
		s.closeTurn(extra)
	case "turn_aborted":
		s.srcTurn = false
		if !s.asstOpen {
			s.emit(event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant})
			s.asstOpen = true
		}
		reason := rawString(ev.Reason)
		if reason == "" {
			reason = "turn aborted"
		}
		s.emit(event.Event{Kind: event.KindCancel, Reason: reason, Extra: extra})
		s.cancelled = true
		s.inResp = false
	case "error":
		msg := rawString(ev.Message)
		if msg == "" {
			msg = "error"
		}
		s.emit(event.Event{Kind: event.KindError, Message: msg, Extra: extra})
	case "user_message", "agent_message", "agent_reasoning", "agent_reasoning_raw_content",
		"agent_reasoning_section_break":
		// Duplicates of the response_item message and reasoning records.
		s.ignore(ev.Type)
	case "context_compacted", "entered_review_mode", "exited_review_mode", "undo_started",
		"undo_completed", "thread_rolled_back", "warning", "stream_error", "background_event",
		"plan_update", "turn_diff", "exec_command_begin", "exec_command_end",
		"patch_apply_begin", "patch_apply_end", "mcp_tool_call_begin", "mcp_tool_call_end",
		"web_search_begin", "web_search_end", "view_image_tool_call", "item_started", "item_completed":
		// Markers and duplicates of the call records: nothing for the timeline.
		s.ignore(ev.Type)
	case "":
		return s.b.Problem(s.n, `event_msg without a "type"`)
	default:
		return s.b.Problem(s.n, fmt.Sprintf("unknown event_msg type %q", ev.Type))
	}
	return nil
}

// finish closes what the source closed: an aborted turn whose closing
// prompt never came. A turn that is merely unfinished stays open.
func (s *state) finish() {
	if s.asstOpen && s.cancelled {
		s.closeTurn(nil)
	}
}

// output is what a call's result says.
type outputResult struct {
	text       string
	ok         bool
	err        string
	exit       *int
	duration   *int64
	unreadable bool
}

// execOutput is the JSON Codex puts in a shell call's output string.
type execOutput struct {
	Output   *string `json:"output"`
	ExitCode *int    `json:"exit_code"`
	Metadata *struct {
		ExitCode        *int     `json:"exit_code"`
		DurationSeconds *float64 `json:"duration_seconds"`
	} `json:"metadata"`
}

var (
	exitLine = regexp.MustCompile(`(?m)^(?:Exit code:|Process exited with code) (-?\d+)\s*$`)
	wallLine = regexp.MustCompile(`(?m)^Wall time: ([0-9.]+) seconds\s*$`)
)

// parseOutput reads a function_call_output / custom_tool_call_output
// output: a string (itself often JSON with output and metadata.exit_code),
// a list of content items, or an object {content, success}.
func parseOutput(raw json.RawMessage) outputResult {
	res := outputResult{ok: true}
	raw = bytes.TrimSpace(raw)
	var text string
	switch {
	case len(raw) == 0 || string(raw) == "null":
		return res
	case raw[0] == '"':
		_ = json.Unmarshal(raw, &text)
	case raw[0] == '[':
		text, _ = contentText(raw)
	case raw[0] == '{':
		var obj struct {
			Content json.RawMessage `json:"content"`
			Success *bool           `json:"success"`
		}
		if json.Unmarshal(raw, &obj) == nil && len(obj.Content) > 0 {
			inner := parseOutput(obj.Content)
			if obj.Success != nil && !*obj.Success && inner.ok {
				inner.ok, inner.err = false, "failed"
			}
			return inner
		}
		res.text, res.unreadable = string(raw), true
		return res
	default:
		res.text, res.unreadable = string(raw), true
		return res
	}
	res.text = text
	trimmed := strings.TrimSpace(text)
	if strings.HasPrefix(trimmed, "{") {
		var eo execOutput
		if json.Unmarshal([]byte(trimmed), &eo) == nil && (eo.Output != nil || eo.ExitCode != nil || eo.Metadata != nil) {
			if eo.Output != nil {
				res.text = *eo.Output
			}
			res.exit = eo.ExitCode
			if eo.Metadata != nil {
				if res.exit == nil {
					res.exit = eo.Metadata.ExitCode
				}
				if d := eo.Metadata.DurationSeconds; d != nil && *d >= 0 && !math.IsInf(*d, 0) {
					ms := int64(math.Round(*d * 1000))
					res.duration = &ms
				}
			}
		}
	} else if m := exitLine.FindStringSubmatch(text); m != nil {
		if code, err := strconv.Atoi(m[1]); err == nil {
			res.exit = &code
		}
		if w := wallLine.FindStringSubmatch(text); w != nil {
			if f, err := strconv.ParseFloat(w[1], 64); err == nil {
				ms := int64(math.Round(f * 1000))
				res.duration = &ms
			}
		}
	} else if trimmed == "aborted" || strings.HasPrefix(trimmed, "aborted by user") {
		res.ok, res.err = false, trimmed
	}
	if res.exit != nil && *res.exit != 0 {
		res.ok, res.err = false, "exit code "+strconv.Itoa(*res.exit)
		if first := firstTextLine(res.text); first != "" {
			res.err += ": " + first
		}
	}
	return res
}

// codexNotes start the lines Codex adds around a command's output.
var codexNotes = []string{"Total output lines:", "Exit code:", "Wall time:", "Output:",
	"Process exited with code", "Chunk ID:", "Original token count:"}

// firstTextLine is the first non-blank line of a command's output, past
// the notes Codex adds (exit code, wall time, truncation).
func firstTextLine(text string) string {
next:
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		for _, note := range codexNotes {
			if strings.HasPrefix(line, note) {
				continue next
			}
		}
		return line
	}
	return ""
}

// contentText joins the text of a list of content items
// ({"type":"input_text"|"output_text","text":…}) and counts the images.
func contentText(raw json.RawMessage) (string, int) {
	var parts []struct {
		Type string  `json:"type"`
		Text *string `json:"text"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &parts) != nil {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s, 0
		}
		return "", 0
	}
	var texts []string
	images := 0
	for _, p := range parts {
		switch {
		case p.Text != nil:
			texts = append(texts, *p.Text)
		case strings.Contains(p.Type, "image"):
			images++
		}
	}
	return strings.Join(texts, "\n"), images
}

// parseArguments turns a call's arguments into the args object: a JSON
// string holding an object is that object; anything else is kept as
// {"input": "…"}. An object given directly is used as is.
func parseArguments(raw json.RawMessage) (json.RawMessage, []event.Field) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage(`{}`), nil
	}
	if raw[0] == '{' {
		return compact(raw), nil
	}
	var s string
	if raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return mustJSON(map[string]string{"input": string(raw)}), []event.Field{field("args_wrapped", true)}
	}
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "{") && json.Valid([]byte(t)) {
		return compact([]byte(t)), nil
	}
	return mustJSON(map[string]string{"input": s}), []event.Field{field("args_wrapped", true)}
}

func compact(b []byte) json.RawMessage {
	var buf bytes.Buffer
	if json.Compact(&buf, b) != nil {
		return mustJSON(map[string]string{"input": string(b)})
	}
	return buf.Bytes()
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{' && json.Valid(raw)
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only called with strings, numbers, booleans and maps of strings
	}
	return b
}

func field(key string, v any) event.Field { return event.Field{Key: key, Value: mustJSON(v)} }

// rawString is the value of a raw JSON string, the compact JSON of any
// other value, or "" for none or null.
func rawString(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var v string
	if raw[0] == '"' && json.Unmarshal(raw, &v) == nil {
		return v
	}
	return string(compact(raw))
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
