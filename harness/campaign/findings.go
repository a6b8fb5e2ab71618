package campaign

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/harness"
)

// Finding is one distinct way the engine failed in a campaign: every
// failing seed whose first violation had one signature. Its Failure is
// the lowest such seed, shrunk to the smallest trace that still fails with
// that signature inside the run's domain.
type Finding struct {
	Failure
	Signature string
	Count     int // failing seeds with this signature
	// Runs counts the engines the run started for this finding after its
	// seed: shrinking and confirming it (0 when it was not shrunk: known,
	// or replayed from the baseline).
	Runs int
	// Rejected counts the shrink candidates that failed but were rejected
	// for drift: another signature, or a fault or feature outside the
	// run's domain.
	Rejected int
	// Flaky, when set, says what happened when the repro was checked
	// again on a fresh engine and did not fail with its signature: the
	// failure is not confirmed as a bug class.
	Flaky string
	// Known is set when the baseline lists the signature with the
	// standing the finding has (BaselineEntry.Kind).
	Known bool
	// KnownClass is set, in a Racy campaign, when the finding is not
	// Known but the baseline lists another signature of its bug class
	// (Class) as a bug that counts: a
	// racing app reaches one bug through several rules, whichever its
	// timing lets fire first, so such a finding does not fail the run.
	KnownClass bool
	// Replayed is set when the finding came from the baseline's repro
	// rather than from a seed (Count 0 then, and Seed is not set).
	Replayed bool
	// After names the signature its repro fails with first, when no
	// repro was found in which this signature comes first: a bug seen
	// only behind another (masked), or a consequence of that other.
	After string
	// Nth numbers the findings that share a seed (1, 2, ...), those that
	// fail the run first: FileName tells their saved traces apart.
	Nth int
	// Class names the bug class the signature belongs to (ClassOf): the
	// findings of one bug reached through several rules share it.
	Class string
	// Robustness, when set, says where and why the repro is outside the
	// engine's contract (Options.Contract): an input its real upstream does
	// not send. Such a finding counts only in robustness mode.
	Robustness string
	// Documented names the library's documented behaviour the finding
	// shows, when the engine declared it (contract.Behaviour): it does not
	// count as a bug.
	Documented contract.Behaviour
	// ByDesign says the engine declares Documented by design, undocumented
	// (contract.LabelByDesign): only code, a test or a PR shows the intent.
	ByDesign bool

	index int64 // the seed's index in the range
	first bool  // some failing seed failed first with this signature
	own   bool  // its own baseline entry's repro showed it (replayBaseline)
}

// distinct returns one violation per signature a check of every oracle
// found (not stopped at the first violation), the first violation's first:
// the bugs the first one masks show too. A check that stops at the first
// violation finds the same first (TestFirstCheckIsFullChecksFirst), so a
// campaign checks each seed once, in full.
func distinct(found []harness.Violation) []harness.Violation {
	if len(found) == 0 || found[0].Oracle == harness.OracleNondeterminism {
		return found
	}
	out := found[:1:1]
	for _, v := range harness.Expand(found) {
		if !slices.ContainsFunc(out, func(w harness.Violation) bool { return w.Signature == v.Signature }) {
			out = append(out, v)
		}
	}
	return out
}

// failingSeed is one signature of a failing seed: its index, and
// whether it was the seed's first violation.
type failingSeed struct {
	i     int64
	sig   string
	first bool
}

// add records one signature of a failing seed (under r.mu); first says
// whether it was the seed's first violation. A finding's seed is its
// lowest seed, preferring one where it came first.
func (r *run) add(i int64, seed uint64, c *harness.Case, v harness.Violation, first bool) {
	r.failing = append(r.failing, failingSeed{i, v.Signature, first})
	f := r.findings[v.Signature]
	if f == nil {
		f = &Finding{Signature: v.Signature, index: -1}
		r.findings[v.Signature] = f
	}
	better := f.index < 0 || first && !f.first || first == f.first && i < f.index
	if better {
		f.Seed, f.Violation, f.Case, f.first = seed, v, c, first
	}
	if f.index < 0 || i < f.index {
		f.index = i
	}
	r.cut()
}

