package agent

import (
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/toolsim/toolsim/mcptools"
	"github.com/toolsim/toolsim/modelapi"
	"github.com/toolsim/toolsim/term"
)

// finalText is the model's final answer of a turn (text is not a
// feature the engine drives: the reader reads no text).
const finalText = "Done."

// request returns the app's model request waiting for an answer: the one
// already waiting, or the next; with no turn open it first types a
// prompt. An Enter the app swallowed is sent again.
func (e *Engine) request() (*modelapi.Pending, error) {
	if e.pend != nil {
		p := e.pend
		e.pend = nil
		return p, nil
	}
	if !e.turn.open {
		if err := e.prompt(); err != nil {
			return nil, err
		}
	}
	wait := e.timing.Request / 4
	for try := 0; ; try++ {
		p, err := e.app.Model.Next(wait)
		if err == nil {
			e.turn.typed = ""
			if err := e.checkRequest(p.Request); err != nil {
				// A finding must not leave the app waiting on its model:
				// nothing else would answer this request, and the app
				// would stay busy through the reset.
				p.Respond(modelapi.Reply{Text: finalText})
				return nil, err
			}
			return p, nil
		}
		if !errors.Is(err, modelapi.ErrNoRequest) {
			return nil, fmt.Errorf("waiting for %s's model request: %w", e.app.P.Name, err)
		}
		if try == 3 {
			return nil, fmt.Errorf("%s sent no model request in %v: %w", e.app.P.Name, e.timing.Request,
				&term.WaitError{What: "a model request", Timeout: e.timing.Request, Screen: e.app.Term.Snapshot(), Err: term.ErrTimeout})
		}
		if err := e.nudge(); err != nil {
			return nil, err
		}
	}
}

// nudge acts on a prompt that brought no model request: with no turn
// showing, the prompt typed is typed again if the screen lost it (Gemini
// CLI once dropped the first prompt typed after start-up), and Enter is
// pressed again (an Enter the app swallowed).
func (e *Engine) nudge() error {
	a := e.app
	s := a.Term.Snapshot()
	if a.P.Busy(s) {
		return nil
	}
	if text := e.turn.typed; text != "" && !s.Contains(text) {
		if err := e.typeText(text); err != nil {
			return err
		}
	}
	return a.Term.Send(term.Enter)
}

// typeText types text into the app's input until the screen shows it
// (three tries).
func (e *Engine) typeText(text string) error {
	a := e.app
	if _, err := a.Term.SendUntil(text, func(s term.Snapshot) bool { return s.Contains(text) }, 3, 2*time.Second); err != nil {
		return fmt.Errorf("typing a prompt into %s: %w", a.P.Name, err)
	}
	return nil
}

// prompt types a user prompt and opens a turn.
func (e *Engine) prompt() error {
	e.turn.prompts++
	text := fmt.Sprintf("toolsim turn %d", e.turn.prompts)
	if err := e.typeText(text); err != nil {
		return err
	}
	if g := e.app.P.EnterGap; g > 0 {
		// A screen still changing after a second is typed into anyway:
		// the nudge presses Enter again if no request comes.
		e.app.Term.Settle(g, g+time.Second)
	}
	if err := e.app.Term.Send(term.Enter); err != nil {
		return err
	}
	e.turn.open, e.turn.typed = true, text
	return nil
}

// answer ends the assistant turn with the model's final answer and waits
// for the app to wait for a prompt again.
func (e *Engine) answer() error {
	p, err := e.request()
	if err != nil {
		return err
	}
	if err := p.Respond(modelapi.Reply{Text: finalText}); err != nil {
		return fmt.Errorf("answering %s's model request with the final answer: %w", e.app.P.Name, err)
	}
	e.turn.open = false
	return e.idle("the end of the turn")
}

// cancel presses the app's cancel key(s) and checks the MCP oracle: every
// call still running gets notifications/cancelled.
func (e *Engine) cancel() error {
	running := e.running()
	a := e.app
	for _, k := range a.P.Cancel {
		if err := a.Term.Send(k); err != nil {
			return err
		}
		if _, err := a.Term.WaitFor("the cancel key to take effect", 300*time.Millisecond, func(s term.Snapshot) bool { return !a.P.Busy(s) }); err == nil {
			break
		}
	}
	e.turn.open, e.turn.cancelled, e.pend = false, true, nil
	if err := e.idle("the cancel"); err != nil {
		return err
	}
	return e.checkCancelled(running)
}

// running lists the MCP calls still running, in arrival order.
func (e *Engine) running() []*mcptools.Call {
	var out []*mcptools.Call
	for _, cs := range e.calls {
		for _, c := range cs {
			if c.Pending() {
				out = append(out, c)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Seq < out[j].Seq })
	return out
}

// idle waits, up to Timing.Settle, for the app to show no turn in
// progress. An app that stays busy is not an engine failure: its screen
// is read as it is, and the screen oracles judge it.
func (e *Engine) idle(after string) error {
	a := e.app
	a.Term.WaitFor(a.P.Name+" to wait for a prompt after "+after, e.timing.Settle, func(s term.Snapshot) bool {
		return !a.P.Busy(s) && a.P.Ready(s)
	})
	return a.exited()
}
