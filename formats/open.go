package formats

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/importer"
)

// Source is an opened trace in any supported format: its header, its
// events one at a time, and what its importer could not map. Open makes
// one; every command that reads a trace reads it through a Source.
//
// A canonical trace is streamed: Next decodes it line by line, so a
// command can act on an event before the next one has arrived (detection
// first reads HeadSize bytes or the whole input; a named format reads
// none ahead). Every other
// format is imported whole by Open (an importer may only know what a line
// means once later lines came).
type Source struct {
	// Format is the name of the format the input was read as (Names).
	Format string
	// Header is the trace's header: the importer's, or a canonical trace's
	// first line; nil for a canonical trace without one.
	Header *event.Header
	// Problems are the lines the importer skipped or could only partly
	// map, in line order; none for a canonical trace, whose bad lines are
	// errors of Next.
	Problems []importer.Problem

	name    string
	rd      *event.Reader // a canonical trace
	pending error         // a canonical trace's header error, returned by the first Next
	evs     []event.Event // an imported trace
	n       int           // events yielded
}

// ErrNoEvents is wrapped by the error of a trace that holds no events: no
// line at all, or only records its importer skipped or ignored.
var ErrNoEvents = errors.New("no events")

// NoEventsError is a trace that holds no events; errors.Is(err,
// ErrNoEvents) is true for it.
type NoEventsError struct {
	Name   string // the input's name
	Format string // the format it was read as
	Err    error  // why, when known (event.ErrEmpty for an empty input)
}

func (e *NoEventsError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %v: nothing to replay or check", e.Name, e.Err)
	}
	return fmt.Sprintf("%s: no events: read as %s, it holds nothing to replay or check (every record was skipped or ignored)", e.Name, e.Format)
}

// Is makes errors.Is(err, ErrNoEvents) true.
func (e *NoEventsError) Is(target error) bool { return target == ErrNoEvents }

// Unwrap returns why the trace holds no events.
func (e *NoEventsError) Unwrap() error { return e.Err }

// ImportError is an importer's failure on an input (a strict import's
// first problem, a document that does not parse, a read error).
type ImportError struct {
	Name   string // the input's name
	Format string // the importer's format
	Err    error
}

func (e *ImportError) Error() string {
	return fmt.Sprintf("import %s as %s: %v", e.Name, e.Format, e.Err)
}

// Unwrap returns the importer's error.
func (e *ImportError) Unwrap() error { return e.Err }

// Open reads a trace from r in the format named from (one of Names), or,
// when from is "", in the format Pick detects from its first HeadSize
// bytes. A leading UTF-8 byte order mark is dropped. opts.Name names the
// input in errors and problems; opts.Strict, opts.All and opts.Stamps are
// passed to the importer. For a canonical trace, opts.Strict makes an
// event of an unknown kind an error of Next, and opts.Warn is told of the
// first event of each unknown kind otherwise.
//
// Open fails when the format cannot be told (the error names the input)
// or the importer fails (an *ImportError). A trace with no events is not
// an error of Open: Next returns a *NoEventsError instead of the first
// event, after Problems say what was skipped.
func Open(r io.Reader, from string, opts importer.Options) (*Source, error) {
	br := bufio.NewReaderSize(r, HeadSize)
	if head, _ := br.Peek(len(BOM)); bytes.Equal(head, BOM) {
		br.Discard(len(BOM))
	}
	var head []byte
	if from == "" {
		var err error
		head, err = br.Peek(HeadSize)
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
			return nil, fmt.Errorf("%s: %w", opts.Name, err)
		}
	}
	im, err := Pick(head, from)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", opts.Name, err)
	}
	s := &Source{Format: im.Name(), name: opts.Name}
	if s.Format == Canonical {
		s.rd = event.NewReader(br, readerOptions(opts))
		s.Header, s.pending = s.rd.Header()
		return s, nil
	}
	res, err := im.Import(br, opts)
	if err != nil {
		return nil, &ImportError{Name: opts.Name, Format: s.Format, Err: err}
	}
	s.Header, s.evs, s.Problems = &res.Header, res.Events, res.Problems
	return s, nil
}