// cut applies the stop rules: StopAtFirst cuts at the lowest failing
// index, MaxFindings at the highest first index of the MaxFindings lowest
// signatures. Cuts only move down, so a worker that skips an index never
// skips one the final report needs.
func (r *run) cut() {
	n := r.c.MaxFindings
	if r.c.StopAtFirst {
		n = 1
	}
	if n <= 0 {
		return
	}
	var firsts []int64
	for _, f := range r.findings {
		if f.index >= 0 {
			firsts = append(firsts, f.index)
		}
	}
	if len(firsts) < n {
		return
	}
	slices.Sort(firsts)
	r.lowest = firsts[n-1]
}

// collect returns the findings inside the cut, by first seed, with their
// counts over the seeds inside it; the baseline's replayed findings no
// seed found come last.
func (r *run) collect() []*Finding {
	var out []*Finding
	for _, f := range r.findings {
		inside := r.lowest < 0 || f.index <= r.lowest
		if f.index >= 0 && inside || f.index < 0 && f.Replayed {
			f.Count = 0
			out = append(out, f)
		}
	}
	best := map[string]failingSeed{}
	for _, s := range r.failing {
		if r.lowest >= 0 && s.i > r.lowest {
			continue
		}
		r.findings[s.sig].Count++
		if b, ok := best[s.sig]; !ok || s.first && !b.first || s.first == b.first && s.i < b.i {
			best[s.sig] = s
		}
	}
	for _, f := range out {
		if b, ok := best[f.Signature]; ok && b.i != int64(f.Seed-r.first) {
			r.regenerate(f, b)
		}
	}
	r.sort(out)
	return out
}

