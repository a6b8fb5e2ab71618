package capture

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"unicode"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/importer"
)

// Trace is a recording's canonical trace, imported from capture.raw.
type Trace struct {
	importer.Result
	// Format is the format capture.raw was read as (a formats name), or
	// "nothing" for a capture that holds only white space.
	Format string
	// Name is capture.raw's path: the name its import's Problems go by.
	Name string
	// Path is where Write writes the trace: trace.jsonl in the
	// recording's directory.
	Path string
	// Redacted counts what redaction replaced in capture.raw's lines and
	// in the trace, by kind; empty when nothing was or redaction is off.
	Redacted map[string]int
}

// Import imports capture.raw in Options.Format with the arrival stamps,
// and redacts the trace (unless Options.NoRedact) with the redactor of
// capture.raw's lines, catching secrets the raw text hid behind JSON
// escapes. A capture that maps to no events gives a trace with just a
// header.
func (r *Recording) Import() (*Trace, error) {
	raw := filepath.Join(r.opts.Dir, rawFile)
	res, name, err := importRaw(raw, r.Stamps, r.opts.Format)
	if err != nil {
		return nil, err
	}
	t := &Trace{Result: *res, Format: name, Name: raw, Path: filepath.Join(r.opts.Dir, traceFile)}
	if rd := r.redactor; rd != nil {
		rd.Header(&t.Header)
		for i := range t.Events {
			rd.Event(&t.Events[i])
		}
		t.Redacted = rd.Found
	}
	return t, nil
}

// Write writes the trace to Path.
func (t *Trace) Write() error {
	var buf bytes.Buffer
	if err := event.WriteAll(&buf, &t.Header, t.Events); err != nil {
		return err
	}
	return os.WriteFile(t.Path, buf.Bytes(), 0o644)
}

// importRaw imports capture.raw with its arrival stamps, and returns the
// format it was read as. An empty capture gives an empty trace with just
// a header.
func importRaw(raw string, stamps []int64, format string) (*importer.Result, string, error) {
	f, err := os.Open(raw)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	if empty, err := blank(f); err != nil || empty {
		return &importer.Result{Header: event.Header{Trace: event.Version, Source: "record"}}, "nothing", err
	}
	src, err := formats.Open(f, format, importer.Options{Name: raw, Stamps: stamps})
	if err != nil {
		return nil, "", err
	}
	evs, err := src.ReadAll()
	switch {
	case errors.Is(err, formats.ErrNoEvents), err == nil && len(evs) == 0:
		// A capture that maps to nothing is still written, with its header.
		return &importer.Result{Header: headerOr(src.Header), Problems: src.Problems}, src.Format, nil
	case err != nil:
		return nil, "", &formats.ImportError{Name: raw, Format: src.Format, Err: err}
	}
	return &importer.Result{Header: headerOr(src.Header), Events: evs, Problems: src.Problems}, src.Format, nil
}

// headerOr is h, or the current version's header for a canonical trace
// without one.
func headerOr(h *event.Header) event.Header {
	if h == nil {
		return event.Header{Trace: event.Version}
	}
	return *h
}

// blank reports whether a file holds only white space, and leaves it at
// its start.
func blank(f *os.File) (bool, error) {
	br := bufio.NewReader(f)
	for {
		r, _, err := br.ReadRune()
		if err == io.EOF {
			return true, nil
		}
		if err != nil {
			return false, err
		}
		if !unicode.IsSpace(r) {
			_, err := f.Seek(0, io.SeekStart)
			return false, err
		}
	}
}
