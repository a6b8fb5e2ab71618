package sse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/toolsim/toolsim/importer"
)

// Event is one dispatched server-sent event: the fields of one block of
// lines ended by a blank line (or by the end of the input).
type Event struct {
	// Type is the value of the last "event:" field; empty when the block had
	// none (the SSE default type "message").
	Type string
	// Data holds the values of the "data:" fields joined with "\n".
	Data []byte
	// HasData is true when the block had at least one "data:" field (Data
	// may still be empty).
	HasData bool
	// ID is the value of the last "id:" field; HasID tells an empty id from
	// none.
	ID    string
	HasID bool
	// Retry is the value of the last "retry:" field, verbatim.
	Retry string
	// Line is the 1-based line of the block's first field, DataLine the line
	// of its first "data:" field (Line when it has none), EndLine the line
	// of its last field.
	Line, DataLine, EndLine int
	// Unknown lists fields SSE does not define, in order, with their lines.
	// The SSE standard ignores them; importers report them.
	Unknown []Field
	// Unterminated is true for a last block the input ended in before its
	// dispatching blank line (a stream cut off, or a file without a final
	// newline). It is dispatched anyway: nothing is dropped.
	Unterminated bool
}

// Field is one "name: value" line.
type Field struct {
	Line        int
	Name, Value string
}

// Done reports whether the event is OpenAI's end-of-stream sentinel,
// "data: [DONE]".
func (ev *Event) Done() bool { return string(ev.Data) == "[DONE]" }

// Stats counts what a parse saw besides events.
type Stats struct {
	Lines    int // lines read
	Events   int // events dispatched
	Comments int // comment lines (starting with ':'), e.g. keep-alives
}

// Parse reads an SSE stream from r and calls fn with each event, in order.
// The *Event and its Data are reused: they are valid only until fn returns.
//
// Framing follows the WHATWG "server-sent events" rules: lines end with
// LF, CR LF or a lone CR; a leading UTF-8 BOM is skipped; "name: value"
// loses one space after the colon; a line without a colon is a field with
// an empty value; a line starting with ':' is a comment; a blank line
// dispatches the block. Unlike a browser, Parse also dispatches blocks that
// have no data field (HasData tells them apart) and an unterminated last
// block, so that an importer can report them instead of losing them.
//
// Lines longer than importer.MaxLine are skipped and reported to tooLong
// (which may be nil); an error from fn or tooLong stops the parse and is
// returned.
func Parse(r io.Reader, fn func(*Event) error, tooLong func(line int) error) (Stats, error) {
	p := parser{fn: fn}
	size := 32 << 10
	if l, ok := r.(interface{ Len() int }); ok && l.Len() < size {
		size = l.Len() + 1 // an in-memory body (a cassette's): no 32 KiB buffer per body
	}
	br := bufio.NewReaderSize(r, size)
	var buf []byte
	for n := 1; ; n++ {
		line, err := readLine(br, &buf)
		if err == errTooLong {
			p.st.Lines = n
			if p.open { // the field is lost, the block stays open
				p.ev.Unknown = append(p.ev.Unknown, Field{Line: n, Name: "(line too long)"})
			}
			if tooLong != nil {
				if err := tooLong(n); err != nil {
					return p.st, err
				}
			}
			continue
		}
		if err == errEndless {
			return p.st, fmt.Errorf("line %d: %w", n, err)
		}
		if err == io.EOF && line == nil {
			break
		}
		if err != nil && err != io.EOF {
			return p.st, fmt.Errorf("read line %d: %w", n, err)
		}
		if ferr := p.line(n, line); ferr != nil {
			return p.st, ferr
		}
		if err == io.EOF {
			break
		}
	}
	return p.st, p.finish()
}

// ParseBytes is Parse on an in-memory stream, without copying lines.
func ParseBytes(b []byte, fn func(*Event) error) (Stats, error) {
	p := parser{fn: fn}
	for n := 1; len(b) > 0; n++ {
		line, rest, _ := bytes.Cut(b, []byte{'\n'})
		b = rest
		if err := p.line(n, bytes.TrimSuffix(line, []byte{'\r'})); err != nil {
			return p.st, err
		}
	}
	return p.st, p.finish()
}

// finish dispatches an unterminated last block.
func (p *parser) finish() error {
	if p.open {
		p.ev.Unterminated = true
		return p.dispatch()
	}
	return nil
}

