package harness_test

import (
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/timeline"
)

// Planted bugs: engines that are wrong in the ways real agents were (SPEC
// §6), built by bending the reference engine. The campaign must catch each
// within 1,000 seeds and shrink it to a regression of at most 12 events.

// lastItemPairing pairs every progress and result with the most recently
// started live tool, whatever its id.
func lastItemPairing() harness.Engine {
	return broken{engine.New(engine.Options{}), func(e *engine.Engine, ev *event.Event) {
		if live := e.Live(); (ev.Kind == event.KindToolDone || ev.Kind == event.KindToolProgress) && len(live) > 0 {
			cp := *ev
			cp.ID = live[len(live)-1]
			ev = &cp
		}
		e.Apply(ev)
	}}
}

// nameFIFOPairing pairs a result with the oldest live tool of the same name.
func nameFIFOPairing() harness.Engine {
	names := map[string]string{}
	return broken{engine.New(engine.Options{}), func(e *engine.Engine, ev *event.Event) {
		switch ev.Kind {
		case event.KindToolStart:
			names[ev.ID] = ev.Name
		case event.KindToolDone:
			for _, id := range e.Live() {
				if name, ok := names[ev.ID]; ok && names[id] == name {
					cp := *ev
					cp.ID = id
					ev = &cp
					break
				}
			}
		}
		e.Apply(ev)
	}}
}

// cancelLeavesSpinner forgets the newest live tool when the user cancels.
func cancelLeavesSpinner() harness.Engine {
	return reopenAfter(event.KindCancel, func(live []string) []string { return live[len(live)-1:] })
}

// reopenAfter applies each event, and after one of kind shows the tools
// pick chooses among those live before it as running again.
func reopenAfter(kind event.Kind, pick func(live []string) []string) harness.Engine {
	return broken{engine.New(engine.Options{}), func(e *engine.Engine, ev *event.Event) {
		live := e.Live()
		e.Apply(ev)
		if ev.Kind != kind || len(live) == 0 {
			return
		}
		open := map[string]bool{}
		for _, id := range pick(live) {
			open[id] = true
		}
		for _, it := range e.Timeline().Items {
			it.EachTool(func(t *timeline.Tool) bool {
				if open[t.ID] {
					t.Status = timeline.StatusRunning
				}
				return true
			})
		}
	}}
}

// upgradeLosesFirst drops the first tool when a tool item becomes a group.
func upgradeLosesFirst() harness.Engine {
	return broken{engine.New(engine.Options{}), func(e *engine.Engine, ev *event.Event) {
		e.Apply(ev)
		if ev.Kind != event.KindToolStart {
			return
		}
		for _, it := range e.Timeline().Items {
			if it.Kind == timeline.ItemToolGroup && len(it.Tools) == 2 && it.Tools[1].ID == ev.ID {
				it.Tools = it.Tools[1:]
			}
		}
	}}
}

func TestPlantedBugsAreCaughtAndShrunk(t *testing.T) {
	tests := []struct {
		name   string
		engine func() harness.Engine
	}{
		{"pairing with the last item", lastItemPairing},
		{"pairing by name first-in-first-out", nameFIFOPairing},
		{"cancel leaves a spinner", cancelLeavesSpinner},
		{"group upgrade loses its first tool", upgradeLosesFirst},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := caughtAndShrunk(t, tt.engine, harness.Options{})
			t.Logf("seed %d: %s; shrunk %d → %d events in %d tests", f.Seed, f.Violation.Oracle, len(f.Case.Events), len(f.Shrunk.Events), f.Tests)
			for _, ev := range f.Shrunk.Events {
				t.Logf("  %s", event.AppendEvent(nil, &ev))
			}
			t.Log(f.ShrunkBy)
		})
	}
}
