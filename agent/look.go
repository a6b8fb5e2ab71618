package agent

import (
	"fmt"

	"github.com/toolsim/toolsim/browser"
	"github.com/toolsim/toolsim/term"
	"github.com/toolsim/toolsim/timeline"
)

// look reads the screen after an event (docs/agents.md, The settle
// rule): it waits up to Timing.Patience for the rows SPEC expects, then
// until the rows stayed unchanged for Timing.Quiet (at most
// Timing.Settle), and keeps what the screen then shows, expected or not.
// Once the screen missed SPEC's picture it waits only 4×Quiet for the
// next, until one shows again: an app that diverged rarely comes back,
// and the rest of a failing seed only looks for the bugs the first
// violation masks.
func (e *Engine) look(when string) error {
	a := e.app
	want := e.expected()
	patience := e.timing.Patience
	if e.diverged {
		patience = 4 * e.timing.Quiet // it missed the last picture: it rarely comes back
	}
	_, miss := a.Term.WaitFor("the rows SPEC expects "+when, patience, func(s term.Snapshot) bool {
		return sameRows(project(e.read(s, want), e.run), want)
	})
	e.diverged = miss != nil
	if err := a.exited(); err != nil {
		return err
	}
	rows, err := e.quiet(when, want)
	if err != nil {
		return err
	}
	e.rows = rows
	a.logScreen(when, rows)
	return nil
}

// logScreen writes the screen just read, after a line naming when and the
// rows read, to Options.Screens, if set.
func (a *App) logScreen(when string, rows []browser.Row) {
	if a.screens == nil {
		return
	}
	snap := a.Term.Snapshot()
	fmt.Fprintf(a.screens, "== %s %s: %d row(s) %v\n%s\n-- styled\n%q\n", a.clock().Format("15:04:05.000"), when, len(rows), rows, snap, snap.Styled)
}

// quiet waits until the rows stay unchanged for Timing.Quiet. Each wait
// is at most Quiet, and at most Settle/Quiet changes are waited out, so
// it ends within Timing.Settle; rows still changing then are an engine
// failure with the screen.
func (e *Engine) quiet(when string, want []browser.Row) ([]browser.Row, error) {
	a := e.app
	last := e.read(a.Term.Snapshot(), want)
	for n := int64(0); n <= int64(e.timing.Settle/e.timing.Quiet); n++ {
		s, err := a.Term.WaitFor("a change of the rows", e.timing.Quiet, func(s term.Snapshot) bool {
			return !sameRows(e.read(s, want), last)
		})
		if err != nil {
			return last, a.exited() // unchanged for Quiet: settled
		}
		last = e.read(s, want)
	}
	return nil, fmt.Errorf("%s's rows never settled %s: %w", a.P.Name, when,
		&term.WaitError{What: "the rows to settle", Timeout: e.timing.Settle, Screen: a.Term.Snapshot(), Err: term.ErrTimeout})
}

// read is the screen's rows as the profile's reader reads them, each row
// whose state the screen does not tell (Status "") given the state SPEC
// expects for its call (want), or running for a call SPEC shows no row
// of: what a user cannot see is not judged (Profile.Read). Rows pair with
// SPEC's by occurrence: the k-th row of an id and name on the screen is
// the k-th call of them, whether its own state is told or not (a reused
// id's new row must not take the state of the ended call before it).
func (e *Engine) read(s term.Snapshot, want []browser.Row) []browser.Row {
	rows := e.app.P.Read(s, e.asked)
	used := make([]bool, len(want))
	for i := range rows {
		status := string(timeline.StatusRunning)
		for j, w := range want {
			if !used[j] && w.ID == rows[i].ID && w.Name == rows[i].Name {
				used[j], status = true, w.Status
				break
			}
		}
		if rows[i].Status == "" {
			rows[i].Status = status
		}
	}
	return rows
}

// expected is the tool rows SPEC's reference engine shows now. It has
// seen only the events up to now, so the calls the current run starts
// later are not among them; projecting them away (as the screen's rows
// are) would drop an older row of a reused id instead.
func (e *Engine) expected() []browser.Row {
	var rows []browser.Row
	for _, it := range e.ref.Timeline().Items {
		it.EachTool(func(t *timeline.Tool) bool {
			rows = append(rows, browser.Row{Kind: "tool", ID: t.ID, Name: t.Name, Status: string(t.Status)})
			return true
		})
	}
	return rows
}

// sameRows compares rows by kind, id, name and status.
func sameRows(a, b []browser.Row) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Kind != b[i].Kind || a[i].ID != b[i].ID || a[i].Name != b[i].Name || a[i].Status != b[i].Status {
			return false
		}
	}
	return true
}
