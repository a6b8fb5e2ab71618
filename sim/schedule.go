package sim

import (
	"cmp"
	"encoding/json"
	"slices"
	"strconv"
	"sync"

	"github.com/toolsim/toolsim/contract"
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
)

// action is one event of a batch at a time on the virtual clock. rank
// orders actions at the same instant (starts first); tie is drawn from the
// seed, so same-instant results still come in a random order.
type action struct {
	t     int64
	rank  int
	tie   uint64
	ev    event.Event
	tool  int         // index of the batch tool it belongs to; -1 for strays
	fault fault.Fault // the fault it injects, if any
	shape Shape       // the shape it realizes, if any
}

// heldTool offsets the tool index of actions held over from an earlier
// batch, so that they never match a tool of the batch they are merged into.
const heldTool = 1000

// scratch pools the buffers a scenario is generated in and never keeps
// (its actions, and the events before their exact copy), so that
// generators on parallel workers reuse them instead of allocating them
// per scenario.
type scratch[T any] struct{ pool sync.Pool }

var (
	actionScratch scratch[action]
	eventScratch  scratch[event.Event]
)

// take returns an empty buffer with room for n values.
func (s *scratch[T]) take(n int) []T {
	if p, ok := s.pool.Get().(*[]T); ok && cap(*p) >= n {
		return (*p)[:0]
	}
	return make([]T, 0, n)
}

// put gives a buffer back, cleared so that it keeps nothing alive.
func (s *scratch[T]) put(b []T) {
	clear(b[:cap(b)])
	s.pool.Put(&b)
}

// actions collects a batch's actions.
type actions struct {
	g    *gen
	list []action
}

// add appends an action and returns it, valid until the next add.
func (b *actions) add(t int64, rank, tool int, f fault.Fault, ev event.Event) *action {
	b.list = append(b.list, action{t: t, rank: rank, tie: b.g.rng.Uint64(), ev: ev, tool: tool, fault: f})
	return &b.list[len(b.list)-1]
}

func byTime(a, b action) int {
	if a.t != b.t {
		return cmp.Compare(a.t, b.t)
	}
	if a.rank != b.rank {
		return a.rank - b.rank
	}
	return cmp.Compare(a.tie, b.tie)
}

// schedule turns the plan into events.
func (g *gen) schedule(p *scenarioPlan) {
	for _, turn := range p.Turns {
		g.scheduleTurn(&turn)
	}
}

// emit appends an event at the current time.
func (g *gen) emit(ev event.Event) {
	ev.Seq, ev.T = int64(len(g.evs)+1), g.now
	g.evs = append(g.evs, ev)
}

// tick advances the clock by 1..max ms.
func (g *gen) tick(max int) { g.now += 1 + g.rng.Int64N(int64(max)) }

func (g *gen) texts(kind event.Kind, parts []string) {
	for _, s := range parts {
		g.tick(30)
		g.emit(event.Event{Kind: kind, Text: s})
	}
}

func (g *gen) scheduleTurn(t *turnPlan) {
	if t.User != "" {
		g.emit(event.Event{Kind: event.KindTurnStart, Role: event.RoleUser})
		g.tick(5)
		g.emit(event.Event{Kind: event.KindUser, Text: t.User})
		g.emit(event.Event{Kind: event.KindTurnEnd})
	}
	g.tick(200)
	g.emit(event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant})
	g.texts(event.KindThinking, t.Thinking)
	if c := t.Cancel; c != nil && c.InText && len(t.Text) > 1 {
		g.cancelInText(t.Text[0])
		return
	}
	g.texts(event.KindText, t.Text)
	held, cancelled := g.scheduleBatches(t)
	if cancelled {
		return
	}
	if t.Closing != "" {
		g.texts(event.KindText, []string{t.Closing})
	}
	g.play(g.merge(nil, held))
	g.tick(20)
	g.emit(event.Event{Kind: event.KindTurnEnd})
}

// scheduleBatches plays the turn's batches with the text and error between
// them. It returns the actions of long-running calls still held, or
// cancelled when the turn ended in a cancel.
func (g *gen) scheduleBatches(t *turnPlan) (held []action, cancelled bool) {
	sep := true // something shown since the last batch
	for i := range t.Batches {
		g.tick(50)
		b := &t.Batches[i]
		acts := g.merge(g.batchActions(b, b.Adjacent && !sep && b.ID != ""), held)
		held = nil
		if c := t.Cancel; c != nil && c.Batch == i {
			g.cancelIn(acts, b, c)
			return nil, true
		}
		if i < len(t.Batches)-1 || t.Closing != "" {
			acts, held = g.hold(acts, b)
		}
		g.play(acts)
		sep = false
		if i == 0 && t.Error != "" {
			g.tick(10)
			g.emit(event.Event{Kind: event.KindError, Message: t.Error})
			sep = true
		}
		if i < len(t.Batches)-1 && g.feat.text && !t.Batches[i+1].Adjacent {
			g.texts(event.KindText, []string{"Next step."})
			sep = true
		}
	}
	return held, false
}

