package campaign_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/harness/campaign"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
)

// TestGuidedIndependentOfWorkers: a guided run's scenarios, findings and
// guidance are the same on one worker and on three.
func TestGuidedIndependentOfWorkers(t *testing.T) {
	run := func(workers int) string {
		camp := campaign.Campaign{Seeds: 300, Workers: workers, Guided: true, NoShrink: true, Sim: sim.Options{Faults: fault.All(), Swarm: true}}
		rep, err := camp.Run(withBugs(plantedBugs...))
		if err != nil {
			t.Fatal(err)
		}
		if rep.Guide == nil || rep.Guide.Mutants == 0 {
			t.Fatalf("guide %+v: want mutants", rep.Guide)
		}
		out := fmt.Sprintf("%d scenarios, %d events, guide %+v, faults %v\n", rep.Scenarios, rep.Events, *rep.Guide, rep.Faults)
		for _, f := range rep.Findings {
			out += fmt.Sprintf("seed %d ×%d %s: %d events\n", f.Seed, f.Count, f.Signature, len(f.Case.Events))
		}
		return out
	}
	one := run(1)
	if diff := cmp.Diff(one, run(3)); diff != "" {
		t.Errorf("guided run differs with 3 workers (-1 worker +3 workers):\n%s", diff)
	}
}

// TestGuidedFindsEveryBugSooner is guidance's measure on the four planted
// bugs (TestOneCampaignFindsEveryBug): the scenarios until every bug
// class was first seen, plain and guided, over four seed ranges. Guided
// must see every class, and in all no later than plain does.
func TestGuidedFindsEveryBugSooner(t *testing.T) {
	total := map[bool]uint64{}
	for _, first := range []uint64{0, 1000, 2000, 3000} {
		for _, guided := range []bool{false, true} {
			camp := campaign.Campaign{Seeds: 200, FirstSeed: first, Workers: 2, Guided: guided, Sim: sim.Options{Faults: fault.All(), Swarm: true}}
			rep, err := camp.Run(withBugs(plantedBugs...))
			if err != nil {
				t.Fatal(err)
			}
			classes := rep.Classes()
			by := uint64(0)
			for _, c := range classes {
				seen := c.Findings[0].Seed
				for _, f := range c.Findings {
					seen = min(seen, f.Seed)
				}
				by = max(by, seen-first+1)
			}
			t.Logf("seeds %d…: guided %v: %d classes, all seen within %d scenarios", first, guided, len(classes), by)
			if guided && len(classes) < len(plantedBugs) {
				t.Errorf("seeds %d…: guided run saw %d classes, want %d", first, len(classes), len(plantedBugs))
			}
			total[guided] += by
		}
	}
	if total[true] > total[false] {
		t.Errorf("guided runs saw every class within %d scenarios in all, plain within %d: want no more", total[true], total[false])
	}
}

// TestGuidedStaysInDomain: every scenario a guided run checks is inside
// the run's domain, mutants included: a run without reused ids or second
// results never checks one.
func TestGuidedStaysInDomain(t *testing.T) {
	faults := fault.List{fault.Order, fault.Cancel, fault.MissingResult}
	var traces [][]event.Event
	rec := func() harness.Engine { return &recorder{Engine: withBugs()(), traces: &traces} }
	camp := campaign.Campaign{Seeds: 200, Workers: 1, Guided: true, NoShrink: true, Recheck: -1, Sim: sim.Options{Faults: faults, Swarm: true}}
	rep, err := camp.Run(rec)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Guide.Mutants == 0 || len(traces) < rep.Scenarios {
		t.Fatalf("%d mutants, %d traces fed for %d scenarios: want mutants, and every scenario fed", rep.Guide.Mutants, len(traces), rep.Scenarios)
	}
	dom := campaign.Domain{Faults: faults}
	for _, evs := range traces {
		if why := dom.Outside(evs, harness.Options{}); why != "" {
			t.Fatalf("a checked trace of %d events is outside the run's domain: %s", len(evs), why)
		}
	}
}

// recorder is an engine that keeps every trace it is fed.
type recorder struct {
	harness.Engine
	traces *[][]event.Event
	evs    []event.Event
}

func (r *recorder) Apply(ev *event.Event) {
	r.evs = append(r.evs, *ev)
	r.Engine.Apply(ev)
}

func (r *recorder) Finish() {
	*r.traces = append(*r.traces, r.evs)
	r.Engine.Finish()
}

func (r *recorder) Timeline() *timeline.Timeline { return r.Engine.Timeline() }

// TestGuidedStopRule: a guided run cut by a stop rule ends, and its
// report (findings, their traces, the coverage counted up to the cut, the
// mutants) is the same on one worker and on three: the mutants made again
// after the run, to count and regenerate, are those that ran.
func TestGuidedStopRule(t *testing.T) {
	run := func(workers int) string {
		camp := campaign.Campaign{Seeds: 500, Workers: workers, Guided: true, MaxFindings: 6, NoShrink: true, Sim: sim.Options{Faults: fault.All(), Swarm: true}}
		rep, err := camp.Run(withBugs(plantedBugs...))
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Findings) != 6 {
			t.Fatalf("%d workers: %d findings, want 6", workers, len(rep.Findings))
		}
		out := fmt.Sprintf("%d scenarios, %d events, %d mutants, faults %v, states %v\n", rep.Scenarios, rep.Events, rep.Guide.Mutants, rep.Faults, rep.States)
		for _, f := range rep.Findings {
			var trace []byte
			for k := range f.Case.Events {
				trace = event.AppendEvent(trace, &f.Case.Events[k])
			}
			out += fmt.Sprintf("seed %d ×%d %s: %s\n", f.Seed, f.Count, f.Signature, trace)
		}
		return out
	}
	one := run(1)
	if !strings.Contains(one, "mutants") || strings.Contains(one, " 0 mutants") {
		t.Fatalf("no mutant before the cut:\n%s", one)
	}
	if diff := cmp.Diff(one, run(3)); diff != "" {
		t.Errorf("guided run cut by a stop rule differs with 3 workers (-1 worker +3 workers):\n%s", diff)
	}
}
