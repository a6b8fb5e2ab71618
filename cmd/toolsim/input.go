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
	evs []event.Event
	i   int
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
}

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
		return event.NewReader(br, event.ReaderOptions{Name: display}), f.Close, nil
	}
	res, err := im.Import(br, importer.Options{Name: display, Strict: in.strict})
	f.Close()
	if err != nil {
		return nil, nil, fmt.Errorf("import %s as %s: %w", display, im.Name(), err)
	}
	c.reportProblems(display, res.Problems)
	return &sliceSource{evs: res.Events}, func() error { return nil }, nil
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
