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
