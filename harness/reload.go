package harness

import (
	"fmt"
	"slices"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/harness/internal/selfcheck"
	"github.com/toolsim/toolsim/rebuild"
	"github.com/toolsim/toolsim/store"
	"github.com/toolsim/toolsim/timeline"
)

// Reconstructor is implemented by engines that rebuild a timeline from a
// persisted log (docs/persisted-log.md) themselves: an external engine
// that declares reconstruct, or an in-process engine with the method.
// Options.Reload checks it.
type Reconstructor interface {
	Reconstruct(log []byte) (*timeline.Timeline, error)
}

// checkReload is the reload oracle: the case's trace is persisted with its
// log faults, the engine rebuilds the log itself, and what it shows must
// be what it showed live over the events the log still holds (the same
// allowed differences as toolsim's rebuild: times and diagnostic seqs).
// Fault sets that lose what a rebuild needs are not checked.
func (c *Case) checkReload(newEngine func() Engine, final *timeline.Timeline, opts Options) []Violation {
	if !selfcheck.Recoverable(c.LogFaults, c.BatchIDs) {
		return nil
	}
	eng := newEngine()
	defer closeEngine(eng)
	r, ok := eng.(Reconstructor)
	if !ok {
		return nil
	}
	end := lastSeq(c.Events)
	p := store.Persist(c.Events, store.Options{Faults: c.LogFaults, Seed: c.FaultSeed})
	live := final
	if len(p.Expected) != len(c.Events) || live == nil {
		var err error
		if live, err = finalTimeline(newEngine, SliceSource(p.Expected)); err != nil {
			return []Violation{failedWith(end, "replaying for the reload check: ", err)}
		}
	}
	got, err := r.Reconstruct(p.Log)
	if err != nil {
		return []Violation{{Seq: end, Oracle: OracleReload, Detail: fmt.Sprintf("faults %s: reconstruct failed: %v", c.LogFaults.String(), err)}}
	}
	f := fieldSet(opts.Fields)
	f.duration = false
	want := f.mask(engineRows(nil, live.Items), opts.NoGrouping)
	have := f.mask(engineRows(nil, got.Items), opts.NoGrouping)
	if !sameRows(want, have) {
		w, g := window(want, have)
		return []Violation{{Seq: end, Oracle: OracleReload,
			Detail: fmt.Sprintf("faults %s: the engine's own reload differs from what it showed live (-live +reloaded)", c.LogFaults.String()), Diff: rowDiff(w, g)}}
	}
	if wd, gd := diagList(live.Diagnostics, false), diagList(got.Diagnostics, false); f.diagnostics && !slices.Equal(wd, gd) {
		return []Violation{{Seq: end, Oracle: OracleReload,
			Detail: fmt.Sprintf("faults %s: the engine's own reload reports other diagnostics (-live +reloaded)", c.LogFaults.String()), Diff: cmp.Diff(wd, gd)}}
	}
	return nil
}

// RoundTrip is oracle (a), live == rebuilt, on the case's trace alone: it
// persists the events as a live system would, with the case's LogFaults
// seeded by FaultSeed (fine: one record per text delta), rebuilds the log
// with toolsim's rebuild and compares the rebuilt transcript with the
// reference engine's live one. It returns the problems the rebuild
// reported and a (-live +rebuilt) diff, "" when they match.
func (c *Case) RoundTrip(fine bool) ([]rebuild.Problem, string, error) {
	rep, err := selfcheck.Rebuild(c.Events, store.Options{Faults: c.LogFaults, Seed: c.FaultSeed, Fine: fine})
	if err != nil {
		return nil, "", err
	}
	return rep.Problems, rep.Diff, nil
}
