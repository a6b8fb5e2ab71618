package campaign

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/timeline"
)

// Campaign runs many generated scenarios through an engine with every
// oracle and collects its findings: the distinct signatures its failing
// seeds fail with, each shrunk inside the run's domain and confirmed on a
// fresh engine. Seeds run on parallel workers, but the outcome does not
// depend on scheduling: each finding names its lowest failing seed, and a
// stop rule (StopAtFirst, MaxFindings) cuts the range at a seed index.
type Campaign struct {
	Seeds     int    // how many seeds (default 1000)
	FirstSeed uint64 // the first seed of the range
	// Shard, Shards split the range for CI matrices: shard K of N (1-based)
	// runs the K-th of N contiguous slices. Zero means the whole range.
	Shard, Shards int
	Workers       int             // parallel workers (default 1)
	Sim           sim.Options     // what each seed generates
	Check         harness.Options // oracle options (First is ignored: each seed is checked in full, each shrink candidate up to its first violation)
	// Recheck runs every Recheck-th seed twice and compares the trace and
	// render hashes (the nondeterminism detector; default 10, <0 never).
	Recheck int
	// NoShrink leaves a failure unshrunk; a new finding's trace is still
	// checked again on a fresh engine (Finding.Flaky).
	NoShrink bool
	// Racy says the engine races (a real app read on the wall clock): a
	// new finding that does not fail again on a fresh engine is reported
	// flaky but does not fail the run (Report.New). One that does, fails.
	Racy bool
	// Robustness also generates outside the engine's contract
	// (Check.Contract): every fault asked for is drawn, and a finding whose
	// repro the contract rules out is reported, labelled robustness
	// (Finding.Robustness). Off, the campaign generates, shrinks and
	// reports only inside the contract. Without a contract it changes
	// nothing.
	Robustness bool
	// Guided spends part of the run on mutants of the scenarios that
	// reached something new (guide.go): rare signatures come sooner. The
	// run still checks Seeds scenarios, and the same flags give the same
	// report when the engine is deterministic.
	Guided bool
	// StopAtFirst stops at the lowest failing seed, as campaigns did
	// before findings: one finding.
	StopAtFirst bool
	// MaxFindings, when positive, stops once that many distinct
	// signatures are found: the findings kept are those with the lowest
	// first seeds, over the seeds up to the last of their first seeds.
	MaxFindings int
	// Baseline lists known findings. Their repros are checked before any
	// seed; a finding whose signature it lists is Known, and the report
	// names the known signatures the run no longer finds (Report.Fixed).
	Baseline *Baseline

	baselinePath string // campaign.Fuzz's KnownFindings, read when it starts
	// Progress, when set, is called after each scenario (from the worker
	// goroutines, one call at a time).
	Progress func(done, total, failures int)
	// Stop, when closed, ends the campaign early (Ctrl-C, a time budget).
	Stop <-chan struct{}

	// gen and render, when set, stand in for sim.Generate and
	// render.Render: a test plants a nondeterministic step of toolsim's
	// own with them (export_test.go).
	gen    func(uint64, sim.Options) *sim.Scenario
	render func(*timeline.Timeline, render.Options) string
}

// Failure is a failing scenario, with its shrunk form.
type Failure struct {
	Seed      uint64
	Violation harness.Violation
	Case      *harness.Case // what failed, as generated
	Shrunk    *harness.Case // the smallest trace that fails the same oracle
	ShrunkBy  harness.Violation
	Tests     int    // candidates the shrinker tried
	Note      string // why the shrinker kept what it kept, when it could not do better
	// Exhaustive says Seed is the index of an ordering (RunExhaustive),
	// not a seed.
	Exhaustive bool
}

