package harness_test

import (
	"testing"

	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
)

// toolsOnly draws a tool row and nothing else, as a real agent app's
// screen reader reads it (the tool-rows capability).
func toolsOnly(it *timeline.Item) []*timeline.Item {
	switch it.Kind {
	case timeline.ItemTool, timeline.ItemToolGroup, timeline.ItemMetaTool:
		return []*timeline.Item{it}
	}
	return nil
}

// TestToolRows checks that Options.ToolRows compares the calls alone: a
// page of tool rows holds on traces with text, user turns, cancels and
// errors, and the same page fails without it (so the option is what
// makes it pass); a page that misdraws a call still fails with it.
func TestToolRows(t *testing.T) {
	opts := harness.Options{Screen: true}
	rows := harness.Options{Screen: true, ToolRows: true}
	failedWithout, misdrawn := 0, 0
	for seed := uint64(1); seed <= 200; seed++ {
		sc := sim.Generate(seed, sim.Options{Faults: fault.Trace, Swarm: true})
		if v := harness.CheckWith(page(toolsOnly), sc.Events, rows); len(v) > 0 {
			t.Fatalf("seed %d: a page of tool rows fails under ToolRows: %v", seed, v[0])
		}
		if len(harness.CheckWith(page(toolsOnly), sc.Events, opts)) > 0 {
			failedWithout++
		}
		if len(harness.CheckWith(page(drop(restatus(timeline.StatusOK, timeline.StatusRunning))), sc.Events, rows)) > 0 {
			misdrawn++
		}
	}
	if failedWithout == 0 {
		t.Error("a page of tool rows never failed without ToolRows: the option makes no difference")
	}
	if misdrawn == 0 {
		t.Error("a page drawing finished calls as running never failed under ToolRows")
	}
}

// drop keeps only the tool rows of what draw gives.
func drop(draw func(it *timeline.Item) []*timeline.Item) func(it *timeline.Item) []*timeline.Item {
	return func(it *timeline.Item) []*timeline.Item {
		var out []*timeline.Item
		for _, d := range draw(it) {
			out = append(out, toolsOnly(d)...)
		}
		return out
	}
}
