package main

import (
	"flag"
	"fmt"

	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/report"
)

// merge combines the JSON reports of fuzz shards: one result per
// signature (counts summed, the lowest first seed's repro kept), the
// campaign summaries summed, coverage failures kept.
func (c *cli) merge(args []string) int {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	var rf reportFlags
	rf.register(fs, false)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: toolsim merge [--json FILE] [--junit FILE] REPORT.jsonl...\n\nCombines the --json reports of several 'toolsim fuzz --shard K/N' jobs into one\nfindings report, deduplicated by signature: each finding's seed count is summed\nover the shards and the repro of its lowest first seed is kept. Prints the\nfindings table; --json and --junit write the merged report.\nExit status: 0 no new or flaky finding, 1 some, 2 usage error or unreadable report.\n\nFlags:")
		printFlags(fs)
	}
	if err := c.parseFlags(fs, args); err != nil {
		return helpOrUsage(err)
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(c.stderr, "toolsim merge: want at least one REPORT.jsonl (fuzz --json)")
		return exitUsage
	}
	m, err := report.Merge(fs.Args())
	if err != nil {
		fmt.Fprintf(c.stderr, "toolsim merge: %v\n", err)
		return exitUsage
	}
	rec := rf.recorder("toolsim fuzz")
	rec.suite.NotRun = m.NotRun
	code := exitOK
	for _, r := range m.Results {
		if r.Status != report.Pass {
			code = exitFail
		}
		rec.suite.Results = append(rec.suite.Results, r)
	}
	c.printMerged(m)
	return rec.write(c, code)
}

// printMerged writes the merged findings table.
func (c *cli) printMerged(m *report.Merged) {
	var found []report.Result
	for _, r := range m.Results {
		if m.Found[r.Signature] {
			found = append(found, r)
		}
	}
	fmt.Fprintf(c.stdout, "%d reports merged: %d findings: %s\n", m.Shards, len(m.Found), campaign.ReportOf(found).Bugs())
	if len(m.Found) > 0 {
		fmt.Fprintln(c.stdout, "findings   seeds  first  status  signature")
	}
	for _, r := range m.Results {
		if !m.Found[r.Signature] {
			if r.Status != report.Pass {
				fmt.Fprintf(c.stdout, "FAIL: %s: %s\n", r.Name, r.Detail)
			}
			continue
		}
		first := "base"
		if r.Seed != nil {
			first = fmt.Sprint(*r.Seed)
		}
		fmt.Fprintf(c.stdout, "  %14d %6s  %-6s  %s\n", r.Count, first, r.Status, r.Signature)
		if r.Status != report.Pass && r.Reproduce != "" {
			fmt.Fprintf(c.stdout, "    reproduce: %s\n", r.Reproduce)
		}
	}
}
