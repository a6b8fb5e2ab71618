package main

import (
	"flag"
	"fmt"
	"os"
	"sort"

	"github.com/toolsim/toolsim/contract"
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
	rec := rf.recorder("toolsim fuzz")
	m := merger{bySig: map[string]*report.Result{}}
	for _, path := range fs.Args() {
		if err := m.read(path); err != nil {
			fmt.Fprintf(c.stderr, "toolsim merge: %v\n", err)
			return exitUsage
		}
	}
	rec.suite.NotRun = m.notRun
	code := exitOK
	rs := m.results()
	for _, r := range rs {
		if r.Status != report.Pass {
			code = exitFail
		}
		rec.suite.Results = append(rec.suite.Results, r)
	}
	m.print(c, rs)
	return rec.write(c, code)
}

// merger accumulates shard reports.
type merger struct {
	bySig     map[string]*report.Result
	other     []report.Result // coverage failures, fixed notes
	scenarios int
	events    int
	shards    int
	notRun    []string
}

// read adds one report file, naming file and line in errors.
func (m *merger) read(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	lines, err := report.ReadJSON(f, path)
	if err != nil {
		return err
	}
	for n, l := range lines {
		if l.Suite != "toolsim fuzz" {
			return fmt.Errorf("%s:%d: suite %q: want the --json report of toolsim fuzz", path, n+1, l.Suite)
		}
		m.notRun = l.NotRun
		m.add(l.Result)
	}
	m.shards++
	return nil
}

// add merges one result.
func (m *merger) add(r report.Result) {
	switch {
	case r.Signature == "" && r.Scenarios > 0 && r.Status == report.Pass:
		m.scenarios += r.Scenarios
		m.events += r.Events
		return
	case r.Signature == "" || r.Count == 0 && r.Status == report.Pass && !r.Known:
		m.other = append(m.other, r) // coverage failures, fixed baseline entries
		return
	}
	old := m.bySig[r.Signature]
	if old == nil {
		m.bySig[r.Signature] = &r
		return
	}
	count := old.Count + r.Count
	if r.Seed != nil && (old.Seed == nil || *r.Seed < *old.Seed) {
		*old = r
	}
	old.Count = count
}

// results lists the merged findings by first seed, then the rest.
func (m *merger) results() []report.Result {
	var out []report.Result
	for _, r := range m.bySig {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if (a.Seed == nil) != (b.Seed == nil) {
			return a.Seed != nil
		}
		if a.Seed != nil && *a.Seed != *b.Seed {
			return *a.Seed < *b.Seed
		}
		return a.Signature < b.Signature
	})
	seen := map[string]bool{}
	for _, r := range m.other {
		// A baseline entry is fixed only if no shard found it.
		if r.Signature != "" && (m.bySig[r.Signature] != nil || seen[r.Signature]) {
			continue
		}
		seen[r.Signature] = true
		out = append(out, r)
	}
	if len(m.bySig) == 0 && len(m.other) == 0 {
		out = append(out, report.Result{Name: fmt.Sprintf("campaign (%d scenarios in %d shards)", m.scenarios, m.shards),
			Status: report.Pass, Scenarios: m.scenarios, Events: m.events})
	}
	return out
}

// bugs counts the bug classes and signatures of the merged findings as a
// campaign's report does (campaign.Report.Classes): "N bugs in M
// signatures". A report without classes is classed here.
func (m *merger) bugs(rs []report.Result) string {
	var rep campaign.Report
	for i := range rs {
		r := &rs[i]
		if r.Signature == "" || m.bySig[r.Signature] == nil {
			continue
		}
		if r.Class == "" {
			r.Class = campaign.ClassOf(r.Signature)
		}
		// A robustness finding that failed its shard was counted there.
		rep.Robustness = rep.Robustness || r.Robustness != "" && r.Status == report.Fail
		rep.Findings = append(rep.Findings, &campaign.Finding{Signature: r.Signature, Class: r.Class, After: r.After,
			Flaky: r.Flaky, Robustness: r.Robustness, Documented: contract.Behaviour(r.Documented)})
	}
	return rep.Bugs()
}

// print writes the merged findings table.
func (m *merger) print(c *cli, rs []report.Result) {
	fmt.Fprintf(c.stdout, "%d reports merged: %d findings: %s\n", m.shards, len(m.bySig), m.bugs(rs))
	if len(m.bySig) > 0 {
		fmt.Fprintln(c.stdout, "findings   seeds  first  status  signature")
	}
	for _, r := range rs {
		if r.Signature == "" || m.bySig[r.Signature] == nil {
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
