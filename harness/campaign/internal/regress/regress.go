package regress

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/render"
)

// Trace is one trace file: its header and its events.
type Trace struct {
	Header *event.Header
	Events []event.Event
}

// Regression is a failure as toolsim saves it: the failing trace and,
// when it was shrunk, its shrunk form and what the shrunk trace violates.
type Regression struct {
	Seed   uint64 // the failing seed, named in the scenario's comment
	Oracle string // the oracle that failed
	Detail string // the shrunk trace's violation (its first line is kept)
	Trace  Trace
	Shrunk *Trace // nil when the failure was not shrunk
}

// Save writes a failure where a person can pick it up: base.jsonl (the
// failing trace), and when it was shrunk base.min.jsonl, a ready-to-commit
// testscript scenario fuzz-NAME.txtar and its reference render
// fuzz-NAME.w80.golden beside them. check is the command the scenario
// runs to check the trace ("toolsim check --engine …"). It returns the
// paths written. toolsim fuzz and campaign.Fuzz write failures this way.
func Save(base string, r Regression, check string) ([]string, error) {
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return nil, err
	}
	paths := []string{base + ".jsonl"}
	if err := writeTrace(paths[0], r.Trace); err != nil {
		return nil, err
	}
	if r.Shrunk == nil {
		return paths, nil
	}
	paths = append(paths, base+".min.jsonl")
	if err := writeTrace(paths[1], *r.Shrunk); err != nil {
		return nil, err
	}
	more, err := saveScenario(base, r, check)
	return append(paths, more...), err
}

// SaveShrunk writes only the shrunk trace to path, with its scenario and
// golden beside it (toolsim shrink -o).
func SaveShrunk(path string, r Regression, check string) ([]string, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	if err := writeTrace(path, *r.Shrunk); err != nil {
		return nil, err
	}
	base := strings.TrimSuffix(strings.TrimSuffix(path, ".jsonl"), ".min")
	more, err := saveScenario(base, r, check)
	return append([]string{path}, more...), err
}

func writeTrace(path string, tr Trace) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := event.WriteAll(f, tr.Header, tr.Events); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// saveScenario writes fuzz-NAME.txtar (a scenario for scenarios/) and
// fuzz-NAME.w80.golden (the reference render, for golden/).
func saveScenario(base string, r Regression, check string) ([]string, error) {
	name := "fuzz-" + filepath.Base(base)
	var trace strings.Builder
	if err := event.WriteAll(&trace, r.Shrunk.Header, r.Shrunk.Events); err != nil {
		return nil, err
	}
	detail, _, _ := strings.Cut(r.Detail, "\n")
	script := fmt.Sprintf(`# Regression found by toolsim: seed %d, oracle %s.
# %s
# To keep it: copy this file to scenarios/ and %s.w80.golden to golden/,
# then run make golden.
exec toolsim replay trace.jsonl
cmp stdout $GOLDEN/%s.w80.golden
exec %s trace.jsonl

-- trace.jsonl --
%s`, r.Seed, r.Oracle, detail, name, name, check, trace.String())
	scen := filepath.Join(filepath.Dir(base), name+".txtar")
	if err := os.WriteFile(scen, []byte(script), 0o644); err != nil {
		return nil, err
	}
	e := engine.New(engine.Options{})
	for i := range r.Shrunk.Events {
		e.Apply(&r.Shrunk.Events[i])
	}
	golden := filepath.Join(filepath.Dir(base), name+".w80.golden")
	return []string{scen, golden}, os.WriteFile(golden, []byte(render.Render(e.Timeline(), render.Options{Width: 80})), 0o644)
}