var errTooLong = errors.New("line too long")

// errEndless is a line over the limit that went on for as long again while
// being skipped (such as /dev/zero): reading stops there.
var errEndless = errors.New("a line that does not end (over twice the line limit)")

// readLine reads one line without its LF (or CR LF), up to
// importer.MaxLine bytes; longer lines are skipped whole (errTooLong).
func readLine(br *bufio.Reader, buf *[]byte) ([]byte, error) {
	*buf = (*buf)[:0]
	for {
		chunk, err := br.ReadSlice('\n')
		if len(*buf)+len(chunk) > importer.MaxLine+2 {
			// Skip the rest of the line, but not forever: a line that goes
			// on for another limit's worth (/dev/zero) ends the read.
			for skipped := 0; err == bufio.ErrBufferFull; {
				if skipped > importer.MaxLine {
					return nil, errEndless
				}
				chunk, err = br.ReadSlice('\n')
				skipped += len(chunk)
			}
			return nil, errTooLong
		}
		if err == nil && len(*buf) == 0 { // the whole line is in the buffer
			return bytes.TrimSuffix(chunk[:len(chunk)-1], []byte{'\r'}), nil
		}
		*buf = append(*buf, chunk...)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err == io.EOF && len(*buf) == 0 {
			return nil, io.EOF
		}
		line := bytes.TrimSuffix(bytes.TrimSuffix(*buf, []byte{'\n'}), []byte{'\r'})
		return line, err
	}
}

type parser struct {
	fn   func(*Event) error
	ev   Event
	data []byte
	open bool
	st   Stats
}

var bom = []byte("\xEF\xBB\xBF")

func (p *parser) line(n int, line []byte) error {
	p.st.Lines = n
	if n == 1 {
		line = bytes.TrimPrefix(line, bom)
	}
	// A lone CR also ends a line (EachLine splits on LF and strips a CR
	// before it). JSON payloads never hold a raw CR, so this is rare.
	for {
		i := bytes.IndexByte(line, '\r')
		if i < 0 {
			break
		}
		if err := p.field(n, line[:i]); err != nil {
			return err
		}
		line = line[i+1:]
	}
	return p.field(n, line)
}

// field reads one line of an event: a field, a comment, or the blank
// line that dispatches the event.
func (p *parser) field(n int, line []byte) error {
	if len(line) == 0 {
		if p.open {
			return p.dispatch()
		}
		return nil
	}
	if line[0] == ':' {
		p.st.Comments++
		return nil
	}
	name, value := line, []byte(nil)
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	if !p.open {
		p.open = true
		p.ev = Event{Line: n, Unknown: p.ev.Unknown[:0]}
		p.data = p.data[:0]
	}
	p.ev.EndLine = n
	p.set(n, name, value)
	return nil
}

// set applies one field to the event being read: data lines are joined by
// newlines, unknown fields are kept.
func (p *parser) set(n int, name, value []byte) {
	switch string(name) {
	case "data":
		if p.ev.HasData {
			p.data = append(p.data, '\n')
		} else {
			p.ev.HasData = true
			p.ev.DataLine = n
		}
		p.data = append(p.data, value...)
	case "event":
		p.ev.Type = string(value)
	case "id":
		// The standard ignores an id holding NUL; keep it visible instead.
		if bytes.IndexByte(value, 0) >= 0 {
			p.ev.Unknown = append(p.ev.Unknown, Field{Line: n, Name: "id", Value: string(value)})
			break
		}
		p.ev.ID, p.ev.HasID = string(value), true
	case "retry":
		p.ev.Retry = string(value)
	default:
		p.ev.Unknown = append(p.ev.Unknown, Field{Line: n, Name: string(name), Value: string(value)})
	}
}

// dispatch hands the event read so far to the callback.
func (p *parser) dispatch() error {
	p.open = false
	if !p.ev.HasData {
		p.ev.DataLine = p.ev.Line
	}
	p.ev.Data = p.data
	p.st.Events++
	return p.fn(&p.ev)
}

// String describes an event briefly, for messages.
func (ev *Event) String() string {
	t := ev.Type
	if t == "" {
		t = "(no event field)"
	}
	return fmt.Sprintf("event %s at line %d", t, ev.Line)
}
