package campaign

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
)

// TestCoverageReachesEveryRule: the default campaign (toolsim fuzz --seeds
// 2000: every fault, swarm) reaches every state and rule of the inventory
// at least 20 times. A rule the simulator cannot reach is a simulator bug.
// It counts as a campaign does, with the model, without checking an engine.
func TestCoverageReachesEveryRule(t *testing.T) {
	hit := map[string]int{}
	for seed := range uint64(2000) {
		sc := sim.Generate(seed, sim.Options{Faults: fault.All(), Swarm: true})
		statesOf(sc.Events, harness.Options{}, hit)
	}
	for _, s := range states {
		if hit[s] < 20 {
			t.Errorf("%q reached %d times in 2,000 seeds, want ≥ 20", s, hit[s])
		}
	}
}

// TestCampaignCountsStatesInItsPass: a campaign counts the states and
// rules in its check's own model pass, and gets what a separate model pass
// over the same seeds counts.
func TestCampaignCountsStatesInItsPass(t *testing.T) {
	c := Campaign{Seeds: 300, Workers: 2, NoShrink: true, Sim: sim.Options{Faults: fault.All(), Swarm: true}}
	rep, err := c.Run(func() harness.Engine { return engine.New(engine.Options{}) })
	if err != nil || rep.Failure != nil {
		t.Fatalf("err %v, failure %v", err, rep.Failure)
	}
	want := map[string]int{}
	for seed := range uint64(300) {
		statesOf(sim.Generate(seed, c.Sim).Events, harness.Options{}, want)
	}
	if diff := cmp.Diff(want, rep.States); diff != "" {
		t.Errorf("states (-model pass +campaign):\n%s", diff)
	}
}
