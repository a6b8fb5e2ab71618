package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/timeline"
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
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: toolsim replay [--width N] [--frames] [--output] [--json] [--finish] [--live] [--from F] [--strict] [--engine CMD] FILE\n\nReplays a trace in any supported format (- reads stdin) through the reference engine (or\n--engine) and prints the final render. Diagnostics go to stderr as 'seq N: code id=X'.\nAn event of an unknown kind is kept with a warning on stderr (an error with --strict).\nExit status: 0 success, 1 invalid trace, 2 usage error.\n\nFlags:")
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
			return exitFail
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
		return exitFail
	}
	defer src.close()
	c.reportProblems(src.display, src.Problems)
	return c.replayStream(src.Source, f)
}

// engineErr returns an external engine's failure, if any.
func engineErr(eng harness.Engine) error {
	if e, ok := eng.(interface{ Err() error }); ok {
		return e.Err()
	}
	return nil
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

// replayStream feeds a trace to the engine, printing frames as asked.
func (c *cli) replayStream(r *formats.Source, f replayFlags) int {
	eng := c.engine()()
	defer closeIfCloser(eng)
	opts := render.Options{Width: f.width, Output: f.output, SyntheticClock: r.Header.SyntheticClock()}
	inc := render.NewIncremental(opts)
	last := ""
	var ev event.Event
	for {
		err := r.Next(&ev)
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Fprintf(c.stderr, "toolsim %s: %v\n", f.name, err)
			return exitFail
		}
		eng.Apply(&ev)
		if err := engineErr(eng); err != nil {
			fmt.Fprintf(c.stderr, "toolsim %s: %v\n", f.name, err)
			return exitFail
		}
		if f.frames {
			last = c.frame(fmt.Sprintf("--- seq %d %s t=%d", ev.Seq, ev.Kind, ev.T), eng.Timeline(), inc, f.json)
		}
	}
	if f.finish {
		eng.Finish()
		if err := engineErr(eng); err != nil {
			fmt.Fprintf(c.stderr, "toolsim %s: %v\n", f.name, err)
			return exitFail
		}
	}
	c.replayEnd(eng, inc, opts, f, last)
	return exitOK
}

// replayEnd prints the final output, the diagnostics, and what is still
// open at the end of the trace.
// The final render (not the frames) shows tools still running as
// unfinished: the input is over.
func (c *cli) replayEnd(eng harness.Engine, inc *render.Incremental, opts render.Options, f replayFlags, last string) {
	tl := eng.Timeline()
	switch {
	case f.frames && f.finish && f.json:
		c.frame("", tl, inc, true)
	case f.frames && f.finish:
		if final := inc.Render(tl); final != last {
			c.frame("--- end of trace (--finish)", tl, inc, false)
		}
	case f.frames:
	default:
		opts.Ended = !f.live
		c.printTimelineEnd(tl, opts, f.json)
	}
	for i, d := range tl.Diagnostics {
		if i == maxListed {
			fmt.Fprintf(c.stderr, "… and %d more diagnostics (--json lists them all)\n", len(tl.Diagnostics)-maxListed)
			break
		}
		fmt.Fprintf(c.stderr, "seq %d: %s id=%s\n", d.Seq, d.Code, d.ID)
	}
	live := liveTools(tl)
	waiting := 0
	if w, ok := eng.(interface{ Waiting() int }); ok {
		waiting = w.Waiting()
	}
	if len(live) > 0 || waiting > 0 {
		fmt.Fprintf(c.stderr, "end of trace: %d tools still live %s, %d results waiting for their start (--finish resolves them)\n", len(live), capList(live, 10), waiting)
	}
}

// maxListed bounds the lines a list prints to a terminal.
const maxListed = 50

// liveTools lists the ids of the tools a timeline shows live.
func liveTools(tl *timeline.Timeline) []string {
	var ids []string
	for _, it := range tl.Items {
		it.EachTool(func(t *timeline.Tool) bool {
			if !t.Status.Terminal() {
				ids = append(ids, t.ID)
			}
			return true
		})
	}
	return ids
}

// capList writes at most n items of a list, then how many more there are.
func capList(items []string, n int) string {
	if len(items) <= n {
		return "[" + strings.Join(items, " ") + "]"
	}
	return fmt.Sprintf("[%s … and %d more]", strings.Join(items[:n], " "), len(items)-n)
}

// printTimelineEnd prints a final timeline: its render, or its JSON.
func (c *cli) printTimelineEnd(tl *timeline.Timeline, opts render.Options, asJSON bool) {
	if asJSON {
		out, _ := json.MarshalIndent(tl, "", "  ")
		fmt.Fprintf(c.stdout, "%s\n", out)
		return
	}
	io.WriteString(c.stdout, render.Render(tl, opts))
}

// frame prints one frame and returns its render (empty in JSON mode).
func (c *cli) frame(title string, tl *timeline.Timeline, inc *render.Incremental, asJSON bool) string {
	if asJSON {
		out, _ := json.Marshal(tl)
		fmt.Fprintf(c.stdout, "%s\n", out)
		return ""
	}
	text := inc.Render(tl)
	fmt.Fprintf(c.stdout, "%s\n%s\n", title, text)
	return text
}
