package harnesstest

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/render"
)

// UpdateEnv names the environment variable that makes ReplayDir write its
// goldens instead of comparing them: TOOLSIM_UPDATE=1 go test ./...
const UpdateEnv = "TOOLSIM_UPDATE"

// ReplayDir runs one subtest per *.jsonl trace in dir: it checks every
// oracle with harness.CheckCase under opts (the same options the engine is
// fuzzed with: declared fields, features, meta tools, grouping), then
// renders the final timeline (after the end-of-stream rule, at width 80,
// output snippets on) and compares it with dir/golden/NAME.golden. Run
// the test with TOOLSIM_UPDATE=1 to write the goldens, and read them
// before committing: a golden is a claim that the render is right. Every
// engine it makes is closed (pooled external processes go back to their
// pool).
func ReplayDir(t *testing.T, dir string, newEngine func() harness.Engine, opts harness.Options) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("harnesstest.ReplayDir: no *.jsonl traces in %s (%v)", dir, err)
	}
	sort.Strings(paths)
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".jsonl")
		t.Run(name, func(t *testing.T) {
			replayOne(t, p, filepath.Join(dir, "golden", name+".golden"), newEngine, opts)
		})
	}
}

func replayOne(t *testing.T, path, golden string, newEngine func() harness.Engine, opts harness.Options) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, evs, err := event.ReadAll(f, event.ReaderOptions{Name: path})
	if err != nil {
		t.Fatal(err)
	}
	c, err := harness.ReadCase(h, evs)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for i, v := range harness.CheckCase(newEngine, c, opts) {
		if i == 5 {
			t.Errorf("… more violations; reproduce: toolsim check %s", path)
			break
		}
		t.Errorf("%s", v)
	}
	compareGolden(t, golden, []byte(finalRender(newEngine, evs)))
}

// finalRender replays the trace through a fresh engine, closes it, and
// renders the final timeline.
func finalRender(newEngine func() harness.Engine, evs []event.Event) string {
	eng := newEngine()
	if c, ok := eng.(interface{ Close() error }); ok {
		defer c.Close()
	}
	for i := range evs {
		eng.Apply(&evs[i])
	}
	eng.Finish()
	return render.Render(eng.Timeline(), render.Options{Width: 80, Output: true})
}

// compareGolden compares got with the golden file, or writes it when
// TOOLSIM_UPDATE is set.
func compareGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if os.Getenv(UpdateEnv) != "" {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (write the goldens with %s=1 go test)", err, UpdateEnv)
	}
	if !bytes.Equal(want, got) {
		t.Errorf("the render differs from %s (-want +got):\n%s", path, lineDiff(string(want), string(got)))
	}
}

// lineDiff is a plain (-want +got) diff, line by line at the same
// positions: enough for renders that differ in a few rows.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := range max(len(w), len(g)) {
		switch {
		case i >= len(w):
			b.WriteString("+ " + g[i] + "\n")
		case i >= len(g):
			b.WriteString("- " + w[i] + "\n")
		case w[i] != g[i]:
			b.WriteString("- " + w[i] + "\n+ " + g[i] + "\n")
		default:
			b.WriteString("  " + w[i] + "\n")
		}
	}
	return b.String()
}
