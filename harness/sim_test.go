package harness_test

import (
	"testing"

	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
)

// TestReferencePassesOnSimulator: the reference engine agrees with the
// harness model on every event of 2,000 swarm scenarios with every fault.
func TestReferencePassesOnSimulator(t *testing.T) {
	for seed := range uint64(2000) {
		sc := sim.Generate(seed, sim.Options{Faults: fault.All(), Swarm: true})
		if v := harness.CheckWith(reference, sc.Events, harness.Options{First: true}); len(v) > 0 {
			t.Fatalf("seed %d: %v\nreproduce: toolsim sim --seed %d --faults all --swarm | toolsim check -", seed, v[0], seed)
		}
	}
}

// TestReferencePassesAllOracles: every oracle, reconstruction included, on
// 1,000 swarm scenarios.
func TestReferencePassesAllOracles(t *testing.T) {
	for seed := range uint64(1000) {
		sc := sim.Generate(seed, sim.Options{Faults: fault.All(), Swarm: true})
		c := harness.CaseOf(sc)
		if v := harness.CheckCase(reference, c, harness.Options{First: true, SelfCheck: true}); len(v) > 0 {
			t.Fatalf("seed %d (log faults %v, reconnect %d): %v", seed, c.LogFaults, c.ReconnectAt, v[0])
		}
	}
}
