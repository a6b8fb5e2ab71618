package main

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
)

// printReport prints a campaign's coverage table and throughput.
func (c *cli) printReport(rep *campaign.Report, camp campaign.Campaign, took timing) {
	w := c.stdout
	rep.WriteCoverage(w, camp.Sim.Faults)
	printSkipped(w, rep.Skipped)
	secs := max(took.seeds.Seconds(), 1e-9)
	after := ""
	if rest := took.total - took.seeds; rest >= 10*time.Millisecond {
		after = fmt.Sprintf(" (then %.2fs shrinking and confirming findings)", rest.Seconds())
	}
	fmt.Fprintf(w, "%d scenarios, %d events in %.2fs%s: %s scenarios/s, %s events/s\n",
		rep.Scenarios, rep.Events, took.seeds.Seconds(), after, campaign.Rate(float64(rep.Scenarios)/secs), campaign.Rate(float64(rep.Events)/secs))
	if rep.Rechecked > 0 {
		fmt.Fprintf(w, "nondeterminism: %s generated and replayed twice\n", campaign.Plural(rep.Rechecked, "seed"))
	}
	if g := rep.Guide; g != nil {
		fmt.Fprintf(w, "guided: %d of %d scenarios were mutants of a corpus of %d, which reached %d signatures, states, (state, fault) pairs and call steps\n",
			g.Mutants, rep.Scenarios, g.Corpus, g.Reached)
	}
	if rep.Interrupted {
		fmt.Fprintln(w, "stopped early (time budget or Ctrl-C): the report covers the scenarios checked so far")
	}
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

// timing is how long a campaign took: checking its seeds, and in all
// (shrinking and confirming its findings come after the seeds).
type timing struct{ seeds, total time.Duration }

// seedClock wraps the campaign's progress callback to note when the last
// seed was checked, and returns what reads the campaign's timing once it
// has run: the rate counts the seeds' time only.
func seedClock(camp *campaign.Campaign, start time.Time) func() timing {
	var last atomic.Int64 // nanoseconds since start at the last progress
	show := camp.Progress
	camp.Progress = func(done, total, failures int) {
		last.Store(int64(time.Since(start)))
		if show != nil {
			show(done, total, failures)
		}
	}
	return func() timing {
		total := time.Since(start)
		seeds := time.Duration(last.Load())
		if seeds <= 0 || seeds > total {
			seeds = total
		}
		return timing{seeds: seeds, total: total}
	}
}
