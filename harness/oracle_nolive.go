package harness

import (
	"maps"
	"slices"

	"github.com/toolsim/toolsim/oracle"
	"github.com/toolsim/toolsim/timeline"
)

// noLiveOracle checks §5.5: after turn_end, cancel and the end of the
// stream no tool is live. It keeps how many live tools each engine item
// held when last compared, so the check costs nothing when all is well.
// A group compared in part (see partialMin) counts as unsure, and is
// outlined whole at the next turn_end or cancel.
type noLiveOracle struct {
	live  map[int]int // item index → live tools in it (-1: unsure), for items with some
	total int         // live tools in the items whose count is known, plus one per unsure item
}

// unsure marks item i's count as unknown.
func (o *noLiveOracle) unsure(i int) { o.set(i, -1) }

// set records item i's count of live tools (-1: unsure).
func (o *noLiveOracle) set(i, n int) {
	o.total += weight(n) - weight(o.live[i])
	if n == 0 {
		delete(o.live, i)
	} else {
		o.live[i] = n
	}
}

// weight is what an item's count adds to the total: an unsure item one.
func weight(n int) int {
	if n < 0 {
		return 1
	}
	return n
}

func (o *noLiveOracle) observe(p *pass, s *step) {
	if o.live == nil {
		o.live = map[int]int{}
	}
	for k := range s.pairs {
		pr := &s.pairs[k]
		if pr.partial {
			o.unsure(pr.i)
		} else {
			o.set(pr.i, liveRows(s.gotRows(pr)))
		}
	}
	k := s.ev.Kind
	if !s.last || o.total == 0 || (!oracle.EndsTurn(k) && k != endOfStream) {
		return
	}
	for _, i := range slices.Sorted(maps.Keys(o.live)) {
		n := 0
		eachShown(s.tl.Items[i], func(t *timeline.Tool) {
			if !t.Status.Terminal() {
				n++
				p.fail(Violation{Seq: s.ev.Seq, Oracle: OracleNoLive, Detail: oracle.StillLive(t.ID, t.Status, string(k)),
					subjects: about("tool "+t.ID, "tool left "+string(t.Status))})
			}
		})
		o.set(i, n)
	}
}

// eachShown calls fn for every tool an outline of the item shows (see
// model.ItemRows), in outline order, without building the outline.
func eachShown(it *timeline.Item, fn func(*timeline.Tool)) {
	var tools []*timeline.Tool
	switch it.Kind {
	case timeline.ItemTool, timeline.ItemMetaTool:
		if it.Tool != nil {
			tools = []*timeline.Tool{it.Tool}
		}
	case timeline.ItemToolGroup:
		tools = it.Tools
	}
	for _, t := range tools {
		fn(t)
		for _, c := range t.Children {
			eachShown(c, fn)
		}
	}
}

// liveRows counts the tools of an outline that are not terminal.
func liveRows(rows []row) int {
	n := 0
	for _, r := range rows {
		if r.Tool() && !r.Status.Terminal() {
			n++
		}
	}
	return n
}
