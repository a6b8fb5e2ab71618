package selfcheck_test

import (
	"slices"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/internal/selfcheck"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/store"
)

// BenchmarkRebuildExhaustive: live == rebuilt (persist, rebuild, live
// replay) on the first 2,000 traces of the exhaustive 4-tool enumeration,
// the self-check exhaustive mode runs on every trace.
func BenchmarkRebuildExhaustive(b *testing.B) {
	var traces [][]event.Event
	sim.Exhaustive(sim.ExhaustiveOptions{Tools: 4, Progress: 1, Cancel: true}, func(evs []event.Event) bool {
		traces = append(traces, slices.Clone(evs))
		return len(traces) < 2000
	})
	b.ReportAllocs()
	for b.Loop() {
		for _, evs := range traces {
			if _, live, err := selfcheck.RebuildLazy(evs, store.Options{}); err != nil || live != nil {
				b.Fatalf("the rebuilt transcript differs (%v)", err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(traces)), "ns/trace")
}
