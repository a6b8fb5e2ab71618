package campaign_test

import (
	"testing"

	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/internal/planted"
	"github.com/toolsim/toolsim/sim"
)

// TestFirstCheckIsFullChecksFirst: a check that stops at the first
// violation finds the full check's first, signature and all. The
// shrinker's memo relies on it: a full check of a trace answers a
// first-only one.
func TestFirstCheckIsFullChecksFirst(t *testing.T) {
	for _, tt := range []struct {
		name   string
		engine func() harness.Engine
	}{
		{"every planted bug", withBugs(plantedBugs...)},
		{"open after turn", openAfterTurn},
		{"cancel leaves a spinner", planted.CancelLeavesSpinner},
	} {
		t.Run(tt.name, func(t *testing.T) {
			failing := 0
			for seed := uint64(1); seed <= 200; seed++ {
				c := harness.CaseOf(sim.Generate(seed, sim.Options{Faults: fault.All(), Swarm: true}))
				opts := harness.Options{Screen: seed%2 == 0} // the screen oracles on every other seed
				all := harness.CheckCase(tt.engine, c, opts)
				opts.First = true
				one := harness.CheckCase(tt.engine, c, opts)
				if len(one) == 0 != (len(all) == 0) {
					t.Fatalf("seed %d: %d violations stopping at the first, %d in full", seed, len(one), len(all))
				}
				if len(one) == 0 {
					continue
				}
				failing++
				if one[0].Signature != all[0].Signature || one[0].Seq != all[0].Seq {
					t.Errorf("seed %d: first %q at seq %d, full check's first %q at seq %d",
						seed, one[0].Signature, one[0].Seq, all[0].Signature, all[0].Seq)
				}
			}
			if failing == 0 {
				t.Fatal("no seed failed: nothing compared")
			}
		})
	}
}
