package engine_test

import (
	"encoding/json"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"pgregory.net/rapid"
)

// drawEvent draws an arbitrary event over a small id pool.
func drawEvent(t *rapid.T, seq int64) event.Event {
	ev := event.Event{Seq: seq, T: seq * 10, ID: rapid.SampledFrom([]string{"a", "b", "c", ""}).Draw(t, "id")}
	switch rapid.IntRange(0, 9).Draw(t, "kind") {
	case 0:
		ev.Kind, ev.Role = event.KindTurnStart, "assistant"
	case 1, 2:
		ev.Kind, ev.Text = event.KindText, "x"
	case 3, 4:
		ev.Kind, ev.Name = event.KindToolStart, "grep"
		ev.Batch = rapid.SampledFrom([]string{"", "m"}).Draw(t, "batch")
		ev.Parent = rapid.SampledFrom([]string{"", "", "a"}).Draw(t, "parent")
	case 5:
		ev.Kind, ev.Output = event.KindToolProgress, "o"
	case 6, 7:
		ev.Kind, ev.OK = event.KindToolDone, rapid.Bool().Draw(t, "ok")
	case 8:
		ev.Kind = event.KindCancel
	default:
		ev.Kind = event.KindTurnEnd
	}
	return ev
}

func timelineJSON(e *engine.Engine) string {
	out, _ := json.Marshal(e.Timeline())
	return string(out)
}

// TestClone: a clone taken at any point evolves exactly like the original
// under the same events, and neither affects the other.
func TestClone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 40).Draw(t, "events")
		evs := make([]event.Event, n)
		for i := range evs {
			evs[i] = drawEvent(t, int64(i+1))
		}
		k := rapid.IntRange(0, n).Draw(t, "clone after")
		orig := engine.New(engine.Options{})
		for i := range evs[:k] {
			orig.Apply(&evs[i])
		}
		before := timelineJSON(orig)
		clone := orig.Clone()
		for i := k; i < n; i++ {
			clone.Apply(&evs[i])
		}
		if got := timelineJSON(orig); got != before {
			t.Fatalf("applying events to the clone changed the original:\nbefore %s\nafter  %s", before, got)
		}
		for i := k; i < n; i++ {
			orig.Apply(&evs[i])
		}
		clone.Finish()
		orig.Finish()
		if a, b := timelineJSON(orig), timelineJSON(clone); a != b {
			t.Fatalf("clone diverged from the original after event %d:\norig  %s\nclone %s", k, a, b)
		}
	})
}
