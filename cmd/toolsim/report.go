package main

import (
	"fmt"
	"io"
	"time"

	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
)

// printReport prints a campaign's coverage table and throughput.
func (c *cli) printReport(rep *campaign.Report, camp campaign.Campaign, took time.Duration) {
	w := c.stdout
	rep.WriteCoverage(w, camp.Sim.Faults)
	printSkipped(w, rep.Skipped)
	secs := max(took.Seconds(), 1e-9)
	fmt.Fprintf(w, "%d scenarios, %d events in %.2fs: %s scenarios/s, %s events/s\n",
		rep.Scenarios, rep.Events, took.Seconds(), campaign.Rate(float64(rep.Scenarios)/secs), campaign.Rate(float64(rep.Events)/secs))
	if rep.Rechecked > 0 {
		fmt.Fprintf(w, "nondeterminism: %s generated and replayed twice\n", campaign.Plural(rep.Rechecked, "seed"))
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
