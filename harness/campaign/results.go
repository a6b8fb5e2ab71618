package campaign

import (
	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/report"
)

// Results lists the run as report results (package report, for --json and
// JUnit): one per finding, named by its signature (known findings, those
// seen only after another and those the run does not count pass; new and
// flaky ones fail), one passing note per fixed baseline entry, and, when
// nothing was found, one summary named name that fails when an enabled
// fault class was never reached. base gives where a finding's traces were
// saved, without extension (base.jsonl, base.min.jsonl); reproduce turns a
// saved trace's path into the command that checks it.
func (r *Report) Results(name string, base func(*Finding) string, reproduce func(path string) string) []report.Result {
	var out []report.Result
	for _, fd := range r.Findings {
		res := fd.result(r.Counts(fd), base, reproduce)
		if r.Racy && fd.Flaky != "" {
			res.Status = report.Pass // a racy engine's flaky finding is reported, not counted
		}
		out = append(out, res)
	}
	for _, sig := range r.Fixed {
		out = append(out, report.Result{Name: "fixed: " + sig, Status: report.Pass, Signature: sig,
			Detail: "in the baseline, no longer found: remove it, or write a new baseline"})
	}
	if len(r.Findings) > 0 {
		return out
	}
	sum := report.Result{Name: name, Status: report.Pass, Scenarios: r.Scenarios, Events: r.Events}
	if len(r.Missing) > 0 && !r.Interrupted {
		sum.Status, sum.Oracle = report.Fail, "coverage"
		sum.Detail = "fault classes never reached: " + r.Missing.String() + " (run more seeds, or narrow --faults)"
	}
	return append(out, sum)
}

// result is one finding as a report result; counts says whether the run
// counts it (not documented behaviour, not outside the contract outside
// robustness mode).
func (fd *Finding) result(counts bool, base func(*Finding) string, reproduce func(string) string) report.Result {
	v := fd.Violation
	r := report.Result{Name: fd.Signature, Status: report.Fail, Signature: fd.Signature, Count: fd.Count,
		Known: fd.Known, KnownClass: fd.KnownClass, Flaky: fd.Flaky, Oracle: v.Oracle, Seq: v.Seq, Detail: v.Detail, Diff: v.Diff, Violations: 1,
		Class: fd.Class, Robustness: fd.Robustness, Documented: string(fd.Documented), ByDesign: fd.ByDesign}
	if (fd.Known || fd.KnownClass) && fd.Flaky == "" || fd.After != "" && fd.Flaky == "" || !counts && fd.Flaky == "" {
		r.Status = report.Pass // known, seen only after another finding, or not counted
		r.After = fd.After
	}
	if fd.Replayed || fd.Known || fd.KnownClass {
		return r // nothing saved for it
	}
	seed, b := fd.Seed, base(fd)
	r.Seed, r.Events, r.Trace = &seed, len(fd.Case.Events), b+".jsonl"
	r.Reproduce = reproduce(r.Trace)
	r.Candidates, r.Rejected, r.Runs = fd.Tests, fd.Rejected, fd.Runs
	if fd.Shrunk != nil {
		r.Shrunk = b + ".min.jsonl"
		r.Reproduce = reproduce(r.Shrunk)
	}
	return r
}

// ReportOf rebuilds, from report results (the merged --json reports of
// several shards), the report whose Classes and Bugs count them as the
// shards' campaigns did; a result without a class is classed here
// (ClassOf). Results without a signature are left out.
func ReportOf(rs []report.Result) *Report {
	rep := &Report{}
	for i := range rs {
		r := &rs[i]
		if r.Signature == "" {
			continue
		}
		if r.Class == "" {
			r.Class = ClassOf(r.Signature)
		}
		// A robustness finding that failed its shard was counted there.
		rep.Robustness = rep.Robustness || r.Robustness != "" && r.Status == report.Fail
		rep.Findings = append(rep.Findings, &Finding{Signature: r.Signature, Class: r.Class, After: r.After,
			KnownClass: r.KnownClass, Flaky: r.Flaky, Robustness: r.Robustness, Documented: contract.Behaviour(r.Documented),
			ByDesign: r.ByDesign})
	}
	return rep
}
