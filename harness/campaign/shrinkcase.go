package campaign

import (
	"fmt"
	"slices"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/shrink"
)

// Shrunk is what ShrinkCase and ShrinkFinding found.
type Shrunk struct {
	Case  *harness.Case     // the smallest case found; the original when nothing smaller fails
	By    harness.Violation // its first violation of the oracle or signature it was shrunk for
	Tests int               // candidates tried
	// Note says why the result is what it is when it is not a plain
	// shrink: the oracle could not be reproduced and any violation was
	// shrunk instead, nothing smaller failed, or the trace could not be
	// kept inside the domain.
	Note string
	// Rejected counts the candidates that failed but were rejected for
	// drift (ShrinkFinding): another signature first, or an event outside
	// the domain (those are rejected before the engine runs).
	Rejected int
	// Kept is the domain the shrunk case stayed inside, when it limits
	// the faults: its header records them (Header), so that shrinking it
	// again keeps them. Nil otherwise.
	Kept *Domain
	// Lost is set (ShrinkFinding) when the case itself no longer fails
	// with the signature: what happened instead. Nothing was shrunk.
	Lost string
	// After is set (ShrinkFinding) when the repro fails first with
	// another signature, named here: no smaller trace showed the
	// signature first.
	After string
}

// ShrinkFinding finds the smallest trace of c that fails with v's
// signature, every candidate checked with exactly opts and kept only
// inside dom: no fault the run switched off, no feature it left out. A
// candidate that does not show the signature, or leaves the domain, is
// rejected (Shrunk.Rejected counts them), so the repro shows the bug the
// seed showed and not the cheapest failure of the same oracle. The
// signature need not be c's first violation (a bug another one masks);
// once a candidate fails with it first, every later one must too, so the
// repro shows it first whenever the shrinker can get there (Shrunk.After
// names what comes first otherwise). When c itself is outside dom (a
// captured trace checked under a narrower run), it is shrunk without the
// fault limit and Note says so; when c no longer shows the signature,
// Lost says what happened.
func ShrinkFinding(newEngine func() harness.Engine, c *harness.Case, v harness.Violation, dom Domain, opts harness.Options) Shrunk {
	return shrinkFinding(newEngine, c, v, dom, opts, newMemo())
}

// shrinkFinding is ShrinkFinding with the memo of the traces c's findings
// were checked on so far.
func shrinkFinding(newEngine func() harness.Engine, c *harness.Case, v harness.Violation, dom Domain, opts harness.Options, m *memo) Shrunk {
	sig, streamed := v.Signature, opts
	// A per-event oracle's violation shows in the stream: the candidates
	// need not run the engine again for the oracles that do.
	streamed.StreamOnly = harness.StreamOracle(v.Oracle)
	probe := prober(newEngine, c, v.Oracle, streamed, m)
	if _, ok := withSignature(harness.Expand(probe(c.Events, false)), sig); !ok {
		return Shrunk{Case: c, Tests: 1, Lost: lost(prober(newEngine, c, v.Oracle, opts, m), c)}
	}
	dom, note := widen(dom, c.Events, opts)
	rejected, first := 0, false
	fails := func(evs []event.Event) bool {
		if dom.Outside(evs, opts) != "" {
			rejected++
			return false
		}
		if first { // every candidate kept from now on shows sig first
			if vs := probe(evs, true); len(vs) > 0 && vs[0].Signature == sig {
				return true
			}
			rejected++
			return false
		}
		all := harness.Expand(probe(evs, false))
		if _, ok := withSignature(all, sig); ok {
			first = all[0].Signature == sig
			return true
		}
		rejected++
		return false
	}
	res := shrink.Shrink(c.Events, fails, shrink.Options{})
	out := shrunkCase(c, res.Events)
	all := harness.Expand(probe(out.Events, first)) // in full unless it came first: By is the signature's own violation
	by, _ := withSignature(all, sig)
	if len(res.Events) == len(c.Events) && note == "" {
		note = fmt.Sprintf("no smaller trace fails with this signature (%d candidates tried)", res.Tests)
	}
	sh := Shrunk{Case: out, By: by, Tests: res.Tests, Note: note, Rejected: rejected, Kept: dom.inside(out, opts)}
	if len(all) > 0 && all[0].Signature != sig {
		sh.After = all[0].Signature
	}
	return sh
}

