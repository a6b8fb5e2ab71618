package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/importer"
)

// source yields the events of an input, whatever its format.
type source interface {
	Next(ev *event.Event) error // io.EOF after the last event
}

// sliceSource yields imported events.
type sliceSource struct {
	evs    []event.Event
	i      int
	header *event.Header
}

// syntheticClock reports whether a source's header says its clock is
// synthetic (read it after the first event: a reader reads its header
// lazily).
func syntheticClock(src source) bool {
	switch s := src.(type) {
	case *sliceSource:
		return s.header.SyntheticClock()
	case *event.Reader:
		h, err := s.Header()
		return err == nil && h.SyntheticClock()
	}
	return false
}

// Next yields the next imported event, io.EOF after the last.
func (s *sliceSource) Next(ev *event.Event) error {
	if s.i >= len(s.evs) {
		return io.EOF
	}
	*ev = s.evs[s.i]
	s.i++
	return nil
}

// inputFlags are the format flags shared by commands that read a trace.
type inputFlags struct {
	from   string
	strict bool
	all    bool // map side conversations too (importer.Options.All)
	redact bool // import --redact
}

// allUsage is the help of --all.
const allUsage = "also map side conversations (e.g. a title request in a vcr cassette), marked, instead of counting them in meta.ignored"

// openSource opens a trace in any supported format. A canonical trace is
// streamed; other formats are imported whole, their problems printed to
// stderr. The returned close function releases the file.
func (c *cli) openSource(name string, in inputFlags) (source, func() error, error) {
	f, display, err := c.openInput(name)
	if err != nil {
		return nil, nil, err
	}
	br := bufio.NewReaderSize(f, formats.HeadSize)
	skipBOM(br)
	im, err := pickImporter(br, in.from)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("%s: %w", display, err)
	}
	if im.Name() == formats.Canonical {
		r := event.NewReader(br, event.ReaderOptions{Name: display})
		return &nonEmpty{Reader: r, name: display, format: im.Name()}, f.Close, nil
	}
	res, err := im.Import(br, importer.Options{Name: display, Strict: in.strict, All: in.all})
	f.Close()
	if err != nil {
		return nil, nil, fmt.Errorf("import %s as %s: %w", display, im.Name(), err)
	}
	c.reportProblems(display, res.Problems)
	if len(res.Events) == 0 {
		return nil, nil, noEvents(display, im.Name(), nil)
	}
	return &sliceSource{evs: res.Events, header: &res.Header}, func() error { return nil }, nil
}

// errNoEvents is wrapped by the error of a trace that imports to nothing:
// every command that reads a trace refuses it the same way (exit 1).
var errNoEvents = errors.New("no events")

// noEvents is the error for a trace of format that holds no events; why
// (if any) says more.
func noEvents(name, format string, why error) error {
	return &noEventsError{name: name, format: format, why: why}
}

// noEventsError is a trace that holds no events; errors.Is(err,
// errNoEvents) is true.
type noEventsError struct {
	name, format string
	why          error
}

func (e *noEventsError) Error() string {
	if e.why != nil {
		return fmt.Sprintf("%s: %v: nothing to replay or check", e.name, e.why)
	}
	return fmt.Sprintf("%s: no events: read as %s, it holds nothing to replay or check (every record was skipped or ignored)", e.name, e.format)
}

// Is makes errors.Is(err, errNoEvents) true.
func (e *noEventsError) Is(target error) bool { return target == errNoEvents }

// nonEmpty streams a canonical trace and turns an input with nothing in
// it (no header, no event) into the no-events error. A header alone is a
// valid, empty trace (docs/trace-format.md): a failure shrunk to no events
// must still be checkable.
type nonEmpty struct {
	*event.Reader
	name, format string
	n            int
}

// Next yields the next event; at the end of a trace with none, the
// no-events error instead of io.EOF.
func (s *nonEmpty) Next(ev *event.Event) error {
	err := s.Reader.Next(ev)
	switch {
	case s.n == 0 && errors.Is(err, event.ErrEmpty):
		return noEvents(s.name, s.format, event.ErrEmpty)
	}
	if err == nil {
		s.n++
	}
	return err
}

// skipBOM drops a UTF-8 byte order mark at the start of an input, which
// some editors write: no format has one, and detection must not see it.
func skipBOM(br *bufio.Reader) {
	if head, _ := br.Peek(3); string(head) == "\xef\xbb\xbf" {
		br.Discard(3)
	}
}

// pickImporter returns the named importer, or detects one from the head.
func pickImporter(br *bufio.Reader, from string) (importer.Importer, error) {
	if bom, _ := br.Peek(len(formats.BOM)); bytes.Equal(bom, formats.BOM) {
		br.Discard(len(formats.BOM)) // every importer reads what follows it
	}
	if from != "" {
		return formats.ByName(from)
	}
	head, err := br.Peek(formats.HeadSize)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, err
	}
	if len(bytes.TrimSpace(head)) == 0 {
		// Nothing to detect: the canonical reader reports the empty trace.
		return formats.ByName(formats.Canonical)
	}
	return formats.Detect(head)
}

func (c *cli) reportProblems(name string, problems []importer.Problem) {
	for _, p := range problems {
		fmt.Fprintf(c.stderr, "%s:%s\n", name, p)
	}
	if len(problems) > 0 {
		fmt.Fprintf(c.stderr, "%s: %d problems (lines skipped or partly mapped)\n", name, len(problems))
	}
}
