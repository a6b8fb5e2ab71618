package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"
	"unicode"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/redact"
)

// stopGrace is how long an agent gets to exit after the interrupt is
// passed on before it is killed.
const stopGrace = 5 * time.Second

type recordFlags struct {
	format    string
	dir       string
	synthetic bool
	noRedact  bool
}

func (c *cli) record(args []string) int {
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	var f recordFlags
	fs.StringVar(&f.format, "from", "", "the agent's output format (default: detect from content)")
	fs.StringVar(&f.format, "format", "", "the same as --from")
	fs.StringVar(&f.dir, "o", ".", "directory for capture.raw, capture.stamps and trace.jsonl")
	fs.BoolVar(&f.synthetic, "synthetic-clock", false, "stamp lines 1 ms apart instead of by wall time (reproducible captures)")
	fs.BoolVar(&f.noRedact, "no-redact", false, "keep secrets, e-mail addresses and home paths in capture.raw and trace.jsonl (redacted by default)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: toolsim record [--from F] [-o DIR] -- CMD ARGS...\n\nRuns an agent command, passes its output through unchanged, stamps each\nline on arrival, and writes DIR/capture.raw (the bytes as received),\nDIR/capture.stamps (arrival ms per line) and DIR/trace.jsonl (the canonical\ntrace). The agent runs in its own process group: Ctrl-C is passed on to the\ngroup, which is killed if it has not exited 5s later or at a second Ctrl-C;\na valid trace is still written. What the agent leaves running when it exits\nis killed.\nA line over the 64 MiB line limit is passed through but\nleft out of the capture.\nExit status: the agent's, 130 when interrupted, 1 when the trace could not\nbe written or a line was left out, 2 usage.\n\nFlags:")
		printFlags(fs)
	}
	// The agent's command line starts at the first argument that is not a
	// flag: its own flags are not record's.
	if err := fs.Parse(args); err != nil {
		return helpOrUsage(err)
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(c.stderr, "toolsim record: want a command after --")
		return exitUsage
	}
	if f.format != "" {
		if _, err := formats.ByName(f.format); err != nil {
			fmt.Fprintf(c.stderr, "toolsim record: --from: %v\n", err)
			return exitUsage
		}
	}
	return c.runRecord(fs.Args(), f)
}

// capture is what a recording collects. The lines go to capture.raw as
// they arrive (redacted line by line unless --no-redact), so that the
// recording holds one line at a time, not the agent's whole output; the
// arrival stamps (8 bytes a line) stay in memory for the import.
type capture struct {
	raw     io.Writer        // capture.raw, buffered
	redact  *redact.Redactor // nil: keep the lines as they came
	stamps  []int64
	tooLong []int // numbers of the lines over the line limit, kept as empty lines
	err     error // the first failure to write capture.raw
	line    []byte
}

// keep writes one line (with its newline, if it had one) to capture.raw.
func (capt *capture) keep(line []byte) {
	if capt.redact != nil {
		line = []byte(capt.redact.String(string(line)))
	}
	if _, err := capt.raw.Write(line); err != nil && capt.err == nil {
		capt.err = err
	}
}

func (c *cli) runRecord(argv []string, f recordFlags) int {
	capt, closeRaw, err := newCapture(f)
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim record: %v\n", err)
		return exitFail
	}
	// Catch Ctrl-C before the agent runs, so that none can be missed.
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	a, err := startAgent(argv, c.stdin, c.stderr)
	if err != nil {
		closeRaw()
		fmt.Fprintf(c.stderr, "toolsim record: start %s: %v\n", argv[0], err)
		return exitFail
	}
	pumped := make(chan *capture, 1)
	go func() { pumped <- c.pump(a.out, f.synthetic, capt) }()
	interrupted := a.supervise(sigs, c.stderr)
	capt = a.finish(pumped, c.stderr)
	if err := errors.Join(capt.err, closeRaw()); err != nil {
		fmt.Fprintf(c.stderr, "toolsim record: %v\n", err)
		return exitFail
	}
	if err := c.writeCapture(capt, f); err != nil {
		fmt.Fprintf(c.stderr, "toolsim record: %v\n", err)
		return exitFail
	}
	for _, n := range capt.tooLong {
		fmt.Fprintf(c.stderr, "toolsim record: line %d of the agent's output is longer than the %d-byte line limit: passed through, but kept as an empty line in capture.raw and left out of the trace\n", n, importer.MaxLine)
	}
	if interrupted {
		fmt.Fprintf(c.stderr, "toolsim record: interrupted (the agent: %v)\n", a.cmd.ProcessState)
		return exitInterrupted
	}
	if code := exitStatus(a.waitErr); code != exitOK || len(capt.tooLong) == 0 {
		return code
	}
	return exitFail // the capture is incomplete
}

