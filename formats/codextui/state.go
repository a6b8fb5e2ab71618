package codextui

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/importer"
)

// state is one import in progress.
type state struct {
	b       *importer.Builder
	meta    map[string]any
	ignored map[string]int

	n  int       // the line being mapped
	ts time.Time // its time
	ok bool      // ts is usable

	asstOpen   bool             // a turn_start{assistant} was emitted and not yet ended
	textDelta  bool             // agent_message_delta came since the last agent_message
	thinkDelta bool             // agent_reasoning_delta came since the last agent_reasoning
	lastPrompt string           // the text of the last op user_input, not yet echoed
	started    map[string]bool  // call ids with a tool_start emitted
	begun      map[string]int64 // patch call ids → t of their patch_apply_begin
	genID      int              // generated ids handed out
}

func newState(b *importer.Builder) *state {
	return &state{b: b, meta: map[string]any{"format": "codex-tui-session-log"}, ignored: map[string]int{},
		started: map[string]bool{}, begun: map[string]int64{}}
}

// ignore counts a record kind that maps to nothing.
func (s *state) ignore(what string) { s.ignored[what]++ }

// openTurn opens an assistant turn when none is.
func (s *state) openTurn() {
	if !s.asstOpen {
		s.emit(event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant})
		s.asstOpen = true
	}
}

// closeTurn ends the open assistant turn.
func (s *state) closeTurn() {
	if s.asstOpen {
		s.emit(event.Event{Kind: event.KindTurnEnd})
		s.asstOpen = false
	}
	s.textDelta, s.thinkDelta = false, false
}

// prompt maps what the user typed: a user turn of its own.
func (s *state) prompt(text string) {
	s.closeTurn()
	s.emit(event.Event{Kind: event.KindTurnStart, Role: event.RoleUser})
	s.emit(event.Event{Kind: event.KindUser, Text: text})
	s.emit(event.Event{Kind: event.KindTurnEnd})
}

// start emits a tool_start once per call id; a call announced by its
// approval request is not started again by its begin event.
func (s *state) start(id, name string, args any) {
	if s.started[id] {
		return
	}
	s.started[id] = true
	s.openTurn()
	raw, err := json.Marshal(args)
	if err != nil || len(raw) == 0 || raw[0] != '{' {
		raw = json.RawMessage(`{}`)
	}
	s.emit(event.Event{Kind: event.KindToolStart, ID: id, Name: name, Args: raw})
}

// callID is the event's call_id, or a generated one.
func (s *state) callID(id string) string {
	if id != "" {
		return id
	}
	s.genID++
	return "codex-tui-call-" + strconv.Itoa(s.genID)
}
