package capture

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/toolsim/toolsim/redact"
)

// The files a recording writes in its directory.
const (
	rawFile    = "capture.raw"
	stampsFile = "capture.stamps"
	traceFile  = "trace.jsonl"
)

// Options say how to run and record an agent command.
type Options struct {
	// Dir is the directory for capture.raw, capture.stamps and
	// trace.jsonl, created if need be.
	Dir string
	// Format is the agent's output format (a formats name); empty detects
	// it from the content.
	Format string
	// SyntheticClock stamps lines 1 ms apart instead of by wall time, for
	// reproducible captures.
	SyntheticClock bool
	// NoRedact keeps secrets, e-mail addresses and home paths in
	// capture.raw and the trace.
	NoRedact bool
	// Now reads the wall clock for the arrival stamps: once at the start,
	// then once per line. Nil means time.Now.
	Now func() time.Time
	// Stdin is the agent's standard input; nil is the null device.
	Stdin io.Reader
	// Stdout receives the agent's output as it comes; nil discards it.
	Stdout io.Writer
	// Stderr is the agent's standard error; nil is the null device.
	Stderr io.Writer
	// Signals are the interrupts to pass on to the agent's process group
	// (signal.Notify's channel, registered before Record runs so that none
	// is missed); nil passes none.
	Signals <-chan os.Signal
	// Notice, when set, is told of each kill the supervision makes and of
	// output it stops reading, as it happens, in a sentence without a
	// final newline.
	Notice func(msg string)
}

// clock returns the wall clock of the stamps.
func (o *Options) clock() func() time.Time {
	if o.Now != nil {
		return o.Now
	}
	return time.Now
}

// notice tells Notice of msg, if it is set.
func (o *Options) notice(msg string) {
	if o.Notice != nil {
		o.Notice(msg)
	}
}

// Recording is a finished run of an agent command: what was captured and
// how the agent ended. capture.raw and capture.stamps are written.
type Recording struct {
	// Stamps are the lines' arrival times in ms (line n: Stamps[n-1]).
	Stamps []int64
	// TooLong numbers the lines over the importer's line limit: passed
	// through, but kept as empty lines in capture.raw and left out of the
	// trace.
	TooLong []int
	// Interrupted says an interrupt came before the agent exited.
	Interrupted bool
	// State is how the agent exited.
	State *os.ProcessState
	// Err is the agent's exit as exec.Cmd.Wait reported it.
	Err error

	opts     Options
	redactor *redact.Redactor // the lines' redactor; nil when redaction is off
}

// Record runs the command argv under supervision (see the package doc)
// until it exits and its output has been read, and writes capture.raw
// and capture.stamps in opts.Dir. An error means nothing was recorded:
// the directory or a file could not be written, or the command could not
// start.
func Record(argv []string, opts Options) (*Recording, error) {
	if len(argv) == 0 {
		return nil, errors.New("no command to record")
	}
	t, closeRaw, err := newTape(opts.Dir, !opts.NoRedact)
	if err != nil {
		return nil, err
	}
	a, err := startAgent(argv, opts.Stdin, opts.Stderr)
	if err != nil {
		closeRaw()
		return nil, fmt.Errorf("start %s: %w", argv[0], err)
	}
	out := opts.Stdout
	if out == nil {
		out = io.Discard
	}
	pumped := make(chan *tape, 1)
	go func() { pumped <- pump(a.out, out, opts.clock(), opts.SyntheticClock, t) }()
	interrupted := a.supervise(opts.Signals, opts.notice)
	t = a.finish(pumped, opts.notice)
	if err := errors.Join(t.err, closeRaw()); err != nil {
		return nil, err
	}
	if err := writeStamps(filepath.Join(opts.Dir, stampsFile), t.stamps); err != nil {
		return nil, err
	}
	rec := &Recording{Stamps: t.stamps, TooLong: t.tooLong, Interrupted: interrupted, opts: opts, redactor: t.redact}
	rec.State, rec.Err = a.cmd.ProcessState, a.waitErr
	return rec, nil
}

// writeStamps writes capture.stamps: one {"line":N,"t":MS} a line.
func writeStamps(path string, stamps []int64) error {
	var buf bytes.Buffer
	for i, t := range stamps {
		fmt.Fprintf(&buf, "{\"line\":%d,\"t\":%d}\n", i+1, t)
	}
	return os.WriteFile(path, buf.Bytes(), 0o644)
}

// Status maps the agent's exit to a command's exit status as shells
// report it: the agent's own, or 128+N when signal N ended it; 1 when it
// did not exit normally otherwise (its wait failed).
func (r *Recording) Status() int { return exitStatus(r.Err) }

// exitStatus maps an exec.Cmd.Wait error to an exit status.
func exitStatus(err error) int {
	var ee *exec.ExitError
	if err == nil {
		return 0
	}
	if !errors.As(err, &ee) {
		return 1
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}
