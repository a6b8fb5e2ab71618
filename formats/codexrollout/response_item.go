package codexrollout

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/toolsim/toolsim/event"
)

// responseItem maps a response_item line by its payload type.
func (s *state) responseItem(it *payload) error {
	switch it.Type {
	case "message":
		return s.message(it)
	case "reasoning":
		return s.reasoning(it)
	case "function_call", "custom_tool_call":
		s.functionCall(it)
		return nil
	case "local_shell_call":
		s.localShellCall(it)
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

// functionCall maps a function_call or custom_tool_call: a tool_start
// whose args are the call's arguments (or input).
func (s *state) functionCall(it *payload) {
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
}

// localShellCall maps a local_shell_call: a tool_start of local_shell
// whose args are the call's action.
func (s *state) localShellCall(it *payload) {
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
}

// contextPrefixes start the user messages Codex injects itself (workspace
// context, AGENTS.md, shell commands the user ran, abort markers): they
// are not prompts.
var contextPrefixes = []string{
	"<environment_context>", "<user_instructions>", "# agents.md instructions",
	"<user_shell_command>", "<turn_aborted>", "<permissions instructions>",
}

// isContext reports whether a user message is context Codex injected.
func isContext(text string) bool {
	t := strings.ToLower(strings.TrimLeft(text, " \t\r\n"))
	for _, p := range contextPrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// message maps a message item: a user prompt or the model's text.
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
		s.flushAbort() // text after an abort is a new turn's, not the aborted one's
		s.model()
		s.emit(event.Event{Kind: event.KindText, Text: text, Extra: extra})
	case "developer", "system":
		s.ignore(it.Role + "_message")
	default:
		return s.b.Problem(s.n, fmt.Sprintf("message with unknown role %q", it.Role))
	}
	return nil
}

// reasoning maps a reasoning item: its summary, else its raw text, as
// thinking.
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
	s.open[id] = true
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

// output maps a function_call_output or custom_tool_call_output: the
// tool_done of its call.
func (s *state) output(it *payload) error {
	if it.CallID == nil {
		return s.b.Problem(s.n, it.Type+" without a call_id: cannot pair it")
	}
	id := *it.CallID // an empty one is kept: the engine reports missing_id
	delete(s.open, id)
	res := parseOutput(it.Output)
	if res.denied {
		// The user declined the call's approval: a denial, not a result.
		s.emit(event.Event{Kind: event.KindPermission, ID: id, State: event.PermissionDenied,
			Extra: []event.Field{field("result", res.text)}})
		return nil
	}
	if res.aborted && s.asstOpen && !s.cancelled && s.abort == nil {
		// The user's interrupt, written before the turn_aborted that
		// follows: the call stays live for that cancel, which interrupts
		// it, as the user saw (with none, the turn's end does); the text
		// is kept as the call's progress. An abort after the cancel is a
		// late result.
		s.open[id] = true
		delete(s.execTimes, id)
		delete(s.mcpFailed, id)
		s.emit(event.Event{Kind: event.KindToolProgress, ID: id, Output: res.text})
		return nil
	}
	if ms, ok := s.execTimes[id]; ok && res.duration == nil {
		res.duration = &ms // the command's own run time, from exec_command_end
	}
	delete(s.execTimes, id)
	if s.mcpFailed[id] && res.ok {
		res.ok, res.err = false, "failed"
		if first := firstTextLine(res.text); first != "" {
			res.err = first
		}
	}
	delete(s.mcpFailed, id)
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
