package formats_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sebdah/goldie/v2"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/render"
)

// tracesDir is where the real captured traces live: ../shared/traces from
// the repository root, or $TOOLSIM_TRACES.
func tracesDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("TOOLSIM_TRACES")
	if dir == "" {
		dir = "../../shared/traces"
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("real traces not found at %s (set TOOLSIM_TRACES to run the regression suite): %v", dir, err)
	}
	return dir
}

// sample is one real trace: its format is the name of its folder.
type sample struct{ format, path string }

func samples(t *testing.T) []sample {
	dir := tracesDir(t)
	paths, _ := filepath.Glob(filepath.Join(dir, "*", "*"))
	var out []sample
	for _, p := range paths {
		if !strings.HasSuffix(p, "README.md") {
			out = append(out, sample{format: filepath.Base(filepath.Dir(p)), path: p})
		}
	}
	if len(out) == 0 {
		t.Fatalf("no traces under %s", dir)
	}
	return out
}

func importSample(t *testing.T, s sample) *importer.Result {
	t.Helper()
	data, err := os.ReadFile(s.path)
	if err != nil {
		t.Fatal(err)
	}
	im, err := formats.Detect(data[:min(len(data), formats.HeadSize)])
	if err != nil {
		t.Fatalf("detect: %v", err)
	}
	if im.Name() != s.format {
		t.Fatalf("detected as %s, want %s", im.Name(), s.format)
	}
	res, err := im.Import(bytes.NewReader(data), importer.Options{Name: filepath.Base(s.path)})
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	for _, p := range res.Problems {
		t.Errorf("import problem: %s", p)
	}
	return res
}

// TestSharedTraces imports every real trace, checks it passes every
// oracle, and compares its render and diagnostics with
// golden/traces/FORMAT__FILE.golden.
func TestSharedTraces(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("../golden/traces"), goldie.WithNameSuffix(".golden"))
	for _, s := range samples(t) {
		name := s.format + "__" + filepath.Base(s.path)
		t.Run(name, func(t *testing.T) {
			res := importSample(t, s)
			if len(res.Events) == 0 {
				t.Fatal("no events imported")
			}
			newEngine := func() harness.Engine { return engine.New(engine.Options{}) }
			for _, v := range harness.Check(newEngine, res.Events) {
				t.Errorf("oracle: %s", v)
			}
			g.Assert(t, name, []byte(renderWithDiagnostics(res)))
		})
	}
}

// renderWithDiagnostics is the live render at width 80 followed by the
// diagnostics, as `toolsim replay` shows them.
func renderWithDiagnostics(res *importer.Result) string {
	e := engine.New(engine.Options{})
	for i := range res.Events {
		e.Apply(&res.Events[i])
	}
	var b strings.Builder
	// As replay prints it: the input is over, and the header says whether
	// the clock is synthetic.
	b.WriteString(render.Render(e.Timeline(), render.Options{Width: 80, Ended: true, SyntheticClock: res.Header.SyntheticClock()}))
	fmt.Fprintf(&b, "--- %d events, diagnostics:\n", len(res.Events))
	for _, d := range e.Timeline().Diagnostics {
		fmt.Fprintf(&b, "seq %d: %s id=%s\n", d.Seq, d.Code, d.ID)
	}
	if live := e.Live(); len(live) > 0 {
		fmt.Fprintf(&b, "end of trace: live %v\n", live)
	}
	return b.String()
}
