package planted

import (
	"bytes"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/rebuild"
	"github.com/toolsim/toolsim/timeline"
)

// Mutants of the reference engine, one per rule of SPEC §2 that real agent
// UIs have broken: each bends one thing — the events it is given, what it
// shows, or what it rebuilds from a log — and documents what toolsim
// catches. The default campaign (every fault, swarm) must catch each
// within 1,000 seeds without --diff, and shrink it to ≤ 12 events.

// Bent is the reference engine with one thing bent. It does not report
// changed items, so the harness compares every item whose version moved.
type Bent struct {
	e      *engine.Engine
	Input  func(e *engine.Engine, ev *event.Event) *event.Event // nil: unchanged
	View   func(t *timeline.Tool)                               // applied to a copy of every tool shown
	Reload func(t *timeline.Tool)                               // applied to every tool the engine rebuilds
}

// Apply applies ev, bent by Input.
func (m *Bent) Apply(ev *event.Event) {
	if m.Input != nil {
		if ev = m.Input(m.e, ev); ev == nil {
			return
		}
	}
	m.e.Apply(ev)
}

// Finish ends the stream.
func (m *Bent) Finish() { m.e.Finish() }

// Timeline is the engine's, bent by View.
func (m *Bent) Timeline() *timeline.Timeline {
	tl := m.e.Timeline()
	if m.View == nil {
		return tl
	}
	cp := *tl
	cp.Items = BendTools(tl.Items, m.View)
	return &cp
}

// Reconstruct rebuilds a log with toolsim's rebuild, then bends it.
func (m *Bent) Reconstruct(log []byte) (*timeline.Timeline, error) {
	res, err := rebuild.Rebuild(bytes.NewReader(log), rebuild.Options{})
	if err != nil {
		return nil, err
	}
	tl := *res.Timeline()
	if m.Reload != nil {
		tl.Items = BendTools(tl.Items, m.Reload)
	}
	return &tl, nil
}

// Mutate returns engines bent as m is.
func Mutate(m Bent) func() harness.Engine {
	return func() harness.Engine {
		cp := m
		cp.e = engine.New(engine.Options{})
		return &cp
	}
}

// Rewrite returns an input mutation that changes some events.
func Rewrite(f func(e *engine.Engine, ev event.Event) *event.Event) func(*engine.Engine, *event.Event) *event.Event {
	return func(e *engine.Engine, ev *event.Event) *event.Event { return f(e, *ev) }
}

// Mutant is one bent engine: what it breaks, new instances, and the
// options it is checked with.
type Mutant struct {
	Name   string
	Engine func() harness.Engine
	Opts   harness.Options
}

// Mutants lists the mutants, one per rule of SPEC §2 that real agent UIs
// have broken.
var Mutants = []Mutant{
	{"pairing: a result goes to the newest live tool", Mutate(Bent{Input: Rewrite(func(e *engine.Engine, ev event.Event) *event.Event {
		if live := e.Live(); ev.Kind == event.KindToolDone && len(live) > 0 {
			ev.ID = live[len(live)-1]
		}
		return &ev
	})}), harness.Options{}},
	{"pairing: progress goes to the oldest live tool", Mutate(Bent{Input: Rewrite(func(e *engine.Engine, ev event.Event) *event.Event {
		if live := e.Live(); ev.Kind == event.KindToolProgress && len(live) > 0 {
			ev.ID = live[0]
		}
		return &ev
	})}), harness.Options{}},
	{"grouping: batch ids ignored", Mutate(Bent{Input: Rewrite(func(_ *engine.Engine, ev event.Event) *event.Event {
		ev.Batch = ""
		return &ev
	})}), harness.Options{}},
	{"meta tools: grouped like any tool", func() harness.Engine {
		return &Bent{e: engine.New(engine.Options{MetaTools: []string{}})}
	}, harness.Options{}},
	{"status: denied shown as failed", Mutate(Bent{View: func(t *timeline.Tool) {
		if t.Status == timeline.StatusDenied {
			t.Status = timeline.StatusFailed
		}
	}}), harness.Options{}},
	{"status: interrupted shown as failed", Mutate(Bent{View: func(t *timeline.Tool) {
		if t.Status == timeline.StatusInterrupted {
			t.Status = timeline.StatusFailed
		}
	}}), harness.Options{}},
	{"status: pending shown as running", Mutate(Bent{View: func(t *timeline.Tool) {
		if t.Status == timeline.StatusPending {
			t.Status = timeline.StatusRunning
		}
	}}), harness.Options{}},
	{"durations: one millisecond off", Mutate(Bent{View: func(t *timeline.Tool) {
		if t.Status.Terminal() {
			t.DurationMS++
		}
	}}), harness.Options{}},
	{"durations: a result's duration_ms ignored", Mutate(Bent{Input: Rewrite(func(_ *engine.Engine, ev event.Event) *event.Event {
		ev.DurationMS = nil
		return &ev
	})}), harness.Options{}},
	{"parents: children shown at top level", Mutate(Bent{Input: Rewrite(func(_ *engine.Engine, ev event.Event) *event.Event {
		ev.Parent = ""
		return &ev
	})}), harness.Options{}},
	{"progress: output not streamed", Mutate(Bent{Input: Rewrite(func(_ *engine.Engine, ev event.Event) *event.Event {
		if ev.Kind == event.KindToolProgress {
			ev.Output = ""
		}
		return &ev
	})}), harness.Options{}},
	{"progress: updates not counted", Mutate(Bent{View: func(t *timeline.Tool) {
		t.UpdateSeq = 0
	}}), harness.Options{}},
	{"results: an error's text dropped", Mutate(Bent{View: func(t *timeline.Tool) {
		t.Error = ""
	}}), harness.Options{}},
	{"reload: a cancelled tool comes back failed", Mutate(Bent{Reload: func(t *timeline.Tool) {
		if t.Status == timeline.StatusInterrupted {
			t.Status = timeline.StatusFailed
		}
	}}), harness.Options{Reload: true}},
}
