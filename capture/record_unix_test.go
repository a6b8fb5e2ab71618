//go:build unix

package capture

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRecord: an agent's output is passed through, kept in capture.raw
// with its stamps in capture.stamps, and imported into trace.jsonl.
func TestRecord(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	script := `printf '%s\n' '{"seq":1,"t":0,"kind":"turn_start","role":"assistant"}' '{"seq":2,"t":1,"kind":"turn_end"}'; exit 3`
	var out bytes.Buffer
	rec, err := Record([]string{"sh", "-c", script}, Options{Dir: dir, Format: "toolsim", SyntheticClock: true, Stdout: &out})
	if err != nil {
		t.Fatal(err)
	}
	if rec.Status() != 3 || rec.Interrupted || len(rec.Stamps) != 2 {
		t.Errorf("status %d, interrupted %v, stamps %v; want 3, false, 2 stamps", rec.Status(), rec.Interrupted, rec.Stamps)
	}
	raw, _ := os.ReadFile(filepath.Join(dir, "capture.raw"))
	if !bytes.Equal(raw, out.Bytes()) || len(raw) == 0 {
		t.Errorf("capture.raw %q, passed through %q: want the same bytes", raw, out.Bytes())
	}
	stamps, _ := os.ReadFile(filepath.Join(dir, "capture.stamps"))
	if want := "{\"line\":1,\"t\":0}\n{\"line\":2,\"t\":1}\n"; string(stamps) != want {
		t.Errorf("capture.stamps %q, want %q", stamps, want)
	}
	tr, err := rec.Import()
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != "toolsim" || len(tr.Events) != 2 || tr.Path != filepath.Join(dir, "trace.jsonl") {
		t.Errorf("imported as %s, %d events, path %s", tr.Format, len(tr.Events), tr.Path)
	}
	if err := tr.Write(); err != nil {
		t.Fatal(err)
	}
	if trace, _ := os.ReadFile(tr.Path); strings.Count(string(trace), `"kind":`) != 2 {
		t.Errorf("trace.jsonl:\n%s", trace)
	}
}

// TestRecordEmpty: an agent that writes nothing gives a trace with just a
// header, imported as "nothing".
func TestRecordEmpty(t *testing.T) {
	rec, err := Record([]string{"true"}, Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	tr, err := rec.Import()
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != "nothing" || len(tr.Events) != 0 || tr.Header.Source != "record" || rec.Status() != 0 {
		t.Errorf("format %q, %d events, header %+v, status %d", tr.Format, len(tr.Events), tr.Header, rec.Status())
	}
}

// TestRecordStartFails: a command that cannot start is an error naming
// it, wrapping why.
func TestRecordStartFails(t *testing.T) {
	_, err := Record([]string{"toolsim-no-such-agent"}, Options{Dir: t.TempDir()})
	if err == nil || !strings.HasPrefix(err.Error(), "start toolsim-no-such-agent: ") || !errors.Is(err, exec.ErrNotFound) {
		t.Errorf("err = %v, want start …: wrapping exec.ErrNotFound", err)
	}
}

// TestSuperviseGrace: an agent that ignores the interrupt passed on is
// killed once the grace period is over, and said so.
func TestSuperviseGrace(t *testing.T) {
	a, err := startAgent([]string{"sh", "-c", `trap '' INT; echo ready; while :; do sleep 1; done`}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	a.grace = 50 * time.Millisecond
	buf := make([]byte, 6)
	if _, err := a.out.Read(buf); err != nil { // the trap is set
		t.Fatal(err)
	}
	sigs := make(chan os.Signal, 1)
	sigs <- syscall.SIGINT
	var notices []string
	if !a.supervise(sigs, func(m string) { notices = append(notices, m) }) {
		t.Error("supervise did not report the interrupt")
	}
	if len(notices) != 1 || !strings.HasPrefix(notices[0], "the agent did not stop within 50ms of the interrupt") {
		t.Errorf("notices %q", notices)
	}
	if got := exitStatus(a.waitErr); got != 128+int(syscall.SIGKILL) {
		t.Errorf("exit status %d, want %d (killed)", got, 128+int(syscall.SIGKILL))
	}
	a.signal(syscall.SIGKILL) // the sleeper
	a.out.Close()
}

// TestExitStatus: the agent's own status, 128+N for signal N, 0 and 1.
func TestExitStatus(t *testing.T) {
	for _, tc := range []struct {
		script string
		want   int
	}{{"exit 0", 0}, {"exit 3", 3}, {"kill -TERM $$", 128 + int(syscall.SIGTERM)}} {
		err := exec.Command("sh", "-c", tc.script).Run()
		if got := exitStatus(err); got != tc.want {
			t.Errorf("%s: exit status %d, want %d", tc.script, got, tc.want)
		}
	}
	if got := exitStatus(errors.New("wait failed")); got != 1 {
		t.Errorf("a failed wait: exit status %d, want 1", got)
	}
}
