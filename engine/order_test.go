package engine_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
	"pgregory.net/rapid"
)

// toolPlan is what one tool of a batch will do after its start.
type toolPlan struct {
	id       string
	progress int
	ok       bool
	duration int64
}

// batchTrace builds a turn with one batch of tools whose progress and
// results arrive in the interleaving given by order (a list of tool indexes:
// each occurrence emits that tool's next event). Results all arrive at the
// same t, with explicit durations, so arrival order is the only difference.
func batchTrace(plans []toolPlan, order []int, batchID string) []event.Event {
	evs := []event.Event{{Kind: event.KindTurnStart, Role: "assistant"}, {Kind: event.KindText, Text: "checking"}}
	for _, p := range plans {
		evs = append(evs, event.Event{Kind: event.KindToolStart, ID: p.id, Name: "grep", Batch: batchID,
			Args: json.RawMessage(fmt.Sprintf(`{"pattern":%q}`, p.id))})
	}
	emitted := make([]int, len(plans))
	for _, i := range order {
		p := plans[i]
		if emitted[i] < p.progress {
			evs = append(evs, event.Event{Kind: event.KindToolProgress, ID: p.id, Output: fmt.Sprintf("line %d\n", emitted[i])})
		} else {
			d := p.duration
			evs = append(evs, event.Event{Kind: event.KindToolDone, ID: p.id, OK: p.ok, DurationMS: &d, Error: errText(p.ok)})
		}
		emitted[i]++
	}
	evs = append(evs, event.Event{Kind: event.KindTurnEnd})
	for i := range evs {
		evs[i].Seq, evs[i].T = int64(i+1), 1000
	}
	return evs
}

func errText(ok bool) string {
	if ok {
		return ""
	}
	return "failed"
}

func finalJSON(t *rapid.T, evs []event.Event) string {
	e := engine.New(engine.Options{})
	for i := range evs {
		e.Apply(&evs[i])
	}
	out, err := json.Marshal(e.Timeline())
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// TestOrderIndependence is SPEC §5.6: the final timeline does not depend on
// the order in which progress and results arrive.
func TestOrderIndependence(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 6).Draw(t, "tools")
		plans := make([]toolPlan, n)
		var canonical []int
		for i := range plans {
			plans[i] = toolPlan{
				id:       fmt.Sprintf("call_%d", i),
				progress: rapid.IntRange(0, 3).Draw(t, "progress"),
				ok:       rapid.Bool().Draw(t, "ok"),
				duration: rapid.Int64Range(0, 5000).Draw(t, "duration"),
			}
			for k := 0; k <= plans[i].progress; k++ {
				canonical = append(canonical, i)
			}
		}
		shuffled := rapid.Permutation(canonical).Draw(t, "arrival")
		batchID := rapid.SampledFrom([]string{"", "msg_1"}).Draw(t, "batch")
		want := finalJSON(t, batchTrace(plans, canonical, batchID))
		got := finalJSON(t, batchTrace(plans, shuffled, batchID))
		if got != want {
			t.Fatalf("final timeline depends on arrival order %v\nin order: %s\nshuffled: %s", shuffled, want, got)
		}
	})
}

// TestNoLiveToolAfterTurnEnd checks SPEC §5.4 and §5.5 on arbitrary
// interleavings with cancels: every started tool appears exactly once, and
// after turn_end or cancel nothing is live.
func TestNoLiveToolAfterTurnEnd(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		e := engine.New(engine.Options{})
		started := map[string]int{}
		n := rapid.IntRange(1, 40).Draw(t, "events")
		for i := 1; i <= n; i++ {
			ev := event.Event{Seq: int64(i), T: int64(i), ID: rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "id")}
			switch rapid.IntRange(0, 4).Draw(t, "kind") {
			case 0, 1:
				ev.Kind, ev.Name = event.KindToolStart, "bash"
				started[ev.ID]++
			case 2:
				ev.Kind, ev.OK = event.KindToolDone, true
			case 3:
				ev.Kind = event.KindCancel
			default:
				ev.Kind = event.KindTurnEnd
			}
			e.Apply(&ev)
			seen := map[string]int{}
			live := 0
			for _, it := range e.Timeline().Items {
				it.EachTool(func(tool *timeline.Tool) bool {
					seen[tool.ID]++
					if !tool.Status.Terminal() {
						live++
					}
					return true
				})
			}
			if fmt.Sprint(seen) != fmt.Sprint(started) {
				t.Fatalf("after seq %d: tools shown %v, started %v", i, seen, started)
			}
			if (ev.Kind == event.KindCancel || ev.Kind == event.KindTurnEnd) && live > 0 {
				t.Fatalf("after %s at seq %d: %d tools still live", ev.Kind, i, live)
			}
		}
	})
}