// Report is what a campaign found.
type Report struct {
	Scenarios int                 // scenarios checked
	Events    int                 // events applied (first replay only)
	Rechecked int                 // seeds generated and run twice
	Faults    map[fault.Fault]int // how often each fault was injected
	States    map[string]int      // how often each interesting state was reached
	// Findings lists every distinct signature found, by first seed (the
	// findings of the baseline's repros that no seed found come last).
	Findings []*Finding
	// Failure is the lowest-seed finding that is not in the baseline, or
	// nil: what a run that wants one failure looks at.
	Failure *Failure
	// Fixed lists the baseline's signatures this run did not find: their
	// repros pass and no seed failed with them.
	Fixed       []string
	Interrupted bool // Stop was closed before the end
	// Missing lists the enabled faults that no scenario injected: the
	// campaign did not test them, and fails for it.
	Missing fault.List
	// LeftOut lists the faults asked for that cannot land with the
	// engine's features (Options.Features) and the other faults asked
	// for, or that the engine's contract rules out: not generated, not
	// expected. Needs says, for each, why: "needs ..." what it lacks
	// (sim.FeatureList.Needs), or the guarantee that rules it out.
	LeftOut fault.List
	Needs   map[fault.Fault]string
	// Skipped lists the oracles the campaign did not run, and why
	// (Options.Skipped, and what exhaustive mode leaves to campaigns).
	Skipped []harness.Skip
	// Toolsim is toolsim's own fault at the lowest seed that met one (nil:
	// none), which Run also returns as its error.
	Toolsim *ToolsimError
	// Robustness says the campaign ran in robustness mode: its findings
	// outside the contract count (Campaign.Robustness).
	Robustness bool
	// Racy says a flaky new finding does not fail the run (Campaign.Racy).
	Racy bool
	// NoShrink says the findings were not shrunk (Campaign.NoShrink): one
	// seen only after another is not set apart, so more may count.
	NoShrink bool
	// Guide says what guidance did, when the run was Guided (else nil).
	Guide *Guide

	scratch map[string]int // one scenario's states, while it is checked
}

// OK reports whether the campaign found nothing wrong and reached every
// fault class it was asked to test.
// Known findings (in the baseline) do not count against it; flaky ones
// do, unless the campaign was Racy.
func (r *Report) OK() bool {
	return len(r.New()) == 0 && (len(r.Missing) == 0 || r.Interrupted)
}

// New lists the findings not in the baseline (flaky ones included), but
// not those seen only after another finding (Finding.After): they come
// back, or go, once that one is fixed; nor those that show the library's
// documented behaviour (Finding.Documented), nor, outside robustness
// mode, those whose repro the engine's contract rules out; nor, in a
// Racy campaign, the flaky ones and those of a known bug class
// (Finding.KnownClass).
func (r *Report) New() []*Finding {
	var out []*Finding
	for _, f := range r.Findings {
		if r.Racy && f.Flaky != "" || f.KnownClass {
			continue
		}
		if !f.Known && (f.After == "" || f.Flaky != "") && r.Counts(f) {
			out = append(out, f)
		}
	}
	return out
}

// Counts reports whether a finding is one this run reports as a bug of
// the engine: not documented behaviour, and inside the contract unless the
// run is in robustness mode.
func (r *Report) Counts(f *Finding) bool {
	return f.Documented == "" && (f.Robustness == "" || r.Robustness)
}

// Flaky lists the findings that did not fail again on a fresh engine.
func (r *Report) Flaky() []*Finding {
	var out []*Finding
	for _, f := range r.Findings {
		if f.Flaky != "" {
			out = append(out, f)
		}
	}
	return out
}

// seedRange returns the seeds this shard runs.
func (c *Campaign) seedRange() (first uint64, n int, err error) {
	total := c.Seeds
	if total <= 0 {
		total = 1000
	}
	if c.Shards == 0 {
		return c.FirstSeed, total, nil
	}
	if c.Shards < 1 || c.Shard < 1 || c.Shard > c.Shards {
		return 0, 0, fmt.Errorf("shard %d/%d: want 1 ≤ K ≤ N", c.Shard, c.Shards)
	}
	lo := total * (c.Shard - 1) / c.Shards
	hi := total * c.Shard / c.Shards
	return c.FirstSeed + uint64(lo), hi - lo, nil
}

// Run runs the campaign against engines from newEngine. When a seed meets
// toolsim's own fault (harness.ToolsimFault) rather than the engine's, that
// seed counts as checked and shows no finding, and Run returns the report
// with a *ToolsimError for the lowest such seed. While it runs, the
// garbage collector's target is GOGC=800 unless GOGC is set in the
// environment or the program's target is already higher: a campaign
// allocates much and keeps little, and at the default target a second
// worker gains nothing.
func (c Campaign) Run(newEngine func() harness.Engine) (*Report, error) {
	first, n, err := c.seedRange()
	if err != nil {
		return nil, err
	}
	if c.Recheck == 0 {
		c.Recheck = 10
	}
	leftOut, needs := c.narrow()
	defer relaxGC()()
	workers := max(c.Workers, 1)
	r := newRun(&c, newEngine, workers, n)
	r.first = first
	if c.Guided {
		r.guide = newGuide(first)
	}
	r.replayBaseline()
	var wg sync.WaitGroup
	parts := make([]*Report, workers)
	for w := range workers {
		parts[w] = newReport()
		wg.Go(func() { r.work(parts[w]) })
	}
	wg.Wait()
	rep := merge(parts)
	rep.Interrupted = r.stopped.Load()
	if r.lowest >= 0 && !rep.Interrupted {
		rep = r.recount()
	}
	r.finish(rep)
	if r.guide != nil {
		g := r.guide.report(r.lowest)
		rep.Guide = &g
	}
	if r.fault != nil {
		rep.Toolsim = r.fault
		err = r.fault
	}
	for _, f := range c.Sim.Faults {
		if rep.Faults[f] == 0 {
			rep.Missing = append(rep.Missing, f)
		}
	}
	rep.LeftOut, rep.Needs = leftOut, needs
	rep.Skipped = c.Check.Skipped()
	if c.Recheck < 0 {
		rep.Skipped = append(rep.Skipped, harness.Skip{Oracle: harness.OracleNondeterminism, Why: whyNoRecheck})
	}
	return rep, err
}