// sort orders findings by their chosen seed (a seed's first violation first), then signature; the
// baseline's replayed findings last.
func (r *run) sort(fs []*Finding) {
	slices.SortFunc(fs, func(a, b *Finding) int {
		if a.Replayed != b.Replayed {
			if a.Replayed {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(a.Seed, b.Seed), compareBool(b.first, a.first), cmp.Compare(a.Signature, b.Signature))
	})
}

// regenerate makes seed b the finding's: a seed above a stop rule's cut
// was chosen while workers ran. Only campaigns cut (exhaustive runs stop
// at their first failing trace, which holds every finding).
func (r *run) regenerate(f *Finding, b failingSeed) {
	seed := r.first + uint64(b.i)
	sc, _ := r.scenario(b.i)
	c := harness.CaseOf(sc)
	opts := r.c.Check
	opts.First = false
	for _, v := range distinct(checkCase(r.newEngine, c, opts)) {
		if v.Signature == f.Signature {
			f.Seed, f.Violation, f.Case, f.first = seed, v, c, b.first
		}
	}
}

// finish fills the report's findings: shrunk, confirmed, and marked
// against the baseline.
func (r *run) finish(rep *Report) {
	rep.Findings = r.collect()
	rep.Robustness, rep.Racy, rep.NoShrink = r.c.Robustness, r.c.Racy, r.c.NoShrink
	if r.c.NoShrink {
		// Unshrunk, a finding is set apart as seen only after another
		// only when the baseline kept it so and no seed showed it first.
		for _, f := range rep.Findings {
			if e, ok := r.c.Baseline.entry(f.Signature); f.first || !ok || e.Kind != KindAfter {
				f.After = ""
			}
		}
	} else {
		r.shrinkAll(rep.Findings)
	}
	for _, f := range rep.Findings {
		f.judge(r.c.Check.Contract)
		e, listed := r.c.Baseline.entry(f.Signature)
		f.Known = listed && e.Kind == kindOf(rep, f)
	}
	if r.c.NoShrink {
		r.confirmAll(rep.Findings)
	}
	for _, f := range rep.Findings {
		f.KnownClass = r.c.Racy && !f.Known && r.c.Baseline.hasClassBut(f.Class, f.Signature)
	}
	for _, f := range rep.Findings {
		if rep.Failure == nil && !f.Known && !f.KnownClass && !f.Replayed && f.After == "" && rep.Counts(f) {
			rep.Failure = &f.Failure
		}
	}
	if r.c.Baseline != nil {
		rep.Fixed = r.c.Baseline.fixed(rep.Findings)
	}
	number(rep)
}

// judge sets a finding's class, and, under a contract, whether its repro
// is outside it and whether it shows a documented behaviour.
func (f *Finding) judge(c contract.Contract) {
	f.Class = ClassOf(f.Signature)
	f.Documented = Documents(c, f.Signature)
	f.ByDesign = c.Label(f.Documented) == contract.LabelByDesign
	repro := f.Shrunk
	if repro == nil {
		repro = f.Case
	}
	if repro != nil {
		if b := c.Guarantees.Check(repro.Events); b != nil {
			f.Robustness = "robustness: an input the declared upstream does not send: " + b.String()
		}
	}
}

// number sets each finding's Nth among those of its seed, the findings
// that fail the run first (they are the ones saved).
func number(rep *Report) {
	per := map[uint64]int{}
	for _, fds := range [][]*Finding{rep.New(), rep.Findings} {
		for _, f := range fds {
			if f.Nth == 0 && !f.Replayed {
				per[f.Seed]++
				f.Nth = per[f.Seed]
			}
		}
	}
}

// FileName names a finding's saved traces: PREFIX-SEED for the first
// finding of its seed, PREFIX-SEED-N for the N-th.
func (f *Finding) FileName(prefix string) string {
	if f.Nth > 1 {
		return fmt.Sprintf("%s-%d-%d", prefix, f.Seed, f.Nth)
	}
	return fmt.Sprintf("%s-%d", prefix, f.Seed)
}

// shrinkAll shrinks and confirms the findings seeds found, on the
// campaign's workers: the findings of one seed on one worker, one after
// another, sharing a memo of the traces checked (their first candidates
// are the same). A finding the baseline remembers is not shrunk: its
// repro is the baseline's, replayed first; nor is one a baseline repro
// showed under a signature the baseline does not list (that repro is
// already small).
func (r *run) shrinkAll(fs []*Finding) {
	type key struct {
		seed uint64
		c    *harness.Case // a repro the baseline kept (no seed found it)
	}
	var groups [][]*Finding
	at := map[key]int{}
	for _, f := range fs {
		if r.remembered(f) || f.Replayed && !r.c.Baseline.Has(f.Signature) {
			continue
		}
		if f.index >= 0 {
			f.Replayed = false // a seed found it: shrunk from the seed's trace
		}
		k := key{seed: f.Seed}
		if f.index < 0 {
			k.c = f.Case
		}
		i, ok := at[k]
		if !ok {
			i, at[k] = len(groups), len(groups)
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], f)
	}
	jobs := make(chan []*Finding)
	var wg sync.WaitGroup
	for range max(r.c.Workers, 1) {
		wg.Go(func() {
			for g := range jobs {
				m := newMemo()
				for _, f := range g {
					r.shrink(f, m)
				}
			}
		})
	}
	for _, g := range groups {
		jobs <- g
	}
	close(jobs)
	wg.Wait()
}

// confirmAll checks each finding the baseline does not know (Finding.Known):
// its unshrunk trace (or the baseline
// repro that showed it) again on a fresh engine (NoShrink), one at a
// time: "" in Finding.Flaky when it fails as it did.
func (r *run) confirmAll(fs []*Finding) {
	for _, f := range fs {
		if f.Known || f.Case == nil || f.Violation.Oracle == harness.OracleNondeterminism {
			continue
		}
		f.Flaky = reappears(r.newEngine, f.Case, f.Signature, r.c.Check)
	}
}

