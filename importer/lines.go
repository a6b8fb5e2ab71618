package importer

import (
	"errors"
	"fmt"
	"io"

	"github.com/toolsim/toolsim/internal/lines"
)

// MaxLine is the longest source line importers accept (real transcripts
// carry whole files in one line).
const MaxLine = 64 << 20

// EachLine calls fn for every line of r (without its line ending), with its
// 1-based number, until fn returns an error. Blank lines are passed too.
// Lines longer than MaxLine are reported to tooLong and skipped.
func EachLine(r io.Reader, fn func(n int, line []byte) error, tooLong func(n int) error) error {
	lr := lines.NewReader(r, 16<<10, MaxLine) // longer lines are gathered across reads
	for n := 1; ; n++ {
		line, _, err := lr.Next()
		switch {
		case err == io.EOF:
			return nil
		case errors.Is(err, lines.ErrTooLong):
			err = tooLong(n)
		case err != nil:
			return fmt.Errorf("read line %d: %w", n, err)
		default:
			err = fn(n, line)
		}
		if err != nil {
			return err
		}
	}
}

// MaxDocument is the largest input a whole-document format (a JSON session
// file, a YAML cassette) is read to: such formats are parsed whole, so a
// larger input is refused instead of growing without bound.
const MaxDocument = 256 << 20

// ReadDocument reads a whole-document input, at most MaxDocument bytes.
func ReadDocument(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxDocument+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxDocument {
		return nil, fmt.Errorf("the input is larger than %d bytes, the most a whole-document format is read to", MaxDocument)
	}
	return data, nil
}
