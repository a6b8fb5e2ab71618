package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/internal/shquote"
	"github.com/toolsim/toolsim/report"
	"github.com/toolsim/toolsim/view"
)

// reportFlags are the machine-readable outputs of check and fuzz.
type reportFlags struct {
	json, junit, html string
}

// register adds --json and --junit, and --html when the command writes
// failure pages.
func (r *reportFlags) register(fs *flag.FlagSet, html bool) {
	fs.StringVar(&r.json, "json", "", "write one JSON object per line to `FILE`: per trace or failure, its oracle, event, diff, reproduce command and saved traces")
	cases := "one testcase per trace" // check
	if fs.Name() != "check" {
		cases = "one testcase per bug class" // fuzz, merge: docs/ci.md
	}
	fs.StringVar(&r.junit, "junit", "", "write a JUnit XML report to `FILE` ("+cases+")")
	if html {
		fs.StringVar(&r.html, "html", "", "write an HTML page for each failing trace to `FILE` (later ones to FILE-2, FILE-3, ...): swimlanes, the failing event, the oracle's diff")
	}
}

// recorder collects a command's results for its reports.
type recorder struct {
	flags reportFlags
	suite report.Suite
	pages failurePages
}

func (r *reportFlags) recorder(name string) *recorder {
	host, _ := os.Hostname()
	return &recorder{flags: *r, suite: report.Suite{Name: name, Timestamp: time.Now(), Hostname: host}, pages: failurePages{view.Pages{Path: r.html}}}
}

// add appends a result, timed since the previous one.
func (rec *recorder) add(r report.Result) { rec.suite.Add(r, time.Now()) }

// check records one checked trace (err: it could not be read) and writes
// its page when it failed and --html asked for one.
func (rec *recorder) check(c *cli, name string, cs *harness.Case, events int, found []harness.Violation, err error) {
	r := report.Result{Name: displayName(name), Status: report.Pass, Reproduce: c.me() + " check" + c.engineArgs + " " + shquote.Quote(name)}
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
	name := fmt.Sprintf("campaign (%d scenarios)", rep.Scenarios)
	if f.shard != "" {
		name = fmt.Sprintf("campaign shard %s (%d scenarios)", f.shard, rep.Scenarios)
	}
	base := func(fd *campaign.Finding) string { return findingBase(f, fd) }
	reproduce := func(path string) string { return c.me() + " check" + c.engineArgs + " " + shquote.Quote(path) }
	for _, r := range rep.Results(name, base, reproduce) {
		rec.add(r)
	}
}

// write writes the reports asked for; a report that cannot be written
// makes the command fail.
func (rec *recorder) write(c *cli, code int) int {
	if rec == nil {
		return code
	}
	rec.suite.Time = time.Since(rec.suite.Timestamp)
	if err := rec.suite.WriteFiles(rec.flags.json, rec.flags.junit); err != nil {
		fmt.Fprintf(c.stderr, "toolsim %s: %v\n", rec.suite.Name[len("toolsim "):], err)
		code = max(code, exitFail)
	}
	return code
}
