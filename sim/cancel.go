package sim

import (
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
)

// cancelIn plays a batch up to the cancel point, then the cancel, the
// results the plan delivers late, and the turn's end.
func (g *gen) cancelIn(acts []action, b *Batch, c *CancelPlan) {
	cut := g.cutIndex(acts, c)
	g.play(acts[:cut])
	g.tick(10)
	g.emit(event.Event{Kind: event.KindCancel, Reason: "user pressed Esc"})
	f := fault.Cancel
	if c.BeforeResultOf >= 0 {
		f = fault.CancelBeforeResult
	}
	g.injected[f]++
	var late []event.Event
	if c.Late {
		for _, a := range acts[cut:] {
			if a.ev.Kind == event.KindToolDone && a.tool >= 0 {
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

// late emits results that arrive after the turn was cut off.
func (g *gen) late(evs []event.Event) {
	for _, ev := range evs {
		g.tick(20)
		g.emit(ev)
		g.injected[fault.LateResult]++
	}
}

// cutIndex is how many of the batch's actions come before the cancel:
// right after the chosen tool's last progress for BeforeResultOf, else a
// point At of the way through the batch (at least one event in).
func (g *gen) cutIndex(acts []action, c *CancelPlan) int {
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
