package gemini

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/internal/jsonscan"
)

// message is one record of messages[].
type message struct {
	ID        string          `json:"id"`
	Timestamp string          `json:"timestamp"`
	Type      string          `json:"type"`
	Content   json.RawMessage `json:"content"`
	ToolCalls []toolCall      `json:"toolCalls"`
	Thoughts  []struct {
		Subject     string `json:"subject"`
		Description string `json:"description"`
		Timestamp   string `json:"timestamp"`
	} `json:"thoughts"`
	Model  string          `json:"model"`
	Tokens json.RawMessage `json:"tokens"`
}

// toolCall is one record of toolCalls[]: a call stored with its result.
type toolCall struct {
	ID            *string         `json:"id"`
	Name          string          `json:"name"`
	Args          json.RawMessage `json:"args"`
	Result        json.RawMessage `json:"result"`
	Status        string          `json:"status"`
	Timestamp     string          `json:"timestamp"`
	ResultDisplay json.RawMessage `json:"resultDisplay"`
	DisplayName   string          `json:"displayName"`
}

// clock parses a record's timestamp; ok is false when it has none or
// one that does not parse (a problem).
func (s *state) clock(ts string, line int) (time.Time, bool, error) {
	if ts == "" {
		return time.Time{}, false, nil
	}
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return time.Time{}, false, s.b.Problem(line, fmt.Sprintf("bad timestamp %q: synthetic time used", ts))
	}
	return t, true, nil
}

// emitAt appends an event at a record's time.
func (s *state) emitAt(ts time.Time, ok bool, ev event.Event) {
	s.b.Emit(s.b.Clock(ts, ok), ev)
}

// message maps one record of messages[] by its type.
func (s *state) message(line int, m *message) error {
	ts, ok, err := s.clock(m.Timestamp, line)
	if err != nil {
		return err
	}
	text := contentText(m.Content)
	switch m.Type {
	case "user":
		if onlyResponses(m.Content) {
			// Gemini CLI 0.61.0 records the function responses it sends the
			// model as a user message: the calls' results, which the gemini
			// record's toolCalls already carry; no prompt of the user's.
			s.ignore("user (function responses)")
			return nil
		}
		s.closeTurn()
		s.emitAt(ts, ok, event.Event{Kind: event.KindTurnStart, Role: event.RoleUser})
		s.emitAt(ts, ok, event.Event{Kind: event.KindUser, Text: text, Extra: []event.Field{field("message_id", m.ID)}})
		s.emitAt(ts, ok, event.Event{Kind: event.KindTurnEnd})
		return nil
	case "gemini":
		return s.gemini(line, ts, ok, m, text)
	case "error":
		s.openTurn(ts, ok)
		msg := text
		if msg == "" {
			msg = "error"
		}
		s.emitAt(ts, ok, event.Event{Kind: event.KindError, Message: msg, Extra: []event.Field{field("message_id", m.ID)}})
		return nil
	case "info", "warning":
		s.ignore(m.Type)
		return nil
	case "":
		return s.b.Problem(line, `message without a "type"`)
	}
	return s.b.Problem(line, fmt.Sprintf("unknown message type %q", m.Type))
}

// openTurn opens an assistant turn when none is open.
func (s *state) openTurn(ts time.Time, ok bool) {
	if !s.asstOpen {
		s.emitAt(ts, ok, event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant})
		s.asstOpen, s.cancelled = true, false
	}
}

// closeTurn ends the open assistant turn.
func (s *state) closeTurn() {
	if s.asstOpen {
		s.b.Emit(s.b.Now(), event.Event{Kind: event.KindTurnEnd})
		s.asstOpen, s.cancelled = false, false
	}
}

// contentText is a message's text: a string, or the text parts of a part
// list.
func contentText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	if s, ok := jsonscan.String(raw); ok {
		return s // raw is checked JSON: the string encoding/json decodes
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []textPart
	if jsonscan.List(raw, &parts, fastTextPart) || json.Unmarshal(raw, &parts) == nil {
		var texts []string
		for _, p := range parts {
			if p.Text != nil {
				texts = append(texts, *p.Text)
			}
		}
		return strings.Join(texts, "")
	}
	var one struct {
		Text string `json:"text"`
	}
	_ = json.Unmarshal(raw, &one)
	return one.Text
}

// onlyResponses reports whether a message's content is a list of parts
// that are all functionResponse parts.
func onlyResponses(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		return false
	}
	var parts []map[string]json.RawMessage
	if json.Unmarshal(raw, &parts) != nil || len(parts) == 0 {
		return false
	}
	for _, p := range parts {
		if _, ok := p["functionResponse"]; !ok || len(p) != 1 {
			return false
		}
	}
	return true
}
