package store

import (
	"maps"
	"slices"

	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/fault"
)

// event turns one canonical event into records, as a live app would.
func (w *writer) event(i int, ev *event.Event) {
	switch ev.Kind {
	case event.KindText, event.KindThinking:
		w.textDelta(i, ev)
		return
	}
	w.closeText()
	switch ev.Kind {
	case event.KindTurnStart:
		p := w.open(TypeTurnStart, ev.T, i)
		p.rec.Role = ev.Role
		w.write(p)
	case event.KindUser:
		p := w.open(TypeUserMessage, ev.T, i)
		p.rec.Text = ev.Text
		w.write(p)
	case event.KindToolStart, event.KindToolProgress, event.KindToolDone:
		w.tool(i, ev)
	case event.KindPermission:
		w.permission(i, ev)
	case event.KindCancel:
		w.flushHeld()
		w.flushLifecycles(ev.T)
		p := w.open(TypeCancel, ev.T, i)
		p.rec.Reason = ev.Reason
		w.write(p)
	case event.KindError:
		p := w.open(TypeError, ev.T, i)
		p.rec.Message = ev.Message
		w.write(p)
	case event.KindTurnEnd:
		w.flushHeld()
		w.flushLifecycles(ev.T)
		w.write(w.open(TypeTurnEnd, ev.T, i))
	default:
		p := w.open(TypeRawEvent, ev.T, i)
		p.rec.Event = event.AppendEvent(nil, ev)
		w.write(p)
	}
}

// permission writes a permission record. A denial ends the tool: under
// Collapse its lifecycle is closed first, so its folded progress comes
// before the denial.
func (w *writer) permission(i int, ev *event.Event) {
	if lp := w.life[ev.ID]; lp != nil && ev.State == event.PermissionDenied {
		w.reserveEnd(lp, ev.T)
		w.closeLifecycle(ev.ID)
	}
	p := w.open(TypePermission, ev.T, i)
	p.rec.CallID, p.rec.State = ev.ID, ev.State
	w.route(ev.ID, p)
}

// textDelta grows the open text segment, or writes a delta record in fine
// mode.
func (w *writer) textDelta(i int, ev *event.Event) {
	typ, delta := TypeAssistant, TypeTextDelta
	if ev.Kind == event.KindThinking {
		typ, delta = TypeThinking, TypeTextDelta
		delta = TypeThinkingDelta
	}
	if w.opts.Fine {
		p := w.open(delta, ev.T, i)
		p.rec.Text = ev.Text
		w.writeText(p)
		return
	}
	if w.text != nil && w.text.rec.Type == typ {
		w.text.rec.Text += ev.Text
		w.text.events = append(w.text.events, i)
		return
	}
	w.closeText()
	w.text = w.open(typ, ev.T, i)
	w.text.rec.Text = ev.Text
}

// closeText ends the open segment: it is written, or held under LateText.
func (w *writer) closeText() {
	if w.text == nil {
		return
	}
	p := w.text
	w.text = nil
	w.writeText(p)
}

func (w *writer) writeText(p *pending) {
	if w.has[fault.LateText] && p.rec.Type != TypeThinking && p.rec.Type != TypeThinkingDelta {
		w.held = append(w.held, p)
		return
	}
	w.write(p)
}

// flushHeld writes held text at cancel or turn end. A segment still open
// at a cancel is the interrupted one.
func (w *writer) flushHeld() {
	if w.text != nil && w.text.rec.Type == TypeAssistant {
		w.text.rec.Interrupted = true
	}
	w.closeText()
	for _, p := range w.held {
		w.write(p)
	}
	w.held = nil
}

// tool writes tool records: plainly, folded into a lifecycle (fault.Collapse),
// or held for the sub-agent block (fault.SubagentBlock).
func (w *writer) tool(i int, ev *event.Event) {
	if ev.Kind == event.KindToolStart && ev.Parent != "" {
		// A reused id can name its own ancestor: never link a call to itself.
		if r := w.rootOf(ev.Parent); r != ev.ID {
			w.root[ev.ID] = r
		}
	}
	if w.has[fault.Collapse] {
		w.lifecycle(i, ev)
		return
	}
	p := w.open(TypeToolCall, ev.T, i)
	p.rec.CallID = ev.ID
	switch ev.Kind {
	case event.KindToolStart:
		p.rec.Name, p.rec.Args, p.rec.Batch, p.rec.ParentCall = ev.Name, ev.Args, ev.Batch, ev.Parent
	case event.KindToolProgress:
		p.rec.Type, p.rec.Output, p.rec.Details = TypeToolProgress, ev.Output, ev.Details
	case event.KindToolDone:
		ok := ev.OK
		p.rec.Type, p.rec.OK, p.rec.Output, p.rec.Error, p.rec.DurationMS = TypeToolResult, &ok, ev.Output, ev.Error, ev.DurationMS
	}
	w.route(ev.ID, p)
	if ev.Kind == event.KindToolDone {
		w.flushSub(ev.ID)
	}
}

// rootOf follows parent links to the top-level call. Links never form a
// cycle (tool refuses self links), and the walk is bounded all the same.
func (w *writer) rootOf(id string) string {
	for range len(w.root) + 1 {
		r, ok := w.root[id]
		if !ok || r == id {
			return id
		}
		id = r
	}
	return id
}

// route writes a record, or holds it when it belongs to a sub-agent tool
// under SubagentBlock.
func (w *writer) route(callID string, p *pending) {
	if r, ok := w.root[callID]; ok && w.has[fault.SubagentBlock] {
		w.sub[r] = append(w.sub[r], p)
		return
	}
	w.write(p)
}

// flushSub appends the held sub-agent block of a finished root call.
func (w *writer) flushSub(id string) {
	if _, child := w.root[id]; child {
		return
	}
	for _, p := range w.sub[id] {
		w.write(p)
	}
	delete(w.sub, id)
}

// flushAllSub writes every block still held at the end, in id order. A
// block's key may have become a child id since (ids are reused), so the
// blocks are written here directly rather than through flushSub.
func (w *writer) flushAllSub() {
	for _, id := range slices.Sorted(maps.Keys(w.sub)) {
		for _, p := range w.sub[id] {
			w.write(p)
		}
	}
	clear(w.sub)
}
