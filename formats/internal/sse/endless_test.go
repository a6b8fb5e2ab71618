package sse_test

import (
	"strings"
	"testing"

	"github.com/toolsim/toolsim/formats/internal/sse"
)

// endless is an input that never ends and never has a newline (/dev/zero).
type endless struct{ read int }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	e.read += len(p)
	return len(p), nil
}

// TestEndlessLineStops: a line that never ends stops the parse with an
// error after about twice the line limit, instead of reading forever.
func TestEndlessLineStops(t *testing.T) {
	in := &endless{}
	_, err := sse.Parse(in, func(*sse.Event) error { return nil }, nil)
	if err == nil || !strings.Contains(err.Error(), "does not end") {
		t.Fatalf("err = %v, want a line that does not end", err)
	}
	if in.read > 3*(64<<20) {
		t.Errorf("read %d bytes before stopping", in.read)
	}
}
