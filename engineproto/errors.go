package engineproto

import (
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

// tail keeps the last n lines written to it.
type tail struct {
	mu      sync.Mutex
	n       int
	lines   []string
	partial string
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.partial + string(p)
	parts := strings.Split(s, "\n")
	t.partial = parts[len(parts)-1]
	for _, l := range parts[:len(parts)-1] {
		t.lines = append(t.lines, l)
		if len(t.lines) > t.n {
			t.lines = t.lines[len(t.lines)-t.n:]
		}
	}
	return len(p), nil
}

func (t *tail) snapshot() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := append([]string(nil), t.lines...)
	if t.partial != "" {
		out = append(out, t.partial)
	}
	if len(out) > t.n {
		out = out[len(out)-t.n:]
	}
	return out
}
