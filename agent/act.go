package agent

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/mcptools"
	"github.com/toolsim/toolsim/modelapi"
)

// act does at the app's boundary what ev says (docs/agents.md, The
// mapping).
func (e *Engine) act(ev *event.Event, first bool) error {
	switch ev.Kind {
	case event.KindTurnStart:
		e.turn.role, e.turn.cancelled = ev.Role, false
	case event.KindToolStart:
		if first {
			return e.respondCalls(e.runStarts)
		}
	case event.KindToolProgress:
		return e.progress(ev)
	case event.KindToolDone:
		return e.done(ev)
	case event.KindCancel:
		return e.cancel()
	case event.KindTurnEnd:
		if e.turn.role == event.RoleAssistant && !e.turn.cancelled {
			return e.answer()
		}
	}
	return nil
}

// respondCalls answers the app's model request with one response
// carrying the calls of a run, and waits for their MCP calls.
func (e *Engine) respondCalls(ids []event.Event) error {
	reply := modelapi.Reply{}
	for _, s := range ids {
		name, ns := e.app.P.Call(serverName, s.Name)
		if !slices.Contains(e.app.Env.Tools, s.Name) {
			return fmt.Errorf("tool_start %q: the MCP server offers no tool %q (it offers %v)", s.ID, s.Name, e.app.Env.Tools)
		}
		args, _ := json.Marshal(map[string]string{"call": s.ID})
		reply.Calls = append(reply.Calls, modelapi.Call{ID: s.ID, Name: name, Namespace: ns, Args: args})
	}
	p, err := e.request()
	if err != nil {
		return err
	}
	if err := p.Respond(reply); err != nil {
		return fmt.Errorf("answering %s's model request with %d call(s): %w", e.app.P.Name, len(ids), err)
	}
	e.step = e.step[:0]
	for _, s := range ids {
		e.step = append(e.step, s.ID)
		e.asked = append(e.asked, Asked{s.ID, s.Name})
	}
	return e.awaitCalls(e.step)
}

// awaitCalls waits, up to Timing.Calls in all, for an MCP call of each
// id. An app that runs its calls one at a time sends the later ones
// after the earlier end: those are waited for when they are released.
func (e *Engine) awaitCalls(ids []string) error {
	want := map[string]int{}
	for _, id := range ids {
		want[id]++
	}
	for len(want) > 0 {
		c, err := e.app.Tools.Next(e.timing.Calls)
		if errors.Is(err, mcptools.ErrTimeout) {
			return nil // the app runs them later, or never: the screen tells
		}
		if err != nil {
			return fmt.Errorf("waiting for %s's MCP calls: %w", e.app.P.Name, err)
		}
		e.calls[c.CallArg] = append(e.calls[c.CallArg], c)
		if want[c.CallArg]--; want[c.CallArg] <= 0 {
			delete(want, c.CallArg)
		}
	}
	return nil
}

// live is the oldest MCP call for id that is still running, waiting a
// little for one the app has not sent yet (an app that runs calls one at
// a time sends it once the one before ended). Once the app sent an MCP
// call for each start of id (every start of the run is applied before a
// result or progress of it), none is waited for: the call ended (a
// cancel ended it).
func (e *Engine) live(id string) (*mcptools.Call, error) {
	for _, c := range e.calls[id] {
		if c.Pending() {
			return c, nil
		}
	}
	if !slices.Contains(e.step, id) || len(e.calls[id]) >= e.starts[id] {
		return nil, nil
	}
	if err := e.awaitCalls([]string{id}); err != nil {
		return nil, err
	}
	for _, c := range e.calls[id] {
		if c.Pending() {
			return c, nil
		}
	}
	return nil, nil
}

// progress sends an MCP progress notification for the call.
func (e *Engine) progress(ev *event.Event) error {
	c, err := e.live(ev.ID)
	if c == nil || err != nil {
		return err
	}
	msg := ev.Output
	if msg == "" {
		msg = "working"
	}
	e.progressN[c]++
	err = c.Progress(float64(e.progressN[c]), 0, msg)
	if errors.Is(err, mcptools.ErrNoProgressToken) {
		return nil // the app asked for no progress: nothing reaches it
	}
	return err
}

// done releases the call with its outcome.
func (e *Engine) done(ev *event.Event) error {
	c, err := e.live(ev.ID)
	if c == nil || err != nil {
		return err
	}
	o := mcptools.Outcome{OK: ev.OK, Text: ev.Output}
	if !ev.OK {
		o.Text = ev.Error
		if o.Text == "" {
			o.Text = "failed"
		}
	}
	if o.Text == "" {
		o.Text = "ok"
	}
	err = c.Finish(o)
	if errors.Is(err, mcptools.ErrCancelled) || errors.Is(err, mcptools.ErrDropped) {
		return nil // a late result: the app cancelled the call, nothing reaches it
	}
	if err == nil {
		e.sent[c] = o
	}
	return err
}
