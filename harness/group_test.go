package harness_test

import (
	"fmt"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/timeline"
)

// wideGroup is a turn of n calls started together, so that they form one
// group, whose results then arrive in reverse order.
func wideGroup(n int) []event.Event {
	evs := []event.Event{{Kind: event.KindTurnStart, Role: event.RoleAssistant}}
	for i := range n {
		evs = append(evs, event.Event{Kind: event.KindToolStart, ID: fmt.Sprintf("c%d", i), Name: "grep"})
	}
	for i := n - 1; i >= 0; i-- {
		evs = append(evs, event.Event{Kind: event.KindToolDone, ID: fmt.Sprintf("c%d", i), OK: true, Output: "ok"})
	}
	evs = append(evs, event.Event{Kind: event.KindTurnEnd})
	for i := range evs {
		evs[i].Seq, evs[i].T = int64(i+1), int64(i+1)
	}
	return evs
}

// TestWideGroups: a group too wide to outline whole at every event is
// compared in part (its header and the tools the event changed) between
// checkpoints, and whole at checkpoints and at the end; a wrong result on
// the event's own tool is still caught at that event, and damage to
// another tool at the end.
func TestWideGroups(t *testing.T) {
	const n = 300
	evs := wideGroup(n)
	if found := harness.CheckWith(reference, evs, harness.Options{}); len(found) > 0 {
		t.Fatalf("the reference engine fails on a group of %d: %v", n, found[0])
	}
	// A result for c100 lands on c101: the event's own tool differs.
	wrongTool := wrap(func(e *engine.Engine, ev *event.Event) {
		if ev.Kind == event.KindToolDone && ev.ID == "c100" {
			cp := *ev
			cp.ID = "c101"
			ev = &cp
		}
		e.Apply(ev)
	})
	found := harness.CheckWith(wrongTool, evs, harness.Options{First: true})
	if want := int64(n + 1 + (n - 100)); len(found) == 0 || found[0].Seq != want {
		t.Errorf("result paired with the wrong tool of a wide group: %v, want a violation at seq %d", found, want)
	}
	// The last start quietly renames tool c7, which that event does not
	// name: the step compares the group in part and misses it, but the
	// damage stays and a later comparison must catch it.
	quiet := wrap(func(e *engine.Engine, ev *event.Event) {
		e.Apply(ev)
		if ev.Kind == event.KindToolStart && ev.ID == fmt.Sprintf("c%d", n-1) {
			for _, it := range e.Timeline().Items {
				it.EachTool(func(tool *timeline.Tool) bool {
					if tool.ID == "c7" {
						tool.Name = "renamed"
					}
					return true
				})
			}
		}
	})
	if found := harness.CheckWith(quiet, evs, harness.Options{First: true}); len(found) == 0 {
		t.Errorf("a tool of a wide group changed with no event: not caught")
	}
}

// finishRenames is the reference engine that renames one tool when the
// stream ends.
type finishRenames struct {
	*engine.Engine
	id string
}

func (f finishRenames) Finish() {
	f.Engine.Finish()
	for _, it := range f.Timeline().Items {
		it.EachTool(func(tool *timeline.Tool) bool {
			if tool.ID == f.id {
				tool.Name = "renamed"
			}
			return true
		})
	}
}

// TestWideGroupsAtTheEnd: at the end a group wider than a round is
// compared a slice of tools at a time; damage in any slice is caught, and
// the reference engine passes.
func TestWideGroupsAtTheEnd(t *testing.T) {
	const n = 9000                                                                                      // three slices of tools
	evs := wideGroup(n)[:n+1]                                                                           // the starts only: the turn stays open
	evs = append(evs, event.Event{Seq: int64(n + 2), T: int64(n + 2), Kind: event.KindText, Text: "x"}) // ends the run of starts
	if found := harness.CheckWith(reference, evs, harness.Options{}); len(found) > 0 {
		t.Fatalf("the reference engine fails on a group of %d: %v", n, found[0])
	}
	for _, id := range []string{"c5", "c5000", "c8999"} {
		eng := func() harness.Engine { return finishRenames{engine.New(engine.Options{}), id} }
		found := harness.CheckWith(eng, evs, harness.Options{First: true})
		if len(found) == 0 || found[0].Oracle != harness.OracleModel {
			t.Errorf("%s renamed at the end: %v, want a model violation", id, found)
		}
	}
}
