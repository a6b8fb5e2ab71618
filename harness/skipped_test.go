package harness_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/engineproto"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/sim"
)

// oraclesOf lists the oracle names of skips.
func oraclesOf(skips []harness.Skip) []string {
	var out []string
	for _, s := range skips {
		if s.Why == "" {
			out = append(out, s.Oracle+" (no reason)")
			continue
		}
		out = append(out, s.Oracle)
	}
	return out
}

func TestSkipped(t *testing.T) {
	self := []string{harness.OracleRebuild, harness.OracleReconnect, harness.OracleIdempot, harness.OracleReported}
	tests := []struct {
		name string
		opts harness.Options
		want []string
	}{
		{"the reference engine in toolsim's campaigns", harness.Options{SelfCheck: true},
			[]string{harness.OracleReference, harness.OracleReload, harness.OracleCrash}},
		{"a Go engine with defaults", harness.Options{},
			append(append([]string{harness.OracleReference, harness.OracleReload}, self...), harness.OracleCrash)},
		{"an engine over the protocol", harness.Declared(harness.Options{}, engineproto.Info{}),
			append(append([]string{harness.OracleIncremental, harness.OracleReference, harness.OracleReload}, self...), harness.OracleCrash)},
		{"one that reconstructs, with --diff", harness.Declared(harness.Options{Reference: reference},
			engineproto.Info{Capabilities: []string{engineproto.CapReconstruct}}),
			append(append([]string{harness.OracleIncremental}, self...), harness.OracleCrash)},
		{"one that crashes and resumes", harness.Declared(harness.Options{SelfCheck: true, Reference: reference},
			engineproto.Info{Capabilities: []string{engineproto.CapCrash}}),
			[]string{harness.OracleIncremental, harness.OracleReload}},
		{"everything on", harness.Options{SelfCheck: true, Reload: true, Crash: true, Reference: reference}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, oraclesOf(tt.opts.Skipped())); diff != "" {
				t.Errorf("Skipped (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReportSkipped: a campaign's report says which oracles it left out;
// exhaustive mode adds the log oracles it leaves to seeded campaigns.
func TestReportSkipped(t *testing.T) {
	opts := harness.Options{SelfCheck: true}
	rep, err := campaign.Campaign{Seeds: 3, Check: opts}.Run(reference)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{harness.OracleReference, harness.OracleReload, harness.OracleCrash}, oraclesOf(rep.Skipped)); diff != "" {
		t.Errorf("campaign Skipped (-want +got):\n%s", diff)
	}
	rep, err = campaign.RunExhaustive(reference, sim.ExhaustiveOptions{Tools: 2}, campaign.Campaign{Check: opts})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{harness.OracleReference, harness.OracleReload, harness.OracleReconnect, harness.OracleIdempot, harness.OracleReported, harness.OracleNondeterminism, harness.OracleCrash}
	if diff := cmp.Diff(want, oraclesOf(rep.Skipped)); diff != "" {
		t.Errorf("exhaustive Skipped (-want +got):\n%s", diff)
	}
	rep, err = campaign.Campaign{Seeds: 3, Recheck: -1, Check: opts}.Run(reference)
	if err != nil {
		t.Fatal(err)
	}
	want = []string{harness.OracleReference, harness.OracleReload, harness.OracleCrash, harness.OracleNondeterminism}
	if diff := cmp.Diff(want, oraclesOf(rep.Skipped)); diff != "" {
		t.Errorf("campaign without rechecks Skipped (-want +got):\n%s", diff)
	}
}

func TestNotRun(t *testing.T) {
	tests := []struct {
		name  string
		skips []harness.Skip
		want  []string
	}{
		{"none", nil, nil},
		{"one", []harness.Skip{{"reload", "why a"}}, []string{"reload: why a"}},
		{"same reason together", []harness.Skip{{"incremental", "why a"}, {"live==rebuilt", "why b"}, {"reconnect", "why b"}, {"reload", "why a"}},
			[]string{"incremental: why a", "live==rebuilt, reconnect: why b", "reload: why a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, harness.NotRun(tt.skips)); diff != "" {
				t.Errorf("NotRun (-want +got):\n%s", diff)
			}
		})
	}
}
