package codexrollout

import (
	"github.com/toolsim/toolsim/event"
)

// prompt maps a user message. A prompt normally ends the agent's previous
// turn and is a user turn of its own. When the rollout records turn
// lifecycle events and the source turn is still running, the message was
// typed into the running turn (Codex injects it): it is emitted as a user
// event inside the turn.
func (s *state) prompt(text string, extra []event.Field) {
	s.flushAbort()
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

// finish closes what the source closed: an aborted turn whose closing
// prompt never came. A turn that is merely unfinished stays open.
func (s *state) finish() {
	s.flushAbort()
	if s.asstOpen && s.cancelled {
		s.closeTurn(nil)
	}
}
