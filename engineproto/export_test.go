package engineproto

import (
	"io"
	"os"
)

// StartServed is Start with the engine served on a goroutine of this
// process over pipes (serve is engineproto.Serve with its options): the
// protocol path without a process.
func StartServed(serve func(io.Reader, io.Writer) error, opts Options) (*Client, error) {
	return start([]string{"served"}, opts, func([]string, io.Writer) (*process, error) { return served(serve) })
}

// served is a process that is not one: serve runs on a goroutine, reading
// the engine's input and writing its output over pipes, and ends when its
// input closes. Its standard error is a pipe closed from the start.
func served(serve func(io.Reader, io.Writer) error) (*process, error) {
	var ends [3][2]*os.File // input, output, error: read and write ends
	for i := range ends {
		r, w, err := os.Pipe()
		if err != nil {
			for _, e := range ends[:i] {
				e[0].Close()
				e[1].Close()
			}
			return nil, err
		}
		ends[i] = [2]*os.File{r, w}
	}
	in, out := ends[0], ends[1]
	ends[2][1].Close()
	p := &process{stdin: in[1], stdout: out[0], stderr: ends[2][0], stderrDone: make(chan struct{}), exited: make(chan struct{})}
	close(p.stderrDone)
	go func() {
		p.waitErr = serve(in[0], out[1])
		in[0].Close()
		out[1].Close()
		close(p.exited)
	}()
	return p, nil
}

// Timer is the timer a test clock returns.
type Timer = timer

// WithClock returns o with a test clock for the timeouts, so that a test
// fires them by hand instead of waiting for real time.
func WithClock(o Options, c clock) Options {
	o.clock = c
	return o
}
