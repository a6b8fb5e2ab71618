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

// TestByDesignEvidence: each behaviour the adapter declares carries its
// evidence, a ref to ADK's code or PR, and none is declared documented:
// ADK's docs say none of them.
func TestByDesignEvidence(t *testing.T) {
	c := adapter.Options.Contract
	if len(c.Documented) != 0 {
		t.Errorf("declared documented: %v; ADK's docs say none of them, so they are by design", c.Documented)
	}
	if len(c.ByDesign) != 2 {
		t.Errorf("declared by design: %v, want results-at-step-end and approval-after-results (docs/findings/adk.md)", c.ByDesign)
	}
	if err := c.CheckEvidence(adapter.Evidence); err != nil {
		t.Error(err)
	}
}
