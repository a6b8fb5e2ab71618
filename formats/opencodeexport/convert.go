package opencodeexport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolsim/toolsim/event"
)

// message maps one message (doc.go has the mapping).
func (s *state) message(m *message) error {
	switch m.Info.Role {
	case "user":
		return s.user(m)
	case "assistant":
		return s.assistant(m)
	}
	return s.b.Problem(m.line, fmt.Sprintf("message %q: role %q is neither user nor assistant; skipped", m.Info.ID, m.Info.Role))
}

// user maps a user message: a user turn of its own. An assistant turn
// still open (opencode died in it) is not ended: an importer never ends a
// turn the source did not end (docs/importers.md), so its calls stay
// unfinished.
func (s *state) user(m *message) error {
	t, err := s.created(m)
	if err != nil {
		return err
	}
	s.open, s.turn = false, ""
	var text []string
	for _, p := range m.Parts {
		if p.Type == "text" && !p.Synthetic {
			text = append(text, p.Text)
		} else {
			s.ignored["user_"+p.Type]++
		}
	}
	s.at(t, m.line, event.Event{Kind: event.KindTurnStart, Role: event.RoleUser})
	s.at(t, m.line, event.Event{Kind: event.KindUser, Text: strings.Join(text, "\n")})
	s.at(t, m.line, event.Event{Kind: event.KindTurnEnd})
	return nil
}

// assistant maps one model step: its parts, then how it ended.
func (s *state) assistant(m *message) error {
	t, err := s.created(m)
	if err != nil {
		return err
	}
	if !s.open || s.turn != m.Info.ParentID {
		s.closeTurn(t, m.line)
		s.at(t, m.line, event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant})
		s.open, s.turn = true, m.Info.ParentID
	}
	cut := m.Info.Error != nil && m.Info.Error.Name == aborted
	end := t        // the last time the message shows
	var stop *int64 // the first end of a call the cancel cut
	for i := range m.Parts {
		p := &m.Parts[i]
		switch p.Type {
		case "text", "reasoning":
			kind := event.KindText
			if p.Type == "reasoning" {
				kind = event.KindThinking
			}
			s.at(partTime(p, t), m.line, event.Event{Kind: kind, Text: p.Text})
		case "tool":
			e, err := s.tool(m, p, cut)
			if err != nil {
				return err
			}
			end = max(end, e)
			if cut && p.State != nil && p.State.Status == "error" && p.State.Metadata.Interrupted && (stop == nil || e < *stop) {
				stop = &e
			}
		default:
			s.ignored[p.Type]++
		}
	}
	s.ended(m, end, stop)
	return nil
}

// tool maps a tool part: its start and, unless the user's cancel cut it
// or it never ended, its result. It returns the part's last time.
func (s *state) tool(m *message, p *part, cut bool) (int64, error) {
	if p.State == nil {
		return 0, s.b.Problem(m.line, fmt.Sprintf("message %q: tool part %q has no state; skipped", m.Info.ID, p.CallID))
	}
	st := p.State
	start := st.Time.Start
	if start == 0 {
		start = max(m.Info.Time.Created, s.last) // a pending call has no start of its own
	}
	if st.Time.End == 0 && (st.Status == "completed" || st.Status == "error") {
		st.Time.End = start
		if c := m.Info.Time.Completed; c != nil {
			st.Time.End = max(start, *c)
		}
		if err := s.b.Problem(m.line, fmt.Sprintf("message %q: tool part %q (%s) has no end time: its message's end used", m.Info.ID, p.CallID, st.Status)); err != nil {
			return 0, err
		}
	}
	s.at(start, m.line, event.Event{Kind: event.KindToolStart, ID: p.CallID, Name: p.Tool, Args: args(st.Input), Batch: m.Info.ID})
	switch st.Status {
	case "completed":
		s.at(st.Time.End, m.line, event.Event{Kind: event.KindToolDone, ID: p.CallID, OK: true, Output: st.Output})
	case "error":
		if cut && st.Metadata.Interrupted {
			return st.Time.End, nil // the cancel interrupts it
		}
		s.at(st.Time.End, m.line, event.Event{Kind: event.KindToolDone, ID: p.CallID, Error: st.Error})
	case "pending", "running":
		return start, nil // opencode died with it open
	default:
		return start, s.b.Problem(m.line, fmt.Sprintf("message %q: tool part %q: unknown status %q; left open", m.Info.ID, p.CallID, st.Status))
	}
	return max(start, st.Time.End), nil
}

// ended maps how a message ended: the user's cancel (at stop, the first
// end of a call it cut, when that comes before the message's completion),
// another error, or its finish; a message with none of them and no
// completion time was in flight when opencode stopped, and its turn stays
// open.
func (s *state) ended(m *message, last int64, stop *int64) {
	t := last
	if c := m.Info.Time.Completed; c != nil {
		t = *c
	}
	switch e := m.Info.Error; {
	case e != nil && e.Name == aborted:
		at := t
		if stop != nil && *stop < at {
			at = *stop
		}
		s.at(at, m.line, event.Event{Kind: event.KindCancel, Reason: e.Data.Message})
		s.closeTurn(t, m.line)
	case e != nil:
		msg := e.Data.Message
		if msg == "" {
			msg = e.Name
		}
		s.at(t, m.line, event.Event{Kind: event.KindError, Message: msg})
		s.closeTurn(t, m.line)
	case m.Info.Finish != "" && m.Info.Finish != "tool-calls":
		s.closeTurn(t, m.line)
	}
}

// created is a message's creation time; a message without one (0, the
// epoch) is placed at the last time seen, so that no event sorts before
// what came before it, and the problem is reported.
func (s *state) created(m *message) (int64, error) {
	if t := m.Info.Time.Created; t > 0 {
		return t, nil
	}
	return s.last, s.b.Problem(m.line, fmt.Sprintf("message %q has no creation time: placed after the one before it", m.Info.ID))
}

// closeTurn ends the open assistant turn, if any, at t.
func (s *state) closeTurn(t int64, line int) {
	if !s.open {
		return
	}
	s.at(t, line, event.Event{Kind: event.KindTurnEnd})
	s.open, s.turn = false, ""
}

// partTime is a text part's start, or the message's creation.
func partTime(p *part, created int64) int64 {
	if p.Time != nil && p.Time.Start > 0 {
		return p.Time.Start
	}
	return created
}

// args is a call's input as a JSON object ({} when it has none).
func args(in json.RawMessage) json.RawMessage {
	in = bytes.TrimSpace(in)
	var out bytes.Buffer
	if len(in) == 0 || in[0] != '{' || json.Compact(&out, in) != nil {
		return json.RawMessage(`{}`)
	}
	return out.Bytes()
}
