package sim

import (
	"slices"
	"strconv"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
)

// Shape names a trace shape the simulator draws beside faults, for the
// rules of SPEC §2 that plain batches never reach. [Scenario.Shapes] counts
// how often each one landed.
type Shape string

// The shapes. Those marked (fault X) are anomalies and land only when the
// fault X is on, so a scenario without faults stays clean.
const (
	// ShapeSpreadStarts spreads a batch's starts over time, so progress,
	// results and permissions of its first tools come between them.
	ShapeSpreadStarts Shape = "spread-starts"
	// ShapeAdjacentBatches drops the text between two batches with distinct
	// batch ids, a tool name in both, so their items are adjacent.
	ShapeAdjacentBatches Shape = "adjacent-batches"
	// ShapeUnknownParent gives a top-level call a parent id that never
	// starts (fault unknown-id).
	ShapeUnknownParent Shape = "unknown-parent"
	// ShapeDanglingParent starts a sub-agent call before its parent, so its
	// parent is unknown when it arrives (fault unknown-id).
	ShapeDanglingParent Shape = "dangling-parent"
	// ShapeParentFirst lets a parent's result come before its children's,
	// and may start a child after its parent finished.
	ShapeParentFirst Shape = "parent-finishes-first"
	// ShapeDurationMismatch gives a result a duration_ms that disagrees
	// with the clock.
	ShapeDurationMismatch Shape = "duration-mismatch"
	// ShapeLongRunning keeps a call running while the text and batches that
	// follow its batch stream.
	ShapeLongRunning Shape = "long-running"
	// ShapeProgressAfterDenial sends progress for a denied call (fault
	// progress-after-result).
	ShapeProgressAfterDenial Shape = "progress-after-denial"
	// ShapeProgressAfterInterrupt sends, after a cancel, progress for a call
	// the cancel interrupted (fault progress-after-result).
	ShapeProgressAfterInterrupt Shape = "progress-after-interrupt"
	// ShapeResultWhilePending delivers a result while the call's permission
	// is still pending (approved elsewhere).
	ShapeResultWhilePending Shape = "result-while-pending"
	// ShapeCancelInText cancels while the turn's opening text streams
	// (fault cancel).
	ShapeCancelInText Shape = "cancel-in-text"
	// ShapeNested gives a sub-agent call children of its own.
	ShapeNested Shape = "nested-subagents"
	// ShapeTruncated ends the trace inside its last turn, with calls still
	// live (end of stream). It lands only with fault missing-result on.
	ShapeTruncated Shape = "truncated"
)

// AllShapes lists every shape, in the order reports show them. Treat it as
// read-only.
var AllShapes = []Shape{
	ShapeSpreadStarts, ShapeAdjacentBatches, ShapeUnknownParent, ShapeDanglingParent,
	ShapeParentFirst, ShapeDurationMismatch, ShapeLongRunning, ShapeProgressAfterDenial,
	ShapeProgressAfterInterrupt, ShapeResultWhilePending, ShapeCancelInText, ShapeNested, ShapeTruncated,
}

// DefaultShapes are the shapes drawn when Options.Shapes is nil.
var DefaultShapes = AllShapes

// shapeGuarantees maps each shape that makes inputs a guarantee rules out
// to those guarantees.
var shapeGuarantees = map[Shape]contract.List{
	ShapeSpreadStarts:           {contract.ResponseFirst}, // and, for a batch without an id, steps-wait and fresh-ids (batchShapes)
	ShapeLongRunning:            {contract.StepsWait, contract.ResponseFirst, contract.ApprovedNext},
	ShapeResultWhilePending:     {contract.ApprovalFirst},
	ShapeUnknownParent:          {contract.KnownIDs},
	ShapeDanglingParent:         {contract.KnownIDs, contract.CallsFirst, contract.StepsWait, contract.ResponseFirst},
	ShapeProgressAfterDenial:    {contract.OneResult, contract.NothingLate},
	ShapeProgressAfterInterrupt: {contract.OneResult, contract.NothingLate},
	ShapeTruncated:              {contract.ResultsBeforeEnd},
}

// ruledOut reports whether the contract c rules shape s out: the shape
// makes an input one of c's guarantees says the upstream never sends.
func ruledOut(s Shape, c contract.List) bool {
	for _, g := range shapeGuarantees[s] {
		if c.Has(g) {
			return true
		}
	}
	return false
}

