package codexrollout

import (
	"encoding/json"
	"fmt"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats/internal/codex"
)

// eventMsg maps an event_msg line. Most are markers or duplicates of the
// response_item records; the turn lifecycle, aborts and errors are mapped.
func (s *state) eventMsg(ev *payload) error {
	var extra []event.Field
	if id := rawString(ev.TurnID); id != "" {
		extra = append(extra, field("turn_id", id))
	}
	switch ev.Type {
	case "token_count":
		s.ignore(ev.Type)
		s.inResp = false // written when a model response completes
	case "item_completed":
		s.ignore(ev.Type)
		s.itemCompleted(ev.Item)
	case "thread_settings_applied":
		s.ignore(ev.Type) // Codex 0.169.0: model, approvals and sandbox settings
	case "task_started", "turn_started":
		s.taskStarted(ev)
	case "task_complete", "turn_complete":
		s.taskComplete(ev, extra)
	case "turn_aborted":
		s.turnAborted(ev, extra)
	case "exec_command_end":
		// A duplicate of the call's output, but with the command's own run
		// time: kept for the tool_done when the output lacks one.
		s.ignore(ev.Type)
		if ms := codex.Duration(ev.ExecTime); ms != nil && ev.CallID != nil {
			s.execTimes[*ev.CallID] = *ms
		}
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
		"plan_update", "turn_diff", "exec_command_begin",
		"patch_apply_begin", "patch_apply_end", "mcp_tool_call_begin", "mcp_tool_call_end",
		"web_search_begin", "web_search_end", "view_image_tool_call", "item_started":
		// Markers and duplicates of the call records: nothing for the timeline.
		s.ignore(ev.Type)
	case "":
		return s.b.Problem(s.n, `event_msg without a "type"`)
	default:
		return s.b.Problem(s.n, fmt.Sprintf("unknown event_msg type %q", ev.Type))
	}
	return nil
}

// taskStarted maps task_started / turn_started: a new source turn, which
// ends the assistant turn still open.
func (s *state) taskStarted(ev *payload) {
	s.flushAbort()
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
}

// taskComplete maps task_complete / turn_complete: the end of the
// assistant turn, with the task's duration.
func (s *state) taskComplete(ev *payload, extra []event.Field) {
	s.flushAbort()
	if len(ev.Duration) > 0 && string(ev.Duration) != "null" {
		extra = append(extra, event.Field{Key: "duration_ms", Value: compact(ev.Duration)})
	}
	s.lifecycle, s.srcTurn = true, false
	s.closeTurn(extra)
}

// turnAborted maps turn_aborted: a cancel in the assistant turn (opened
// for it when none is). Codex writes the aborted turn's last records — a
// call the user rejected and its reasoning — after the turn_aborted line:
// the cancel is held (see abort) so that they come before it.
func (s *state) turnAborted(ev *payload, extra []event.Field) {
	s.flushAbort()
	s.srcTurn = false
	if !s.asstOpen {
		s.emit(event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant})
		s.asstOpen = true
	}
	reason := rawString(ev.Reason)
	if reason == "" {
		reason = "turn aborted"
	}
	live := make(map[string]bool, len(s.open))
	for id := range s.open {
		live[id] = true
	}
	s.abort = &abort{t: s.b.Clock(s.ts, s.ok), live: live,
		cancel: event.Event{Kind: event.KindCancel, Reason: reason, Extra: extra}}
	s.inResp = false
}

// abort is a turn_aborted whose cancel waits for its place. The calls,
// reasoning and results after it belong to the aborted turn until
// something else begins (a prompt, assistant text, task_started,
// task_complete, another abort, the end of the file): they are held, and
// the cancel goes after them — except that the
// result of a call already running at the abort ("aborted") goes after the
// cancel, as it was written: the call was interrupted, not finished.
type abort struct {
	t      int64
	cancel event.Event
	live   map[string]bool // calls running when the turn was aborted
	held   []heldEvent
}

type heldEvent struct {
	t  int64
	ev event.Event
}

// hold keeps ev, or places the cancel when ev is the result of a call
// that was running at the abort.
func (a *abort) hold(s *state, t int64, ev event.Event) {
	if ev.Kind == event.KindToolDone && a.live[ev.ID] {
		s.flushAbort()
		s.b.Emit(t, ev)
		return
	}
	a.held = append(a.held, heldEvent{t, ev})
}

// flushAbort writes the held records, then the cancel.
func (s *state) flushAbort() {
	a := s.abort
	if a == nil {
		return
	}
	s.abort = nil
	for _, h := range a.held {
		s.b.Emit(h.t, h.ev)
	}
	s.b.Emit(a.t, a.cancel)
	s.cancelled = true
}

// itemCompleted keeps what an item_completed says that the call's output
// does not: Codex 0.169.0 writes an MCP call's output as bare content
// items, with no success flag, and says whether the call failed only in
// the McpToolCall item (status "failed", result.isError), written just
// before the output.
func (s *state) itemCompleted(raw json.RawMessage) {
	var it struct {
		Type   string `json:"type"`
		ID     string `json:"id"`
		Status string `json:"status"`
		Result struct {
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	if json.Unmarshal(raw, &it) != nil || it.Type != "McpToolCall" || it.ID == "" {
		return
	}
	if it.Status == "failed" || it.Result.IsError {
		s.mcpFailed[it.ID] = true
	}
}
