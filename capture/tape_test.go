package capture

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/toolsim/toolsim/importer"
)

// tailWriter counts the bytes written to it and keeps the last few.
type tailWriter struct {
	n    int
	tail []byte
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.n += len(p)
	w.tail = append(w.tail, p...)
	if len(w.tail) > 64 {
		w.tail = append(w.tail[:0], w.tail[len(w.tail)-64:]...)
	}
	return len(p), nil
}

// zeros is an endless input of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// fixedClock reads ms after a fixed instant, one per reading (the last
// repeats).
func fixedClock(ms ...int64) func() time.Time {
	base := time.Date(2026, 1, 20, 10, 0, 0, 0, time.UTC)
	i := 0
	return func() time.Time {
		t := base.Add(time.Duration(ms[min(i, len(ms)-1)]) * time.Millisecond)
		i++
		return t
	}
}

// TestPumpLineLimit: a line over the 64 MiB limit is passed through whole
// but kept as an empty line, and the lines around it as they came; the
// lines go to the capture's writer as they end, so the pump holds one line
// at a time.
func TestPumpLineLimit(t *testing.T) {
	long := 2*importer.MaxLine + 100
	in := io.MultiReader(strings.NewReader("first\n"), io.LimitReader(zeros{}, int64(long)), strings.NewReader("\nlast\n"))
	out := &tailWriter{}
	var raw bytes.Buffer
	tp := pump(in, out, time.Now, true, &tape{raw: &raw})
	if want := len("first\n") + long + len("\nlast\n"); out.n != want || !bytes.HasSuffix(out.tail, []byte("\x00\nlast\n")) {
		t.Errorf("passed through %d bytes ending %q, want %d ending in the long line and %q", out.n, out.tail, want, "last\n")
	}
	if got, want := raw.String(), "first\n\nlast\n"; got != want {
		t.Errorf("capture %q, want %q", got, want)
	}
	if held := cap(tp.line); held > 2*(importer.MaxLine+2+64<<10) {
		t.Errorf("the pump held %d bytes at once, want at most one line within the limit (and append's slack)", held)
	}
	if len(tp.stamps) != 3 || len(tp.tooLong) != 1 || tp.tooLong[0] != 2 {
		t.Errorf("stamps %v, lines over the limit %v; want 3 stamps and line 2", tp.stamps, tp.tooLong)
	}
}

// TestPumpStamps: lines are stamped by the clock (read at the start, then
// once a line), or 0, 1, 2… on the synthetic clock; a last line without
// a newline is kept too, and redaction applies line by line.
func TestPumpStamps(t *testing.T) {
	in := "a\nmail me at someone@example.com\nlast"
	for _, tc := range []struct {
		synthetic bool
		want      []int64
	}{{false, []int64{2, 504, 1016}}, {true, []int64{0, 1, 2}}} {
		var raw, out bytes.Buffer
		tp, _, err := newTape(t.TempDir(), true)
		if err != nil {
			t.Fatal(err)
		}
		tp.raw = &raw
		tp = pump(strings.NewReader(in), &out, fixedClock(0, 2, 504, 1016), tc.synthetic, tp)
		if diff := cmp.Diff(tc.want, tp.stamps); diff != "" {
			t.Errorf("synthetic %v: stamps (-want +got):\n%s", tc.synthetic, diff)
		}
		if out.String() != in {
			t.Errorf("passed through %q, want %q", out.String(), in)
		}
		if strings.Contains(raw.String(), "someone@example.com") || !strings.HasSuffix(raw.String(), "\nlast") {
			t.Errorf("capture %q: want the address redacted and the last line kept", raw.String())
		}
	}
}
