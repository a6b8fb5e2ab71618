package main

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/internal/regress"
	"github.com/toolsim/toolsim/internal/tracemeta"
)

// printReport prints a campaign's coverage table and throughput.
func (c *cli) printReport(rep *campaign.Report, camp campaign.Campaign, took time.Duration) {
	w := c.stdout
	rep.WriteCoverage(w, camp.Sim.Faults)
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

// saveFailure writes the failing trace, its shrunk form, and a
// ready-to-commit testscript scenario with its golden.
func (c *cli) saveFailure(base string, fl *campaign.Failure, camp campaign.Campaign, exhaustive bool) ([]string, error) {
	r := regress.Regression{Seed: fl.Seed, Oracle: fl.Violation.Oracle, Detail: fl.ShrunkBy.Detail,
		Trace: regress.Trace{Header: failureHeader(fl, camp, fl.Case, exhaustive), Events: fl.Case.Events}}
	if fl.Shrunk != nil {
		r.Shrunk = &regress.Trace{Header: failureHeader(fl, camp, fl.Shrunk, exhaustive), Events: fl.Shrunk.Events}
	}
	return regress.Save(base, r, c.me()+" check"+c.engineArgs)
}

// failureHeader is the header of a saved failing trace: a seed's options,
// or an exhaustive ordering's index, with the case's reconstruction
// settings and the oracle that failed.
func failureHeader(fl *campaign.Failure, camp campaign.Campaign, cs *harness.Case, exhaustive bool) *event.Header {
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
