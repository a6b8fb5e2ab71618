package harnesstest

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/render"
)

// ReplayDir runs one subtest per *.jsonl trace in dir: it checks every
// oracle with harness.CheckCase (order independence and reconstruction
// included, with the log faults a toolsim header records), then renders the final timeline (after the
// end-of-stream rule, at width 80, output snippets on) and compares it with
// dir/golden/NAME.golden. Run the test with -update to write the goldens,
// and read them before committing: a golden is a claim that the render is
// right.
func ReplayDir(t *testing.T, dir string, newEngine func() harness.Engine) {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("harnesstest.ReplayDir: no *.jsonl traces in %s (%v)", dir, err)
	}
	sort.Strings(paths)
	g := goldie.New(t, goldie.WithFixtureDir(filepath.Join(dir, "golden")), goldie.WithNameSuffix(".golden"))
	for _, p := range paths {
		name := strings.TrimSuffix(filepath.Base(p), ".jsonl")
		t.Run(name, func(t *testing.T) { replayOne(t, g, p, name, newEngine) })
	}
}

func replayOne(t *testing.T, g *goldie.Goldie, path, name string, newEngine func() harness.Engine) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, evs, err := event.ReadAll(f, event.ReaderOptions{Name: path})
	if err != nil {
		t.Fatal(err)
	}
	c, err := harness.CaseFromHeader(h, evs)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for i, v := range harness.CheckCase(newEngine, c, harness.Options{}) {
		if i == 5 {
			t.Errorf("… more violations; reproduce: toolsim check %s", path)
			break
		}
		t.Errorf("%s", v)
	}
	eng := newEngine()
	for i := range evs {
		eng.Apply(&evs[i])
	}
	eng.Finish()
	g.Assert(t, name, []byte(render.Render(eng.Timeline(), render.Options{Width: 80, Output: true})))
}
