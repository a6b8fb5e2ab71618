package render_test

import (
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
)

// timelineOf runs synthetic events until the timeline holds n items.
func timelineOf(b *testing.B, n int) *timeline.Timeline {
	evs := sim.Synthetic(3, sim.SyntheticOptions{Events: 20 * n})
	e := engine.New(engine.Options{})
	for i := range evs {
		e.Apply(&evs[i])
		if len(e.Timeline().Items) == n {
			return e.Timeline()
		}
	}
	b.Fatalf("synthetic trace gave only %d items", len(e.Timeline().Items))
	return nil
}

// BenchmarkRenderFull renders a 1,000-item timeline from scratch.
func BenchmarkRenderFull(b *testing.B) {
	tl := timelineOf(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		render.Render(tl, render.Options{Width: 100})
	}
}

// BenchmarkRenderIncremental re-renders a 1,000-item timeline after one
// result changed a tool group in the middle: the member's status flips (so
// the group's text really changes) and its version moves, as the engine
// does on a result.
func BenchmarkRenderIncremental(b *testing.B) {
	benchIncremental(b, func(inc *render.Incremental, tl *timeline.Timeline) { inc.Render(tl) })
}

// BenchmarkRenderIncrementalBytes is the same through Bytes, the zero-copy
// path a terminal writer uses.
func BenchmarkRenderIncrementalBytes(b *testing.B) {
	benchIncremental(b, func(inc *render.Incremental, tl *timeline.Timeline) { inc.Bytes(tl) })
}

func benchIncremental(b *testing.B, render1 func(*render.Incremental, *timeline.Timeline)) {
	tl := timelineOf(b, 1000)
	var changed *timeline.Item
	for _, it := range tl.Items[500:] {
		if it.Kind == timeline.ItemToolGroup {
			changed = it
			break
		}
	}
	inc := render.NewIncremental(render.Options{Width: 100})
	inc.Render(tl)
	b.ReportAllocs()
	member := changed.Tools[0]
	statuses := [2]timeline.Status{timeline.StatusOK, timeline.StatusFailed}
	n := 0
	for b.Loop() {
		n++
		member.Status = statuses[n%2]
		changed.Version++
		render1(inc, tl)
	}
}

// BenchmarkItem renders one finished group of three calls with output, as
// the incremental-render oracle does for each item it keeps: a long check
// renders each of its items a few times.
func BenchmarkItem(b *testing.B) {
	it := &timeline.Item{Kind: timeline.ItemToolGroup, Version: 3}
	for k := range 3 {
		it.Tools = append(it.Tools, &timeline.Tool{ID: "t" + string(rune('0'+k)), Name: "grep", Summary: "TODO", Status: timeline.StatusOK, Output: "3 matches\n", StartT: 5, EndT: 50, DurationMS: 45})
	}
	b.ReportAllocs()
	for b.Loop() {
		render.Item(it, 100, render.Options{Width: 80, Output: true})
	}
}
