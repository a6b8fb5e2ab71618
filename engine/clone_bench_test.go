package engine_test

import (
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/sim"
)

// BenchmarkClone clones an engine that has applied 500,000 events.
func BenchmarkClone(b *testing.B) {
	evs := sim.Synthetic(1, sim.SyntheticOptions{Events: 500_000, CancelEvery: 5})
	e := engine.New(engine.Options{})
	for i := range evs {
		e.Apply(&evs[i])
	}
	b.ReportAllocs()
	for b.Loop() {
		e.Clone()
	}
}
