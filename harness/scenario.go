package harness

import (
	"fmt"
	"slices"

	"github.com/google/go-cmp/cmp"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness/internal/selfcheck"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/sim/tracemeta"
	"github.com/toolsim/toolsim/store"
	"github.com/toolsim/toolsim/timeline"
)

// Case is what CheckCase checks: a trace, and the log faults and reconnect
// point of the reconstruction oracles. A sim.Scenario gives one with
// CaseOf; a trace file is a Case with only Events.
type Case struct {
	Events      []event.Event
	LogFaults   fault.List // persistence faults for live==rebuilt (§5.7)
	FaultSeed   uint64     // drives the persistence faults
	ReconnectAt int        // > 0: rebuild this many events, go on live
	CrashAt     int        // > 0: kill and resume an engine that can crash after this many events
	BatchIDs    bool       // every call has a batch id (collapse is then recoverable)
	// NoRebuild skips the reconstruction oracles (a shrink for an oracle
	// that is not one of them).
	NoRebuild bool
	// Generated is set for a case toolsim made (a seed, an exhaustive
	// ordering, a shrink): its header says how its log was faulted.
	Generated bool
	// NoTwice skips the replay-twice oracle (c), which tests the log path
	// rather than event order: exhaustive mode leaves it to campaigns.
	NoTwice bool
}

// CaseOf turns a generated scenario into the case its oracles check.
func CaseOf(sc *sim.Scenario) *Case {
	c := &Case{Events: sc.Events, FaultSeed: sc.Seed, ReconnectAt: sc.ReconnectAt, CrashAt: sc.CrashAt, BatchIDs: sc.BatchIDs, Generated: true}
	c.LogFaults = slices.Clone(sc.LogFaults)
	return c
}

// ReadCase builds the case a trace file describes: its events and, for a
// trace toolsim wrote, the log faults, fault seed and reconnect point its
// header h records (nil: none). An error names the header field at fault.
func ReadCase(h *event.Header, evs []event.Event) (*Case, error) {
	r, err := tracemeta.Read(h)
	if err != nil {
		return nil, err
	}
	return &Case{Events: evs, Generated: r.Generated, LogFaults: r.LogFaults,
		FaultSeed: r.FaultSeed, ReconnectAt: r.ReconnectAt, CrashAt: r.CrashAt, BatchIDs: r.BatchIDs}, nil
}

// Final is the timeline a fresh engine from newEngine shows after the
// whole case and the end-of-stream rule, as the determinism oracle
// replays it; an error is the engine's (or the trace's).
func (c *Case) Final(newEngine func() Engine) (*timeline.Timeline, error) {
	return finalTimeline(newEngine, SliceSource(c.Events))
}

// CheckCase runs every oracle on a case: the per-event oracles on the
// engine (CheckWith), order independence on the engine, the engine's own
// reload with opts.Reload, and toolsim's own reconstruction oracles (live
// == rebuilt, reconnect, replay-twice) with opts.SelfCheck. With
// opts.First it stops at the first failing oracle.
//
// A panic anywhere in the checks (the engine, or toolsim's own persisted
// log writer and rebuild) is reported as an OraclePanic violation. Every
// violation carries its signature (Sign).
func CheckCase(newEngine func() Engine, c *Case, opts Options) []Violation {
	found := checkCase(newEngine, c, opts)
	Sign(c.Events, found, opts)
	return found
}

func checkCase(newEngine func() Engine, c *Case, opts Options) (found []Violation) {
	defer func() {
		if r := recover(); r != nil {
			found = append(found, Violation{Seq: lastSeq(c.Events), Oracle: OraclePanic, Detail: fmt.Sprintf("while checking the case: %v", r)})
		}
	}()
	found, final := checkWith(newEngine, c.Events, opts)
	done := func() bool { return opts.First && len(found) > 0 }
	if done() || opts.StreamOnly {
		return found
	}
	found = append(found, checkOrder(newEngine, c.Events, final, opts)...)
	if done() {
		return found
	}
	if opts.Reload {
		found = append(found, c.checkReload(newEngine, final, opts)...)
	}
	if done() {
		return found
	}
	if opts.Crash {
		found = append(found, c.checkCrash(newEngine)...)
	}
	if done() || !opts.SelfCheck || c.NoRebuild {
		return found
	}
	return append(found, c.checkRebuild()...)
}

// checkOrder is oracle §5.6: it delivers every run of consecutive results
// for distinct ids in reverse order and checks that the final timeline
// shows the same tools in the same states with the same anomalies (times
// aside, since results now land at other instants). a is the in-order
// final timeline when the caller has it (nil: replay for it).
func checkOrder(newEngine func() Engine, evs []event.Event, a *timeline.Timeline, opts Options) []Violation {
	if !anyRun(evs) {
		return nil
	}
	found, _ := orderOracle(newEngine, func() Source { return SliceSource(evs) }, a, lastSeq(evs), opts)
	return found
}

