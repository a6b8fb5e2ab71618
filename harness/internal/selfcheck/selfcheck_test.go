package selfcheck_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
	"github.com/toolsim/toolsim/harness/internal/selfcheck"
	"github.com/toolsim/toolsim/rebuild"
	"github.com/toolsim/toolsim/sim"
	"github.com/toolsim/toolsim/store"
	"pgregory.net/rapid"
)

// drawFaults draws a fault set from the given pool.
func drawFaults(t *rapid.T, pool fault.List) fault.List {
	var out fault.List
	for _, f := range pool {
		if rapid.Bool().Draw(t, "fault "+string(f)) {
			out = append(out, f)
		}
	}
	return out
}

// TestPropRebuild is oracle (a) on generated traces and fault sets: with an
// order to recover, the rebuilt timeline equals the live one; without, it
// either still does or the rebuild reports a problem.
func TestPropRebuild(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		batchIDs := rapid.Bool().Draw(t, "batch ids")
		evs := sim.Synthetic(rapid.Uint64().Draw(t, "trace seed"), sim.SyntheticOptions{
			Events: rapid.IntRange(20, 300).Draw(t, "events"), CancelEvery: 3, BatchIDs: batchIDs,
		})
		opts := store.Options{
			Faults: drawFaults(t, fault.Log),
			Seed:   rapid.Uint64().Draw(t, "fault seed"),
			Fine:   rapid.Bool().Draw(t, "fine"),
		}
		rep, err := selfcheck.Rebuild(evs, opts)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case rep.Diff == "":
		case selfcheck.Recoverable(opts.Faults, batchIDs):
			t.Fatalf("faults %v: rebuilt differs from live (-live +rebuilt):\n%s\nproblems: %v", opts.Faults, rep.Diff, rep.Problems)
		case len(rep.Problems) == 0:
			t.Fatalf("faults %v: rebuilt differs from live and nothing was reported (-live +rebuilt):\n%s", opts.Faults, rep.Diff)
		}
	})
}

// TestPropReconnect is oracle (b): rebuild a prefix, continue live.
func TestPropReconnect(t *testing.T) {
	pool := fault.List{fault.LateText, fault.SubagentBlock, fault.Collapse, fault.Dup, fault.NoSeq}
	rapid.Check(t, func(t *rapid.T) {
		evs := sim.Synthetic(rapid.Uint64().Draw(t, "trace seed"), sim.SyntheticOptions{
			Events: rapid.IntRange(20, 200).Draw(t, "events"), CancelEvery: 3, BatchIDs: true,
		})
		k := rapid.IntRange(1, len(evs)).Draw(t, "reconnect after")
		opts := store.Options{Faults: drawFaults(t, pool), Seed: rapid.Uint64().Draw(t, "fault seed")}
		diff, err := selfcheck.Reconnect(evs, k, opts)
		if err != nil {
			t.Fatal(err)
		}
		if diff != "" {
			t.Fatalf("faults %v, reconnect after event %d: differs from pure live (-live +reconnected):\n%s", opts.Faults, k, diff)
		}
	})
}

// twice runs oracle (c) on a log from its own first rebuild.
func twice(log []byte) (string, error) {
	first, err := rebuild.Rebuild(bytes.NewReader(log), rebuild.Options{})
	if err != nil {
		return "", err
	}
	return selfcheck.Twice(first.Timeline(), log)
}

// TestPropTwice is oracle (c).
func TestPropTwice(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		evs := sim.Synthetic(rapid.Uint64().Draw(t, "trace seed"), sim.SyntheticOptions{Events: rapid.IntRange(20, 200).Draw(t, "events"), CancelEvery: 3})
		opts := store.Options{Faults: drawFaults(t, fault.Log), Seed: rapid.Uint64().Draw(t, "fault seed")}
		diff, err := twice(store.Persist(evs, opts).Log)
		if err != nil {
			t.Fatal(err)
		}
		if diff != "" {
			t.Fatalf("faults %v: %s", opts.Faults, diff)
		}
	})
}

// TestCollapseResultBeforeStart: under collapse, a call whose result came
// before its start once got a lifecycle that folded later (late) progress,
// which the rebuild then gave to the next call with that id. Found in
// review with hand-made traces.
func TestCollapseResultBeforeStart(t *testing.T) {
	trace := `{"seq":1,"t":1,"kind":"tool_done","id":"a","ok":false}
{"seq":2,"t":3,"kind":"tool_start","id":"a","name":"read","args":{},"batch":"m2"}
{"seq":3,"t":4,"kind":"tool_progress","id":"a"}
{"seq":4,"t":5,"kind":"tool_start","id":"a","name":"read","args":{},"batch":"m3"}
`
	_, evs, err := event.ReadAll(strings.NewReader(trace), event.ReaderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := selfcheck.Rebuild(evs, store.Options{Faults: fault.List{fault.Collapse}})
	if err != nil || rep.Diff != "" {
		t.Fatalf("rebuilt differs from live (-live +rebuilt):\n%s (err %v)", rep.Diff, err)
	}
}
