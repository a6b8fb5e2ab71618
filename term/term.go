package term

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/vt"
)

// Defaults of [Options].
const (
	// DefaultCols and DefaultRows are the screen size when Options leaves
	// it zero.
	DefaultCols = 120
	DefaultRows = 40
	// DefaultQuiet is how long the screen must stay unchanged to count as
	// settled: longer than a spinner's frame (about 80 to 130ms in common
	// spinners), so a screen that still spins never counts as settled,
	// and short enough that a settle costs little.
	DefaultQuiet = 200 * time.Millisecond
	// DefaultGrace is how long Close waits for the program to exit after
	// SIGTERM before it kills what is left.
	DefaultGrace = 500 * time.Millisecond
	// DefaultTerm is the TERM the program sees unless Options.Env sets
	// one: the emulator speaks xterm's dialect.
	DefaultTerm = "xterm-256color"
)

// writeTimeout bounds one write to the program's input (keys, or the
// emulator's replies): a program that stops reading its input cannot hang
// a caller.
const writeTimeout = 10 * time.Second

// closeTimeout bounds each step of Close that waits: the program's exit
// after SIGKILL, and the end of the goroutines after the pty is closed.
const closeTimeout = 5 * time.Second

// Options says what to run and how to show it.
type Options struct {
	// Path is the program: a name looked up in this process's PATH, or a
	// path (relative to Dir when it has a slash).
	Path string
	// Args are the program's arguments, without the program's name.
	Args []string
	// Env is the program's environment; nil inherits this process's,
	// minus TERM, COLUMNS and LINES, which describe the harness's own
	// terminal. TERM is DefaultTerm unless Env sets it.
	Env []string
	// Dir is the program's working directory; empty is this process's.
	Dir string
	// Cols and Rows are the screen size; zero is DefaultCols×DefaultRows.
	Cols, Rows int
	// Quiet is the settle interval Settle uses when given zero, and how
	// long the screen must stay unchanged after the program exited before
	// waits treat its output as complete; zero is DefaultQuiet.
	Quiet time.Duration
	// Grace is how long Close waits for the program to exit after
	// SIGTERM before SIGKILL; zero is DefaultGrace, negative skips
	// SIGTERM.
	Grace time.Duration
	// Transcript, when set, receives a copy of everything the program
	// writes, raw, for debugging. It is written from another goroutine;
	// its errors are ignored.
	Transcript io.Writer
}

// withDefaults fills the zero fields and rejects impossible ones.
func (o Options) withDefaults() (Options, error) {
	if o.Path == "" {
		return o, errors.New("term: Options.Path is empty: no program to start")
	}
	if o.Cols == 0 {
		o.Cols = DefaultCols
	}
	if o.Rows == 0 {
		o.Rows = DefaultRows
	}
	if err := checkSize(o.Cols, o.Rows); err != nil {
		return o, fmt.Errorf("term: Options: %w", err)
	}
	if o.Quiet < 0 {
		return o, fmt.Errorf("term: Options.Quiet is %v, want zero (the default) or more", o.Quiet)
	}
	if o.Quiet == 0 {
		o.Quiet = DefaultQuiet
	}
	if o.Grace == 0 {
		o.Grace = DefaultGrace
	}
	return o, nil
}

// checkSize rejects a screen size a pty cannot have.
func checkSize(cols, rows int) error {
	if cols < 1 || rows < 1 || cols > 0xffff || rows > 0xffff {
		return fmt.Errorf("screen size %dx%d: want 1 to 65535 columns and rows", cols, rows)
	}
	return nil
}

// environ is the program's environment (see Options.Env).
func environ(env []string) []string {
	inherited := env == nil
	if inherited {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+1)
	hasTerm := false
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if inherited && (name == "TERM" || name == "COLUMNS" || name == "LINES") {
			continue
		}
		hasTerm = hasTerm || name == "TERM"
		out = append(out, kv)
	}
	if !hasTerm {
		out = append(out, "TERM="+DefaultTerm)
	}
	return out
}