// play emits actions in order, moving the clock to each one's time.
func (g *gen) play(acts []action) {
	for _, a := range acts {
		g.now = max(g.now, a.t)
		g.emit(a.ev)
		if a.fault != "" || a.shape != "" {
			g.count(a.fault, a.shape)
		}
	}
}

// batchActions lays out every event of a batch on the clock: the starts at
// the batch's first instant (or spread over it), each tool's permission,
// progress, children and result after it, and the strays anywhere in the
// span. adjacent says the batch follows the previous one with nothing
// shown in between.
func (g *gen) batchActions(b *batchPlan, adjacent bool) []action {
	t0 := g.now
	as := &actions{g: g, list: g.actBuf[:0]}
	for i := range b.Tools {
		tool := &b.Tools[i]
		s := t0 + tool.StartAt
		if tool.ResultFirst {
			as.add(t0, -1, i, fault.ResultBeforeStart, doneEvent(tool))
		}
		ev := event.Event{Kind: event.KindToolStart, ID: tool.ID, Name: tool.Name, Args: tool.Args, Batch: b.ID, Parent: tool.Parent}
		a := as.add(s, i, i, "", ev)
		switch {
		case tool.Parent != "":
			a.fault, a.shape = fault.UnknownID, ShapeUnknownParent
		case i == 0 && adjacent:
			a.shape = ShapeAdjacentBatches
		}
		g.toolActions(tool, b, s, i, as)
	}
	g.strayActions(b, t0, as)
	if g.opts.Contract.Has(contract.ApprovedNext) {
		approvedNext(b, as.list)
	}
	slices.SortStableFunc(as.list, byTime)
	g.actBuf = as.list
	g.countOrder(as.list)
	markSpread(as.list, len(b.Tools))
	return as.list
}

// approvedNext moves the run of each granted call of the batch (its
// progress, result and sub-agent calls) after every other call of the
// batch has ended or been answered: under contract.ApprovedNext an
// approved call runs in the next request, which carries the answers.
func approvedNext(b *batchPlan, list []action) {
	n := len(b.Tools)
	settled := make([]int64, n) // when each call was answered, or ended by its first result
	ended := make([]bool, n)
	for _, a := range list {
		if a.tool < 0 || a.tool >= n || a.ev.ID != b.Tools[a.tool].ID {
			continue
		}
		t := &b.Tools[a.tool]
		switch {
		case t.Permission != permissionNone && a.ev.Kind == event.KindPermission && a.ev.State != event.PermissionAsked:
			settled[a.tool] = max(settled[a.tool], a.t)
		case t.Permission == permissionNone && a.ev.Kind == event.KindToolDone && !ended[a.tool]:
			settled[a.tool], ended[a.tool] = a.t, true
		}
	}
	for i := range b.Tools {
		t := &b.Tools[i]
		if t.Permission != permissionGranted {
			continue
		}
		var after int64
		for j := range settled {
			if j != i {
				after = max(after, settled[j])
			}
		}
		run := func(a *action) bool {
			return a.tool == i && a.rank >= 0 && a.ev.Kind != event.KindPermission && !(a.ev.Kind == event.KindToolStart && a.ev.ID == t.ID)
		}
		first := int64(-1)
		for k := range list {
			if run(&list[k]) && (first < 0 || list[k].t < first) {
				first = list[k].t
			}
		}
		if first < 0 || first > after {
			continue
		}
		for k := range list {
			if run(&list[k]) {
				list[k].t += after + 1 - first
			}
		}
	}
}