// newCapture creates the output directory and capture.raw, and returns
// the capture to fill and what flushes and closes the file.
func newCapture(f recordFlags) (*capture, func() error, error) {
	if err := os.MkdirAll(f.dir, 0o755); err != nil {
		return nil, nil, err
	}
	file, err := os.Create(filepath.Join(f.dir, "capture.raw"))
	if err != nil {
		return nil, nil, err
	}
	bw := bufio.NewWriterSize(file, 64<<10)
	capt := &capture{raw: bw}
	if !f.noRedact {
		capt.redact = redact.New()
	}
	return capt, func() error { return errors.Join(bw.Flush(), file.Close()) }, nil
}

// pump copies the agent's output through as it comes, and keeps each
// line, stamped on arrival. A line over the line limit is passed through
// whole, but kept as an empty line (and its number noted) once it passes
// the limit, so that an endless line cannot fill the memory.
func (c *cli) pump(out io.Reader, synthetic bool, capt *capture) *capture {
	now := c.clock()
	start := now()
	br := bufio.NewReaderSize(out, 64<<10)
	size, over := 0, false // the current line's bytes so far, over the limit
	for {
		chunk, err := br.ReadSlice('\n')
		c.stdout.Write(chunk)
		size += len(chunk)
		if !over && size > importer.MaxLine+2 {
			over = true
			capt.line = capt.line[:0]
			capt.tooLong = append(capt.tooLong, len(capt.stamps)+1)
		}
		if !over {
			capt.line = append(capt.line, chunk...)
		}
		ended := bytes.HasSuffix(chunk, []byte{'\n'}) || err != nil && !errors.Is(err, bufio.ErrBufferFull) && size > 0
		if ended {
			if over {
				capt.line = append(capt.line[:0], '\n')
			}
			capt.keep(capt.line)
			t := now().Sub(start).Milliseconds()
			if synthetic {
				t = int64(len(capt.stamps))
			}
			capt.stamps = append(capt.stamps, t)
			size, over, capt.line = 0, false, capt.line[:0]
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return capt
		}
	}
}

// writeCapture writes the stamps and the canonical trace, imported from
// capture.raw.
func (c *cli) writeCapture(capt *capture, f recordFlags) error {
	raw := filepath.Join(f.dir, "capture.raw")
	var stamps bytes.Buffer
	for i, t := range capt.stamps {
		fmt.Fprintf(&stamps, "{\"line\":%d,\"t\":%d}\n", i+1, t)
	}
	if err := os.WriteFile(filepath.Join(f.dir, "capture.stamps"), stamps.Bytes(), 0o644); err != nil {
		return err
	}
	res, name, err := importCapture(raw, capt.stamps, f.format)
	if err != nil {
		return err
	}
	c.reportProblems(raw, res.Problems)
	c.redactResult(capt.redact, res)
	var trace bytes.Buffer
	if err := event.WriteAll(&trace, &res.Header, res.Events); err != nil {
		return err
	}
	path := filepath.Join(f.dir, "trace.jsonl")
	fmt.Fprintf(c.stderr, "toolsim record: %d lines as %s, %d events → %s\n", len(capt.stamps), name, len(res.Events), path)
	return os.WriteFile(path, trace.Bytes(), 0o644)
}

// importCapture imports capture.raw with its arrival stamps. An empty
// capture gives an empty trace with just a header.
func importCapture(raw string, stamps []int64, format string) (*importer.Result, string, error) {
	f, err := os.Open(raw)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	if empty, err := blank(f); err != nil || empty {
		return &importer.Result{Header: event.Header{Trace: event.Version, Source: "record"}}, "nothing", err
	}
	src, err := formats.Open(f, format, importer.Options{Name: raw, Stamps: stamps})
	if err != nil {
		return nil, "", err
	}
	res, err := (&input{Source: src, display: raw}).readWhole()
	if errors.Is(err, formats.ErrNoEvents) {
		// A capture that maps to nothing is still written, with its header.
		return &importer.Result{Header: headerOr(src.Header), Problems: src.Problems}, src.Format, nil
	}
	return res, src.Format, err
}

// blank reports whether a file holds only white space, and leaves it at
// its start.
func blank(f *os.File) (bool, error) {
	br := bufio.NewReader(f)
	for {
		r, _, err := br.ReadRune()
		if err == io.EOF {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		if !unicode.IsSpace(r) {
			_, err := f.Seek(0, io.SeekStart)
			return false, err
		}
	}
}

// exitStatus maps the agent's exit to ours: its status, or 128+N when a
// signal N ended it, as shells report.
func exitStatus(err error) int {
	var ee *exec.ExitError
	if err == nil {
		return exitOK
	}
	if !errors.As(err, &ee) {
		return exitFail
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return ee.ExitCode()
}