// Term is a program running in a pseudo-terminal, its screen kept by a VT
// emulator. Its methods are safe for concurrent use.
type Term struct {
	name       string
	quiet      time.Duration
	grace      time.Duration
	cmd        *exec.Cmd
	ptmx       *os.File // the pty's master side
	tty        string   // the pty's slave side, e.g. /dev/pts/3
	transcript io.Writer

	mu      sync.Mutex // guards emu and changed
	emu     *vt.Emulator
	changed chan struct{} // closed, and replaced, at every output

	writeMu sync.Mutex    // serialises writes to ptmx
	replies chan []byte   // the emulator's replies, on their way to ptmx
	done    chan struct{} // closed once the program exited; exitErr is set
	exitErr error

	outDone     chan struct{} // the output reader ended
	repliesDone chan struct{} // the reply copier and writer ended
	drained     chan struct{} // the program exited and its output is read (never closed after Close)
	closing     chan struct{} // Close began
	closeOnce   sync.Once
	closeErr    error
}

// newTerm wraps a started program; run starts its goroutines.
func newTerm(o Options, cmd *exec.Cmd, ptmx *os.File, tty string) *Term {
	return &Term{
		name: o.Path, quiet: o.Quiet, grace: o.Grace,
		cmd: cmd, ptmx: ptmx, tty: tty, transcript: o.Transcript,
		emu:         vt.NewEmulator(o.Cols, o.Rows),
		changed:     make(chan struct{}),
		replies:     make(chan []byte, 64),
		done:        make(chan struct{}),
		outDone:     make(chan struct{}),
		repliesDone: make(chan struct{}),
		drained:     make(chan struct{}),
		closing:     make(chan struct{}),
	}
}

// run starts the goroutines that read the screen, answer the program's
// queries and watch its exit.
func (t *Term) run() {
	go t.readOutput()
	go t.copyReplies()
	go t.waitExit()
	go t.watchDrain()
}

// readOutput feeds the program's output to the emulator until the pty
// ends (every holder of its slave side is gone) or is closed.
func (t *Term) readOutput() {
	defer close(t.outDone)
	buf := make([]byte, 32*1024)
	for {
		n, err := t.ptmx.Read(buf)
		if n > 0 {
			t.feed(buf[:n])
		}
		if err != nil {
			return
		}
	}
}

// feed writes output to the emulator and wakes the waiters.
func (t *Term) feed(p []byte) {
	if t.transcript != nil {
		_, _ = t.transcript.Write(p)
	}
	t.mu.Lock()
	_, _ = t.emu.Write(p)
	t.notifyLocked()
	t.mu.Unlock()
}

// notifyLocked wakes everyone waiting for a change; t.mu is held.
func (t *Term) notifyLocked() {
	close(t.changed)
	t.changed = make(chan struct{})
}

// copyReplies carries the emulator's replies (device attributes, cursor
// position, colours) to the program. The emulator writes them into a pipe
// while it parses output, so they are read at once and queued: a program
// that does not read its input drops its replies rather than stalling the
// screen. A second goroutine writes them.
func (t *Term) copyReplies() {
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		for p := range t.replies {
			_ = t.write(p)
		}
	}()
	buf := make([]byte, 4096)
	for {
		n, err := t.emu.Read(buf)
		if n > 0 {
			select {
			case t.replies <- append([]byte(nil), buf[:n]...):
			default:
			}
		}
		if err != nil {
			break
		}
	}
	close(t.replies)
	<-writerDone
	close(t.repliesDone)
}

// write sends p to the program's input, bounded by writeTimeout.
func (t *Term) write(p []byte) error {
	t.writeMu.Lock()
	defer t.writeMu.Unlock()
	// A pty that is not in the poller takes no deadline; the write is
	// then unbounded, as a plain file's.
	_ = t.ptmx.SetWriteDeadline(time.Now().Add(writeTimeout))
	_, err := t.ptmx.Write(p)
	return err
}

// waitExit reaps the program.
func (t *Term) waitExit() {
	err := t.cmd.Wait()
	t.exitErr = err
	close(t.done)
}

