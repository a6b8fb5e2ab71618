package event

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/toolsim/toolsim/internal/lines"
)

// DefaultMaxLine is the longest line a Reader accepts unless told otherwise:
// 64 MiB, since real traces carry whole file contents in one event.
const DefaultMaxLine = 64 << 20

// ReaderOptions configure a Reader. The zero value is ready to use.
type ReaderOptions struct {
	Name    string // file name used in errors
	MaxLine int    // longest accepted line in bytes; DefaultMaxLine if 0
	JSON    JSON   // JSON back end; StdJSON if nil

	// StrictKinds makes an event of a kind outside format v1 (not
	// Kind.Known) a *DecodeError wrapping ErrUnknownKind, returned by
	// Next for every such line. By default the event is kept whole, as
	// the format's forward-compatibility rule asks (docs/trace-format.md).
	StrictKinds bool
	// Warn, when set, is told of the first event of each unknown kind in
	// the trace (a *DecodeError wrapping ErrUnknownKind, naming the file,
	// the line and the kind); later events of that kind are not reported
	// again. Next still returns the event. Not called with StrictKinds.
	Warn func(*DecodeError)
}

// Reader reads a trace one event at a time. Blank lines are skipped; a line
// ending in CR LF is accepted. Decode errors are *DecodeError values and do
// not stop the reader: the next call to Next moves on to the next line, so a
// caller can list every bad line. I/O errors are returned as they are.
type Reader struct {
	lr   *lines.Reader
	opts ReaderOptions
	dec  decoder
	line int

	header      *Header
	pending     []byte // a line read by Header that is not a header
	sawContent  bool
	events      int
	lastSeq     int64
	lastT       int64
	headerTried bool
	warned      map[Kind]bool // unknown kinds already given to opts.Warn
}

// NewReader returns a Reader reading from r.
func NewReader(r io.Reader, opts ReaderOptions) *Reader {
	if opts.MaxLine <= 0 {
		opts.MaxLine = DefaultMaxLine
	}
	if opts.JSON == nil {
		opts.JSON = StdJSON{}
	}
	return &Reader{lr: lines.NewReader(r, 256<<10, opts.MaxLine), opts: opts, dec: decoder{js: opts.JSON}}
}

// Line returns the number of the line last read.
func (r *Reader) Line() int { return r.line }

