package store

import (
	"slices"

	"github.com/toolsim/toolsim/event"
)

// lifecycle folds a tool's events into one record (the Collapse fault),
// written when the result arrives.
func (w *writer) lifecycle(i int, ev *event.Event) {
	p := w.life[ev.ID]
	switch {
	case ev.Kind == event.KindToolDone && p == nil:
		// A result with no call open: perhaps its call starts later, finished
		// on arrival. That call gets no lifecycle (see below).
		w.orphans[ev.ID]++
		w.plainTool(i, ev)
	case ev.Kind == event.KindToolStart && p == nil && w.orphans[ev.ID] > 0:
		// The call whose result came first is over as it starts: anything
		// later for its id (late progress) must not be folded into it.
		w.orphans[ev.ID]--
		w.plainTool(i, ev)
	case ev.Kind == event.KindToolStart && p == nil:
		p = w.open(TypeToolLifecycle, ev.T, i)
		p.rec.CallID, p.rec.Name, p.rec.Args, p.rec.Batch, p.rec.ParentCall = ev.ID, ev.Name, ev.Args, ev.Batch, ev.Parent
		w.life[ev.ID] = p
		w.lifeKeys = append(w.lifeKeys, ev.ID)
	case p == nil || ev.Kind == event.KindToolStart:
		// Nothing open to fold into (an unknown id, or a reused one): a
		// record of its own keeps the event.
		w.plainTool(i, ev)
	case ev.Kind == event.KindToolProgress:
		p.rec.Updates++
		p.rec.Progress += ev.Output
		if ev.Details != nil {
			p.rec.Details = ev.Details
		}
		p.events = append(p.events, i)
	default: // tool_done
		ok := ev.OK
		p.rec.OK, p.rec.Output, p.rec.Error, p.rec.DurationMS = &ok, ev.Output, ev.Error, ev.DurationMS
		w.reserveEnd(p, ev.T)
		p.events = append(p.events, i)
		w.closeLifecycle(ev.ID)
		w.flushSub(ev.ID)
	}
}

// plainTool writes a tool event as an ordinary record.
func (w *writer) plainTool(i int, ev *event.Event) {
	p := w.open(TypeToolCall, ev.T, i)
	p.rec.CallID = ev.ID
	switch ev.Kind {
	case event.KindToolStart:
		p.rec.Name, p.rec.Args, p.rec.Batch, p.rec.ParentCall = ev.Name, ev.Args, ev.Batch, ev.Parent
	case event.KindToolProgress:
		p.rec.Type, p.rec.Output, p.rec.Details = TypeToolProgress, ev.Output, ev.Details
	default:
		ok := ev.OK
		p.rec.Type, p.rec.OK, p.rec.Output, p.rec.Error, p.rec.DurationMS = TypeToolResult, &ok, ev.Output, ev.Error, ev.DurationMS
	}
	w.route(ev.ID, p)
}

func (w *writer) closeLifecycle(id string) {
	p := w.life[id]
	delete(w.life, id)
	w.lifeKeys = slices.DeleteFunc(w.lifeKeys, func(k string) bool { return k == id })
	w.route(id, p)
}

// flushLifecycles writes lifecycles that never got a result (the turn was
// cancelled or ended, or the app shut down first), marking where in event
// order they were closed: their folded progress is replayed there.
func (w *writer) flushLifecycles(t int64) {
	for len(w.lifeKeys) > 0 {
		p := w.life[w.lifeKeys[0]]
		w.reserveEnd(p, t)
		w.closeLifecycle(w.lifeKeys[0])
	}
}

// reserveEnd gives a lifecycle's second half its place in event order.
func (w *writer) reserveEnd(p *pending, t int64) {
	end := w.open(TypeToolResult, t)
	p.rec.EndTS, p.rec.EndSeq, p.rec.EndParent = end.rec.TS, end.rec.Seq, end.rec.Parent
	w.lastID = p.rec.ID + "#end"
	w.recycle(end) // only its place was wanted
}
