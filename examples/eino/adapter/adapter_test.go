package adapter_test

import (
	"testing"

	"github.com/toolsim/toolsim/executor"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/sim"

	"github.com/toolsim/toolsim/examples/eino/adapter"
)

// TestEino runs the campaign (subtest campaign: one failing subtest per bug
// class the baseline does not list) and the regressions kept under
// scenarios/eino (subtest regressions: each must still fail as the baseline
// says).
func TestEino(t *testing.T) { suite.Run(t) }

// suite is the adapter's campaign and regressions; BenchmarkCampaign
// measures its rate.
var suite = executor.Suite{
	New:         adapter.New,
	Options:     adapter.Options,
	Seeds:       300,
	Baseline:    "../../../scenarios/eino/baseline.json",
	Regressions: "../../../scenarios/eino",
}

// TestReplaysAlike replays a few generated traces inside the contract
// (text, parallel calls, failures, approvals granted and denied, a cancel,
// several user turns each) 200 times each on fresh engines: the timeline
// after every event must be the same whatever the goroutine schedule
// (executor.Repeat).
func TestReplaysAlike(t *testing.T) {
	engine := func() *executor.Engine { return executor.New(&adapter.Library{}, adapter.Config) }
	opts := sim.Options{Features: adapter.Options.Features, Contract: adapter.Contract, Faults: fault.All(), Swarm: true}
	for _, seed := range []uint64{2, 10, 16, 18, 20} {
		sc := sim.Generate(seed, opts)
		if err := executor.Repeat(200, sc.Events, engine); err != nil {
			t.Errorf("seed %d: %v", seed, err)
		}
	}
}

// TestByDesignEvidence: the behaviour the adapter declares carries its
// evidence, a ref to eino's code, and none is declared documented.
func TestByDesignEvidence(t *testing.T) {
	c := adapter.Options.Contract
	if len(c.Documented) != 0 || len(c.ByDesign) != 1 {
		t.Errorf("declared documented %v, by design %v; want none, and approval-after-results", c.Documented, c.ByDesign)
	}
	if err := c.CheckEvidence(adapter.Evidence); err != nil {
		t.Error(err)
	}
}
