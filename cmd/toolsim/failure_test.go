package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
)

// spinnerEngine is a planted bug: a cancel leaves the newest live tool
// running.
type spinnerEngine struct{ *engine.Engine }

func (s spinnerEngine) Apply(ev *event.Event) {
	live := s.Live()
	s.Engine.Apply(ev)
	if ev.Kind != event.KindCancel || len(live) == 0 {
		return
	}
	for _, it := range s.Timeline().Items {
		it.EachTool(func(t *timeline.Tool) bool {
			if t.ID == live[len(live)-1] {
				t.Status = timeline.StatusRunning
			}
			return true
		})
	}
}

func newSpinner() harness.Engine { return spinnerEngine{engine.New(engine.Options{})} }

func testCLI(newEngine func() harness.Engine) (*cli, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	return &cli{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, open: osCLI().open, newEngine: newEngine}, &out, &errOut
}

// TestFuzzSavesShrunkRegression: a campaign against a broken engine fails,
// saves the trace, its shrunk form, a scenario and its golden, and prints
// the command that reproduces it.
func TestFuzzSavesShrunkRegression(t *testing.T) {
	dir := t.TempDir()
	c, out, errOut := testCLI(newSpinner)
	if code := c.run([]string{"fuzz", "--seeds", "300", "--workers", "1", "--out", dir}); code != exitFail {
		t.Fatalf("exit %d, want %d\n%s%s", code, exitFail, out, errOut)
	}
	m := regexpFind(t, out.String(), `reproduce: toolsim check (\S+seed-(\d+)\.min\.jsonl)`)
	minTrace, seed := m[1], m[2]
	for _, name := range []string{"seed-" + seed + ".jsonl", "fuzz-seed-" + seed + ".txtar", "fuzz-seed-" + seed + ".w80.golden"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Errorf("not saved: %v", err)
		}
	}
	// The shrunk trace still fails the broken engine, and is small.
	c2, out2, _ := testCLI(newSpinner)
	if code := c2.run([]string{"check", minTrace}); code != exitFail {
		t.Errorf("check of the shrunk trace: exit %d, want 1\n%s", code, out2)
	}
	data, _ := os.ReadFile(minTrace)
	if n := strings.Count(string(data), "\n") - 1; n < 1 || n > 12 {
		t.Errorf("shrunk trace has %d events, want 1..12:\n%s", n, data)
	}
	// The scenario holds the same trace, and the golden is what the
	// reference engine renders for it.
	ar, err := txtar.ParseFile(filepath.Join(dir, "fuzz-seed-"+seed+".txtar"))
	if err != nil || len(ar.Files) != 1 || string(ar.Files[0].Data) != string(data) {
		t.Fatalf("scenario does not hold the shrunk trace: %v", err)
	}
	golden, _ := os.ReadFile(filepath.Join(dir, "fuzz-seed-"+seed+".w80.golden"))
	ref, rout, _ := testCLI(nil)
	ref.run([]string{"replay", minTrace})
	if rout.String() != string(golden) {
		t.Errorf("golden differs from the reference replay:\n%s\nvs\n%s", golden, rout)
	}
}

// TestCheckReportsDiff: check names the oracle, the event, a (-want +got)
// diff and the reproduce command.
func TestCheckReportsDiff(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cancel.jsonl")
	trace := `{"seq":1,"t":0,"kind":"turn_start","role":"assistant"}
{"seq":2,"t":5,"kind":"tool_start","id":"t1","name":"bash","args":{"command":"make"}}
{"seq":3,"t":9,"kind":"cancel","reason":"Esc"}
{"seq":4,"t":9,"kind":"turn_end"}
`
	if err := os.WriteFile(path, []byte(trace), 0o644); err != nil {
		t.Fatal(err)
	}
	c, out, _ := testCLI(newSpinner)
	if code := c.run([]string{"check", path}); code != exitFail {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	for _, want := range []string{"after seq 3: model: after cancel (seq 3) tool t1 differs from the model", "(-want +got):", "- tool t1 bash interrupted updates=0 end_t=9 duration=4\n", "+ tool t1 bash running updates=0\n", `event: {"seq":3,"t":9,"kind":"cancel","reason":"Esc"}`, "reproduce: toolsim check " + path} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestShrinkCommand: shrink -o writes a small failing trace and its
// scenario; without -o the trace goes to stdout.
func TestShrinkCommand(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "big.jsonl")
	var sc *sim.Scenario
	for seed := uint64(0); ; seed++ {
		sc = sim.Generate(seed, sim.Options{Faults: fault.List{fault.Cancel}})
		if len(harness.CheckWith(newSpinner, sc.Events, harness.Options{First: true})) > 0 {
			break
		}
	}
	var buf bytes.Buffer
	if err := event.WriteAll(&buf, nil, sc.Events); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(in, buf.Bytes(), 0o644)
	c, out, errOut := testCLI(newSpinner)
	if code := c.run([]string{"shrink", in}); code != exitOK {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	_, evs, err := event.ReadAll(bytes.NewReader(out.Bytes()), event.ReaderOptions{})
	if err != nil || len(evs) == 0 || len(evs) >= len(sc.Events) || len(evs) > 12 {
		t.Fatalf("shrunk %d → %d events (err %v)", len(sc.Events), len(evs), err)
	}
	if !strings.Contains(errOut.String(), "shrunk ") {
		t.Errorf("stderr lacks the summary: %s", errOut)
	}
	c2, out2, _ := testCLI(newSpinner)
	if code := c2.run([]string{"shrink", "-o", filepath.Join(dir, "min.jsonl"), in}); code != exitOK {
		t.Fatalf("shrink -o: exit %d", code)
	}
	for _, name := range []string{"min.jsonl", "fuzz-min.txtar", "fuzz-min.w80.golden"} {
		if !strings.Contains(out2.String(), filepath.Join(dir, name)) {
			t.Errorf("output does not name %s:\n%s", name, out2)
		}
	}
}

func regexpFind(t *testing.T, s, pattern string) []string {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(s)
	if m == nil {
		t.Fatalf("output lacks %q:\n%s", pattern, s)
	}
	return m
}

// TestReplayCapsLiveList: a trace that ends with many live tools names the
// first ten and counts the rest, instead of printing every id.
func TestReplayCapsLiveList(t *testing.T) {
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, `{"seq":%d,"t":%d,"kind":"tool_start","id":"t%d","name":"grep","args":{}}`+"\n", i+1, i+1, i)
	}
	path := filepath.Join(t.TempDir(), "live.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	c, out, errOut := testCLI(nil)
	if code := c.run([]string{"replay", path}); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	want := "end of trace: 30 tools still live [t0 t1 t2 t3 t4 t5 t6 t7 t8 t9 … and 20 more], 0 results waiting"
	if !strings.Contains(errOut.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, errOut)
	}
}
