package codexexec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/toolsim/toolsim/event"
)

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

// line maps one event of the stream.
func (s *state) line(n int, raw []byte) error {
	s.b.SetLine(n) // records without a time of their own take the line's arrival stamp
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil
	}
	s.n = n
	var l line
	if err := decodeLine(raw, &l, &s.members); err != nil {
		if stop, err := s.decodeProblem(n, err); stop {
			return err
		}
	}
	switch l.Type {
	case "thread.started":
		s.ignore(l.Type)
		if l.ThreadID != "" {
			s.threads = append(s.threads, l.ThreadID)
		}
	case "turn.started":
		s.turnStarted()
	case "turn.completed":
		s.turnCompleted(&l)
	case "turn.failed":
		s.turnFailed(&l)
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

// decodeProblem reports a line that did not decode. stop is true when the
// line cannot be mapped (err is then what line returns); a member of an
// unexpected type is left out and the rest of the line is mapped.
func (s *state) decodeProblem(n int, err error) (stop bool, _ error) {
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &te) && te.Field != "type" && te.Field != "":
		// One member has an unexpected type: map what decoded.
		if err := s.b.Problem(n, typeProblem(te)); err != nil {
			return true, err
		}
		return false, nil
	case errors.As(err, &te):
		return true, s.b.Problem(n, typeProblem(te))
	case err.Error() == "unexpected end of JSON input":
		return true, s.b.Problem(n, "truncated JSON (unexpected end of input)")
	default:
		return true, s.b.Problem(n, "not JSON: "+err.Error())
	}
}

// turnStarted maps turn.started: a new turn, which ends the one still
// open.
func (s *state) turnStarted() {
	if s.turnOpen {
		// A new turn began: the previous one is over, whatever it left.
		s.emit(event.Event{Kind: event.KindTurnEnd, Extra: []event.Field{field("ended_by", "turn.started")}})
	}
	s.emit(event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant})
	s.turnOpen = true
}

// turnCompleted maps turn.completed: the end of the turn, with its usage.
func (s *state) turnCompleted(l *line) {
	var extra []event.Field
	if len(l.Usage) > 0 && string(l.Usage) != "null" {
		extra = append(extra, event.Field{Key: "usage", Value: compact(l.Usage)})
	}
	s.openTurn()
	s.emit(event.Event{Kind: event.KindTurnEnd, Extra: extra})
	s.turnOpen = false
}

// turnFailed maps turn.failed: an error that ends the turn.
func (s *state) turnFailed(l *line) {
	msg := "turn failed"
	if l.Error != nil && l.Error.Message != "" {
		msg = l.Error.Message
	}
	s.openTurn()
	s.emit(event.Event{Kind: event.KindError, Message: msg, Extra: []event.Field{field("event", l.Type)}})
	s.emit(event.Event{Kind: event.KindTurnEnd})
	s.turnOpen = false
}

// openTurn opens a turn for output that comes without turn.started (a
// stream whose start was cut).
func (s *state) openTurn() {
	if !s.turnOpen {
		s.emit(event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant})
		s.turnOpen = true
	}
}
