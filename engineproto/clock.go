package engineproto

import "time"

// Clock is the time source of a Client's timeouts. The zero Options use
// the real clock; tests pass a fake one so that a timeout fires when the
// test says, not after real time has passed.
type Clock interface {
	// AfterFunc calls f in its own goroutine once d has passed, unless
	// the returned Timer is stopped first.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending call of Clock.AfterFunc.
type Timer interface {
	// Stop prevents the call; it reports false when the call already
	// happened (or is happening).
	Stop() bool
}

// RealClock is the system clock.
type RealClock struct{}

// AfterFunc is time.AfterFunc.
func (RealClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
