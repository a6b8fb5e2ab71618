package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

// TestRecordLineLimit: record with an agent that writes a line over the
// limit passes it through, writes the capture and the trace without it,
// names the line, and exits 1 (the capture is incomplete).
func TestRecordLineLimit(t *testing.T) {
	dir := t.TempDir()
	agent := filepath.Join(dir, "agent.sh")
	script := `echo '{"seq":1,"t":0,"kind":"turn_start","role":"assistant"}'
head -c 70000000 /dev/zero
echo
echo '{"seq":2,"t":1,"kind":"turn_end"}'
`
	if err := os.WriteFile(agent, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut := &tailWriter{}, &bytes.Buffer{}
	c := &cli{stdin: strings.NewReader(""), stdout: out, stderr: errOut, open: osCLI().open}
	code := c.run([]string{"record", "--synthetic-clock", "--from", "toolsim", "-o", filepath.Join(dir, "out"), "--", "sh", agent})
	if code != exitFail || !strings.Contains(errOut.String(), "line 2 of the agent's output is longer than the 67108864-byte line limit") {
		t.Errorf("exit %d, stderr %q; want %d naming line 2", code, errOut.String(), exitFail)
	}
	if out.n < 70000000 {
		t.Errorf("passed through %d bytes, want the whole long line", out.n)
	}
	trace, err := os.ReadFile(filepath.Join(dir, "out", "trace.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(trace), `"kind":`); n != 2 {
		t.Errorf("trace has %d events, want the 2 around the long line:\n%s", n, trace)
	}
}
