package selfcheck

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/toolsim/toolsim/engine"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/rebuild"
	"github.com/toolsim/toolsim/store"
	"github.com/toolsim/toolsim/timeline"
)

// Normalize removes the allowed differences between a live timeline and a
// rebuilt one (docs/persisted-log.md): the clock (`now`), the seq numbers of
// diagnostics (a rebuild numbers its own events), and the end time of tools
// resolved by the end-of-stream rule (they end at `now`). It works on a copy.
func Normalize(tl *timeline.Timeline) *timeline.Timeline {
	out := &timeline.Timeline{Items: tl.Items}
	atEnd := map[string]bool{}
	for _, d := range tl.Diagnostics {
		out.Diagnostics = append(out.Diagnostics, timeline.Diagnostic{Code: d.Code, ID: d.ID})
		if d.Code == timeline.DiagUnfinishedAtEnd {
			atEnd[d.ID] = true
		}
	}
	if len(atEnd) == 0 {
		return out
	}
	out.Items = copyItems(tl.Items, atEnd)
	return out
}

// copyItems deep-copies items, zeroing end times of tools resolved at end.
func copyItems(items []*timeline.Item, atEnd map[string]bool) []*timeline.Item {
	out := make([]*timeline.Item, len(items))
	for i, it := range items {
		out[i] = it.Clone()
		out[i].EachTool(func(t *timeline.Tool) bool {
			if atEnd[t.ID] && t.Status == timeline.StatusInterrupted {
				t.EndT, t.DurationMS = 0, 0
			}
			return true
		})
	}
	return out
}

// Diff compares two timelines after Normalize and returns a
// (-want +got) diff, or "" when they match.
func Diff(want, got *timeline.Timeline) string {
	w, g := Normalize(want), Normalize(got)
	if Equal(w, g) {
		return ""
	}
	return cmp.Diff(w, g, cmpopts.IgnoreFields(timeline.Item{}, "Version"), cmpopts.EquateEmpty())
}

// live runs events through a fresh reference engine.
func live(evs []event.Event, finish bool) *timeline.Timeline {
	e := engine.New(engine.Options{})
	for i := range evs {
		e.Apply(&evs[i])
	}
	if finish {
		e.Finish()
	}
	return e.Timeline()
}

// Report is the outcome of oracle (a) on one trace and fault set.
type Report struct {
	Log      []byte
	Problems []rebuild.Problem
	Diff     string // (-live +rebuilt); "" when they match
	// Rebuilt is the rebuilt timeline, for oracle (c) to compare against.
	Rebuilt *timeline.Timeline
}

// Rebuild is oracle (a): persist the trace with the faults, rebuild the
// log, and compare with the live engine over the events the log still
// holds, ended by the end-of-stream rule.
func Rebuild(evs []event.Event, opts store.Options) (*Report, error) {
	rep, live, err := RebuildLazy(evs, opts)
	if err == nil && live != nil {
		rep.Diff = Diff(live, rep.Rebuilt)
	}
	return rep, err
}

// RebuildLazy is Rebuild without the diff, which costs more than
// the rest when the transcripts differ (as they may under faults that
// lose data): it returns the live timeline when they differ, nil when
// they match.
func RebuildLazy(evs []event.Event, opts store.Options) (*Report, *timeline.Timeline, error) {
	p := store.Persist(evs, opts)
	res, err := rebuild.Rebuild(bytes.NewBuffer(p.Log), rebuild.Options{})
	if err != nil {
		return nil, nil, fmt.Errorf("rebuild: %w", err)
	}
	rep := &Report{Log: p.Log, Problems: res.Problems, Rebuilt: res.Timeline()}
	want := live(p.Expected, true)
	if Equal(Normalize(want), Normalize(rep.Rebuilt)) {
		return rep, nil, nil
	}
	return rep, want, nil
}

// Reconnect is oracle (b): persist the first k events, rebuild them
// with the stream left open, apply the remaining events live, and compare
// with a pure live run. It returns a (-live +reconnected) diff.
func Reconnect(evs []event.Event, k int, opts store.Options) (string, error) {
	p := store.Persist(evs[:k], opts)
	res, err := rebuild.Rebuild(bytes.NewBuffer(p.Log), rebuild.Options{Open: true})
	if err != nil {
		return "", fmt.Errorf("rebuild: %w", err)
	}
	for i := k; i < len(evs); i++ {
		res.Engine.Apply(&evs[i])
	}
	return Diff(live(evs, false), res.Timeline()), nil
}

// Twice is oracle (c): a log rebuilt twice gives the same timeline, and a
// log whose records were all written twice (a replayed log) rebuilds to the
// same timeline as the log itself. first is the log's first rebuild (as in
// Report.Rebuilt). It returns a diff or "". The second rebuild is the
// replayed log's rebuild as it stands between the two copies
// (rebuild.Replayed), so the two cost one rebuild of the replayed log.
func Twice(first *timeline.Timeline, log []byte) (string, error) {
	again, doubled, err := rebuild.Replayed(log, rebuild.Options{})
	if err != nil {
		return "", err
	}
	if !Equal(first, again.Timeline()) {
		d := cmp.Diff(first, again.Timeline(), cmpopts.IgnoreFields(timeline.Item{}, "Version"))
		return "rebuilding twice differs:\n" + d, nil
	}
	if d := Diff(first, doubled.Timeline()); d != "" {
		return "a log replayed twice rebuilds differently:\n" + d, nil
	}
	return "", nil
}

// Recoverable reports whether a fault set leaves a log everything needed
// to rebuild the live transcript: sequence numbers, or parent links that
// no lost record (a crash or a torn line) can break; and batch ids when
// lifecycles are collapsed (else where progress arrived is lost).
func Recoverable(faults fault.List, batchIDs bool) bool {
	has := func(f fault.Fault) bool { return slices.Contains(faults, f) }
	ordered := !has(fault.NoSeq) || (!has(fault.NoParent) && !has(fault.Torn) && !has(fault.Kill))
	return ordered && (batchIDs || !has(fault.Collapse))
}
