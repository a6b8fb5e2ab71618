package campaign

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/harness"
	"github.com/toolsim/toolsim/sim/tracemeta"
)

// baselineVersion is the format version a baseline file declares.
const baselineVersion = 1

// Baseline is the list of known findings a CI run accepts: a run passes
// when it finds only these, fails on a new one, and names those it no
// longer finds. Each entry keeps its repro, which a campaign checks before
// any seed (as Hypothesis replays its example database), so a fix shows
// at once. It also remembers the findings that do not count, each with
// its standing (Kind): one seen only after another, one showing
// documented behaviour, one outside the contract. A run does not shrink
// a finding again while its kept repro still shows it with the same
// standing: a known signature newly coming first, or a kept repro that no
// longer shows its signature, is shrunk afresh. The file is JSON:
// {"toolsim_baseline":1,"findings":[{"signature","oracle","kind","after",
// "repro":[header, event, ...]}]}, one repro line per line.
type Baseline struct {
	Entries []BaselineEntry
}

// BaselineEntry is one known finding.
type BaselineEntry struct {
	Signature string
	Oracle    string
	// Kind is the finding's standing when it was kept: "" for a bug that
	// counts, else KindAfter, KindDocumented, KindByDesign or
	// KindRobustness (kindOf).
	Kind string
	// After names the signature the repro failed with first (KindAfter).
	After string
	Repro *harness.Case // nil: none kept (the signature alone is known)
}

// The standings of a baseline entry that does not count as a bug
// (BaselineEntry.Kind).
const (
	KindAfter      = "after"      // seen only after another signature (Finding.After)
	KindDocumented = "documented" // shows documented behaviour (Finding.Documented)
	KindByDesign   = "by-design"  // shows behaviour by design, undocumented (Finding.ByDesign)
	KindRobustness = "robustness" // outside the contract, in a run that is not in robustness mode
)

// entry returns the baseline's entry for sig.
func (b *Baseline) entry(sig string) (BaselineEntry, bool) {
	if b != nil {
		for _, e := range b.Entries {
			if e.Signature == sig {
				return e, true
			}
		}
	}
	return BaselineEntry{}, false
}

// kindOf is a judged finding's standing in rep (BaselineEntry.Kind).
func kindOf(rep *Report, f *Finding) string {
	switch {
	case f.After != "":
		return KindAfter
	case f.Documented != "" && f.ByDesign:
		return KindByDesign
	case f.Documented != "":
		return KindDocumented
	case f.Robustness != "" && !rep.Robustness:
		return KindRobustness
	}
	return ""
}

// Has reports whether the baseline lists sig, whatever its standing. A
// nil baseline lists nothing.
func (b *Baseline) Has(sig string) bool {
	_, ok := b.entry(sig)
	return ok
}

// HasBug reports whether the baseline lists sig as a bug that counts
// (Kind ""). A nil baseline lists nothing.
func (b *Baseline) HasBug(sig string) bool {
	e, ok := b.entry(sig)
	return ok && e.Kind == ""
}

// HasClass reports whether the baseline lists a bug that counts (Kind "")
// of the bug class class (ClassOf). A nil baseline lists nothing.
func (b *Baseline) HasClass(class string) bool {
	return b.hasClassBut(class, "")
}

// hasClassBut is HasClass among the entries other than sig's.
func (b *Baseline) hasClassBut(class, sig string) bool {
	return b != nil && slices.ContainsFunc(b.Entries, func(e BaselineEntry) bool {
		return e.Kind == "" && e.Signature != sig && ClassOf(e.Signature) == class
	})
}

// fixed lists the baseline's signatures none of found has.
func (b *Baseline) fixed(found []*Finding) []string {
	var out []string
	for _, e := range b.Entries {
		if !slices.ContainsFunc(found, func(f *Finding) bool { return f.Signature == e.Signature }) {
			out = append(out, e.Signature)
		}
	}
	return out
}

// BaselineOf makes a baseline of a report's findings, each with its
// standing (kindOf) and its repro: the shrunk trace, else the failing
// one, else the baseline's own. Flaky findings are left out: they are not
// bug classes. Those that do not count are kept with their standing, so
// that the next run replays their repros instead of shrinking them again;
// but one seen only after a signature the baseline does not keep (its
// shrunk repro fails first with a signature no seed failed with first) is
// left out: a gate replaying that repro would show the other signature
// first, as a new bug.
func BaselineOf(rep *Report, old *Baseline) *Baseline {
	b := &Baseline{}
	kept := keptSignatures(rep.Findings)
	for _, f := range rep.Findings {
		if !kept[f.Signature] {
			continue
		}
		e := BaselineEntry{Signature: f.Signature, Oracle: f.Violation.Oracle, Kind: kindOf(rep, f), After: f.After, Repro: f.Shrunk}
		if e.Repro == nil {
			e.Repro = f.Case
		}
		if old != nil {
			for _, o := range old.Entries {
				if o.Signature == f.Signature && (e.Repro == nil || f.Replayed || f.Shrunk == nil) && o.Repro != nil {
					e.Repro = o.Repro
				}
			}
		}
		b.Entries = append(b.Entries, e)
	}
	return b
}

