package shrink_test

import (
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/shrink"
)

// benchShrink shrinks trace once per iteration and reports the size of the
// result ("events") and the number of predicate calls ("tests").
func benchShrink(b *testing.B, trace []event.Event, fails func([]event.Event) bool) {
	b.Helper()
	if !fails(trace) {
		b.Fatal("the input trace does not fail")
	}
	var res shrink.Result
	for b.Loop() {
		res = shrink.Shrink(trace, fails, shrink.Options{})
	}
	b.ReportMetric(float64(len(res.Events)), "events")
	b.ReportMetric(float64(res.Tests), "tests")
}

// BenchmarkShrink1000 shrinks a 1,000-event trace with a tool_done for a
// tool that never started planted in the middle. The predicate replays the
// whole trace, tracking started ids in a map.
func BenchmarkShrink1000(b *testing.B) {
	trace := insert(genTrace(999, 11)[:999], 500, event.Event{Kind: event.KindToolDone, ID: "ghost", Output: "boom"})
	benchShrink(b, trace, orphanDone)
}

// BenchmarkShrink1000Cancel shrinks a 1,000-event trace with a cancel
// planted in the middle while two or more tools run; the predicate needs
// two starts and the cancel, in order, with no done between.
func BenchmarkShrink1000Cancel(b *testing.B) {
	base := genTrace(999, 12)[:999]
	trace := insert(base, openAt(base, 500), event.Event{Kind: event.KindCancel, Reason: "user pressed escape"})
	benchShrink(b, trace, cancelTwoOpen)
}

// BenchmarkShrink1000WellFormed shrinks a 1,000-event trace whose
// predicate rejects any candidate with a broken tool lifecycle, so only
// whole tools can go: a harder, more realistic oracle.
func BenchmarkShrink1000WellFormed(b *testing.B) {
	trace := genTrace(1000, 13)
	i := afterDone(trace, 500) - 1
	trace[i].OK, trace[i].Error = false, "exit status 1: boom"
	benchShrink(b, trace, wellFormedBoom)
}