// markSpread tags the last start of a batch with ShapeSpreadStarts when
// another event of the batch came between its first and last start.
func markSpread(acts []action, n int) {
	isStart := func(a *action) bool { return a.ev.Kind == event.KindToolStart && a.rank >= 0 && a.rank < n }
	first, last := -1, -1
	for i := range acts {
		if isStart(&acts[i]) {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	for i := first + 1; i < last; i++ {
		if !isStart(&acts[i]) {
			if acts[last].shape == "" {
				acts[last].shape = ShapeSpreadStarts
			}
			return
		}
	}
}

// countOrder counts fault.Order when, with the fault on, results arrive out of
// issue order.
func (g *gen) countOrder(acts []action) {
	if !g.on[fault.Order] {
		return
	}
	last := -1
	for _, a := range acts {
		if a.ev.Kind == event.KindToolDone && a.tool >= 0 {
			if a.tool < last {
				g.injected[fault.Order]++
				return
			}
			last = a.tool
		}
	}
}

// strayActions places the batch's stray events anywhere in its span.
func (g *gen) strayActions(b *batchPlan, t0 int64, as *actions) {
	end := t0
	for _, a := range as.list {
		end = max(end, a.t)
	}
	for _, s := range b.Strays {
		ev := event.Event{Kind: s.Kind, ID: s.ID}
		switch s.Kind {
		case event.KindToolDone:
			ev.OK, ev.Output = true, "stray result\n"
		case event.KindPermission:
			ev.State = event.PermissionGranted
		default:
			ev.Output = "stray progress\n"
		}
		f := fault.UnknownID
		if s.ID == "" {
			f = fault.EmptyID
		}
		as.add(t0+1+int64(s.At*float64(end-t0)), 1000, -1, f, ev) // counted if a cancel does not cut it off
	}
}

// toolActions adds one tool's events after its start at s.
func (g *gen) toolActions(tool *toolPlan, b *batchPlan, s int64, i int, as *actions) {
	d := max(tool.Duration, 10)
	if !g.permissionActions(tool, s, d, i, as) {
		return
	}
	for k := range tool.Progress {
		as.add(s+3+(d-4)*int64(k+1)/int64(tool.Progress+1), 100, i, "", g.progressEvent(tool, k))
	}
	for k := range tool.Burst {
		ev := event.Event{Kind: event.KindToolProgress, ID: tool.ID, Output: numbered(lineTexts, "line ", k)}
		f := fault.Fault("")
		if k == 0 {
			f = fault.ProgressBurst
		}
		as.add(s+3+d/2, 100, i, f, ev)
	}
	for j := range tool.Children {
		g.childActions(tool, j, b, s, d, i, false, as)
	}
	if tool.ResultFirst && tool.ProgressAfter {
		// Finished before it started: any progress is late.
		as.add(s+1+g.rng.Int64N(50), 100, i, fault.ProgressAfterResult, event.Event{Kind: event.KindToolProgress, ID: tool.ID, Output: "late output\n"})
	}
	if tool.Outcome == outcomeMissing || tool.ResultFirst {
		return
	}
	a := as.add(s+d, 100, i, "", doneEvent(tool))
	switch {
	case tool.ResultPending:
		a.shape = ShapeResultWhilePending
	case tool.ReportedMS > 0:
		a.shape = ShapeDurationMismatch
	}
	if tool.DuplicateResult {
		as.add(s+d+1+g.rng.Int64N(50), 100, i, fault.DuplicateResult, doneEvent(tool))
	}
	if tool.ProgressAfter {
		as.add(s+d+1+g.rng.Int64N(50), 100, i, fault.ProgressAfterResult, event.Event{Kind: event.KindToolProgress, ID: tool.ID, Output: "late output\n"})
	}
}

// permissionActions adds a tool's approval flow and reports whether the
// tool goes on to run (granted, or never asked).
func (g *gen) permissionActions(tool *toolPlan, s, d int64, i int, as *actions) bool {
	if tool.Permission == permissionNone {
		return true
	}
	as.add(s+1, 100, i, "", event.Event{Kind: event.KindPermission, ID: tool.ID, State: event.PermissionAsked})
	switch tool.Permission {
	case permissionGranted:
		as.add(s+2, 100, i, "", event.Event{Kind: event.KindPermission, ID: tool.ID, State: event.PermissionGranted})
		return true
	case permissionPending:
		return tool.ResultPending // approved elsewhere: it runs on, still shown pending
	case permissionDenied:
		as.add(s+2+d/4, 100, i, "", event.Event{Kind: event.KindPermission, ID: tool.ID, State: event.PermissionDenied})
		if tool.LateResult {
			as.add(s+d, 100, i, fault.LateResult, doneEvent(tool))
		}
		if tool.ProgressAfter {
			a := as.add(s+3+d/4+g.rng.Int64N(50), 100, i, fault.ProgressAfterResult, event.Event{Kind: event.KindToolProgress, ID: tool.ID, Output: "late output\n"})
			a.shape = ShapeProgressAfterDenial
		}
	}
	return false
}

// progressEvent is the k-th progress update of a tool: output text, or a
// seed 003 delegation step list.
func (g *gen) progressEvent(t *toolPlan, k int) event.Event {
	ev := event.Event{Kind: event.KindToolProgress, ID: t.ID}
	if !t.Delegation {
		if k < len(chunkTexts) {
			ev.Output = chunkTexts[k]
		} else {
			ev.Output = "chunk " + strconv.Itoa(k+1) + "\n"
		}
		return ev
	}
	ev.Details = delegationDetails(t.Progress, k)
	return ev
}

// delegationDetails is the seed 003 payload of a chain of n steps whose
// k-th is running: the bytes json.Marshal gives for
// {"ui":{"activeId","items":[{id,agent,task,status}...],"kind","mode"}},
// built by hand.
func delegationDetails(n, k int) json.RawMessage {
	b := make([]byte, 0, 64+80*n)
	b = append(b, `{"ui":{"activeId":"s`...)
	b = strconv.AppendInt(b, int64(k+1), 10)
	b = append(b, `","items":[`...)
	for j := range n {
		status := "pending"
		switch {
		case j < k:
			status = "ok"
		case j == k:
			status = "running"
		}
		if j > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":"s`...)
		b = strconv.AppendInt(b, int64(j+1), 10)
		b = append(b, `","agent":"explorer","task":"task `...)
		b = strconv.AppendInt(b, int64(j+1), 10)
		b = append(b, `","status":"`...)
		b = append(b, status...)
		b = append(b, `"}`...)
	}
	return append(b, `],"kind":"agent_delegation","mode":"chain"}}`...)
}
