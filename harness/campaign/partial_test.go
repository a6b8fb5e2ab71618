package campaign_test

import (
	"testing"

	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/harness/internal/planted"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
)

// partial is an engine as a small UI team writes one: it fills none of the
// optional timeline fields ("fields": []) and supports only tool calls,
// text and cancel. bend, when set, plants a bug in what it is given.
type partial struct {
	e    *engine.Engine
	bend func(e *engine.Engine, ev *event.Event) *event.Event
}

func (p *partial) Apply(ev *event.Event) {
	if p.bend != nil {
		ev = p.bend(p.e, ev)
	}
	p.e.Apply(ev)
}

func (p *partial) Finish() { p.e.Finish() }

func (p *partial) Timeline() *timeline.Timeline {
	tl := *p.e.Timeline()
	tl.Diagnostics = nil
	tl.Items = planted.BendTools(tl.Items, func(t *timeline.Tool) {
		t.Output, t.UpdateSeq, t.Error, t.Summary, t.DurationMS, t.EndT = "", 0, "", "", 0, 0
	})
	return &tl
}

var partialOpts = harness.Options{
	Fields:   []string{},
	Features: sim.FeatureList{sim.FeatureTools, sim.FeatureText, sim.FeatureCancel},
}

func partialEngine(bug func(e *engine.Engine, ev *event.Event) *event.Event) func() harness.Engine {
	return func() harness.Engine { return &partial{e: engine.New(engine.Options{}), bend: bug} }
}

// TestPartialEngine: an engine that declares no optional field and
// supports only tools, text and cancel passes 2,000 seeds under its own
// options, and each planted bug is caught and shrunk to ≤ 12 events with
// them (the shrinker never stops on a field the engine does not fill).
func TestPartialEngine(t *testing.T) {
	camp := campaign.Campaign{Seeds: 2000, Workers: 2, Check: partialOpts, Sim: sim.Options{Faults: fault.All(), Swarm: true}}
	rep, err := camp.Run(partialEngine(nil))
	if err != nil || rep.Failure != nil || len(rep.Missing) > 0 {
		t.Fatalf("err %v, failure %v, missing %v", err, rep.Failure, rep.Missing)
	}
	if len(rep.LeftOut) == 0 {
		t.Errorf("no fault class was left out for features %s", partialOpts.Features)
	}
	bugs := map[string]func(e *engine.Engine, ev *event.Event) *event.Event{
		"result to the newest live tool": func(e *engine.Engine, ev *event.Event) *event.Event {
			if live := e.Live(); ev.Kind == event.KindToolDone && len(live) > 0 {
				cp := *ev
				cp.ID = live[len(live)-1]
				return &cp
			}
			return ev
		},
		"cancel ignored": func(_ *engine.Engine, ev *event.Event) *event.Event {
			if ev.Kind == event.KindCancel {
				return &event.Event{Seq: ev.Seq, T: ev.T, Kind: "ignored"}
			}
			return ev
		},
	}
	for name, bug := range bugs {
		t.Run(name, func(t *testing.T) {
			f := caughtAndShrunk(t, partialEngine(bug), partialOpts)
			t.Logf("seed %d: %s, shrunk %d → %d events", f.Seed, f.Violation.Oracle, len(f.Case.Events), len(f.Shrunk.Events))
		})
	}
}
