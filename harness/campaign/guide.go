package campaign

import (
	"maps"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim"
)

// Guidance (Campaign.Guided), in the spirit of libFuzzer: a scenario that
// reaches something no earlier one did (a signature, first or behind
// another; a state or rule of the coverage table; a state with a fault
// injected; a step a call took, see steps) joins a corpus, and part of the
// run's scenarios are mutants of the corpus: a trace of it with one to
// three of the simulator's own faults applied where they land (an event
// dropped, a live id started again, a result sent twice with its outcome
// flipped or not, a permission asked and answered, two events swapped). A
// mutant outside the run's domain (Domain.Outside) is not checked: the
// plain seed of its index is.
//
// The run goes in generations of guideGen scenarios. The first is plain
// seeds; in each later one, every guideEvery-th slot is the plain seed of
// its index and the others are mutants of the corpus as the generation
// before left it. A generation's outcomes join the corpus in index order
// once all of them are in, and a mutant's choices are drawn from a source
// keyed by the run's first seed and its index: the same seeds and flags
// give the same scenarios whatever the workers, as long as the engine
// gives the same results. Scenario i is still called seed first+i (its
// persistence faults draw from it), but a mutant is not what that seed
// generates alone: its saved trace is its repro. A parent is drawn with a
// chance in proportion to how rare what it reached is (the sum over its
// keys of 1 / the scenarios that reached each, a signature's counting
// guideSig times).
// A mutant counts, as injected, its parent's faults and those its
// mutation applied (Report.Faults).
const (
	// guideTries bounds the mutants made for one index before it falls
	// back to its plain seed.
	guideTries = 8
	// guideGen is the scenarios of one generation.
	guideGen = 10
	// guideEvery makes every guideEvery-th scenario after the first
	// generation a plain seed.
	guideEvery = 8
	// guideSig is the weight of a signature against a state's.
	guideSig = 10.0
)

// Guide says what guidance did in a run (Report.Guide).
type Guide struct {
	Mutants int // scenarios that were mutants of the corpus
	Corpus  int // scenarios kept in the corpus
	Reached int // distinct keys reached: signatures (first, and at all), states, faults, (state, fault) pairs, call steps
}

// guide is a guided run's shared state.
type guide struct {
	first uint64
	mu    sync.Mutex
	cond  *sync.Cond
	in    map[int64]int // per generation not yet complete, the scenarios handed in
	// parents holds, per complete generation, the running sums of the
	// parent weights of the corpus as that generation left it: the
	// mutants of the next generation draw from them, and a mutant made
	// again after the run (recheck, recount, regenerate) draws the same.
	parents map[int64][]float64
	out     map[int64]seedling // what the scenarios of generations not yet in reached
	corpus  []seedling
	hits    map[string]int // scenarios that reached each key
	mutants []int64        // the indices that ran a mutant
	stats   Guide
}

// seedling is a scenario and what it reached: one of the corpus, or one
// waiting for its generation to come in.
type seedling struct {
	sc   *sim.Scenario
	keys []string
}

