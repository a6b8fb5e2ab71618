package agent

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/toolsim/toolsim/browser"
	"github.com/toolsim/toolsim/term"
)

// Restart quits the app with its own quit command (Profile.Quit), waits
// for it to exit, and starts it again in the same home and workspace
// with its resume arguments (Profile.Resume), up to its first prompt. An
// app that does not exit within Timing.Settle is killed, and its error
// returned. When the resumed app does not start, the app is started again
// without them, so the next scenario has an app to run in; the error is
// returned either way.
func (a *App) Restart(t Timing) error {
	if a.P.Quit == "" || len(a.P.Resume) == 0 {
		return fmt.Errorf("%s has no quit command or resume arguments in its profile", a.P.Name)
	}
	quit := a.quit(t)
	if err := a.Term.Close(); err != nil {
		quit = errors.Join(quit, fmt.Errorf("closing %s's terminal: %w", a.P.Name, err))
	}
	a.drain()
	a.used = true // the next scenario starts a new conversation
	if err := a.startApp(a.P.Resume); err != nil {
		err = fmt.Errorf("%s %s: %w", a.P.Bin, strings.Join(a.P.Resume, " "), err)
		if a.Term.Exited() || !a.P.Ready(a.Term.Snapshot()) {
			a.Term.Close()
			err = errors.Join(err, a.startApp(nil))
		}
		return err
	}
	return quit
}

// quit types the app's quit command and waits up to Timing.Settle for
// it to exit.
func (a *App) quit(t Timing) error {
	if _, err := a.Term.SendUntil(a.P.Quit, func(s term.Snapshot) bool { return s.Contains(a.P.Quit) }, 3, 2*time.Second); err != nil {
		return fmt.Errorf("typing %s into %s: %w", a.P.Quit, a.P.Name, err)
	}
	a.Term.Send(term.Enter)
	if _, err := a.Term.WaitFor(a.P.Name+" to exit after "+a.P.Quit, t.Settle, func(term.Snapshot) bool { return a.Term.Exited() }); err != nil && !a.Term.Exited() {
		return fmt.Errorf("%s did not exit after %s: %w", a.P.Name, a.P.Quit, err)
	}
	return nil
}

// checkResume is the resume oracle, at the end of a scenario: the app is
// quit and resumed, and the rows its resumed screen shows must be the rows
// it showed live at the end (tool, id and status; a row whose state the
// screen does not tell takes its live state, as live rows take SPEC's). A
// difference is a BoundaryError of oracle "resume", the engine's failure
// at the end of the stream.
//
// A scenario that typed no prompt has no conversation of its own to
// resume, and one that ends with a turn still in progress (a trace cut
// mid-turn) is not quit mid-turn: neither is checked.
func (e *Engine) checkResume() error {
	a := e.app
	if e.turn.prompts == 0 || a.P.Busy(a.Term.Snapshot()) {
		return nil
	}
	live := e.rows
	if err := a.Restart(e.timing); err != nil {
		return err
	}
	a.Term.WaitFor("the rows shown live, after resuming", e.timing.Patience, func(s term.Snapshot) bool {
		return sameRows(e.read(s, live), live)
	})
	rows, err := e.quiet("after resuming", live)
	if err != nil {
		return err
	}
	a.logScreen("after resuming ("+strings.Join(a.P.Resume, " ")+")", rows)
	if d := rowsDiffer(live, rows); d != "" {
		return &BoundaryError{"resume", fmt.Sprintf("%s (after %s and %s %s)", d, a.P.Quit, a.P.Bin, strings.Join(a.P.Resume, " "))}
	}
	return nil
}

// rowsDiffer says how the resumed rows first differ from the live ones,
// or "" when they are the same: a live row the resumed screen lacks, a
// resumed row not shown live, rows of the same calls in another order,
// or a row's status. The words name no tool, so that the signature (which
// blurs quoted ids and numbers) is one per kind of difference.
func rowsDiffer(live, resumed []browser.Row) string {
	for i := range min(len(live), len(resumed)) {
		l, r := live[i], resumed[i]
		switch {
		case (l.ID != r.ID || l.Name != r.Name) && !hasRow(resumed, l):
			return fmt.Sprintf("the row of call %q is gone (%s live)", l.ID, l.Status)
		case (l.ID != r.ID || l.Name != r.Name) && !hasRow(live, r):
			return fmt.Sprintf("a row of call %q was not shown live (%s)", r.ID, r.Status)
		case l.ID != r.ID || l.Name != r.Name:
			return fmt.Sprintf("row %d is call %q, live call %q", i+1, r.ID, l.ID)
		case l.Status != r.Status:
			return fmt.Sprintf("call %q shows %s, live it showed %s", r.ID, r.Status, l.Status)
		}
	}
	switch {
	case len(resumed) < len(live):
		l := live[len(resumed)]
		return fmt.Sprintf("the row of call %q is gone (%s live)", l.ID, l.Status)
	case len(resumed) > len(live):
		r := resumed[len(live)]
		return fmt.Sprintf("a row of call %q was not shown live (%s)", r.ID, r.Status)
	}
	return ""
}

// hasRow reports whether rows hold a row of row's call (id and name).
func hasRow(rows []browser.Row, row browser.Row) bool {
	for _, r := range rows {
		if r.ID == row.ID && r.Name == row.Name {
			return true
		}
	}
	return false
}