// shapeOn reports whether shape s may be drawn for this seed.
func (g *gen) shapeOn(s Shape) bool { return g.shapeSet[s] }

// drawShapes decides which shapes this seed may draw: each of
// Options.Shapes (nil: DefaultShapes), with probability ½ under swarm.
func (g *gen) drawShapes() {
	list := g.opts.Shapes
	if list == nil {
		list = DefaultShapes
	}
	g.shapeSet = map[Shape]bool{}
	for _, s := range list {
		if (!g.opts.Swarm || g.rng.IntN(2) == 0) && !ruledOut(s, g.opts.Contract) {
			g.shapeSet[s] = true
		}
	}
}

// batchShapes draws the shapes that concern a whole batch.
func (g *gen) batchShapes(b *batchPlan) {
	// Without batch ids a spread batch reads as two batches, the second
	// started while the first runs, reusing nothing: not under steps-wait
	// or fresh-ids.
	noSpread := b.ID == "" && (g.opts.Contract.Has(contract.StepsWait) || g.opts.Contract.Has(contract.FreshIDs))
	if g.shapeOn(ShapeSpreadStarts) && len(b.Tools) > 1 && g.chance(4) && !noSpread {
		var at int64
		for i := 1; i < len(b.Tools); i++ {
			at += 5 + g.rng.Int64N(150)
			b.Tools[i].StartAt = at
		}
	}
	for i := range b.Tools {
		// A child started early has an unknown parent only if the parent's
		// id was never used before (reused ids are faults of their own).
		t := &b.Tools[i]
		if t.EarlyChild && (g.planned[t.ID] || slices.ContainsFunc(b.Tools[:i], func(o toolPlan) bool { return o.ID == t.ID })) {
			t.EarlyChild = false
		}
	}
	for i := range b.Tools {
		markPlanned(g.planned, &b.Tools[i])
	}
	if g.shapeOn(ShapeUnknownParent) && g.on[fault.UnknownID] && g.feat.children && g.chance(6) {
		t := &b.Tools[g.rng.IntN(len(b.Tools))]
		if len(t.Children) == 0 && !t.ResultFirst {
			g.ids++
			t.Parent = "agent_" + strconv.Itoa(g.ids)
		}
	}
}

// markPlanned records the ids of a call and its children.
func markPlanned(seen map[string]bool, t *toolPlan) {
	seen[t.ID] = true
	for i := range t.Children {
		markPlanned(seen, &t.Children[i])
	}
}

// toolShapes draws the shapes of one call; top says it is not a child.
func (g *gen) toolShapes(t *toolPlan, top bool) {
	if t.Permission == permissionDenied && g.on[fault.ProgressAfterResult] && g.shapeOn(ShapeProgressAfterDenial) && g.chance(2) {
		t.ProgressAfter = true
	}
	if t.Permission == permissionPending && t.Outcome != outcomeMissing && g.shapeOn(ShapeResultWhilePending) && g.chance(2) {
		t.ResultPending = true
	}
	if g.shapeOn(ShapeDurationMismatch) && t.Outcome != outcomeMissing && g.chance(6) {
		t.ReportedMS = 2*t.Duration + 7 + g.rng.Int64N(100)
	}
	if !top {
		return
	}
	if len(t.Children) > 0 {
		t.Outlive = g.shapeOn(ShapeParentFirst) && g.chance(3)
		// batchShapes keeps EarlyChild only for a parent id seen nowhere else.
		t.EarlyChild = g.shapeOn(ShapeDanglingParent) && g.on[fault.UnknownID] && g.chance(3)
	} else if g.shapeOn(ShapeLongRunning) && !t.ResultFirst && g.chance(6) {
		t.Long = true
	}
}

// turnShapes draws the shapes that concern a whole turn.
func (g *gen) turnShapes(t *turnPlan) {
	if len(t.Batches) < 2 || !g.feat.batchIDs || !g.shapeOn(ShapeAdjacentBatches) || !g.chance(3) {
		return
	}
	prev, next := t.Batches[0].Tools, t.Batches[1].Tools
	name, old := prev[len(prev)-1].Name, next[0].Name
	for j := range next {
		if next[j].Name == old {
			next[j].Name = name
		}
	}
	t.Batches[1].Adjacent = true
}

