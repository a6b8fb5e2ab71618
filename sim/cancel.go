package sim

import (
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
)

// cancelIn plays a batch up to the cancel point, then the cancel, the
// results the plan delivers late, and the turn's end.
func (g *gen) cancelIn(acts []action, b *batchPlan, c *cancelPlan) {
	cut := g.cutIndex(acts, c)
	g.play(acts[:cut])
	g.tick(10)
	g.emit(event.Event{Kind: event.KindCancel, Reason: "user pressed Esc"})
	f := fault.Cancel
	if c.BeforeResultOf >= 0 {
		f = fault.CancelBeforeResult
	}
	g.count(f, "")
	if c.LateProgress {
		g.lateProgress(acts, cut)
	}
	var late []event.Event
	if c.Late {
		for _, a := range acts[cut:] {
			if a.ev.Kind == event.KindToolDone && a.tool >= 0 && g.mayLate(acts[:cut], &a) {
				late = append(late, a.ev)
			}
		}
	}
	if !c.AfterTurnEnd {
		g.late(late)
	}
	g.tick(10)
	g.emit(event.Event{Kind: event.KindTurnEnd})
	if c.AfterTurnEnd {
		g.late(late)
	}
}

// mayLate reports whether the late result a may be sent: always, unless
// a contract is declared and the cancel cut its call off before it
// started (played holds the batch's actions before the cut): the result
// would be early, for an id the contract may rule out or for a later call
// that reuses the id.
func (g *gen) mayLate(played []action, a *action) bool {
	if len(g.opts.Contract) == 0 {
		return true
	}
	for _, p := range played {
		if p.tool == a.tool && p.ev.Kind == event.KindToolStart && p.ev.ID == a.ev.ID {
			return true
		}
	}
	return false
}

// late emits results that arrive after the turn was cut off.
func (g *gen) late(evs []event.Event) {
	for _, ev := range evs {
		g.tick(20)
		g.emit(ev)
		g.count(fault.LateResult, "")
	}
}

// cutIndex is how many of the batch's actions come before the cancel:
// right after the chosen tool's last progress for BeforeResultOf, else a
// point At of the way through the batch (at least one event in).
func (g *gen) cutIndex(acts []action, c *cancelPlan) int {
	if c.BeforeResultOf >= 0 {
		last := -1
		for i, a := range acts {
			if a.tool != c.BeforeResultOf {
				continue
			}
			switch a.ev.Kind {
			case event.KindToolProgress:
				last = i
			case event.KindToolDone:
				if last >= 0 {
					return last + 1
				}
			}
		}
	}
	return 1 + int(c.At*float64(len(acts)-1))
}

// lateProgress emits, right after the cancel, the first cut-off progress
// update of a call that had started and not finished before the cancel.
func (g *gen) lateProgress(acts []action, cut int) {
	state := map[string]event.Kind{} // id → its last start or result before the cut
	for _, a := range acts[:cut] {
		if a.ev.Kind == event.KindToolStart || a.ev.Kind == event.KindToolDone {
			state[a.ev.ID] = a.ev.Kind
		}
	}
	for _, a := range acts[cut:] {
		if a.ev.Kind == event.KindToolProgress && a.tool >= 0 && a.ev.ID != "" && state[a.ev.ID] == event.KindToolStart {
			g.tick(5)
			g.emit(a.ev)
			g.count(fault.ProgressAfterResult, ShapeProgressAfterInterrupt)
			return
		}
	}
}

// cancelInText cancels the turn while its opening text streams: the first
// delta, the cancel, the turn's end.
func (g *gen) cancelInText(first string) {
	g.texts(event.KindText, []string{first})
	g.tick(10)
	g.emit(event.Event{Kind: event.KindCancel, Reason: "user pressed Esc"})
	g.count(fault.Cancel, ShapeCancelInText)
	g.tick(10)
	g.emit(event.Event{Kind: event.KindTurnEnd})
}

// truncate ends the trace inside its last assistant turn, right after a
// call's start and before its first result: the stream stops with calls
// live.
func (g *gen) truncate() {
	evs := g.evs
	first := -1
	for i := range evs {
		if evs[i].Kind == event.KindTurnStart && evs[i].Role == event.RoleAssistant {
			first = i
		}
	}
	var cands [][2]int // a start, and the index of its first result (or the end)
	for i := max(first, 0); i < len(evs); i++ {
		if evs[i].Kind != event.KindToolStart || evs[i].ID == "" {
			continue
		}
		j := i + 1
		for j < len(evs) && !(evs[j].Kind == event.KindToolDone && evs[j].ID == evs[i].ID) {
			j++
		}
		cands = append(cands, [2]int{i, j})
	}
	if first < 0 || len(cands) == 0 {
		return
	}
	c := cands[g.rng.IntN(len(cands))]
	k := min(c[0]+1+g.rng.IntN(c[1]-c[0]), len(evs)-1) // the turn_end goes at least
	g.evs = evs[:k]
	for _, tg := range g.tags {
		if tg.at >= k { // counted on an event that is cut off
			g.uncount(tg)
		}
	}
	g.shapes[string(ShapeTruncated)]++
}

// tag records what was counted on the event at index at.
type tag struct {
	at    int
	fault fault.Fault
	shape Shape
}

// count counts a fault and a shape ("" for none) landing on the last
// event emitted.
func (g *gen) count(f fault.Fault, s Shape) {
	t := tag{at: len(g.evs) - 1, fault: f, shape: s}
	g.tags = append(g.tags, t)
	if f != "" {
		g.injected[f]++
	}
	if s != "" {
		g.shapes[string(s)]++
	}
}

func (g *gen) uncount(t tag) {
	if t.fault != "" {
		if g.injected[t.fault]--; g.injected[t.fault] == 0 {
			delete(g.injected, t.fault)
		}
	}
	if t.shape != "" {
		if g.shapes[string(t.shape)]--; g.shapes[string(t.shape)] == 0 {
			delete(g.shapes, string(t.shape))
		}
	}
}
