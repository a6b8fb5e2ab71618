package harness_test

import (
	"bytes"
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/rebuild"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
)

// Mutants of the reference engine, one per rule of SPEC §2 that real agent
// UIs have broken: each bends one thing — the events it is given, what it
// shows, or what it rebuilds from a log — and documents what toolsim
// catches. The default campaign (every fault, swarm) must catch each
// within 1,000 seeds without --diff, and shrink it to ≤ 12 events.

// mutant is the reference engine with one thing bent. It does not report
// changed items, so the harness compares every item whose version moved.
type mutant struct {
	e      *engine.Engine
	input  func(e *engine.Engine, ev *event.Event) *event.Event // nil: unchanged
	view   func(t *timeline.Tool)                               // applied to a copy of every tool shown
	reload func(t *timeline.Tool)                               // applied to every tool the engine rebuilds
}

func (m *mutant) Apply(ev *event.Event) {
	if m.input != nil {
		if ev = m.input(m.e, ev); ev == nil {
			return
		}
	}
	m.e.Apply(ev)
}

func (m *mutant) Finish() { m.e.Finish() }

func (m *mutant) Timeline() *timeline.Timeline {
	tl := m.e.Timeline()
	if m.view == nil {
		return tl
	}
	cp := *tl
	cp.Items = bend(tl.Items, m.view)
	return &cp
}

// Reconstruct rebuilds a log with toolsim's rebuild, then bends it.
func (m *mutant) Reconstruct(log []byte) (*timeline.Timeline, error) {
	res, err := rebuild.Rebuild(bytes.NewReader(log), rebuild.Options{})
	if err != nil {
		return nil, err
	}
	tl := *res.Timeline()
	if m.reload != nil {
		tl.Items = bend(tl.Items, m.reload)
	}
	return &tl, nil
}

// bend copies items, applying f to every tool. Copies carry no version.
func bend(items []*timeline.Item, f func(*timeline.Tool)) []*timeline.Item {
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
	c.Children = bend(t.Children, f)
	f(&c)
	return &c
}

func mutate(m mutant) func() harness.Engine {
	return func() harness.Engine {
		cp := m
		cp.e = engine.New(engine.Options{})
		return &cp
	}
}

// rewrite returns an input mutation that changes some events.
func rewrite(f func(e *engine.Engine, ev event.Event) *event.Event) func(*engine.Engine, *event.Event) *event.Event {
	return func(e *engine.Engine, ev *event.Event) *event.Event { return f(e, *ev) }
}

