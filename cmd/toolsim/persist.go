package main

import (
	"bufio"
	"flag"
	"fmt"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/rebuild"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/replay"
	"github.com/toolsim/toolsim/store"
)

// faultFlags are the persistence-fault flags of persist and replay.
type faultFlags struct {
	faults string
	seed   uint64
	fine   bool
}

func (f *faultFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.faults, "faults", "", "comma-separated persistence faults, all or none: "+fault.Log.Join(", "))
	fs.Uint64Var(&f.seed, "seed", 1, "seed for the faults' random choices")
	fs.BoolVar(&f.fine, "fine", false, "write one record per text delta instead of one per segment")
}

func (f *faultFlags) options() (store.Options, error) {
	faults, err := fault.ParseLog(f.faults)
	return store.Options{Faults: faults, Seed: f.seed, Fine: f.fine}, err
}

func (c *cli) persist(args []string) int {
	fs := flag.NewFlagSet("persist", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	var ff faultFlags
	ff.register(fs)
	var in inputFlags
	in.register(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: toolsim persist [--faults LIST] [--seed N] [--fine] [--from F] [--strict] TRACE\n\nWrites to stdout the persisted log a live app would have written while the\ntrace's events arrived (docs/persisted-log.md), with the faults applied. The\nlog is written as the trace is read: on an invalid trace, the records of the\nevents before the error are out, and the exit status is 1.\n\nFlags:")
		printFlags(fs)
	}
	if err := c.parseFlags(fs, args); err != nil {
		return helpOrUsage(err)
	}
	opts, err := ff.options()
	if err != nil || fs.NArg() != 1 {
		fmt.Fprintf(c.stderr, "toolsim persist: %v\n", orUsage(err, "want exactly one TRACE"))
		return exitUsage
	}
	if err := c.persistStream(fs.Arg(0), in, opts); err != nil {
		fmt.Fprintf(c.stderr, "toolsim persist: %v\n", err)
		return inputStatus(err)
	}
	return exitOK
}

// persistStream writes the log while the trace is read, holding only what
// a live app holds open (store.LogWriter), not the trace. The kill fault
// needs the number of events, so with it the trace is read whole first.
func (c *cli) persistStream(name string, in inputFlags, opts store.Options) error {
	src, err := c.openTrace(name, in)
	if err != nil {
		return err
	}
	defer src.close()
	c.reportProblems(src.display, src.Problems)
	out := bufio.NewWriterSize(c.stdout, 64<<10)
	err = store.Stream(out, src.Next, opts)
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	return err
}

// printProblems lists a rebuild's problems on stderr, marking the ones
// it fully recovered from.
func (c *cli) printProblems(name string, problems []rebuild.Problem) {
	for _, p := range problems {
		note := ""
		if p.Recovered() {
			note = " (recovered)"
		}
		fmt.Fprintf(c.stderr, "%s:%s%s\n", name, p, note)
	}
}

func orUsage(err error, msg string) any {
	if err != nil {
		return err
	}
	return msg
}

func (c *cli) reconstruct(args []string) int {
	fs := flag.NewFlagSet("reconstruct", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	width := fs.Int("width", render.DefaultWidth, "rendering width in cells")
	asJSON := fs.Bool("json", false, "print the timeline JSON instead of the render")
	open := fs.Bool("open", false, "leave the stream open: do not resolve calls still unanswered")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: toolsim reconstruct [--width N] [--json] [--open] LOG\n\nRebuilds the transcript from a persisted log and renders it, as a UI does on\nreload. Problems in the log go to stderr with their line numbers.\nExit status: 0 when nothing was lost (recovered problems such as retried\nrecords are still listed), 1 when something could not be recovered (the best\ntimeline is still printed) or the log is empty, 2 usage or a LOG that cannot\nbe opened.\nAll statuses: docs/exit-status.md.\n\nFlags:")
		printFlags(fs)
	}
	if err := c.parseFlags(fs, args); err != nil {
		return helpOrUsage(err)
	}
	if fs.NArg() != 1 || *width < minWidth {
		fmt.Fprintf(c.stderr, "toolsim reconstruct: want one LOG and --width of at least %d\n", minWidth)
		return exitUsage
	}
	f, name, err := c.openInput(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim reconstruct: %v\n", err)
		return inputStatus(err)
	}
	defer f.Close()
	res, err := rebuild.Rebuild(f, rebuild.Options{Name: name, Open: *open})
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim reconstruct: %v\n", err)
		return exitFail
	}
	replay.WriteEnd(c.stdout, res.Engine.Timeline(), render.Options{Width: *width}, *asJSON)
	c.printProblems(name, res.Problems)
	if rebuild.Lost(res.Problems) {
		return exitFail
	}
	return exitOK
}

// checkReconstruct runs oracle (a) on a trace: exit 0 when the rebuilt
// transcript equals the live one, 1 with a (-live +rebuilt) diff otherwise.
func (c *cli) checkReconstruct(evs []event.Event, ff faultFlags) int {
	opts, err := ff.options()
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim replay: %v\n", err)
		return exitUsage
	}
	cs := &harness.Case{Events: evs, LogFaults: opts.Faults, FaultSeed: opts.Seed}
	problems, diff, err := cs.RoundTrip(opts.Fine)
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim replay: %v\n", err)
		return exitFail
	}
	c.printProblems("log", problems)
	if diff != "" {
		fmt.Fprintf(c.stdout, "rebuilt transcript differs from the live one (-live +rebuilt):\n%s", diff)
		fmt.Fprintf(c.stdout, "reproduce: %s replay --check-reconstruct --faults %q --seed %d TRACE\n", c.me(), ff.faults, ff.seed)
		return exitFail
	}
	fmt.Fprintf(c.stdout, "ok: rebuilt transcript equals the live one (faults: %s)\n", orNone(ff.faults))
	return exitOK
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
