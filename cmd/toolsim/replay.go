package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/replay"
)

// minWidth is the narrowest rendering width accepted.
const minWidth = 10

type replayFlags struct {
	name   string // the command, for messages: replay, or play and watch printing as replay does
	in     inputFlags
	check  bool // --check-reconstruct
	ff     faultFlags
	width  int
	frames bool
	output bool
	json   bool
	finish bool
	live   bool
	engine engineFlags
}

// replayFlagSet registers replay's flags into f.
func (c *cli) replayFlagSet(f *replayFlags) *flag.FlagSet {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	fs.IntVar(&f.width, "width", render.DefaultWidth, "rendering width in cells")
	fs.BoolVar(&f.frames, "frames", false, "print the render after every event, under a line naming its seq and kind")
	fs.BoolVar(&f.output, "output", false, "show output snippets under tools")
	fs.BoolVar(&f.json, "json", false, "print the timeline JSON instead of the render (one line per event with --frames)")
	f.in.register(fs)
	fs.BoolVar(&f.in.all, "all", false, allUsage)
	fs.BoolVar(&f.check, "check-reconstruct", false, "persist the trace (with --faults), rebuild it, and compare with the live run: oracle (a)")
	f.ff.register(fs)
	f.engine.register(fs, false)
	fs.BoolVar(&f.finish, "finish", false, "apply the end-of-stream rule: interrupt tools still live, report results that never met their start")
	fs.BoolVar(&f.live, "live", false, "render the end as a live view would at the last event (tools still running show ▶ and their elapsed time), not as an input that ended (⋯ unfinished)")
	for _, name := range []string{"faults", "seed", "fine"} {
		fs.Lookup(name).Usage = "with --check-reconstruct: " + fs.Lookup(name).Usage
	}
	fs.Lookup("self-check").Usage = "no effect here: replay runs no oracle (check and fuzz take it)"
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: toolsim replay [--width N] [--frames] [--output] [--json] [--finish] [--live] [--from F] [--strict] [--engine CMD] FILE\n       toolsim replay --check-reconstruct [--faults LIST] [--seed N] [--fine] FILE\n\nReplays a trace in any supported format (- reads stdin) through the reference engine (or\n--engine) and prints the final render. Diagnostics go to stderr as 'seq N: code id=X'.\nAn event of an unknown kind is kept with a warning on stderr (an error with --strict).\nExit status: 0 success, 1 invalid trace, 2 usage error or a file that cannot be\nopened.\n\nFlags:")
		printFlags(fs)
	}
	return fs
}

func (c *cli) replay(args []string) int {
	f := replayFlags{name: "replay"}
	fs := c.replayFlagSet(&f)
	if err := c.parseFlags(fs, args); err != nil {
		return helpOrUsage(err)
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(c.stderr, "toolsim %s: want exactly one FILE (or - for stdin)\n", f.name)
		fs.Usage()
		return exitUsage
	}
	return c.runReplay(f, fs.Arg(0))
}

// runReplay replays the trace name with the flags f: replay's work once
// its flags are parsed (play and watch print with it).
func (c *cli) runReplay(f replayFlags, name string) int {
	if f.width < minWidth {
		fmt.Fprintf(c.stderr, "toolsim %s: --width must be at least %d, got %d\n", f.name, minWidth, f.width)
		return exitUsage
	}
	if f.check {
		_, evs, err := c.readEvents(name, f.in)
		if err != nil {
			fmt.Fprintf(c.stderr, "toolsim %s: %v\n", f.name, err)
			return inputStatus(err)
		}
		return c.checkReconstruct(evs, f.ff)
	}
	cleanup, code := f.engine.setup(c, f.name)
	if cleanup == nil {
		return code
	}
	defer cleanup()
	src, err := c.openTrace(name, f.in)
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim %s: %v\n", f.name, err)
		return inputStatus(err)
	}
	defer src.close()
	c.reportProblems(src.display, src.Problems)
	return c.replayStream(src.Source, f)
}

func closeIfCloser(eng harness.Engine) {
	if c, ok := eng.(io.Closer); ok {
		c.Close()
	}
}

// helpOrUsage maps a flag parse error to an exit status.
func helpOrUsage(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	return exitUsage
}

// replayStream feeds a trace to the engine, printing frames as asked
// (package replay).
func (c *cli) replayStream(r *formats.Source, f replayFlags) int {
	eng := c.engine()()
	defer closeIfCloser(eng)
	opts := replay.Options{Width: f.width, Output: f.output, Frames: f.frames, JSON: f.json, Finish: f.finish, Live: f.live,
		SyntheticClock: r.Header.SyntheticClock()}
	if err := replay.Run(c.stdout, c.stderr, r, eng, opts); err != nil {
		fmt.Fprintf(c.stderr, "toolsim %s: %v\n", f.name, err)
		return exitFail
	}
	return exitOK
}