// watchDrain closes drained once the program exited and its output is
// read: the pty ended, or the screen stayed unchanged for the quiet
// interval (a child left behind may hold the pty open). After Close it
// gives up, leaving drained open: the waits watch closing too.
func (t *Term) watchDrain() {
	select {
	case <-t.done:
	case <-t.closing:
		return
	}
	timer := time.NewTimer(t.quiet)
	defer timer.Stop()
	for {
		t.mu.Lock()
		changed := t.changed
		t.mu.Unlock()
		select {
		case <-t.outDone:
		case <-timer.C:
		case <-t.closing:
			return
		case <-changed:
			timer.Reset(t.quiet)
			continue
		}
		close(t.drained)
		return
	}
}

// Pid is the program's process id, which is also its process group's and
// session's.
func (t *Term) Pid() int { return t.cmd.Process.Pid }

// Done is closed once the program has exited.
func (t *Term) Done() <-chan struct{} { return t.done }

// Exited reports whether the program has exited.
func (t *Term) Exited() bool { return isClosed(t.done) }

// isClosed reports whether ch is closed.
func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// ExitErr is how the program ended, as exec.Cmd.Wait reports it: nil for
// exit status 0, an *exec.ExitError otherwise. It is nil while the program
// runs.
func (t *Term) ExitErr() error {
	if !t.Exited() {
		return nil
	}
	return t.exitErr
}

// exitStatus describes how the program ended, for errors.
func (t *Term) exitStatus() error {
	if t.exitErr == nil {
		return fmt.Errorf("%w: exit status 0", ErrExited)
	}
	return fmt.Errorf("%w: %w", ErrExited, t.exitErr)
}

// Close ends the program and everything it started (see the package
// documentation for how, and for the limits), closes the pty and stops
// the goroutines. It returns an error when a process could not be ended
// or a step did not finish within its bound. Calling it again returns the
// first call's result.
func (t *Term) Close() error {
	t.closeOnce.Do(func() { t.closeErr = t.shutdown() })
	return t.closeErr
}

// shutdown is Close's single run.
func (t *Term) shutdown() error {
	close(t.closing)
	var errs []error
	if err := t.killTree(); err != nil {
		errs = append(errs, err)
	}
	if !within(t.done, closeTimeout) {
		errs = append(errs, fmt.Errorf("term: close %s: pid %d did not exit within %v of SIGKILL", t.name, t.Pid(), closeTimeout))
	}
	if err := t.ptmx.Close(); err != nil {
		errs = append(errs, fmt.Errorf("term: close %s: the pty: %w", t.name, err))
	}
	t.closeReplies()
	if !within(t.outDone, closeTimeout) || !within(t.repliesDone, closeTimeout) {
		errs = append(errs, fmt.Errorf("term: close %s: the pty's readers did not stop within %v", t.name, closeTimeout))
	}
	return errors.Join(errs...)
}

// closeReplies ends the emulator's reply pipe, so that copyReplies'
// Read returns. Emulator.Close would do it too but sets a flag that
// Emulator.Read reads unguarded; closing the pipe's writer does not race.
func (t *Term) closeReplies() {
	if pw, ok := t.emu.InputPipe().(*io.PipeWriter); ok {
		_ = pw.CloseWithError(io.EOF)
		return
	}
	t.mu.Lock()
	_ = t.emu.Close()
	t.mu.Unlock()
}

// within reports whether ch closes within d.
func within(ch <-chan struct{}, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ch:
		return true
	case <-timer.C:
		return false
	}
}

// Resize changes the screen size: the pty's (the kernel signals SIGWINCH
// to the program) and the emulator's.
func (t *Term) Resize(cols, rows int) error {
	if err := checkSize(cols, rows); err != nil {
		return fmt.Errorf("term: resize %s: %w", t.name, err)
	}
	if err := setSize(t.ptmx, cols, rows); err != nil {
		return fmt.Errorf("term: resize %s: %w", t.name, err)
	}
	t.mu.Lock()
	t.emu.Resize(cols, rows)
	t.notifyLocked()
	t.mu.Unlock()
	return nil
}
