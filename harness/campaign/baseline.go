package campaign

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"

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
// at once. The file is JSON: {"toolsim_baseline":1,"findings":[{"signature",
// "oracle","repro":[header, event, ...]}]}, one repro line per line.
type Baseline struct {
	Entries []BaselineEntry
}

// BaselineEntry is one known finding.
type BaselineEntry struct {
	Signature string
	Oracle    string
	Repro     *harness.Case // nil: none kept (the signature alone is known)
}

// Has reports whether the baseline lists sig. A nil baseline lists nothing.
func (b *Baseline) Has(sig string) bool {
	return b != nil && slices.ContainsFunc(b.Entries, func(e BaselineEntry) bool { return e.Signature == sig })
}

// HasClass reports whether the baseline lists a signature of the bug
// class class (ClassOf). A nil baseline lists nothing.
func (b *Baseline) HasClass(class string) bool {
	return b != nil && slices.ContainsFunc(b.Entries, func(e BaselineEntry) bool { return ClassOf(e.Signature) == class })
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
// repro: the shrunk trace, else the failing one, else the baseline's own.
// Flaky findings are left out (they are not bug classes), and so are those
// seen only after another (they never fail a run; once the other is fixed,
// one that remains is a bug to see), and those the run does not count
// (Report.Counts: documented behaviour, or outside the contract).
func BaselineOf(rep *Report, old *Baseline) *Baseline {
	b := &Baseline{}
	for _, f := range rep.Findings {
		if f.Flaky != "" || f.After != "" || !rep.Counts(f) {
			continue
		}
		e := BaselineEntry{Signature: f.Signature, Oracle: f.Violation.Oracle, Repro: f.Shrunk}
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

type baselineFile struct {
	Version  int             `json:"toolsim_baseline"`
	Findings []baselineEntry `json:"findings"`
}

type baselineEntry struct {
	Signature string            `json:"signature"`
	Oracle    string            `json:"oracle,omitempty"`
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
		entry := BaselineEntry{Signature: e.Signature, Oracle: e.Oracle}
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
		ReconnectAt: rp.ReconnectAt, BatchIDs: rp.BatchIDs}, nil
}

// replayBaseline checks the baseline's repros before any seed, on the
// campaign's workers: each that fails becomes a finding (Replayed), under
// the signature it fails with.
func (r *run) replayBaseline() {
	if r.c.Baseline == nil {
		return
	}
	opts := r.c.Check
	opts.First = true
	entries := r.c.Baseline.Entries
	found := make([][]harness.Violation, len(entries))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(r.c.Workers, 1) {
		wg.Go(func() {
			for i := range next {
				if entries[i].Repro != nil {
					found[i] = harness.CheckCase(r.newEngine, entries[i].Repro, opts)
				}
			}
		})
	}
	for i := range entries {
		next <- i
	}
	close(next)
	wg.Wait()
	for i, vs := range found {
		vs = r.screen(-1, 0, vs)
		if len(vs) == 0 || r.findings[vs[0].Signature] != nil {
			continue
		}
		v := vs[0]
		r.findings[v.Signature] = &Finding{Signature: v.Signature, Replayed: true, index: -1,
			Failure: Failure{Violation: v, Case: entries[i].Repro, Shrunk: entries[i].Repro, ShrunkBy: v}}
	}
}

// replayOf is a case's reconstruction settings, for a trace header.
func replayOf(c *harness.Case) tracemeta.Replay {
	return tracemeta.Replay{LogFaults: c.LogFaults, FaultSeed: c.FaultSeed, ReconnectAt: c.ReconnectAt, BatchIDs: c.BatchIDs}
}
