package engine

import (
	"github.com/toolsim/toolsim/event"
	"github.com/toolsim/toolsim/timeline"
)

// place puts a new tool in the timeline: under its parent if it has one,
// into the open group when grouping rules allow, else as a new item. It
// returns where the tool went.
func (e *Engine) place(made *madeTool, ev *event.Event) *toolRef {
	t, ref := &made.tool, &made.ref
	ref.tool = t
	if ev.Parent != "" {
		if p := e.parentRef(ev.Parent); p != nil {
			ref.parent = p
		} else {
			e.diag(ev.Seq, timeline.DiagUnknownParent, ev.ID)
		}
	}
	e.own.addTool(t)
	if t.Meta {
		// Meta tools never join a group, and do not end the run either.
		it := &timeline.Item{Kind: timeline.ItemMetaTool, Tool: t, Batch: t.Batch}
		ref.item = int32(e.push(ref.parent, it))
		e.bumpRoot(ref)
		return ref
	}
	var it *timeline.Item
	if i := e.joinable(ref.parent, t); i < 0 {
		it = &timeline.Item{Kind: timeline.ItemTool, Tool: t, Batch: t.Batch}
		ref.item = int32(e.push(ref.parent, it))
	} else {
		ref.item, it = int32(i), e.writableItem(ref.parent, i)
		if it.Kind == timeline.ItemTool {
			it.Kind, it.Tools, it.Tool = timeline.ItemToolGroup, []*timeline.Tool{it.Tool, t}, nil
		} else {
			it.Tools = append(it.Tools, t)
		}
		ref.pos = int32(len(it.Tools) - 1)
	}
	e.bump(it)
	e.bumpRoot(ref)
	e.run = run{open: true, parent: ref.parent, item: ref.item}
	return ref
}

// parentRef finds the tool a child runs under: the oldest live tool with
// that id, else the most recent one.
func (e *Engine) parentRef(id string) *toolRef {
	s := e.ids[id]
	switch {
	case s == nil:
		return nil
	case len(s.live) > 0:
		return s.live[0]
	default:
		return s.last
	}
}

// joinable returns the index of the item a new tool joins among parent's
// children (the top level when nil), or -1. With a batch id, the tool
// joins the item just before it in the same container when that item has
// the same batch (meta tools of the batch in between are skipped). Without
// one, it joins the item of the current run of consecutive tool_start
// events in the same container.
func (e *Engine) joinable(parent *toolRef, t *timeline.Tool) int {
	items := e.items(parent)
	if t.Batch == "" {
		if r := e.run; r.open && r.parent == parent && items[r.item].Batch == "" {
			return int(r.item)
		}
		return -1
	}
	for i := len(items) - 1; i >= 0; i-- {
		it := items[i]
		switch {
		case it.Kind == timeline.ItemMetaTool && it.Batch == t.Batch:
			continue
		case (it.Kind == timeline.ItemTool || it.Kind == timeline.ItemToolGroup) && it.Batch == t.Batch:
			return i
		}
		return -1
	}
	return -1
}
