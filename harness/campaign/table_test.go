package campaign_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/report"
)

// finding is a new finding of one seed with a shrunk repro.
func finding(sig, class string, seed uint64) *campaign.Finding {
	evs := make([]event.Event, 5)
	return &campaign.Finding{Signature: sig, Class: class, Count: 2,
		Failure: campaign.Failure{Seed: seed, Violation: harness.Violation{Oracle: "model"},
			Case: &harness.Case{Events: evs}, Shrunk: &harness.Case{Events: evs[:2]}}}
}

// TestVerdict: the last line of a run and whether it failed.
func TestVerdict(t *testing.T) {
	known := finding("a: x", "a", 1)
	known.Known = true
	tests := []struct {
		name   string
		rep    campaign.Report
		want   string
		failed bool
	}{
		{"clean", campaign.Report{}, "ok: every oracle held on every scenario", false},
		{"new", campaign.Report{Findings: []*campaign.Finding{finding("a: x", "a", 1), finding("b: y", "b", 4)}},
			"FAIL: 2 bugs in 2 signatures: 2 new and 0 flaky findings (0 known, 0 only after another)", true},
		{"only known", campaign.Report{Findings: []*campaign.Finding{known}}, "ok: only known findings: 1 bug in 1 signature (1 in the baseline)", false},
		{"fault never reached", campaign.Report{Missing: fault.List{fault.Cancel}}, "FAIL: fault classes never reached: cancel (run more seeds, or narrow --faults)", true},
		{"interrupted before reaching", campaign.Report{Missing: fault.List{fault.Cancel}, Interrupted: true}, "ok: every oracle held on every scenario", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			line, failed := tt.rep.Verdict()
			if line != tt.want || failed != tt.failed {
				t.Errorf("Verdict() = %q, %v; want %q, %v", line, failed, tt.want, tt.failed)
			}
		})
	}
}

// TestWriteFindings: one row per signature under its bug's number, the
// classes named under the table, and what shrinking cost: the engine runs
// of each finding shrunk, and their median, one seen only after another
// included.
func TestWriteFindings(t *testing.T) {
	rep := campaign.Report{Findings: []*campaign.Finding{finding("a: x", "a", 1), finding("a: z", "a", 3), finding("b: y", "b", 4), finding("c: w", "c", 5)}}
	rep.Findings[0].Runs, rep.Findings[1].Runs, rep.Findings[3].Runs = 12, 40, 31
	rep.Findings[3].After = "a: x"
	var b strings.Builder
	rep.WriteFindings(&b)
	want := `findings: 2 bugs in 3 signatures
  bug  seeds  first  events  runs  oracle       signature
    1      2      1     5→2    12  model        a: x
    1      2      3     5→2    40  model        a: z
    2      2      4     5→2     -  model        b: y
  bug 1: a
  bug 2: b
  and 1 more seen only after one of these (a consequence, or a bug it masks: fix that one first; --json lists them)
  shrinking: 3 findings shrunk, 83 engine runs in all, median 31 per finding (the runs column)
`
	if diff := cmp.Diff(want, b.String()); diff != "" {
		t.Errorf("WriteFindings (-want +got):\n%s", diff)
	}
	b.Reset()
	rep.NoShrink = true
	rep.WriteFindings(&b)
	if first, _, _ := strings.Cut(b.String(), "\n"); first != "findings: 2 bugs in 3 signatures (unshrunk: a bug seen only after another is not set apart, so a shrinking run may count fewer)" {
		t.Errorf("unshrunk, the count's line is %q: it should say why a shrinking run may count fewer", first)
	}
}

// TestResultsRoundTrip: a report's results, read back by ReportOf, count
// the same bugs; a finding's repro is its shrunk trace.
func TestResultsRoundTrip(t *testing.T) {
	rep := campaign.Report{Findings: []*campaign.Finding{finding("a: x", "a", 1), finding("b: y", "b", 4)}}
	base := func(fd *campaign.Finding) string { return "out/" + fd.FileName("seed") }
	rs := rep.Results("campaign", base, func(p string) string { return "toolsim check " + p })
	if len(rs) != 2 || rs[0].Status != report.Fail || rs[0].Reproduce != "toolsim check out/seed-1.min.jsonl" {
		t.Fatalf("results: %+v", rs)
	}
	if got, want := campaign.ReportOf(rs).Bugs(), rep.Bugs(); got != want {
		t.Errorf("ReportOf(results).Bugs() = %q, want %q", got, want)
	}
	clean := (&campaign.Report{Scenarios: 3}).Results("campaign (3 scenarios)", base, nil)
	if len(clean) != 1 || clean[0].Status != report.Pass || clean[0].Scenarios != 3 {
		t.Errorf("a clean run's results: %+v", clean)
	}
}

// TestMedian: the middle value, or the mean of the two middle ones.
func TestMedian(t *testing.T) {
	for _, tt := range []struct {
		name string
		xs   []int
		want string
	}{
		{"one", []int{7}, "7"},
		{"odd, unsorted", []int{9, 1, 5}, "5"},
		{"even, between two", []int{4, 1, 2, 9}, "3.0"},
		{"even, half way", []int{10, 1, 5, 2}, "3.5"},
		{"even, equal middles", []int{3, 3, 1, 8}, "3"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := campaign.Median(tt.xs); got != tt.want {
				t.Errorf("median(%v) = %s, want %s", tt.xs, got, tt.want)
			}
		})
	}
}
