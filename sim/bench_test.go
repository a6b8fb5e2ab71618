package sim_test

import (
	"testing"

	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/sim"
)

// BenchmarkGenerate: one scenario per op, every fault, swarm (the default
// campaign's generation cost).
func BenchmarkGenerate(b *testing.B) {
	opts := sim.Options{Faults: fault.All(), Swarm: true}
	events := 0
	seed := uint64(0)
	b.ReportAllocs()
	for b.Loop() {
		events += len(sim.Generate(seed, opts).Events)
		seed++
	}
	b.ReportMetric(float64(events)/float64(b.N), "events/op")
}
