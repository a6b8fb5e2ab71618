package harness

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/render"
)

// Save writes a failure where a person can pick it up: base.jsonl (the
// failing trace), and when it was shrunk base.min.jsonl, a ready-to-commit
// testscript scenario fuzz-NAME.txtar and its reference render
// fuzz-NAME.w80.golden beside them. header makes each trace's header from
// its case; check is the command the scenario runs to check the trace
// ("toolsim check --engine …"). It returns the paths written. toolsim
// fuzz, toolsim shrink and Fuzz all write failures this way.
func (f *Failure) Save(base string, header func(*Case) *event.Header, check string) ([]string, error) {
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return nil, err
	}
	paths := []string{base + ".jsonl"}
	if err := writeTrace(paths[0], header(f.Case), f.Case.Events); err != nil {
		return nil, err
	}
	if f.Shrunk == nil {
		return paths, nil
	}
	paths = append(paths, base+".min.jsonl")
	if err := writeTrace(paths[1], header(f.Shrunk), f.Shrunk.Events); err != nil {
		return nil, err
	}
	more, err := f.saveScenario(base, header(f.Shrunk), check)
	return append(paths, more...), err
}

// SaveShrunk writes only the shrunk trace to path, with its scenario and
// golden beside it (toolsim shrink -o).
func (f *Failure) SaveShrunk(path string, h *event.Header, check string) ([]string, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	if err := writeTrace(path, h, f.Shrunk.Events); err != nil {
		return nil, err
	}
	base := strings.TrimSuffix(strings.TrimSuffix(path, ".jsonl"), ".min")
	more, err := f.saveScenario(base, h, check)
	return append([]string{path}, more...), err
}

func writeTrace(path string, h *event.Header, evs []event.Event) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := event.WriteAll(f, h, evs); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

// saveScenario writes fuzz-NAME.txtar (a scenario for scenarios/) and
// fuzz-NAME.w80.golden (the reference render, for golden/).
func (f *Failure) saveScenario(base string, h *event.Header, check string) ([]string, error) {
	name := "fuzz-" + filepath.Base(base)
	var trace strings.Builder
	if err := event.WriteAll(&trace, h, f.Shrunk.Events); err != nil {
		return nil, err
	}
	detail, _, _ := strings.Cut(f.ShrunkBy.Detail, "\n")
	script := fmt.Sprintf(`# Regression found by toolsim: seed %d, oracle %s.
# %s
# To keep it: copy this file to scenarios/ and %s.w80.golden to golden/,
# then run make golden.
exec toolsim replay trace.jsonl
cmp stdout $GOLDEN/%s.w80.golden
exec %s trace.jsonl

-- trace.jsonl --
%s`, f.Seed, f.Violation.Oracle, detail, name, name, check, trace.String())
	scen := filepath.Join(filepath.Dir(base), name+".txtar")
	if err := os.WriteFile(scen, []byte(script), 0o644); err != nil {
		return nil, err
	}
	e := engine.New(engine.Options{})
	for i := range f.Shrunk.Events {
		e.Apply(&f.Shrunk.Events[i])
	}
	golden := filepath.Join(filepath.Dir(base), name+".w80.golden")
	return []string{scen, golden}, os.WriteFile(golden, []byte(render.Render(e.Timeline(), render.Options{Width: 80})), 0o644)
}
