package sim_test

import (
	"testing"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/sim"
)

// TestGenerateInsideContract: under a contract, every generated trace is
// inside it (each guarantee alone, the executor preset and all of them,
// every fault on, swarm), and a ruled-out fault is never injected.
func TestGenerateInsideContract(t *testing.T) {
	lists := map[string]contract.List{"executor": contract.Executor, "all": contract.All}
	for _, g := range contract.All {
		lists[string(g)] = contract.List{g}
	}
	seeds := 1000
	if testing.Short() {
		seeds = 200
	}
	for name, l := range lists {
		t.Run(name, func(t *testing.T) {
			opts := sim.Options{Faults: fault.All(), Swarm: true, Contract: l}
			for seed := range uint64(seeds) {
				sc := sim.Generate(seed, opts)
				if b := l.Check(sc.Events); b != nil {
					t.Fatalf("%s, seed %d: %s\nreproduce: go test ./sim -run 'TestGenerateInsideContract/%s'", name, seed, b, name)
				}
				for f := range sc.Injected {
					if l.RulesOut(f) {
						t.Fatalf("seed %d: injected %s, which %s rules out", seed, f, l)
					}
				}
			}
		})
	}
}

// TestContractBreachesWithoutIt: without a contract the simulator does
// make inputs each guarantee rules out (so the test above can fail), save
// answers-asked, which no generated trace breaks.
func TestContractBreachesWithoutIt(t *testing.T) {
	seen := map[contract.Guarantee]bool{}
	for seed := range uint64(2000) {
		sc := sim.Generate(seed, sim.Options{Faults: fault.All(), Swarm: true})
		for _, g := range contract.All {
			if !seen[g] && (contract.List{g}).Check(sc.Events) != nil {
				seen[g] = true
			}
		}
	}
	for _, g := range contract.All {
		if g == contract.AnswersAsked {
			continue
		}
		if !seen[g] {
			t.Errorf("no trace of 2,000 breaks %s: the generation test cannot fail for it", g)
		}
	}
}
