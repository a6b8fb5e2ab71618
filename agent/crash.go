package agent

import (
	"errors"
	"fmt"
	"strings"

	"github.com/toolsim/toolsim/browser"
	"github.com/toolsim/toolsim/term"
	"github.com/toolsim/toolsim/timeline"
)

// Kill ends the app's whole process group at once, where it stands (no
// quit command, no grace), releases the calls toolsim's MCP server still
// holds and answers the model requests still waiting, and starts the app
// again in the same home and workspace with its resume arguments
// (Profile.Resume), up to its first prompt: a crash, then a resume. When
// the resumed app does not start, the app is started afresh for the next
// scenario and the error returned.
func (a *App) Kill() error {
	if len(a.P.Resume) == 0 {
		return fmt.Errorf("%s has no resume arguments in its profile", a.P.Name)
	}
	var errs []error
	if err := a.Term.Close(); err != nil {
		errs = append(errs, fmt.Errorf("killing %s: %w", a.P.Name, err))
	}
	a.Tools.Reset()
	a.drain()
	a.Model.Reset()
	a.used = true // the next scenario starts a new conversation
	if err := a.startApp(a.P.Resume); err != nil {
		errs = append(errs, fmt.Errorf("%s %s after the crash: %w", a.P.Bin, strings.Join(a.P.Resume, " "), err))
		if a.Term.Exited() || !a.P.Ready(a.Term.Snapshot()) {
			errs = append(errs, a.Term.Close(), a.startApp(nil))
		}
	}
	return errors.Join(errs...)
}

// Crash is the crash fault (engineproto.Crasher; toolsim-agent declares
// the crash capability with Options.Resume): the app is killed mid-turn
// and resumed (App.Kill), and the timeline becomes the rows the resumed
// screen shows. A resumed row whose state the screen does not tell takes
// the state SPEC gives its call after a crash: the state it had, or
// interrupted for a call that was still running or asking. The harness's
// crash oracle judges the rows; a resume that fails is the engine's
// failure.
func (e *Engine) Crash() {
	if e.err != nil {
		return
	}
	a := e.app
	want := crashed(e.expected())
	clear(e.run)
	e.crashed = true
	if e.err = a.Kill(); e.err != nil {
		return
	}
	a.Term.WaitFor("the rows of the calls, after the crash and resume", e.timing.Patience, func(s term.Snapshot) bool {
		return sameRows(e.read(s, want), want)
	})
	a.drain() // a resumed app that asks the model again gets the final answer
	rows, err := e.quiet("after the crash and resume", want)
	if err != nil {
		e.err = err
		return
	}
	e.rows = rows
	a.logScreen("after the crash and resume ("+strings.Join(a.P.Resume, " ")+")", rows)
	e.timeline()
}

// crashed is rows as SPEC shows them after a crash: a call still running
// or asking for approval is interrupted.
func crashed(rows []browser.Row) []browser.Row {
	out := make([]browser.Row, len(rows))
	for i, r := range rows {
		if !timeline.Status(r.Status).Terminal() {
			r.Status = string(timeline.StatusInterrupted)
		}
		out[i] = r
	}
	return out
}
