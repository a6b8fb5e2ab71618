package selfcheck

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
	"pgregory.net/rapid"
)

// TestEqualAgreesWithCmp: the fast path says "equal" exactly when
// cmp finds no difference, over pairs of timelines from generated traces
// cut at nearby points (often equal, often one field apart).
func TestEqualAgreesWithCmp(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sc := sim.Generate(rapid.Uint64().Draw(t, "seed"), sim.Options{Faults: fault.All(), Swarm: true})
		i := rapid.IntRange(0, len(sc.Events)).Draw(t, "cut a")
		j := rapid.IntRange(max(i-2, 0), min(i+2, len(sc.Events))).Draw(t, "cut b")
		a, b := replayTo(sc, i), replayTo(sc, j)
		b.Now = a.Now
		want := cmp.Diff(a, b, cmpopts.IgnoreFields(timeline.Item{}, "Version"), cmpopts.EquateEmpty()) == ""
		if got := Equal(a, b); got != want {
			t.Fatalf("Equal = %v, cmp says equal = %v", got, want)
		}
	})
}

func replayTo(sc *sim.Scenario, n int) *timeline.Timeline {
	e := engine.New(engine.Options{})
	for k := range n {
		e.Apply(&sc.Events[k])
	}
	return e.Timeline()
}
