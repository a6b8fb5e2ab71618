// Package lines reads newline-terminated lines with a length limit: the
// one line reader of the trace decoder, the importers and the log
// reconstruction. Lines longer than a bufio buffer are gathered across
// reads; a line over the limit is skipped without being held in memory.
// It uses only the standard library.
package lines

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// ErrTooLong reports a line over the limit; it was skipped whole.
var ErrTooLong = errors.New("line too long")

// Reader reads lines.
type Reader struct {
	br  *bufio.Reader
	max int
	buf []byte
}

// NewReader reads r through a buffer of size bytes, accepting lines of at
// most max bytes (line ending excluded).
func NewReader(r io.Reader, size, max int) *Reader {
	return &Reader{br: bufio.NewReaderSize(r, size), max: max}
}

// Next returns the next line without its line ending (LF or CR LF), and
// whether it ended with a newline (the last line of a file may not; a torn
// write never does). The slice is valid until the next call. Next returns
// io.EOF after the last line, ErrTooLong for a skipped line, and read
// errors as they are.
func (r *Reader) Next() (line []byte, complete bool, err error) {
	r.buf = r.buf[:0]
	for {
		chunk, err := r.br.ReadSlice('\n')
		if len(r.buf)+len(chunk) > r.max+2 {
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.br.ReadSlice('\n')
			}
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
