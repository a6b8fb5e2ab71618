package campaign

import (
	"slices"
	"sync"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
)

// RunExhaustive checks every trace of an exhaustive enumeration (every
// causal ordering of one batch, every cancel point) with the per-event
// oracles, order independence and live == rebuilt (the log persisted
// without faults); the replay-twice oracle, which does not depend on event
// order, is left to seeded campaigns. It uses camp's Workers, Check,
// NoShrink, Progress and Stop, and sets the collector as [Campaign.Run]
// does; it stops at the first failure in enumeration order (one finding,
// its Seed the trace's index), shrunk inside the domain of the faults an
// enumeration holds (cancels).
func RunExhaustive(newEngine func() harness.Engine, opts sim.ExhaustiveOptions, camp Campaign) (*Report, error) {
	total, err := sim.ExhaustiveCount(opts)
	if err != nil {
		return nil, err
	}
	camp.StopAtFirst, camp.MaxFindings, camp.Baseline = true, 0, nil
	defer relaxGC()()
	workers := max(camp.Workers, 1)
	r := newRun(&camp, newEngine, workers, total)
	jobs := make(chan exJob, 64)
	parts := make([]*Report, workers)
	var wg sync.WaitGroup
	for w := range workers {
		parts[w] = newReport()
		wg.Go(func() {
			for j := range jobs {
				r.checkTrace(j.i, j.evs, parts[w])
				r.yield()
			}
		})
	}
	err = r.produce(opts, jobs)
	close(jobs)
	wg.Wait()
	rep := merge(parts)
	rep.Interrupted = r.stopped.Load()
	if r.lowest >= 0 && !rep.Interrupted {
		rep = recountExhaustive(opts, r.lowest, camp.Check)
	}
	// The enumeration does not follow a contract: an ordering outside it
	// is shrunk outside it, and its findings are labelled robustness.
	r.dom = Domain{Faults: exhaustiveFaults, Features: camp.Sim.Features, Contract: camp.Check.Contract.Guarantees}
	r.finish(rep)
	markOrderings(rep)
	rep.Skipped = exhaustiveSkips(camp.Check)
	if err == nil && r.fault != nil {
		rep.Toolsim, err = r.fault, r.fault
	}
	return rep, err
}

// markOrderings says of every failure of rep that its Seed is an
// ordering's index.
func markOrderings(rep *Report) {
	for _, fd := range rep.Findings {
		fd.Exhaustive = true
	}
	if rep.Failure != nil {
		rep.Failure.Exhaustive = true
	}
}

// exhaustiveFaults are the faults an exhaustive enumeration's traces hold:
// the cancel points, and the results that come after them.
var exhaustiveFaults = fault.List{fault.Cancel, fault.LateResult}

// Why exhaustive mode leaves some oracles to seeded campaigns.
const (
	whyExhaustive = "exhaustive mode persists each ordering once, without log faults, and leaves it to seeded campaigns"
	whyEnumerated = "exhaustive orderings are enumerated, not generated from seeds, so none is generated twice"
	whyNoRecheck  = "Campaign.Recheck is negative: no seed is generated twice"
)

// exhaustiveSkips is opts.Skipped with the oracles exhaustive mode does
// not run, in the order of Oracles.
func exhaustiveSkips(opts harness.Options) []harness.Skip {
	out := opts.Skipped()
	if opts.SelfCheck {
		for _, n := range []string{harness.OracleReconnect, harness.OracleIdempot, harness.OracleReported} {
			out = append(out, harness.Skip{Oracle: n, Why: whyExhaustive})
		}
	}
	out = append(out, harness.Skip{Oracle: harness.OracleNondeterminism, Why: whyEnumerated})
	slices.SortStableFunc(out, func(a, b harness.Skip) int {
		return slices.Index(harness.Oracles, a.Oracle) - slices.Index(harness.Oracles, b.Oracle)
	})
	return out
}

// recountExhaustive counts traces, events and states over exactly the
// orderings up to the first failing one, whatever the workers had reached.
func recountExhaustive(ex sim.ExhaustiveOptions, lowest int64, opts harness.Options) *Report {
	rep := newReport()
	i := int64(0)
	sim.Exhaustive(ex, func(evs []event.Event) bool {
		rep.count(evs, nil, opts)
		i++
		return i <= lowest
	})
	return rep
}

// produce hands every ordering to the workers, until the first failure in
// enumeration order is known or the campaign is stopped.
func (r *run) produce(opts sim.ExhaustiveOptions, jobs chan<- exJob) error {
	i := int64(0)
	return sim.Exhaustive(opts, func(evs []event.Event) bool {
		r.mu.Lock()
		failed := r.lowest >= 0
		r.mu.Unlock()
		if failed || r.stop() {
			return false
		}
		jobs <- exJob{i, slices.Clone(evs)}
		i++
		return true
	})
}

type exJob struct {
	i   int64
	evs []event.Event
}

// checkTrace checks one enumerated trace.
func (r *run) checkTrace(i int64, evs []event.Event, rep *Report) {
	r.mu.Lock()
	skip := r.lowest >= 0 && i > r.lowest
	r.mu.Unlock()
	if skip {
		return
	}
	c := &harness.Case{Events: evs, BatchIDs: sim.AllBatched(evs), NoTwice: true}
	found := r.screen(i, uint64(i), distinct(r.screen(i, uint64(i), r.check(c, rep))))
	rep.Scenarios++
	rep.Events += len(evs)
	r.record(i, uint64(i), c, found)
}
