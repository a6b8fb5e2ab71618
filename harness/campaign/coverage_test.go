package campaign

import (
	"strings"
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

// TestCoverageSaysWhatWasLeftOut: a state named after a fault the run left
// out is shown "-" with that fault when nothing reached it, and, when
// something else did, with its count and a note; other states as counted.
func TestCoverageSaysWhatWasLeftOut(t *testing.T) {
	r := &Report{Faults: map[fault.Fault]int{fault.Cancel: 3},
		States:  map[string]int{"result after cancel": 4, "cancel while 2+ tools live": 2},
		LeftOut: fault.List{fault.LateResult, fault.ResultBeforeStart},
		Needs:   map[fault.Fault]string{fault.LateResult: "ruled out", fault.ResultBeforeStart: "ruled out"}}
	var b strings.Builder
	r.WriteCoverage(&b, fault.List{fault.Cancel, fault.LateResult, fault.ResultBeforeStart})
	for _, want := range []string{
		"  result before start                               -   ← left out with result-before-start\n",
		"  result after cancel                               4   (without late-result, which is left out: the plain flow or another fault leads here too)\n",
		"  cancel while 2+ tools live                        2\n",
		"  duplicate result                                  0\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the table lacks %q:\n%s", want, b.String())
		}
	}
}
