package harness_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
)

// inPlace shows the reference engine's items through items of its own
// that it overwrites in place and whose Version never moves: an engine
// that changes what it shows without telling an incremental renderer.
type inPlace struct {
	e   *engine.Engine
	own []*timeline.Item
}

func (p *inPlace) Apply(ev *event.Event) { p.e.Apply(ev) }
func (p *inPlace) Finish()               { p.e.Finish() }

func (p *inPlace) Timeline() *timeline.Timeline {
	tl := p.e.Timeline()
	for len(p.own) < len(tl.Items) {
		p.own = append(p.own, &timeline.Item{})
	}
	cp := *tl
	cp.Items = make([]*timeline.Item, len(tl.Items))
	for i, it := range tl.Items {
		*p.own[i] = *it
		p.own[i].Version = 1
		cp.Items[i] = p.own[i]
	}
	return &cp
}

// TestIncrementalOracleSeesInPlaceChanges: an engine that changes an item
// in place under a constant version fails the incremental oracle, with
// the stale and the fresh render in the diff; the reference engine, whose
// versions move, passes the same traces.
func TestIncrementalOracleSeesInPlaceChanges(t *testing.T) {
	caught := 0
	for seed := range uint64(50) {
		evs := sim.Generate(seed, sim.Options{Faults: fault.All(), Swarm: true}).Events
		if found := harness.CheckWith(reference, evs, harness.Options{}); len(found) > 0 {
			t.Fatalf("seed %d: the reference engine fails: %v", seed, found[0])
		}
		found := harness.CheckWith(func() harness.Engine { return &inPlace{e: engine.New(engine.Options{})} }, evs, harness.Options{})
		for _, v := range found {
			if v.Oracle == harness.OracleIncremental {
				if !strings.HasPrefix(v.Diff, "- \"") || !strings.Contains(v.Diff, "\n+ \"") || !strings.Contains(v.Detail, "kept version 1") {
					t.Fatalf("seed %d: the violation does not show both renders: %+v", seed, v)
				}
				caught++
				break
			}
		}
	}
	if caught < 40 {
		t.Fatalf("the incremental oracle caught %d of 50 seeds, want most", caught)
	}
}

// TestIncrementalOracleCompactsOldItems: with only the last 2 item indexes
// kept as copies (older ones as their texts), the oracle reports exactly
// what it reports with every index kept as a copy.
func TestIncrementalOracleCompactsOldItems(t *testing.T) {
	check := func(seed uint64) []harness.Violation {
		evs := sim.Generate(seed, sim.Options{Faults: fault.All(), Swarm: true}).Events
		return harness.CheckWith(func() harness.Engine { return &inPlace{e: engine.New(engine.Options{})} }, evs, harness.Options{})
	}
	var want [][]harness.Violation
	for seed := range uint64(50) {
		want = append(want, check(seed))
	}
	defer harness.SetKeptCopies(2)()
	for seed := range uint64(50) {
		if diff := cmp.Diff(want[seed], check(seed), cmpopts.IgnoreUnexported(harness.Violation{})); diff != "" {
			t.Fatalf("seed %d (-copies +texts):\n%s", seed, diff)
		}
	}
}
