package agent

import (
	"fmt"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// UncarriedError is an event the app's real boundary cannot carry: its
// model API and MCP server can send it only by acting out something else.
// Such events lie outside every app's contract (docs/agents.md,
// Contracts), so only a --robustness campaign sends them; the engine
// fails at once with this error, naming the guarantee the event breaks,
// instead of reading a screen that shows what toolsim's mapping made of
// it.
type UncarriedError struct {
	// Seq is the event's seq.
	Seq int64
	// Guarantee is the contract guarantee (docs/simulator.md, Contracts)
	// the event breaks: calls-first, one-result, steps-wait or
	// results-before-end.
	Guarantee string
	// Detail says what the boundary would need to do.
	Detail string
}

func (e *UncarriedError) Error() string {
	return fmt.Sprintf("seq %d cannot reach the app (outside %s): %s", e.Seq, e.Guarantee, e.Detail)
}

// Uncarried returns the first event of evs that the app's real boundary
// cannot carry, or nil: what toolsim-agent fails on at once. A campaign
// inside an app's contract sends none.
func Uncarried(evs []event.Event) *UncarriedError {
	e := &Engine{ref: engine.New(engine.Options{}), run: map[string]int{}, starts: map[string]int{}, turnIDs: map[string]bool{}}
	e.Preview(evs)
	for i := range evs {
		ev := &evs[i]
		if u := e.carried(ev, e.firstOfRun(ev)); u != nil {
			return u
		}
		e.track(ev)
	}
	return nil
}

// carried returns an *UncarriedError when ev cannot reach the app;
// first is whether ev begins a run of starts (a model response). It sees
// the events before ev only (the reference engine has not applied ev).
//
//   - calls-first: a result or progress for an id no start began. An MCP
//     server answers only a call the app made.
//   - one-result: a second result, or a progress after the result. An
//     MCP call returns once. (A result after a cancel is carried: the app
//     cancelled the call, and nothing reaches it.)
//   - steps-wait: a model response while a call of the turn's last one
//     still runs, and results-before-end: the final answer then. The
//     apps ask the model again only once every call of a step ended, so
//     no request waits for either.
func (e *Engine) carried(ev *event.Event, first bool) *UncarriedError {
	switch {
	case (ev.Kind == event.KindToolDone || ev.Kind == event.KindToolProgress) && e.starts[ev.ID] == 0:
		return &UncarriedError{ev.Seq, "calls-first", fmt.Sprintf("a %s for call %q, which no tool_start began: an MCP server answers only a call the app made", ev.Kind, ev.ID)}
	case ev.Kind == event.KindToolDone || ev.Kind == event.KindToolProgress:
		if st := e.lastStatus(ev.ID); st == timeline.StatusOK || st == timeline.StatusFailed {
			return &UncarriedError{ev.Seq, "one-result", fmt.Sprintf("a %s for call %q after its result: an MCP call returns once, and its progress stops then", ev.Kind, ev.ID)}
		}
	case ev.Kind == event.KindToolStart && first:
		if id, ok := e.stillRunning(); ok {
			return &UncarriedError{ev.Seq, "steps-wait", fmt.Sprintf("a model response while call %q of the last one still runs: the app asks its model again only once every call of a step ended", id)}
		}
	case ev.Kind == event.KindTurnEnd:
		if id, ok := e.stillRunning(); ok {
			return &UncarriedError{ev.Seq, "results-before-end", fmt.Sprintf("the model's final answer while call %q still runs: the app asks its model again only once every call of a step ended", id)}
		}
	}
	return nil
}

// stillRunning returns a call of the current turn that SPEC shows
// running, if any.
func (e *Engine) stillRunning() (string, bool) {
	if len(e.turnIDs) == 0 {
		return "", false
	}
	var found *timeline.Tool
	for _, it := range e.ref.Timeline().Items {
		it.EachTool(func(t *timeline.Tool) bool {
			if t.Status == timeline.StatusRunning && e.turnIDs[t.ID] {
				found = t
			}
			return found == nil
		})
		if found != nil {
			return found.ID, true
		}
	}
	return "", false
}

// lastStatus is the status SPEC shows for the last call of id ("" when
// none).
func (e *Engine) lastStatus(id string) timeline.Status {
	var st timeline.Status
	for _, it := range e.ref.Timeline().Items {
		it.EachTool(func(t *timeline.Tool) bool {
			if t.ID == id {
				st = t.Status
			}
			return true
		})
	}
	return st
}