var mutants = []struct {
	name string
	eng  func() harness.Engine
	opts harness.Options
}{
	{"pairing: a result goes to the newest live tool", mutate(mutant{input: rewrite(func(e *engine.Engine, ev event.Event) *event.Event {
		if live := e.Live(); ev.Kind == event.KindToolDone && len(live) > 0 {
			ev.ID = live[len(live)-1]
		}
		return &ev
	})}), harness.Options{}},
	{"pairing: progress goes to the oldest live tool", mutate(mutant{input: rewrite(func(e *engine.Engine, ev event.Event) *event.Event {
		if live := e.Live(); ev.Kind == event.KindToolProgress && len(live) > 0 {
			ev.ID = live[0]
		}
		return &ev
	})}), harness.Options{}},
	{"grouping: batch ids ignored", mutate(mutant{input: rewrite(func(_ *engine.Engine, ev event.Event) *event.Event {
		ev.Batch = ""
		return &ev
	})}), harness.Options{}},
	{"meta tools: grouped like any tool", func() harness.Engine {
		return &mutant{e: engine.New(engine.Options{MetaTools: []string{}})}
	}, harness.Options{}},
	{"status: denied shown as failed", mutate(mutant{view: func(t *timeline.Tool) {
		if t.Status == timeline.StatusDenied {
			t.Status = timeline.StatusFailed
		}
	}}), harness.Options{}},
	{"status: interrupted shown as failed", mutate(mutant{view: func(t *timeline.Tool) {
		if t.Status == timeline.StatusInterrupted {
			t.Status = timeline.StatusFailed
		}
	}}), harness.Options{}},
	{"status: pending shown as running", mutate(mutant{view: func(t *timeline.Tool) {
		if t.Status == timeline.StatusPending {
			t.Status = timeline.StatusRunning
		}
	}}), harness.Options{}},
	{"durations: one millisecond off", mutate(mutant{view: func(t *timeline.Tool) {
		if t.Status.Terminal() {
			t.DurationMS++
		}
	}}), harness.Options{}},
	{"durations: a result's duration_ms ignored", mutate(mutant{input: rewrite(func(_ *engine.Engine, ev event.Event) *event.Event {
		ev.DurationMS = nil
		return &ev
	})}), harness.Options{}},
	{"parents: children shown at top level", mutate(mutant{input: rewrite(func(_ *engine.Engine, ev event.Event) *event.Event {
		ev.Parent = ""
		return &ev
	})}), harness.Options{}},
	{"progress: output not streamed", mutate(mutant{input: rewrite(func(_ *engine.Engine, ev event.Event) *event.Event {
		if ev.Kind == event.KindToolProgress {
			ev.Output = ""
		}
		return &ev
	})}), harness.Options{}},
	{"progress: updates not counted", mutate(mutant{view: func(t *timeline.Tool) {
		t.UpdateSeq = 0
	}}), harness.Options{}},
	{"results: an error's text dropped", mutate(mutant{view: func(t *timeline.Tool) {
		t.Error = ""
	}}), harness.Options{}},
	{"reload: a cancelled tool comes back failed", mutate(mutant{reload: func(t *timeline.Tool) {
		if t.Status == timeline.StatusInterrupted {
			t.Status = timeline.StatusFailed
		}
	}}), harness.Options{Reload: true}},
}

// TestMutantsAreCaughtAndShrunk is toolsim's mutation score: every mutant
// is caught by the default campaign within 1,000 seeds and shrunk to a
// regression of at most 12 events that fails the same oracle.
func TestMutantsAreCaughtAndShrunk(t *testing.T) {
	for _, tt := range mutants {
		t.Run(tt.name, func(t *testing.T) {
			f := caughtAndShrunk(t, tt.eng, tt.opts)
			t.Logf("seed %d: %s; shrunk %d → %d events", f.Seed, f.Violation.Oracle, len(f.Case.Events), len(f.Shrunk.Events))
		})
	}
}

// caughtAndShrunk runs the default campaign (1,000 seeds, every fault,
// swarm) against an engine, stopping at the first failing seed, and
// asserts that it fails and that the failure shrinks to at most 12 events
// failing with the same signature. (One campaign finding several bugs is
// TestOneCampaignFindsEveryBug.)
func caughtAndShrunk(t *testing.T, eng func() harness.Engine, opts harness.Options) *harness.Failure {
	t.Helper()
	camp := harness.Campaign{Seeds: 1000, Workers: 2, StopAtFirst: true, Check: opts, Sim: sim.Options{Faults: fault.All(), Swarm: true}}
	rep, err := camp.Run(eng)
	if err != nil {
		t.Fatal(err)
	}
	f := rep.Failure
	if f == nil {
		t.Fatalf("not caught in 1,000 seeds (%d scenarios checked)", rep.Scenarios)
	}
	if f.Shrunk == nil || len(f.Shrunk.Events) > 12 {
		t.Fatalf("seed %d (%s) shrank to %d events, want ≤ 12 (%s)", f.Seed, f.Violation.Oracle, len(f.Shrunk.Events), f.Note)
	}
	if f.ShrunkBy.Signature != f.Violation.Signature {
		t.Errorf("shrunk trace fails with %q, want the original signature %q", f.ShrunkBy.Signature, f.Violation.Signature)
	}
	t.Logf("signature: %s", f.Violation.Signature)
	return f
}
