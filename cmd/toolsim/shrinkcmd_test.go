package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
)

// loneEngine is a planted bug: a tool_start while another tool is live is
// dropped. Its cheapest repro, two starts and nothing else, leaves both
// tools running at the end: a missing result, which only the
// missing-result fault produces.
type loneEngine struct{ *engine.Engine }

func (e loneEngine) Apply(ev *event.Event) {
	if ev.Kind == event.KindToolStart && len(e.Live()) > 0 {
		return
	}
	e.Engine.Apply(ev)
}

func newLone() harness.Engine { return loneEngine{engine.New(engine.Options{})} }

// TestShrinkDomainFromHeader: shrink keeps a generated trace inside the
// faults its header records (a trace made with --faults none shrinks to
// one whose tools all finish), --faults overrides the header, and a
// captured trace (no header) may hold any fault.
func TestShrinkDomainFromHeader(t *testing.T) {
	dir := t.TempDir()
	generated := failingSimTrace(t, dir)
	data, err := os.ReadFile(generated)
	if err != nil {
		t.Fatal(err)
	}
	_, body, _ := strings.Cut(string(data), "\n")
	captured := filepath.Join(dir, "captured.jsonl")
	if err := os.WriteFile(captured, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		args       []string
		domain     string
		inDomainOf string // the fault list the shrunk trace must stay in; "" for none
	}{
		{"generated: the header's faults", []string{generated}, "shrink domain: faults none (from the trace header)", "none"},
		{"generated, --oracle: the header's faults", []string{"--oracle", harness.OracleOnce, generated}, "shrink domain: faults none (from the trace header)", "none"},
		{"--faults overrides the header", []string{"--faults", "all", generated}, "shrink domain: faults all (--faults)", ""},
		{"captured: any fault", []string{captured}, "shrink domain: any fault (the trace records no fault list)", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, out, errOut := testCLI(newLone)
			if code := c.run(append([]string{"shrink"}, tt.args...)); code != exitOK {
				t.Fatalf("exit %d\n%s", code, errOut)
			}
			if !strings.Contains(errOut.String(), tt.domain+"\n") {
				t.Errorf("stderr lacks %q:\n%s", tt.domain, errOut)
			}
			_, evs, err := event.ReadAll(bytes.NewReader(out.Bytes()), event.ReaderOptions{})
			if err != nil {
				t.Fatal(err)
			}
			why := campaign.Domain{}.Outside(evs, harness.Options{})
			switch {
			case tt.inDomainOf != "" && why != "":
				t.Errorf("the shrunk trace left the header's domain: %s\n%s", why, out)
			case tt.inDomainOf == "" && (why == "" || len(evs) != 2):
				t.Errorf("want the 2-event repro with both tools left running (outside faults none), got %d events (%q)\n%s", len(evs), why, out)
			}
		})
	}
	// The shrunk trace records its domain: shrinking it again keeps it.
	c, out, errOut := testCLI(newLone)
	if code := c.run([]string{"shrink", "-o", filepath.Join(dir, "min.jsonl"), generated}); code != exitOK {
		t.Fatalf("shrink -o: exit %d\n%s%s", code, out, errOut)
	}
	c, _, errOut = testCLI(newLone)
	c.run([]string{"shrink", filepath.Join(dir, "min.jsonl")})
	if want := "shrink domain: faults none (from the trace header)\n"; !strings.Contains(errOut.String(), want) {
		t.Errorf("shrinking the shrunk trace again: stderr lacks %q:\n%s", want, errOut)
	}
}

// failingSimTrace writes the first trace `toolsim sim --faults none` makes
// that loneEngine fails, and returns its path.
func failingSimTrace(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "generated.jsonl")
	for seed := 1; seed < 50; seed++ {
		c, out, errOut := testCLI(nil)
		if code := c.run([]string{"sim", "--seed", fmt.Sprint(seed), "--faults", "none", "--tools", "3"}); code != exitOK {
			t.Fatalf("sim: exit %d\n%s", code, errOut)
		}
		if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		check, _, _ := testCLI(newLone)
		if check.run([]string{"check", path}) == exitFail {
			return path
		}
	}
	t.Fatal("no seed below 50 fails loneEngine")
	return ""
}
