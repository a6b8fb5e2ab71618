package adapter_test

import (
	"testing"

	"github.com/toolsim/toolsim/executor"

	"github.com/toolsim/toolsim/examples/adk/adapter"
)

// TestADK runs the campaign (subtest campaign: one failing subtest per bug
// class the baseline does not list) and the regressions kept under
// scenarios/adk (subtest regressions: each must still fail as the baseline
// says).
func TestADK(t *testing.T) { suite.Run(t) }

// suite is the adapter's campaign and regressions; BenchmarkCampaign
// measures its rate.
var suite = executor.Suite{
	New:         adapter.New,
	Options:     adapter.Options,
	Seeds:       300,
	Baseline:    "../../../scenarios/adk/baseline.json",
	Regressions: "../../../scenarios/adk",
}