// lost says what a case that no longer shows its signature does instead
// under probe, a check of every oracle: passes, or fails with another.
func lost(probe func([]event.Event, bool) []harness.Violation, c *harness.Case) string {
	all := harness.Expand(probe(c.Events, false))
	if len(all) == 0 {
		return "the failing trace passed when checked again on a fresh engine"
	}
	return fmt.Sprintf("the failing trace no longer shows the signature when checked again: it fails with %s (%s)", all[0].Signature, all[0].Detail)
}

// widen returns the narrowest domain that holds evs, starting from dom,
// and a note when it had to widen: without the contract when evs break it
// (a robustness case: an input the engine's upstream does not send), and
// without the fault limit when that is not enough (a captured trace).
func widen(dom Domain, evs []event.Event, opts harness.Options) (Domain, string) {
	why := dom.Outside(evs, opts)
	if why == "" {
		return dom, ""
	}
	note := "the failing trace is outside the run's domain (%s): shrunk without its fault limit"
	if b := dom.Contract.Check(evs); b != nil {
		dom.Contract, why = nil, b.String()
		if dom.Outside(evs, opts) == "" {
			return dom, fmt.Sprintf("the failing trace is outside the engine's contract (%s): shrunk outside it, as a robustness case", why)
		}
		note = "the failing trace is outside the engine's contract (%s) and the run's domain: shrunk without either"
	}
	return Domain{Any: true, Features: dom.Features, Contract: dom.Contract}, fmt.Sprintf(note, why)
}

// withSignature returns the first violation with signature sig.
func withSignature(vs []harness.Violation, sig string) (harness.Violation, bool) {
	for _, v := range vs {
		if v.Signature == sig {
			return v, true
		}
	}
	return harness.Violation{}, false
}

// prober returns a check of candidate traces of c with opts, the
// reconnect and crash points clamped to the shorter trace, and toolsim's rebuild
// oracles skipped unless oracle is one of them. What each trace showed is
// kept in m (memo), so that a trace checked again costs no engine run.
func prober(newEngine func() harness.Engine, c *harness.Case, oracle string, opts harness.Options, m *memo) func(evs []event.Event, first bool) []harness.Violation {
	noRebuild := c.NoRebuild || !rebuildOracle(oracle)
	return func(evs []event.Event, first bool) []harness.Violation {
		key := m.key(evs, opts.StreamOnly, noRebuild)
		if vs, ok := m.get(key, first); ok {
			return vs
		}
		t := *c
		t.Events, t.NoRebuild = evs, noRebuild
		t.ReconnectAt = min(c.ReconnectAt, max(len(evs)-1, 0))
		t.CrashAt = min(c.CrashAt, len(evs))
		o := opts
		o.First = first
		vs := checkCase(newEngine, &t, o)
		m.put(key, vs, first)
		return vs
	}
}

// shrunkCase is c with evs as its events, the reconnect and crash points
// clamped.
func shrunkCase(c *harness.Case, evs []event.Event) *harness.Case {
	out := *c
	out.Events = evs
	out.ReconnectAt = min(c.ReconnectAt, max(len(evs)-1, 0))
	out.CrashAt = min(c.CrashAt, len(evs))
	return &out
}

