package toolsim_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/sebdah/goldie/v2"
	"github.com/toolsim/toolsim"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/formats"
	"github.com/toolsim/toolsim/importer"
	"github.com/toolsim/toolsim/render"
)

// goldenWidths are the widths every scenario is rendered at.
var goldenWidths = []int{40, 80, 120}

// scenario is one scenarios/*.txtar file, reduced to what rendering needs.
type scenario struct {
	name   string
	trace  []byte // the input of the first `exec toolsim replay` line, any format
	output bool   // the script replays with --output
	finish bool   // the script replays with --finish
	live   bool   // the script replays with --live
}

func loadScenarios(t *testing.T) []scenario {
	t.Helper()
	entries, err := fs.ReadDir(toolsim.Scenarios, "scenarios")
	if err != nil {
		t.Fatal(err)
	}
	var out []scenario
	for _, e := range entries {
		data, err := fs.ReadFile(toolsim.Scenarios, "scenarios/"+e.Name())
		if err != nil {
			t.Fatal(err)
		}
		ar := txtar.Parse(data)
		s := scenario{name: strings.TrimSuffix(e.Name(), ".txtar")}
		input := ""
		for _, line := range strings.Split(string(ar.Comment), "\n") {
			if strings.HasPrefix(line, "exec toolsim replay ") {
				s.output = strings.Contains(line, " --output")
				s.finish = strings.Contains(line, " --finish")
				s.live = strings.Contains(line, " --live")
				fields := strings.Fields(line)
				input = fields[len(fields)-1]
				break
			}
		}
		for _, f := range ar.Files {
			if f.Name == input {
				s.trace = f.Data
			}
		}
		if s.trace == nil {
			t.Fatalf("%s: the archive has no %q, the file the first `exec toolsim replay` line reads", e.Name(), input)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		t.Fatal("no scenarios embedded")
	}
	return out
}

// renderScenario replays a scenario's trace and renders it at a width.
func renderScenario(t *testing.T, s scenario, width int) string {
	t.Helper()
	src, err := formats.Open(bytes.NewReader(s.trace), "", importer.Options{Name: s.name})
	if err != nil {
		t.Fatal(err)
	}
	evs, err := src.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	eng := engine.New(engine.Options{})
	for i := range evs {
		eng.Apply(&evs[i])
	}
	if s.finish {
		eng.Finish()
	}
	// As `toolsim replay` prints it: the input is over (unless --live), and
	// the header says whether the clock is synthetic.
	opts := render.Options{Width: width, Output: s.output, Ended: !s.live, SyntheticClock: src.Header.SyntheticClock()}
	return render.Render(eng.Timeline(), opts)
}

// TestGolden renders every scenario at widths 40, 80 and 120 and compares
// with golden/SCENARIO.wWIDTH.golden. Regenerate with `make golden` (go test
// . -run TestGolden -update) and read the diff before committing.
func TestGolden(t *testing.T) {
	g := goldie.New(t, goldie.WithFixtureDir("golden"), goldie.WithNameSuffix(".golden"))
	for _, s := range loadScenarios(t) {
		for _, w := range goldenWidths {
			name := fmt.Sprintf("%s.w%d", s.name, w)
			t.Run(name, func(t *testing.T) {
				g.Assert(t, name, []byte(renderScenario(t, s, w)))
			})
		}
	}
}

// TestGoldenWidth checks the renderer's width promise on every scenario: no
// line is wider than the width, and none ends in a space.
func TestGoldenWidth(t *testing.T) {
	for _, s := range loadScenarios(t) {
		for _, w := range goldenWidths {
			out := renderScenario(t, s, w)
			for i, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
				if n := render.Width(line); n > w {
					t.Errorf("%s at width %d: line %d is %d cells wide: %q", s.name, w, i+1, n, line)
				}
				if strings.HasSuffix(line, " ") {
					t.Errorf("%s at width %d: line %d ends in a space: %q", s.name, w, i+1, line)
				}
			}
		}
	}
}
