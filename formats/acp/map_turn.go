package acp

import (
	"encoding/json"
	"fmt"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"
	"github.com/toolsim/toolsim/event"
)

// prompt maps a session/prompt request: the user's turn, then the
// assistant's turn it starts.
func (s *state) prompt(t int64, params json.RawMessage, req *request) {
	var p acpsdk.PromptRequest
	if !s.decode(acpsdk.AgentMethodSessionPrompt, params, &p) {
		return
	}
	s.session(string(p.SessionId))
	var raw struct {
		Prompt []json.RawMessage `json:"prompt"`
	}
	_ = json.Unmarshal(params, &raw)
	var texts []string
	var attachments []json.RawMessage
	for i, block := range p.Prompt {
		if block.Text != nil {
			texts = append(texts, block.Text.Text)
			continue
		}
		if i < len(raw.Prompt) {
			attachments = append(attachments, json.RawMessage(compact(raw.Prompt[i])))
		}
	}
	if s.turnOpen {
		var extra []event.Field
		if !s.turnImplicit {
			extra = append(extra, field("unanswered", true))
		}
		s.endTurn(t, extra...)
	}
	s.emit(t, event.Event{Kind: event.KindTurnStart, Role: event.RoleUser})
	user := event.Event{Kind: event.KindUser, Text: strings.Join(texts, "\n")}
	if len(attachments) > 0 {
		user.Extra = append(user.Extra, field("attachments", attachments))
	}
	s.emit(t, user)
	s.emit(t, event.Event{Kind: event.KindTurnEnd})
	s.startTurn(t, false)
	if req != nil {
		req.turn = s.turn
	}
}

// startTurn opens an assistant turn; implicit turns hold agent output that
// no prompt in the log asked for (a session/load replay, a log that starts
// mid-turn).
func (s *state) startTurn(t int64, implicit bool) {
	s.turn++
	s.turnOpen, s.turnImplicit, s.turnCancelled = true, implicit, false
	s.runK, s.run, s.runBroken = 0, nil, false
	ev := event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant}
	if implicit {
		ev.Extra = append(ev.Extra, field("implicit", true))
	}
	s.emit(t, ev)
}

// ensureTurn opens an implicit assistant turn when none is open.
func (s *state) ensureTurn(t int64) {
	if !s.turnOpen {
		s.startTurn(t, true)
	}
}

// endTurn closes the open assistant turn. The engine resolves the tools
// still live; the importer notes them terminal.
func (s *state) endTurn(t int64, extra ...event.Field) {
	s.emit(t, event.Event{Kind: event.KindTurnEnd, Extra: extra})
	s.turnOpen, s.turnImplicit = false, false
	s.run, s.runBroken = nil, false
	s.settleTools()
}

// settleTools notes every tool terminal: the engine resolves the live
// ones at the turn end or cancel.
func (s *state) settleTools() {
	for _, tl := range s.tools {
		tl.terminal = true
	}
}

// promptDone maps the response to a session/prompt: the stop reason ends
// the turn. "cancelled" without a session/cancel seen adds the cancel.
func (s *state) promptDone(t int64, req *request, env *envelope) {
	if !s.turnOpen || s.turnImplicit || req.turn != s.turn {
		s.problem("session/prompt response for a turn that is already over")
		return
	}
	if env.Error != nil {
		var e rpcError
		msg := compact(env.Error)
		if json.Unmarshal(env.Error, &e) == nil && e.Message != "" {
			msg = fmt.Sprintf("%s (code %d)", e.Message, e.Code)
		}
		s.emit(t, event.Event{Kind: event.KindError, Message: msg})
		s.endTurn(t, field("error", json.RawMessage(compact(env.Error))))
		return
	}
	var r acpsdk.PromptResponse
	if !s.decode("session/prompt result", env.Result, &r) {
		s.endTurn(t)
		return
	}
	if r.StopReason == acpsdk.StopReasonCancelled && !s.turnCancelled {
		s.emit(t, event.Event{Kind: event.KindCancel, Reason: "stopReason: cancelled"})
		s.turnCancelled = true
	}
	var extra []event.Field
	if r.StopReason != "" {
		extra = append(extra, field("stop_reason", string(r.StopReason)))
	}
	s.endTurn(t, extra...)
}

// cancel maps session/cancel.
func (s *state) cancel(t int64, params json.RawMessage) {
	var p acpsdk.CancelNotification
	if present(params) && s.decode(acpsdk.AgentMethodSessionCancel, params, &p) {
		s.session(string(p.SessionId))
	}
	s.emit(t, event.Event{Kind: event.KindCancel, Reason: "session/cancel"})
	s.turnCancelled = true
	s.settleTools()
	s.run = nil
}

// flushUser emits the user_message_chunk text gathered so far: inside a
// prompt's turn as a user message, else as a user turn of its own.
func (s *state) flushUser() {
	if !s.userChunk {
		return
	}
	text, t := s.userText.String(), s.userT
	s.userText.Reset()
	s.userChunk = false
	if s.turnOpen && !s.turnImplicit {
		s.emit(t, event.Event{Kind: event.KindUser, Text: text})
		s.runBroken = true
		return
	}
	if s.turnOpen {
		s.endTurn(t)
	}
	s.emit(t, event.Event{Kind: event.KindTurnStart, Role: event.RoleUser})
	s.emit(t, event.Event{Kind: event.KindUser, Text: text})
	s.emit(t, event.Event{Kind: event.KindTurnEnd})
}
