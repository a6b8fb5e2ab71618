package lines_test

import (
	"bufio"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/internal/lines"
)

// TestNext reads the same input through a buffered reader and in place:
// both give the same lines.
func TestNext(t *testing.T) {
	long := strings.Repeat("x", 50)
	input := "a\r\n\n" + strings.Repeat("y", 30) + "\n" + long + "\nlast"
	for _, tc := range []struct {
		name string
		r    *lines.Reader
	}{
		{"buffered", lines.NewReader(strings.NewReader(input), 16, 40)},
		{"in place", lines.NewBytesReader([]byte(input), 40)},
	} {
		t.Run(tc.name, func(t *testing.T) { testNext(t, tc.r) })
	}
}

func testNext(t *testing.T, r *lines.Reader) {
	var got []string
	for {
		line, complete, err := r.Next()
		if err == io.EOF {
			break
		}
		switch {
		case errors.Is(err, lines.ErrTooLong):
			got = append(got, "too long")
		case err != nil:
			t.Fatal(err)
		default:
			s := string(line)
			if !complete {
				s += " (no newline)"
			}
			got = append(got, s)
		}
	}
	want := []string{"a", "", strings.Repeat("y", 30), "too long", "last (no newline)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

// endless is an input with no newline ever, like /dev/zero.
type endless struct{ read int }

func (e *endless) Read(p []byte) (int, error) {
	clear(p)
	e.read += len(p)
	return len(p), nil
}

// TestEndlessLine: a line over the limit is reported once the limit is
// passed, without reading to its end (there is none).
func TestEndlessLine(t *testing.T) {
	in := &endless{}
	r := lines.NewReader(in, 16, 100)
	if _, _, err := r.Next(); !errors.Is(err, lines.ErrTooLong) {
		t.Fatalf("err = %v, want ErrTooLong", err)
	}
	if in.read > 200 {
		t.Errorf("read %d bytes of an endless line with a 100-byte limit", in.read)
	}
	// A caller that goes on (to skip the line) is stopped after another
	// limit's worth of it.
	if _, _, err := r.Next(); !errors.Is(err, lines.ErrEndless) {
		t.Fatalf("err = %v, want ErrEndless", err)
	}
	if in.read > 300 {
		t.Errorf("read %d bytes of an endless line with a 100-byte limit", in.read)
	}
}

// TestReadLine: lines come with their endings, as they were; a line over
// the limit stops once the limit is passed.
func TestReadLine(t *testing.T) {
	br := bufio.NewReaderSize(strings.NewReader("a\r\n\n"+strings.Repeat("y", 30)+"\n"+strings.Repeat("x", 60)+"\nlast"), 16)
	var got []string
	for {
		line, err := lines.ReadLine(br, 40, nil)
		switch {
		case errors.Is(err, lines.ErrTooLong):
			got = append(got, "too long after "+strconv.Itoa(len(line)))
			if _, err := br.ReadString('\n'); err != nil { // the caller skips the rest
				t.Fatal(err)
			}
			continue
		case err == io.EOF:
			got = append(got, string(line)+"|EOF")
		case err != nil:
			t.Fatal(err)
		default:
			got = append(got, string(line))
		}
		if err == io.EOF {
			break
		}
	}
	want := []string{"a\r\n", "\n", strings.Repeat("y", 30) + "\n", "too long after 48", "last|EOF"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}
