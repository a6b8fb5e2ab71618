package sim

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

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
}

// schedule turns the plan into events.
func (g *gen) schedule(p *Plan) {
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

func (g *gen) scheduleTurn(t *Turn) {
	if t.User != "" {
		g.emit(event.Event{Kind: event.KindTurnStart, Role: event.RoleUser})
		g.tick(5)
		g.emit(event.Event{Kind: event.KindUser, Text: t.User})
		g.emit(event.Event{Kind: event.KindTurnEnd})
	}
	g.tick(200)
	g.emit(event.Event{Kind: event.KindTurnStart, Role: event.RoleAssistant})
	g.texts(event.KindThinking, t.Thinking)
	g.texts(event.KindText, t.Text)
	for i := range t.Batches {
		g.tick(50)
		acts := g.batchActions(&t.Batches[i])
		if c := t.Cancel; c != nil && c.Batch == i {
			g.cancelIn(acts, &t.Batches[i], c)
			return
		}
		g.play(acts)
		if i == 0 && t.Error != "" {
			g.tick(10)
			g.emit(event.Event{Kind: event.KindError, Message: t.Error})
		}
		if i < len(t.Batches)-1 && g.feat.text {
			g.texts(event.KindText, []string{"Next step."})
		}
	}
	if t.Closing != "" {
		g.texts(event.KindText, []string{t.Closing})
	}
	g.tick(20)
	g.emit(event.Event{Kind: event.KindTurnEnd})
}

// play emits actions in order, moving the clock to each one's time.
func (g *gen) play(acts []action) {
	for _, a := range acts {
		g.now = max(g.now, a.t)
		g.emit(a.ev)
		if a.fault != "" {
			g.injected[a.fault]++
		}
	}
}

// batchActions lays out every event of a batch on the clock: the starts at
// the batch's first instant, each tool's permission, progress, children and
// result after it, and the strays anywhere in the span.
func (g *gen) batchActions(b *Batch) []action {
	t0 := g.now
	var acts []action
	add := func(t int64, rank, tool int, f fault.Fault, ev event.Event) {
		acts = append(acts, action{t: t, rank: rank, tie: g.rng.Uint64(), ev: ev, tool: tool, fault: f})
	}
	for i, tool := range b.Tools {
		if tool.ResultFirst {
			add(t0, -1, i, fault.ResultBeforeStart, doneEvent(&tool))
		}
		ev := event.Event{Kind: event.KindToolStart, ID: tool.ID, Name: tool.Name, Args: tool.Args, Batch: b.ID}
		add(t0, i, i, "", ev)
		g.toolActions(&tool, b, t0, i, add)
	}
	g.strayActions(b, t0, acts, add)
	slices.SortStableFunc(acts, func(a, b action) int {
		if a.t != b.t {
			return cmp.Compare(a.t, b.t)
		}
		if a.rank != b.rank {
			return a.rank - b.rank
		}
		return cmp.Compare(a.tie, b.tie)
	})
	g.countOrder(b, acts)
	return acts
}

// countOrder counts fault.Order when, with the fault on, results arrive out of
// issue order.
func (g *gen) countOrder(b *Batch, acts []action) {
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

type addFunc func(t int64, rank, tool int, f fault.Fault, ev event.Event)

// strayActions places the batch's stray events anywhere in its span.
func (g *gen) strayActions(b *Batch, t0 int64, acts []action, add addFunc) {
	end := t0
	for _, a := range acts {
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
		add(t0+1+int64(s.At*float64(end-t0)), 1000, -1, f, ev) // counted if a cancel does not cut it off
	}
}

// toolActions adds one tool's events after its start at s.
func (g *gen) toolActions(tool *Tool, b *Batch, s int64, i int, add addFunc) {
	d := max(tool.Duration, 10)
	if !permissionActions(tool, s, d, i, add) {
		return
	}
	for k := range tool.Progress {
		add(s+3+(d-4)*int64(k+1)/int64(tool.Progress+1), 100, i, "", g.progressEvent(tool, k))
	}
	for k := range tool.Burst {
		ev := event.Event{Kind: event.KindToolProgress, ID: tool.ID, Output: fmt.Sprintf("line %d\n", k)}
		f := fault.Fault("")
		if k == 0 {
			f = fault.ProgressBurst
		}
		add(s+3+d/2, 100, i, f, ev)
	}
	for j := range tool.Children {
		g.childActions(tool, &tool.Children[j], b, j, s+3+d*int64(j+1)/4, d/4, i, add)
	}
	if tool.ResultFirst && tool.ProgressAfter {
		// Finished before it started: any progress is late.
		add(s+1+g.rng.Int64N(50), 100, i, fault.ProgressAfterResult, event.Event{Kind: event.KindToolProgress, ID: tool.ID, Output: "late output\n"})
	}
	if tool.Outcome == OutcomeMissing || tool.ResultFirst {
		return
	}
	add(s+d, 100, i, "", doneEvent(tool))
	if tool.DuplicateResult {
		add(s+d+1+g.rng.Int64N(50), 100, i, fault.DuplicateResult, doneEvent(tool))
	}
	if tool.ProgressAfter {
		add(s+d+1+g.rng.Int64N(50), 100, i, fault.ProgressAfterResult, event.Event{Kind: event.KindToolProgress, ID: tool.ID, Output: "late output\n"})
	}
}

// permissionActions adds a tool's approval flow and reports whether the
// tool goes on to run (granted, or never asked).
func permissionActions(tool *Tool, s, d int64, i int, add addFunc) bool {
	if tool.Permission == PermissionNone {
		return true
	}
	add(s+1, 100, i, "", event.Event{Kind: event.KindPermission, ID: tool.ID, State: event.PermissionAsked})
	switch tool.Permission {
	case PermissionGranted:
		add(s+2, 100, i, "", event.Event{Kind: event.KindPermission, ID: tool.ID, State: event.PermissionGranted})
		return true
	case PermissionDenied:
		add(s+2+d/4, 100, i, "", event.Event{Kind: event.KindPermission, ID: tool.ID, State: event.PermissionDenied})
		if tool.LateResult {
			add(s+d, 100, i, fault.LateResult, doneEvent(tool))
		}
	}
	return false
}

// childActions adds the j-th sub-agent call running under parent from s
// for d ms. When the batch has an id, the child's own message gets one too.
func (g *gen) childActions(parent, c *Tool, b *Batch, j int, s, d int64, i int, add addFunc) {
	d = max(d, 4)
	batch := ""
	if b.ID != "" {
		batch = fmt.Sprintf("%s/%s/%d", b.ID, parent.ID, j+1)
	}
	add(s, 100, i, "", event.Event{Kind: event.KindToolStart, ID: c.ID, Name: c.Name, Args: c.Args, Parent: parent.ID, Batch: batch})
	if c.Progress > 0 {
		add(s+d/2, 100, i, "", event.Event{Kind: event.KindToolProgress, ID: c.ID, Output: "reading...\n"})
	}
	if c.Outcome != OutcomeMissing {
		add(s+d, 100, i, "", doneEvent(c))
	}
}

func doneEvent(t *Tool) event.Event {
	ev := event.Event{Kind: event.KindToolDone, ID: t.ID, OK: t.Outcome != OutcomeFailed, Output: "3 matches\n"}
	if !ev.OK {
		ev.Error, ev.Output = "exit status 1", ""
	}
	return ev
}

// progressEvent is the k-th progress update of a tool: output text, or a
// seed 003 delegation step list.
func (g *gen) progressEvent(t *Tool, k int) event.Event {
	ev := event.Event{Kind: event.KindToolProgress, ID: t.ID, Output: fmt.Sprintf("chunk %d\n", k+1)}
	if !t.Delegation {
		return ev
	}
	type step struct {
		ID     string `json:"id"`
		Agent  string `json:"agent"`
		Task   string `json:"task"`
		Status string `json:"status"`
	}
	steps := make([]step, t.Progress)
	for j := range steps {
		status := "pending"
		switch {
		case j < k:
			status = "ok"
		case j == k:
			status = "running"
		}
		steps[j] = step{ID: fmt.Sprintf("s%d", j+1), Agent: "explorer", Task: fmt.Sprintf("task %d", j+1), Status: status}
	}
	ui := map[string]any{"kind": "agent_delegation", "mode": "chain", "items": steps, "activeId": steps[k].ID}
	details, _ := json.Marshal(map[string]any{"ui": ui})
	ev.Output, ev.Details = "", details
	return ev
}
