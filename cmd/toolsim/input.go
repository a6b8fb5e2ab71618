package main

import (
	"errors"
	"fmt"

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
// problemLines). Close the input when done.
func (c *cli) openTrace(name string, in inputFlags) (*input, error) {
	f, display, err := c.openInput(name)
	if err != nil {
		return nil, err
	}
	src, err := formats.Open(f, in.from, importer.Options{Name: display, Strict: in.strict, All: in.all})
	if err != nil {
		f.Close()
		return nil, err
	}
	return &input{Source: src, display: display, close: f.Close}, nil
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

// readWhole reads the rest of a trace as `import` writes it: a canonical
// trace's bad line fails it as an importer's error does, a trace without
// events is a *formats.NoEventsError, and a canonical trace without a
// header gets the current version's.
func (in *input) readWhole() (*importer.Result, error) {
	evs, err := in.ReadAll()
	switch {
	case errors.Is(err, formats.ErrNoEvents):
		return nil, err
	case err != nil:
		return nil, &formats.ImportError{Name: in.display, Format: in.Format, Err: err}
	case len(evs) == 0:
		return nil, &formats.NoEventsError{Name: in.display, Format: in.Format}
	}
	return &importer.Result{Header: headerOr(in.Header), Events: evs, Problems: in.Problems}, nil
}

// headerOr is h, or the current version's header for a canonical trace
// without one.
func headerOr(h *event.Header) event.Header {
	if h == nil {
		return event.Header{Trace: event.Version}
	}
	return *h
}

// problemLines words an import's problems as the commands print them: one
// line each, then their count.
func problemLines(name string, problems []importer.Problem) []string {
	var lines []string
	for _, p := range problems {
		lines = append(lines, fmt.Sprintf("%s:%s", name, p))
	}
	if len(problems) > 0 {
		lines = append(lines, fmt.Sprintf("%s: %d problems (lines skipped or partly mapped)", name, len(problems)))
	}
	return lines
}

// reportProblems prints an import's problems to stderr.
func (c *cli) reportProblems(name string, problems []importer.Problem) {
	for _, line := range problemLines(name, problems) {
		fmt.Fprintln(c.stderr, line)
	}
}
