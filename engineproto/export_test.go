package engineproto

// Timer is the timer a test clock returns.
type Timer = timer

// WithClock returns o with a test clock for the timeouts, so that a test
// fires them by hand instead of waiting for real time.
func WithClock(o Options, c clock) Options {
	o.clock = c
	return o
}