// ShrinkCase finds the smallest trace of c that still fails oracle, every
// candidate checked with exactly opts (fields, reference, meta tools,
// grouping, reload, self-checks), so the shrunk case fails as the
// original did. The reconstruction settings of c are kept (the reconnect
// point is clamped to the shorter trace). When c does not fail oracle
// under opts, it shrinks for any violation instead and says so in Note.
// A case inside the engine's contract (Options.Contract) is shrunk inside
// it. Campaigns shrink with ShrinkFinding, which keeps the signature.
func ShrinkCase(newEngine func() harness.Engine, c *harness.Case, oracle string, opts harness.Options) Shrunk {
	return shrinkOracle(newEngine, c, oracle, nil, opts)
}

// ShrinkCaseIn is ShrinkCase with every candidate also kept inside dom,
// as ShrinkFinding keeps it: no fault dom leaves out, no feature it does
// not hold. When c itself is outside dom, it is shrunk without the fault
// limit and Note says so.
func ShrinkCaseIn(newEngine func() harness.Engine, c *harness.Case, oracle string, dom Domain, opts harness.Options) Shrunk {
	return shrinkOracle(newEngine, c, oracle, &dom, opts)
}

// shrinkOracle is ShrinkCase, inside dom when it is not nil.
func shrinkOracle(newEngine func() harness.Engine, c *harness.Case, oracle string, dom *Domain, opts harness.Options) Shrunk {
	opts.First = false
	probe := prober(newEngine, c, oracle, opts, newMemo())
	var note string
	target := func(vs []harness.Violation) bool { return hasOracle(vs, oracle) }
	if !target(probe(c.Events, false)) {
		if len(probe(c.Events, true)) == 0 {
			return Shrunk{Case: c, Note: fmt.Sprintf("the case does not fail under the shrinker's settings (oracle %s): kept whole", oracle)}
		}
		note = fmt.Sprintf("oracle %s did not fail again on the whole case; shrunk for any violation instead", oracle)
		target = func(vs []harness.Violation) bool { return len(vs) > 0 }
	}
	keep, widened := keeper(c.Events, dom, opts)
	fails := func(evs []event.Event) bool {
		return keep(evs) && target(probe(evs, false))
	}
	res := shrink.Shrink(c.Events, fails, shrink.Options{})
	out := shrunkCase(c, res.Events)
	var v harness.Violation
	for _, x := range probe(out.Events, false) {
		if target([]harness.Violation{x}) {
			v = x
			break
		}
	}
	if len(res.Events) == len(c.Events) && note == "" {
		note = fmt.Sprintf("no smaller trace fails %s (%d candidates tried)", oracle, res.Tests)
	}
	sh := Shrunk{Case: out, By: v, Tests: res.Tests, Note: joinNotes(note, widened)}
	if dom != nil {
		sh.Kept = dom.inside(out, opts)
	}
	return sh
}

// inside is the domain when c stayed inside it and it limits the faults,
// else nil: a shrunk trace's header records its faults.
func (d Domain) inside(c *harness.Case, opts harness.Options) *Domain {
	if d.Any || d.Outside(c.Events, opts) != "" {
		return nil
	}
	return &d
}

// keeper returns the test a candidate of evs must pass to be kept: inside
// the engine's contract (Options.Contract) when evs is, and inside dom
// when it is given, widened to hold evs (the note says how).
func keeper(evs []event.Event, dom *Domain, opts harness.Options) (func([]event.Event) bool, string) {
	inside := opts.Contract.Guarantees.Check(evs) == nil
	var d Domain
	note := ""
	if dom != nil {
		d, note = widen(*dom, evs, opts)
	}
	return func(cand []event.Event) bool {
		if inside && opts.Contract.Guarantees.Check(cand) != nil {
			return false
		}
		return dom == nil || d.Outside(cand, opts) == ""
	}, note
}

// joinNotes joins the notes that are not empty.
func joinNotes(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

func rebuildOracle(o string) bool {
	return slices.Contains([]string{harness.OracleRebuild, harness.OracleReported, harness.OracleIdempot, harness.OracleReconnect}, o)
}

func hasOracle(vs []harness.Violation, oracle string) bool {
	for _, v := range vs {
		if v.Oracle == oracle {
			return true
		}
	}
	return false
}
