package tui

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/oracle"
	"github.com/toolsim/toolsim/timeline"
)

// Violation is a step-local oracle that failed at one event: the oracle's
// name (oracle.Status, ...) and what was seen.
type Violation struct {
	Oracle string
	Detail string
}

// oracles follows one engine's timeline item by item, so that checking a
// step costs a glance at each item's version plus the work on the items
// the event changed — never a walk of every tool (a turn end with tools
// live walks until it has named maxStillLive).
//
// The rules are the harness's (package oracle: the same names, and the
// same words for status, groups and no-live); what differs is how a
// step's changes are found. The harness
// pairs items with its model's outline; the player has no model, since it
// seeks from checkpoints, so it diffs each changed item with what it held
// before the event.
type oracles struct {
	items []itemState // aligned with the timeline's top-level items
	live  int         // tools not yet terminal, in all items
}

// itemState is what the oracles last saw of a top-level item.
type itemState struct {
	it      *timeline.Item
	version uint64
	tools   []toolState // every tool in the item, children included, in display order
	live    int
	small   string // what is wrong with a tool_group's size ("" when nothing)
}

type toolState struct {
	id     string
	status timeline.Status
}

// toolKey identifies a tool within an item: its id and which occurrence of
// the id it is.
type toolKey struct {
	id string
	n  int
}

// sync takes in a timeline without checking anything: the state the next
// step is checked against.
func (o *oracles) sync(tl *timeline.Timeline) {
	o.items, o.live = o.items[:0], 0
	var arena []toolState // one allocation for the tools of every item
	for _, it := range tl.Items {
		start := len(arena)
		st := seeItem(it, arena)
		arena = st.tools
		st.tools = st.tools[start:len(st.tools):len(st.tools)]
		o.items = append(o.items, st)
		o.live += st.live
	}
}

// seeItem records an item, appending its tools to tools.
func seeItem(it *timeline.Item, tools []toolState) itemState {
	st := itemState{it: it, version: it.Version, tools: tools}
	if it.Kind == timeline.ItemToolGroup {
		st.small = oracle.SmallGroup(len(it.Tools))
	}
	it.EachTool(func(t *timeline.Tool) bool {
		st.tools = append(st.tools, toolState{t.ID, t.Status})
		if !t.Status.Terminal() {
			st.live++
		}
		return true
	})
	return st
}

// step takes in the timeline after ev and returns the step-local SPEC §5
// oracles ev failed: statuses move only as allowed and never leave a
// terminal status; the event adds exactly the tool it starts and no tool
// disappears; nothing is live after turn_end or cancel; groups hold two
// tools or more.
func (o *oracles) step(ev *event.Event, tl *timeline.Timeline) []Violation {
	d := stepDiff{delta: map[string]int{}}
	for i, it := range tl.Items {
		if i < len(o.items) && o.items[i].it == it && o.items[i].version == it.Version {
			continue
		}
		st := seeItem(it, nil)
		if i < len(o.items) {
			d.compare(o.items[i], st)
			o.items[i] = st
		} else {
			d.compare(itemState{}, st)
			o.items = append(o.items, st)
		}
	}
	for _, gone := range o.items[len(tl.Items):] {
		d.compare(gone, itemState{})
	}
	o.items = o.items[:len(tl.Items)]
	o.live += d.live
	out := append(d.found, d.once(ev)...)
	if oracle.EndsTurn(ev.Kind) && o.live > 0 {
		out = o.stillLive(out, string(ev.Kind))
	}
	return out
}

// maxStillLive bounds the tools a frame names as still live; the rest are
// counted in one more violation.
const maxStillLive = 16

// stillLive appends a violation for each tool still live after the event
// named after, up to maxStillLive.
func (o *oracles) stillLive(out []Violation, after string) []Violation {
	named := 0
walk:
	for _, st := range o.items {
		for _, t := range st.tools {
			if named == maxStillLive {
				break walk
			}
			if !t.status.Terminal() {
				out = append(out, Violation{oracle.NoLive, oracle.StillLive(t.id, t.status, after)})
				named++
			}
		}
	}
	if rest := o.live - named; rest > 0 {
		out = append(out, Violation{oracle.NoLive, fmt.Sprintf("%d more tools are still live after %s", rest, after)})
	}
	return out
}

// stepDiff accumulates what changed in the items one event touched.
type stepDiff struct {
	found []Violation
	delta map[string]int // tools shown per id: after minus before
	live  int
}

// compare checks one item's tools before and after, pairing them by id and
// occurrence.
func (d *stepDiff) compare(before, after itemState) {
	d.live += after.live - before.live
	if after.small != "" && before.small == "" {
		d.found = append(d.found, Violation{oracle.Groups, after.small})
	}
	// Tools are appended, never reordered: the common prefix pairs by
	// position, and only what follows it needs pairing by id.
	n := 0
	for n < len(before.tools) && n < len(after.tools) && before.tools[n].id == after.tools[n].id {
		if b, a := before.tools[n].status, after.tools[n].status; b != a {
			d.found = append(d.found, statusMove(before.tools[n].id, b, a)...)
		}
		n++
	}
	if n == len(before.tools) && n == len(after.tools) {
		return
	}
	before.tools, after.tools = before.tools[n:], after.tools[n:]
	old := map[toolKey]timeline.Status{}
	seen := map[string]int{}
	for _, t := range before.tools {
		old[toolKey{t.id, seen[t.id]}] = t.status
		seen[t.id]++
		d.delta[t.id]--
	}
	clear(seen)
	var moved []Violation
	for _, t := range after.tools {
		k := toolKey{t.id, seen[t.id]}
		seen[t.id]++
		d.delta[t.id]++
		if b, ok := old[k]; ok && b != t.status {
			moved = append(moved, statusMove(k.id, b, t.status)...)
		}
	}
	d.found = append(d.found, moved...)
}

// statusMove reports a status move that is not allowed.
func statusMove(id string, b, a timeline.Status) []Violation {
	if bad := oracle.Move(id, b, a); bad != "" {
		return []Violation{{oracle.Status, bad}}
	}
	return nil
}

// once checks that a tool_start with an id added one tool with that id,
// and that nothing else appeared or disappeared.
func (d *stepDiff) once(ev *event.Event) []Violation {
	if ev.Kind == event.KindToolStart && ev.ID != "" {
		d.delta[ev.ID]-- // the one tool it should add
	}
	var out []Violation
	for _, id := range slices.SortedFunc(maps.Keys(d.delta), cmp.Compare) {
		if n := d.delta[id]; n != 0 {
			out = append(out, Violation{oracle.Once, fmt.Sprintf("tool %s: %+d rows more than the event accounts for", id, n)})
		}
	}
	return out
}
