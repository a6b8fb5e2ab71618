package term

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// The reasons a wait fails, found in [WaitError].Err with errors.Is.
var (
	// ErrTimeout: the condition did not hold within the timeout.
	ErrTimeout = errors.New("timed out")
	// ErrExited: the program exited (and its output was read) without
	// the condition holding. The error also wraps the exit status (an
	// *exec.ExitError for a non-zero status).
	ErrExited = errors.New("the program exited")
	// ErrClosed: Close was called.
	ErrClosed = errors.New("the terminal is closed")
)

// WaitError is a wait that failed, with the last screen attached.
type WaitError struct {
	// What was awaited, e.g. `text matching /\$ $/`.
	What string
	// Timeout is the wait's bound.
	Timeout time.Duration
	// Screen is the screen when the wait gave up.
	Screen Snapshot
	// Err is why: ErrTimeout, ErrExited (wrapping the exit status) or
	// ErrClosed.
	Err error
}

// Error names what was awaited, why it failed, and shows the screen.
func (e *WaitError) Error() string {
	reason := e.Err.Error()
	if errors.Is(e.Err, ErrTimeout) {
		reason = fmt.Sprintf("timed out after %v", e.Timeout)
	}
	screen := e.Screen.String()
	if screen == "" {
		return fmt.Sprintf("term: waiting for %s: %s; the screen is empty", e.What, reason)
	}
	return fmt.Sprintf("term: waiting for %s: %s; the screen:\n| %s",
		e.What, reason, strings.ReplaceAll(screen, "\n", "\n| "))
}

// Unwrap returns Err.
func (e *WaitError) Unwrap() error { return e.Err }

// checkTimeout rejects a wait without a bound.
func checkTimeout(what string, d time.Duration) error {
	if d <= 0 {
		return fmt.Errorf("term: waiting for %s: timeout %v, want a positive bound", what, d)
	}
	return nil
}

// WaitFor waits until ok holds on the screen, checking it now and at
// every change, for at most timeout. It returns the screen on which ok
// held, or a *WaitError with the last screen: on timeout, on Close, or
// when the program exited and its final screen does not satisfy ok. what
// names the condition in the error.
func (t *Term) WaitFor(what string, timeout time.Duration, ok func(Snapshot) bool) (Snapshot, error) {
	if err := checkTimeout(what, timeout); err != nil {
		return t.Snapshot(), err
	}
	if ok == nil {
		return t.Snapshot(), fmt.Errorf("term: waiting for %s: the condition is nil", what)
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		s, changed := t.observe()
		if ok(s) {
			return s, nil
		}
		select {
		case <-changed:
		case <-timer.C:
			return s, &WaitError{What: what, Timeout: timeout, Screen: s, Err: ErrTimeout}
		case <-t.closing:
			return s, &WaitError{What: what, Timeout: timeout, Screen: s, Err: ErrClosed}
		case <-t.drained:
			if s = t.Snapshot(); ok(s) {
				return s, nil
			}
			return s, &WaitError{What: what, Timeout: timeout, Screen: s, Err: t.exitStatus()}
		}
	}
}

// WaitText waits until the screen's text matches re (see
// [Snapshot.Match]), for at most timeout.
func (t *Term) WaitText(re *regexp.Regexp, timeout time.Duration) (Snapshot, error) {
	if re == nil {
		return t.Snapshot(), errors.New("term: WaitText: the regexp is nil")
	}
	return t.WaitFor(fmt.Sprintf("text matching /%s/", re), timeout, func(s Snapshot) bool { return s.Match(re) })
}

// WaitGone waits until the screen's text no longer matches re, for at
// most timeout.
func (t *Term) WaitGone(re *regexp.Regexp, timeout time.Duration) (Snapshot, error) {
	if re == nil {
		return t.Snapshot(), errors.New("term: WaitGone: the regexp is nil")
	}
	return t.WaitFor(fmt.Sprintf("text /%s/ to go", re), timeout, func(s Snapshot) bool { return !s.Match(re) })
}

// Settle waits until the screen (its text and styles) has stayed
// unchanged for quiet, for at most max, and returns it. Zero quiet is
// Options.Quiet. It fails with a *WaitError when the screen keeps
// changing past max, on Close, and when the program has exited (a
// screen that can no longer change tells nothing about an app's state;
// read it with Snapshot).
func (t *Term) Settle(quiet, max time.Duration) (Snapshot, error) {
	if quiet == 0 {
		quiet = t.quiet
	}
	what := fmt.Sprintf("the screen to settle (unchanged for %v)", quiet)
	if quiet < 0 {
		return t.Snapshot(), fmt.Errorf("term: waiting for %s: negative quiet interval", what)
	}
	if err := checkTimeout(what, max); err != nil {
		return t.Snapshot(), err
	}
	deadline := time.NewTimer(max)
	defer deadline.Stop()
	still := time.NewTimer(quiet)
	defer still.Stop()
	last, changed := t.observe()
	for {
		select {
		case <-changed:
			var s Snapshot
			s, changed = t.observe()
			if s.Styled != last.Styled {
				last = s
				still.Reset(quiet)
			}
		case <-still.C:
			return last, nil
		case <-deadline.C:
			return last, &WaitError{What: what, Timeout: max, Screen: last, Err: ErrTimeout}
		case <-t.closing:
			return last, &WaitError{What: what, Timeout: max, Screen: last, Err: ErrClosed}
		case <-t.drained:
			s := t.Snapshot()
			return s, &WaitError{What: what, Timeout: max, Screen: s, Err: t.exitStatus()}
		}
	}
}