// keptSignatures are the signatures BaselineOf keeps: those of findings
// that are not flaky and, for one seen only after another, whose chain of
// afters ends in a kept finding.
func keptSignatures(fs []*Finding) map[string]bool {
	kept := map[string]bool{}
	for _, f := range fs {
		kept[f.Signature] = f.Flaky == ""
	}
	for changed := true; changed; {
		changed = false
		for _, f := range fs {
			if kept[f.Signature] && f.After != "" && !kept[f.After] {
				kept[f.Signature], changed = false, true
			}
		}
	}
	return kept
}

type baselineFile struct {
	Version  int             `json:"toolsim_baseline"`
	Findings []baselineEntry `json:"findings"`
}

type baselineEntry struct {
	Signature string            `json:"signature"`
	Oracle    string            `json:"oracle,omitempty"`
	Kind      string            `json:"kind,omitempty"`
	After     string            `json:"after,omitempty"`
	Repro     []json.RawMessage `json:"repro,omitempty"`
}

// Encode writes b as a baseline file, one repro line per line so that
// diffs stay readable; ReadBaseline reads it back.
func (b *Baseline) Encode(w io.Writer) error {
	var out bytes.Buffer
	fmt.Fprintf(&out, "{\"toolsim_baseline\":%d,\"findings\":[", baselineVersion)
	for i, e := range b.Entries {
		if i > 0 {
			out.WriteString(",")
		}
		sig, _ := json.Marshal(e.Signature)
		orc, _ := json.Marshal(e.Oracle)
		fmt.Fprintf(&out, "\n{\"signature\":%s,\"oracle\":%s", sig, orc)
		if e.Kind != "" {
			kind, _ := json.Marshal(e.Kind)
			fmt.Fprintf(&out, ",\"kind\":%s", kind)
		}
		if e.After != "" {
			after, _ := json.Marshal(e.After)
			fmt.Fprintf(&out, ",\"after\":%s", after)
		}
		if e.Repro != nil {
			var trace bytes.Buffer
			h := tracemeta.Header(tracemeta.SourceShrink, 0, tracemeta.Meta{Oracle: e.Oracle}.With(replayOf(e.Repro)))
			if err := event.WriteAll(&trace, h, e.Repro.Events); err != nil {
				return fmt.Errorf("baseline entry %q: %w", e.Signature, err)
			}
			out.WriteString(",\"repro\":[")
			for k, line := range bytes.Split(bytes.TrimSuffix(trace.Bytes(), []byte("\n")), []byte("\n")) {
				if k > 0 {
					out.WriteString(",")
				}
				out.WriteString("\n  ")
				out.Write(line)
			}
			out.WriteString("]")
		}
		out.WriteString("}")
	}
	out.WriteString("\n]}\n")
	_, err := w.Write(out.Bytes())
	return err
}

// ReadBaseline reads a baseline written by Baseline.Encode (or by hand: the
// repro is optional). name is used in errors.
func ReadBaseline(r io.Reader, name string) (*Baseline, error) {
	var f baselineFile
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: not a toolsim baseline: %w", name, err)
	}
	if f.Version != baselineVersion {
		return nil, fmt.Errorf("%s: toolsim_baseline %d, want %d", name, f.Version, baselineVersion)
	}
	b := &Baseline{}
	for i, e := range f.Findings {
		if e.Signature == "" {
			return nil, fmt.Errorf("%s: findings[%d]: no signature", name, i)
		}
		if err := checkKind(e); err != nil {
			return nil, fmt.Errorf("%s: findings[%d] (%q): %w", name, i, e.Signature, err)
		}
		entry := BaselineEntry{Signature: e.Signature, Oracle: e.Oracle, Kind: e.Kind, After: e.After}
		if len(e.Repro) > 0 {
			c, err := reproCase(e.Repro)
			if err != nil {
				return nil, fmt.Errorf("%s: findings[%d] (%q): repro: %w", name, i, e.Signature, err)
			}
			entry.Repro = c
		}
		b.Entries = append(b.Entries, entry)
	}
	return b, nil
}

// checkKind checks an entry's standing: a known kind, and "after" with
// the kind that needs it.
func checkKind(e baselineEntry) error {
	switch e.Kind {
	case "", KindDocumented, KindByDesign, KindRobustness:
		if e.After != "" {
			return fmt.Errorf("after %q without kind %q", e.After, KindAfter)
		}
	case KindAfter:
		if e.After == "" {
			return fmt.Errorf("kind %q without the signature it comes after (field after)", KindAfter)
		}
	default:
		return fmt.Errorf("kind %q: want %q, %q, %q or %q (or none: a bug that counts)", e.Kind, KindAfter, KindDocumented, KindByDesign, KindRobustness)
	}
	return nil
}

