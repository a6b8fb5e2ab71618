// Package lines reads newline-terminated lines with a length limit: the
// one line reader of the trace decoder, the importers and the log
// reconstruction. Lines longer than a bufio buffer are gathered across
// reads; a line over the limit is reported as soon as the limit is passed
// and skipped (by the next call) without being held in memory, so that a
// caller that gives up on it reads no further (an endless line, such as
// /dev/zero, cannot hold it).
// It uses only the standard library.
package lines

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// ErrTooLong reports a line over the limit. The next call skips the rest
// of it.
var ErrTooLong = errors.New("line too long")

// ErrEndless reports a line over the limit that went on for as long again
// while being skipped (such as /dev/zero): reading stops there.
var ErrEndless = errors.New("a line that does not end")

// Reader reads lines.
type Reader struct {
	br   *bufio.Reader
	max  int
	buf  []byte
	skip bool // the rest of a line over the limit is still to be skipped

	mem   []byte // the input not yet read, for a reader over bytes
	inMem bool
}

// NewBytesReader reads the lines of b in place, with no buffer of its own:
// the lines Next returns are slices of b. Limits and results are those of
// [NewReader], except that a line over the limit is skipped whole at once
// (it is already in memory), so ErrEndless never comes.
func NewBytesReader(b []byte, max int) *Reader {
	return &Reader{max: max, mem: b, inMem: true}
}

// nextInMem is Next for a reader over bytes.
func (r *Reader) nextInMem() (line []byte, complete bool, err error) {
	if len(r.mem) == 0 {
		return nil, false, io.EOF
	}
	i := bytes.IndexByte(r.mem, '\n')
	end := i + 1
	if i < 0 {
		end = len(r.mem)
	}
	line, r.mem = r.mem[:end], r.mem[end:]
	if len(line) > r.max+2 {
		return nil, true, ErrTooLong // the rest of it is already behind
	}
	complete = i >= 0
	line = bytes.TrimSuffix(line, []byte{'\n'})
	return bytes.TrimSuffix(line, []byte{'\r'}), complete, nil
}

// NewReader reads r through a buffer of size bytes, accepting lines of at
// most max bytes (line ending excluded).
func NewReader(r io.Reader, size, max int) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, size), max: max}
}

// Next returns the next line without its line ending (LF or CR LF), and
// whether it ended with a newline (the last line of a file may not; a torn
// write never does). The slice is valid until the next call. Next returns
// io.EOF after the last line, ErrTooLong for a line over the limit (once
// the limit is passed: the rest of it is skipped by the next call), and
// read errors as they are.
func (r *Reader) Next() (line []byte, complete bool, err error) {
	if r.inMem {
		return r.nextInMem()
	}
	if r.skip {
		r.skip = false
		if err := r.skipLine(); err != nil {
			return nil, false, err
		}
	}
	r.buf = r.buf[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		if len(r.buf)+len(chunk) > r.max+2 {
			r.skip = errors.Is(err, bufio.ErrBufferFull)
			return nil, true, ErrTooLong
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			r.buf = append(r.buf, chunk...)
			continue
		}
		line := chunk // the usual case: the whole line sits in the buffer
		if len(r.buf) > 0 {
			r.buf = append(r.buf, chunk...)
			line = r.buf
		}
		if errors.Is(err, io.EOF) && len(line) == 0 {
			return nil, false, io.EOF
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, false, err
		}
		complete = bytes.HasSuffix(line, []byte{'\n'})
		line = bytes.TrimSuffix(line, []byte{'\n'})
		return bytes.TrimSuffix(line, []byte{'\r'}), complete, nil
	}
}

// skipLine reads up to the end of the current line, or returns
// ErrEndless after another limit's worth of bytes.
func (r *Reader) skipLine() error {
	for skipped := 0; ; {
		chunk, err := r.br.ReadSlice('\n')
		if skipped += len(chunk); skipped > r.max && errors.Is(err, bufio.ErrBufferFull) {
			return ErrEndless
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			if errors.Is(err, io.EOF) {
				return io.EOF
			}
			return err
		}
	}
}

// ReadLine reads the next line of br with its line ending, appended to buf,
// as [bufio.Reader.ReadBytes] does, for a caller that keeps a line's bytes
// as they came. A line over max bytes (line ending excluded, as for Next)
// returns what was read of it and ErrTooLong once the limit is passed,
// without reading the rest of it. At the end of the input it returns the
// last bytes (a line without a newline) and io.EOF.
func ReadLine(br *bufio.Reader, max int, buf []byte) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > max+2 {
			return buf, ErrTooLong
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return buf, err
		}
	}
}
