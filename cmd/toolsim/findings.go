package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/internal/shquote"
	"github.com/toolsim/toolsim/report"
)

// campaignEnd reports how a campaign ended and returns the exit status:
// interrupted by Ctrl-C is 130, even with nothing found so far (the
// campaign did not run what it was asked to), after the findings so far
// are saved and printed.
func (c *cli) campaignEnd(rep *campaign.Report, camp campaign.Campaign, f *fuzzFlags, interrupted bool) int {
	code := c.reportFindings(rep, camp, f, interrupted)
	if !interrupted {
		return code
	}
	fmt.Fprintln(c.stderr, "toolsim fuzz: interrupted")
	return exitInterrupted
}

// reportFindings prints the findings table and each finding (saving the
// new ones), writes the baseline when asked, and returns the exit status:
// 1 for a new or flaky finding or a fault class never reached.
func (c *cli) reportFindings(rep *campaign.Report, camp campaign.Campaign, f *fuzzFlags, interrupted bool) int {
	rep.WriteFindings(c.stdout)
	for _, fd := range rep.New() {
		if err := c.describeFinding(fd, camp, f); err != nil {
			fmt.Fprintf(c.stderr, "toolsim fuzz: saving the failure: %v\n", err)
			return exitFail
		}
	}
	for _, sig := range rep.Fixed {
		fmt.Fprintf(c.stdout, "fixed: %s (in the baseline, no longer found: remove it, or write a new baseline)\n", sig)
	}
	if f.writeBase != "" {
		b := campaign.BaselineOf(rep, camp.Baseline)
		if err := writeBaseline(f.writeBase, b); err != nil {
			fmt.Fprintf(c.stderr, "toolsim fuzz: %v\n", err)
			return exitFail
		}
		fmt.Fprintf(c.stdout, "wrote the baseline %s (%d findings)\n", f.writeBase, len(b.Entries))
	}
	if interrupted && len(rep.Findings) == 0 {
		fmt.Fprintf(c.stdout, "no failure in the %d scenarios checked before the interrupt\n", rep.Scenarios)
		return exitOK
	}
	line, failed := rep.Verdict()
	fmt.Fprintln(c.stdout, line)
	if failed {
		return exitFail
	}
	return exitOK
}

// describeFinding saves a new or flaky finding under --out and prints it:
// its first violation, signature, saved paths, shrink and the command that
// reproduces it.
func (c *cli) describeFinding(fd *campaign.Finding, camp campaign.Campaign, f *fuzzFlags) error {
	what, head := "seed", "FAIL"
	if f.exhaustive {
		what = "ordering"
	}
	if fd.Flaky != "" {
		head = "FLAKY"
	}
	if fd.Replayed {
		fmt.Fprintf(c.stdout, "%s: baseline repro: %s\n", head, indent(fd.Violation.String(), "  "))
	} else {
		fmt.Fprintf(c.stdout, "%s: %s %d: %s\n", head, what, fd.Seed, indent(fd.Violation.String(), "  "))
	}
	fmt.Fprintf(c.stdout, "signature: %s (%s)\n", fd.Signature, campaign.Plural(fd.Count, "failing seed"))
	fmt.Fprintf(c.stdout, "bug class: %s\n", fd.Class)
	if fd.Robustness != "" {
		fmt.Fprintf(c.stdout, "%s\n", fd.Robustness)
	}
	if fd.Flaky != "" {
		fmt.Fprintf(c.stdout, "not confirmed: %s\n", fd.Flaky)
	}
	if fd.Replayed {
		return nil
	}
	base := findingBase(f, fd)
	paths, err := camp.Save(base, &fd.Failure, c.me()+" check"+c.engineArgs)
	if err != nil {
		return err
	}
	for _, p := range paths {
		fmt.Fprintf(c.stdout, "saved %s\n", p)
	}
	repro := base + ".jsonl"
	if fd.Shrunk != nil {
		repro = base + ".min.jsonl"
		fmt.Fprintf(c.stdout, "shrunk %d → %d events (%d candidates tried, %d rejected for drift)\n", len(fd.Case.Events), len(fd.Shrunk.Events), fd.Tests, fd.Rejected)
		if fd.Note != "" {
			fmt.Fprintf(c.stdout, "note: %s\n", fd.Note)
		}
	} else if fd.Note != "" {
		fmt.Fprintf(c.stdout, "not shrunk: %s\n", fd.Note)
	}
	fmt.Fprintf(c.stdout, "reproduce: %s check%s %s\n", c.me(), c.engineArgs, shquote.Quote(repro))
	return nil
}

// findingBase is where a finding's traces are saved, without extension:
// seed-N (exhaustive-N for an ordering), seed-N-2, ... for the later
// findings of a seed (Finding.FileName).
func findingBase(f *fuzzFlags, fd *campaign.Finding) string {
	if f.exhaustive {
		return filepath.Join(f.out, fd.FileName("exhaustive"))
	}
	return filepath.Join(f.out, fd.FileName("seed"))
}

// readBaseline reads a baseline file.
func readBaseline(path string) (*campaign.Baseline, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--baseline: %w", err)
	}
	defer file.Close()
	return campaign.ReadBaseline(file, path)
}

// writeBaseline writes a baseline file.
func writeBaseline(path string, b *campaign.Baseline) error {
	return report.WriteFile(path, b.Encode)
}