// Header reads the header line if the trace starts with one. It returns a
// nil Header (and no error) for a trace without a header. It must be called
// before the first Next, or not at all (Next accepts a leading header too).
func (r *Reader) Header() (*Header, error) {
	if r.headerTried || r.sawContent {
		return r.header, nil
	}
	r.headerTried = true
	line, err := r.nextLine()
	if err == io.EOF {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	isHeader, err := r.dec.parseLine(line)
	if err != nil || !isHeader {
		// Not a header: Next decodes (and reports) it.
		r.pending = append(r.pending[:0], line...)
		r.line--
		return nil, nil
	}
	r.sawContent = true
	h := new(Header)
	if err := r.dec.decodeHeader(h); err != nil {
		return nil, r.fail(err)
	}
	r.header = h
	return h, nil
}

// Next decodes the next event into ev. It returns io.EOF after the last
// event, and a *DecodeError wrapping ErrEmpty if the trace held nothing.
// An event of an unknown kind is returned (ReaderOptions.Warn is told of
// it), or with ReaderOptions.StrictKinds is a *DecodeError wrapping
// ErrUnknownKind.
func (r *Reader) Next(ev *Event) error {
	for {
		line, err := r.nextLine()
		if err == io.EOF {
			if !r.sawContent {
				r.sawContent = true // report the empty trace once
				return r.fail(&DecodeError{Reason: ErrEmpty.Error(), Err: ErrEmpty})
			}
			return io.EOF
		}
		if err != nil {
			return err
		}
		first := !r.sawContent
		r.sawContent = true
		isHeader, err := r.dec.parseLine(line)
		if err != nil {
			return r.fail(err)
		}
		if isHeader {
			if !first {
				return r.fail(lineError("trace", "a header is only allowed on the first line"))
			}
			h := new(Header)
			if err := r.dec.decodeHeader(h); err != nil {
				return r.fail(err)
			}
			r.header = h
			continue
		}
		if err := r.dec.decodeEvent(ev); err != nil {
			return r.fail(err)
		}
		if err := r.checkOrder(ev); err != nil {
			return err
		}
		return r.checkKind(ev.Kind)
	}
}

// checkKind reports an event of an unknown kind: an error with
// StrictKinds, else a warning to opts.Warn the first time the kind is
// seen.
func (r *Reader) checkKind(k Kind) error {
	if k.Known() {
		return nil
	}
	if r.opts.StrictKinds {
		return r.fail(unknownKindError(k))
	}
	if r.opts.Warn == nil || r.warned[k] {
		return nil
	}
	if r.warned == nil {
		r.warned = map[Kind]bool{}
	}
	r.warned[k] = true
	w := unknownKindError(k)
	r.fail(w) // stamps the name and line
	r.opts.Warn(w)
	return nil
}

// checkOrder enforces seq strictly increasing and t non-decreasing.
func (r *Reader) checkOrder(ev *Event) error {
	if r.events > 0 {
		if ev.Seq <= r.lastSeq {
			return r.fail(lineError("seq", "must be strictly increasing (previous %d, got %d)", r.lastSeq, ev.Seq))
		}
		if ev.T < r.lastT {
			return r.fail(lineError("t", "must not decrease (previous %d, got %d)", r.lastT, ev.T))
		}
	}
	r.events++
	r.lastSeq, r.lastT = ev.Seq, ev.T
	return nil
}

// fail stamps a decode error with the file name and line number.
func (r *Reader) fail(err error) error {
	var de *DecodeError
	if errors.As(err, &de) {
		de.Name = r.opts.Name
		if de.Line == 0 && !errors.Is(err, ErrEmpty) {
			de.Line = r.line
		}
	}
	return err
}

// nextLine returns the next non-blank line without its line ending. The
// slice is valid until the next call.
func (r *Reader) nextLine() ([]byte, error) {
	if r.pending != nil {
		line := r.pending
		r.pending = nil
		r.line++
		return line, nil
	}
	for {
		line, err := r.readLine()
		if err != nil {
			return nil, err
		}
		r.line++
		if len(bytes.TrimSpace(line)) > 0 {
			return line, nil
		}
	}
}

// bom is the UTF-8 byte order mark some editors put at the start of a file.
var bom = []byte("\xef\xbb\xbf")

// readLine reads one physical line, enforcing the length limit. A byte
// order mark at the start of the file is skipped.
func (r *Reader) readLine() ([]byte, error) {
	line, _, err := r.lr.Next()
	if r.line == 0 {
		line = bytes.TrimPrefix(line, bom)
	}
	switch {
	case errors.Is(err, lines.ErrTooLong):
		r.line++
		return nil, r.fail(&DecodeError{
			Reason: fmt.Sprintf("line longer than the %d-byte limit", r.opts.MaxLine),
			Err:    ErrLineTooLong,
		})
	case err == io.EOF:
		return nil, io.EOF
	case err != nil:
		return nil, fmt.Errorf("read trace: %w", err)
	}
	return line, nil
}

// ReadAll reads a whole trace. It stops at the first error.
func ReadAll(rd io.Reader, opts ReaderOptions) (*Header, []Event, error) {
	r := NewReader(rd, opts)
	h, err := r.Header()
	if err != nil {
		return nil, nil, err
	}
	// Events are gathered in chunks and joined once: appending to one
	// slice would copy every event several times over as it grows.
	var chunks [][]Event
	n := 0
	for {
		var ev Event
		err := r.Next(&ev)
		if err == io.EOF {
			return r.header, joinChunks(chunks, n), nil
		}
		if err != nil {
			return h, joinChunks(chunks, n), err
		}
		if last := len(chunks) - 1; last < 0 || len(chunks[last]) == cap(chunks[last]) {
			chunks = append(chunks, make([]Event, 0, min(max(64, n), 4096)))
		}
		chunks[len(chunks)-1] = append(chunks[len(chunks)-1], ev)
		n++
	}
}

// joinChunks joins n events gathered in chunks into one slice (nil for
// none, a lone chunk as it is).
func joinChunks(chunks [][]Event, n int) []Event {
	switch len(chunks) {
	case 0:
		return nil
	case 1:
		return chunks[0]
	}
	evs := make([]Event, 0, n)
	for _, c := range chunks {
		evs = append(evs, c...)
	}
	return evs
}
