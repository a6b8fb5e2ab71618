package engine_test

import (
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/sim"
)

// BenchmarkEngine applies a 10,000-event synthetic trace (parallel batches,
// progress, out-of-order results, cancels) and reports events/s.
func BenchmarkEngine(b *testing.B) {
	evs := sim.Synthetic(1, sim.SyntheticOptions{Events: 10_000, CancelEvery: 5})
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		e := engine.New(engine.Options{})
		for i := range evs {
			e.Apply(&evs[i])
		}
	}
	b.ReportMetric(float64(len(evs))*float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
