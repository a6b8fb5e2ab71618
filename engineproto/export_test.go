package engineproto

import "io"

// StartServed is Start with the engine served on a goroutine of this
// process over pipes (serve is engineproto.Serve with its options): the
// protocol path without a process.
func StartServed(serve func(io.Reader, io.Writer) error, opts Options) (*Client, error) {
	return start([]string{"served"}, opts, servedProcess(serve))
}

// Timer is the timer a test clock returns.
type Timer = timer

// WithClock returns o with a test clock for the timeouts, so that a test
// fires them by hand instead of waiting for real time.
func WithClock(o Options, c clock) Options {
	o.clock = c
	return o
}
