package capture

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/redact"
)

// tape is what a recording collects. The lines go to capture.raw as they
// arrive (redacted line by line unless redaction is off), so that the
// recording holds one line at a time, not the agent's whole output; the
// arrival stamps (8 bytes a line) stay in memory for the import.
type tape struct {
	raw     io.Writer        // capture.raw, buffered
	redact  *redact.Redactor // nil: keep the lines as they came
	stamps  []int64
	tooLong []int // numbers of the lines over the line limit, kept as empty lines
	err     error // the first failure to write capture.raw
	line    []byte
}

// newTape creates dir and capture.raw in it, and returns the tape to fill
// and what flushes and closes the file.
func newTape(dir string, redacted bool) (*tape, func() error, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, nil, err
	}
	file, err := os.Create(filepath.Join(dir, rawFile))
	if err != nil {
		return nil, nil, err
	}
	bw := bufio.NewWriterSize(file, 64<<10)
	t := &tape{raw: bw}
	if redacted {
		t.redact = redact.New()
	}
	return t, func() error { return errors.Join(bw.Flush(), file.Close()) }, nil
}

// keep writes one line (with its newline, if it had one) to capture.raw.
func (t *tape) keep(line []byte) {
	if t.redact != nil {
		line = []byte(t.redact.String(string(line)))
	}
	if _, err := t.raw.Write(line); err != nil && t.err == nil {
		t.err = err
	}
}

// pump copies the agent's output to w as it comes, and keeps each line,
// stamped on arrival by now (read once at the start, then once a line),
// or numbered from 0 when synthetic. A line over the line limit is passed
// through whole, but kept as an empty line (and its number noted) once it
// passes the limit, so that an endless line cannot fill the memory.
func pump(out io.Reader, w io.Writer, now func() time.Time, synthetic bool, t *tape) *tape {
	start := now()
	br := bufio.NewReaderSize(out, 64<<10)
	size, over := 0, false // the current line's bytes so far, over the limit
	for {
		chunk, err := br.ReadSlice('\n')
		w.Write(chunk)
		size += len(chunk)
		if !over && size > importer.MaxLine+2 {
			over = true
			t.line = t.line[:0]
			t.tooLong = append(t.tooLong, len(t.stamps)+1)
		}
		if !over {
			t.line = append(t.line, chunk...)
		}
		ended := bytes.HasSuffix(chunk, []byte{'\n'}) || err != nil && !errors.Is(err, bufio.ErrBufferFull) && size > 0
		if ended {
			t.end(over, now().Sub(start).Milliseconds(), synthetic)
			size, over = 0, false
		}
		if err != nil && !errors.Is(err, bufio.ErrBufferFull) {
			return t
		}
	}
}

// end keeps the line that just ended (an empty line when it was over the
// limit) with its stamp: ms, or its index when synthetic.
func (t *tape) end(over bool, ms int64, synthetic bool) {
	if over {
		t.line = append(t.line[:0], '\n')
	}
	t.keep(t.line)
	if synthetic {
		ms = int64(len(t.stamps))
	}
	t.stamps = append(t.stamps, ms)
	t.line = t.line[:0]
}
