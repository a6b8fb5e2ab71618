package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/tui"
)

// playFlags are the flags of play and watch.
type playFlags struct {
	in     inputFlags
	width  int
	output bool
	plain  bool
}

// register adds the flags; withAlias also accepts --format for --from
// (watch's former name for it).
func (f *playFlags) register(fs *flag.FlagSet, withAlias bool) {
	fs.StringVar(&f.in.from, "from", "", "source format (default: detect from content)")
	if withAlias {
		fs.StringVar(&f.in.from, "format", "", "the same as --from")
	}
	fs.BoolVar(&f.output, "output", false, "show output snippets under tools")
	fs.IntVar(&f.width, "width", render.DefaultWidth, "rendering width of the plain output (not on a terminal, or --plain)")
	fs.BoolVar(&f.plain, "plain", false, "print plain text as when stdout is not a terminal, instead of the player")
	fs.BoolVar(&f.in.strict, "strict", false, strictUsage)
}

// replayFlags are replay's flags, at their defaults, with what play and
// watch were given: replay prints what they print when stdout is not a
// terminal.
func (c *cli) replayFlags(name string, f playFlags) replayFlags {
	rf := replayFlags{name: name}
	c.replayFlagSet(&rf) // sets replay's defaults
	rf.in, rf.width, rf.output = f.in, f.width, f.output
	return rf
}

func (c *cli) play(args []string) int {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	var f playFlags
	f.register(fs, false)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: toolsim play [--from F] [--strict] [--output] [--plain] FILE\n\nSteps through a trace in any supported format (- reads stdin): the timeline as it\nlooked after the current event, the trace with that event highlighted, and what\nwent wrong at that step. Press ? in the player for its keys. When stdout is not\na terminal (or with --plain) it prints the final render exactly as `toolsim replay`\ndoes. Exit status: 0 success, 1 the trace could not be read, 2 usage error or a\nfile that cannot be opened.\n\nFlags:")
		printFlags(fs)
	}
	if err := c.parseFlags(fs, args); err != nil {
		return helpOrUsage(err)
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(c.stderr, "toolsim play: want exactly one FILE (or - for stdin)")
		fs.Usage()
		return exitUsage
	}
	if f.plain || !isTerminal(c.stdout) {
		return c.runReplay(c.replayFlags("play", f), fs.Arg(0))
	}
	evs, problems, synthetic, err := c.loadTrace(fs.Arg(0), f.in)
	if err != nil && inputStatus(err) == exitUsage {
		fmt.Fprintf(c.stderr, "toolsim play: %v\n", err)
		return exitUsage // nothing to play: a path that cannot be opened
	}
	profile := tui.ColorProfile(c.stdout)
	m := tui.New(evs, tui.Options{Title: fs.Arg(0), Profile: profile, Output: f.output, Err: err, Problems: problems,
		Store: tui.StoreOptions{SyntheticClock: synthetic}})
	return c.runPlayer("play", m, profile, nil)
}

func (c *cli) watch(args []string) int {
	fs := flag.NewFlagSet("watch", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	var f playFlags
	f.register(fs, true)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: toolsim watch [--from F] [--strict] [--output] [--plain]\n\nReads events from stdin as they arrive — a canonical trace or any importable\nformat, e.g. `claude -p --output-format stream-json ... | toolsim watch` or\n`toolsim record -o DIR -- AGENT ... | toolsim watch` — and shows the live UI,\nwith the player's keys. When stdout is not a terminal (or with --plain) it prints\nthe render after every event, exactly as `toolsim replay --frames -` does.\nExit status: 0 success, 1 the input could not be read, 2 usage error.\n\nFlags:")
		printFlags(fs)
	}
	if err := c.parseFlags(fs, args); err != nil {
		return helpOrUsage(err)
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(c.stderr, "toolsim watch: takes no arguments; pipe the trace into stdin")
		return exitUsage
	}
	if f.plain || !isTerminal(c.stdout) {
		rf := c.replayFlags("watch", f)
		rf.frames = true
		return c.runReplay(rf, "-")
	}
	if isTerminal(c.stdin) {
		fmt.Fprintln(c.stderr, "toolsim watch: stdin is a terminal; pipe a trace or an agent's output into it")
		return exitUsage
	}
	profile := tui.ColorProfile(c.stdout)
	m := tui.New(nil, tui.Options{Title: "stdin", Profile: profile, Output: f.output, Live: true})
	start := time.Now()
	feed := &tui.Feed{From: f.in.from, Strict: f.in.strict, Clock: func() int64 { return time.Since(start).Milliseconds() }}
	return c.runPlayer("watch", m, profile, func(send func(tea.Msg)) { feed.Run(c.stdin, send) })
}

// runPlayer runs the player on the terminal until the user quits
// (tui.Model.Run).
func (c *cli) runPlayer(name string, m *tui.Model, profile colorprofile.Profile, feed func(func(tea.Msg))) int {
	if err := m.Run(c.stdout, profile, feed); err != nil {
		fmt.Fprintf(c.stderr, "toolsim %s: %v\n", name, err)
		return exitFail
	}
	return exitOK
}

// loadTrace reads a whole trace in any format for the player. Import
// problems and the reader's warnings are returned as lines, not printed:
// the player shows them. A
// trace that fails part-way gives the events before the failure and the
// error.
// synthetic reports whether its header says the clock is synthetic.
func (c *cli) loadTrace(name string, in inputFlags) (evs []event.Event, problems []string, synthetic bool, err error) {
	var warnings []string
	src, err := c.openTraceWarn(name, in, func(w error) { warnings = append(warnings, warningLine(w)) })
	if err != nil {
		return nil, nil, false, err
	}
	defer src.close()
	evs, err = src.ReadAll()
	return evs, append(importer.Lines(src.display, src.Problems), warnings...), src.Header.SyntheticClock(), err
}

// isTerminal reports whether f is a terminal (a character device).
func isTerminal(f any) bool {
	file, ok := f.(*os.File)
	if !ok {
		return false
	}
	st, err := file.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
