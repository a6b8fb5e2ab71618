package planted

import (
	"slices"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/timeline"
)

// Reference is toolsim's reference engine, unbent.
func Reference() harness.Engine { return engine.New(engine.Options{}) }

// Broken is the reference engine with its Apply replaced.
type Broken struct {
	*engine.Engine
	Bend func(e *engine.Engine, ev *event.Event) // applies ev to e, wrongly
}

// Apply applies ev through Bend.
func (b Broken) Apply(ev *event.Event) { b.Bend(b.Engine, ev) }

// Wrap returns engines that apply each event through bend.
func Wrap(bend func(e *engine.Engine, ev *event.Event)) func() harness.Engine {
	return func() harness.Engine { return Broken{Engine: engine.New(engine.Options{}), Bend: bend} }
}

// LastItemPairing pairs every progress and result with the most recently
// started live tool, whatever its id.
func LastItemPairing() harness.Engine {
	return Wrap(func(e *engine.Engine, ev *event.Event) {
		if live := e.Live(); (ev.Kind == event.KindToolDone || ev.Kind == event.KindToolProgress) && len(live) > 0 {
			cp := *ev
			cp.ID = live[len(live)-1]
			ev = &cp
		}
		e.Apply(ev)
	})()
}

// NameFIFOPairing pairs a result with the oldest live tool of the same name.
func NameFIFOPairing() harness.Engine {
	names := map[string]string{}
	return Wrap(func(e *engine.Engine, ev *event.Event) {
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
	})()
}

// CancelLeavesSpinner forgets the newest live tool when the user cancels.
func CancelLeavesSpinner() harness.Engine {
	return ReopenAfter(event.KindCancel, func(live []string) []string { return live[len(live)-1:] })
}

// ReopenAfter applies each event, and after one of kind shows the tools
// pick chooses among those live before it as running again.
func ReopenAfter(kind event.Kind, pick func(live []string) []string) harness.Engine {
	return Wrap(func(e *engine.Engine, ev *event.Event) {
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
	})()
}

// SilentReopen shows the tools a cancel stopped as running again, from the
// event after the cancel on, by changing them in place: their items keep
// their versions. In process the oracles see it at that event; an engine
// served with deltas (engineproto.Serve) sends only the items whose
// version moved, so over the protocol the change never reaches toolsim
// and only a snapshot shows it.
func SilentReopen() harness.Engine {
	var stopped []string
	return Wrap(func(e *engine.Engine, ev *event.Event) {
		live := e.Live()
		e.Apply(ev)
		if len(stopped) > 0 {
			for _, it := range e.Timeline().Items {
				it.EachTool(func(t *timeline.Tool) bool {
					if slices.Contains(stopped, t.ID) {
						t.Status = timeline.StatusRunning
					}
					return true
				})
			}
		}
		stopped = nil
		if ev.Kind == event.KindCancel {
			stopped = live
		}
	})()
}

// UpgradeLosesFirst drops the first tool when a tool item becomes a group.
func UpgradeLosesFirst() harness.Engine {
	return Wrap(func(e *engine.Engine, ev *event.Event) {
		e.Apply(ev)
		if ev.Kind != event.KindToolStart {
			return
		}
		for _, it := range e.Timeline().Items {
			if it.Kind == timeline.ItemToolGroup && len(it.Tools) == 2 && it.Tools[1].ID == ev.ID {
				it.Tools = it.Tools[1:]
			}
		}
	})()
}

// BendTools copies items, applying f to every tool. Copies carry no version.
func BendTools(items []*timeline.Item, f func(*timeline.Tool)) []*timeline.Item {
	out := make([]*timeline.Item, len(items))
	for i, it := range items {
		c := *it
		c.Version = 0
		if c.Tool != nil {
			c.Tool = bendTool(c.Tool, f)
		}
		c.Tools = nil
		for _, t := range it.Tools {
			c.Tools = append(c.Tools, bendTool(t, f))
		}
		out[i] = &c
	}
	return out
}

func bendTool(t *timeline.Tool, f func(*timeline.Tool)) *timeline.Tool {
	c := *t
	c.Children = BendTools(t.Children, f)
	f(&c)
	return &c
}
