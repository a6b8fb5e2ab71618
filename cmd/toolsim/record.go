package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/toolsim/toolsim/capture"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/importer"
)

func (c *cli) record(args []string) int {
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	var o capture.Options
	fs.StringVar(&o.Format, "from", "", "the agent's output format (default: detect from content)")
	fs.StringVar(&o.Format, "format", "", "the same as --from")
	fs.StringVar(&o.Dir, "o", ".", "directory for capture.raw, capture.stamps and trace.jsonl")
	fs.BoolVar(&o.SyntheticClock, "synthetic-clock", false, "stamp lines 1 ms apart instead of by wall time (reproducible captures)")
	fs.BoolVar(&o.NoRedact, "no-redact", false, "keep secrets, e-mail addresses and home paths in capture.raw and trace.jsonl (redacted by default)")
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
	if o.Format != "" {
		if _, err := formats.ByName(o.Format); err != nil {
			fmt.Fprintf(c.stderr, "toolsim record: --from: %v\n", err)
			return exitUsage
		}
	}
	return c.runRecord(fs.Args(), o)
}

// runRecord records argv with the flags' options o and says how it went.
func (c *cli) runRecord(argv []string, o capture.Options) int {
	// Catch Ctrl-C before the agent runs, so that none can be missed.
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	o.Now, o.Signals = c.clock(), sigs
	o.Stdin, o.Stdout, o.Stderr = c.stdin, c.stdout, c.stderr
	o.Notice = func(msg string) { fmt.Fprintf(c.stderr, "toolsim record: %s\n", msg) }
	rec, err := capture.Record(argv, o)
	if err == nil {
		err = c.writeTrace(rec)
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim record: %v\n", err)
		return exitFail
	}
	for _, n := range rec.TooLong {
		fmt.Fprintf(c.stderr, "toolsim record: line %d of the agent's output is longer than the %d-byte line limit: passed through, but kept as an empty line in capture.raw and left out of the trace\n", n, importer.MaxLine)
	}
	if rec.Interrupted {
		fmt.Fprintf(c.stderr, "toolsim record: interrupted (the agent: %v)\n", rec.State)
		return exitInterrupted
	}
	if code := rec.Status(); code != exitOK || len(rec.TooLong) == 0 {
		return code
	}
	return exitFail // the capture is incomplete
}

// writeTrace imports a recording and writes its trace, saying what the
// import skipped, what redaction replaced and what was written.
func (c *cli) writeTrace(rec *capture.Recording) error {
	tr, err := rec.Import()
	if err != nil {
		return err
	}
	c.reportProblems(tr.Name, tr.Problems)
	if len(tr.Redacted) > 0 {
		fmt.Fprintf(c.stderr, "toolsim record: %s (--no-redact keeps them)\n", redactSummary(tr.Redacted))
	}
	fmt.Fprintf(c.stderr, "toolsim record: %d lines as %s, %d events → %s\n", len(rec.Stamps), tr.Format, len(tr.Events), tr.Path)
	return tr.Write()
}
