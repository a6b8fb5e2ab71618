package selfcheck_test

import (
	"slices"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness/internal/selfcheck"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/store"
	"github.com/toolsim/toolsim/timeline"
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

// BenchmarkTwice: oracle (c), a log rebuilt twice and replayed, on the
// persisted logs of the first 2,000 traces of the exhaustive 4-tool
// enumeration.
func BenchmarkTwice(b *testing.B) {
	var logs [][]byte
	var firsts []*timeline.Timeline
	sim.Exhaustive(sim.ExhaustiveOptions{Tools: 4, Progress: 1, Cancel: true}, func(evs []event.Event) bool {
		rep, _, err := selfcheck.RebuildLazy(evs, store.Options{})
		if err != nil {
			b.Fatal(err)
		}
		logs, firsts = append(logs, rep.Log), append(firsts, rep.Rebuilt)
		return len(logs) < 2000
	})
	b.ReportAllocs()
	for b.Loop() {
		for i, log := range logs {
			if d, err := selfcheck.Twice(firsts[i], log); err != nil || d != "" {
				b.Fatalf("trace %d: %v %s", i, err, d)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(logs)), "ns/trace")
}
