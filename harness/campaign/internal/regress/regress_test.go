package regress

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
)

func trace(t *testing.T, s string) Trace {
	t.Helper()
	h, evs, err := event.ReadAll(strings.NewReader(s), event.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return Trace{Header: h, Events: evs}
}

const full = `{"trace":"toolsim/v1","source":"sim","seed":3}
{"seq":1,"t":0,"kind":"turn_start","role":"assistant"}
{"seq":2,"t":1,"kind":"tool_start","id":"a","name":"read","args":{}}
{"seq":3,"t":2,"kind":"text","text":"hi"}
{"seq":4,"t":3,"kind":"turn_end"}
`

const small = `{"trace":"toolsim/v1","source":"shrink"}
{"seq":1,"t":1,"kind":"tool_start","id":"a","name":"read","args":{}}
{"seq":2,"t":3,"kind":"turn_end"}
`

func TestSave(t *testing.T) {
	dir := t.TempDir()
	base := filepath.Join(dir, "out", "seed-3")
	s := trace(t, small)
	r := Regression{Seed: 3, Oracle: "no-live", Detail: "tool a is still running\nmore", Trace: trace(t, full), Shrunk: &s}
	paths, err := Save(base, r, "toolsim check --engine x")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{base + ".jsonl", base + ".min.jsonl",
		filepath.Join(dir, "out", "fuzz-seed-3.txtar"), filepath.Join(dir, "out", "fuzz-seed-3.w80.golden")}
	if d := cmp.Diff(want, paths); d != "" {
		t.Fatalf("paths (-want +got):\n%s", d)
	}
	if got := read(t, paths[0]); got != full {
		t.Errorf("%s = %q, want the failing trace %q", paths[0], got, full)
	}
	if got := read(t, paths[1]); got != small {
		t.Errorf("%s = %q, want the shrunk trace %q", paths[1], got, small)
	}
	script := read(t, paths[2])
	for _, s := range []string{"seed 3, oracle no-live.", "# tool a is still running\n", "exec toolsim check --engine x trace.jsonl", "-- trace.jsonl --\n" + small} {
		if !strings.Contains(script, s) {
			t.Errorf("scenario lacks %q:\n%s", s, script)
		}
	}
	if golden := read(t, paths[3]); !strings.Contains(golden, "read") {
		t.Errorf("golden does not render the shrunk trace's tool:\n%s", golden)
	}
}

func TestSaveUnshrunkWritesOnlyTheTrace(t *testing.T) {
	base := filepath.Join(t.TempDir(), "seed-3")
	paths, err := Save(base, Regression{Seed: 3, Oracle: "model", Trace: trace(t, full)}, "toolsim check")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{base + ".jsonl"}, paths); d != "" {
		t.Fatalf("paths (-want +got):\n%s", d)
	}
}

func TestSaveShrunk(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "bug.min.jsonl")
	s := trace(t, small)
	paths, err := SaveShrunk(out, Regression{Oracle: "model", Shrunk: &s}, "toolsim check")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{out, filepath.Join(dir, "fuzz-bug.txtar"), filepath.Join(dir, "fuzz-bug.w80.golden")}
	if d := cmp.Diff(want, paths); d != "" {
		t.Fatalf("paths (-want +got):\n%s", d)
	}
	if got := read(t, out); got != small {
		t.Errorf("%s = %q, want %q", out, got, small)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