// reappears checks an unshrunk trace again on a fresh engine: "" when it
// fails with the signature again (first or not: a seed's trace may fail
// several ways), else what happened instead.
func reappears(newEngine func() harness.Engine, c *harness.Case, sig string, opts harness.Options) string {
	opts.First = false
	found := harness.Expand(checkCase(newEngine, c, opts))
	if _, shows := withSignature(found, sig); shows {
		return ""
	}
	if len(found) == 0 {
		return "the trace passed when checked again on a fresh engine"
	}
	return fmt.Sprintf("the trace no longer shows the signature when checked again: it fails with %s (%s)", found[0].Signature, found[0].Detail)
}

// shrink minimises a finding to the smallest trace that fails with its
// signature inside the run's domain, then confirms the repro on a fresh
// engine. m is the memo of the traces its seed's findings were checked on;
// Finding.Runs counts the engines it started, not those m spared.
func (r *run) shrink(f *Finding, m *memo) {
	if f.Violation.Oracle == harness.OracleNondeterminism {
		f.Note = "a nondeterministic seed is not shrunk: its trace is generated again, not replayed"
		return
	}
	var runs atomic.Int64
	defer func() { f.Runs = int(runs.Load()) }()
	newEngine := func() harness.Engine {
		runs.Add(1)
		return r.newEngine()
	}
	res := shrinkFinding(newEngine, f.Case, f.Violation, r.dom, r.c.Check, m)
	f.Shrunk, f.ShrunkBy, f.Tests, f.Note, f.Rejected, f.After = res.Case, res.By, res.Tests, res.Note, res.Rejected, res.After
	if res.Lost != "" {
		f.Flaky = res.Lost
		return
	}
	opts := r.c.Check
	opts.StreamOnly = harness.StreamOracle(f.Violation.Oracle) // it shows in the stream, first or after another
	f.Flaky = confirm(newEngine, f.Shrunk, f.Signature, f.After, opts)
	if f.After != "" && (f.Violation.Oracle == harness.OracleEngine || f.Violation.Oracle == harness.OraclePanic) {
		// A hang, a crash or a panic is a bug of its own whatever failed
		// first: it is counted, never only listed behind another.
		f.Note = strings.TrimPrefix(f.Note+"; seen after "+strconv.Quote(f.After)+", counted all the same (the engine failed)", "; ")
		f.After = ""
	}
}

// confirm checks a repro again on a fresh engine: "" when it fails as the
// shrink left it (with the signature first, or after the signature
// after), else what happened instead.
func confirm(newEngine func() harness.Engine, c *harness.Case, sig, after string, opts harness.Options) string {
	why := confirmOnce(newEngine, c, sig, after, opts)
	if why != "" && opts.StreamOnly {
		// Say what the repro does under every oracle, not the stream's only.
		opts.StreamOnly = false
		if all := confirmOnce(newEngine, c, sig, after, opts); all != "" {
			why = all
		}
	}
	return why
}

// confirmOnce is one check of confirm.
func confirmOnce(newEngine func() harness.Engine, c *harness.Case, sig, after string, opts harness.Options) string {
	opts.First = false
	found := harness.Expand(checkCase(newEngine, c, opts))
	_, shows := withSignature(found, sig)
	switch {
	case len(found) == 0:
		return "the repro passed when checked again on a fresh engine"
	case !shows:
		return fmt.Sprintf("the repro no longer shows the signature when checked again: it fails with %s (%s)", found[0].Signature, found[0].Detail)
	case after == "" && found[0].Signature != sig:
		return fmt.Sprintf("the repro failed first with another signature when checked again: %s (%s)", found[0].Signature, found[0].Detail)
	}
	return ""
}

// compareBool orders false before true.
func compareBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}