// childActions adds the j-th sub-agent call of parent, which starts at s
// and runs d ms. Children run within their parent, unless it outlives them
// (Outlive: they finish after it, the last one may start after it) or the
// first one starts early (EarlyChild: before its parent). When the batch
// has an id, the child's own message gets one too.
func (g *gen) childActions(parent *toolPlan, j int, b *batchPlan, s, d int64, i int, nested bool, as *actions) {
	c := &parent.Children[j]
	start, cd := s+3+d*int64(j+1)/4, max(d/4, 4)
	rank := 100
	var shape Shape
	switch {
	case parent.EarlyChild && j == 0:
		start, rank, shape = s, -2, ShapeDanglingParent
	case parent.Outlive && j > 0 && j == len(parent.Children)-1:
		start, cd = s+d+2, max(d/4, 4)
	case parent.Outlive:
		cd = max(d, 4)
	}
	batch := ""
	if b.ID != "" {
		batch = b.ID + "/" + parent.ID + "/" + strconv.Itoa(j+1)
	}
	a := as.add(start, rank, i, "", event.Event{Kind: event.KindToolStart, ID: c.ID, Name: c.Name, Args: c.Args, Parent: parent.ID, Batch: batch})
	switch {
	case shape != "":
		a.fault, a.shape = fault.UnknownID, shape
	case nested:
		a.shape = ShapeNested
	}
	for k := range c.Children {
		g.childActions(c, k, b, start, cd, i, true, as)
	}
	if c.Progress > 0 {
		as.add(start+cd/2, 100, i, "", event.Event{Kind: event.KindToolProgress, ID: c.ID, Output: "reading...\n"})
	}
	if c.Outcome != outcomeMissing {
		a := as.add(start+cd, 100, i, "", doneEvent(c))
		if start+cd > s+d && parent.Outlive && parent.Outcome != outcomeMissing {
			a.shape = ShapeParentFirst
		}
	}
}

// hold takes the actions of the batch's long-running calls (all but their
// start) out of acts, to be merged into what follows the batch.
func (g *gen) hold(acts []action, b *batchPlan) (rest, held []action) {
	long := func(a *action) bool {
		return a.tool >= 0 && a.tool < len(b.Tools) && b.Tools[a.tool].Long && a.ev.Kind != event.KindToolStart
	}
	if !slices.ContainsFunc(acts, func(a action) bool { return long(&a) }) {
		return acts, nil
	}
	rest = acts[:0]
	for _, a := range acts {
		if long(&a) {
			a.tool += heldTool
			if a.ev.Kind == event.KindToolDone && a.fault == "" && a.shape == "" {
				a.shape = ShapeLongRunning
			}
			held = append(held, a)
		} else {
			rest = append(rest, a)
		}
	}
	return rest, held
}

// merge moves held actions after the current time, keeping their spacing,
// and merges them into acts in time order.
func (g *gen) merge(acts, held []action) []action {
	if len(held) == 0 {
		return acts
	}
	shift := g.now + 1 + g.rng.Int64N(100) - held[0].t
	for _, a := range held {
		a.t += shift
		acts = append(acts, a)
	}
	slices.SortStableFunc(acts, byTime)
	return acts
}

// doneEvent is a tool's result.
func doneEvent(t *toolPlan) event.Event {
	ev := event.Event{Kind: event.KindToolDone, ID: t.ID, OK: t.Outcome != outcomeFailed, Output: "3 matches\n"}
	switch {
	case !ev.OK:
		ev.Error, ev.Output = "exit status 1", ""
	case t.Quiet:
		ev.Output = ""
	}
	if t.ReportedMS > 0 {
		ms := t.ReportedMS // each event owns its value
		ev.DurationMS = &ms
	}
	return ev
}

// Texts the scheduler numbers, built once: chunkTexts[k] is "chunk k+1",
// lineTexts[k] is "line k".
var (
	chunkTexts = numberedTexts("chunk ", 1, 8)
	lineTexts  = numberedTexts("line ", 0, 64)
)

func numberedTexts(prefix string, from, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = prefix + strconv.Itoa(from+i) + "\n"
	}
	return out
}

// numbered returns table[k] of a table that starts at 0, or builds the
// text past the table's end.
func numbered(table []string, prefix string, k int) string {
	if k < len(table) {
		return table[k]
	}
	return prefix + strconv.Itoa(k) + "\n"
}