// readerOptions are the options of a canonical trace's reader: its name,
// and an unknown kind an error with opts.Strict, else a warning to
// opts.Warn.
func readerOptions(opts importer.Options) event.ReaderOptions {
	ro := event.ReaderOptions{Name: opts.Name, StrictKinds: opts.Strict}
	if opts.Warn != nil {
		ro.Warn = func(w *event.DecodeError) { opts.Warn(w) }
	}
	return ro
}

// Pick returns the importer for the format named from, or, when from is
// "", the one Detect finds in head. A head that is blank (after a byte
// order mark) is read as a canonical trace, whose reader then reports the
// empty input.
func Pick(head []byte, from string) (importer.Importer, error) {
	if from != "" {
		return ByName(from)
	}
	if len(bytes.TrimSpace(bytes.TrimPrefix(head, BOM))) == 0 {
		return canonical{}, nil
	}
	return Detect(head)
}

// Next decodes the next event into ev. It returns io.EOF after the last
// event, and a *NoEventsError when the trace holds none (a canonical
// header alone is a valid, empty trace: io.EOF). A canonical trace's bad
// line is an *event.DecodeError naming the input and the line.
func (s *Source) Next(ev *event.Event) error {
	if s.rd == nil {
		switch {
		case len(s.evs) == 0:
			return &NoEventsError{Name: s.name, Format: s.Format}
		case s.n == len(s.evs):
			return io.EOF
		}
		*ev = s.evs[s.n]
		s.n++
		return nil
	}
	if err := s.pending; err != nil {
		s.pending = nil
		return err
	}
	err := s.rd.Next(ev)
	switch {
	case err == nil:
		s.n++
	case s.n == 0 && errors.Is(err, event.ErrEmpty):
		return &NoEventsError{Name: s.name, Format: s.Format, Err: event.ErrEmpty}
	}
	return err
}

// ReadAll returns the events Next has not yet yielded, stopping at the
// first error (with the events before it).
func (s *Source) ReadAll() ([]event.Event, error) {
	if s.rd == nil && s.n == 0 && len(s.evs) > 0 {
		s.n = len(s.evs)
		return s.evs, nil
	}
	var evs []event.Event
	for {
		var ev event.Event
		err := s.Next(&ev)
		if err == io.EOF {
			return evs, nil
		}
		if err != nil {
			return evs, err
		}
		evs = append(evs, ev)
	}
}

// Result reads the rest of the trace as toolsim import writes it: a
// canonical trace's bad line fails it as an importer's error does (an
// *ImportError), a trace without events is a *NoEventsError, and a
// canonical trace without a header gets the current version's.
func (s *Source) Result() (*importer.Result, error) {
	evs, err := s.ReadAll()
	switch {
	case errors.Is(err, ErrNoEvents):
		return nil, err
	case err != nil:
		return nil, &ImportError{Name: s.name, Format: s.Format, Err: err}
	case len(evs) == 0:
		return nil, &NoEventsError{Name: s.name, Format: s.Format}
	}
	h := event.Header{Trace: event.Version}
	if s.Header != nil {
		h = *s.Header
	}
	return &importer.Result{Header: h, Events: evs, Problems: s.Problems}, nil
}

// Expand replaces each directory among paths by the *.jsonl traces in it,
// sorted; other paths (files, "-" for stdin) stay as they are, their
// errors left to whoever opens them. A directory without traces is an
// error naming it.
func Expand(paths []string) ([]string, error) {
	var out []string
	for _, a := range paths {
		st, err := os.Stat(a)
		if a == "-" || err != nil || !st.IsDir() {
			out = append(out, a)
			continue
		}
		matches, err := filepath.Glob(filepath.Join(a, "*.jsonl"))
		if err != nil {
			return nil, err
		}
		if len(matches) == 0 {
			return nil, fmt.Errorf("%s: no *.jsonl traces in this directory", a)
		}
		sort.Strings(matches)
		out = append(out, matches...)
	}
	return out, nil
}