// narrow makes the simulator generate only the features the engine
// supports and, outside robustness mode, only inside its contract; it
// drops the faults that cannot land with the features and the other
// faults on (a late result needs a denial or a cancel), and those the
// contract rules out. It returns the faults dropped, and why each.
func (c *Campaign) narrow() (fault.List, map[fault.Fault]string) {
	if c.Sim.Features == nil {
		c.Sim.Features = c.Check.Features
	}
	if !c.Robustness && c.Sim.Contract == nil {
		c.Sim.Contract = c.Check.Contract.Guarantees
	}
	var out fault.List
	needs := map[fault.Fault]string{}
	for _, f := range c.Sim.Faults {
		if why := c.Sim.Features.Needs(f, c.Sim.Faults); why != "" {
			out = append(out, f)
			needs[f] = "needs " + why
		} else if g := c.Sim.Contract.RuledOutBy(f); g != "" {
			out = append(out, f)
			needs[f] = fmt.Sprintf("ruled out by the engine's contract: %s (its upstream never sends %s; --robustness explores it)", g, g.Describe())
		}
	}
	c.Sim.Faults = c.Sim.Contract.Allow(c.Sim.Features.UsableFaults(c.Sim.Faults))
	return out, needs
}

func newReport() *Report {
	return &Report{Faults: map[fault.Fault]int{}, States: map[string]int{}}
}

func merge(parts []*Report) *Report {
	out := newReport()
	for _, p := range parts {
		out.Scenarios += p.Scenarios
		out.Events += p.Events
		out.Rechecked += p.Rechecked
		for k, v := range p.Faults {
			out.Faults[k] += v
		}
		for k, v := range p.States {
			out.States[k] += v
		}
	}
	return out
}

// run is the shared state of a running campaign.
type run struct {
	c         *Campaign
	newEngine func() harness.Engine
	first     uint64
	n         int
	next      atomic.Int64
	stopped   atomic.Bool
	mu        sync.Mutex
	// lowest is the stop rule's cut: seeds above this index are not
	// checked (-1: no cut yet).
	lowest   int64
	dom      Domain              // what a finding's shrink may hold
	findings map[string]*Finding // by signature
	failing  []failingSeed       // every failing seed, for the counts
	done     int
	failures int
	busy     bool // every P runs a worker (see yield)
	// fault is toolsim's own fault at the lowest seed that met one.
	fault     *ToolsimError
	faultSeed int64
	guide     *guide // nil unless Campaign.Guided
}

// newRun starts a run of n scenarios on workers workers.
func newRun(c *Campaign, newEngine func() harness.Engine, workers, n int) *run {
	return &run{c: c, newEngine: newEngine, n: n, lowest: -1, busy: workers >= runtime.GOMAXPROCS(0),
		dom: Domain{Faults: c.Sim.Faults, Features: c.Sim.Features, Contract: c.Check.Contract.Guarantees}, findings: map[string]*Finding{}}
}

// work checks seeds until the range is done, skipping seeds above the
// stop rule's cut.
func (r *run) work(rep *Report) {
	for {
		i := r.next.Add(1) - 1
		if i >= int64(r.n) {
			return
		}
		r.mu.Lock()
		past := r.lowest >= 0 && i > r.lowest
		r.mu.Unlock()
		if past || r.stop() {
			r.skip(i)
			return // indices only grow: every later one is past the failure too
		}
		r.one(i, rep)
		r.yield()
	}
}

