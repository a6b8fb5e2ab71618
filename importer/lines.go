package importer

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
)

// MaxLine is the longest source line importers accept (real transcripts
// carry whole files in one line).
const MaxLine = 64 << 20

// EachLine calls fn for every line of r (without its line ending), with its
// 1-based number, until fn returns an error. Blank lines are passed too.
// Lines longer than MaxLine are reported to tooLong and skipped.
func EachLine(r io.Reader, fn func(n int, line []byte) error, tooLong func(n int) error) error {
	br := bufio.NewReaderSize(r, 16<<10) // longer lines are gathered across reads
	var buf []byte
	for n := 1; ; n++ {
		line, err := readLine(br, &buf)
		if err == errTooLong {
			if err := tooLong(n); err != nil {
				return err
			}
			continue
		}
		if err == io.EOF && line == nil {
			return nil
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("read line %d: %w", n, err)
		}
		if ferr := fn(n, line); ferr != nil {
			return ferr
		}
		if err == io.EOF {
			return nil
		}
	}
}

var errTooLong = fmt.Errorf("line longer than %d bytes", MaxLine)

func readLine(br *bufio.Reader, buf *[]byte) ([]byte, error) {
	*buf = (*buf)[:0]
	for {
		chunk, err := br.ReadSlice('\n')
		if len(*buf)+len(chunk) > MaxLine+2 {
			for err == bufio.ErrBufferFull {
				_, err = br.ReadSlice('\n')
			}
			return nil, errTooLong
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