// reproCase decodes a repro's lines into the case they describe.
func reproCase(lines []json.RawMessage) (*harness.Case, error) {
	var buf bytes.Buffer
	for _, l := range lines {
		buf.Write(l)
		buf.WriteByte('\n')
	}
	h, evs, err := event.ReadAll(&buf, event.ReaderOptions{})
	if err != nil {
		return nil, err
	}
	rp, err := tracemeta.Read(h)
	if err != nil {
		return nil, err
	}
	return &harness.Case{Events: evs, Generated: true, LogFaults: rp.LogFaults, FaultSeed: rp.FaultSeed,
		ReconnectAt: rp.ReconnectAt, CrashAt: rp.CrashAt, BatchIDs: rp.BatchIDs}, nil
}

// replayBaseline checks the baseline's repros before any seed, on the
// campaign's workers: each that still shows its entry's signature becomes
// that finding (Replayed), seen after the first (Finding.After) when
// another comes first, so that a finding kept with its standing is not
// shrunk again while its repro shows it (remembered); then each repro's
// first signature that no entry's own repro showed becomes a finding too.
func (r *run) replayBaseline() {
	if r.c.Baseline == nil {
		return
	}
	opts := r.c.Check
	opts.First = false
	entries := r.c.Baseline.Entries
	found := make([][]harness.Violation, len(entries))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(r.c.Workers, 1) {
		wg.Go(func() {
			for i := range next {
				if entries[i].Repro != nil {
					found[i] = r.replay(entries[i], opts)
				}
			}
		})
	}
	for i := range entries {
		next <- i
	}
	close(next)
	wg.Wait()
	for i := range found {
		found[i] = r.screen(-1, 0, found[i])
	}
	for i, vs := range found {
		if v, ok := withSignature(vs, entries[i].Signature); ok {
			after := ""
			if v.Signature != vs[0].Signature {
				after = vs[0].Signature
			}
			r.replayed(entries[i].Repro, v, after).own = true
		}
	}
	for i, vs := range found {
		if len(vs) > 0 {
			r.replayed(entries[i].Repro, vs[0], "")
		}
	}
}

// replay checks an entry's repro with every oracle (opts, not stopping
// at the first violation), or only with the stream's when the entry's
// oracle is judged there (harness.StreamOracle): the others run the
// engine again. A repro the stream's oracles pass is checked with all.
func (r *run) replay(e BaselineEntry, opts harness.Options) []harness.Violation {
	if e.Oracle != "" && harness.StreamOracle(e.Oracle) {
		o := opts
		o.StreamOnly = true
		if vs := harness.Expand(harness.CheckCase(r.newEngine, e.Repro, o)); len(vs) > 0 {
			return vs
		}
	}
	return harness.Expand(harness.CheckCase(r.newEngine, e.Repro, opts))
}

// replayed makes v, shown by a baseline repro after the signature after
// ("" when first), a finding, unless one has its signature already, and
// returns the finding of v's signature.
func (r *run) replayed(repro *harness.Case, v harness.Violation, after string) *Finding {
	if f := r.findings[v.Signature]; f != nil {
		return f
	}
	f := &Finding{Signature: v.Signature, Replayed: true, index: -1, After: after,
		Failure: Failure{Violation: v, Case: repro, Shrunk: repro, ShrunkBy: v}}
	r.findings[v.Signature] = f
	return f
}

// remembered reports whether the baseline keeps f with a repro that
// still shows it with the standing it was kept with, so that f is not
// shrunk again: its own kept repro showed it (Finding.own); seen only
// after another, and first in no seed, if it was kept so, else first;
// its behaviour still declared documented if it was kept so; the run not
// in robustness mode if it was kept as outside the contract. An entry
// without a repro (written by hand) is known by its signature alone.
func (r *run) remembered(f *Finding) bool {
	e, ok := r.c.Baseline.entry(f.Signature)
	switch {
	case !ok:
		return false
	case e.Repro == nil:
		return true
	case !f.own:
		return false
	case e.Kind == KindAfter:
		return f.After != "" && !f.first
	case f.After != "":
		return false
	case e.Kind == KindDocumented || e.Kind == KindByDesign:
		c := r.c.Check.Contract
		b := Documents(c, f.Signature)
		return b != "" && (c.Label(b) == contract.LabelByDesign) == (e.Kind == KindByDesign)
	case e.Kind == KindRobustness:
		return !r.c.Robustness
	}
	return true
}

// replayOf is a case's reconstruction settings, for a trace header.
func replayOf(c *harness.Case) tracemeta.Replay {
	return tracemeta.Replay{LogFaults: c.LogFaults, FaultSeed: c.FaultSeed, ReconnectAt: c.ReconnectAt, CrashAt: c.CrashAt, BatchIDs: c.BatchIDs}
}
