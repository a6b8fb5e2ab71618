package engine

import (
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// This file handles the conversational events: turns, text, cancel.

func (e *Engine) turnStart(ev *event.Event) {
	e.closeText()
	e.cancelled = false
	e.turnRole = ev.Role
}

// turnEnd resolves tools still live (no spinner outlives its turn), reports
// results that never found their start, and closes an assistant turn with a
// separator unless the turn was cancelled (the Interrupted notice closes it).
func (e *Engine) turnEnd(ev *event.Event) {
	e.closeText()
	e.flushEarly()
	e.interruptLive(ev.T, timeline.DiagUnfinishedTurnEnd, ev.Seq)
	if e.turnRole != event.RoleUser && !e.cancelled {
		e.push(nil, &timeline.Item{Kind: timeline.ItemSeparator, Text: "Turn complete"})
	}
	e.cancelled = false
	e.turnRole = ""
}

// appendText adds a text or thinking delta: consecutive deltas of one kind
// grow one item; anything shown in between starts a new one.
func (e *Engine) appendText(kind timeline.ItemKind, text string) {
	if i, ok := e.openText(kind); ok {
		open := e.writableItem(nil, i)
		open.Text += text
		e.bump(open)
		return
	}
	e.textOpen = 1 + e.push(nil, &timeline.Item{Kind: kind, Text: text})
}

// openText returns the index of the text item still growing when it is
// of the kind and still the last top-level item.
func (e *Engine) openText(kind timeline.ItemKind) (int, bool) {
	i := e.textOpen - 1
	items := e.tl.Items
	return i, i >= 0 && i == len(items)-1 && items[i].Kind == kind
}

func (e *Engine) closeText() { e.textOpen = 0 }

// cancel interrupts every live tool, marks assistant text that was still
// streaming as interrupted, and adds an Interrupted notice.
func (e *Engine) cancel(ev *event.Event) {
	if i, ok := e.openText(timeline.ItemAssistant); ok {
		open := e.writableItem(nil, i)
		open.Interrupted = true
		e.bump(open)
	}
	e.closeText()
	e.interruptLive(ev.T, "", ev.Seq)
	e.push(nil, &timeline.Item{Kind: timeline.ItemNotice, Level: timeline.NoticeInterrupted, Text: ev.Reason})
	e.cancelled = true
}

// interruptLive moves every live tool to interrupted at time t. A non-empty
// code adds that diagnostic for each tool it resolved.
func (e *Engine) interruptLive(t int64, code string, seq int64) {
	for _, ref := range e.live {
		if e.tool(ref).Status.Terminal() {
			continue
		}
		tool := e.writableTool(ref)
		tool.Unfinished = code == timeline.DiagUnfinishedAtEnd
		e.finishTool(ref, timeline.StatusInterrupted, t)
		if code != "" {
			e.diag(seq, code, tool.ID)
		}
	}
	if e.own.cow {
		e.live = nil // its array may be a clone's too
	} else {
		e.live = e.live[:0]
	}
}

// flushEarly reports results still waiting for a start that never came.
func (e *Engine) flushEarly() {
	if len(e.early) == 0 {
		return
	}
	var pending []*event.Event
	for _, evs := range e.early {
		pending = append(pending, evs...)
	}
	sortBySeq(pending)
	for _, ev := range pending {
		e.diag(ev.Seq, timeline.DiagUnknownID, ev.ID)
	}
	clear(e.early)
}

func sortBySeq(evs []*event.Event) {
	for i := 1; i < len(evs); i++ {
		for j := i; j > 0 && evs[j].Seq < evs[j-1].Seq; j-- {
			evs[j], evs[j-1] = evs[j-1], evs[j]
		}
	}
}
