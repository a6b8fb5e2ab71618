package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/internal/race"
)

// zeros is an endless input with no newline, like /dev/zero.
type zeros struct{ read int }

func (z *zeros) Read(p []byte) (int, error) {
	clear(p)
	z.read += len(p)
	return len(p), nil
}

// TestEndlessInput: commands reading an endless line stop at the 64 MiB
// line limit with an error instead of reading forever.
func TestEndlessInput(t *testing.T) {
	if race.Enabled {
		t.Skip("single-goroutine and heavy: make test runs it in its second step, without -race")
	}
	tests := []struct {
		args []string
		err  string
	}{
		{[]string{"reconstruct", "-"}, "stdin line 1: longer than 67108864 bytes: not a persisted log, stopped reading"},
		{[]string{"replay", "--from", "toolsim", "-"}, "line longer than the 67108864-byte limit"},
		{[]string{"import", "--from", "claude-stream-json", "-"}, "a line that does not end"},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			in := &zeros{}
			var out, errOut bytes.Buffer
			c := &cli{stdin: in, stdout: &out, stderr: &errOut, open: osCLI().open}
			if code := c.run(tt.args); code != exitFail || !strings.Contains(errOut.String(), tt.err) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut.String(), exitFail, tt.err)
			}
			if in.read > 140<<20 {
				t.Errorf("read %d bytes", in.read)
			}
		})
	}
}
