package gemini

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/toolsim/toolsim/event"
)

// gemini maps a model message: its thoughts, its text, then its calls.
func (s *state) gemini(line int, ts time.Time, ok bool, m *message, text string) error {
	if err := s.thoughts(line, ts, ok, m); err != nil {
		return err
	}
	if text != "" {
		s.openTurn(ts, ok)
		var extra []event.Field
		if m.Model != "" {
			extra = append(extra, field("model", m.Model))
		}
		s.emitAt(ts, ok, event.Event{Kind: event.KindText, Text: text, Extra: extra})
	}
	if len(m.ToolCalls) == 0 {
		if text == "" && len(m.Thoughts) == 0 {
			s.ignore("empty_gemini_message")
		}
		return nil
	}
	s.openTurn(ts, ok)
	ids := make([]string, len(m.ToolCalls))
	for i := range m.ToolCalls {
		id, err := s.startCall(line, ts, ok, m.ID, &m.ToolCalls[i])
		ids[i] = id
		if err != nil {
			return err
		}
	}
	return s.resolveCalls(line, ts, ok, m, ids)
}

// thoughts maps a model message's thoughts, each at its own time when it
// has one.
func (s *state) thoughts(line int, ts time.Time, ok bool, m *message) error {
	for i, th := range m.Thoughts {
		tts, tok, err := s.clock(th.Timestamp, line)
		if err != nil {
			return err
		}
		if !tok {
			tts, tok = ts, ok
		}
		t := th.Description
		if th.Subject != "" {
			t = "**" + th.Subject + "**\n" + th.Description
		}
		if i > 0 {
			t = "\n\n" + t
		}
		s.openTurn(tts, tok)
		s.emitAt(tts, tok, event.Event{Kind: event.KindThinking, Text: t})
	}
	return nil
}

// startCall emits the tool_start of a call of the message batch and
// returns the call's id (generated when the call has none).
func (s *state) startCall(line int, ts time.Time, ok bool, batch string, tc *toolCall) (string, error) {
	extra := []event.Field{}
	id := str(tc.ID)
	if tc.ID == nil || id == "" {
		s.genID++
		id = fmt.Sprintf("gemini-call-%d", s.genID)
		extra = append(extra, field("generated_id", true))
	}
	if tc.Status != "" {
		extra = append(extra, field("status", tc.Status))
	}
	if tc.DisplayName != "" && tc.DisplayName != tc.Name {
		extra = append(extra, field("display_name", tc.DisplayName))
	}
	args := tc.Args
	if !isObject(args) {
		if len(args) > 0 && string(args) != "null" {
			extra = append(extra, event.Field{Key: "raw_args", Value: compact(args)})
		}
		args = json.RawMessage(`{}`)
	}
	name := tc.Name
	if name == "" {
		name = "unknown"
		if err := s.b.Problem(line, fmt.Sprintf("tool call %s without a name", id)); err != nil {
			return id, err
		}
	}
	s.emitAt(ts, ok, event.Event{Kind: event.KindToolStart, ID: id, Name: name, Args: compact(args),
		Batch: batch, Extra: extra})
	return id, nil
}

// cancels gathers the cancelled calls of a message: the cancel that
// resolves them is emitted after the message's other results.
type cancels struct {
	calls  []json.RawMessage
	reason string
	ts     time.Time // when the last cancelled call was resolved
	ok     bool
}

// resolveCalls maps the stored results of a message's calls, each at its
// own time when it has one, then the cancel of the cancelled ones.
func (s *state) resolveCalls(line int, ts time.Time, ok bool, m *message, ids []string) error {
	var c cancels
	for i := range m.ToolCalls {
		tc := &m.ToolCalls[i]
		cts, cok, err := s.clock(tc.Timestamp, line)
		if err != nil {
			return err
		}
		if !cok {
			cts, cok = ts, ok
		}
		if err := s.resolveCall(line, cts, cok, ids[i], tc, &c); err != nil {
			return err
		}
	}
	if len(c.calls) > 0 {
		s.cancel(c)
	}
	return nil
}

// resolveCall maps one call's stored result by its status; a cancelled
// call is gathered in c.
func (s *state) resolveCall(line int, cts time.Time, cok bool, id string, tc *toolCall, c *cancels) error {
	res := readResult(tc)
	switch tc.Status {
	case "success":
		s.emitAt(cts, cok, event.Event{Kind: event.KindToolDone, ID: id, OK: true, Output: res.output,
			Extra: res.extra})
	case "error":
		msg := res.err
		if msg == "" {
			msg = "error"
		}
		s.emitAt(cts, cok, event.Event{Kind: event.KindToolDone, ID: id, OK: false, Error: msg,
			Output: res.output, Extra: res.extra})
	case "cancelled":
		// Interrupted, not failed: the cancel after the results resolves it.
		c.add(id, tc, res.err, cts, cok)
	case "validating", "scheduled", "executing":
		// Recorded before it finished: still running.
	case "awaiting_approval":
		s.emitAt(cts, cok, event.Event{Kind: event.KindPermission, ID: id, State: event.PermissionAsked})
	default:
		return s.b.Problem(line, fmt.Sprintf("tool call %s: unknown status %q: left running", id, tc.Status))
	}
	return nil
}

// add gathers a cancelled call: its id and stored result, the first
// reason given, and the latest time.
func (c *cancels) add(id string, tc *toolCall, reason string, cts time.Time, cok bool) {
	entry := map[string]json.RawMessage{"id": mustJSON(id)}
	if len(tc.Result) > 0 && string(tc.Result) != "null" {
		entry["result"] = compact(tc.Result)
	}
	c.calls = append(c.calls, mustJSON(entry))
	if c.reason == "" {
		c.reason = reason
	}
	if cok && (!c.ok || cts.After(c.ts)) {
		c.ts, c.ok = cts, true
	}
}

// cancel emits the cancel that resolves a message's cancelled calls.
func (s *state) cancel(c cancels) {
	reason := c.reason
	if reason == "" {
		reason = "cancelled"
	}
	t := s.b.Now()
	if c.ok {
		t = max(t, s.b.Clock(c.ts, true))
	}
	s.b.Emit(t, event.Event{Kind: event.KindCancel, Reason: reason,
		Extra: []event.Field{{Key: "cancelled_calls", Value: mustJSON(c.calls)}}})
	s.cancelled = true
}
