package engineproto

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
)

// EngineError is a failure of an engine process or of its replies.
type EngineError struct {
	Engine  string   // the command line
	Message string   // the message being answered, e.g. "event id=7 (seq 6)"
	Reason  string   // what went wrong
	Setup   bool     // a setup problem (cannot start, another protocol): exit 2, not 1
	Exit    string   // the process's exit status, when it died
	Stderr  []string // the last lines of its standard error
}

func (e *EngineError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "engine %q", e.Engine)
	if e.Message != "" {
		fmt.Fprintf(&b, ", answering %s", e.Message)
	}
	fmt.Fprintf(&b, ": %s", e.Reason)
	if e.Exit != "" {
		fmt.Fprintf(&b, " (%s)", e.Exit)
	}
	if len(e.Stderr) > 0 {
		fmt.Fprintf(&b, "\nlast %d lines of its stderr:\n  %s", len(e.Stderr), strings.Join(e.Stderr, "\n  "))
	}
	return b.String()
}

// maxStderrLine is how much of one standard-error line is kept.
const maxStderrLine = 1000

// tail keeps the last n lines written to it, each cut to maxStderrLine
// bytes, so that a flood (even one endless line) holds bounded memory.
type tail struct {
	mu      sync.Mutex
	n       int
	lines   []string
	partial []byte
	cut     bool // the partial line was cut
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for rest := p; len(rest) > 0; {
		chunk, after, found := bytes.Cut(rest, []byte{'\n'})
		t.add(chunk)
		rest = after
		if !found {
			break
		}
		t.lines = append(t.lines, t.line())
		t.partial, t.cut = t.partial[:0], false
		if len(t.lines) > t.n {
			t.lines = t.lines[len(t.lines)-t.n:]
		}
	}
	return len(p), nil
}

// add appends to the partial line what fits.
func (t *tail) add(b []byte) {
	room := maxStderrLine - len(t.partial)
	if len(b) > room {
		b, t.cut = b[:max(room, 0)], true
	}
	t.partial = append(t.partial, b...)
}

func (t *tail) line() string {
	if t.cut {
		return string(t.partial) + "…"
	}
	return string(t.partial)
}

func (t *tail) snapshot() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.lines...)
	if len(t.partial) > 0 {
		out = append(out, t.line())
	}
	if len(out) > t.n {
		out = out[len(out)-t.n:]
	}
	return out
}
