package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/sim"
)

// printReport prints a campaign's coverage table and throughput.
func (c *cli) printReport(rep *harness.Report, camp harness.Campaign, took time.Duration) {
	w := c.stdout
	fmt.Fprintln(w, "fault class                 injected")
	for _, f := range camp.Sim.Faults {
		mark := ""
		if rep.Faults[f] == 0 {
			mark = "   ← never reached"
		}
		fmt.Fprintf(w, "  %-25s %8d%s\n", f, rep.Faults[f], mark)
	}
	fmt.Fprintln(w, "state                                 reached")
	for _, s := range harness.States {
		fmt.Fprintf(w, "  %-35s %7d\n", s, rep.States[s])
	}
	secs := max(took.Seconds(), 1e-9)
	fmt.Fprintf(w, "%d scenarios, %d events in %.2fs: %.0f scenarios/s, %.0f events/s\n",
		rep.Scenarios, rep.Events, took.Seconds(), float64(rep.Scenarios)/secs, float64(rep.Events)/secs)
	if rep.Rechecked > 0 {
		fmt.Fprintf(w, "nondeterminism: %d seeds generated and replayed twice\n", rep.Rechecked)
	}
	if rep.Interrupted {
		fmt.Fprintln(w, "stopped early (time budget or Ctrl-C): the report covers the scenarios checked so far")
	}
}

// reportFailure saves and describes a failure, or says the campaign is
// clean, and returns the exit status.
func (c *cli) reportFailure(rep *harness.Report, camp harness.Campaign, f *fuzzFlags) int {
	fl := rep.Failure
	if fl == nil {
		if len(rep.Missing) > 0 && !rep.Interrupted {
			fmt.Fprintf(c.stdout, "FAIL: fault classes never reached: %s (run more seeds, or narrow --faults)\n", sim.FormatFaults(rep.Missing))
			return exitFail
		}
		fmt.Fprintln(c.stdout, "ok: every oracle held on every scenario")
		return exitOK
	}
	what := "seed"
	if f.exhaustive {
		what = "ordering"
	}
	fmt.Fprintf(c.stdout, "FAIL: %s %d: %s\n", what, fl.Seed, indent(fl.Violation.String(), "  "))
	base := filepath.Join(f.out, fmt.Sprintf("seed-%d", fl.Seed))
	if f.exhaustive {
		base = filepath.Join(f.out, fmt.Sprintf("exhaustive-%d", fl.Seed))
	}
	paths, err := c.saveFailure(base, fl, camp, f.exhaustive)
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim fuzz: saving the failure: %v\n", err)
		return exitFail
	}
	for _, p := range paths {
		fmt.Fprintf(c.stdout, "saved %s\n", p)
	}
	if fl.Shrunk != nil {
		fmt.Fprintf(c.stdout, "shrunk %d → %d events (%d candidates tried)\n", len(fl.Case.Events), len(fl.Shrunk.Events), fl.Tests)
		if fl.Note != "" {
			fmt.Fprintf(c.stdout, "note: %s\n", fl.Note)
		}
		fmt.Fprintf(c.stdout, "reproduce: toolsim check%s %s\n", c.engineArgs, shellQuote(base+".min.jsonl"))
	} else {
		if fl.Note != "" {
			fmt.Fprintf(c.stdout, "not shrunk: %s\n", fl.Note)
		}
		fmt.Fprintf(c.stdout, "reproduce: toolsim check%s %s\n", c.engineArgs, shellQuote(base+".jsonl"))
	}
	return exitFail
}

// saveFailure writes the failing trace, its shrunk form, and a
// ready-to-commit testscript scenario with its golden.
func (c *cli) saveFailure(base string, fl *harness.Failure, camp harness.Campaign, exhaustive bool) ([]string, error) {
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return nil, err
	}
	paths := []string{base + ".jsonl"}
	if err := writeFile(paths[0], failureHeader(fl, camp, fl.Case, exhaustive), fl.Case.Events); err != nil {
		return nil, err
	}
	if fl.Shrunk == nil {
		return paths, nil
	}
	min := base + ".min.jsonl"
	h := failureHeader(fl, camp, fl.Shrunk, exhaustive)
	if err := writeFile(min, h, fl.Shrunk.Events); err != nil {
		return nil, err
	}
	scen, golden, err := c.writeScenario(base, h, fl)
	if err != nil {
		return nil, err
	}
	return append(paths, min, scen, golden), nil
}

// failureHeader is the header of a saved failing trace: a seed's options,
// or an exhaustive ordering's index, with the case's reconstruction
// settings and the oracle that failed.
func failureHeader(fl *harness.Failure, camp harness.Campaign, cs *harness.Case, exhaustive bool) *event.Header {
	m := harness.TraceMeta{Oracle: fl.Violation.Oracle}
	source := harness.SourceSim
	if exhaustive {
		source, m.Ordering = harness.SourceExhaustive, int64(fl.Seed)
	} else {
		m.Faults, m.Swarm, m.Tools, m.Turns = sim.FormatFaults(camp.Sim.Faults), camp.Sim.Swarm, camp.Sim.Tools, camp.Sim.Turns
	}
	return harness.Header(source, fl.Seed, harness.CaseMeta(m, cs))
}

func writeFile(path string, h *event.Header, evs []event.Event) error {
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

// writeScenario writes NAME.txtar (a scenario for scenarios/) and
// NAME.w80.golden (the reference render, for golden/).
func (c *cli) writeScenario(base string, h *event.Header, fl *harness.Failure) (string, string, error) {
	name := "fuzz-" + filepath.Base(base)
	var trace strings.Builder
	if err := event.WriteAll(&trace, h, fl.Shrunk.Events); err != nil {
		return "", "", err
	}
	script := fmt.Sprintf(`# Regression found by toolsim fuzz: seed %d, oracle %s.
# %s
# To keep it: copy this file to scenarios/ and %s.w80.golden to golden/,
# then run make golden.
exec toolsim replay trace.jsonl
cmp stdout $GOLDEN/%s.w80.golden
exec toolsim check%s trace.jsonl

-- trace.jsonl --
%s`, fl.Seed, fl.Violation.Oracle, firstLine(fl.ShrunkBy.Detail), name, name, c.engineArgs, trace.String())
	scen := filepath.Join(filepath.Dir(base), name+".txtar")
	if err := os.WriteFile(scen, []byte(script), 0o644); err != nil {
		return "", "", err
	}
	e := engine.New(engine.Options{})
	for i := range fl.Shrunk.Events {
		e.Apply(&fl.Shrunk.Events[i])
	}
	golden := filepath.Join(filepath.Dir(base), name+".w80.golden")
	return scen, golden, os.WriteFile(golden, []byte(render.Render(e.Timeline(), render.Options{Width: 80})), 0o644)
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
