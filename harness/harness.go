package harness

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/render"
	"github.com/toolsim/toolsim/timeline"
)

// Engine is what the harness drives: it applies events in trace order and
// exposes its current timeline.
type Engine interface {
	Apply(ev *event.Event)
	Finish()
	Timeline() *timeline.Timeline
}

// Oracle names, after SPEC §5.
const (
	OracleStatus      = "status"      // §5.2: terminal states never change; only allowed moves
	OracleOnce        = "once"        // §5.4: every started tool appears exactly once
	OracleNoLive      = "no-live"     // §5.5: after turn_end or cancel, no tool is live
	OracleGroups      = "groups"      // §5.3: a group holds 2+ tools
	OracleIncremental = "incremental" // §5.9: incremental render equals a fresh render
	OracleDeterminism = "determinism" // §5.8: the same trace gives the same timeline
)

// Violation is one failed oracle: the event after which it failed, which
// oracle, and what was seen.
type Violation struct {
	Seq    int64
	Oracle string
	Detail string
}

// String formats the violation as "after seq N: oracle: detail".
func (v Violation) String() string {
	return fmt.Sprintf("after seq %d: %s: %s", v.Seq, v.Oracle, v.Detail)
}

// Check replays evs through a fresh engine from newEngine, checking the
// oracles after every event and after Finish, and then replays them through
// a second fresh engine to check determinism. It returns every violation.
func Check(newEngine func() Engine, evs []event.Event) []Violation {
	c := &checker{prev: map[toolKey]timeline.Status{}, started: map[string]int{}}
	eng := newEngine()
	inc := render.NewIncremental(render.Options{Width: 80, Output: true})
	for i := range evs {
		ev := &evs[i]
		eng.Apply(ev)
		c.observe(ev, eng.Timeline(), inc)
	}
	eng.Finish()
	c.observe(&event.Event{Seq: lastSeq(evs), Kind: "end_of_stream"}, eng.Timeline(), inc)
	c.determinism(newEngine, evs, eng.Timeline())
	return c.found
}

// sortedKeys returns a map's tool keys in a stable order, so violations
// come out the same on every run.
func sortedKeys(m map[toolKey]timeline.Status) []toolKey {
	keys := make([]toolKey, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b toolKey) int {
		if c := strings.Compare(a.id, b.id); c != 0 {
			return c
		}
		return a.n - b.n
	})
	return keys
}

func lastSeq(evs []event.Event) int64 {
	if len(evs) == 0 {
		return 0
	}
	return evs[len(evs)-1].Seq
}

// toolKey identifies a tool across snapshots: its id and which occurrence
// of that id it is, in display order.
type toolKey struct {
	id string
	n  int
}

type checker struct {
	prev    map[toolKey]timeline.Status
	started map[string]int // valid tool_start events per id
	found   []Violation
}

func (c *checker) fail(seq int64, oracle, format string, args ...any) {
	c.found = append(c.found, Violation{Seq: seq, Oracle: oracle, Detail: fmt.Sprintf(format, args...)})
}

// observe checks one snapshot, taken after ev.
func (c *checker) observe(ev *event.Event, tl *timeline.Timeline, inc *render.Incremental) {
	if ev.Kind == event.KindToolStart && ev.ID != "" {
		c.started[ev.ID]++
	}
	cur := c.collect(ev.Seq, tl)
	c.checkStatuses(ev.Seq, cur)
	c.checkOnce(ev.Seq, cur)
	if ev.Kind == event.KindTurnEnd || ev.Kind == event.KindCancel || ev.Kind == "end_of_stream" {
		for _, k := range sortedKeys(cur) {
			if s := cur[k]; !s.Terminal() {
				c.fail(ev.Seq, OracleNoLive, "tool %s is still %s after %s", k.id, s, ev.Kind)
			}
		}
	}
	if got, want := string(inc.Bytes(tl)), render.Render(tl, render.Options{Width: 80, Output: true}); got != want {
		c.fail(ev.Seq, OracleIncremental, "incremental render differs from a fresh render")
	}
	c.prev = cur
}

// collect lists every tool by key, checking group shape on the way.
func (c *checker) collect(seq int64, tl *timeline.Timeline) map[toolKey]timeline.Status {
	cur := map[toolKey]timeline.Status{}
	seen := map[string]int{}
	var walk func(items []*timeline.Item)
	walk = func(items []*timeline.Item) {
		for _, it := range items {
			if it.Kind == timeline.ItemToolGroup && len(it.Tools) < 2 {
				c.fail(seq, OracleGroups, "a tool_group holds %d tools", len(it.Tools))
			}
			it.EachTool(func(t *timeline.Tool) bool {
				cur[toolKey{t.ID, seen[t.ID]}] = t.Status
				seen[t.ID]++
				return true
			})
		}
	}
	walk(tl.Items)
	return cur
}

// allowed lists the non-terminal status moves of docs/timeline.md.
var allowed = map[[2]timeline.Status]bool{
	{timeline.StatusRunning, timeline.StatusPending}: true,
	{timeline.StatusPending, timeline.StatusRunning}: true,
}

func (c *checker) checkStatuses(seq int64, cur map[toolKey]timeline.Status) {
	for _, k := range sortedKeys(c.prev) {
		before := c.prev[k]
		after, ok := cur[k]
		switch {
		case !ok || before == after:
		case before.Terminal():
			c.fail(seq, OracleStatus, "tool %s went from terminal %s to %s", k.id, before, after)
		case !after.Terminal() && !allowed[[2]timeline.Status{before, after}]:
			c.fail(seq, OracleStatus, "tool %s moved %s → %s", k.id, before, after)
		}
	}
}

func (c *checker) checkOnce(seq int64, cur map[toolKey]timeline.Status) {
	shown := map[string]int{}
	for k := range cur {
		shown[k.id]++
	}
	for _, id := range slices.Sorted(maps.Keys(c.started)) {
		if n := c.started[id]; shown[id] != n {
			c.fail(seq, OracleOnce, "tool %s started %d times, shown %d times", id, n, shown[id])
		}
	}
	for _, id := range slices.Sorted(maps.Keys(shown)) {
		if c.started[id] == 0 {
			c.fail(seq, OracleOnce, "tool %s shown %d times but never started", id, shown[id])
		}
	}
}

// determinism replays the trace through a second engine and compares the
// final timelines' JSON.
func (c *checker) determinism(newEngine func() Engine, evs []event.Event, first *timeline.Timeline) {
	want, _ := json.Marshal(first)
	eng := newEngine()
	for i := range evs {
		eng.Apply(&evs[i])
	}
	eng.Finish()
	if got, _ := json.Marshal(eng.Timeline()); string(got) != string(want) {
		c.fail(lastSeq(evs), OracleDeterminism, "a second replay gave a different timeline")
	}
}
