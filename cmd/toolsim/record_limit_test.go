package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

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

// TestPumpLineLimit: a line over the 64 MiB limit is passed through whole
// but kept as an empty line, and the lines around it as they came; the
// lines go to the capture's writer as they end, so the pump holds one line
// at a time.
func TestPumpLineLimit(t *testing.T) {
	long := 2*importer.MaxLine + 100
	in := io.MultiReader(strings.NewReader("first\n"), io.LimitReader(&zeros{}, int64(long)), strings.NewReader("\nlast\n"))
	out := &tailWriter{}
	c := &cli{stdout: out}
	var raw bytes.Buffer
	capt := c.pump(in, true, &capture{raw: &raw})
	if want := len("first\n") + long + len("\nlast\n"); out.n != want || !bytes.HasSuffix(out.tail, []byte("\x00\nlast\n")) {
		t.Errorf("passed through %d bytes ending %q, want %d ending in the long line and %q", out.n, out.tail, want, "last\n")
	}
	if got, want := raw.String(), "first\n\nlast\n"; got != want {
		t.Errorf("capture %q, want %q", got, want)
	}
	if held := cap(capt.line); held > 2*(importer.MaxLine+2+64<<10) {
		t.Errorf("the pump held %d bytes at once, want at most one line within the limit (and append's slack)", held)
	}
	if len(capt.stamps) != 3 || len(capt.tooLong) != 1 || capt.tooLong[0] != 2 {
		t.Errorf("stamps %v, lines over the limit %v; want 3 stamps and line 2", capt.stamps, capt.tooLong)
	}
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
