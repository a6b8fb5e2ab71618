package term

import (
	"errors"
	"fmt"
	"time"
)

// Keys as a terminal sends them. The arrows are the normal-mode (CSI)
// forms; the input parsers of the agent apps (crossterm's, Ink's) accept
// them in either cursor-key mode.
const (
	Enter     = "\r"
	Esc       = "\x1b"
	Tab       = "\t"
	ShiftTab  = "\x1b[Z"
	Backspace = "\x7f"
	Delete    = "\x1b[3~"
	CtrlC     = "\x03"
	CtrlD     = "\x04"
	Up        = "\x1b[A"
	Down      = "\x1b[B"
	Right     = "\x1b[C"
	Left      = "\x1b[D"
	Home      = "\x1b[H"
	End       = "\x1b[F"
	PageUp    = "\x1b[5~"
	PageDown  = "\x1b[6~"
)

// Send writes keys to the program's input as one write, as a terminal
// does for a paste or one keypress. It fails once the program exited or
// the terminal is closed, and when the program does not take the bytes
// within 10s.
func (t *Term) Send(keys string) error {
	if isClosed(t.closing) {
		return fmt.Errorf("term: send %q: %w", keys, ErrClosed)
	}
	if t.Exited() {
		return fmt.Errorf("term: send %q to %s: %w", keys, t.name, t.exitStatus())
	}
	if err := t.write([]byte(keys)); err != nil {
		return fmt.Errorf("term: send %q to %s: %w", keys, t.name, err)
	}
	return nil
}

// SendEach sends each of keys as its own write, pausing gap between two.
// Apps read an Esc that arrives together with more bytes as the start of
// an escape sequence or as Alt+key; send Esc, or a key after it, this way
// (a gap of about 50ms, longer than the apps' escape timeout, is enough)
// when it must count as Esc alone. The pause is pacing, not a wait for the
// screen.
func (t *Term) SendEach(gap time.Duration, keys ...string) error {
	for i, k := range keys {
		if i > 0 && gap > 0 {
			timer := time.NewTimer(gap)
			select {
			case <-timer.C:
			case <-t.closing:
				timer.Stop()
				return fmt.Errorf("term: send %q: %w", k, ErrClosed)
			}
		}
		if err := t.Send(k); err != nil {
			return err
		}
	}
	return nil
}

// SendUntil sends keys, waits up to wait for took to hold on the screen,
// and sends them again if it does not, up to tries sends in all. It
// returns the screen on which took held. When no send took, it returns a
// *WaitError (Err ErrTimeout) with the last screen. A failed send, the
// program's exit or a Close end it early (the last two with an error
// wrapping ErrExited or ErrClosed). It always sends at least once, even
// when took already holds.
//
// It suits keys an app may drop while it is busy (starting up, or
// redrawing): a resend must be harmless, so use it for keys whose second
// arrival changes nothing once the first took, or make took tell them
// apart.
func (t *Term) SendUntil(keys string, took func(Snapshot) bool, tries int, wait time.Duration) (Snapshot, error) {
	what := fmt.Sprintf("keys %q to take (sent %d times, waiting %v each)", keys, tries, wait)
	if tries < 1 {
		return t.Snapshot(), fmt.Errorf("term: waiting for %s: want at least one try", what)
	}
	if err := checkTimeout(what, wait); err != nil {
		return t.Snapshot(), err
	}
	if took == nil {
		return t.Snapshot(), fmt.Errorf("term: waiting for %s: the condition is nil", what)
	}
	var last Snapshot
	for range tries {
		if err := t.Send(keys); err != nil {
			return t.Snapshot(), err
		}
		s, err := t.WaitFor(what, wait, took)
		if err == nil {
			return s, nil
		}
		var we *WaitError
		if !errors.As(err, &we) || !errors.Is(err, ErrTimeout) {
			return s, err
		}
		last = s
	}
	return last, &WaitError{What: what, Timeout: time.Duration(tries) * wait, Screen: last, Err: ErrTimeout}
}
