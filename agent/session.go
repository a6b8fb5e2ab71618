package agent

import (
	"fmt"
	"time"

	"github.com/toolsim/toolsim/modelapi"
	"github.com/toolsim/toolsim/term"
)

// Fresh readies the app for a new scenario: a turn still in progress is
// cancelled, calls still held are released, model requests still
// waiting are answered, and the app's new-session command clears the
// conversation. The first scenario of a process starts on the app's
// first screen.
func (a *App) Fresh(t Timing) error {
	if !a.used {
		a.used = true
		a.Model.Reset()
		a.Tools.Reset()
		return nil
	}
	if err := a.quiesce(t); err != nil {
		return err
	}
	if err := a.clear(t); err != nil {
		return err
	}
	a.drain()
	a.Model.Reset()
	return a.exited()
}

// quiesce ends a turn still in progress: it presses the cancel key(s),
// releases the calls still held and answers the model requests still
// waiting, and again while the app stays busy (an app may ask the model
// again after a cancel, or wait on a call the cancel did not end), up to
// Timing.Settle in all. An app busy after that is an engine failure with
// its screen.
func (a *App) quiesce(t Timing) error {
	const rounds = 4
	for i := 0; i < rounds; i++ {
		if !a.P.Busy(a.Term.Snapshot()) {
			break
		}
		for _, k := range a.P.Cancel {
			a.Term.Send(k)
		}
		a.Tools.Reset()
		a.drain()
		a.Term.WaitFor("the last scenario's turn to stop", t.Settle/rounds, func(s term.Snapshot) bool { return !a.P.Busy(s) })
	}
	a.Tools.Reset()
	a.drain()
	if s := a.Term.Snapshot(); a.P.Busy(s) {
		return fmt.Errorf("%s still shows a turn in progress %v after the cancel key, with every call released and every model request answered: %w",
			a.P.Name, t.Settle, &term.WaitError{What: "the last scenario's turn to stop", Timeout: t.Settle, Screen: s, Err: term.ErrTimeout})
	}
	return nil
}

// drain answers every model request already waiting with the final
// answer: none may hold the app between scenarios.
func (a *App) drain() {
	for {
		p, err := a.Model.Next(0)
		if err != nil {
			return
		}
		p.Respond(modelapi.Reply{Text: finalText})
	}
}

// clear types the new-session command and waits for a screen with no
// tool rows that waits for a prompt.
func (a *App) clear(t Timing) error {
	cmd := a.P.NewSession
	if _, err := a.Term.SendUntil(cmd, func(s term.Snapshot) bool { return s.Contains(cmd) }, 3, 2*time.Second); err != nil {
		return fmt.Errorf("typing %s into %s: %w", cmd, a.P.Name, err)
	}
	empty := func(s term.Snapshot) bool { return len(a.P.Read(s, nil)) == 0 && a.P.Ready(s) && !a.P.Busy(s) }
	if _, err := a.Term.SendUntil(term.Enter, empty, 3, t.Settle/3); err != nil {
		return fmt.Errorf("%s's %s left tool rows or no prompt: %w", a.P.Name, cmd, err)
	}
	return nil
}

// exited returns an error with the last screen once the app exited.
func (a *App) exited() error {
	if !a.Term.Exited() {
		return nil
	}
	return fmt.Errorf("%s exited (%v): %w", a.P.Name, a.Term.ExitErr(),
		&term.WaitError{What: "the app to run", Screen: a.Term.Snapshot(), Err: term.ErrExited})
}