// yield lets other goroutines run between two scenarios when every P runs
// a worker. The collector's mark workers then get a turn within a
// scenario's time, not at the scheduler's next preemption (10 ms later):
// on two cores with two workers, marking otherwise stretched from about 1
// to about 4 ms a cycle on average, and the write barriers that stay on
// while it runs cost the workers about a tenth of their time.
func (r *run) yield() {
	if r.busy {
		runtime.Gosched()
	}
}

func (r *run) stop() bool {
	if r.c.Stop == nil {
		return false
	}
	select {
	case <-r.c.Stop:
		r.stopped.Store(true)
		return true
	default:
		return false
	}
}

// one checks the seed at index i of the range.
func (r *run) one(i int64, rep *Report) {
	seed := r.first + uint64(i)
	sc, mutant := r.scenario(i)
	c := harness.CaseOf(sc)
	found := r.check(c, rep)
	if len(found) == 0 && r.c.Recheck > 0 && seed%uint64(r.c.Recheck) == 0 {
		rep.Rechecked++
		found = r.recheck(i, sc)
	}
	found = r.screen(i, seed, distinct(r.screen(i, seed, found)))
	if r.guide != nil {
		inj := sc.Injected
		if mutant {
			inj = nil // a mutant's faults are its parent's, not what it reached
		}
		r.guide.record(i, sc, mutant, reached(found, rep.scratch, inj, sc.Events))
	}
	rep.Scenarios++
	rep.Events += len(sc.Events)
	for f, k := range sc.Injected {
		rep.Faults[f] += k
	}
	r.record(i, seed, c, found)
}

// scenario generates the scenario at index i: its seed's, or when the
// run is guided, maybe a mutant (guide.go), which it says.
func (r *run) scenario(i int64) (*sim.Scenario, bool) {
	if r.guide != nil {
		return r.guide.scenario(r, i)
	}
	return r.c.generate(r.first+uint64(i), r.c.Sim), false
}

// skip hands in an index the run took but does not check.
func (r *run) skip(i int64) {
	if r.guide != nil {
		r.guide.skip(i)
	}
}

// check runs every oracle on a case and adds the states and rules it
// reached to rep, counted by the check's own model when the whole trace
// was checked, else by a model pass of its own.
func (r *run) check(c *harness.Case, rep *Report) []harness.Violation {
	opts := r.c.Check
	opts.First = false // every signature of a failing seed (distinct)
	if rep.scratch == nil {
		rep.scratch = map[string]int{}
	}
	clear(rep.scratch)
	opts.Coverage = rep.scratch
	found := harness.CheckCase(r.newEngine, c, opts)
	if len(found) > 0 {
		clear(rep.scratch)
		statesOf(c.Events, opts, rep.scratch)
	}
	for s, k := range rep.scratch {
		rep.States[s] += k
	}
	return found
}

// count adds one scenario's events, injected faults and states.
func (rep *Report) count(evs []event.Event, injected map[fault.Fault]int, opts harness.Options) {
	rep.Scenarios++
	rep.Events += len(evs)
	for f, k := range injected {
		rep.Faults[f] += k
	}
	statesOf(evs, opts, rep.States)
}

// record counts a checked scenario and keeps, per signature, the lowest
// failing seed.
func (r *run) record(i int64, seed uint64, c *harness.Case, found []harness.Violation) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.done++
	if len(found) > 0 {
		r.failures++
		for k, v := range found {
			r.add(i, seed, c, v, k == 0)
		}
	}
	if r.c.Progress != nil {
		r.c.Progress(r.done, r.n, r.failures)
	}
}

// recount rebuilds the coverage counts of a campaign a stop rule cut over
// exactly the seeds up to the cut, so the report does not depend on how far
// other workers had got. It only generates, and counts a seed as
// rechecked when it passed (a failing seed is not rechecked).
func (r *run) recount() *Report {
	rep := newReport()
	failed := map[int64]bool{}
	for _, f := range r.failing {
		failed[f.i] = true
	}
	for i := int64(0); i <= r.lowest; i++ {
		seed := r.first + uint64(i)
		sc, _ := r.scenario(i)
		rep.count(sc.Events, sc.Injected, r.c.Check)
		if !failed[i] && r.c.Recheck > 0 && seed%uint64(r.c.Recheck) == 0 {
			rep.Rechecked++
		}
	}
	return rep
}

// lastSeq is the seq of the last event of evs, 0 for none.
func lastSeq(evs []event.Event) int64 {
	if len(evs) == 0 {
		return 0
	}
	return evs[len(evs)-1].Seq
}
