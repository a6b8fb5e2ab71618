package engineproto

import "time"

// clock is the time source of a Client's timeouts. The zero Options use
// the real clock; tests pass a fake one so that a timeout fires when the
// test says, not after real time has passed.
type clock interface {
	// AfterFunc calls f in its own goroutine once d has passed, unless
	// the returned timer is stopped first.
	AfterFunc(d time.Duration, f func()) timer
}

// timer is a pending call of clock.AfterFunc.
type timer interface {
	// Stop prevents the call; it reports false when the call already
	// happened (or is happening).
	Stop() bool
	// Reset arms a stopped timer again, to call its function once d has
	// passed.
	Reset(d time.Duration) bool
}

// realClock is the system clock.
type realClock struct{}

// AfterFunc is time.AfterFunc.
func (realClock) AfterFunc(d time.Duration, f func()) timer { return time.AfterFunc(d, f) }
