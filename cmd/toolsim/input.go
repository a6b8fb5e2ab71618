package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/importer"
)

// inputFlags are the format flags shared by commands that read a trace.
type inputFlags struct {
	from   string
	strict bool
	all    bool // map side conversations too (importer.Options.All)
	redact bool // import --redact
}

// strictUsage is the help of --strict.
const strictUsage = "refuse questionable input (exit 1): stop at the first source line an importer cannot map, and at an event of an unknown kind in a canonical trace (by default a warning on stderr)"

// register adds --from and --strict, the input flags every command that
// reads a trace takes.
func (in *inputFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&in.from, "from", "", "source format (default: detect from content)")
	fs.BoolVar(&in.strict, "strict", false, strictUsage)
}

// allUsage is the help of --all.
const allUsage = "also map side conversations (e.g. a title request in a vcr cassette), marked, instead of counting them in meta.ignored"

// input is an opened trace: formats.Open's source and the name it goes by
// in messages ("stdin" for -).
type input struct {
	*formats.Source
	display string
	close   func() error
}

// openTrace opens a trace in any supported format with formats.Open (a
// canonical trace is streamed, other formats are imported whole). The
// importer's problems are the caller's to show (reportProblems,
// importer.Lines); the reader's warnings go to stderr (warn). Close the
// input when done.
func (c *cli) openTrace(name string, in inputFlags) (*input, error) {
	return c.openTraceWarn(name, in, c.warn)
}

// openTraceWarn is openTrace with the reader's warnings given to warn.
func (c *cli) openTraceWarn(name string, in inputFlags, warn func(error)) (*input, error) {
	f, display, err := c.openInput(name)
	if err != nil {
		return nil, err
	}
	src, err := formats.Open(f, in.from, importer.Options{Name: display, Strict: in.strict, All: in.all, Warn: warn})
	if err != nil {
		f.Close()
		return nil, err
	}
	return &input{Source: src, display: display, close: f.Close}, nil
}

// warn prints a reader's warning (an event of an unknown kind) to stderr,
// once per file, line and kind however often the trace is read (check
// replays it several times). The event is kept: the format's
// forward-compatibility rule (docs/trace-format.md).
func (c *cli) warn(w error) {
	msg := w.Error()
	if c.warned[msg] {
		return
	}
	if c.warned == nil {
		c.warned = map[string]bool{}
	}
	c.warned[msg] = true
	fmt.Fprintln(c.stderr, warningLine(w))
}

// warningLine words a reader's warning as the commands print it.
func warningLine(w error) string {
	return "warning: " + w.Error() + "; the event is kept, engines ignore it (--strict makes it an error)"
}

// inputStatus is the exit status of a command whose trace could not be
// used (docs/exit-status.md), the same on every command: 2 when the file
// could not be opened or read (a wrong path is a setup error, not a
// verdict on the trace), 1 when it was read and is bad input.
func inputStatus(err error) int {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return exitUsage
	}
	return exitFail
}

// readEvents reads a whole trace in any supported format, its problems
// printed to stderr. A canonical header alone is a valid, empty trace.
func (c *cli) readEvents(name string, in inputFlags) (*input, []event.Event, error) {
	src, err := c.openTrace(name, in)
	if err != nil {
		return nil, nil, err
	}
	defer src.close()
	c.reportProblems(src.display, src.Problems)
	evs, err := src.ReadAll()
	return src, evs, err
}

// reportProblems prints an import's problems to stderr.
func (c *cli) reportProblems(name string, problems []importer.Problem) {
	for _, line := range importer.Lines(name, problems) {
		fmt.Fprintln(c.stderr, line)
	}
}
