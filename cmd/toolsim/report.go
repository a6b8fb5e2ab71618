package main

import (
	"fmt"
	"io"
	"strconv"
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
		rep.Scenarios, rep.Events, took.Seconds(), rate(float64(rep.Scenarios)/secs), rate(float64(rep.Events)/secs))
	if rep.Rechecked > 0 {
		fmt.Fprintf(w, "nondeterminism: %d seeds generated and replayed twice\n", rep.Rechecked)
	}
	if rep.Interrupted {
		fmt.Fprintln(w, "stopped early (time budget or Ctrl-C): the report covers the scenarios checked so far")
	}
}

// rate formats a per-second rate with two significant digits below 10
// (0.43, 0.062, 4.3) and as a whole number above, so a slow engine's rate
// never reads 0.
func rate(r float64) string {
	switch {
	case r >= 10 || r == 0:
		return fmt.Sprintf("%.0f", r)
	case r >= 1:
		return fmt.Sprintf("%.1f", r)
	}
	return strconv.FormatFloat(r, 'g', 2, 64)
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