func newGuide(first uint64) *guide {
	g := &guide{first: first, in: map[int64]int{}, parents: map[int64][]float64{}, out: map[int64]seedling{}, hits: map[string]int{}}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// plain says whether index i runs its plain seed.
func plain(i int64) bool {
	return i < guideGen || i%guideEvery == 0
}

// scenario generates the scenario at index i, and says whether it is a
// mutant. A mutant waits until the generation before its own is in.
func (g *guide) scenario(r *run, i int64) (*sim.Scenario, bool) {
	if !plain(i) {
		g.mu.Lock()
		for g.pending(i/guideGen - 1) {
			g.cond.Wait()
		}
		sc := g.mutant(r, i, g.parents[i/guideGen-1])
		g.mu.Unlock()
		if sc != nil {
			return sc, true
		}
	}
	return r.c.generate(r.first+uint64(i), r.c.Sim), false
}

// pending says whether generation gen still has scenarios out (under mu).
func (g *guide) pending(gen int64) bool {
	_, complete := g.parents[gen]
	return !complete
}

// mutant makes mutant i from the corpus entries sums covers, drawn by
// their weights (sums, running), or returns nil when it has none inside
// the run's domain (under mu).
func (g *guide) mutant(r *run, i int64, sums []float64) *sim.Scenario {
	if len(sums) == 0 {
		return nil
	}
	rng := rand.New(rand.NewPCG(g.first^0x6775_6964_6564, uint64(i)))
	dom := r.dom
	if r.c.Robustness {
		dom.Contract = nil
	}
	for range guideTries {
		p := g.corpus[pick(sums, rng)].sc
		evs, injected := slices.Clone(p.Events), maps.Clone(p.Injected)
		for k := 1 + rng.IntN(3); k > 0; k-- {
			var f fault.Fault
			if evs, f = mutate(evs, rng); f != "" {
				injected[f]++
			}
		}
		renumber(evs)
		if len(evs) == 0 || dom.Outside(evs, r.c.Check) != "" {
			continue
		}
		sc := &sim.Scenario{Seed: r.first + uint64(i), Options: p.Options, Events: evs, On: p.On,
			Injected: injected, LogFaults: p.LogFaults, BatchIDs: sim.AllBatched(evs)}
		if p.ReconnectAt < len(evs) {
			sc.ReconnectAt = p.ReconnectAt
		} else {
			delete(injected, fault.Reconnect)
		}
		if p.CrashAt <= len(evs) {
			sc.CrashAt = p.CrashAt
		} else {
			delete(injected, fault.Crash)
		}
		return sc
	}
	return nil
}

// pick draws an entry with a chance in proportion to its weight, given
// the running sums of the weights.
func pick(sums []float64, rng *rand.Rand) int {
	at := rng.Float64() * sums[len(sums)-1]
	k, _ := slices.BinarySearch(sums, at)
	return min(k, len(sums)-1)
}

// record hands in scenario i's outcome: the scenario, whether it was a
// mutant, and what it reached. The last of a generation brings the whole
// generation into the corpus, in index order.
func (g *guide) record(i int64, sc *sim.Scenario, mutant bool, keys []string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if mutant {
		g.mutants = append(g.mutants, i)
	}
	g.out[i] = seedling{sc: sc, keys: keys}
	g.done(i)
}

// skip hands in an index the run did not check (a stop rule, Ctrl-C).
// Every index a worker takes is handed in, checked or skipped, so a
// generation whose indices were all taken always completes: a mutant
// never waits for ever.
func (g *guide) skip(i int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.done(i)
}

// done counts index i in (under mu) and takes its generation in when
// complete.
func (g *guide) done(i int64) {
	gen := i / guideGen
	g.in[gen]++
	if g.in[gen] < guideGen {
		return
	}
	delete(g.in, gen)
	for j := gen * guideGen; j < (gen+1)*guideGen; j++ {
		o, ok := g.out[j]
		if !ok {
			continue
		}
		delete(g.out, j)
		novel := false
		for _, k := range o.keys {
			novel = novel || g.hits[k] == 0
			g.hits[k]++
		}
		if novel {
			g.corpus = append(g.corpus, o)
		}
	}
	sums, total := make([]float64, len(g.corpus)), 0.0
	for k, e := range g.corpus {
		for _, key := range e.keys {
			total += weightOf(key) / float64(g.hits[key])
		}
		sums[k] = total
	}
	g.parents[gen] = sums
	g.stats.Corpus, g.stats.Reached = len(g.corpus), len(g.hits)
	g.cond.Broadcast()
}

// report is what guidance did, over the indices up to last (-1: all): a
// stop rule's cut leaves out the mutants above it.
func (g *guide) report(last int64) Guide {
	out := g.stats
	for _, i := range g.mutants {
		if last < 0 || i <= last {
			out.Mutants++
		}
	}
	return out
}

// reached lists what a scenario reached: the signatures it failed with,
// the states and rules it reached, each with each fault injected, and the
// steps its calls took (steps).
func reached(found []harness.Violation, states map[string]int, injected map[fault.Fault]int, evs []event.Event) []string {
	keys := steps(evs)
	for k, v := range found {
		keys = append(keys, "v"+v.Signature)
		if k == 0 {
			keys = append(keys, "1"+v.Signature)
		}
	}
	for s, k := range states {
		if k == 0 {
			continue
		}
		keys = append(keys, "s"+s)
		for f, n := range injected {
			if n > 0 {
				keys = append(keys, "p"+s+"\x00"+string(f))
			}
		}
	}
	for f, n := range injected {
		if n > 0 {
			keys = append(keys, "f"+string(f))
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// steps lists the steps the calls of a trace take, each as what the call
// last had and what comes: "t" + before + ">" + after, where each is a
// start, progress, a permission's state, a result (ok or failed), a cancel
// or a turn's end, and before is "new" for an id not seen yet. The
// coverage table's states say what the model reached; these say how a
// call got there, so a scenario that takes a step no other took (a start
// on an id whose permission is pending, a failed result after an ok one)
// joins the corpus. It is guidance only, not an oracle.
func steps(evs []event.Event) []string {
	last := map[string]string{}
	var keys []string
	step := func(id, to string) {
		from, ok := last[id]
		if !ok {
			from = "new"
		}
		keys = append(keys, "t"+from+">"+to)
		last[id] = to
	}
	for i := range evs {
		e := &evs[i]
		switch e.Kind {
		case event.KindToolStart, event.KindToolProgress:
			step(e.ID, string(e.Kind))
		case event.KindPermission:
			step(e.ID, "permission "+e.State)
		case event.KindToolDone:
			if e.OK {
				step(e.ID, "ok")
			} else {
				step(e.ID, "failed")
			}
		case event.KindCancel, event.KindTurnEnd:
			for id := range last {
				step(id, string(e.Kind))
			}
		}
	}
	return keys
}

func weightOf(key string) float64 {
	if key[0] == '1' || key[0] == 'v' {
		return guideSig
	}
	return 1
}