// orderOracle is checkOrder over a trace it can read as often as it
// needs (open). last is the seq of the trace's last event.
func orderOracle(newEngine func() Engine, open func() Source, a *timeline.Timeline, last int64, opts Options) (found []Violation, err error) {
	defer func() {
		if r := recover(); r != nil {
			found = []Violation{{Seq: last, Oracle: OraclePanic, Detail: fmt.Sprintf("with results reordered: %v", r)}}
		}
	}()
	if a == nil {
		if a, err = finalTimeline(newEngine, open()); err != nil {
			if ie, ok := asInput(err); ok {
				return nil, ie
			}
			return []Violation{failedWith(last, "", err)}, nil
		}
	}
	rev := newReversing(open())
	var src Source = rev
	if g := opts.Contract.Guarantees; len(g) > 0 {
		// Under a contract, an order the upstream never sends is no
		// input of the library's: results reordered out of a trace inside
		// the contract (an approved call's result before a sibling's,
		// under approved-next) are not checked.
		evs, err := drain(rev)
		if err != nil {
			return nil, &inputError{err}
		}
		if !rev.moved {
			return nil, nil
		}
		if g.Check(evs) != nil {
			if orig, err := drain(open()); err == nil && g.Check(orig) == nil {
				return nil, nil
			}
		}
		src = SliceSource(evs)
	}
	b, err := finalTimeline(newEngine, src)
	if ie, ok := asInput(err); ok {
		return nil, ie
	}
	if err != nil {
		return []Violation{failedWith(last, "with results reordered: ", err)}, nil
	}
	if !rev.moved {
		return nil, nil
	}
	return compareOrder(a, b, last, opts), nil
}

// compareOrder compares the in-order and reordered final timelines.
func compareOrder(a, b *timeline.Timeline, last int64, opts Options) []Violation {
	f := fieldSet(opts.Fields)
	f.duration = false
	if !f.sameItems(a.Items, b.Items, false) {
		want, got := f.mask(engineRows(nil, a.Items), false), f.mask(engineRows(nil, b.Items), false)
		if !sameRows(want, got) {
			w, g := window(want, got)
			return []Violation{{Seq: last, Oracle: OracleOrder,
				Detail: "delivering results in another order changed the final timeline (-in order +reordered)", Diff: rowDiff(w, g)}}
		}
	}
	if !f.diagnostics {
		return nil
	}
	wd, gd := diagList(a.Diagnostics, false), diagList(b.Diagnostics, false)
	if !slices.Equal(wd, gd) {
		return []Violation{{Seq: last, Oracle: OracleOrder,
			Detail: "delivering results in another order changed the diagnostics (-in order +reordered)", Diff: cmp.Diff(wd, gd)}}
	}
	return nil
}

// anyRun reports whether a trace holds two consecutive tool_done events
// for distinct, non-empty ids: whether the order oracle moves anything.
func anyRun(evs []event.Event) bool {
	for i := 1; i < len(evs); i++ {
		a, b := &evs[i-1], &evs[i]
		if a.Kind == event.KindToolDone && b.Kind == event.KindToolDone && a.ID != "" && b.ID != "" && a.ID != b.ID {
			return true
		}
	}
	return false
}

// reconnectFaults are the persistence faults under which a reconnect must
// reproduce the live timeline exactly (a crash or a torn line loses
// records, and ties without seq lose order). Collapse counts only when
// every call has a batch id, as for live == rebuilt.
var reconnectFaults = fault.List{fault.LateText, fault.SubagentBlock, fault.Collapse, fault.Dup, fault.NoSeq}

// checkRebuild runs the reconstruction oracles of SPEC §4 and §5.7.
func (c *Case) checkRebuild() []Violation {
	end := lastSeq(c.Events)
	sopts := store.Options{Faults: c.LogFaults, Seed: c.FaultSeed}
	rep, live, err := selfcheck.RebuildLazy(c.Events, sopts)
	if err != nil {
		return []Violation{{Seq: end, Oracle: OracleRebuild, Detail: err.Error()}}
	}
	switch {
	case live == nil:
	case selfcheck.Recoverable(c.LogFaults, c.BatchIDs):
		return []Violation{{Seq: end, Oracle: OracleRebuild, Detail: fmt.Sprintf("faults %s: the rebuilt transcript differs from the live one (-live +rebuilt)", c.LogFaults.String()), Diff: selfcheck.Diff(live, rep.Rebuilt)}}
	case len(rep.Problems) == 0:
		return []Violation{{Seq: end, Oracle: OracleReported, Detail: fmt.Sprintf("faults %s: the rebuilt transcript differs and no problem was reported (-live +rebuilt)", c.LogFaults.String()), Diff: selfcheck.Diff(live, rep.Rebuilt)}}
	}
	if !c.NoTwice {
		if d, err := selfcheck.Twice(rep.Rebuilt, rep.Log); err != nil || d != "" {
			return []Violation{{Seq: end, Oracle: OracleIdempot, Detail: fmt.Sprint(d, err)}}
		}
	}
	if c.ReconnectAt > 0 && c.ReconnectAt < len(c.Events) {
		var fs fault.List
		for _, f := range c.LogFaults {
			// Collapse without batch ids loses grouping: not recoverable.
			if slices.Contains(reconnectFaults, f) && (c.BatchIDs || f != fault.Collapse) {
				fs = append(fs, f)
			}
		}
		d, err := selfcheck.Reconnect(c.Events, c.ReconnectAt, store.Options{Faults: fs, Seed: c.FaultSeed})
		if err != nil || d != "" {
			return []Violation{{Seq: c.Events[c.ReconnectAt-1].Seq, Oracle: OracleReconnect,
				Detail: fmt.Sprintf("faults %s: rebuilt %d events then went on live: differs from pure live (-live +reconnected) %v", fs.String(), c.ReconnectAt, err), Diff: d}}
		}
	}
	return nil
}
