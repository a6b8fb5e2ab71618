package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/report"
)

// reportFlags are the machine-readable outputs of check and fuzz.
type reportFlags struct {
	json, junit, html string
}

// register adds --json and --junit, and --html when the command writes
// failure pages.
func (r *reportFlags) register(fs *flag.FlagSet, html bool) {
	fs.StringVar(&r.json, "json", "", "write one JSON object per line to `FILE`: per trace or failure, its oracle, event, diff, reproduce command and saved traces")
	fs.StringVar(&r.junit, "junit", "", "write a JUnit XML report to `FILE` (one testcase per trace or failing seed)")
	if html {
		fs.StringVar(&r.html, "html", "", "write an HTML page for each failing trace to `FILE` (later ones to FILE-2, FILE-3, ...): swimlanes, the failing event, the oracle's diff")
	}
}

// recorder collects a command's results for its reports.
type recorder struct {
	flags reportFlags
	suite report.Suite
	pages failurePages
	last  time.Time
}

func (r *reportFlags) recorder(name string) *recorder {
	now := time.Now()
	host, _ := os.Hostname()
	return &recorder{flags: *r, suite: report.Suite{Name: name, Timestamp: now, Hostname: host}, pages: failurePages{path: r.html}, last: now}
}

// add appends a result, timed since the previous one.
func (rec *recorder) add(r report.Result) {
	now := time.Now()
	r.Time, rec.last = now.Sub(rec.last), now
	rec.suite.Results = append(rec.suite.Results, r)
}

// check records one checked trace (err: it could not be read) and writes
// its page when it failed and --html asked for one.
func (rec *recorder) check(c *cli, name string, cs *harness.Case, events int, found []harness.Violation, err error) {
	r := report.Result{Name: displayName(name), Status: report.Pass, Reproduce: c.me() + " check" + c.engineArgs + " " + shellQuote(name)}
	switch {
	case err != nil:
		r.Status, r.Detail = report.Error, err.Error()
	case len(found) > 0:
		v := found[0]
		r.Status, r.Oracle, r.Seq, r.Detail, r.Diff, r.Violations = report.Fail, v.Oracle, v.Seq, v.Detail, v.Diff, len(found)
		r.Signature = v.Signature
		r.Trace = name
		r.HTML = rec.pages.write(c, name, cs, v)
	}
	r.Events = events
	rec.add(r)
}

// fuzz records a campaign: one result per finding (known findings pass,
// new and flaky ones fail), a failure for fault classes never reached,
// or one passing summary.
func (rec *recorder) fuzz(c *cli, rep *campaign.Report, f *fuzzFlags) {
	rec.suite.NotRun = harness.NotRun(rep.Skipped)
	for _, fd := range rep.Findings {
		rec.add(findingResult(c, fd, f, rep.Counts(fd)))
	}
	for _, sig := range rep.Fixed {
		rec.add(report.Result{Name: "fixed: " + sig, Status: report.Pass, Signature: sig,
			Detail: "in the baseline, no longer found: remove it, or write a new baseline"})
	}
	if len(rep.Findings) > 0 {
		return
	}
	name := fmt.Sprintf("campaign (%d scenarios)", rep.Scenarios)
	if f.shard != "" {
		name = fmt.Sprintf("campaign shard %s (%d scenarios)", f.shard, rep.Scenarios)
	}
	r := report.Result{Name: name, Status: report.Pass, Scenarios: rep.Scenarios, Events: rep.Events}
	if len(rep.Missing) > 0 && !rep.Interrupted {
		r.Status, r.Oracle = report.Fail, "coverage"
		r.Detail = "fault classes never reached: " + rep.Missing.String() + " (run more seeds, or narrow --faults)"
	}
	rec.add(r)
}

// findingResult is one finding as a report result, named by its
// signature, with its bug class and the paths reportFindings saved it
// under; counts says whether the run counts it (not documented behaviour,
// not outside the contract outside robustness mode).
func findingResult(c *cli, fd *campaign.Finding, f *fuzzFlags, counts bool) report.Result {
	v := fd.Violation
	r := report.Result{Name: fd.Signature, Status: report.Fail, Signature: fd.Signature, Count: fd.Count,
		Known: fd.Known, Flaky: fd.Flaky, Oracle: v.Oracle, Seq: v.Seq, Detail: v.Detail, Diff: v.Diff, Violations: 1,
		Class: fd.Class, Robustness: fd.Robustness, Documented: string(fd.Documented)}
	if fd.Known && fd.Flaky == "" || fd.After != "" && fd.Flaky == "" || !counts && fd.Flaky == "" {
		r.Status = report.Pass // known, seen only after another finding, or not counted
		r.After = fd.After
	}
	if fd.Replayed || fd.Known {
		return r
	}
	seed := fd.Seed
	base := findingBase(f, fd)
	r.Seed, r.Events, r.Trace = &seed, len(fd.Case.Events), base+".jsonl"
	r.Reproduce = c.me() + " check" + c.engineArgs + " " + shellQuote(r.Trace)
	r.Candidates, r.Rejected = fd.Tests, fd.Rejected
	if fd.Shrunk != nil {
		r.Shrunk = base + ".min.jsonl"
		r.Reproduce = c.me() + " check" + c.engineArgs + " " + shellQuote(r.Shrunk)
	}
	return r
}

// write writes the reports asked for; a report that cannot be written
// makes the command fail.
func (rec *recorder) write(c *cli, code int) int {
	if rec == nil {
		return code
	}
	rec.suite.Time = time.Since(rec.suite.Timestamp)
	for _, out := range []struct {
		path  string
		write func(f *os.File) error
	}{
		{rec.flags.json, func(f *os.File) error { return report.WriteJSON(f, &rec.suite) }},
		{rec.flags.junit, func(f *os.File) error { return report.WriteJUnit(f, &rec.suite) }},
	} {
		if out.path == "" {
			continue
		}
		if err := writeReport(out.path, out.write); err != nil {
			fmt.Fprintf(c.stderr, "toolsim %s: %v\n", rec.suite.Name[len("toolsim "):], err)
			code = max(code, exitFail)
		}
	}
	return code
}

func writeReport(path string, write func(f *os.File) error) error {
	if dir := filepath.Dir(path); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}
