package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/internal/regress"
	"github.com/toolsim/toolsim/internal/tracemeta"
)

// printReport prints a campaign's coverage table and throughput.
func (c *cli) printReport(rep *harness.Report, camp harness.Campaign, took time.Duration) {
	w := c.stdout
	fmt.Fprintln(w, "fault class                 injected")
	for _, f := range camp.Sim.Faults {
		if rep.LeftOut.Has(f) {
			continue
		}
		mark := ""
		if rep.Faults[f] == 0 {
			mark = "   ← never reached"
		}
		fmt.Fprintf(w, "  %-25s %8d%s\n", f, rep.Faults[f], mark)
	}
	for _, f := range rep.LeftOut {
		fmt.Fprintf(w, "  %-25s %8s   ← left out: needs a feature the engine does not support\n", f, "-")
	}
	fmt.Fprintln(w, "state or rule                                 reached")
	for _, s := range harness.States {
		fmt.Fprintf(w, "  %-43s %7d\n", s, rep.States[s])
	}
	printSkipped(w, rep.Skipped)
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

// campaignEnd reports how a campaign ended and returns the exit status:
// interrupted by Ctrl-C is 130, even with nothing found so far (the
// campaign did not run what it was asked to), after any failure found
// is saved and printed.
func (c *cli) campaignEnd(rep *harness.Report, camp harness.Campaign, f *fuzzFlags, interrupted bool) int {
	if !interrupted {
		return c.reportFailure(rep, camp, f)
	}
	if rep.Failure != nil {
		c.reportFailure(rep, camp, f)
	} else {
		fmt.Fprintf(c.stdout, "no failure in the %d scenarios checked before the interrupt\n", rep.Scenarios)
	}
	fmt.Fprintln(c.stderr, "toolsim fuzz: interrupted")
	return exitInterrupted
}

// reportFailure saves and describes a failure, or says the campaign is
// clean, and returns the exit status.
func (c *cli) reportFailure(rep *harness.Report, camp harness.Campaign, f *fuzzFlags) int {
	fl := rep.Failure
	if fl == nil {
		if len(rep.Missing) > 0 && !rep.Interrupted {
			fmt.Fprintf(c.stdout, "FAIL: fault classes never reached: %s (run more seeds, or narrow --faults)\n", rep.Missing.String())
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
	r := regress.Regression{Seed: fl.Seed, Oracle: fl.Violation.Oracle, Detail: fl.ShrunkBy.Detail,
		Trace: regress.Trace{Header: failureHeader(fl, camp, fl.Case, exhaustive), Events: fl.Case.Events}}
	if fl.Shrunk != nil {
		r.Shrunk = &regress.Trace{Header: failureHeader(fl, camp, fl.Shrunk, exhaustive), Events: fl.Shrunk.Events}
	}
	return regress.Save(base, r, "toolsim check"+c.engineArgs)
}

// failureHeader is the header of a saved failing trace: a seed's options,
// or an exhaustive ordering's index, with the case's reconstruction
// settings and the oracle that failed.
func failureHeader(fl *harness.Failure, camp harness.Campaign, cs *harness.Case, exhaustive bool) *event.Header {
	m := tracemeta.Meta{Oracle: fl.Violation.Oracle}
	source := tracemeta.SourceSim
	if exhaustive {
		source, m.Ordering = tracemeta.SourceExhaustive, int64(fl.Seed)
	} else {
		m.Faults, m.Swarm, m.Tools, m.Turns = camp.Sim.Faults.String(), camp.Sim.Swarm, camp.Sim.Tools, camp.Sim.Turns
	}
	return tracemeta.Header(source, fl.Seed, m.With(replayOf(cs)))
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// printSkipped lists the oracles a campaign left out, those left out for
// the same reason on one line.
func printSkipped(w io.Writer, skips []harness.Skip) {
	if len(skips) == 0 {
		return
	}
	fmt.Fprintln(w, "oracles not run:")
	for _, line := range harness.NotRun(skips) {
		fmt.Fprintln(w, "  "+line)
	}
}
